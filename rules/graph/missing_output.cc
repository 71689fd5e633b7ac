// graph-missing-output: a graph output that nothing produces.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class MissingOutput final : public RuleBase<MissingOutput> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-missing-output",
        .category = "graph",
        .severity = Severity::Error,
        .summary = "Graph output not produced by any node, input or initializer",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      std::string_view name = g.outputs()[i].name;
      if (!name.empty() && info.resolve(name) != nullptr) continue;
      Diagnostic& d = ctx.report(
          ctx.at_value(g, name),
          name.empty() ? fmt::format("graph output {} has an empty name", i)
                       : fmt::format("graph output '{}' is not produced by any node, input or "
                                     "initializer",
                                     name));
      d.key = std::to_string(i);
      d.help = "remove the output or restore the node that produced it";
    }
  }
};

}  // namespace

void add_graph_missing_output(RuleRegistry& registry) { registry.add<MissingOutput>(); }

}  // namespace onnxlint::rules
