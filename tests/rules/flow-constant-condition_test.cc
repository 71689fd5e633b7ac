#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "support/lint_harness.h"
#include "support/model_builder.h"
#include "tests/rules/shape_flow_models.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "flow-constant-condition";

TEST(FlowConstantCondition, IfWithAConstantCondition) {
  ModelBuilder m = shape_flow::if_model("const");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-constant-condition main/If_2"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "the condition 'cond' of If 'If_2' is a constant (0): only else_branch can run");
}

TEST(FlowConstantCondition, LoopWithConstantTripCountAndCondition) {
  ModelBuilder m = shape_flow::loop_model("const", false);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-constant-condition main/Loop_9"));
  auto d = diagnostics(kRule, m.bytes());
  EXPECT_EQ(d[0].message,
            "Loop 'Loop_9' has a constant trip count (5) and a condition that never depends on "
            "data: it can be unrolled or folded");
  EXPECT_THAT(d[0].help, HasSubstr("unrolls"));
}

TEST(FlowConstantCondition, Int64MaxTripCountIsNoLimit) {
  // TorchScript exports `while` loops with M = INT64_MAX: print what it means, not the number.
  ModelBuilder m = shape_flow::loop_model("const", false);
  for (auto& t : *m.graph().proto().mutable_initializer()) {
    if (t.name() == "n") t = make_tensor_i64("n", {}, {std::numeric_limits<int64_t>::max()});
  }
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("a constant trip count (no limit)"));
  EXPECT_THAT(d[0].message, ::testing::Not(HasSubstr("9223372036854775807")));
}

TEST(FlowConstantCondition, AFixedDimNextToADataDimDecidesTheCondition) {
  // Shape(t)[1] of t[K, 1] is 1 although K comes from NonZero: squeeze(1) always squeezes.
  ModelBuilder m = shape_flow::squeeze_after_mask(1);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-constant-condition main/If_sq"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "the condition 'cond' of If 'If_sq' is a constant (1): only then_branch can run");
  // Near miss: the same test on K itself is data (flow-data-dependent-if reports it).
  EXPECT_THAT(findings(kRule, shape_flow::squeeze_after_mask(0).bytes()), IsEmpty());
  // Nested: the same inside a Loop body.
  EXPECT_THAT(
      findings(kRule, nest_in_loop(m.proto())),
      ::testing::Contains(std::string("flow-constant-condition ") + kNestedPath + "/If_sq"));
}

TEST(FlowConstantCondition, NearMisses) {
  EXPECT_THAT(findings(kRule, shape_flow::if_model("data").bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::if_model("dim").bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("input", false).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("dim", false).bytes()), IsEmpty());
  // Constant trip count, but the body computes its condition from data.
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("const", true).bytes()), IsEmpty());
}

TEST(FlowConstantCondition, NestedInLoopAlsoReportsTheConstantNestLoop) {
  ModelBuilder m = shape_flow::loop_model("const", false);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre("flow-constant-condition main/nest",
                          std::string("flow-constant-condition ") + kNestedPath + "/Loop_9"));
  ModelBuilder i = shape_flow::if_model("const");
  EXPECT_THAT(findings(kRule, nest_in_if(i.proto())),
              ElementsAre("flow-constant-condition main/nest_if",
                          std::string("flow-constant-condition ") + kNestedIfPath + "/If_2"));
}

}  // namespace
}  // namespace onnxlint::testing
