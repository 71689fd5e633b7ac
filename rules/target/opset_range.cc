// target-opset-range: the model's opset imports or IR version lie outside what a selected target
// runtime accepts.
#include <fmt/format.h>
#include <onnxlint/opset_table.h>

#include <algorithm>

#include "rules/categories.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
namespace {

std::string bounds_text(int lo, int hi) {
  if (lo > 0 && hi > 0) return fmt::format("{}-{}", lo, hi);
  if (lo > 0) return fmt::format("{} and later", lo);
  return fmt::format("up to {}", hi);
}

std::string_view fact_source(const TargetInfo& t, std::string_view fact) {
  for (const FactSource& f : t.extra_fact_sources) {
    if (f.fact == fact) return f.source;
  }
  return {};
}

class OpsetRange final : public RuleBase<OpsetRange> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "target-opset-range",
        .category = "target",
        .severity = Severity::Error,
        .summary = "Model opset or IR version outside what a selected target runtime accepts",
    };
    return k;
  }

  void on_model(const Model& model, RuleContext& ctx) override {
    for (const TargetInfo* t : target::selected_targets(ctx)) {
      check_imports(*t, model.opset_imports(), ctx.at_model(), "the model", ctx);
      if (t->max_ir_version > 0 && model.ir_version() > t->max_ir_version) {
        Diagnostic& d = ctx.report(
            ctx.at_model(),
            fmt::format("the model's IR version {} is newer than {} accepts (at most {})",
                        model.ir_version(), t->display_name, t->max_ir_version));
        d.target = std::string(t->id);
        d.key = "ir";
        if (auto src = fact_source(*t, "max_ir_version"); !src.empty()) {
          d.notes.push_back(fmt::format("source: {}", src));
        }
        // The newest opset a release with that IR version shipped: the export's IR follows it.
        int newest = 0;
        for (const OnnxRelease& r : onnx_releases()) {
          if (r.ir_version <= t->max_ir_version) newest = std::max(newest, r.ai_onnx);
        }
        d.help = newest > 0
                     ? fmt::format(
                           "export at opset {} or lower (torch.onnx.export(..., opset_version={}) "
                           "writes the IR version of its opset), or convert the model down; {} "
                           "loads IR <= {}",
                           newest, newest, t->display_name, t->max_ir_version)
                     : fmt::format("convert the model down; {} loads IR <= {}", t->display_name,
                                   t->max_ir_version);
      }
    }
  }

  // A function's own opset_import is checked where the function is defined.
  void on_function(const Function& f, RuleContext& ctx) override {
    for (const TargetInfo* t : target::selected_targets(ctx)) {
      check_imports(*t, f.opset_imports(), ctx.at_graph(f.body()),
                    fmt::format("function {}", f.name()), ctx);
    }
  }

 private:
  // The opset torch.onnx.export writes by default in torch 2.x (and ONNX 1.12's newest): the
  // version converters and runtimes support it best.
  static constexpr int kCommonExportOpset = 17;

  static void check_imports(const TargetInfo& t, std::span<const OpsetImport> imports,
                            const Location& where, const std::string& who, RuleContext& ctx) {
    for (const OpsetImport& imp : imports) {
      const int lo = target_min_opset(t, imp.domain), hi = target_max_opset(t, imp.domain);
      const bool low = lo > 0 && imp.version<lo, high = hi> 0 && imp.version > hi;
      if (!low && !high) continue;
      Diagnostic& d = ctx.report(
          where, fmt::format("{} imports {} opset {}, but {} accepts {} opsets {}", who,
                             domain_display_name(imp.domain), imp.version, t.display_name,
                             domain_display_name(imp.domain), bounds_text(lo, hi)));
      d.target = std::string(t.id);
      d.key = fmt::format("opset:{}", domain_display_name(imp.domain));
      if (auto src = fact_source(t, low ? "min_opset" : "max_opset"); !src.empty()) {
        d.notes.push_back(fmt::format("source: {}", src));
      } else {
        d.notes.push_back(fmt::format("source: the support table, {} {} @ {}", t.source_repo,
                                      t.source_path, t.source_version));
      }
      if (normalize_domain(imp.domain).empty()) {
        // Too new: the newest it accepts. Too old: not its oldest (which other runtimes and the
        // exporter support least) but the newest it accepts that exporters write by default.
        const int suggested = high     ? hi
                              : hi > 0 ? std::min(hi, kCommonExportOpset)
                                       : std::max(lo, kCommonExportOpset);
        d.help = fmt::format(
            "export with an opset in {}: torch.onnx.export(..., opset_version={}), or convert "
            "the model with onnx.version_converter",
            bounds_text(lo, hi), suggested);
      } else {
        d.help = fmt::format(
            "convert the model to a {} opset in {} (re-export with an older "
            "converter, or onnx.version_converter)",
            domain_display_name(imp.domain), bounds_text(lo, hi));
      }
    }
  }
};

}  // namespace

void add_target_opset_range(RuleRegistry& registry) { registry.add<OpsetRange>(); }

}  // namespace onnxlint::rules
