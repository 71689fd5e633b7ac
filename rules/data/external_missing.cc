// data-external-missing: see docs/rules/data-external-missing.md.
#include <fmt/format.h>

#include <map>

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

  // One finding per missing file: a model saved with its weights in one file names it from
  // every tensor, and one cause is one finding. The other tensors stored there are related
  // locations (all of them in JSON and SARIF).
  void on_model(const Model&, RuleContext& ctx) override {
    std::map<std::string, Diagnostic*> by_file;
    for (const auto& e : ctx.get<ExternalDataCheck>().entries()) {
      if (e.problem != ExternalDataCheck::Problem::Missing) continue;
      Location loc = e.site.node ? ctx.at_node_value(*e.site.node, e.site.tensor->name)
                                 : ctx.at_value(*e.site.graph, e.site.tensor->name);
      loc.attribute = std::string(e.site.attribute);
      // A tensor without a location is its own problem; the others group by their file.
      const std::string key = e.location.empty() ? std::string() : e.resolved_path;
      if (auto it = by_file.find(key); !key.empty() && it != by_file.end()) {
        Diagnostic& first = *it->second;
        first.related.push_back(
            RelatedLocation{std::move(loc), fmt::format("tensor '{}'", e.site.tensor->name)});
        continue;
      }
      Diagnostic& d = ctx.report(std::move(loc), e.message);
      d.help =
          "ship the external-data file next to the .onnx file (onnx.save_model(..., "
          "save_as_external_data=True, location=...) writes it), or re-save with the weights "
          "embedded";
      if (!key.empty()) by_file.emplace(key, &d);
    }
    // The message says how many tensors the file holds, once it is known.
    for (auto& [file, d] : by_file) {
      if (d->related.empty()) continue;
      d->message +=
          fmt::format("; {} other tensor{} {} stored in it too", d->related.size(),
                      d->related.size() == 1 ? "" : "s", d->related.size() == 1 ? "is" : "are");
    }
  }
};

}  // namespace

void add_data_external_missing(RuleRegistry& registry) { registry.add<ExternalMissing>(); }

}  // namespace onnxlint::rules
