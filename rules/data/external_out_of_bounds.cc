// data-external-out-of-bounds: see docs/rules/data-external-out-of-bounds.md.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/data/external_data.h"

namespace onnxlint::rules {
namespace {

class ExternalOutOfBounds final : public RuleBase<ExternalOutOfBounds> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-external-out-of-bounds",
        .category = "data",
        .severity = Severity::Error,
        .summary =
            "External-data reference whose offset or length lies outside the file or disagrees "
            "with the tensor's dims",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_model(const Model&, RuleContext& ctx) override {
    for (const auto& e : ctx.get<ExternalDataCheck>().entries()) {
      if (e.problem != ExternalDataCheck::Problem::OutOfBounds) continue;
      Location loc = e.site.node ? ctx.at_node_value(*e.site.node, e.site.tensor->name)
                                 : ctx.at_value(*e.site.graph, e.site.tensor->name);
      loc.attribute = std::string(e.site.attribute);
      Diagnostic& d = ctx.report(std::move(loc), e.message);
      d.help =
          "the .onnx file and its data file are out of sync: save both again together "
          "(onnx.save_model with save_as_external_data=True)";
    }
  }
};

}  // namespace

void add_data_external_out_of_bounds(RuleRegistry& registry) {
  registry.add<ExternalOutOfBounds>();
}

}  // namespace onnxlint::rules
