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

constexpr const char* kRule = "flow-data-dependent-loop";

TEST(FlowDataDependentLoop, TripCountFromAGraphInput) {
  ModelBuilder m = shape_flow::loop_model("input", false);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-data-dependent-loop main/Loop_9"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Loop 'Loop_9' runs a number of iterations set by runtime data: its trip count 'n' "
            "depends on tensor values");
  EXPECT_THAT(d[0].notes, ElementsAre("trip count 'n' comes from input 'n'"));
  EXPECT_THAT(d[0].help, HasSubstr("move data-dependent loops out of the model"));
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

TEST(FlowDataDependentLoop, BodyComputingItsOwnConditionFromData) {
  ModelBuilder m = shape_flow::loop_model("const", true);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Loop 'Loop_9' runs a number of iterations set by runtime data: the condition "
            "'c_out' its body computes each iteration depends on tensor values");
  EXPECT_THAT(d[0].notes,
              ElementsAre("body condition 'c_out' comes from Less_b2 \u2190 ReduceSum_b1 "
                          "\u2190 Add_b0 \u2190 'acc' (carried by Loop_9) \u2190 input 'x'"));
}

TEST(FlowDataDependentLoop, NearMissConstantAndDimTripCounts) {
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("const", false).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("dim", false).bytes()), IsEmpty());
}

TEST(FlowDataDependentLoop, NestedInLoopAndIf) {
  ModelBuilder m = shape_flow::loop_model("input", false);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("flow-data-dependent-loop ") + kNestedPath + "/Loop_9"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("flow-data-dependent-loop ") + kNestedIfPath + "/Loop_9"));
}

}  // namespace
}  // namespace onnxlint::testing
