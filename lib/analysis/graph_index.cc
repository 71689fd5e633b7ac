#include <onnxlint/graph_index.h>

#include <algorithm>

#include "util/name_map.h"

namespace onnxlint {

struct GraphInfo::ExtraIds : NameMap<NameId> {};

GraphInfo::GraphInfo() : extra_ids_(std::make_unique<ExtraIds>()) {}
GraphInfo::~GraphInfo() = default;
GraphInfo::GraphInfo(GraphInfo&&) noexcept = default;
GraphInfo& GraphInfo::operator=(GraphInfo&&) noexcept = default;

const ValueDef* GraphInfo::local(std::string_view name) const {
  return local(graph->name_id(name));
}

const ValueDef* GraphInfo::resolve(std::string_view name) const {
  for (const GraphInfo* g = this; g != nullptr; g = g->parent) {
    if (const ValueDef* d = g->local(name)) return d;
  }
  return nullptr;
}

std::span<const ValueUse> GraphInfo::uses_of(NameId id) const {
  if (id == kNoNameId || size_t{id} + 1 >= use_begin_.size()) return {};
  return std::span<const ValueUse>(use_list_.data() + use_begin_[id],
                                   use_begin_[id + 1] - use_begin_[id]);
}

std::span<const ValueUse> GraphInfo::uses_of(std::string_view name) const {
  NameId id = graph->name_id(name);
  if (id == kNoNameId) {
    const NameId* extra = extra_ids_->find(name);
    if (extra == nullptr) return {};
    id = *extra;
  }
  return uses_of(id);
}

void GraphIndex::build_defs(GraphInfo& info) {
  const Graph& g = *info.graph;
  info.defs_.assign(g.name_count(), ValueDef{});
  auto add = [&](NameId id, std::string_view name, const ValueDef& def) {
    if (id == kNoNameId) return;
    if (info.defs_[id].graph() == nullptr) {
      info.defs_[id] = def;
    } else {
      info.duplicate_defs.emplace_back(name, def);
    }
  };
  for (const ValueInfo& in : g.inputs()) {
    add(in.name_id, in.name, ValueDef::of_input(g, in));
  }
  // An initializer that is also a graph input is a default value for that input (required
  // before IR 4), not a second definition. Only the first one attaches: once the input's
  // `tensor` is set, a repeated initializer of that name is a duplicate definition.
  auto attach_to_input = [&](NameId id, const TensorData& t) {
    if (id == kNoNameId) return false;
    ValueDef& d = info.defs_[id];
    if (d.graph() == nullptr || d.kind() != ValueDef::Kind::Input || d.tensor() != nullptr) {
      return false;
    }
    d.tensor_ = &t;
    return true;
  };
  for (const TensorData& t : g.initializers()) {
    const NameId id = t.name_id;
    if (attach_to_input(id, t)) continue;
    add(id, t.name, ValueDef::of_tensor(ValueDef::Kind::Initializer, g, t));
  }
  for (const SparseTensorData& s : g.sparse_initializers()) {
    // Like a dense initializer, a sparse one may also be listed as a graph input.
    const NameId id = s.values.name_id;
    if (attach_to_input(id, s.values)) continue;
    add(id, s.values.name, ValueDef::of_tensor(ValueDef::Kind::SparseInitializer, g, s.values));
  }
  for (const Node& n : g.nodes()) {
    const std::span<const NameId> ids = n.output_ids();
    for (uint32_t i = 0; i < ids.size(); ++i) {
      const NameId id = ids[i];
      if (id == kNoNameId) continue;
      if (info.defs_[id].graph() == nullptr) {  // add() without the name a duplicate needs
        info.defs_[id] = ValueDef::of_node(g, n, i);
      } else {
        info.duplicate_defs.emplace_back(n.outputs()[i], ValueDef::of_node(g, n, i));
      }
    }
  }
}

namespace {

// Kahn's algorithm, FIFO, over producer edges (preds of node i: preds[pred_begin[i] ..
// pred_begin[i + 1])); nullopt if the nodes form a cycle.
std::optional<std::vector<uint32_t>> topological_order(uint32_t count,
                                                       const std::vector<size_t>& pred_begin,
                                                       const std::vector<uint32_t>& preds) {
  // Successor lists, filled in consumer order.
  std::vector<uint32_t> indegree(count, 0);
  std::vector<size_t> succ_begin(count + 1, 0);
  for (uint32_t p : preds) ++succ_begin[p + 1];
  for (uint32_t i = 0; i < count; ++i) succ_begin[i + 1] += succ_begin[i];
  std::vector<uint32_t> succs(preds.size());
  {
    std::vector<size_t> fill(succ_begin.begin(), succ_begin.end() - 1);
    for (uint32_t i = 0; i < count; ++i) {
      for (size_t k = pred_begin[i]; k < pred_begin[i + 1]; ++k) {
        succs[fill[preds[k]]++] = i;
        ++indegree[i];
      }
    }
  }
  // `order` doubles as the queue.
  std::vector<uint32_t> order;
  order.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (indegree[i] == 0) order.push_back(i);
  }
  for (size_t head = 0; head < order.size(); ++head) {
    const uint32_t i = order[head];
    for (size_t k = succ_begin[i]; k < succ_begin[i + 1]; ++k) {
      if (--indegree[succs[k]] == 0) order.push_back(succs[k]);
    }
  }
  if (order.size() != count) return std::nullopt;
  return order;
}

}  // namespace

