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

TEST(ShapeDynamicOutput, DataDependentOutputNamesTheOrigin) {
  ModelBuilder m = shape_flow::nonzero_model();
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "output 'y' [n] has dynamic dim: 0 'n'");
  EXPECT_THAT(d[0].notes[0], HasSubstr("runtime values (from NonZero 'NonZero_2')"));
  EXPECT_THAT(d[0].help, HasSubstr("torch.where"));
}

TEST(ShapeDynamicOutput, UndeclaredOutputIsReportedOnlyWhenNotStatic) {
  ModelBuilder m = shape_flow::reshape_by_value();  // y has no declared shape
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "output 'y' has no declared shape and its shape is data-dependent");

  ModelBuilder s(13);
  s.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {}, false);
  s.graph().node("Relu", {"x"}, {"y"});
  EXPECT_THAT(findings(kRule, s.bytes()), IsEmpty());
}

TEST(ShapeDynamicOutput, StaleSymbolicDeclarationOfAStaticOutput) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {std::string("d0"), 3});
  m.graph().node("Relu", {"x"}, {"y"});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].notes[0], HasSubstr("the graph computes a static shape"));
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

}  // namespace
}  // namespace onnxlint::testing
