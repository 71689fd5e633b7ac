#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "target-dynamic-shape";

LintOptions for_targets(std::vector<std::string> targets) {
  LintOptions o;
  o.targets = std::move(targets);
  return o;
}

ModelBuilder mlp(const std::vector<DimSpec>& dims) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, dims).output("y", kFloat, dims);
  m.graph().node("Relu", {"x"}, {"a"}, "relu");
  m.graph().node("Neg", {"a"}, {"y"}, "neg");
  return m;
}

TEST(TargetDynamicShape, DynamicInputOnATargetThatRequiresStaticShapes) {
  ModelBuilder m = mlp({"batch", 16});
  // One input, one finding: the other targets that want static shapes are folded into it.
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"nnapi", "qnn"})),
              ElementsAre("target-dynamic-shape main:'x' @onnxruntime-nnapi"));
  auto both = diagnostics(kRule, m.bytes(), for_targets({"nnapi", "qnn"}));
  ASSERT_EQ(both.size(), 1u);
  ASSERT_EQ(both[0].also.size(), 1u);
  EXPECT_EQ(both[0].also[0].rule_id, kRule);
  EXPECT_EQ(both[0].also[0].target, "onnxruntime-qnn");
  EXPECT_EQ(both[0].also[0].severity, Severity::Warning);
  EXPECT_THAT(both[0].notes, ::testing::Contains(HasSubstr(
                                 "also [onnxruntime-qnn] warning: graph input 'x' has dynamic "
                                 "shape [batch, 16] ('batch'), but ONNX Runtime QNN EP")));
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"nnapi"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  EXPECT_EQ(diags[0].message,
            "graph input 'x' has dynamic shape [batch, 16] ('batch'), but ONNX "
            "Runtime NNAPI EP (main) requires static shapes");
  ASSERT_GE(diags[0].notes.size(), 2u);
  // Provenance names the nodes the dim reaches.
  EXPECT_EQ(diags[0].notes[0],
            "2 nodes get their shape from it: relu, neg; nodes with dynamic "
            "shapes are not offloaded to the target");
  EXPECT_THAT(diags[0].notes[1], HasSubstr("NNAPI does not support dynamic input shapes"));
  EXPECT_THAT(diags[0].help, HasSubstr("dynamic_axes"));
}

// The note counts each node once however many of the input's dims reach it, lists the first
// five in model order, and is exact for every input of a model with many (the readers are
// indexed once per model, not walked per input).
TEST(TargetDynamicShape, ReadersOfSeveralDimsAreCountedOnce) {
  ModelBuilder m(17);
  m.graph()
      .input("x", kFloat, {"b", "s"})
      .input("y", kFloat, {"b", 4})
      .output("z", kFloat, {"b", "s"});
  m.graph().node("Relu", {"x"}, {"a"}, "relu");     // b, s
  m.graph().node("Relu", {"y"}, {"c"}, "ry");       // b
  m.graph().node("Neg", {"a"}, {"d"}, "neg");       // b, s
  m.graph().node("Sigmoid", {"d"}, {"e"}, "sig");   // b, s
  m.graph().node("Tanh", {"e"}, {"f"}, "tanh");     // b, s
  m.graph().node("Abs", {"f"}, {"g"}, "abs");       // b, s
  m.graph().node("Add", {"g", "c"}, {"z"}, "add");  // b, s
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"nnapi"}));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].notes[0],
            "7 nodes get their shape from it: relu, ry, neg, sig, tanh and 2 more; nodes with "
            "dynamic shapes are not offloaded to the target");
  EXPECT_EQ(diags[1].notes[0],
            "7 nodes get their shape from it: relu, ry, neg, sig, tanh and 2 more; nodes with "
            "dynamic shapes are not offloaded to the target");
}

