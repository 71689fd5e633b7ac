// target-unsupported-type: a tensor element type that a selected target runtime does not support
// for that operator, where both the model's type and the target's type list are known.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "rules/categories.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
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

class UnsupportedType final : public Rule {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "target-unsupported-type",
        .category = "target",
        .severity = Severity::Warning,
        .summary = "Element type that a selected target runtime does not support for that operator",
        .node_ops = {"*"},
    };
    return k;
  }
  const RuleInfo& info() const override { return static_info(); }

  void on_model(const Model&, RuleContext& ctx) override {
    targets_ = target::selected_targets(ctx);
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (targets_.empty()) return;
    const Model& model = ctx.model();
    const OpSchema* schema = target::node_schema(model, n);
    if (schema == nullptr) return;  // no formal parameters to map the values to
    const target::KnownValues& known = ctx.get<target::KnownValues>();
    for (const TargetInfo* tp : targets_) {
      const TargetInfo& t = *tp;
      const target::NodeCheck nc =
          target::check_node(model, t, n, &ctx.get<target::ConstantValues>());
      // An unsupported op is target-unsupported-op's finding; types only matter once it runs.
      if (!nc.runs_node() || !nc.op.supported() || nc.op.entry == nullptr) continue;
      const TargetOp& entry = *nc.op.entry;
      const TypedRange* kernel = nullptr;
      if (!entry.typed_ranges.empty()) {
        kernel = find_kernel(entry, nc.since);
        if (kernel == nullptr) continue;
      } else if (entry.types.empty()) {
        continue;  // the table has no type data for this op
      }
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
        if (primary.empty()) continue;
      }

      struct Offence {
        std::vector<std::string_view> inputs, outputs;
        std::span<const std::string_view> allowed;
      };
      std::map<std::pair<std::string_view, int32_t>, Offence> offences;
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
        Offence& o = offences[{formal->type, elem}];
        o.allowed = allowed;
        (is_input ? o.inputs : o.outputs).push_back(value);
      };
      for (size_t i = 0; i < n.inputs.size(); ++i)
        check(n.inputs[i], formal_for(schema->inputs, i), true);
      for (size_t i = 0; i < n.outputs.size(); ++i)
        check(n.outputs[i], formal_for(schema->outputs, i), false);

      for (const auto& [key, o] : offences) {
        const auto& [param, elem] = key;
        std::string values;
        for (auto list : {&o.inputs, &o.outputs}) {
          for (std::string_view v : *list) {
            values += values.empty() ? "" : ", ";
            values += "'" + std::string(v) + "'";
          }
        }
        const char* verb = o.outputs.empty() ? "reads" : (o.inputs.empty() ? "produces" : "uses");
        const std::string reason =
            fmt::format("{}, which {} does not support for {}-{}", element_type_name(elem),
                        t.display_name, n.op_type, schema->since_version);
        Diagnostic d;
        d.message = fmt::format("{} ({}) {} {} as {}", n.display_name(),
                                target::op_label(n.domain, n.op_type), verb, values, reason);
        d.target = std::string(t.id);
        d.key = fmt::format("{}:{}", param, element_type_name(elem));
        if (kernel != nullptr) {
          d.notes.push_back(fmt::format("its {} kernel for since-version {} accepts {} = {}",
                                        n.op_type, version_ranges_text({&kernel->versions, 1}),
                                        param, target::type_list_text(o.allowed)));
        } else {
          d.notes.push_back(
              fmt::format("its {} accepts {}", n.op_type, target::type_list_text(o.allowed)));
        }
        d.help = fmt::format(
            "cast to a supported type before the node (or export the model in "
            "that precision, e.g. model.float() / model.half()), or let another "
            "provider run it");
        // The type parameter keeps "T = float64" and "T1 = float64" apart.
        // A warning on every target: the kernel's type list is checked statically, and the
        // target's verdict is decided by operator support (target-unsupported-op).
        findings_.add(t, n, fmt::format("{}\x1f{}", param, reason), std::move(d), ctx.at_node(n),
                      Severity::Warning);
      }
    }
  }

  void on_model_end(const Model&, RuleContext& ctx) override {
    findings_.report(ctx, [](const Diagnostic& first, const std::string& reason, size_t count) {
      return fmt::format("{} {} nodes use {}", count,
                         target::op_label(first.location.domain, first.location.op_type),
                         reason.substr(reason.find('\x1f') + 1));
    });
  }

 private:
  std::vector<const TargetInfo*> targets_;
  target::NodeFindings findings_;
};

}  // namespace

void add_target_unsupported_type(RuleRegistry& registry) { registry.add<UnsupportedType>(); }

}  // namespace onnxlint::rules
