// graph-dead-node: nodes whose outputs never reach a graph output.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class DeadNode final : public Rule {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-dead-node",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Node whose outputs never reach a graph output",
    };
    return k;
  }
  const RuleInfo& info() const override { return static_info(); }

  // One finding per dead "sink" (a dead node nothing reads), counting the dead nodes that only
  // feed it, so a dead branch of 50 nodes is one finding, not 50.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    std::vector<uint32_t> dead;
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
      if (!info.live[i]) dead.push_back(i);
    }
    if (dead.empty()) return;
    for (uint32_t i : dead) {
      const Node& n = g.nodes[i];
      bool read = false;
      for (std::string_view out : n.outputs) {
        if (!out.empty() && !info.uses_of(out).empty()) read = true;
      }
      if (read) continue;
      size_t upstream = count_upstream(g, info, i);
      std::string outputs;
      for (std::string_view out : n.outputs) {
        if (out.empty()) continue;
        outputs += outputs.empty() ? "" : ", ";
        outputs += "'" + std::string(out) + "'";
      }
      Diagnostic& d = ctx.report(
          ctx.at_node(n),
          fmt::format("{} ({}) computes {} but nothing uses {}", n.display_name(), n.op_type,
                      outputs.empty() ? "no outputs" : outputs,
                      n.outputs.size() == 1 ? "it" : "them"));
      if (upstream > 0) {
        d.notes.push_back(fmt::format("{} more node{} only feed{} it and {} dead too", upstream,
                                      upstream == 1 ? "" : "s", upstream == 1 ? "s" : "",
                                      upstream == 1 ? "is" : "are"));
      }
      d.help = "remove dead nodes with onnx-simplifier or onnxruntime's graph optimizer, or "
               "return the value from forward() if it was meant to be an output";
    }
  }

 private:
  static size_t count_upstream(const Graph& g, const GraphInfo& info, uint32_t sink) {
    std::vector<uint32_t> work{sink};
    std::vector<bool> seen(g.nodes.size(), false);
    seen[sink] = true;
    size_t count = 0;
    while (!work.empty()) {
      const Node& n = g.nodes[work.back()];
      work.pop_back();
      for (std::string_view in : n.inputs) {
        const ValueDef* def = info.local(in);
        if (!def || def->kind != ValueDef::Kind::Node) continue;
        uint32_t p = def->node->index;
        if (info.live[p] || seen[p]) continue;
        seen[p] = true;
        ++count;
        work.push_back(p);
      }
    }
    return count;
  }
};

}  // namespace

void add_graph_dead_node(RuleRegistry& registry) { registry.add<DeadNode>(); }

}  // namespace onnxlint::rules
