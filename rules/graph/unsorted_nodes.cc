// graph-unsorted-nodes: nodes not in topological order, or a cycle.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class UnsortedNodes final : public RuleBase<UnsortedNodes> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-unsorted-nodes",
        .category = "graph",
        .severity = Severity::Error,
        .summary = "Nodes that are not in topological order, or that form a cycle",
        .fixable = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    if (!info.topo_order) {
      Diagnostic& d = ctx.report(ctx.at_graph(g),
                                 fmt::format("the nodes of graph '{}' form a cycle", g.path()));
      d.key = "cycle";
      d.help = "ONNX graphs must be acyclic; loops are expressed with the Loop operator";
    }
    bool fix_stated = false;
    for (uint32_t i : info.out_of_order_nodes) {
      const Node& n = g.nodes()[i];
      // Name the first input produced later (or by the node itself).
      std::string reason;
      auto check = [&](std::string_view name) {
        if (!reason.empty() || name.empty()) return;
        const ValueDef* def = info.local(name);
        if (def && def->kind() == ValueDef::Kind::Node && def->node()->index() >= i) {
          reason =
              fmt::format("it reads '{}', which {} produces {}", name, def->node()->display_name(),
                          def->node()->index() == i ? "itself" : "later");
        }
      };
      for (std::string_view in : n.inputs()) check(in);
      for (const Graph* sub : n.subgraphs()) {
        for (std::string_view name : ctx.get<GraphIndex>().info(*sub).outer_refs) check(name);
      }
      Diagnostic& d = ctx.report(ctx.at_node(n), fmt::format("{} is out of topological order: {}",
                                                             n.display_name(), reason));
      d.help =
          "sort the nodes topologically (onnx's checker and most runtimes require it); a "
          "graph rewrite that appended nodes usually causes this";
      // One fix orders the whole graph; the graph's other out-of-order findings share it.
      if (!info.topo_order) continue;
      FixBuilder fix = ctx.fix(
          d, FixSafety::Safe,
          fmt::format("sort the {} nodes of graph '{}' topologically", g.nodes().size(), g.path()));
      if (!fix_stated) fix.sort_nodes(g, *info.topo_order);
      fix_stated = true;
    }
  }
};

}  // namespace

void add_graph_unsorted_nodes(RuleRegistry& registry) { registry.add<UnsortedNodes>(); }

}  // namespace onnxlint::rules
