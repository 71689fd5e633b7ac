// export-unrolled-loop: a run of Gather/Slice nodes reading every position 0..N-1 of one axis
// of one tensor, N being that axis's static size: the trace of a Python loop over a dimension
// (`for i in range(x.shape[1]): ... x[:, i] ...`). Layers that merely repeat (a transformer's
// blocks) do not index one tensor position by position and are not flagged; neither is
// unpacking a shape vector (`b, s, d = x.shape`). A loop over an axis whose size is dynamic is
// export-baked-shape's (an error: the trace froze it to the example's size), not reported here.
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <map>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

struct Access {
  int64_t index;
  std::optional<int64_t> end;  // Slice: the end bound (exclusive), checked once N is known
  const Node* node;
};

// Static dims of a value: the analysis's, else a declaration (value_info, input, output).
std::optional<std::vector<int64_t>> static_dims(const Provenance& p, ValueId v) {
  std::vector<int64_t> out;
  if (auto ds = p.dims(v)) {
    bool ok = true;
    for (const DimFact& d : *ds) {
      if (d.kind != DimFact::Kind::Fixed) ok = false;
      out.push_back(d.kind == DimFact::Kind::Fixed ? d.value : -1);
    }
    if (ok) return out;
  }
  const Graph* g = p.graph_of(v);
  if (g == nullptr) return std::nullopt;
  std::string_view name = p.name_of(v);
  for (const std::span<const ValueInfo> list : {g->value_info(), g->inputs(), g->outputs()}) {
    for (const ValueInfo& vi : list) {
      if (vi.name != name || !vi.type.has_shape) continue;
      out.clear();
      for (const Dim& d : vi.type.dims) {
        out.push_back(d.kind == Dim::Kind::Value && d.value >= 0 ? d.value : -1);
      }
      return out;
    }
  }
  return out.empty() ? std::nullopt : std::optional(out);
}

