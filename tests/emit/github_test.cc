// GitHub Actions annotations: command per severity, title = rule id, runner escaping.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <sstream>

#include "support/findings.h"
#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> lines(const Report& r) {
  Linter linter(builtin_registry(), LintOptions{});
  std::stringstream out;
  emit_github(r, linter, out);
  std::vector<std::string> v;
  for (std::string line; std::getline(out, line);) v.push_back(line);
  return v;
}

TEST(GithubAnnotations, OneCommandPerFindingWithRuleAsTitle) {
  Report r;
  r.files.resize(1);
  Diagnostic e = finding("graph-dead-node", Severity::Error, "dead",
                         {.node = "Relu_1", .file = "./models/a.onnx"});
  e.location.op_type = "Relu";
  Diagnostic w = finding("graph-dead-node", Severity::Warning, "w", {.file = "models/a.onnx"});
  w.location.value_name = "x";
  Diagnostic i = finding("graph-dead-node", Severity::Info, "i", {.file = "models/a.onnx"});
  i.location.graph_path.clear();
  i.rule_id = "model-missing-producer";
  i.target = "tensorrt";
  r.files[0].diagnostics = {e, w, i};
  EXPECT_THAT(
      lines(r),
      ElementsAre("::error file=models/a.onnx,title=graph-dead-node::main/Relu_1 (Relu): dead",
                  "::warning file=models/a.onnx,title=graph-dead-node::main:'x': w",
                  "::notice file=models/a.onnx,title=model-missing-producer::[tensorrt] i"));
}

TEST(GithubAnnotations, EscapesLikeTheRunner) {
  Report r;
  r.files.resize(1);
  Diagnostic d = finding("graph-dead-node", Severity::Error, "100% wrong",
                         {.node = "n", .file = "odd,name:1.onnx"});
  d.notes = {"first\r\nsecond"};
  d.help = "fix";
  r.files[0].diagnostics = {d};
  // A line break inside a note is the note's text (a model's name, say), shown escaped; the
  // only %0A are the note and help lines themselves (issue 28, N15).
  EXPECT_THAT(lines(r),
              ElementsAre("::error file=odd%2Cname%3A1.onnx,title=graph-dead-node::"
                          "main/n: 100%25 wrong%0Anote: first\\x0d\\x0asecond%0Ahelp: fix"));
}

TEST(GithubAnnotations, NothingForACleanReport) {
  Report r;
  r.files.resize(2);
  EXPECT_TRUE(lines(r).empty());
}

// GitHub shows 10 annotations of each severity per step and drops the rest without a word:
// at most 10 per severity, the most important first, and one notice for the rest.
TEST(GithubAnnotations, AtMostTenPerSeverityTheMostImportantFirstAndANoticeForTheRest) {
  Report r;
  r.files.resize(2);
  std::vector<Diagnostic>& a = r.files[0].diagnostics;
  r.files[0].path = "a.onnx";
  // 3 errors; 14 warnings of one rule (counts 1..14, a grouped finding stands for many places)
  // and 2 of another; 12 infos.
  for (int i = 0; i < 3; ++i) {
    a.push_back(
        finding("export-python-op", Severity::Error, "e" + std::to_string(i), {.file = "a.onnx"}));
  }
  for (int i = 1; i <= 14; ++i) {
    Diagnostic d = finding("shape-data-dependent", Severity::Warning, "w" + std::to_string(i),
                           {.file = "a.onnx"});
    d.count = static_cast<uint32_t>(i);
    a.push_back(d);
  }
  r.files[1].path = "b.onnx";
  for (int i = 0; i < 2; ++i) {
    r.files[1].diagnostics.push_back(finding("flow-data-dependent-if", Severity::Warning,
                                             "f" + std::to_string(i), {.file = "b.onnx"}));
  }
  for (int i = 0; i < 12; ++i) {
    r.files[1].diagnostics.push_back(
        finding("shape-foldable", Severity::Info, "i" + std::to_string(i), {.file = "b.onnx"}));
  }
  std::vector<std::string> out = lines(r);
  std::vector<std::string> warnings, notices;
  size_t errors = 0;
  for (const std::string& l : out) {
    const std::string message = l.substr(l.rfind("::") + 2);
    if (l.starts_with("::error")) ++errors;
    if (l.starts_with("::warning")) warnings.push_back(message);
    if (l.starts_with("::notice")) notices.push_back(message);
  }
  EXPECT_EQ(errors, 3u);
  // Each rule's finding that stands for the most places, then the next of each: the second
  // rule is not crowded out by the first one's many findings.
  EXPECT_THAT(warnings, ElementsAre("main: w14", "main: f0", "main: w13", "main: f1", "main: w12",
                                    "main: w11", "main: w10", "main: w9", "main: w8", "main: w7"));
  // Nine infos: the closing notice takes the tenth place of the notices.
  ASSERT_EQ(notices.size(), 10u);
  EXPECT_EQ(notices.back(),
            "9 more findings are not annotated (6 warnings, 3 info): GitHub shows 10 "
            "annotations of each severity per step, the most severe and most repeated are "
            "above. The text, JSON and SARIF reports list every finding (onnx-lint --format "
            "sarif --output onnx-lint.sarif, for code scanning).");
  EXPECT_EQ(out.back().substr(0, out.back().find("::", 2) + 2), "::notice title=onnx-lint::");
  // Errors, then warnings, then notices: 3 + 10 + 10 lines in all.
  EXPECT_EQ(out.size(), 23u);
  EXPECT_TRUE(out[0].starts_with("::error") && out[3].starts_with("::warning"));
}

