// graph-undefined-value: a node input names a value defined nowhere in scope.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class UndefinedValue final : public RuleBase<UndefinedValue> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-undefined-value",
        .category = "graph",
        .severity = Severity::Error,
        .summary = "Node input that names a value defined nowhere in its scope",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    for (const Node& n : g.nodes()) {
      for (uint32_t i = 0; i < n.input_count(); ++i) {
        // An omitted input is kNoNameId: no name is looked up until one is reported.
        if (n.input_ids()[i] == kNoNameId || info.input_def(n, i) != nullptr) continue;
        std::string_view name = n.inputs()[i];
        Location loc = ctx.at_node_value(n, name);
        Diagnostic& d = ctx.report(
            loc, fmt::format("input {} '{}' of {} is not a graph input, initializer or output "
                             "of any node in scope",
                             i, name, n.display_name()));
        d.key = std::to_string(i);
        d.help =
            "the model was edited or exported incompletely; re-export it, or check the "
            "tool that rewrote the graph";
      }
    }
  }
};

}  // namespace

void add_graph_undefined_value(RuleRegistry& registry) { registry.add<UndefinedValue>(); }

}  // namespace onnxlint::rules
