// opset-newer-than-known: an imported opset of a standard domain beyond the embedded tables.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

class NewerThanKnown final : public RuleBase<NewerThanKnown> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-newer-than-known",
        .category = "opset",
        .severity = Severity::Warning,
        .summary = "Imported opset newer than the embedded operator tables",
    };
    return k;
  }

  void on_model(const Model& m, RuleContext& ctx) override {
    check(m.opset_imports(), "model", ctx.at_model(), ctx);
  }

  void on_function(const Function& f, RuleContext& ctx) override {
    check(f.opset_imports(), fmt::format("function '{}::{}'", f.domain(), f.name()),
          ctx.at_graph(f.body()), ctx);
  }

 private:
  static void check(std::span<const OpsetImport> imports, const std::string& who,
                    const Location& where, RuleContext& ctx) {
    for (const OpsetImport& imp : imports) {
      const DomainInfo* info = find_domain(imp.domain);
      if (info == nullptr || imp.version <= info->max_opset) continue;
      Diagnostic& d = ctx.report(
          where, fmt::format("{} imports {}, newer than the operator tables know (ONNX {}, up "
                             "to {}); its ops are not checked",
                             who, opset_text(info->domain, imp.version), onnx_data_version(),
                             opset_text(info->domain, info->max_opset)));
      d.key = std::string(info->name);
      d.help = info->domain.empty()
                   ? fmt::format(
                         "upgrade onnx-lint, or export with opset_version={} (or lower) "
                         "to stay within what it can check",
                         info->max_opset)
                   : fmt::format("upgrade onnx-lint, or import {} {} or lower", info->name,
                                 info->max_opset);
    }
  }
};

}  // namespace

void add_opset_newer_than_known(RuleRegistry& registry) { registry.add<NewerThanKnown>(); }

}  // namespace onnxlint::rules
