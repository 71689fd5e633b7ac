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

constexpr const char* kRule = "flow-dim-dependent-loop";

TEST(FlowDimDependentLoop, TripCountFromAnInputDim) {
  ModelBuilder m = shape_flow::loop_model("dim", false);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-dim-dependent-loop main/Loop_9"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "the trip count 'n' of Loop 'Loop_9' comes from input dim 'steps': the loop runs a "
            "fixed number of times once the inputs have fixed shapes");
  EXPECT_THAT(d[0].notes, ElementsAre("trip count 'n' comes from Gather_1 \u2190 Shape_0(x) "
                                      "\u2190 input 'x' [steps, 3]"));
  EXPECT_EQ(d[0].severity, Severity::Info);
}

TEST(FlowDimDependentLoop, NearMissConstantAndDataTripCounts) {
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("const", false).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("input", false).bytes()), IsEmpty());
  // Dim trip count but a data condition: flow-data-dependent-loop's finding.
  EXPECT_THAT(findings(kRule, shape_flow::loop_model("dim", true).bytes()), IsEmpty());
}

TEST(FlowDimDependentLoop, NestedInLoopAndIf) {
  ModelBuilder m = shape_flow::loop_model("dim", false);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("flow-dim-dependent-loop ") + kNestedPath + "/Loop_9"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("flow-dim-dependent-loop ") + kNestedIfPath + "/Loop_9"));
}

}  // namespace
}  // namespace onnxlint::testing
