// graph-unused-input: main-graph inputs nothing consumes.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class UnusedInput final : public RuleBase<UnusedInput> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-unused-input",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Graph input that nothing consumes",
    };
    return k;
  }

  // Only the main graph: subgraph and function inputs are positional (a Loop body must accept
  // the iteration number even if it ignores it).
  void on_graph(const Graph& g, RuleContext& ctx) override {
    if (g.kind() != Graph::Kind::Main) return;
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    for (const ValueInfo& in : g.inputs()) {
      if (in.name.empty() || !info.uses_of(in.name_id).empty()) continue;
      const ValueDef* def = info.local(in.name_id);
      if (def && def->tensor() != nullptr) continue;  // an initializer: graph-unused-initializer
      Diagnostic& d = ctx.report(ctx.at_value(g, in.name),
                                 fmt::format("graph input '{}' is never used", in.name));
      d.help =
          "remove the argument from forward(), or pass input_names= only for the inputs "
          "the exported graph keeps";
    }
  }
};

}  // namespace

void add_graph_unused_input(RuleRegistry& registry) { registry.add<UnusedInput>(); }

}  // namespace onnxlint::rules
