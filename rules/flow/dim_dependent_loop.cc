// flow-dim-dependent-loop: Loops whose trip count (or condition) comes from input dims only;
// fixed, and unrollable, once the inputs have fixed shapes.
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include <algorithm>

#include "rules/categories.h"
#include "rules/flow/loop_facts.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class DimDependentLoop final : public RuleBase<DimDependentLoop> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "flow-dim-dependent-loop",
        .category = "flow",
        .severity = Severity::Info,
        .summary = "Loop whose trip count comes from input dims",
        .node_ops = {"Loop"},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_standard_op(n, "Loop")) return;
    const Provenance& p = ctx.get<Provenance>();
    const LoopControl c = loop_control(n, p);
    const ValueId all[] = {c.trip, c.cond, c.body_cond};
    const std::string_view names[] = {c.trip_name, c.cond_name, c.body_cond_name};
    const char* what[] = {"trip count", "condition", "body condition"};
    std::vector<std::string_view> dims;
    std::vector<std::string> notes;
    std::string subject;
    for (size_t i = 0; i < 3; ++i) {
      ValueId v = all[i];
      if (v == kNoValue) continue;
      ValueClass cls = p.value_class(v);
      // Runtime data wins: that is flow-data-dependent-loop's finding.
      if (cls == ValueClass::Data) return;
      if (cls != ValueClass::ShapeDerived) continue;
      if (subject.empty()) subject = fmt::format("{} '{}'", what[i], names[i]);
      for (std::string_view d : p.value_dims(v)) {
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) dims.push_back(d);
      }
      notes.push_back(fmt::format("{} '{}' comes from {}", what[i], names[i], p.explain_value(v)));
    }
    if (subject.empty()) return;
    std::sort(dims.begin(), dims.end());
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        fmt::format("the {} of {} comes from {}: the loop runs a fixed number of times once "
                    "the inputs have fixed shapes",
                    subject, node_label(n), dims_phrase(dims)));
    d.notes = std::move(notes);
    d.help =
        "export with fixed input shapes to make the trip count a constant (the loop can "
        "then be unrolled or traced), or keep it if these dims must stay dynamic";
  }
};

}  // namespace

void add_flow_dim_dependent_loop(RuleRegistry& registry) { registry.add<DimDependentLoop>(); }

}  // namespace onnxlint::rules
