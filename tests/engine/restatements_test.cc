// fold_restatements(): a finding that says again what another finding at the same place says
// (Diagnostic::restates) becomes part of it. Hand-made findings first (the exact folding
// contract), then the rules that declare a restatement, on models.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/diagnostic.h>
#include <onnxlint/registry.h>

#include "support/findings.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Diagnostic at_node(const std::string& rule, Severity s, uint32_t index,
                   const std::string& target = "", const std::string& restates = "") {
  Diagnostic d = finding(rule, s, rule + " says so",
                         {.node = "n" + std::to_string(index), .node_index = index});
  d.target = target;
  d.restates = restates;
  return d;
}

std::vector<std::string> summary(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) {
    std::string s =
        d.rule_id + "@" + d.location.node_name + " " + std::string(severity_name(d.severity));
    if (!d.target.empty()) s += " [" + d.target + "]";
    for (const FoldedFinding& f : d.also)
      s += " +" + f.rule_id + (f.target.empty() ? "" : "[" + f.target + "]");
    out.push_back(s);
  }
  return out;
}

TEST(FoldRestatements, TargetFindingFoldsIntoTheFindingItRestatesAtTheSameNode) {
  std::vector<Diagnostic> ds = {
      at_node("export-training-mode", Severity::Warning, 1),
      at_node("target-restriction", Severity::Error, 1, "tensorrt", "export-training-mode"),
  };
  fold_restatements(ds);
  EXPECT_THAT(summary(ds),
              ElementsAre("export-training-mode@n1 error +target-restriction[tensorrt]"));
  // The severity is the more severe one; the folded finding is a note too.
  EXPECT_THAT(ds[0].notes, ElementsAre("also [tensorrt] error: target-restriction says so "
                                       "[target-restriction]"));
  EXPECT_EQ(ds[0].also[0].message, "target-restriction says so");
}

TEST(FoldRestatements, NearMissesStayApart) {
  // Another node; no primary in the report; a target rule's primary on another target.
  std::vector<Diagnostic> ds = {
      at_node("export-training-mode", Severity::Error, 1),
      at_node("target-restriction", Severity::Error, 2, "tensorrt", "export-training-mode"),
      at_node("target-restriction", Severity::Error, 3, "tensorrt", "opset-too-low"),
      at_node("target-unsupported-type", Severity::Error, 4, "openvino"),
      at_node("target-restriction", Severity::Error, 4, "tensorrt", "target-unsupported-type"),
      at_node("target-restriction", Severity::Error, 5, "tensorrt"),
  };
  const size_t before = ds.size();
  fold_restatements(ds);
  EXPECT_EQ(ds.size(), before);
  for (const Diagnostic& d : ds) EXPECT_THAT(d.also, IsEmpty());
}

TEST(FoldRestatements, OneRulesFindingForSeveralTargetsFoldsIntoTheMostSevere) {
  std::vector<Diagnostic> ds = {
      at_node("target-dynamic-shape", Severity::Info, 1, "onnxruntime-coreml-mlprogram",
              "target-dynamic-shape"),
      at_node("target-dynamic-shape", Severity::Warning, 1, "onnxruntime-nnapi",
              "target-dynamic-shape"),
      at_node("target-dynamic-shape", Severity::Warning, 1, "onnxruntime-qnn",
              "target-dynamic-shape"),
      at_node("target-dynamic-shape", Severity::Warning, 2, "onnxruntime-qnn",
              "target-dynamic-shape"),
  };
  fold_restatements(ds);
  EXPECT_THAT(summary(ds), ElementsAre("target-dynamic-shape@n1 warning [onnxruntime-nnapi] "
                                       "+target-dynamic-shape[onnxruntime-coreml-mlprogram] "
                                       "+target-dynamic-shape[onnxruntime-qnn]",
                                       "target-dynamic-shape@n2 warning [onnxruntime-qnn]"));
}