TEST(GithubAnnotations, TargetVerdictsComeFirstAmongTheNoticesAndCountInTheirBudget) {
  LintOptions o;
  o.targets = {"onnxruntime-nnapi", "tensorrt"};
  Linter linter(builtin_registry(), o);
  Report r;
  r.files.push_back(linter.lint_file(data_path("corpus/torchvision_ssd_tiny_op11.onnx")));
  for (int i = 0; i < 12; ++i) {
    r.files[0].diagnostics.push_back(finding("shape-foldable", Severity::Info,
                                             "i" + std::to_string(i), {.file = r.files[0].path}));
  }
  std::stringstream out;
  emit_github(r, linter, out);
  std::vector<std::string> notices;
  for (std::string line; std::getline(out, line);) {
    if (line.starts_with("::notice")) notices.push_back(line);
  }
  ASSERT_EQ(notices.size(), 10u);
  EXPECT_THAT(notices.front(), HasSubstr("title=onnx-lint targets::"));
  EXPECT_THAT(notices.back(), HasSubstr("title=onnx-lint::"));
  EXPECT_THAT(notices.back(), HasSubstr("more findings are not annotated"));
}

TEST(GithubAnnotations, NoClosingNoticeWhenEverythingFits) {
  Report r;
  r.files.resize(1);
  for (int i = 0; i < 10; ++i) {
    r.files[0].diagnostics.push_back(
        finding("shape-foldable", Severity::Info, "i" + std::to_string(i), {.file = "m.onnx"}));
  }
  std::vector<std::string> out = lines(r);
  EXPECT_EQ(out.size(), 10u);
  for (const std::string& l : out)
    EXPECT_THAT(l, ::testing::Not(::testing::HasSubstr("not annotated")));
}

TEST(GithubAnnotations, PathErrorsComeFirstAmongTheErrors) {
  Report r;
  r.files.resize(2);
  for (int i = 0; i < 12; ++i) {
    r.files[0].diagnostics.push_back(
        finding("export-python-op", Severity::Error, "e" + std::to_string(i), {.file = "m.onnx"}));
  }
  r.files[1].path = "missing.onnx";
  r.files[1].status = FileReport::Status::PathError;
  r.files[1].error = "no such file or folder";
  std::vector<std::string> out = lines(r);
  ASSERT_EQ(out.size(), 11u);  // 10 errors and the notice
  EXPECT_EQ(out[0], "::error file=missing.onnx,title=onnx-lint::no such file or folder");
  EXPECT_THAT(out.back(), ::testing::HasSubstr("3 more findings are not annotated (3 errors)"));
}

}  // namespace
}  // namespace onnxlint::testing
