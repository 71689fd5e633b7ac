// Names made to steer terminals, log parsers and renderers (tests/hostile/hostile_models.h),
// through the GitLab, JUnit and Markdown formats: every document stays what it claims to be.
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "emit/validate.h"
#include "hostile/hostile_models.h"

namespace onnxlint::testing {
namespace {

TEST(ReportFormatsHostile, InjectionNamesStayData) {
  LintOptions o;
  o.select = {"ALL"};
  Linter linter(builtin_registry(), o);
  Report report;
  report.files.push_back(
      linter.lint_bytes("evil\x1b[31m<b>|`.onnx", hostile_models::injection_names()));
  ASSERT_FALSE(report.files[0].diagnostics.empty());
  decide_verdicts(report, Severity::Info);

  std::ostringstream gitlab, junit, markdown;
  emit_gitlab(report, linter, gitlab);
  emit_junit(report, linter, junit);
  emit_markdown(report, linter, markdown);
  for (const std::string& s : {gitlab.str(), junit.str(), markdown.str()}) {
    EXPECT_EQ(s.find('\x1b'), std::string::npos) << s;
    EXPECT_EQ(s.find("\xe2\x80\xae"), std::string::npos) << s;
    EXPECT_EQ(s.find('\r'), std::string::npos) << s;
  }
  EXPECT_EQ(json_schema_errors(gitlab.str(), "gitlab-code-quality-report.schema.json"), "");
  EXPECT_EQ(xsd_errors(junit.str(), "junit-10.xsd"), "");
  EXPECT_EQ(markdown.str().find("<b>"), std::string::npos);
  // Every table row has its five cells: no name adds a '|' that splits one.
  std::istringstream lines(markdown.str());
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| ")) continue;
    size_t cells = 0;
    for (size_t i = 0; i < line.size(); ++i)
      cells += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    EXPECT_EQ(cells, 6u) << line;
  }
}

}  // namespace
}  // namespace onnxlint::testing
