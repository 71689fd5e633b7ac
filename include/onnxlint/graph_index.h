// Use/def index, lexical scopes, topological order and reachability for every graph.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// How a value name is defined inside one graph: by a graph input, an initializer, a sparse
/// initializer, or output `output_index()` of a node.
class ValueDef {
 public:
  enum class Kind : uint8_t { Input, Initializer, SparseInitializer, Node };

  static ValueDef of_input(const Graph& g, const ValueInfo& in) {
    ValueDef d(Kind::Input, g);
    d.input_ = &in;
    return d;
  }
  static ValueDef of_tensor(Kind kind, const Graph& g, const TensorData& t) {
    ValueDef d(kind, g);
    d.tensor_ = &t;
    return d;
  }
  static ValueDef of_node(const Graph& g, const Node& n, uint32_t output_index) {
    ValueDef d(Kind::Node, g);
    d.node_ = &n;
    d.output_index_ = output_index;
    return d;
  }
  ValueDef() = default;

  Kind kind() const { return kind_; }
  /// The graph that defines the value (nullptr for a default-constructed ValueDef).
  const Graph* graph() const { return graph_; }
  /// Kind::Node: the producing node and which of its outputs; else nullptr and 0.
  const Node* node() const { return kind_ == Kind::Node ? node_ : nullptr; }
  uint32_t output_index() const { return kind_ == Kind::Node ? output_index_ : 0; }
  /// Kind::Input: the graph input; else nullptr.
  const ValueInfo* input() const { return kind_ == Kind::Input ? input_ : nullptr; }
  /// Kind::Initializer and SparseInitializer: the tensor; Kind::Input: the initializer that
  /// gives the input its default value, if any; else nullptr.
  const TensorData* tensor() const { return tensor_; }

 private:
  friend class GraphIndex;
  ValueDef(Kind kind, const Graph& g) : kind_(kind), graph_(&g) {}
  Kind kind_ = Kind::Node;
  uint32_t output_index_ = 0;
  const Graph* graph_ = nullptr;
  union {  // by kind_; read only through node() and input()
    const Node* node_ = nullptr;
    const ValueInfo* input_;
  };
  const TensorData* tensor_ = nullptr;
};

/// A consumer of a value in the graph whose GraphInfo lists it: a node input slot, or a graph
/// output. `via_subgraph` marks a node whose subgraph (at any depth) reads the value from the
/// outer scope.
struct ValueUse {
  const Node* node = nullptr;  // nullptr: the value is a graph output
  uint32_t input_index = 0;
  bool via_subgraph = false;
};

/// Index of one graph. Names resolve lexically: local definitions first, then the parent's.
class GraphInfo {
 public:
  GraphInfo();
  ~GraphInfo();
  GraphInfo(GraphInfo&&) noexcept;
  GraphInfo& operator=(GraphInfo&&) noexcept;

  const Graph* graph = nullptr;
  const GraphInfo* parent = nullptr;

  /// Definitions after the first of a name defined more than once in this graph.
  std::vector<std::pair<std::string_view, ValueDef>> duplicate_defs;
  /// Names this graph (or its subgraphs) reads that are not defined inside it.
  std::vector<std::string_view> outer_refs;
  /// A topological order of node indices, or nullopt if the nodes form a cycle: the file
  /// order when that is one (out_of_order_nodes is empty), else Kahn's order (FIFO).
  std::optional<std::vector<uint32_t>> topo_order;
  /// Node indices in the graph that are out of order: a node reading a value that a later node
  /// of the same graph produces.
  std::vector<uint32_t> out_of_order_nodes;
  /// live[i]: node i contributes to a graph output (or to a subgraph's outer reference chain).
  std::vector<bool> live;

  /// Resolves a name in this graph's lexical scope (this graph, then enclosing graphs).
  const ValueDef* resolve(std::string_view name) const;
  /// Resolves only locally.
  const ValueDef* local(std::string_view name) const;
  /// Resolves a graph-local value id (Graph::name_id) locally: no hashing.
  const ValueDef* local(NameId id) const {
    return id < defs_.size() && defs_[id].graph() != nullptr ? &defs_[id] : nullptr;
  }
  /// The definition that input `k` of node `n` (a node of this graph) reads, in lexical
  /// scope; nullptr for an omitted input or an undefined name.
  const ValueDef* input_def(const Node& n, size_t k) const {
    if (k >= n.input_count()) return nullptr;
    const NameId id = n.input_ids()[k];  // kNoNameId for an omitted input
    if (id == kNoNameId) return nullptr;
    if (const ValueDef* d = local(id)) return d;
    return parent != nullptr ? parent->resolve(n.inputs()[k]) : nullptr;
  }
  /// Uses of a locally visible name inside this graph, in graph order.
  std::span<const ValueUse> uses_of(std::string_view name) const;
  std::span<const ValueUse> uses_of(NameId id) const;

 private:
  friend class GraphIndex;
  // defs_[id]: the first local definition of value id (graph == nullptr: none). Uses of id
  // are use_list_[use_begin_[id] .. use_begin_[id + 1]). Names that only nested subgraphs
  // mention (without a Graph::name_id) are numbered on from name_count() in extra_ids_.
  struct ExtraIds;
  std::vector<ValueDef> defs_;
  std::vector<uint32_t> use_begin_;
  std::vector<ValueUse> use_list_;
  std::unique_ptr<ExtraIds> extra_ids_;
};

/// The GraphInfo of every graph in the model. Linear in the size of the model.
class GraphIndex {
 public:
  GraphIndex(const Model& model, AnalysisCache& cache);
  const GraphInfo& info(const Graph& g) const;
  const GraphInfo* find(const Graph& g) const;

  /// Looks a value up in per-graph facts with lexical scoping, for analyses that keep facts
  /// per graph: from `g` outward, the first graph for which `fact(graph, id)` gives a fact
  /// (a pointer) wins; a graph that defines the name without one shadows the outer ones
  /// (nullptr). `id` is the name's NameId in `g`; each enclosing graph gets the name's id
  /// there (kNoNameId where the graph never mentions it).
  template <class Fact>
  auto find_in_scope(const Graph& g, NameId id, std::string_view name, Fact&& fact) const
      -> decltype(fact(g, id)) {
    for (const Graph* cur = &g; cur != nullptr; cur = cur->parent()) {
      const NameId cur_id = cur == &g ? id : cur->name_id(name);
      if (auto v = fact(*cur, cur_id)) return v;
      if (info(*cur).local(cur_id) != nullptr) return nullptr;
    }
    return nullptr;
  }

 private:
  static void build_defs(GraphInfo& info);
  std::unordered_map<const Graph*, GraphInfo> infos_;
};

}  // namespace onnxlint
