// export-unrolled-loop: a run of Gather/Slice nodes reading every position 0..N-1 of one axis
// of one tensor, N being that axis's static size: the trace of a Python loop over a dimension
// (`for i in range(x.shape[1]): ... x[:, i] ...`). Layers that merely repeat (a transformer's
// blocks) do not index one tensor position by position and are not flagged; neither is
// unpacking a shape vector (`b, s, d = x.shape`). A loop over an axis whose size is dynamic is
// export-baked-shape's (an error: the trace froze it to the example's size), not reported here.
// A static axis whose size a node froze at export (a Reshape to constant sizes where the input
// dim was dynamic: a dim pin) is no "only larger" graph: the loop runs that many times at every
// input size, so it is a warning that names the node.
#include <fmt/format.h>
#include <onnxlint/dim_pins.h>
#include <onnxlint/provenance.h>
#include <onnxlint/unrolled_loops.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

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

  void on_model(const Model&, RuleContext& ctx) override {
    const Provenance& p = ctx.get<Provenance>();
    const std::span<const UnrolledRun> runs = ctx.get<UnrolledLoops>().runs();
    if (runs.empty()) return;
    // The nodes at which the model only accepts a few input sizes: a size they wrote was
    // frozen at export.
    const DimPins& pins = ctx.get<DimPins>();
    std::unordered_set<const Node*> pinning;
    for (const DimPin& pin : pins.pins()) {
      pinning.insert(pin.node);
      if (pin.written_by != nullptr) pinning.insert(pin.written_by);
      if (pin.folded_by != nullptr) pinning.insert(pin.folded_by);
    }
    for (const UnrolledRun& run : runs) {
      const ValueId data = run.data;
      const int64_t axis = run.axis;
      // An axis the analysis sees as dynamic is export-baked-shape's error (the loop is frozen
      // to the example's size), whatever a value_info declares for it.
      if (auto facts = p.dims(data); facts && axis < static_cast<int64_t>(facts->size()) &&
                                     (*facts)[axis].kind == DimFact::Kind::Symbolic) {
        continue;
      }
      auto dims = p.static_dims(data);
      if (!dims || axis >= static_cast<int64_t>(dims->size())) continue;
      const int64_t size = (*dims)[axis];
      std::vector<UnrolledPiece> acc = run.pieces;
      if (size < min_length_ || static_cast<int64_t>(acc.size()) < size) continue;
      std::vector<bool> seen(size, false);
      bool ok = true;
      for (UnrolledPiece& a : acc) {
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
      const Node& first = *acc.front().node;
      std::string ops = first.op_type() == acc.back().node->op_type() ? std::string(first.op_type())
                                                                      : std::string("Gather/Slice");
      // A size frozen at export: the loop is frozen with it.
      const Node* writer = pins.writer_of(data, static_cast<size_t>(axis));
      const bool frozen = writer != nullptr && pinning.contains(writer);
      Diagnostic& d = ctx.report(
          frozen ? Severity::Warning : Severity::Info, ctx.at_node_value(first, p.name_of(data)),
          fmt::format("'{}' is read at every position 0..{} of axis {} by {} {} nodes: a Python "
                      "loop over an axis of size {} was unrolled by tracing",
                      p.name_of(data), size - 1, axis, acc.size(), ops, size));
      d.key = fmt::format("axis{}", axis);
      d.notes.push_back(fmt::format("the run starts at {} and ends at {}", node_label(first),
                                    node_label(*acc.back().node)));
      if (frozen) {
        d.notes.push_back(fmt::format(
            "{} wrote the size {} of axis {} from a constant where the model's input dims are "
            "dynamic (export-baked-shape): the loop runs {} times at every input size",
            node_label(*writer), size, axis, size));
      }
      d.help = frozen ? fmt::format(
                            "first make {} follow the input's size (see "
                            "export-baked-shape: sizes from x.shape/x.size() at run time, "
                            "or -1), then vectorise the loop (one op over the whole axis: "
                            "batched matmul, einsum, broadcasting) or script it "
                            "(`torch.jit.script`) so it exports as a Loop",
                            node_label(*writer))
                      : "vectorise the loop (one op over the whole axis: batched matmul, einsum, "
                        "broadcasting), or script it (`torch.jit.script`) so it exports as a "
                        "Loop; if the size is fixed and small the unrolled graph is only larger, "
                        "not wrong";
    }
  }

 private:
  const int64_t min_length_;  // the min-length option, at least 2
};

}  // namespace

void add_export_unrolled_loop(RuleRegistry& registry) { registry.add<UnrolledLoop>(); }

}  // namespace onnxlint::rules
