// graph-dead-node: nodes whose outputs never reach a graph output.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class DeadNode final : public RuleBase<DeadNode> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-dead-node",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Node whose outputs never reach a graph output",
        .fixable = true,
    };
    return k;
  }

  // One finding per dead "sink" (a dead node nothing reads), counting the dead nodes that only
  // feed it, so a dead branch of 50 nodes is one finding, not 50.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    std::vector<uint32_t> dead;
    for (uint32_t i = 0; i < g.nodes().size(); ++i) {
      if (!info.live[i]) dead.push_back(i);
    }
    if (dead.empty()) return;
    // Marks for count_upstream, allocated once per graph: a graph with many dead sinks must
    // not cost sinks × nodes.
    std::vector<uint32_t> seen(g.nodes().size(), 0);
    uint32_t walk = 0;
    for (uint32_t i : dead) {
      const Node& n = g.nodes()[i];
      bool read = false;
      for (std::string_view out : n.outputs()) {
        if (!out.empty() && !info.uses_of(out).empty()) read = true;
      }
      if (read) continue;
      std::vector<uint32_t> removed{i};
      size_t upstream = count_upstream(g, info, ctx.get<GraphIndex>(), i, seen, ++walk, removed);
      std::string outputs;
      for (std::string_view out : n.outputs()) {
        if (out.empty()) continue;
        outputs += outputs.empty() ? "" : ", ";
        outputs += fmt::format("'{}'", out);
      }
      Diagnostic& d = ctx.report(
          ctx.at_node(n), fmt::format("{} ({}) computes {} but nothing uses {}", n.display_name(),
                                      n.op_type(), outputs.empty() ? "no outputs" : outputs,
                                      n.outputs().size() == 1 ? "it" : "them"));
      if (upstream > 0) {
        d.notes.push_back(fmt::format("{} more node{} only feed{} it and {} dead too", upstream,
                                      upstream == 1 ? "" : "s", upstream == 1 ? "s" : "",
                                      upstream == 1 ? "is" : "are"));
      }
      d.help =
          "remove dead nodes with onnx-simplifier or onnxruntime's graph optimizer, or "
          "return the value from forward() if it was meant to be an output";
      FixBuilder fix = ctx.fix(
          d, FixSafety::Safe,
          upstream == 0 ? std::string("remove the dead node")
                        : fmt::format("remove the dead node and the {} that only feed{} it",
                                      upstream == 1 ? "node" : fmt::format("{} nodes", upstream),
                                      upstream == 1 ? "s" : ""));
      for (uint32_t r : removed) fix.remove_node(g.nodes()[r]);
    }
  }

 private:
  // Dead nodes that only feed `sink`, through node inputs or through values its subgraphs
  // read from this graph (appended to `found`).
  // `seen[i] == walk` marks nodes already counted in this walk.
  static size_t count_upstream(const Graph& g, const GraphInfo& info, const GraphIndex& index,
                               uint32_t sink, std::vector<uint32_t>& seen, uint32_t walk,
                               std::vector<uint32_t>& found) {
    std::vector<uint32_t> work{sink};
    seen[sink] = walk;
    size_t count = 0;
    auto visit = [&](std::string_view name) {
      const ValueDef* def = info.local(name);
      if (!def || def->kind() != ValueDef::Kind::Node) return;
      uint32_t p = def->node()->index();
      if (info.live[p] || seen[p] == walk) return;
      seen[p] = walk;
      ++count;
      work.push_back(p);
      found.push_back(p);
    };
    while (!work.empty()) {
      const Node& n = g.nodes()[work.back()];
      work.pop_back();
      for (std::string_view in : n.inputs()) visit(in);
      for (const Graph* sub : n.subgraphs()) {
        for (std::string_view name : index.info(*sub).outer_refs) visit(name);
      }
    }
    return count;
  }
};

}  // namespace

void add_graph_dead_node(RuleRegistry& registry) { registry.add<DeadNode>(); }

}  // namespace onnxlint::rules
