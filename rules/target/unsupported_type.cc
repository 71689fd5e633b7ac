// target-unsupported-type: a tensor element type that a selected target runtime does not support
// for that operator, where both the model's type and the target's type list are known.
#include <fmt/format.h>
#include <onnxlint/data_type.h>

#include <algorithm>
#include <map>

#include "rules/advice.h"
#include "rules/categories.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
namespace {

// uint8 (asymmetric) quantization on a target that takes int8 only: a cast does not help, the
// model has to be quantized again.
bool is_uint8_quantization(const Node& n, const target::TypeOffence& o) {
  const std::string_view op = n.op_type();
  const bool quant_op = op == "QuantizeLinear" || op == "DequantizeLinear" ||
                        op.starts_with("QLinear") || op == "ConvInteger" || op == "MatMulInteger" ||
                        op == "DynamicQuantizeLinear";
  return quant_op && o.elem_type == DataType::Uint8 &&
         std::any_of(o.allowed.begin(), o.allowed.end(),
                     [](std::string_view t) { return target::type_short_name(t) == "int8"; });
}

class UnsupportedType final : public RuleBase<UnsupportedType> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "target-unsupported-type",
        .category = "target",
        .severity = Severity::Error,
        .summary = "Element type that a selected target runtime does not support for that operator",
        .node_ops = {"*"},
    };
    return k;
  }

  void on_model(const Model&, RuleContext& ctx) override {
    targets_ = target::selected_targets(ctx);
  }

  bool wants_op(const OpKind&, RuleContext&) const override { return !targets_.empty(); }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (targets_.empty()) return;
    const Model& model = ctx.model();
    const ElementTypes& types = ctx.get<ElementTypes>();
    for (const TargetInfo* tp : targets_) {
      const TargetInfo& t = *tp;
      const target::NodeCheck nc = target::check_node(model, t, n, &ctx.get<FoldStates>());
      // An unsupported op is target-unsupported-op's finding; types only matter once it runs.
      for (const target::TypeOffence& o : target::unsupported_types(model, t, n, nc, types)) {
        std::string names;
        for (auto list : {&o.inputs, &o.outputs}) {
          for (std::string_view v : *list) {
            names += names.empty() ? "" : ", ";
            // Appended piecewise: GCC 12 misreads `"'" + std::string(v)` here (-Wrestrict).
            names += '\'';
            names += v;
            names += '\'';
          }
        }
        const char* verb = o.outputs.empty() ? "reads" : (o.inputs.empty() ? "produces" : "uses");
        const std::string reason =
            fmt::format("{}, which {} does not support for {}-{}", data_type_name(o.elem_type),
                        t.display_name, n.op_type(), nc.since);
        Diagnostic d;
        d.message = fmt::format("{} ({}) {} {} as {}", n.display_name(),
                                target::op_label(n.domain(), n.op_type()), verb, names, reason);
        d.target = std::string(t.id);
        d.key = fmt::format("{}:{}", o.param, data_type_name(o.elem_type));
        if (o.kernel != nullptr) {
          d.notes.push_back(fmt::format("its {} kernel for since-version {} accepts {} = {}",
                                        n.op_type(), version_ranges_text({&o.kernel->versions, 1}),
                                        o.param, target::type_list_text(o.allowed)));
        } else {
          d.notes.push_back(
              fmt::format("its {} accepts {}", n.op_type(), target::type_list_text(o.allowed)));
        }
        d.help = is_uint8_quantization(n, o)
                     ? std::string(advice::kInt8Quantization)
                     : std::string(
                           "cast to a supported type before the node (or export the model in "
                           "that precision, e.g. model.float() / model.half()), or let another "
                           "provider run it");
        // The type parameter keeps "T = float64" and "T1 = float64" apart. The severity follows
        // the target's consequence (node_failure_severity): the node runs elsewhere or the
        // conversion fails; the target's verdict counts the node as unsupported either way.
        findings_.add(t, n, fmt::format("{}\x1f{}", o.param, reason), std::move(d), ctx.at_node(n));
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
