// data-external-missing: see docs/rules/data-external-missing.md.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/data/external_data.h"

namespace onnxlint::rules {
namespace {

class ExternalMissing final : public RuleBase<ExternalMissing> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-external-missing",
        .category = "data",
        .severity = Severity::Error,
        .summary = "External-data file that is missing or unreadable",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_model(const Model&, RuleContext& ctx) override {
    for (const auto& e : ctx.get<ExternalDataCheck>().entries()) {
      if (e.problem != ExternalDataCheck::Problem::Missing) continue;
      Location loc = e.site.node ? ctx.at_node_value(*e.site.node, e.site.tensor->name)
                                 : ctx.at_value(*e.site.graph, e.site.tensor->name);
      loc.attribute = std::string(e.site.attribute);
      Diagnostic& d = ctx.report(std::move(loc), e.message);
      d.help =
          "ship the external-data file next to the .onnx file (onnx.save_model(..., "
          "save_as_external_data=True, location=...) writes it), or re-save with the weights "
          "embedded";
    }
  }
};

}  // namespace

void add_data_external_missing(RuleRegistry& registry) { registry.add<ExternalMissing>(); }

}  // namespace onnxlint::rules
