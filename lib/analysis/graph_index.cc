#include <onnxlint/graph_index.h>

#include <deque>
#include <unordered_set>

namespace onnxlint {

const ValueDef* GraphInfo::local(std::string_view name) const {
  auto it = defs.find(name);
  return it == defs.end() ? nullptr : &it->second;
}

const ValueDef* GraphInfo::resolve(std::string_view name) const {
  for (const GraphInfo* g = this; g != nullptr; g = g->parent) {
    if (const ValueDef* d = g->local(name)) return d;
  }
  return nullptr;
}

const std::vector<ValueUse>& GraphInfo::uses_of(std::string_view name) const {
  static const std::vector<ValueUse> kNone;
  auto it = uses.find(name);
  return it == uses.end() ? kNone : it->second;
}

namespace {

void build_defs(GraphInfo& info) {
  const Graph& g = *info.graph;
  info.defs.reserve(g.inputs.size() + g.initializers.size() + g.nodes.size() * 2);
  auto add = [&](std::string_view name, const ValueDef& def) {
    if (name.empty()) return;
    auto [it, inserted] = info.defs.emplace(name, def);
    if (!inserted) info.duplicate_defs.emplace_back(name, def);
  };
  for (const ValueInfo& in : g.inputs) {
    add(in.name, ValueDef{ValueDef::Kind::Input, &g, nullptr, 0, nullptr, &in});
  }
  std::unordered_set<std::string_view> initializer_names;
  for (const TensorData& t : g.initializers) {
    auto it = info.defs.find(t.name);
    bool repeated = !initializer_names.insert(t.name).second;
    // An initializer that is also a graph input is a default value for that input
    // (required before IR 4), not a second definition.
    if (!repeated && it != info.defs.end() && it->second.kind == ValueDef::Kind::Input &&
        it->second.tensor == nullptr) {
      it->second.tensor = &t;
      continue;
    }
    add(t.name, ValueDef{ValueDef::Kind::Initializer, &g, nullptr, 0, &t, nullptr});
  }
  for (const SparseTensorData& s : g.sparse_initializers) {
    add(s.values.name, ValueDef{ValueDef::Kind::SparseInitializer, &g, nullptr, 0, &s.values,
                                nullptr});
  }
  for (const Node& n : g.nodes) {
    for (uint32_t i = 0; i < n.outputs.size(); ++i) {
      add(n.outputs[i], ValueDef{ValueDef::Kind::Node, &g, &n, i, nullptr, nullptr});
    }
  }
}

}  // namespace

GraphIndex::GraphIndex(const Model& model, AnalysisCache&) {
  const auto& graphs = model.all_graphs();
  infos_.reserve(graphs.size());
  for (const Graph* g : graphs) infos_[g].graph = g;
  for (const Graph* g : graphs) {
    if (g->parent != nullptr) infos_[g].parent = &infos_[g->parent];
  }
  // Children before parents: a node's uses include its subgraphs' outer references.
  for (auto it = graphs.rbegin(); it != graphs.rend(); ++it) {
    const Graph& g = **it;
    GraphInfo& info = infos_[&g];
    build_defs(info);

    std::unordered_set<std::string_view> outer;
    auto note_use = [&](std::string_view name, const ValueUse& use) {
      if (name.empty()) return;
      info.uses[name].push_back(use);
      if (info.defs.find(name) == info.defs.end() && outer.insert(name).second) {
        info.outer_refs.push_back(name);
      }
    };
    // Per node, the local nodes whose outputs it reads (for ordering and topo sort).
    std::vector<std::vector<uint32_t>> preds(g.nodes.size());
    auto local_producer = [&](std::string_view name) -> const Node* {
      auto d = info.defs.find(name);
      if (d == info.defs.end() || d->second.kind != ValueDef::Kind::Node) return nullptr;
      return d->second.node;
    };
    for (const Node& n : g.nodes) {
      for (uint32_t i = 0; i < n.inputs.size(); ++i) {
        note_use(n.inputs[i], ValueUse{&n, &g, i, false});
        if (const Node* p = local_producer(n.inputs[i])) preds[n.index].push_back(p->index);
      }
      for (const Graph* sub : n.subgraphs()) {
        for (std::string_view name : infos_[sub].outer_refs) {
          note_use(name, ValueUse{&n, &g, 0, true});
          if (const Node* p = local_producer(name)) preds[n.index].push_back(p->index);
        }
      }
    }
    for (const ValueInfo& out : g.outputs) note_use(out.name, ValueUse{nullptr, &g, 0, false});

    // Ordering: a node must come after every local producer it reads.
    std::vector<uint32_t> indegree(g.nodes.size(), 0);
    std::vector<std::vector<uint32_t>> succs(g.nodes.size());
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
      bool out_of_order = false;
      for (uint32_t p : preds[i]) {
        if (p >= i) out_of_order = true;
        succs[p].push_back(i);
        ++indegree[i];
      }
      if (out_of_order) info.out_of_order_nodes.push_back(i);
    }
    std::vector<uint32_t> order;
    order.reserve(g.nodes.size());
    std::deque<uint32_t> ready;
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
      if (indegree[i] == 0) ready.push_back(i);
    }
    while (!ready.empty()) {
      uint32_t i = ready.front();
      ready.pop_front();
      order.push_back(i);
      for (uint32_t s : succs[i]) {
        if (--indegree[s] == 0) ready.push_back(s);
      }
    }
    if (order.size() == g.nodes.size()) info.topo_order = std::move(order);

