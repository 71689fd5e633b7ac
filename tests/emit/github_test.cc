// GitHub Actions annotations: command per severity, title = rule id, runner escaping.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <sstream>

#include "support/findings.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;

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

}  // namespace
}  // namespace onnxlint::testing