TEST(TargetDynamicShape, PreferredStaticShapesAreInfo) {
  auto diags = diagnostics(kRule, mlp({"batch", 16}).bytes(), for_targets({"coreml"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].severity, Severity::Info);
  EXPECT_THAT(diags[0].message, HasSubstr("runs dynamic shapes more slowly"));
}

TEST(TargetDynamicShape, NearMisses) {
  // Static input.
  EXPECT_THAT(findings(kRule, mlp({1, 16}).bytes(), for_targets({"nnapi", "coreml"})), IsEmpty());
  // A target that handles dynamic shapes.
  EXPECT_THAT(findings(kRule, mlp({"batch", 16}).bytes(), for_targets({"tensorrt", "ort-cpu"})),
              IsEmpty());
  // No target.
  EXPECT_THAT(findings(kRule, mlp({"batch", 16}).bytes()), IsEmpty());
  // An input backed by an initializer is a weight with the initializer's shape.
  ModelBuilder w(17);
  w.graph().input("x", kFloat, {1, 2}).input("w", kFloat, {"n"}).output("y", kFloat, {1, 2});
  w.graph().initializer(make_tensor_f32("w", {2}, {1, 2}));
  w.graph().node("Add", {"x", "w"}, {"y"}, "add");
  EXPECT_THAT(findings(kRule, w.bytes(), for_targets({"nnapi"})), IsEmpty());
}

TEST(TargetDynamicShape, InputWithoutShape) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {}, /*with_shape=*/false).output("y", kFloat, {1});
  m.graph().node("Relu", {"x"}, {"y"}, "relu");
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"qnn"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_THAT(diags[0].message, HasSubstr("graph input 'x' has no shape"));
}

// A value-dependent shape (NonZero) stays dynamic with every input fixed.
TEST(TargetDynamicShape, DataDependentShapeOrigin) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {4}).output("y", kInt64, {1, "n"});
  m.graph().node("NonZero", {"x"}, {"y"}, "nz");
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"nnapi"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].location.anchor(), "main/nz");
  EXPECT_EQ(diags[0].message,
            "nz (NonZero) gives its output a shape that depends on tensor "
            "values, but ONNX Runtime NNAPI EP (main) requires static shapes");
  EXPECT_THAT(diags[0].notes, ::testing::Contains(HasSubstr("shape: ")));
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"tensorrt"})), IsEmpty());
}

// One cause (the target needs static shapes), one finding per target: every node where a
// value-dependent shape arises is a place of it.
TEST(TargetDynamicShape, DataDependentOriginsAreOneFindingForEveryTarget) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {4}).output("y", kInt64, {1, "n"}).output("z", kInt64, {1, "m"});
  m.graph().node("NonZero", {"x"}, {"y"}, "nz1");
  m.graph().node("NonZero", {"x"}, {"z"}, "nz2");
  for (const auto& target : {"nnapi", "coreml"}) {
    auto diags = diagnostics(kRule, m.bytes(), for_targets({target}));
    ASSERT_EQ(diags.size(), 1u);
    const Diagnostic& d = diags[0];
    EXPECT_EQ(d.location.anchor(), "main/nz1");
    ASSERT_EQ(d.related.size(), 1u);
    EXPECT_EQ(d.related[0].location.anchor(), "main/nz2");
    EXPECT_THAT(d.message, HasSubstr("2 nodes (NonZero x2) give their outputs shapes"));
    // NNAPI: not offloaded; CoreML: slower.
    EXPECT_EQ(d.severity, std::string(target) == "nnapi" ? Severity::Warning : Severity::Info);
  }
  // Both targets: one finding, the most severe target's (NNAPI), CoreML's folded into it.
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"nnapi", "coreml"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].target, "onnxruntime-nnapi");
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  ASSERT_EQ(diags[0].also.size(), 1u);
  EXPECT_EQ(diags[0].also[0].target, "onnxruntime-coreml-mlprogram");
  EXPECT_EQ(diags[0].also[0].severity, Severity::Info);
}

TEST(TargetDynamicShape, Nested) {
  // The dynamic main input is still the model's input; a NonZero in a Loop body is reported
  // where it is.
  EXPECT_THAT(findings(kRule, nest_in_loop(mlp({"batch", 16}).proto()), for_targets({"nnapi"})),
              ElementsAre("target-dynamic-shape main:'x' @onnxruntime-nnapi"));
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {4}).output("y", kInt64, {1, "n"});
  m.graph().node("NonZero", {"x"}, {"y"}, "nz");
  EXPECT_THAT(
      findings(kRule, nest_in_loop(m.proto()), for_targets({"nnapi"})),
      ElementsAre(std::string("target-dynamic-shape ") + kNestedPath + "/nz @onnxruntime-nnapi"));
  EXPECT_THAT(
      findings(kRule, nest_in_if(m.proto()), for_targets({"nnapi"})),
      ElementsAre(std::string("target-dynamic-shape ") + kNestedIfPath + "/nz @onnxruntime-nnapi"));
}

}  // namespace
}  // namespace onnxlint::testing
