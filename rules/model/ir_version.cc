// model-ir-version: ir_version missing or 0.
#include <fmt/format.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class IrVersion final : public Rule {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "model-ir-version",
        .category = "model",
        .severity = Severity::Error,
        .summary = "Model whose ir_version is missing, too old for what it uses, or newer than "
                   "known",
    };
    return k;
  }
  const RuleInfo& info() const override { return static_info(); }

  void on_model(const Model& m, RuleContext& ctx) override {
    if (m.has_ir_version && m.ir_version > 0) return;
    Diagnostic& d = ctx.report(
        Severity::Error, ctx.at_model(),
        m.has_ir_version ? "ir_version is 0" : "ir_version is missing");
    d.help = "set model.ir_version (onnx.helper.make_model sets it; e.g. IR 8 for opset 17)";
  }
};

}  // namespace

void add_model_ir_version(RuleRegistry& registry) { registry.add<IrVersion>(); }

}  // namespace onnxlint::rules
