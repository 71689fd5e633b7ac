// data-external-path-escape: see docs/rules/data-external-path-escape.md.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/data/external_data.h"

namespace onnxlint::rules {
namespace {

class ExternalPathEscape final : public RuleBase<ExternalPathEscape> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-external-path-escape",
        .category = "data",
        .severity = Severity::Error,
        .summary = "External-data location that is absolute or leaves the model's folder",
    };
    return k;
  }

  void on_model(const Model&, RuleContext& ctx) override {
    for (const auto& e : ctx.get<ExternalDataCheck>().entries()) {
      if (e.problem != ExternalDataCheck::Problem::PathEscape) continue;
      Location loc = e.site.node ? ctx.at_node_value(*e.site.node, e.site.tensor->name)
                                 : ctx.at_value(*e.site.graph, e.site.tensor->name);
      loc.attribute = std::string(e.site.attribute);
      Diagnostic& d = ctx.report(std::move(loc), e.message);
      d.help =
          "keep external data in the model's folder with a relative location (onnx.save_model(..., "
          "location=\"model.onnx.data\")); runtimes refuse other paths for security";
    }
  }
};

}  // namespace

void add_data_external_path_escape(RuleRegistry& registry) { registry.add<ExternalPathEscape>(); }

}  // namespace onnxlint::rules
