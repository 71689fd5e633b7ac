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

constexpr const char* kRule = "shape-foldable";

TEST(ShapeFoldable, ShapeOfAStaticTensor) {
  ModelBuilder m = shape_flow::dynamic_reshape(int64_t{3});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("shape-foldable main/Shape_0"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Shape 'Shape_0' reads the static shape of 'x', so its result is the constant "
            "[3, 16] and the shape computation it feeds can be folded");
  EXPECT_THAT(d[0].help, HasSubstr("do_constant_folding=True"));
}

TEST(ShapeFoldable, SizeOfAStaticTensor) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 3}).output("n", kInt64, {});
  m.graph().node("Size", {"x"}, {"n"}, "Size_0");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("constant [6]"));
}

// One fact, one finding: a Size whose result reaches no output is graph-dead-node's (removing
// it is the fix), not also a folding opportunity.
TEST(ShapeFoldable, DeadNodeIsLeftToGraphDeadNode) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {2, 3});
  m.graph().node("Relu", {"x"}, {"y"}, "Relu_0");
  m.graph().node("Size", {"x"}, {"n"}, "Size_1");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  EXPECT_THAT(findings("graph-dead-node", m.bytes()), ElementsAre("graph-dead-node main/Size_1"));
}

TEST(ShapeFoldable, NearMissDynamicBatch) {
  EXPECT_THAT(findings(kRule, shape_flow::dynamic_reshape().bytes()), IsEmpty());
}

TEST(ShapeFoldable, NestedInLoop) {
  ModelBuilder m = shape_flow::dynamic_reshape(int64_t{3});
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("shape-foldable ") + kNestedPath + "/Shape_0"));
}

}  // namespace
}  // namespace onnxlint::testing
