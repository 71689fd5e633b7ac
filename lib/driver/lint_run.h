// One model's lint as the driver runs it: what each RuleContext reads and where its findings
// go. Declared (not defined) in rule.h so that the driver's containers stay out of the API.
#pragma once

#include <onnxlint/report_section.h>
#include <onnxlint/rule.h>

#include <deque>
#include <span>
#include <string>
#include <vector>

namespace onnxlint {

struct RuleContext::LintRun {
  const Model& model;
  AnalysisCache& cache;
  std::span<const std::string> targets;
  // A deque: a Diagnostic& that report() returns stays valid while later findings are added.
  std::deque<Diagnostic> diagnostics;
  std::vector<ReportSection> sections;
  /// Fixes proposed, with the finding they fix (a pointer into `diagnostics`); kept only when
  /// `collect_fixes`.
  bool collect_fixes = false;
  std::deque<std::pair<const Diagnostic*, Fix>> fixes;
};

}  // namespace onnxlint