class UnrolledLoop final : public RuleBase<UnrolledLoop> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-unrolled-loop",
        .category = "export",
        .severity = Severity::Info,
        .summary = "Python loop over a tensor axis unrolled by tracing",
        .options = {{"min-length", 3,
                     "smallest axis size reported (shorter runs are usually plain unpacking)"}},
    };
    return k;
  }
  explicit UnrolledLoop(const RuleOptionsView& opts)
      : min_length_(std::max<int64_t>(2, opts.get<int64_t>("min-length"))) {}

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const Provenance& p = ctx.get<Provenance>();
    // (tensor, axis) -> accesses at constant single positions. Negative axes wait for a rank.
    std::map<std::pair<ValueId, int64_t>, std::vector<Access>> runs;
    for (const Node& n : g.nodes()) {
      if (!n.in_default_domain()) continue;
      if (n.op_type() != "Gather" && n.op_type() != "Slice") continue;
      if (n.inputs().empty()) continue;
      ValueId data = p.input(n, 0);
      if (data == kNoValue) continue;
      // Shape vectors are unpacked, not looped over. (from_shape alone is not enough: a tensor
      // reshaped with `x.view(x.size(0), -1)` is computed from a Shape output too.)
      const ValueClass vc = p.value_class(data);
      if (vc == ValueClass::ShapeDerived || (vc == ValueClass::Constant && p.from_shape(data))) {
        continue;
      }
      int64_t axis = 0, index = 0;
      std::optional<int64_t> end;
      if (!position(n, p, axis, index, end)) continue;
      if (axis < 0) {
        auto dims = static_dims(p, data);
        if (!dims) continue;
        axis += static_cast<int64_t>(dims->size());
      }
      runs[{data, axis}].push_back({index, end, &n});
    }
    for (auto& [key, acc] : runs) {
      const auto [data, axis] = key;
      // An axis the analysis sees as dynamic is export-baked-shape's error (the loop is frozen
      // to the example's size), whatever a value_info declares for it.
      if (auto facts = p.dims(data); facts && axis >= 0 &&
                                     axis < static_cast<int64_t>(facts->size()) &&
                                     (*facts)[axis].kind == DimFact::Kind::Symbolic) {
        continue;
      }
      auto dims = static_dims(p, data);
      if (!dims || axis < 0 || axis >= static_cast<int64_t>(dims->size())) continue;
      const int64_t size = (*dims)[axis];
      if (size < min_length_ || static_cast<int64_t>(acc.size()) < size) continue;
      std::vector<bool> seen(size, false);
      bool ok = true;
      for (Access& a : acc) {
        int64_t i = a.index < 0 ? a.index + size : a.index;
        if (i < 0 || i >= size) {
          ok = false;
          break;
        }
        if (a.end) {  // x[:, i:i+1], with the last often written x[:, -1:] or open-ended
          int64_t e = *a.end < 0 ? *a.end + size : std::min(*a.end, size);
          if (e != i + 1) {
            ok = false;
            break;
          }
        }
        a.index = i;
        seen[i] = true;
      }
      if (!ok || std::find(seen.begin(), seen.end(), false) != seen.end()) continue;
      std::sort(acc.begin(), acc.end(),
                [](const Access& x, const Access& y) { return x.node->index() < y.node->index(); });
      const Node& first = *acc.front().node;
      std::string ops = first.op_type() == acc.back().node->op_type() ? std::string(first.op_type())
                                                                      : std::string("Gather/Slice");
      Diagnostic& d = ctx.report(
          ctx.at_node_value(first, p.name_of(data)),
          fmt::format("'{}' is read at every position 0..{} of axis {} by {} {} nodes: a Python "
                      "loop over an axis of size {} was unrolled by tracing",
                      p.name_of(data), size - 1, axis, acc.size(), ops, size));
      d.key = fmt::format("axis{}", axis);
      d.notes.push_back(fmt::format("the run starts at {} and ends at {}", node_label(first),
                                    node_label(*acc.back().node)));
      d.help =
          "vectorise the loop (one op over the whole axis: batched matmul, einsum, "
          "broadcasting), or script it (`torch.jit.script`) so it exports as a Loop; if "
          "the size is fixed and small the unrolled graph is only larger, not wrong";
    }
  }

 private:
  const int64_t min_length_;  // the min-length option, at least 2

  // The single constant position a Gather/Slice reads along one axis.
  static bool position(const Node& n, const Provenance& p, int64_t& axis, int64_t& index,
                       std::optional<int64_t>& end) {
    const int64_t opset = p.opset(n);
    if (n.op_type() == "Gather") {
      if (n.inputs().size() < 2) return false;
      ValueId idx = p.input(n, 1);
      auto v = idx == kNoValue ? std::nullopt : p.known_ints(idx);
      if (!v || v->size() != 1) return false;
      auto idims = p.dims(idx);
      if (idims && idims->size() > 1) return false;
      axis = n.attr_int("axis").value_or(0);
      index = (*v)[0];
      return true;
    }
    std::vector<int64_t> starts, ends, axes, steps;
    if (opset < 10) {
      const Attribute* s = n.attribute("starts");
      const Attribute* e = n.attribute("ends");
      if (s == nullptr || e == nullptr) return false;
      starts.assign(s->ints.begin(), s->ints.end());
      ends.assign(e->ints.begin(), e->ints.end());
      if (const Attribute* a = n.attribute("axes")) axes.assign(a->ints.begin(), a->ints.end());
    } else {
      auto read = [&](size_t i, std::vector<int64_t>& out) {
        if (i >= n.inputs().size() || n.inputs()[i].empty()) return true;  // absent: default
        ValueId v = p.input(n, i);
        auto ints = v == kNoValue ? std::nullopt : p.known_ints(v);
        if (!ints) return false;
        out = *ints;
        return true;
      };
      if (!read(1, starts) || !read(2, ends) || !read(3, axes) || !read(4, steps)) return false;
    }
    if (starts.size() != 1 || ends.size() != 1) return false;
    if (!steps.empty() && (steps.size() != 1 || steps[0] != 1)) return false;
    axis = axes.empty() ? 0 : axes[0];
    index = starts[0];
    end = ends[0];
    return true;
  }
};

}  // namespace

void add_export_unrolled_loop(RuleRegistry& registry) { registry.add<UnrolledLoop>(); }

}  // namespace onnxlint::rules
