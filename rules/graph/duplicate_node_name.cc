// graph-duplicate-node-name: two nodes share a non-empty name.
#include <fmt/format.h>
#include <onnxlint/value_table.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rules/categories.h"
#include "util/name_map.h"

namespace onnxlint::rules {
namespace {

// The node names of one namespace: an open-addressing set of 4-byte slots, at most half full,
// each 1 + a global node id (ValueTable) whose top three bits hold three bits of the name's
// hash, so that most probes skip the name compare. 8-byte node pointers took twice the memory
// (4 MiB for 200 000 nodes); a map from name views to nodes 24 bytes per name plus its index.
class NodeNameSet {
 public:
  bool empty() const { return used_ == 0; }
  void reserve(size_t n, const ValueTable& nodes) {
    nodes_ = &nodes;
    // Ids that need the tag bits leave the tag out (0): slower probes, same answers.
    tag_mask_ = nodes.node_count() < (1u << 29) - 1 ? 7u << 29 : 0;
    if (n * 2 > slots_.size()) rehash(n * 2);
  }
  void prefetch(uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[h & (slots_.size() - 1)]);
  }
  /// Adds `n` (whose name hashes to `h`) unless a node of that name is present; returns that
  /// node, or nullptr when `n` was added.
  const Node* insert(const Node& n, uint64_t h) {
    if ((used_ + 1) * 2 > slots_.size()) rehash(std::max<size_t>(64, slots_.size() * 2));
    const uint32_t tag = tag_of(h);
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const uint32_t s = slots_[i];
      if (s == 0) {
        slots_[i] = (nodes_->node_id(n) + 1) | tag;
        ++used_;
        return nullptr;
      }
      if ((s & tag_mask_) == tag && node_of(s)->name() == n.name()) return node_of(s);
    }
  }

 private:
  uint32_t tag_of(uint64_t h) const { return static_cast<uint32_t>(h >> 61) << 29 & tag_mask_; }
  const Node* node_of(uint32_t s) const { return nodes_->node_at((s & ~tag_mask_) - 1); }

  void rehash(size_t min_slots) {
    size_t size = 64;
    while (size < min_slots) size *= 2;
    std::vector<uint32_t> old(size, 0);
    old.swap(slots_);
    const size_t mask = size - 1;
    for (uint32_t s : old) {
      if (s == 0) continue;
      size_t i = hash_name(node_of(s)->name()) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  const ValueTable* nodes_ = nullptr;
  uint32_t tag_mask_ = 7u << 29;
  std::vector<uint32_t> slots_;
  size_t used_ = 0;
};

class DuplicateNodeName final : public RuleBase<DuplicateNodeName> {
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

  // Names must be unique across the main graph and its subgraphs (runtimes such as TensorRT
  // name layers after nodes); each function body is its own namespace.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    auto& seen = g.function() != nullptr ? by_function_[g.function()] : model_names_;
    // Sized once for the first (largest, usually) graph of a namespace: growing a map of 10^5
    // names step by step touches twice the memory. Later graphs grow it as needed.
    if (seen.empty()) seen.reserve(g.nodes().size(), ctx.get<ValueTable>());
    // Hashed ahead with their slots prefetched: a set of 10^5 names is far larger than the
    // cache, and overlapping the misses is most of the cost.
    for_each_hashed_ahead(
        g.nodes().size(), [&](size_t i) { return g.nodes()[i].name(); },
        [&](uint64_t h) { seen.prefetch(h); },
        [&](size_t i, uint64_t h) {
          const Node& n = g.nodes()[i];
          if (n.name().empty()) return;
          const Node* first = seen.insert(n, h);
          if (first == nullptr) return;
          Diagnostic& d = ctx.report(
              ctx.at_node(n), fmt::format("node name '{}' is already used by node {} of graph '{}'",
                                          n.name(), first->index(), first->graph()->path()));
          d.help = "give nodes unique names; runtimes and profilers identify layers by node name";
        });
  }

 private:
  NodeNameSet model_names_;
  std::unordered_map<const Function*, NodeNameSet> by_function_;
};

}  // namespace

void add_graph_duplicate_node_name(RuleRegistry& registry) { registry.add<DuplicateNodeName>(); }

}  // namespace onnxlint::rules
