// graph-duplicate-node-name: two nodes share a non-empty name.
#include <fmt/format.h>
#include <onnxlint/name_map.h>

#include <unordered_map>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class DuplicateNodeName final : public Rule {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-duplicate-node-name",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Two nodes that share a non-empty name",
    };
    return k;
  }
  const RuleInfo& info() const override { return static_info(); }

  // Names must be unique across the main graph and its subgraphs (runtimes such as TensorRT
  // name layers after nodes); each function body is its own namespace.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    auto& seen = g.function != nullptr ? by_function_[g.function] : model_names_;
    // Sized once for the first (largest, usually) graph of a namespace: growing a map of 10^5
    // names step by step touches twice the memory. Later graphs grow it as needed.
    if (seen.empty()) seen.reserve(g.nodes.size());
    seen.try_emplace_all(
        g.nodes.size(), [&](size_t i) { return g.nodes[i].name; },
        [&](size_t i, const Node*& first, bool inserted) {
          const Node& n = g.nodes[i];
          if (inserted) {
            first = &n;
            return;
          }
          Diagnostic& d = ctx.report(
              ctx.at_node(n), fmt::format("node name '{}' is already used by node {} of graph '{}'",
                                          n.name, first->index, first->graph->path));
          d.help = "give nodes unique names; runtimes and profilers identify layers by node name";
        });
  }

 private:
  NameMap<const Node*> model_names_;
  std::unordered_map<const Function*, NameMap<const Node*>> by_function_;
};

}  // namespace

void add_graph_duplicate_node_name(RuleRegistry& registry) { registry.add<DuplicateNodeName>(); }

}  // namespace onnxlint::rules