TEST(FoldRestatements, AFindingFoldedIntoAnotherTakesNoneItself) {
  // B restates A, C restates B: B folds into A; C, whose primary B is gone, stays (no chains).
  std::vector<Diagnostic> ds = {
      at_node("rule-a", Severity::Warning, 1),
      at_node("rule-b", Severity::Warning, 1, "", "rule-a"),
      at_node("rule-c", Severity::Warning, 1, "", "rule-b"),
  };
  fold_restatements(ds);
  EXPECT_THAT(summary(ds), ElementsAre("rule-a@n1 warning +rule-b", "rule-c@n1 warning"));
}

// On models: the rules that declare what they restate.
Report lint_with(const std::vector<std::string>& rules, const std::vector<std::string>& targets,
                 const std::string& bytes) {
  LintOptions o;
  o.select = rules;
  o.targets = targets;
  Linter linter(builtin_registry(), o);
  Report r;
  r.files.push_back(linter.lint_bytes("m.onnx", bytes));
  return r;
}

std::vector<std::string> rules_of(const Report& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.files[0].diagnostics) {
    std::string s = d.rule_id + " " + d.location.anchor();
    for (const FoldedFinding& f : d.also) s += " +" + f.rule_id + "@" + f.target;
    out.push_back(s);
  }
  return out;
}

ModelBuilder training_dropout() {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 8}).output("y", kFloat, {1, 8});
  g.initializer(make_tensor_f32("ratio", {}, {0.5f}));
  g.initializer(make_tensor_bool("tm", true));
  g.node("Dropout", {"x", "ratio", "tm"}, {"y"}, "drop");
  return m;
}

TEST(RestatementModels, TensorRtsTrainingModeRestrictionIsANoteOnTheExportFinding) {
  const std::string bytes = training_dropout().bytes();
  const Report both =
      lint_with({"export-training-mode", "target-restriction"}, {"tensorrt"}, bytes);
  EXPECT_THAT(rules_of(both),
              ElementsAre("export-training-mode main/drop +target-restriction@tensorrt"));
  EXPECT_EQ(both.files[0].diagnostics[0].severity, Severity::Error);
  // With the export rule off, the target finding is the one that says it.
  EXPECT_THAT(rules_of(lint_with({"target-restriction"}, {"tensorrt"}, bytes)),
              ElementsAre("target-restriction main/drop"));
}

// uint8 Q/DQ on TensorRT: the zero point of 128 is a consequence of the uint8 type TensorRT
// rejects, one finding; an int8 zero point of 3 is a restriction of its own.
ModelBuilder qdq(int32_t zero_point_type, int zero_point) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 8}).output("y", kFloat, {1, 8});
  g.initializer(make_tensor_f32("s", {}, {0.1f}));
  onnx::TensorProto z = make_tensor_raw("z", zero_point_type, {}, 1);
  z.set_raw_data(std::string(1, static_cast<char>(zero_point)));
  g.initializer(z);
  g.node("QuantizeLinear", {"x", "s", "z"}, {"q"}, "q");
  g.node("DequantizeLinear", {"q", "s", "z"}, {"y"}, "dq");
  return m;
}

TEST(RestatementModels, AZeroPointOfATypeTheTargetRejectsIsTheTypesFinding) {
  const std::vector<std::string> rules = {"target-restriction", "target-unsupported-type"};
  const Report u8 = lint_with(rules, {"tensorrt"}, qdq(kUint8, 128).bytes());
  EXPECT_THAT(rules_of(u8), Contains("target-unsupported-type main/dq "
                                     "+target-restriction@tensorrt"));
  for (const Diagnostic& d : u8.files[0].diagnostics) {
    if (d.rule_id == "target-unsupported-type") {
      EXPECT_THAT(d.help, HasSubstr("int8 with symmetric activations"));
    }
  }
  const Report i8 = lint_with(rules, {"tensorrt"}, qdq(kInt8, 3).bytes());
  EXPECT_THAT(rules_of(i8), ElementsAre("target-restriction main/q", "target-restriction main/dq"));
}

}  // namespace
}  // namespace onnxlint::testing
