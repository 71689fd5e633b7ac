#include <onnxlint/value_table.h>

#include <algorithm>

#include "analysis/ops/registry.h"
#include "util/name_map.h"

namespace onnxlint {
namespace {

constexpr uint32_t kDeclOutput = 1, kDeclValueInfo = 2;
constexpr uint32_t kDeclIndexMask = (1u << 30) - 1;

// A Constant node's payload: its `value` tensor or one value_* attribute. Attributes that
// refer to a function's attribute are not constants of the body.
ConstantInfo constant_of(const Node& n) {
  ConstantInfo c;
  c.node = &n;
  for (const Attribute& a : n.attributes()) {
    if (!a.ref_attr_name.empty()) return ConstantInfo{};
    if (a.name == "value" && a.t != nullptr) {
      c.tensor = a.t;
    } else if (a.name.starts_with("value_")) {
      c.attribute = &a;
    }
  }
  return c.tensor != nullptr || c.attribute != nullptr ? c : ConstantInfo{};
}

bool is_constant_node(const Node& n) {
  return n.op_type() == "Constant" && n.in_default_domain() && !n.outputs().empty();
}

// A declared type states an element type only for tensors.
int32_t declared_elem(const TypeInfo& t) {
  return t.kind == TypeInfo::Kind::Tensor || t.kind == TypeInfo::Kind::SparseTensor ? t.elem_type
                                                                                    : 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// StatedType

bool StatedType::has_shape() const {
  return tensor != nullptr || attribute_length >= -1 ||
         (declared != nullptr && declared->has_shape);
}

size_t StatedType::rank() const {
  if (tensor != nullptr) return tensor->dims.size();
  if (attribute_length >= -1) return attribute_length >= 0 ? 1 : 0;
  if (declared != nullptr && declared->has_shape) return declared->dims.size();
  return 0;
}

Dim StatedType::dim(size_t i) const {
  if (tensor != nullptr) return Dim{Dim::Kind::Value, tensor->dims[i], {}};
  if (attribute_length >= 0) return Dim{Dim::Kind::Value, attribute_length, {}};
  return declared->dims[i];
}

std::vector<Dim> StatedType::dims() const {
  std::vector<Dim> out;
  if (!has_shape()) return out;
  const size_t r = rank();
  out.reserve(r);
  for (size_t i = 0; i < r; ++i) out.push_back(dim(i));
  return out;
}

bool StatedType::is_static_shape() const {
  if (!has_shape()) return false;
  if (tensor != nullptr || attribute_length >= -1) return true;
  return std::all_of(declared->dims.begin(), declared->dims.end(),
                     [](const Dim& d) { return d.is_static(); });
}

// ---------------------------------------------------------------------------------------------
// The table

ValueTable::ValueTable(const Model& model, AnalysisCache& cache) : model_(model) {
  const GraphIndex& index = cache.get<GraphIndex>();
  const auto& graphs = model.all_graphs();
  slots_.resize(graphs.size());
  slot_index_.reserve(graphs.size());
  uint32_t next = 0, next_node = 0;
  for (size_t i = 0; i < graphs.size(); ++i) {
    const Graph& g = *graphs[i];
    GraphSlot& s = slots_[i];
    s.graph = &g;
    s.info = &index.info(g);
    slot_index_.emplace(&g, static_cast<uint32_t>(i));
    s.base = next;
    next += static_cast<uint32_t>(g.inputs().size() + g.initializers().size() +
                                  g.sparse_initializers().size());
    s.outs_base = next;
    s.out_off.resize(g.nodes().size());
    uint32_t off = 0;
    for (size_t j = 0; j < g.nodes().size(); ++j) {
      s.out_off[j] = off;
      off += static_cast<uint32_t>(g.nodes()[j].outputs().size());
    }
    next += off;
    s.end = next;
    s.node_base = next_node;
    next_node += static_cast<uint32_t>(g.nodes().size());
  }
  size_ = next;
  node_total_ = next_node;
  // The producer of every node output, by value id: asked per value by reason chains and rules,
  // which a search of out_off made logarithmic in the graph.
  producers_.assign(size_, nullptr);
  for (const GraphSlot& s : slots_) {
    const auto& nodes = s.graph->nodes();
    for (size_t j = 0; j < nodes.size(); ++j) {
      const uint32_t first = s.outs_base + s.out_off[j];
      for (size_t k = 0; k < nodes[j].outputs().size(); ++k) producers_[first + k] = &nodes[j];
    }
  }
  for (GraphSlot& s : slots_) {
    const Graph* root = s.graph;
    while (root->parent() != nullptr) root = root->parent();
    s.root_slot = slot_index_.at(root);
    s.function = root->kind() == Graph::Kind::Function ? root->function() : nullptr;
  }

  // Declarations of initializers and node outputs (inputs carry their own): value_info first,
  // so a graph output's declaration wins over it.
  decl_.assign(size_, 0);
  for (const GraphSlot& s : slots_) {
    const Graph& g = *s.graph;
    auto declare = [&](std::span<const ValueInfo> list, uint32_t kind) {
      for (size_t i = 0; i < list.size() && i <= kDeclIndexMask; ++i) {
        const ValueDef* d = s.info->local(list[i].name_id);
        if (d == nullptr || d->kind() == ValueDef::Kind::Input) continue;
        const ValueId v = id_of(*d);
        if (v != kNoValue) decl_[v] = (kind << 30) | static_cast<uint32_t>(i);
      }
    };
    declare(g.value_info(), kDeclValueInfo);
    declare(g.outputs(), kDeclOutput);
  }
}

const GraphSlot* ValueTable::slot(const Graph& g) const {
  // Most lookups are for the main graph (slot 0): no hashing for them.
  if (!slots_.empty() && slots_[0].graph == &g) return &slots_[0];
  auto it = slot_index_.find(&g);
  return it == slot_index_.end() ? nullptr : &slots_[it->second];
}

const GraphSlot* ValueTable::slot_of_value(ValueId v) const {
  if (v >= size_) return nullptr;
  // The last slot whose range starts at or before v and holds it (empty ranges share starts).
  auto it = std::upper_bound(slots_.begin(), slots_.end(), v,
                             [](uint32_t x, const GraphSlot& s) { return x < s.base; });
  while (it != slots_.begin()) {
    --it;
    if (v - it->base < it->end - it->base) return &*it;
  }
  return nullptr;
}

uint32_t ValueTable::node_id(const Node& n) const {
  const GraphSlot* s = slot(*n.graph());
  return s != nullptr ? s->node_base + n.index() : 0xffffffffu;
}

const Node* ValueTable::node_at(uint32_t id) const {
  if (id >= node_total_) return nullptr;
  auto it = std::upper_bound(slots_.begin(), slots_.end(), id,
                             [](uint32_t x, const GraphSlot& s) { return x < s.node_base; });
  while (it != slots_.begin()) {
    --it;
    if (id - it->node_base < it->graph->nodes().size())
      return &it->graph->nodes()[id - it->node_base];
  }
  return nullptr;
}

ValueId ValueTable::id_of(const ValueDef& d) const { return id_in(slot(*d.graph()), d); }

ValueId ValueTable::id_in(const GraphSlot* s, const ValueDef& d) const {
  if (s == nullptr || s->graph != d.graph()) s = slot(*d.graph());
  if (s == nullptr) return kNoValue;
  const Graph& g = *d.graph();
  switch (d.kind()) {
    case ValueDef::Kind::Input:
      return s->base + static_cast<uint32_t>(d.input() - g.inputs().data());
    case ValueDef::Kind::Initializer:
      return s->base +
             static_cast<uint32_t>(g.inputs().size() + (d.tensor() - g.initializers().data()));
    case ValueDef::Kind::SparseInitializer:
      for (size_t i = 0; i < g.sparse_initializers().size(); ++i) {
        if (&g.sparse_initializers()[i].values == d.tensor()) {
          return s->base + static_cast<uint32_t>(g.inputs().size() + g.initializers().size() + i);
        }
      }
      return kNoValue;
    case ValueDef::Kind::Node:
      return node_output_id(*s, *d.node(), d.output_index());
  }
  return kNoValue;
}

ValueId ValueTable::find(const Graph& g, std::string_view name) const {
  if (name.empty()) return kNoValue;
  const GraphSlot* s = slot(g);
  if (s == nullptr) return kNoValue;
  const ValueDef* d = s->info->resolve(name);
  return d == nullptr ? kNoValue : id_of(*d);
}

ValueId ValueTable::input(const Node& n, size_t k) const {
  const GraphSlot* s = slot(*n.graph());
  if (s == nullptr) return kNoValue;
  const ValueDef* d = s->info->input_def(n, k);
  return d == nullptr ? kNoValue : id_in(s, *d);
}

ValueId ValueTable::output(const Node& n, size_t k) const {
  const GraphSlot* s = slot(*n.graph());
  return s != nullptr ? output(*s, n, k) : kNoValue;
}

const Graph* ValueTable::graph_of(ValueId v) const {
  const GraphSlot* s = slot_of_value(v);
  return s != nullptr ? s->graph : nullptr;
}

const Node* ValueTable::producer(ValueId v) const {
  return v < producers_.size() ? producers_[v] : nullptr;
}

std::string_view ValueTable::name_of(ValueId v) const {
  const GraphSlot* s = slot_of_value(v);
  if (s == nullptr) return {};
  const Graph& g = *s->graph;
  uint32_t i = v - s->base;
  if (i < g.inputs().size()) return g.inputs()[i].name;
  i -= static_cast<uint32_t>(g.inputs().size());
  if (i < g.initializers().size()) return g.initializers()[i].name;
  i -= static_cast<uint32_t>(g.initializers().size());
  if (i < g.sparse_initializers().size()) return g.sparse_initializers()[i].values.name;
  const Node* n = producer(v);
  return n != nullptr ? n->outputs()[v - s->outs_base - s->out_off[n->index()]]
                      : std::string_view();
}

std::optional<ConstantInfo> ValueTable::constant(ValueId v) const {
  const GraphSlot* s = slot_of_value(v);
  if (s == nullptr) return std::nullopt;
  const Graph& g = *s->graph;
  const uint32_t i = v - s->base;
  if (i < g.inputs().size()) {
    // An initializer listed as a graph input: a default the caller may override.
    const ValueDef* d = s->info->local(g.inputs()[i].name_id);
    if (d == nullptr || d->kind() != ValueDef::Kind::Input || d->input() != &g.inputs()[i] ||
        d->tensor() == nullptr) {
      return std::nullopt;
    }
    return ConstantInfo{d->tensor(), nullptr, nullptr, true};
  }
  if (i < g.inputs().size() + g.initializers().size()) {
    const TensorData& t = g.initializers()[i - g.inputs().size()];
    const ValueDef* d = s->info->local(t.name_id);
    return ConstantInfo{&t, nullptr, nullptr, d != nullptr && d->kind() == ValueDef::Kind::Input};
  }
  const Node* n = producer(v);
  if (n == nullptr || !is_constant_node(*n)) return std::nullopt;
  ConstantInfo c = constant_of(*n);
  if (c.node == nullptr) return std::nullopt;
  return c;
}

std::optional<std::vector<int64_t>> ValueTable::constant_ints(ValueId v,
                                                              size_t max_elements) const {
  auto c = constant(v);
  if (!c || c->overridable) return std::nullopt;
  if (c->tensor != nullptr) return model_.read_ints(*c->tensor, max_elements);
  if (c->attribute != nullptr) {
    if (c->attribute->type == Attribute::Type::Int) return std::vector<int64_t>{c->attribute->i};
    if (c->attribute->type == Attribute::Type::Ints && c->attribute->ints.size() <= max_elements) {
      return std::vector<int64_t>(c->attribute->ints.begin(), c->attribute->ints.end());
    }
  }
  return std::nullopt;
}

std::optional<std::vector<double>> ValueTable::constant_floats(ValueId v,
                                                               size_t max_elements) const {
  auto c = constant(v);
  if (!c || c->overridable) return std::nullopt;
  if (c->tensor != nullptr) return model_.read_floats(*c->tensor, max_elements);
  if (c->attribute != nullptr) {
    if (c->attribute->type == Attribute::Type::Float) return std::vector<double>{c->attribute->f};
    if (c->attribute->type == Attribute::Type::Floats &&
        c->attribute->floats.size() <= max_elements) {
      return std::vector<double>(c->attribute->floats.begin(), c->attribute->floats.end());
    }
  }
  return std::nullopt;
}

ValueTable::Declaration ValueTable::declaration(ValueId v) const {
  if (v >= size_ || decl_[v] == 0) return {};
  const GraphSlot* s = slot_of_value(v);
  if (s == nullptr) return {};
  const uint32_t d = decl_[v], k = d & kDeclIndexMask;
  const bool out = (d >> 30) == kDeclOutput;
  return {out ? &s->graph->outputs()[k] : &s->graph->value_info()[k], out};
}

StatedType ValueTable::stated(ValueId v) const {
  return stated_in(v, slot_of_value(v), nullptr, 0);
}

StatedType ValueTable::stated_input(const Node& n, size_t k) const {
  const GraphSlot* s = slot(*n.graph());
  if (s == nullptr) return {};
  const ValueDef* d = s->info->input_def(n, k);
  if (d == nullptr) return {};
  const ValueId v = id_in(s, *d);
  if (v == kNoValue) return {};
  if (d->graph() != n.graph()) s = slot(*d->graph());
  return d->kind() == ValueDef::Kind::Node ? stated_in(v, s, d->node(), d->output_index())
                                           : stated_in(v, s, nullptr, 0);
}

StatedType ValueTable::stated_output(const Node& n, size_t k) const {
  const ValueId v = output(n, k);
  if (v == kNoValue) return {};
  return stated_in(v, slot(*n.graph()), &n, static_cast<uint32_t>(k));
}

StatedType ValueTable::stated_in(ValueId v, const GraphSlot* s, const Node* n,
                                 uint32_t output_index) const {
  StatedType st;
  if (s == nullptr) return st;
  const Graph& g = *s->graph;
  const uint32_t i = v - s->base;
  if (i < g.inputs().size()) {
    st.declared = &g.inputs()[i].type;
    st.elem_type = declared_elem(*st.declared);
    if (auto c = constant(v)) {
      st.tensor = c->tensor;
      if (c->tensor->data_type != 0) st.elem_type = c->tensor->data_type;
    }
    return st;
  }
  if (const uint32_t d = decl_[v]; d != 0) {
    const uint32_t k = d & kDeclIndexMask;
    st.declared = (d >> 30) == kDeclOutput ? &g.outputs()[k].type : &g.value_info()[k].type;
    st.elem_type = declared_elem(*st.declared);
  }
  if (i < g.inputs().size() + g.initializers().size()) {
    st.tensor = &g.initializers()[i - g.inputs().size()];
    if (st.tensor->data_type != 0) st.elem_type = st.tensor->data_type;
    return st;
  }
  if (i < g.inputs().size() + g.initializers().size() + g.sparse_initializers().size()) {
    const TensorData& values =
        g.sparse_initializers()[i - g.inputs().size() - g.initializers().size()].values;
    if (values.data_type != 0) st.elem_type = values.data_type;
    return st;
  }
  if (n == nullptr) {
    n = producer(v);
    if (n == nullptr) return st;
    output_index = v - s->outs_base - s->out_off[n->index()];
  }
  st.producer = n;
  st.output_index = output_index;
  if (!n->in_default_domain() || output_index != 0) return st;
  if (n->op_type() == "Constant") {
    const ConstantInfo c = constant_of(*n);
    if (c.tensor != nullptr) {
      st.tensor = c.tensor;
      st.elem_type = c.tensor->data_type;
    } else if (c.attribute != nullptr) {
      const Attribute& a = *c.attribute;
      auto set = [&](DataType elem, int64_t length) {
        st.elem_type = static_cast<int32_t>(elem);
        st.attribute_length = length;
      };
      if (a.name == "value_float") set(DataType::Float, -1);
      if (a.name == "value_floats") set(DataType::Float, static_cast<int64_t>(a.floats.size()));
      if (a.name == "value_int") set(DataType::Int64, -1);
      if (a.name == "value_ints") set(DataType::Int64, static_cast<int64_t>(a.ints.size()));
      if (a.name == "value_string") set(DataType::String, -1);
      if (a.name == "value_strings") set(DataType::String, static_cast<int64_t>(a.strings.size()));
    }
  } else if (n->op_type() == "Cast") {
    const Attribute* to = n->attribute("to");
    if (to != nullptr && to->ref_attr_name.empty() && to->type == Attribute::Type::Int &&
        to->i > 0 && !data_type_name(static_cast<int32_t>(to->i)).empty()) {
      st.elem_type = static_cast<int32_t>(to->i);
    }
  }
  return st;
}

}  // namespace onnxlint
