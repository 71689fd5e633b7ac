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

constexpr const char* kRule = "shape-input-dependent";

TEST(ShapeInputDependent, ReshapeFromShapeGatherConcatOnADynamicBatch) {
  ModelBuilder m = shape_flow::dynamic_reshape();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-input-dependent main/Reshape_8"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "the 'shape' of Reshape 'Reshape_8' is computed at run time from input dim 'batch'; "
            "it would be a constant if the inputs had fixed shapes");
  EXPECT_THAT(d[0].notes,
              ElementsAre("'target' comes from Concat_6 \u2190 Unsqueeze_4 \u2190 Gather_2 "
                          "\u2190 Shape_0(x) \u2190 input 'x' [batch, 16]"));
  EXPECT_EQ(d[0].severity, Severity::Info);
  EXPECT_THAT(d[0].help, HasSubstr("fixed input shapes"));
}

TEST(ShapeInputDependent, SliceBoundsFromADim) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("seq"), 8}).output("y", kFloat, {}, false);
  g.node("Shape", {"x"}, {"s"}, "Shape_0");
  g.constant_i64("zero", {0});
  g.constant_i64("one", {1});
  g.node("Slice", {"s", "zero", "one"}, {"len"}, "Slice_3");  // [seq]
  g.constant_i64("two", {2});
  g.node("Div", {"len", "two"}, {"half"}, "Div_5");
  g.node("Slice", {"x", "zero", "half", "zero"}, {"y"}, "Slice_6");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-input-dependent main/Slice_6"));
  auto d = diagnostics(kRule, m.bytes());
  EXPECT_THAT(d[0].message, HasSubstr("the 'ends' of Slice 'Slice_6'"));
  EXPECT_THAT(d[0].message, HasSubstr("input dim 'seq'"));
}

TEST(ShapeInputDependent, NearMissFixedBatchAndDataDependentShapes) {
  EXPECT_THAT(findings(kRule, shape_flow::dynamic_reshape(int64_t{2}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::reshape_by_value().bytes()), IsEmpty());
}

TEST(ShapeInputDependent, NestedInLoopAndIf) {
  ModelBuilder m = shape_flow::dynamic_reshape();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("shape-input-dependent ") + kNestedPath + "/Reshape_8"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("shape-input-dependent ") + kNestedIfPath + "/Reshape_8"));
}

}  // namespace
}  // namespace onnxlint::testing
