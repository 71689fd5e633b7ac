// Element-type inference (include/onnxlint/element_types.h): one pass over every graph in
// topological order, into subgraphs when their node is reached, asking each node's op
// registry entry (lib/analysis/ops/) for its outputs' types.
#include <onnxlint/data_type.h>
#include <onnxlint/element_types.h>
#include <onnxlint/opset_table.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint {

// ---------------------------------------------------------------------------------------------
// ValueType

ValueType ValueType::tensor(int64_t data_type) {
  if (data_type <= 0 || data_type > 255 || data_type_name(static_cast<int32_t>(data_type)).empty())
    return {};
  return {Kind::Tensor, static_cast<uint8_t>(data_type)};
}

ValueType ValueType::as_sequence() const {
  return kind == Kind::Tensor ? ValueType{Kind::Sequence, elem} : ValueType{};
}

ValueType ValueType::sequence_elem() const {
  return kind == Kind::Sequence ? ValueType{Kind::Tensor, elem} : ValueType{};
}

ValueType ValueType::as_optional() const {
  if (kind == Kind::Tensor) return {Kind::Optional, elem};
  if (kind == Kind::Sequence) return {Kind::OptionalSequence, elem};
  return {};
}

ValueType ValueType::optional_elem() const {
  if (kind == Kind::Optional) return {Kind::Tensor, elem};
  if (kind == Kind::OptionalSequence) return {Kind::Sequence, elem};
  return {};
}

std::string value_type_text(ValueType t) {
  std::string e(t.elem != 0 ? data_type_name(static_cast<int32_t>(t.elem)) : "?");
  switch (t.kind) {
    case ValueType::Kind::Tensor:
      return "tensor(" + e + ")";
    case ValueType::Kind::SparseTensor:
      return "sparse_tensor(" + e + ")";
    case ValueType::Kind::Sequence:
      return "seq(tensor(" + e + "))";
    case ValueType::Kind::Optional:
      return "optional(tensor(" + e + "))";
    case ValueType::Kind::OptionalSequence:
      return "optional(seq(tensor(" + e + ")))";
    case ValueType::Kind::Other:
      return "other";
    case ValueType::Kind::Unknown:
      break;
  }
  return "?";
}

namespace {

// "prefix(inner)" -> inner, or nullopt.
std::optional<std::string_view> unwrap(std::string_view s, std::string_view prefix) {
  if (!s.starts_with(prefix) || s.size() < prefix.size() + 2 || s[prefix.size()] != '(' ||
      s.back() != ')')
    return std::nullopt;
  return s.substr(prefix.size() + 1, s.size() - prefix.size() - 2);
}

ValueType tensor_named(std::string_view name, ValueType::Kind kind) {
  const std::optional<int32_t> t = element_type_from_name(name);
  if (!t || *t <= 0 || *t > 255) return {};
  return {kind, static_cast<uint8_t>(*t)};
}

}  // namespace

ValueType parse_value_type(std::string_view s) {
  using K = ValueType::Kind;
  if (auto in = unwrap(s, "tensor")) return tensor_named(*in, K::Tensor);
  if (auto in = unwrap(s, "sparse_tensor")) return tensor_named(*in, K::SparseTensor);
  if (auto in = unwrap(s, "seq")) {
    if (auto t = unwrap(*in, "tensor")) return tensor_named(*t, K::Sequence);
    return {K::Other, 0};
  }
  if (auto in = unwrap(s, "optional")) {
    if (auto t = unwrap(*in, "tensor")) return tensor_named(*t, K::Optional);
    if (auto q = unwrap(*in, "seq")) {
      if (auto t = unwrap(*q, "tensor")) return tensor_named(*t, K::OptionalSequence);
    }
    return {K::Other, 0};
  }
  if (s.starts_with("map(")) return {K::Other, 0};
  return {};
}