GraphIndex::GraphIndex(const Model& model, AnalysisCache&) {
  const auto& graphs = model.all_graphs();
  infos_.reserve(graphs.size());
  for (const Graph* g : graphs) infos_[g].graph = g;
  for (const Graph* g : graphs) {
    if (g->parent() != nullptr) infos_[g].parent = &infos_[g->parent()];
  }
  // Children before parents: a node's uses include its subgraphs' outer references.
  for (auto it = graphs.rbegin(); it != graphs.rend(); ++it) {
    const Graph& g = **it;
    GraphInfo& info = infos_[&g];
    build_defs(info);

    // Edges producer -> consumer between local nodes, in consumer order. Flat arrays rather
    // than a vector per node: a 1M-node graph would otherwise cost millions of allocations.
    const uint32_t count = static_cast<uint32_t>(g.nodes().size());
    std::vector<size_t> pred_begin(count + 1, 0);  // preds of i: preds[pred_begin[i]..[i+1])
    std::vector<uint32_t> preds;
    preds.reserve(count);

    std::vector<bool> outer_seen(g.name_count(), false);
    // The id of a name read here; names that only nested subgraphs mention get extra ids.
    auto id_of = [&](std::string_view name) -> NameId {
      if (name.empty()) return kNoNameId;
      const NameId id = g.name_id(name);
      if (id != kNoNameId) return id;
      auto [extra, added] = info.extra_ids_->try_emplace(name);
      if (added) *extra = static_cast<NameId>(g.name_count() + info.extra_ids_->size() - 1);
      return *extra;
    };
    // Every use in graph order: node inputs, then the outer references of the node's
    // subgraphs, node by node; then the graph outputs. Walked twice (count, then fill), so
    // that each value's uses are one range of a flat array without a buffer of all uses.
    // A node input's name is not passed (""): its id is local, g.value_name(id) gives it.
    auto for_each_use = [&](auto&& visit) {
      for (const Node& n : g.nodes()) {
        const std::span<const NameId> ids = n.input_ids();
        for (uint32_t i = 0; i < ids.size(); ++i) {
          visit(ids[i], std::string_view(), ValueUse{&n, i, false});
        }
        if (n.attributes().empty()) continue;
        for (const Graph* sub : n.subgraphs()) {
          for (std::string_view name : infos_[sub].outer_refs) {
            visit(id_of(name), name, ValueUse{&n, 0, true});
          }
        }
      }
      for (const ValueInfo& out : g.outputs()) {
        visit(id_of(out.name), out.name, ValueUse{nullptr, 0, false});
      }
    };
    // Pass 1: count uses per id; record producer edges and outer references.
    std::vector<uint32_t>& use_begin = info.use_begin_;
    use_begin.assign(size_t{g.name_count()} + 1, 0);
    for_each_use([&](NameId id, std::string_view name, const ValueUse& use) {
      if (id == kNoNameId) return;
      if (size_t{id} + 1 >= use_begin.size()) use_begin.resize(size_t{id} + 2, 0);
      ++use_begin[id + 1];
      const ValueDef* d = info.local(id);
      if (d == nullptr) {
        if (id >= outer_seen.size()) outer_seen.resize(size_t{id} + 1, false);
        if (!outer_seen[id]) {
          outer_seen[id] = true;
          info.outer_refs.push_back(name.empty() ? g.value_name(id) : name);
        }
        return;
      }
      if (use.node != nullptr && d->kind() == ValueDef::Kind::Node) {
        preds.push_back(d->node()->index());
        pred_begin[use.node->index() + 1] = preds.size();
      }
    });
    // Nodes without producers got no entry: carry the running end forward.
    for (uint32_t i = 0; i < count; ++i) {
      pred_begin[i + 1] = std::max(pred_begin[i + 1], pred_begin[i]);
    }
    // Pass 2: prefix sums, then fill (stable: graph order within a value).
    use_begin.resize(size_t{g.name_count()} + info.extra_ids_->size() + 1, 0);
    for (size_t i = 0; i + 1 < use_begin.size(); ++i) use_begin[i + 1] += use_begin[i];
    info.use_list_.resize(use_begin.back());
    {
      std::vector<uint32_t> fill(use_begin.begin(), use_begin.end() - 1);
      for_each_use([&](NameId id, std::string_view, const ValueUse& use) {
        if (id != kNoNameId) info.use_list_[fill[id]++] = use;
      });
    }

    // Ordering: a node must come after every local producer it reads.
    for (uint32_t i = 0; i < count; ++i) {
      for (size_t k = pred_begin[i]; k < pred_begin[i + 1]; ++k) {
        if (preds[k] >= i) {
          info.out_of_order_nodes.push_back(i);
          break;
        }
      }
    }
    if (info.out_of_order_nodes.empty()) {
      // The file order is topological (the usual case): keep it, no sort needed.
      std::vector<uint32_t> order(count);
      for (uint32_t i = 0; i < count; ++i) order[i] = i;
      info.topo_order = std::move(order);
    } else {
      info.topo_order = topological_order(count, pred_begin, preds);
    }

    // Liveness: walk back from the graph outputs through producers.
    info.live.assign(count, false);
    std::vector<uint32_t> work;
    for (const ValueInfo& out : g.outputs()) {
      const ValueDef* d = info.local(out.name);
      if (d == nullptr || d->kind() != ValueDef::Kind::Node) continue;
      const uint32_t p = d->node()->index();
      if (!info.live[p]) {
        info.live[p] = true;
        work.push_back(p);
      }
    }
    while (!work.empty()) {
      const uint32_t i = work.back();
      work.pop_back();
      for (size_t k = pred_begin[i]; k < pred_begin[i + 1]; ++k) {
        if (!info.live[preds[k]]) {
          info.live[preds[k]] = true;
          work.push_back(preds[k]);
        }
      }
    }
  }
}

const GraphInfo& GraphIndex::info(const Graph& g) const { return infos_.at(&g); }

const GraphInfo* GraphIndex::find(const Graph& g) const {
  auto it = infos_.find(&g);
  return it == infos_.end() ? nullptr : &it->second;
}

}  // namespace onnxlint
