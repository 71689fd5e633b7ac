// graph-duplicate-node-name: two nodes share a non-empty name.
#include <fmt/format.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "rules/categories.h"
#include "util/name_set.h"

namespace onnxlint::rules {
namespace {

class DuplicateNodeName final : public RuleBase<DuplicateNodeName> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-duplicate-node-name",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Two nodes that share a non-empty name",
        .fixable = true,
    };
    return k;
  }

  // Names must be unique across the main graph and its subgraphs (runtimes such as TensorRT
  // name layers after nodes); each function body is its own namespace.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    auto& seen = g.function() != nullptr ? by_function_[g.function()] : model_names_;
    // The set holds global node ids (ValueTable's numbering).
    const ValueTable& nodes = ctx.get<ValueTable>();
    auto name_of = [&](uint32_t id) { return nodes.node_at(id)->name(); };
    // Sized once for the first (largest, usually) graph of a namespace; later graphs grow it.
    if (seen.empty()) seen.reserve(g.nodes().size(), nodes.node_count(), name_of);
    const GraphSlot* slot = nodes.slot(g);  // node_id(n) without a slot lookup per node
    auto id_of = [&](const Node& n) {
      return slot ? slot->node_base + n.index() : nodes.node_id(n);
    };
    // Hashed ahead with their slots prefetched: overlapping the cache misses is most of the cost.
    for_each_hashed_ahead(
        g.nodes().size(), [&](size_t i) { return g.nodes()[i].name(); },
        [&](uint64_t h) { seen.prefetch(h); },
        [&](size_t i, uint64_t h) {
          const Node& n = g.nodes()[i];
          if (n.name().empty()) return;
          const std::optional<uint32_t> taken = seen.insert(id_of(n), n.name(), h, name_of);
          if (!taken) return;
          const Node* first = nodes.node_at(*taken);
          Diagnostic& d = ctx.report(
              ctx.at_node(n), fmt::format("node name '{}' is already used by node {} of graph '{}'",
                                          n.name(), first->index(), first->graph()->path()));
          d.help = "give nodes unique names; runtimes and profilers identify layers by node name";
          // The node's model-wide id makes the new name unique among the renamed; a name the
          // model already had is found by the next lint of the fix loop and renamed again.
          std::string renamed = fmt::format("{}__{}", n.name(), id_of(n));
          const std::string description =
              fmt::format("rename the node '{}' to '{}'", n.name(), renamed);
          ctx.fix(d, FixSafety::Safe, description).rename_node(n, std::move(renamed));
        });
  }

 private:
  NameSet model_names_;
  std::unordered_map<const Function*, NameSet> by_function_;
};

}  // namespace

void add_graph_duplicate_node_name(RuleRegistry& registry) { registry.add<DuplicateNodeName>(); }

}  // namespace onnxlint::rules
