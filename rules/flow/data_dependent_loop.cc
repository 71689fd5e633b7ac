// flow-data-dependent-loop: Loops whose trip count or condition depends on runtime data,
// including a body that recomputes its own condition from data (a while loop).
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include "rules/categories.h"
#include "rules/flow/loop_facts.h"
#include "rules/shape/detection.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class DataDependentLoop final : public RuleBase<DataDependentLoop> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "flow-data-dependent-loop",
        .category = "flow",
        .severity = Severity::Warning,
        .summary = "Loop whose trip count or condition depends on runtime data",
        .node_ops = {"Loop"},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_standard_op(n, "Loop")) return;
    const Provenance& p = ctx.get<Provenance>();
    const LoopControl c = loop_control(n, p);
    auto is_data = [&](ValueId v) { return v != kNoValue && p.value_class(v) == ValueClass::Data; };
    std::vector<std::string> reasons, notes;
    std::string cause;  // Diagnostic::cause: which controls, their chains, the body
    ValueId first = kNoValue;
    auto add_cause = [&](std::string_view what, ValueId v) {
      cause += fmt::format("{}={}|", what, chain_shape(p.value_reason(v)));
      if (first == kNoValue) first = v;
    };
    if (is_data(c.trip)) add_cause("trip", c.trip);
    if (is_data(c.cond)) add_cause("cond", c.cond);
    if (is_data(c.body_cond)) add_cause("body", c.body_cond);
    if (is_data(c.trip)) {
      reasons.push_back(fmt::format("its trip count '{}'", c.trip_name));
      notes.push_back(
          fmt::format("trip count '{}' comes from {}", c.trip_name, p.explain_value(c.trip)));
    }
    if (is_data(c.cond)) {
      reasons.push_back(fmt::format("its initial condition '{}'", c.cond_name));
      notes.push_back(
          fmt::format("condition '{}' comes from {}", c.cond_name, p.explain_value(c.cond)));
    }
    if (is_data(c.body_cond)) {
      reasons.push_back(
          fmt::format("the condition '{}' its body computes each iteration", c.body_cond_name));
      notes.push_back(fmt::format("body condition '{}' comes from {}", c.body_cond_name,
                                  p.explain_value(c.body_cond)));
    }
    if (reasons.empty()) return;
    std::string joined;
    for (size_t i = 0; i < reasons.size(); ++i) {
      joined += i == 0 ? "" : (i + 1 == reasons.size() ? " and " : ", ");
      joined += reasons[i];
    }
    Diagnostic& d = ctx.report(ctx.at_node(n),
                               fmt::format("{} runs a number of iterations set by runtime data: {} "
                                           "depend{} on tensor values",
                                           node_label(n), joined, reasons.size() == 1 ? "s" : ""));
    d.notes = std::move(notes);
    d.cause = cause + body_shape(n);
    // A loop torchvision's detectors script (pasting masks, per-image post-processing).
    const DetectionPart part = detection_part(n, p, ctx.get<NmsFeeders>(), first);
    d.help = detection_help(part,
                            "move data-dependent loops out of the model (run them in Python around "
                            "it), or give the loop a fixed trip count (`for i in range(N)` with a "
                            "Python int) and mask the extra iterations");
  }
};

}  // namespace

void add_flow_data_dependent_loop(RuleRegistry& registry) { registry.add<DataDependentLoop>(); }

}  // namespace onnxlint::rules
