#include "rules/opset/element_types.h"

#include <onnxlint/opset_table.h>

#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

// The element type a formal parameter fixes by itself: a concrete "tensor(int64)", or a type
// parameter whose constraint allows exactly one tensor type (Shape's T1, NonZero's output...).
std::optional<int32_t> fixed_type(const OpSchema& s, const ParamSchema& p) {
  std::string_view t = p.type;
  if (const TypeConstraint* c = s.find_constraint(p.type)) {
    if (c->allowed.size() != 1) return std::nullopt;
    t = c->allowed[0];
  }
  if (!t.starts_with("tensor(")) return std::nullopt;
  return element_type_from_name(t);
}

std::optional<int32_t> constant_type(const Node& n) {
  for (const Attribute& a : n.attributes) {
    if (!a.ref_attr_name.empty()) return std::nullopt;
    if (a.name == "value" && a.t != nullptr) return a.t->data_type;
    if (a.name == "value_float" || a.name == "value_floats") return 1;    // FLOAT
    if (a.name == "value_int" || a.name == "value_ints") return 7;        // INT64
    if (a.name == "value_string" || a.name == "value_strings") return 8;  // STRING
  }
  return std::nullopt;
}

}  // namespace

ElementTypes::ElementTypes(const Model& model, AnalysisCache& cache)
    : index_(cache.get<GraphIndex>()) {
  const OpResolutionIndex& ops = cache.get<OpResolutionIndex>();
  for (const Graph* g : model.all_graphs()) {
    GraphTypes& gt = by_graph_[g];
    gt.by_id.assign(g->name_count(), kUnknown);
    // Sets the type of a value by name (value_info may name values nothing else mentions).
    struct Setter {
      GraphTypes& gt;
      int32_t& at(NameId id, std::string_view name) {
        return id != kNoNameId ? gt.by_id[id] : gt.unlisted[name];
      }
    } types{gt};
    auto declare = [&](const ValueInfo& vi) {
      if (vi.type.kind == TypeInfo::Kind::Tensor && vi.type.elem_type != 0 && !vi.name.empty()) {
        types.at(vi.name_id, vi.name) = vi.type.elem_type;
      }
    };
    for (const ValueInfo& vi : g->inputs) declare(vi);
    for (const ValueInfo& vi : g->outputs) declare(vi);
    for (const ValueInfo& vi : g->value_info) declare(vi);
    // What a value holds wins over what a value_info says about it.
    for (const TensorData& t : g->initializers) {
      if (t.data_type != 0) types.at(t.name_id, t.name) = t.data_type;
    }
    for (const SparseTensorData& s : g->sparse_initializers) {
      if (s.values.data_type != 0) types.at(s.values.name_id, s.values.name) = s.values.data_type;
    }
    for (const Node& n : g->nodes) {
      if (n.outputs.empty() || n.outputs[0].empty()) continue;
      const OpResolution& r = ops.of(n);
      if (r.status != OpStatus::Standard || !r.domain.empty()) continue;
      if (n.op_type == "Constant") {
        if (auto t = constant_type(n)) gt.by_id[n.output_ids()[0]] = *t;
        continue;
      }
      if (n.op_type == "Cast") {
        const Attribute* to = n.attribute("to");
        if (to != nullptr && to->ref_attr_name.empty() && to->type == Attribute::Type::Int &&
            !element_type_name(static_cast<int32_t>(to->i)).empty()) {
          gt.by_id[n.output_ids()[0]] = static_cast<int32_t>(to->i);
        }
        continue;
      }
      const OpSchema& s = *r.schema;
      for (size_t i = 0; i < n.outputs.size() && !s.outputs.empty(); ++i) {
        if (n.outputs[i].empty()) continue;
        const ParamSchema& p = s.outputs[std::min(i, s.outputs.size() - 1)];
        if (i >= s.outputs.size() && p.option != ParamOption::Variadic) break;
        if (auto t = fixed_type(s, p)) gt.by_id[n.output_ids()[i]] = *t;
      }
    }
  }
}

std::optional<int32_t> ElementTypes::of(const Graph& g, std::string_view name) const {
  return of(g, g.name_id(name), name);
}

std::optional<int32_t> ElementTypes::of(const Graph& g, NameId id, std::string_view name) const {
  // Lexical scope: the first graph that knows the type wins; a graph that defines the name
  // without a known type shadows the outer ones.
  const int32_t* t =
      index_.find_in_scope(g, id, name, [&](const Graph& cur, NameId cur_id) -> const int32_t* {
        auto it = by_graph_.find(&cur);
        if (it == by_graph_.end()) return nullptr;
        const GraphTypes& gt = it->second;
        if (cur_id == kNoNameId) return gt.unlisted.find(name);
        return gt.by_id[cur_id] != kUnknown ? &gt.by_id[cur_id] : nullptr;
      });
  return t != nullptr ? std::optional<int32_t>(*t) : std::nullopt;
}

}  // namespace onnxlint::rules
