// graph-unused-initializer: initializers nothing consumes.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

std::string human_bytes(uint64_t n) {
  if (n >= (1ull << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1 << 20));
  if (n >= (1ull << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(n) / (1 << 10));
  return fmt::format("{} bytes", n);
}

class UnusedInitializer final : public RuleBase<UnusedInitializer> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-unused-initializer",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Initializer that no node, subgraph or graph output consumes",
        .fixable = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    for (const TensorData& t : g.initializers()) {
      if (t.name.empty() || !info.uses_of(t.name_id).empty()) continue;
      uint64_t bytes = t.storage == TensorData::Storage::External ? t.expected_bytes().value_or(0)
                                                                  : t.payload.size;
      Diagnostic& d = ctx.report(
          ctx.at_value(g, t.name),
          fmt::format("initializer '{}' ({}) is never used", t.name, human_bytes(bytes)));
      d.help =
          "drop it (onnx-simplifier, or onnx.utils.extract_model) so the file does not "
          "carry dead weights";
      // One that is also a graph input stays: removing it would leave an input without a
      // default (the model's interface changes).
      const ValueDef* def = info.local(t.name_id);
      if (def != nullptr && def->kind() == ValueDef::Kind::Input) continue;
      ctx.fix(d, FixSafety::Safe, "remove the initializer")
          .remove_initializer(g, std::string(t.name));
    }
    for (const SparseTensorData& s : g.sparse_initializers()) {
      const TensorData& t = s.values;
      if (t.name.empty() || !info.uses_of(t.name_id).empty()) continue;
      Diagnostic& d = ctx.report(ctx.at_value(g, t.name),
                                 fmt::format("sparse initializer '{}' ({}) is never used", t.name,
                                             human_bytes(t.payload.size + s.indices.payload.size)));
      d.help =
          "drop it (onnx-simplifier, or onnx.utils.extract_model) so the file does not "
          "carry dead weights";
    }
  }
};

}  // namespace

void add_graph_unused_initializer(RuleRegistry& registry) { registry.add<UnusedInitializer>(); }

}  // namespace onnxlint::rules
