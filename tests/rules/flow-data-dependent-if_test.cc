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

constexpr const char* kRule = "flow-data-dependent-if";

TEST(FlowDataDependentIf, ConditionComputedFromAnInput) {
  ModelBuilder m = shape_flow::if_model("data");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-data-dependent-if main/If_2"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "the condition 'cond' of If 'If_2' depends on runtime data, so the branch taken is "
            "only known at run time");
  EXPECT_THAT(d[0].notes,
              ElementsAre("'cond' comes from Greater_1 \u2190 ReduceSum_0 \u2190 input 'x'"));
  EXPECT_THAT(d[0].help, HasSubstr("torch.where"));
}

TEST(FlowDataDependentIf, NearMissConstantAndDimConditions) {
  EXPECT_THAT(findings(kRule, shape_flow::if_model("const").bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::if_model("dim").bytes()), IsEmpty());
}

TEST(FlowDataDependentIf, NestedInLoop) {
  ModelBuilder m = shape_flow::if_model("data");
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("flow-data-dependent-if ") + kNestedPath + "/If_2"));
}

}  // namespace
}  // namespace onnxlint::testing