    // Liveness: walk back from the graph outputs through producers.
    info.live.assign(g.nodes.size(), false);
    std::vector<uint32_t> work;
    for (const ValueInfo& out : g.outputs) {
      if (const Node* p = local_producer(out.name); p && !info.live[p->index]) {
        info.live[p->index] = true;
        work.push_back(p->index);
      }
    }
    while (!work.empty()) {
      uint32_t i = work.back();
      work.pop_back();
      for (uint32_t p : preds[i]) {
        if (!info.live[p]) {
          info.live[p] = true;
          work.push_back(p);
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

ConstantIndex::ConstantIndex(const Model& model, AnalysisCache& cache)
    : model_(model), index_(cache.get<GraphIndex>()) {
  for (const Graph* g : model.all_graphs()) {
    auto& map = by_graph_[g];
    const GraphInfo& info = index_.info(*g);
    for (const TensorData& t : g->initializers) {
      const ValueDef* d = info.local(t.name);
      Constant c;
      c.tensor = &t;
      c.overridable = d != nullptr && d->kind == ValueDef::Kind::Input;
      map.emplace(t.name, c);
    }
    for (const Node& n : g->nodes) {
      if (n.op_type != "Constant" || !(n.domain.empty() || n.domain == "ai.onnx")) continue;
      if (n.outputs.empty() || n.outputs[0].empty()) continue;
      Constant c;
      c.node = &n;
      for (const Attribute& a : n.attributes) {
        if (a.name == "value" && a.t != nullptr) {
          c.tensor = a.t;
        } else if (a.name.starts_with("value_")) {
          c.attribute = &a;
        }
      }
      if (c.tensor != nullptr || c.attribute != nullptr) map.emplace(n.outputs[0], c);
    }
  }
}

const ConstantIndex::Constant* ConstantIndex::find(const Graph& g, std::string_view name) const {
  for (const Graph* cur = &g; cur != nullptr; cur = cur->parent) {
    auto it = by_graph_.find(cur);
    if (it != by_graph_.end()) {
      auto c = it->second.find(name);
      if (c != it->second.end()) return &c->second;
    }
    // A local non-constant definition shadows outer constants.
    if (index_.info(*cur).local(name) != nullptr) return nullptr;
  }
  return nullptr;
}

std::optional<std::vector<int64_t>> ConstantIndex::ints(const Graph& g, std::string_view name,
                                                        size_t max_elements) const {
  const Constant* c = find(g, name);
  if (c == nullptr || c->overridable) return std::nullopt;
  if (c->tensor != nullptr) return model_.read_ints(*c->tensor, max_elements);
  if (c->attribute != nullptr) {
    if (c->attribute->type == Attribute::Type::Int) return std::vector<int64_t>{c->attribute->i};
    if (c->attribute->type == Attribute::Type::Ints) return c->attribute->ints;
  }
  return std::nullopt;
}

}  // namespace onnxlint
