// shape-foldable: Shape/Size reading a tensor whose shape is fully static, so the shape
// computation it starts is a constant a simplifier could fold.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>

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
    }
  }
};

}  // namespace

void add_shape_foldable(RuleRegistry& registry) { registry.add<Foldable>(); }

}  // namespace onnxlint::rules
