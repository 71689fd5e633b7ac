#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"
#include "tests/rules/shape_flow_models.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "shape-dynamic-output";

TEST(ShapeDynamicOutput, SymbolicOutputDependingOnInputDims) {
  ModelBuilder m = shape_flow::dynamic_reshape();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-dynamic-output main:'y'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "output 'y' [batch, 4, 4] has dynamic dim: 0 'batch'");
  EXPECT_EQ(d[0].severity, Severity::Info);
  ASSERT_EQ(d[0].notes.size(), 1u);
  EXPECT_THAT(d[0].notes[0], HasSubstr("its shape depends on input dim 'batch': Reshape_8"));
}

// One cause, one finding: an output whose shape is set by runtime values is a related location
// of the shape-data-dependent finding at the node where that starts, not a finding of its own.
TEST(ShapeDynamicOutput, DataDependentOutputIsPartOfTheOriginsFinding) {
  ModelBuilder m = shape_flow::nonzero_model();
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  auto d = diagnostics("shape-data-dependent", m.bytes());
  ASSERT_EQ(d.size(), 1u);
  ASSERT_EQ(d[0].related.size(), 1u);
  EXPECT_EQ(d[0].related[0].location.value_name, "y");
  EXPECT_EQ(d[0].related[0].location.anchor(), "main:'y'");
  EXPECT_EQ(d[0].related[0].message, "graph output");

  ModelBuilder r = shape_flow::reshape_by_value();  // y has no declared shape
  EXPECT_THAT(findings(kRule, r.bytes()), IsEmpty());
}

// Names an exporter made up say nothing: shown as '?' and "(unnamed)", not echoed.
TEST(ShapeDynamicOutput, InventedDimNamesAreNotEchoed) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {std::string("batch"), 3});
  m.graph().output("y", kFloat, {std::string("Reluy_dim_0"), 3});
  m.graph().node("Relu", {"x"}, {"y"});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "output 'y' [?, 3] has dynamic dim: 0 (unnamed)");
}

TEST(ShapeDynamicOutput, UndeclaredOutputIsReportedOnlyWhenNotStatic) {
  ModelBuilder s(13);
  s.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {}, false);
  s.graph().node("Relu", {"x"}, {"y"});
  EXPECT_THAT(findings(kRule, s.bytes()), IsEmpty());
}

TEST(ShapeDynamicOutput, ShowsTheComputedExpressionWhenTheDeclarationSaysLess) {
  // torch names a dim it could not infer "<node><output>_dim_<i>": the analysis knows it is N+1.
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {std::string("N"), 8});
  m.graph().output("y", kFloat, {std::string("Concaty_dim_0"), 8});
  m.graph().initializer(make_tensor_f32("row", {1, 8}, std::vector<float>(8, 0.f)));
  attr_int(m.graph().node("Concat", {"x", "row"}, {"y"}, "Concat_0"), "axis", 0);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "output 'y' [?, 8] has dynamic dim: 0 (unnamed)");
  EXPECT_EQ(d[0].notes.at(0), "its shape is [N+1, 8]");
  EXPECT_THAT(d[0].notes.at(1), HasSubstr("depends on input dim 'N'"));
}

TEST(ShapeDynamicOutput, StaleSymbolicDeclarationOfAStaticOutput) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {std::string("d0"), 3});
  m.graph().node("Relu", {"x"}, {"y"});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].notes[0], HasSubstr("the graph computes the static shape [2, 3] here"));
  EXPECT_THAT(d[0].help, HasSubstr("shape inference"));
}

TEST(ShapeDynamicOutput, NearMissDeclaredStaticOutputs) {
  ModelBuilder m = shape_flow::dynamic_reshape(int64_t{2});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(ShapeDynamicOutput, NestedBodyOutputStackedByTheLoop) {
  ModelBuilder m = shape_flow::dynamic_reshape();
  // The nest Loop's scan output (no declared shape) is [2, batch, 4, 4].
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre("shape-dynamic-output main:'y_scan'"));
  ModelBuilder s = shape_flow::dynamic_reshape(int64_t{2});
  EXPECT_THAT(findings(kRule, nest_in_loop(s.proto())), IsEmpty());
}

TEST(ShapeDynamicOutput, AllowDimsOfTheInputsApplyToTheOutputsToo) {
  // y = x[batch, seq] reduced over seq: [batch]; z keeps both dims.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("batch"), std::string("seq")})
      .output("y", kFloat, {std::string("batch")})
      .output("z", kFloat, {std::string("batch"), std::string("seq")});
  auto& reduce = g.node("ReduceMax", {"x"}, {"y"});
  attr_int(reduce, "keepdims", 0);
  attr_ints(reduce, "axes", {1});
  g.node("Relu", {"x"}, {"z"});
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("shape-dynamic-output main:'y'", "shape-dynamic-output main:'z'"));
  // allow-dims of shape-dynamic-input: y depends on batch alone; z also on seq.
  LintOptions o;
  o.rule_options["shape-dynamic-input"]["allow-dims"] = std::vector<std::string>{"batch"};
  EXPECT_THAT(findings(kRule, m.bytes(), o), ElementsAre("shape-dynamic-output main:'z'"));
  o.rule_options["shape-dynamic-input"]["allow-dims"] = std::vector<std::string>{"b*", "s?q"};
  EXPECT_THAT(findings(kRule, m.bytes(), o), IsEmpty());
  // The rule's own list wins (here: nothing is allowed for outputs).
  o.rule_options[kRule]["allow-dims"] = std::vector<std::string>{};
  EXPECT_THAT(findings(kRule, m.bytes(), o), ::testing::SizeIs(2));
}

TEST(ShapeDynamicOutput, ABakedSizeIsNotAdviceToDeclareIt) {
  // y = x.view(2, 32) declared [N, 32]: the graph computes [2, 32] because the batch of the
  // export example was baked in; declaring [2, 32] would make the bake permanent.
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 32}).output("y", kFloat, {std::string("N"), 32});
  g.initializer(make_tensor_i64("shape", {2}, {2, 32}));
  g.node("Reshape", {"x", "shape"}, {"y"}, "view");
  const auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].notes, ::testing::Contains(HasSubstr("a size from the export example was "
                                                        "baked in")));
  EXPECT_THAT(d[0].help, ::testing::Not(HasSubstr("declare the static output shape")));
  EXPECT_THAT(findings("export-baked-shape", m.bytes()),
              ElementsAre("export-baked-shape main/view"));
}

}  // namespace
}  // namespace onnxlint::testing
