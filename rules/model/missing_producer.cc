// model-missing-producer: producer_name or producer_version empty.
#include <fmt/format.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class MissingProducer final : public RuleBase<MissingProducer> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "model-missing-producer",
        .category = "model",
        .severity = Severity::Info,
        .summary =
            "Model without producer_name or producer_version (the export cannot be "
            "reproduced)",
    };
    return k;
  }

  void on_model(const Model& m, RuleContext& ctx) override {
    if (!m.producer_name().empty() && !m.producer_version().empty()) return;
    std::string missing = m.producer_name().empty() && m.producer_version().empty()
                              ? "producer_name and producer_version are"
                          : m.producer_name().empty() ? "producer_name is"
                                                      : "producer_version is";
    Diagnostic& d = ctx.report(ctx.at_model(), fmt::format("{} empty", missing));
    d.help =
        "export with a tool that records itself (torch.onnx.export does), or set "
        "model.producer_name/producer_version when post-processing the model";
  }
};

}  // namespace

void add_model_missing_producer(RuleRegistry& registry) { registry.add<MissingProducer>(); }

}  // namespace onnxlint::rules
