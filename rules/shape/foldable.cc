// shape-foldable: Shape/Size reading a tensor whose shape is fully static, so the shape
// computation it starts is a constant a simplifier could fold.
#include <fmt/format.h>
#include <onnxlint/element_types.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>

#include <unordered_set>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class Foldable final : public RuleBase<Foldable> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "shape-foldable",
        .category = "shape",
        .severity = Severity::Info,
        .summary = "Shape computation on fully static shapes that a simplifier could fold",
        .fixable = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const Provenance& p = ctx.get<Provenance>();
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    for (const Node& n : g.nodes()) {
      if (!n.in_default_domain()) continue;
      if (n.op_type() != "Shape" && n.op_type() != "Size") continue;
      // A node whose result reaches no output is graph-dead-node's finding: removing it is the
      // fix, folding it is moot.
      if (!info.live[n.index()]) continue;
      if (n.inputs().empty() || n.outputs().empty()) continue;
      ValueId in = p.input(n, 0);
      ValueId out = p.output(n, 0);
      if (in == kNoValue || out == kNoValue) continue;
      if (p.shape_class(in) != ShapeClass::Static) continue;
      // Only when the analysis knows the value: that is what folding produces.
      auto value = p.known_ints(out);
      if (!value) continue;
      std::string text;
      for (int64_t x : *value) text += (text.empty() ? "" : ", ") + std::to_string(x);
      Diagnostic& d = ctx.report(
          ctx.at_node(n),
          fmt::format("{} reads the static shape of '{}', so its result is the constant [{}] "
                      "and the shape computation it feeds can be folded",
                      node_label(n), n.inputs()[0], text));
      d.help =
          "export with `do_constant_folding=True` (the default) or run onnx-simplifier "
          "(`onnxsim`) to fold shape computations on static shapes";
      // Before IR 4 an initializer must also be a graph input: folding would add inputs.
      if (ctx.model().ir_version() >= 4 && g.kind() != Graph::Kind::Function) {
        fold(n, g, info, p, ctx, d);
      }
    }
  }

 private:
  // The value of `v` as a tensor the fix can write: proven dims, known integers that fill
  // them, an integer element type.
  static std::optional<FixTensor> constant_of(ValueId v, const Provenance& p,
                                              const ElementTypes& types) {
    const int32_t elem = types.elem_type(v);
    // Inferred, not only declared: the fix writes proven facts only.
    if ((elem != 7 && elem != 6) || !types.inferred(v)) return std::nullopt;  // INT64, INT32
    auto values = p.known_ints(v);
    auto dims = p.proven_dims(v);
    if (!values || !dims) return std::nullopt;
    uint64_t count = 1;
    for (int64_t d : *dims) count *= static_cast<uint64_t>(d);
    if (count != values->size()) return std::nullopt;
    FixTensor t;
    t.name = std::string(p.name_of(v));
    t.elem_type = elem;
    t.dims = std::move(*dims);
    t.values = std::move(*values);
    return t;
  }

  // The fix: every node downstream of `shape` whose outputs are all proven constants (the
  // region) is removed, and each of its outputs read outside the region becomes an
  // initializer holding the proven value. A node whose output is a graph output, or which
  // holds a subgraph, stays (and ends the region).
  static void fold(const Node& shape, const Graph& g, const GraphInfo& info, const Provenance& p,
                   RuleContext& ctx, Diagnostic& d) {
    const ElementTypes& types = ctx.get<ElementTypes>();
    std::vector<const Node*> region, work{&shape};
    std::unordered_set<const Node*> in_region{&shape};
    std::vector<FixTensor> folded;
    auto foldable = [&](const Node& n) {
      if (!n.in_default_domain() || !n.subgraphs().empty() || n.outputs().empty()) return false;
      for (size_t k = 0; k < n.outputs().size(); ++k) {
        if (n.outputs()[k].empty()) continue;
        const ValueId out = p.output(n, k);
        if (out == kNoValue || !constant_of(out, p, types)) return false;
        for (const ValueUse& use : info.uses_of(n.outputs()[k])) {
          if (use.node == nullptr) return false;  // a graph output
        }
      }
      return true;
    };
    // The fix exists when the Shape itself folds; the region is worked out only in fix mode.
    if (!foldable(shape)) return;
    FixBuilder fix = ctx.fix(d, FixSafety::Safe,
                             "fold the shape computation into initializers holding its values");
    if (!fix.active()) return;
    while (!work.empty()) {
      const Node* n = work.back();
      work.pop_back();
      region.push_back(n);
      for (std::string_view out : n->outputs()) {
        if (out.empty()) continue;
        for (const ValueUse& use : info.uses_of(out)) {
          if (use.via_subgraph || use.node == nullptr || in_region.count(use.node)) continue;
          if (use.node->graph() != &g || !foldable(*use.node)) continue;
          in_region.insert(use.node);
          work.push_back(use.node);
        }
      }
    }
    // Outputs read outside the region are the values the fix writes.
    for (const Node* n : region) {
      for (size_t k = 0; k < n->outputs().size(); ++k) {
        std::string_view out = n->outputs()[k];
        if (out.empty()) continue;
        bool read_outside = false;
        for (const ValueUse& use : info.uses_of(out)) {
          if (use.via_subgraph || !in_region.count(use.node)) read_outside = true;
        }
        if (read_outside) folded.push_back(*constant_of(p.output(*n, k), p, types));
      }
    }
    for (FixTensor& t : folded) fix.add_initializer(g, std::move(t));
    for (const Node* n : region) fix.remove_node(*n);
  }
};

}  // namespace

void add_shape_foldable(RuleRegistry& registry) { registry.add<Foldable>(); }

}  // namespace onnxlint::rules
