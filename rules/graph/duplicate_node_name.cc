// graph-duplicate-node-name: two nodes share a non-empty name.
#include <fmt/format.h>
#include <onnxlint/name_map.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

// The node names of one namespace: each name's id in `names` indexes the first node that has it.
struct NodeNames {
  NameIndex names;
  std::vector<const Node*> first;
};

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
    NodeNames& seen = g.function != nullptr ? by_function_[g.function] : model_names_;
    // Sized once for the first (largest, usually) graph of a namespace: growing a table of
    // 10^5 names step by step touches twice the memory. Later graphs grow it as needed.
    if (seen.names.empty()) {
      seen.names.reserve(g.nodes.size());
      seen.first.reserve(g.nodes.size());
    }
    // insert_all hashes ahead and prefetches: a table of 10^5 names is far larger than the
    // cache, and overlapping the misses is most of the cost.
    seen.names.insert_all(
        g.nodes.size(), [&](size_t i) { return g.nodes[i].name; },
        [&](size_t i, uint32_t id, bool added) {
          const Node& n = g.nodes[i];
          if (added) {
            seen.first.push_back(&n);
            return;
          }
          const Node* first = seen.first[id];
          Diagnostic& d = ctx.report(
              ctx.at_node(n), fmt::format("node name '{}' is already used by node {} of graph '{}'",
                                          n.name, first->index, first->graph->path));
          d.help = "give nodes unique names; runtimes and profilers identify layers by node name";
        });
  }

 private:
  NodeNames model_names_;
  std::unordered_map<const Function*, NodeNames> by_function_;
};

}  // namespace

void add_graph_duplicate_node_name(RuleRegistry& registry) { registry.add<DuplicateNodeName>(); }

}  // namespace onnxlint::rules