ValueType declared_value_type(const TypeInfo& t) {
  using K = ValueType::Kind;
  const uint8_t elem = t.elem_type > 0 && t.elem_type <= 255 && !data_type_name(t.elem_type).empty()
                           ? static_cast<uint8_t>(t.elem_type)
                           : 0;
  switch (t.kind) {
    case TypeInfo::Kind::None:
      return {};
    case TypeInfo::Kind::Tensor:
      return {K::Tensor, elem};
    case TypeInfo::Kind::SparseTensor:
      return {K::SparseTensor, elem};
    case TypeInfo::Kind::Sequence:
      if (t.wrappers == 1 && t.inner_kind == 1) return {K::Sequence, elem};
      return {K::Other, 0};
    case TypeInfo::Kind::Optional:
      if (t.wrappers == 1 && t.inner_kind == 1) return {K::Optional, elem};
      // optional(seq(tensor)): level 0 optional (1), level 1 sequence (0).
      if (t.wrappers == 2 && t.inner_kind == 1 && t.wrapper_kinds == 1)
        return {K::OptionalSequence, elem};
      return {K::Other, 0};
    case TypeInfo::Kind::Map:
    case TypeInfo::Kind::Other:
      return {K::Other, 0};
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// The pass

namespace {

// The schema's type rule for one schema, decided once: for each formal input the type
// parameter it binds (-1: a concrete type, or a variadic list whose arguments may differ), and
// for each formal output the parameter it takes or the one type it fixes.
struct SchemaPlan {
  static constexpr int kMaxParams = 16;
  std::vector<int8_t> in_param;
  std::vector<int8_t> out_param;
  std::vector<ValueType> out_fixed;
  bool last_input_variadic = false;
  bool last_output_variadic = false;
};

SchemaPlan make_plan(const OpSchema& s) {
  SchemaPlan p;
  auto param_index = [&](std::string_view name) -> int {
    for (size_t i = 0; i < s.type_constraints.size() && i < SchemaPlan::kMaxParams; ++i) {
      if (s.type_constraints[i].param == name) return static_cast<int>(i);
    }
    return -1;
  };
  for (const ParamSchema& in : s.inputs) {
    const bool heterogeneous = in.option == ParamOption::Variadic && !in.homogeneous;
    p.in_param.push_back(static_cast<int8_t>(heterogeneous ? -1 : param_index(in.type)));
  }
  for (const ParamSchema& out : s.outputs) {
    const int k = param_index(out.type);
    const bool heterogeneous = out.option == ParamOption::Variadic && !out.homogeneous;
    ValueType fixed;
    if (k < 0) {
      fixed = parse_value_type(out.type);
    } else if (s.type_constraints[static_cast<size_t>(k)].allowed.size() == 1) {
      fixed = parse_value_type(s.type_constraints[static_cast<size_t>(k)].allowed[0]);
    }
    p.out_param.push_back(static_cast<int8_t>(heterogeneous || fixed.known() ? -1 : k));
    p.out_fixed.push_back(fixed);
  }
  p.last_input_variadic = !s.inputs.empty() && s.inputs.back().option == ParamOption::Variadic;
  p.last_output_variadic = !s.outputs.empty() && s.outputs.back().option == ParamOption::Variadic;
  return p;
}

// The formal parameter actual argument k binds to, or -1.
int formal_index(size_t k, size_t formals, bool last_variadic) {
  if (k < formals) return static_cast<int>(k);
  return last_variadic && formals > 0 ? static_cast<int>(formals - 1) : -1;
}

bool compatible_kinds(ValueType::Kind a, ValueType::Kind b) {
  using K = ValueType::Kind;
  auto dense = [](K k) { return k == K::Tensor || k == K::SparseTensor ? K::Tensor : k; };
  return dense(a) == dense(b);
}

// What inference and a declaration say together. `stale`: they contradict.
ValueType merge(ValueType inferred, ValueType declared, bool& from_decl, bool& stale) {
  from_decl = false;
  stale = false;
  if (!declared.known()) return inferred;
  if (!inferred.known()) {
    from_decl = true;
    return declared;
  }
  using K = ValueType::Kind;
  if (inferred.kind == K::Other || declared.kind == K::Other) return inferred;
  if (!compatible_kinds(inferred.kind, declared.kind)) {
    stale = true;
    return inferred;
  }
  if (inferred.elem == 0) {
    from_decl = declared.elem != 0;
    return {inferred.kind, declared.elem};
  }
  stale = declared.elem != 0 && declared.elem != inferred.elem;
  return inferred;
}

// Calls of model-local functions are inferred through the body when it is small and the
// nesting shallow; past these the call's outputs stay unknown.
constexpr size_t kMaxCallDepth = 4;
constexpr size_t kMaxBodyNodes = 4096;

}  // namespace

struct ElementTypes::Pass final : ops::TypeContext {
  struct OpInfo {
    const ops::OpEntry* entry = nullptr;
    const OpSchema* schema = nullptr;
    const SchemaPlan* plan = nullptr;
    int64_t opset = 0;
    /// Every output takes the type parameter of input 0 and no rule applies (Relu, Abs,
    /// Sigmoid, ...): a node with one input gives its outputs its input's type.
    bool same_as_input = false;
  };

  Pass(const Model& m, ElementTypes& e)
      : model(m), vt(e.values_), out(e), default_ops(m.op_kinds().size()) {}

  const Model& model;
  const ValueTable& vt;
  ElementTypes& out;
  std::unordered_map<const OpSchema*, SchemaPlan> plans;
  // Default-domain ops outside functions, by Node::op_id: resolved once per op.
  std::vector<std::optional<OpInfo>> default_ops;
  std::vector<const Node*> calls;  // the calls whose bodies are being inferred, innermost last
  size_t call_budget = 0;          // body nodes still allowed for call inference
  // Call results memoized for functions without attributes: (function, input types).
  std::map<std::pair<const Function*, std::vector<uint16_t>>, std::vector<ValueType>> call_memo;

  // The node being inferred.
  const Node* cur = nullptr;
  const GraphSlot* cur_slot = nullptr;
  const OpInfo* cur_info = nullptr;

  // --- TypeContext
  const Node& node() const override { return *cur; }
  const OpSchema* schema() const override { return cur_info->schema; }
  int64_t opset() const override { return cur_info->opset; }
  ValueType input(size_t k) const override {
    if (k >= cur->input_count() || cur->input_ids()[k] == kNoNameId) return {};
    return out.type(vt.input(*cur_slot, *cur, k));  // cur_slot: cur's graph
  }
  const Attribute* attribute(std::string_view name) const override {
    const Attribute* a = cur->attribute(name);
    // A reference to a function attribute: the attribute of the call being inferred (and so
    // on outward while the call's attribute is itself a reference).
    for (size_t frame = calls.size(); a != nullptr && !a->ref_attr_name.empty();) {
      if (frame == 0) return nullptr;
      a = calls[--frame]->attribute(a->ref_attr_name);
    }
    return a;
  }
  void set(size_t k, ValueType t) override {
    const ValueId v = vt.output(*cur_slot, *cur, k);
    if (v != kNoValue) out.types_[v] = t;
  }
  void from_schema() override {
    const OpSchema* s = cur_info->schema;
    const SchemaPlan* p = cur_info->plan;
    if (s == nullptr || p == nullptr) return;
    ValueType bound[SchemaPlan::kMaxParams];
    for (size_t k = 0; k < cur->input_count(); ++k) {
      const int f = formal_index(k, p->in_param.size(), p->last_input_variadic);
      if (f < 0 || p->in_param[static_cast<size_t>(f)] < 0) continue;
      ValueType& b = bound[p->in_param[static_cast<size_t>(f)]];
      if (b.known() && b.elem != 0) continue;
      const ValueType t = input(k);
      if (t.known() && (!b.known() || t.elem != 0)) b = t;
    }
    for (size_t k = 0; k < cur->output_count(); ++k) {
      const ValueId v = vt.output(*cur_slot, *cur, k);
      if (v == kNoValue || out.types_[v].known()) continue;  // set by the op's rule
      const int f = formal_index(k, p->out_param.size(), p->last_output_variadic);
      if (f < 0) continue;
      const ValueType fixed = p->out_fixed[static_cast<size_t>(f)];
      const int param = p->out_param[static_cast<size_t>(f)];
      out.types_[v] = fixed.known() ? fixed : param >= 0 ? bound[param] : ValueType{};
    }
  }

  // --- Resolution

  int64_t opset_of(const Node& n, const GraphSlot& s) const {
    if (s.function != nullptr) {
      for (const OpsetImport& imp : s.function->opset_imports()) {
        if (normalize_domain(imp.domain) == n.domain()) return imp.version;
      }
    }
    // A missing import is reported by the opset rules; the newest schema meanwhile.
    return model.opset_for(n.domain()).value_or(1000);
  }

  OpInfo resolve(const Node& n, const GraphSlot& s) {
    OpInfo info;
    info.opset = opset_of(n, s);
    info.entry = ops::find_entry(n.domain(), n.op_type(), info.opset);
    info.schema = resolve_schema(n.domain(), n.op_type(), info.opset);
    if (info.schema != nullptr && !info.schema->deprecated) {
      auto [it, added] = plans.try_emplace(info.schema);
      if (added) it->second = make_plan(*info.schema);
      info.plan = &it->second;
      const SchemaPlan& p = it->second;
      info.same_as_input =
          (info.entry == nullptr || info.entry->types == nullptr) &&
          (info.entry == nullptr || info.entry->sem.shape != ShapeBehavior::ControlFlow) &&
          !p.in_param.empty() && p.in_param[0] >= 0 && !p.out_param.empty();
      for (size_t k = 0; k < p.out_param.size() && info.same_as_input; ++k) {
        info.same_as_input = p.out_param[k] == p.in_param[0] && !p.out_fixed[k].known();
      }
    } else {
      info.schema = nullptr;
    }
    return info;
  }

  // --- Values

  // Applies the declaration of value v (when it has one) to what inference found.
  void declare(ValueId v, const ValueInfo* decl, bool graph_output, bool formal, bool record) {
    if (decl == nullptr) return;
    bool from_decl = false, stale = false;
    const ValueType declared = declared_value_type(decl->type);
    const ValueType inferred = out.types_[v];
    out.types_[v] = merge(inferred, declared, from_decl, stale);
    out.from_decl_[v] = from_decl;
    if (stale && record) {
      StaleDeclaration d;
      d.value = v;
      d.graph = vt.graph_of(v);
      d.declared = &decl->type;
      d.declared_type = declared;
      d.inferred_type = inferred;
      d.graph_output = graph_output;
      d.formal_input = formal;
      out.stale_.push_back(d);
    }
  }

  void declare_value(ValueId v, bool record) {
    if (!vt.has_declaration(v)) return;
    const ValueTable::Declaration d = vt.declaration(v);
    declare(v, d.info, d.graph_output, false, record);
  }

  // Infers graph `s`. `formals`: the types its formal inputs receive (subgraph inputs from the
  // node, function inputs from a call), nullptr for the main graph and uncalled bodies.
  // `record`: stale declarations are recorded (not while inferring a call's body).
  void graph(const GraphSlot& s, const std::vector<ValueType>* formals, bool record) {
    const Graph& g = *s.graph;
    for (uint32_t i = 0; i < g.inputs().size(); ++i) {
      const ValueId v = s.base + i;
      ValueType t = formals != nullptr && i < formals->size() ? (*formals)[i] : ValueType{};
      if (auto c = vt.constant(v); c && c->tensor != nullptr && c->tensor->data_type != 0) {
        t = ValueType::tensor(c->tensor->data_type);
      }
      out.types_[v] = t;
      out.from_decl_[v] = false;
      if (g.kind() == Graph::Kind::Main || formals == nullptr) {
        // What the graph receives, as its signature states it: a fact, not a declaration.
        if (!t.known()) out.types_[v] = declared_value_type(g.inputs()[i].type);
      } else {
        declare(v, &g.inputs()[i], false, true, record);
      }
    }
    const uint32_t inits = s.base + static_cast<uint32_t>(g.inputs().size());
    for (uint32_t i = 0; i < g.initializers().size(); ++i) {
      out.types_[inits + i] = ValueType::tensor(g.initializers()[i].data_type);
      declare_value(inits + i, record);
    }
    const uint32_t sparse = inits + static_cast<uint32_t>(g.initializers().size());
    for (uint32_t i = 0; i < g.sparse_initializers().size(); ++i) {
      out.types_[sparse + i] = ValueType::tensor(g.sparse_initializers()[i].values.data_type);
      declare_value(sparse + i, record);
    }
    auto visit = [&](const Node& n) { node(n, s, record); };
    if (s.info->topo_order) {
      for (uint32_t i : *s.info->topo_order) visit(g.nodes()[i]);
    } else {
      for (const Node& n : g.nodes()) visit(n);
    }
  }

  ValueType type_of_output(const Graph& body, size_t k) const {
    if (k >= body.outputs().size()) return {};
    return out.type(vt.find(body, body.outputs()[k].name));
  }

  void node(const Node& n, const GraphSlot& s, bool record) {
    // A copy: the memo may grow (and move) while subgraphs are inferred.
    OpInfo local;
    const Function* fn =
        model.functions().empty() ? nullptr : model.find_function(n.domain(), n.op_type());
    if (fn == nullptr) {
      if (s.function == nullptr && n.in_default_domain()) {
        std::optional<OpInfo>& known = default_ops[n.op_id()];
        if (!known) known = resolve(n, s);
        local = *known;
      } else {
        local = resolve(n, s);
      }
    }
    const OpInfo* info = &local;
    cur = &n;
    cur_slot = &s;
    cur_info = info;
    // The outputs are Unknown here (the table starts so, and a call's re-inference clears the
    // body first): a rule sets what it decides, from_schema fills the rest.
    if (fn == nullptr && info->same_as_input && n.input_count() == 1 && n.attributes().empty()) {
      // The common case, decided without the schema walk.
      const ValueType t = input(0);
      const SchemaPlan& p = *info->plan;
      for (size_t k = 0; k < n.output_count(); ++k) {
        if (k < p.out_param.size() || p.last_output_variadic) set(k, t);  // not past the schema
      }
    } else if (fn != nullptr) {
      call(n, *fn, s);
    } else if (info->entry != nullptr && info->entry->sem.shape == ShapeBehavior::ControlFlow) {
      control_flow(n, s, record);
    } else {
      // Subgraphs of other ops (custom ops holding graphs): typed from their declarations.
      // (Scanned without Node::subgraphs(), which allocates, since nearly no node has any.)
      for (const Attribute& a : n.attributes()) {
        if (a.g == nullptr && a.graphs.empty()) continue;
        for (const Graph* sub : n.subgraphs()) {
          if (const GraphSlot* ss = vt.slot(*sub)) graph(*ss, nullptr, record);
        }
        break;
      }
      cur = &n;
      cur_slot = &s;
      cur_info = info;
      if (info->entry != nullptr && info->entry->types != nullptr) {
        info->entry->types(*this);
      } else {
        from_schema();
      }
    }
    for (size_t k = 0; k < n.output_count(); ++k) {
      const ValueId v = vt.output(s, n, k);
      if (v == kNoValue) continue;
      out.from_decl_[v] = false;
      declare_value(v, record);
    }
  }

  // If, Loop, Scan, SequenceMap: the bodies' formal inputs from the node's inputs, the node's
  // outputs from the bodies' outputs.
  void control_flow(const Node& n, const GraphSlot& s, bool record) {
    const OpInfo info = *cur_info;
    const std::string_view op = n.op_type();
    auto in_type = [&](size_t k) {
      return k < n.input_count() && !n.input(k).empty() ? out.type(vt.input(n, k)) : ValueType{};
    };
    auto run = [&](const Graph* body, const std::vector<ValueType>& formals) {
      if (body == nullptr) return;
      if (const GraphSlot* bs = vt.slot(*body)) graph(*bs, &formals, record);
    };
    auto attr_graph = [&](std::string_view name) -> const Graph* {
      const Attribute* a = n.attribute(name);
      return a != nullptr ? a->g : nullptr;
    };
    std::vector<ValueType> result(n.output_count());
    if (op == "If") {
      const Graph* then_g = attr_graph("then_branch");
      const Graph* else_g = attr_graph("else_branch");
      run(then_g, {});
      run(else_g, {});
      for (size_t k = 0; k < result.size(); ++k) {
        const ValueType a = then_g ? type_of_output(*then_g, k) : ValueType{};
        const ValueType b = else_g ? type_of_output(*else_g, k) : ValueType{};
        // The branches must agree; one unknown side leaves the other's.
        if (!a.known() || !b.known()) {
          result[k] = a.known() ? a : b;
        } else if (a.kind == b.kind) {
          result[k] = a.elem == b.elem ? a : a.elem == 0 ? b : b.elem == 0 ? a : ValueType{};
        }
      }
    } else if (op == "Loop") {
      const Graph* body = attr_graph("body");
      const size_t carried = n.input_count() > 2 ? n.input_count() - 2 : 0;
      std::vector<ValueType> formals = {ValueType::tensor(static_cast<int64_t>(DataType::Int64)),
                                        ValueType::tensor(static_cast<int64_t>(DataType::Bool))};
      for (size_t j = 0; j < carried; ++j) formals.push_back(in_type(2 + j));
      run(body, formals);
      for (size_t k = 0; k < result.size() && body != nullptr; ++k) {
        const ValueType b = type_of_output(*body, 1 + k);
        if (k < carried) {
          // A carried value keeps its type across iterations.
          result[k] = b.known() ? b : in_type(2 + k);
        } else {
          result[k] = b.is_tensor() ? b : ValueType{};  // stacked per iteration
        }
      }
    } else if (op == "Scan") {
      const Graph* body = attr_graph("body");
      const size_t first = info.opset < 9 ? 1 : 0;  // Scan-8 starts with sequence_lens
      const auto scans = n.attr_int("num_scan_inputs");
      const size_t listed = n.input_count() > first ? n.input_count() - first : 0;
      if (body != nullptr && scans && *scans >= 0 && static_cast<size_t>(*scans) <= listed) {
        const size_t states = listed - static_cast<size_t>(*scans);
        std::vector<ValueType> formals;
        for (size_t j = 0; j < listed; ++j) {
          const ValueType t = in_type(first + j);
          formals.push_back(j < states || t.is_tensor() ? t : ValueType{});  // a slice
        }
        run(body, formals);
        for (size_t k = 0; k < result.size(); ++k) {
          const ValueType b = type_of_output(*body, k);
          result[k] =
              k < states ? (b.known() ? b : in_type(first + k)) : (b.is_tensor() ? b : ValueType{});
        }
      } else {
        for (const Graph* sub : n.subgraphs()) run(sub, {});
      }
    } else if (op == "SequenceMap") {
      const Graph* body = attr_graph("body");
      std::vector<ValueType> formals;
      for (size_t j = 0; j < n.input_count(); ++j) {
        const ValueType t = in_type(j);
        formals.push_back(t.kind == ValueType::Kind::Sequence ? t.sequence_elem()
                          : j == 0                            ? ValueType{}
                                                              : t);
      }
      run(body, formals);
      for (size_t k = 0; k < result.size() && body != nullptr; ++k) {
        result[k] = type_of_output(*body, k).as_sequence();
      }
    } else {
      for (const Graph* sub : n.subgraphs()) run(sub, {});
    }
    cur = &n;
    cur_slot = &s;
    cur_info = &info;
    for (size_t k = 0; k < result.size(); ++k) set(k, result[k]);
  }

  // A call of a model-local function: the body inferred with the call's input types and
  // attributes, its outputs the call's.
  void call(const Node& n, const Function& fn, const GraphSlot& s) {
    const Graph& body = fn.body();
    const GraphSlot* bs = vt.slot(body);
    std::vector<ValueType> formals;
    for (size_t k = 0; k < n.input_count(); ++k) {
      formals.push_back(n.input(k).empty() ? ValueType{} : out.type(vt.input(n, k)));
    }
    std::vector<ValueType> results(n.output_count());
    const bool memo = fn.attributes().empty();
    std::vector<uint16_t> key;
    if (memo) {
      for (const ValueType& t : formals)
        key.push_back(static_cast<uint16_t>((static_cast<unsigned>(t.kind) << 8) | t.elem));
      if (auto it = call_memo.find({&fn, key}); it != call_memo.end()) {
        results = it->second;
        bs = nullptr;  // known
      }
    }
    // Every slot of the body (its subgraphs follow it in slot order): saved, inferred for
    // this call, restored, so that the body's own types hold for every call.
    if (bs != nullptr && calls.size() < kMaxCallDepth &&
        std::find(calls.begin(), calls.end(), &n) == calls.end() &&
        body.nodes().size() <= call_budget) {
      call_budget -= body.nodes().size();
      const auto& slots = vt.slots();
      const uint32_t root = static_cast<uint32_t>(bs - slots.data());
      uint32_t begin = bs->base, end = bs->end;
      for (const GraphSlot& other : slots) {
        if (other.root_slot == root) {
          begin = std::min(begin, other.base);
          end = std::max(end, other.end);
        }
      }
      std::vector<ValueType> saved(out.types_.begin() + begin, out.types_.begin() + end);
      std::vector<bool> saved_decl(out.from_decl_.begin() + begin, out.from_decl_.begin() + end);
      std::fill(out.types_.begin() + begin, out.types_.begin() + end, ValueType{});
      calls.push_back(&n);
      graph(*bs, &formals, false);
      calls.pop_back();
      for (size_t k = 0; k < results.size(); ++k) results[k] = type_of_output(body, k);
      std::copy(saved.begin(), saved.end(), out.types_.begin() + begin);
      std::copy(saved_decl.begin(), saved_decl.end(), out.from_decl_.begin() + begin);
      if (memo) call_memo.emplace(std::pair{&fn, std::move(key)}, results);
    }
    cur = &n;
    cur_slot = &s;
    for (size_t k = 0; k < results.size(); ++k) set(k, results[k]);
  }
};

ElementTypes::ElementTypes(const Model& model, AnalysisCache& cache)
    : values_(cache.get<ValueTable>()) {
  types_.assign(values_.size(), ValueType{});
  from_decl_.assign(values_.size(), false);
  Pass pass(model, *this);
  pass.call_budget = std::max<size_t>(kMaxBodyNodes, 8 * values_.node_count());
  // Function bodies first, with their formal inputs unknown: what holds for every call. Then
  // the main graph (its calls re-infer the bodies with the call's types and restore them).
  const auto& slots = values_.slots();
  for (const GraphSlot& s : slots) {
    if (s.graph->kind() == Graph::Kind::Function) pass.graph(s, nullptr, true);
  }
  if (!slots.empty()) pass.graph(slots[0], nullptr, true);
}

namespace ops {

void type_from_dtype_attr(TypeContext& ctx, std::string_view attr, int64_t fallback) {
  if (const Attribute* a = ctx.attribute(attr)) {
    if (a->type == Attribute::Type::Int) ctx.set_tensor(0, a->i);
    return;
  }
  if (ctx.attr_listed(attr)) return;  // an unresolved reference to a function attribute
  if (fallback >= 0) {
    ctx.set_tensor(0, fallback);
  } else {
    const ValueType t = ctx.input(0);
    ctx.set(0, t.is_tensor() ? t : ValueType{});
  }
}

}  // namespace ops

}  // namespace onnxlint
