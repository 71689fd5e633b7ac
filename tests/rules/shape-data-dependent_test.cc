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

constexpr const char* kRule = "shape-data-dependent";

TEST(ShapeDataDependent, ReportsOnlyTheNonZeroOriginWithItsMaskChain) {
  ModelBuilder m = shape_flow::nonzero_model();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-data-dependent main/NonZero_2"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "NonZero 'NonZero_2' has an output shape set by the runtime values of its input 'X' "
            "('mask')");
  // The graph output it reaches is a related location (it says how far the shape spreads).
  // ... and the static bound of the count, what a static-shape target needs.
  EXPECT_THAT(d[0].notes, ElementsAre("'mask' comes from Greater_1 \u2190 input 'x'",
                                      "'nz' is [2, k]: k \u2264 20"));
  ASSERT_EQ(d[0].related.size(), 1u);
  EXPECT_EQ(d[0].related[0].location.anchor(), "main:'y'");
  EXPECT_THAT(d[0].help, HasSubstr("torch.where(mask, x, fill)"));
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

TEST(ShapeDataDependent, ReshapeWhoseShapeComesFromAValue) {
  ModelBuilder m = shape_flow::reshape_by_value();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-data-dependent main/Reshape_4"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("the 'shape' ('shape') argument of Reshape 'Reshape_4'"));
  EXPECT_EQ(d[0].notes[0], "'shape' comes from Concat_3 \u2190 Unsqueeze_1 \u2190 input 'n'");
}

TEST(ShapeDataDependent, NearMissShapeGatherConcatReshapeOnADynamicBatch) {
  // Computed from input dims only: shape-input-dependent, not data-dependent.
  ModelBuilder m = shape_flow::dynamic_reshape();
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  EXPECT_THAT(findings("shape-input-dependent", m.bytes()),
              ElementsAre("shape-input-dependent main/Reshape_8"));
}

TEST(ShapeDataDependent, NearMissNonZeroOfAConstant) {
  EXPECT_THAT(findings(kRule, shape_flow::nonzero_model(true).bytes()), IsEmpty());
}

TEST(ShapeDataDependent, TopKWithAComputedKSaysToPassAConstant) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 10}).input("k", kInt64, {1});
  m.graph().output("v", kFloat, {}, false).output("i", kInt64, {}, false);
  m.graph().node("TopK", {"x", "k"}, {"v", "i"}, "TopK_0");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/TopK_0");
  EXPECT_EQ(d[0].notes[0], "'k' is a graph input: its values are only known at run time");
  EXPECT_THAT(d[0].help, HasSubstr("pass K as a constant"));
}

TEST(ShapeDataDependent, LoopStackingADataDependentNumberOfSlices) {
  ModelBuilder m = shape_flow::loop_model("input", false);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-data-dependent main/Loop_9"));
  auto d = diagnostics(kRule, m.bytes());
  EXPECT_THAT(d[0].message, HasSubstr("scan outputs, and its trip count depends on runtime"));
  // A constant trip count stacks a fixed number of slices.
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("const", false).bytes()), IsEmpty());
}

TEST(ShapeDataDependent, RangeOverAWeightFixedDimOfADataShapedTensorIsStatic) {
  // arange(y.shape[1]) with y = Linear(x[mask]) [K, 10]: only the NonZero is an origin.
  ModelBuilder m = shape_flow::nonzero_model();
  auto& g = m.graph();
  g.output("r", kInt64, {}, false);
  g.node("Shape", {"nz"}, {"snz"}, "Shape_nz");
  g.constant_i64("i0", {0}, {});
  g.node("Gather", {"snz", "i0"}, {"rank"}, "Gather_rank");  // the rank row: 2, fixed
  g.constant_i64("i1", {1}, {});
  g.node("Gather", {"snz", "i1"}, {"count"}, "Gather_count");  // K: data
  g.constant_i64("start", {0}, {});
  g.constant_i64("step", {1}, {});
  g.node("Range", {"start", "rank", "step"}, {"r"}, "Range_fixed");
  g.output("r2", kInt64, {}, false);
  g.node("Range", {"start", "count", "step"}, {"r2"}, "Range_data");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-data-dependent main/NonZero_2",
                                                      "shape-data-dependent main/Range_data"));
}

TEST(ShapeDataDependent, NestedInLoopAndIf) {
  ModelBuilder m = shape_flow::nonzero_model();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("shape-data-dependent ") + kNestedPath + "/NonZero_2"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("shape-data-dependent ") + kNestedIfPath + "/NonZero_2"));
}

TEST(ShapeDataDependent, OriginInsideAFunctionBodyNotAtTheCall) {
  ModelBuilder m = shape_flow::function_model();
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("shape-data-dependent fn:local::Mask/NonZero_f2"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].notes[0],
            "'mask' comes from Greater_f1 \u2190 'v' (input of function Mask) \u2190 input 'x'");
}

}  // namespace
}  // namespace onnxlint::testing
