#include "rules/target/target_common.h"

#include <onnxlint/provenance.h>

#include <algorithm>
#include <map>

namespace onnxlint::rules::target {

std::vector<const TargetInfo*> selected_targets(const RuleContext& ctx) {
  std::vector<const TargetInfo*> out;
  for (const std::string& name : ctx.targets()) {
    const TargetInfo* t = find_target(name);
    if (t != nullptr && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

Severity node_failure_severity(const TargetInfo& t) {
  return t.cpu_fallback ? Severity::Warning : Severity::Error;
}

void NodeFindings::add(const TargetInfo& t, const Node& n, const std::string& reason, Diagnostic d,
                       Location where, std::optional<Severity> severity) {
  auto [it, fresh] = index_.try_emplace({&t, std::string(n.domain), std::string(n.op_type), reason},
                                        groups_.size());
  if (fresh) {
    Group& g = groups_.emplace_back();
    g.target = &t;
    g.reason = reason;
    g.severity = severity.value_or(node_failure_severity(t));
    d.location = std::move(where);
    g.first = std::move(d);
    return;
  }
  groups_[it->second].more.push_back(std::move(where));
}

void NodeFindings::report(RuleContext& ctx, const Several& several) {
  for (Group& g : groups_) {
    std::string message =
        g.more.empty() ? std::move(g.first.message) : several(g.first, g.reason, g.more.size() + 1);
    Diagnostic& d = ctx.report(g.severity, std::move(g.first.location), std::move(message));
    d.target = std::move(g.first.target);
    d.key = std::move(g.first.key);
    d.notes = std::move(g.first.notes);
    d.help = std::move(g.first.help);
    for (Location& l : g.more) d.related.push_back({std::move(l), ""});
  }
  groups_.clear();
  index_.clear();
}

const Function* enclosing_function(const Graph& g) {
  const Graph* cur = &g;
  while (cur->parent != nullptr) cur = cur->parent;
  return cur->kind == Graph::Kind::Function ? cur->function : nullptr;
}

int visible_opset(const Model& model, const Graph& g, std::string_view domain) {
  domain = normalize_domain(domain);
  if (const Function* f = enclosing_function(g)) {
    for (const OpsetImport& imp : f->opset_imports) {
      if (normalize_domain(imp.domain) == domain) return static_cast<int>(imp.version);
    }
  }
  std::optional<int64_t> v = model.opset_for(domain);
  return v ? static_cast<int>(*v) : 0;
}

bool calls_local_function(const Model& model, const Node& n) {
  return model.find_function(n.domain, n.op_type) != nullptr;
}

const OpSchema* node_schema(const Model& model, const Node& n) {
  if (!is_standard_domain(n.domain)) return nullptr;
  const int opset = visible_opset(model, *n.graph, n.domain);
  if (opset <= 0) return nullptr;
  return resolve_schema(n.domain, n.op_type, opset);
}

namespace {

// Constant nodes become initializers when the model is loaded; ORT's ConstantFolding folds the
// rest but keeps quantization nodes so that QDQ fusion can see them.
bool is_foldable(const ConstantValues& constants, const Node& n) {
  if (!(n.domain.empty() || n.domain == "ai.onnx") || n.op_type == "QuantizeLinear" ||
      n.op_type == "DequantizeLinear") {
    return false;
  }
  bool any = false;
  for (std::string_view out : n.outputs) {
    if (out.empty()) continue;
    if (!constants.is_constant(*n.graph, out)) return false;
    any = true;
  }
  return any;
}

}  // namespace

NodeCheck check_node(const Model& model, const TargetInfo& target, const Node& n,
                     const ConstantValues* constants) {
  NodeCheck r;
  if (calls_local_function(model, n)) {
    r.function_call = true;
    return r;
  }
  if (constants != nullptr && target.constant_folding && is_foldable(*constants, n)) {
    r.folded = true;
  }
  const std::string_view domain = normalize_domain(n.domain);
  r.opset = visible_opset(model, *n.graph, domain);
  if (r.opset > 0 && is_standard_domain(domain)) {
    if (const OpSchema* s = resolve_schema(domain, n.op_type, r.opset)) r.since = s->since_version;
  }
  const int lo = target_min_opset(target, domain);
  const int hi = target_max_opset(target, domain);
  r.opset_out_of_range = r.opset > 0 && ((lo > 0 && r.opset < lo) || (hi > 0 && r.opset > hi));
  // An opset outside the target's bounds is one model-level finding (target-opset-range); the
  // op itself is still checked for presence (and, for ORT tables, its since-version).
  r.op = check_op(target, domain, n.op_type, r.since, r.opset_out_of_range ? 0 : r.opset);
  if (target.inlines_functions && !r.op.supported() &&
      (r.op.verdict == OpVerdict::Unsupported || r.op.verdict == OpVerdict::VersionOutOfRange) &&
      r.opset > 0 && is_standard_domain(domain)) {
    const OpSchema* s = resolve_schema(domain, n.op_type, r.opset);
    r.expanded = s != nullptr && (s->has_function || s->has_context_dependent_function);
  }
  return r;
}

namespace {

bool has_tensor_types(std::span<const std::string_view> types) {
  return std::any_of(types.begin(), types.end(),
                     [](std::string_view t) { return t.starts_with("tensor("); });
}

const ParamSchema* formal_for(std::span<const ParamSchema> formals, size_t i) {
  if (i < formals.size()) return &formals[i];
  if (!formals.empty() && formals.back().option == ParamOption::Variadic) return &formals.back();
  return nullptr;
}

}  // namespace

std::vector<TypeOffence> unsupported_types(const Model& model, const TargetInfo& t, const Node& n,
                                           const NodeCheck& nc, const KnownValues& known) {
  std::vector<TypeOffence> out;
  if (!nc.runs_node() || !nc.op.supported() || nc.op.entry == nullptr) return out;
  const TargetOp& entry = *nc.op.entry;
  const TypedRange* kernel = nullptr;
  if (!entry.typed_ranges.empty()) {
    kernel = find_kernel(entry, nc.since);
    if (kernel == nullptr) return out;
  } else if (entry.types.empty()) {
    return out;  // the table has no type data for this op
  }
  const OpSchema* schema = node_schema(model, n);
  if (schema == nullptr) return out;  // no formal parameters to map the values to
  // Tables without per-parameter data (TensorRT) list the types of the op's main data
  // tensor: the type parameter of its first type-parameterised input.
  std::string_view primary;
  if (kernel == nullptr) {
    for (const ParamSchema& p : schema->inputs) {
      if (schema->find_constraint(p.type) != nullptr) {
        primary = p.type;
        break;
      }
    }
    if (primary.empty()) return out;
  }
  std::map<std::pair<std::string_view, int32_t>, TypeOffence> offences;
  auto check = [&](std::string_view value, const ParamSchema* formal, bool is_input) {
    if (value.empty() || formal == nullptr) return;
    if (schema->find_constraint(formal->type) == nullptr) return;  // a fixed type
    const int32_t elem = known.elem_type(*n.graph, value);
    const std::string_view type_string = elem != 0 ? tensor_type_string(elem) : "";
    if (type_string.empty()) return;
    std::span<const std::string_view> allowed;
    if (kernel != nullptr) {
      const TypeParamTypes* p = kernel->find_param(formal->type);
      if (p == nullptr) return;  // the kernel does not constrain this parameter
      allowed = p->types;
    } else {
      if (formal->type != primary) return;
      allowed = entry.types;
    }
    if (!has_tensor_types(allowed)) return;
    if (std::find(allowed.begin(), allowed.end(), type_string) != allowed.end()) return;
    // TensorRT's parser casts DOUBLE down to FLOAT (table global note).
    if (t.id == "tensorrt" && type_string == "tensor(double)") return;
    // ORT's CPU EP runs a float16 node without a float16 kernel on its float kernel, with Casts
    // around it (InsertCastTransformer; checked against ORT 1.30 by tests/ort).
    if (t.id == "onnxruntime-cpu" && type_string == "tensor(float16)" &&
        std::find(allowed.begin(), allowed.end(), "tensor(float)") != allowed.end())
      return;
    TypeOffence& o = offences[{formal->type, elem}];
    o.param = formal->type;
    o.elem_type = elem;
    o.allowed = allowed;
    o.kernel = kernel;
    (is_input ? o.inputs : o.outputs).push_back(value);
  };
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    check(n.inputs[i], formal_for(schema->inputs, i), true);
  }
  for (size_t i = 0; i < n.outputs.size(); ++i) {
    check(n.outputs[i], formal_for(schema->outputs, i), false);
  }
  out.reserve(offences.size());
  for (auto& [key, o] : offences) out.push_back(std::move(o));
  return out;
}

std::string op_label(std::string_view domain, std::string_view op) {
  domain = normalize_domain(domain);
  if (domain.empty()) return std::string(op);
  return std::string(domain) + ":" + std::string(op);
}

bool ValueFacts::is_static_shape() const {
  return has_shape &&
         std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return d.is_static(); });
}

namespace {

ValueFacts facts_of(const TypeInfo& t) {
  ValueFacts f;
  if (t.kind != TypeInfo::Kind::Tensor) return f;
  f.elem_type = t.elem_type;
  f.has_shape = t.has_shape;
  f.dims.assign(t.dims.begin(), t.dims.end());
  return f;
}

ValueFacts facts_of(const TensorData& t) {
  ValueFacts f;
  f.elem_type = t.data_type;
  f.has_shape = true;
  for (int64_t d : t.dims) {
    Dim dim;
    dim.kind = Dim::Kind::Value;
    dim.value = d;
    f.dims.push_back(dim);
  }
  return f;
}

ValueFacts scalar_or_vector(int32_t elem_type, std::optional<size_t> length) {
  ValueFacts f;
  f.elem_type = elem_type;
  f.has_shape = true;
  if (length) {
    Dim d;
    d.kind = Dim::Kind::Value;
    d.value = static_cast<int64_t>(*length);
    f.dims.push_back(d);
  }
  return f;
}

// Facts of a Constant node's output from whichever value_* attribute it carries.
std::optional<ValueFacts> constant_facts(const Node& n) {
  constexpr int32_t kFloat = 1, kInt64 = 7, kString = 8;
  for (const Attribute& a : n.attributes) {
    if (a.name == "value" && a.t != nullptr) return facts_of(*a.t);
    if (a.name == "value_float") return scalar_or_vector(kFloat, std::nullopt);
    if (a.name == "value_floats") return scalar_or_vector(kFloat, a.floats.size());
    if (a.name == "value_int") return scalar_or_vector(kInt64, std::nullopt);
    if (a.name == "value_ints") return scalar_or_vector(kInt64, a.ints.size());
    if (a.name == "value_string") return scalar_or_vector(kString, std::nullopt);
    if (a.name == "value_strings") return scalar_or_vector(kString, a.strings.size());
  }
  return std::nullopt;
}

bool is_default_domain(std::string_view d) { return d.empty() || d == "ai.onnx"; }

}  // namespace

const ValueFacts* KnownValues::GraphFacts::find(NameId id, std::string_view name) const {
  if (id == kNoNameId) return unlisted.find(name);
  return slot[id] != 0 ? &facts[slot[id] - 1] : nullptr;
}

ValueFacts& KnownValues::GraphFacts::put(NameId id, std::string_view name) {
  if (id == kNoNameId) return unlisted[name];
  if (slot[id] == 0) {
    facts.emplace_back();
    slot[id] = static_cast<uint32_t>(facts.size());
  }
  return facts[slot[id] - 1];
}

KnownValues::KnownValues(const Model& model, AnalysisCache& cache)
    : index_(cache.get<GraphIndex>()) {
  for (const Graph* g : model.all_graphs()) {
    GraphFacts& map = by_graph_[g];
    map.slot.assign(g->name_count(), 0);
    // Weakest first; later sources overwrite (an initializer's own dims beat a declared type).
    auto put = [&](NameId id, std::string_view name, ValueFacts f) {
      if (name.empty() || (f.elem_type == 0 && !f.has_shape)) return;
      map.put(id, name) = std::move(f);
    };
    for (const ValueInfo& v : g->value_info) put(v.name_id, v.name, facts_of(v.type));
    for (const ValueInfo& v : g->outputs) put(v.name_id, v.name, facts_of(v.type));
    for (const ValueInfo& v : g->inputs) put(v.name_id, v.name, facts_of(v.type));
    for (const TensorData& t : g->initializers) put(t.name_id, t.name, facts_of(t));
    for (const Node& n : g->nodes) {
      if (!is_default_domain(n.domain) || n.outputs.empty() || n.outputs[0].empty()) continue;
      const NameId out = n.output_ids()[0];
      if (n.op_type == "Constant") {
        if (auto f = constant_facts(n)) put(out, n.outputs[0], std::move(*f));
      } else if (n.op_type == "Cast") {
        if (auto to = n.attr_int("to")) {
          // Cast fixes the element type; keep whatever shape value_info states.
          ValueFacts f;
          if (const ValueFacts* known = map.find(out, n.outputs[0])) f = *known;
          f.elem_type = static_cast<int32_t>(*to);
          put(out, n.outputs[0], std::move(f));
        }
      }
    }
  }
}

const ValueFacts* KnownValues::find(const Graph& g, std::string_view name) const {
  if (name.empty()) return nullptr;
  return find(g, g.name_id(name), name);
}

const ValueFacts* KnownValues::input(const Node& n, size_t k) const {
  if (k >= n.inputs.size() || n.inputs[k].empty()) return nullptr;
  return find(*n.graph, n.input_ids()[k], n.inputs[k]);
}

const ValueFacts* KnownValues::find(const Graph& g, NameId id, std::string_view name) const {
  // Facts live with the graph that defines the value (undefined names, graph-undefined-value's
  // business, may still have facts declared in `g`).
  const GraphInfo& info = index_.info(g);
  const Graph* owner = &g;
  NameId owner_id = id;
  if (info.local(id) == nullptr && info.parent != nullptr) {
    if (const ValueDef* outer = info.parent->resolve(name)) {
      owner = outer->graph;
      owner_id = owner->name_id(name);
    }
  }
  auto it = by_graph_.find(owner);
  if (it == by_graph_.end()) return nullptr;
  return it->second.find(owner_id, name);
}

int32_t KnownValues::elem_type(const Graph& g, std::string_view name) const {
  const ValueFacts* f = find(g, name);
  return f != nullptr ? f->elem_type : 0;
}

std::optional<size_t> KnownValues::rank(const Graph& g, std::string_view name) const {
  const ValueFacts* f = find(g, name);
  if (f == nullptr || !f->has_shape) return std::nullopt;
  return f->dims.size();
}

namespace {

// Ops whose output differs between runs even with constant inputs.
bool is_nondeterministic(std::string_view op) {
  return op == "RandomNormal" || op == "RandomUniform" || op == "RandomNormalLike" ||
         op == "RandomUniformLike" || op == "Multinomial" || op == "Bernoulli";
}

}  // namespace

ConstantValues::ConstantValues(const Model& model, AnalysisCache& cache)
    : index_(cache.get<GraphIndex>()) {
  const ConstantIndex& constants = cache.get<ConstantIndex>();
  const Provenance& prov = cache.get<Provenance>();
  // all_graphs() lists a graph before its subgraphs, so outer values are decided first.
  for (const Graph* g : model.all_graphs()) {
    std::vector<uint8_t>& states = by_graph_[g];
    states.assign(g->name_count(), kNoState);
    auto set = [&](NameId id, State st) {
      if (id != kNoNameId) states[id] = static_cast<uint8_t>(st);
    };
    const GraphInfo& info = index_.info(*g);
    auto lookup = [&](const Node& n, size_t k) {
      if (n.inputs[k].empty()) return State::Constant;  // omitted optional input
      if (auto st = find(*g, n.input_ids()[k], n.inputs[k])) return *st;
      const ConstantIndex::Constant* c = constants.find(*g, n.inputs[k]);
      return c != nullptr && !c->overridable ? State::Constant : State::Runtime;
    };
    // Formal inputs of a function body: whatever the caller passes.
    if (g->kind == Graph::Kind::Function) {
      for (const ValueInfo& in : g->inputs) set(in.name_id, State::Unknown);
    }
    for (const TensorData& t : g->initializers) {
      const ValueDef* d = info.local(t.name_id);
      set(t.name_id,
          d == nullptr || d->kind != ValueDef::Kind::Input ? State::Constant : State::Runtime);
    }
    std::vector<uint32_t> order;
    if (info.topo_order) {
      order = *info.topo_order;
    } else {
      for (uint32_t i = 0; i < g->nodes.size(); ++i) order.push_back(i);
    }
    for (uint32_t i : order) {
      const Node& n = g->nodes[i];
      State st = State::Runtime;
      if (is_default_domain(n.domain) && !calls_local_function(model, n)) {
        if (n.op_type == "Constant") {
          st = State::Constant;
        } else if ((n.op_type == "Shape" || n.op_type == "Size") && !n.inputs.empty()) {
          // Static shapes fold even when the values do not (provenance tracks dims through
          // the graph; value_info and initializers state them directly).
          const ValueId v = prov.input(n, 0);
          const ValueFacts* f = cache.get<KnownValues>().input(n, 0);
          if ((v != kNoValue && prov.shape_class(v) == ShapeClass::Static) ||
              (f != nullptr && f->is_static_shape())) {
            st = State::Constant;
          } else {
            st = lookup(n, 0);
          }
        } else if (!is_nondeterministic(n.op_type) && n.subgraphs().empty() && !n.inputs.empty()) {
          st = State::Constant;
          for (size_t k = 0; k < n.inputs.size(); ++k) {
            const State s_in = lookup(n, k);
            if (s_in == State::Runtime) {
              st = State::Runtime;
              break;
            }
            if (s_in == State::Unknown) st = State::Unknown;
          }
        }
      }
      for (NameId out : n.output_ids()) set(out, st);
    }
  }
}

std::optional<ConstantValues::State> ConstantValues::find(const Graph& g, NameId id,
                                                          std::string_view name) const {
  const uint8_t* st =
      index_.find_in_scope(g, id, name, [&](const Graph& cur, NameId cur_id) -> const uint8_t* {
        if (cur_id == kNoNameId) return nullptr;  // not mentioned there: not decided there
        auto it = by_graph_.find(&cur);
        return it != by_graph_.end() && it->second[cur_id] != kNoState ? &it->second[cur_id]
                                                                       : nullptr;
      });
  if (st == nullptr) return std::nullopt;
  return static_cast<State>(*st);
}

ConstantValues::State ConstantValues::state(const Graph& g, std::string_view name) const {
  if (name.empty()) return State::Runtime;
  // Defined without a state (e.g. a graph input), or not defined at all: a runtime value.
  return find(g, g.name_id(name), name).value_or(State::Runtime);
}

ConstantValues::State ConstantValues::input_state(const Node& n, size_t k) const {
  if (k >= n.inputs.size() || n.inputs[k].empty()) return State::Runtime;
  return find(*n.graph, n.input_ids()[k], n.inputs[k]).value_or(State::Runtime);
}

std::string_view type_short_name(std::string_view type_string) {
  if (type_string.starts_with("tensor(") && type_string.ends_with(")")) {
    return type_string.substr(7, type_string.size() - 8);
  }
  return type_string;
}

std::string type_list_text(std::span<const std::string_view> types) {
  std::string s;
  for (std::string_view t : types) {
    if (!s.empty()) s += ", ";
    s += type_short_name(t);
  }
  return s;
}

}  // namespace onnxlint::rules::target
