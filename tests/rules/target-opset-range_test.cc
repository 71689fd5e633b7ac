#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "target-opset-range";

LintOptions for_targets(std::vector<std::string> targets) {
  LintOptions o;
  o.targets = std::move(targets);
  return o;
}

ModelBuilder relu(int64_t opset, int64_t ir = 8) {
  ModelBuilder m(opset, ir);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node("Relu", {"x"}, {"y"}, "r");
  return m;
}

TEST(TargetOpsetRange, OpsetAboveTheTargetsMaximum) {
  auto diags = diagnostics(kRule, relu(25).bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].target, "tensorrt");
  EXPECT_EQ(diags[0].severity, Severity::Error);
  EXPECT_EQ(diags[0].message,
            "the model imports ai.onnx opset 25, but TensorRT 10.15 accepts ai.onnx opsets 9-24");
  EXPECT_THAT(diags[0].help, HasSubstr("opset_version=24"));
  EXPECT_EQ(diags[0].key, "opset:ai.onnx");
}

TEST(TargetOpsetRange, OpsetBelowTheTargetsMinimum) {
  EXPECT_THAT(findings(kRule, relu(8).bytes(), for_targets({"tensorrt"})),
              ElementsAre("target-opset-range  @tensorrt"));
  // The help names an opset to export with: not TensorRT's oldest (9), which exporters and
  // other runtimes support least, but the opset torch writes by default.
  auto low = diagnostics(kRule, relu(8).bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(low.size(), 1u);
  EXPECT_THAT(low[0].help, HasSubstr("opset_version=17"));
  // No ORT EP has a floor: ORT 1.30 loads opset 1-6 models (tests/ort) in its core, before
  // any EP is given a node; an op without a kernel there is target-unsupported-op's. WebNN's
  // own table keeps its floor.
  EXPECT_THAT(findings(kRule, relu(6).bytes(),
                       for_targets({"ort-cpu", "ort-cuda", "nnapi", "coreml", "tensorrt"})),
              ElementsAre("target-opset-range  @tensorrt"));
}

TEST(TargetOpsetRange, NearMissInsideTheRange) {
  EXPECT_THAT(findings(kRule, relu(24).bytes(), for_targets({"tensorrt", "ort-cpu", "nnapi"})),
              IsEmpty());
  EXPECT_THAT(findings(kRule, relu(9).bytes(), for_targets({"tensorrt"})), IsEmpty());
  // No target selected: nothing.
  EXPECT_THAT(findings(kRule, relu(25).bytes()), IsEmpty());
  // No known bounds (OpenVINO): nothing.
  EXPECT_THAT(findings(kRule, relu(25).bytes(), for_targets({"openvino"})), IsEmpty());
}

TEST(TargetOpsetRange, IrVersionAboveTheTargetsMaximum) {
  auto diags = diagnostics(kRule, relu(17, 14).bytes(), for_targets({"ort-cuda", "tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].target, "onnxruntime-cuda");
  EXPECT_EQ(diags[0].key, "ir");
  EXPECT_THAT(diags[0].message, HasSubstr("IR version 14 is newer than"));
  EXPECT_THAT(diags[0].notes, ::testing::Contains(HasSubstr("source: derived")));
  // The opset to export with, computed from ONNX's release table: no "N" left to fill in.
  EXPECT_THAT(diags[0].help, ::testing::MatchesRegex(".*opset_version=[0-9]+\\).*"));
  EXPECT_THAT(diags[0].help, ::testing::Not(HasSubstr("=N")));
  EXPECT_THAT(findings(kRule, relu(17, 13).bytes(), for_targets({"ort-cuda"})), IsEmpty());
}

TEST(TargetOpsetRange, OtherDomains) {
  ModelBuilder m = relu(17);
  m.opset("ai.onnx.ml", 6);
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"ort-cpu"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message,
            "the model imports ai.onnx.ml opset 6, but ONNX Runtime CPU EP 1.30 accepts "
            "ai.onnx.ml opsets up to 5");
  EXPECT_EQ(diags[0].key, "opset:ai.onnx.ml");
  EXPECT_THAT(diags[0].help, HasSubstr("onnx.version_converter"));
}

// The opset is a model fact: nesting the graph does not repeat the finding.
TEST(TargetOpsetRange, NestedGraphsDoNotRepeatIt) {
  EXPECT_THAT(findings(kRule, nest_in_loop(relu(25).proto()), for_targets({"tensorrt"})),
              ElementsAre("target-opset-range  @tensorrt"));
  EXPECT_THAT(findings(kRule, nest_in_if(relu(25).proto()), for_targets({"tensorrt"})),
              ElementsAre("target-opset-range  @tensorrt"));
}

// A model-local function's own opset_import is checked where the function is defined.
TEST(TargetOpsetRange, LocalFunctionImports) {
  ModelBuilder m(17);
  m.opset("local", 1);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node("Fn", {"x"}, {"y"}, "call", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Fn");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(25);
  auto* n = f->add_node();
  n->set_op_type("Relu");
  n->add_input("a");
  n->add_output("b");
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].location.graph_path, "fn:local::Fn");
  EXPECT_EQ(diags[0].message,
            "function Fn imports ai.onnx opset 25, but TensorRT 10.15 accepts ai.onnx opsets 9-24");
}

}  // namespace
}  // namespace onnxlint::testing
