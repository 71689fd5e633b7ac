#include "rules/target/target_common.h"

#include <onnxlint/data_type.h>
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
  auto [it, fresh] = index_.try_emplace(
      {&t, std::string(n.domain()), std::string(n.op_type()), reason}, groups_.size());
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
    d.restates = std::move(g.first.restates);
    for (Location& l : g.more) d.related.push_back({std::move(l), ""});
    d.count = static_cast<uint32_t>(g.more.size() + 1);
  }
  groups_.clear();
  index_.clear();
}

const Function* enclosing_function(const Graph& g) {
  const Graph* cur = &g;
  while (cur->parent() != nullptr) cur = cur->parent();
  return cur->kind() == Graph::Kind::Function ? cur->function() : nullptr;
}

int visible_opset(const Model& model, const Graph& g, std::string_view domain) {
  domain = normalize_domain(domain);
  if (const Function* f = enclosing_function(g)) {
    for (const OpsetImport& imp : f->opset_imports()) {
      if (normalize_domain(imp.domain) == domain) return static_cast<int>(imp.version);
    }
  }
  std::optional<int64_t> v = model.opset_for(domain);
  return v ? static_cast<int>(*v) : 0;
}

bool calls_local_function(const Model& model, const Node& n) {
  return model.find_function(n.domain(), n.op_type()) != nullptr;
}

const OpSchema* node_schema(const Model& model, const Node& n) {
  if (!is_standard_domain(n.domain())) return nullptr;
  const int opset = visible_opset(model, *n.graph(), n.domain());
  if (opset <= 0) return nullptr;
  return resolve_schema(n.domain(), n.op_type(), opset);
}

namespace {

// Constant nodes become initializers when the model is loaded; ORT's ConstantFolding folds the
// rest but keeps quantization nodes so that QDQ fusion can see them.
bool is_foldable(const FoldStates& folds, const Node& n) {
  if (!n.in_default_domain() || n.op_type() == "QuantizeLinear" ||
      n.op_type() == "DequantizeLinear") {
    return false;
  }
  bool any = false;
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    if (n.outputs()[k].empty()) continue;
    if (folds.output_state(n, k) != FoldState::Constant) return false;
    any = true;
  }
  return any;
}

}  // namespace

NodeCheck check_node(const Model& model, const TargetInfo& target, const Node& n,
                     const FoldStates* folds) {
  NodeCheck r;
  if (calls_local_function(model, n)) {
    r.function_call = true;
    return r;
  }
  if (folds != nullptr && target.constant_folding && is_foldable(*folds, n)) {
    r.folded = true;
  }
  const std::string_view domain = normalize_domain(n.domain());
  r.opset = visible_opset(model, *n.graph(), domain);
  if (r.opset > 0 && is_standard_domain(domain)) {
    if (const OpSchema* s = resolve_schema(domain, n.op_type(), r.opset))
      r.since = s->since_version;
  }
  const int lo = target_min_opset(target, domain);
  const int hi = target_max_opset(target, domain);
  r.opset_out_of_range = r.opset > 0 && ((lo > 0 && r.opset < lo) || (hi > 0 && r.opset > hi));
  // An opset outside the target's bounds is one model-level finding (target-opset-range); the
  // op itself is still checked for presence (and, for ORT tables, its since-version).
  r.op = check_op(target, domain, n.op_type(), r.since, r.opset_out_of_range ? 0 : r.opset);
  if (target.inlines_functions && !r.op.supported() &&
      (r.op.verdict == OpVerdict::Unsupported || r.op.verdict == OpVerdict::VersionOutOfRange) &&
      r.opset > 0 && is_standard_domain(domain)) {
    const OpSchema* s = resolve_schema(domain, n.op_type(), r.opset);
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
                                           const NodeCheck& nc, const ElementTypes& types) {
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
  auto check = [&](std::string_view value, int32_t elem, const ParamSchema* formal, bool is_input) {
    if (value.empty() || formal == nullptr) return;
    if (schema->find_constraint(formal->type) == nullptr) return;  // a fixed type
    const std::string_view type_string =
        elem != DataType::Undefined ? tensor_type_string(elem) : "";
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
    if (t.family == "tensorrt" && type_string == "tensor(double)") return;
    // ORT's CPU EP runs a float16 node without a float16 kernel on its float kernel, with Casts
    // around it (InsertCastTransformer; checked against ORT 1.30 by tests/ort).
    if (t.family == "onnxruntime-cpu" && type_string == "tensor(float16)" &&
        std::find(allowed.begin(), allowed.end(), "tensor(float)") != allowed.end())
      return;
    TypeOffence& o = offences[{formal->type, elem}];
    o.param = formal->type;
    o.elem_type = elem;
    o.allowed = allowed;
    o.kernel = kernel;
    (is_input ? o.inputs : o.outputs).push_back(value);
  };
  for (size_t i = 0; i < n.inputs().size(); ++i) {
    check(n.inputs()[i], types.input_elem(n, i), formal_for(schema->inputs, i), true);
  }
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    check(n.outputs()[i], types.output_elem(n, i), formal_for(schema->outputs, i), false);
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
