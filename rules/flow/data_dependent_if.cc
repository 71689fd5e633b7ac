// flow-data-dependent-if: If nodes whose condition depends on runtime data.
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include "rules/categories.h"
#include "rules/flow/loop_facts.h"
#include "rules/shape/detection.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class DataDependentIf final : public RuleBase<DataDependentIf> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "flow-data-dependent-if",
        .category = "flow",
        .severity = Severity::Warning,
        .summary = "If whose condition depends on runtime data",
        .node_ops = {"If"},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_standard_op(n, "If") || n.inputs().empty() || n.inputs()[0].empty()) return;
    const Provenance& p = ctx.get<Provenance>();
    ValueId cond = p.input(n, 0);
    if (cond == kNoValue || p.value_class(cond) != ValueClass::Data) return;
    Diagnostic& d = ctx.report(
        ctx.at_node(n), fmt::format("the condition '{}' of {} depends on runtime data, so the "
                                    "branch taken is only known at run time",
                                    n.inputs()[0], node_label(n)));
    d.notes.push_back(fmt::format("'{}' comes from {}", n.inputs()[0], p.explain_value(cond)));
    // One cause at every copy of the same traced code: the condition's chain and the branches.
    d.cause = fmt::format("{}|{}", chain_shape(p.value_reason(cond)), body_shape(n));
    // torchvision's `batched_nms` and RoI pooling branch on tensor values: not the user's `if`.
    const DetectionPart part = detection_part(n, p, ctx.get<NmsFeeders>(), cond);
    d.help = detection_help(part,
                            "replace the Python `if` on tensor values with `torch.where(cond, a, "
                            "b)` (both branches computed, shapes fixed), or move the decision out "
                            "of the model");
  }
};

}  // namespace

void add_flow_data_dependent_if(RuleRegistry& registry) { registry.add<DataDependentIf>(); }

}  // namespace onnxlint::rules
