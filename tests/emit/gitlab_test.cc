// GitLab Code Quality: exact issues for a small report, unique fingerprints that ignore the
// message, and validation against GitLab's own schema (tests/data/gitlab-codeclimate.json) and
// the documented report format (tests/data/gitlab-code-quality-report.schema.json).
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "emit/validate.h"
#include "support/findings.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using nlohmann::json;

// Findings at node `name` (index 3, a Relu) of graph "main" in ./models/a.onnx.
FindingAt relu_node(std::string name) {
  return {.node = std::move(name), .node_index = 3, .op_type = "Relu", .file = "./models/a.onnx"};
}

std::string emit(const Report& r) {
  Linter linter(builtin_registry(), LintOptions{});
  std::stringstream out;
  emit_gitlab(r, linter, out);
  return out.str();
}

void expect_valid(const std::string& doc) {
  EXPECT_EQ(json_schema_errors(doc, "gitlab-codeclimate.json", /*each_item=*/true), "");
  EXPECT_EQ(json_schema_errors(doc, "gitlab-code-quality-report.schema.json"), "");
}

TEST(GitlabCodeQuality, OneIssuePerFindingWithSeverityMapping) {
  Report r;
  r.files.resize(2);
  Diagnostic e = finding("export-aten-op", Severity::Error, "ATen op", relu_node("Relu_3"));
  e.notes = {"first"};
  e.help = "fix it";
  Diagnostic w =
      finding("graph-unused-input", Severity::Warning, "unused", {.file = "./models/a.onnx"});
  w.location.value_name = "x";
  Diagnostic i =
      finding("model-missing-producer", Severity::Info, "no producer", {.file = "./models/a.onnx"});
  i.location.graph_path.clear();
  i.target = "tensorrt";
  r.files[0].path = "./models/a.onnx";
  r.files[0].diagnostics = {e, w, i};
  r.files[1].path = "gone.onnx";
  r.files[1].status = FileReport::Status::PathError;
  r.files[1].error = "no such file or folder";
  const std::string doc = emit(r);
  Diagnostic path_error;
  path_error.rule_id = "onnx-lint";
  path_error.location.file = "gone.onnx";
  const json expected = json::array({
      {{"type", "issue"},
       {"check_name", "export-aten-op"},
       {"description", "main/Relu_3 (Relu): ATen op"},
       {"content", {{"body", "note: first\nhelp: fix it\n"}}},
       {"fingerprint", e.fingerprint()},
       {"severity", "major"},
       {"location", {{"path", "models/a.onnx"}, {"lines", {{"begin", 1}}}}}},
      {{"type", "issue"},
       {"check_name", "graph-unused-input"},
       {"description", "main:'x': unused"},
       {"fingerprint", w.fingerprint()},
       {"severity", "minor"},
       {"location", {{"path", "models/a.onnx"}, {"lines", {{"begin", 1}}}}}},
      {{"type", "issue"},
       {"check_name", "model-missing-producer"},
       {"description", "[tensorrt] no producer"},
       {"fingerprint", i.fingerprint()},
       {"severity", "info"},
       {"location", {{"path", "models/a.onnx"}, {"lines", {{"begin", 1}}}}}},
      {{"type", "issue"},
       {"check_name", "onnx-lint"},
       {"description", "gone.onnx: no such file or folder"},
       {"fingerprint", path_error.fingerprint()},
       {"severity", "blocker"},
       {"location", {{"path", "gone.onnx"}, {"lines", {{"begin", 1}}}}}},
  });
  EXPECT_EQ(json::parse(doc), expected) << doc;
  EXPECT_EQ(doc, expected.dump(2) + "\n");
  expect_valid(doc);
}

TEST(GitlabCodeQuality, FingerprintsIgnoreTheMessageAndAreUniquePerReport) {
  Report r;
  r.files.resize(1);
  Diagnostic a = finding("graph-dead-node", Severity::Warning, "first wording", relu_node("n"));
  Diagnostic b = a;
  b.message = "second wording";  // same rule and place: GitLab would merge equal fingerprints
  r.files[0].diagnostics = {a, b};
  const json one = json::parse(emit(r));
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0]["fingerprint"], a.fingerprint());
  EXPECT_NE(one[1]["fingerprint"], one[0]["fingerprint"]);

  r.files[0].diagnostics[0].message = "reworded";
  r.files[0].diagnostics[1].message = "reworded too";
  const json two = json::parse(emit(r));
  EXPECT_EQ(two[0]["fingerprint"], one[0]["fingerprint"]);
  EXPECT_EQ(two[1]["fingerprint"], one[1]["fingerprint"]);
}

TEST(GitlabCodeQuality, UnreadableModelIsABlockerAndLintedModelsAreStable) {
  LintOptions o;
  Linter linter(builtin_registry(), o);
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Abs", {"x"}, {"unused"}, "dead");
  Report r;
  r.files.push_back(linter.lint_bytes("m.onnx", m.bytes()));
  r.files.push_back(linter.lint_bytes("bad.onnx", "not a model"));
  std::stringstream first, second;
  emit_gitlab(r, linter, first);
  Report again;
  again.files.push_back(linter.lint_bytes("m.onnx", m.bytes()));
  again.files.push_back(linter.lint_bytes("bad.onnx", "not a model"));
  emit_gitlab(again, linter, second);
  EXPECT_EQ(first.str(), second.str());
  const json doc = json::parse(first.str());
  std::set<std::string> fingerprints;
  for (const json& issue : doc) fingerprints.insert(issue["fingerprint"].get<std::string>());
  EXPECT_EQ(fingerprints.size(), doc.size());
  EXPECT_EQ(doc.back()["check_name"], "model-unreadable");
  EXPECT_EQ(doc.back()["severity"], "blocker");
  expect_valid(first.str());
}

TEST(GitlabCodeQuality, EmptyReportIsAnEmptyArray) {
  EXPECT_EQ(emit(Report{}), "[]\n");
  expect_valid("[]");
}

}  // namespace
}  // namespace onnxlint::testing
