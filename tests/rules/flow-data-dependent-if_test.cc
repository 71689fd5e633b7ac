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

TEST(FlowDataDependentIf, OnlyTheDimThatIsSetByDataMakesTheConditionData) {
  // Shape(t)[0] of t[K, 1] is the NonZero count: data. Shape(t)[1] is the constant 1.
  EXPECT_THAT(findings(kRule, shape_flow::squeeze_after_mask(0).bytes()),
              ElementsAre("flow-data-dependent-if main/If_sq"));
  EXPECT_THAT(findings(kRule, shape_flow::squeeze_after_mask(1).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, nest_in_if(shape_flow::squeeze_after_mask(0).proto())),
              ElementsAre(std::string("flow-data-dependent-if ") + kNestedIfPath + "/If_sq"));
}

TEST(FlowDataDependentIf, LengthOfASequenceGrownByADataLoop) {
  // if len(parts) > 0 after `while data: parts.append(...)`: the length is data, not constant.
  ModelBuilder m = shape_flow::sequence_grown_by_data_loop();
  auto& g = m.graph();
  g.output("y", kFloat, {}, false);
  g.constant_i64("zero", {0}, {});
  g.node("Greater", {"n", "zero"}, {"nonempty"});
  onnx::GraphProto then_g, else_g;
  GraphBuilder tb(&then_g), eb(&else_g);
  tb.output("a", kFloat, {}, false);
  tb.node("Identity", {"x"}, {"a"});
  eb.output("b", kFloat, {}, false);
  eb.node("Neg", {"x"}, {"b"});
  auto& iff = g.node("If", {"nonempty"}, {"y"}, "If_len");
  attr_graph(iff, "then_branch", then_g);
  attr_graph(iff, "else_branch", else_g);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("flow-data-dependent-if main/If_len"));
  EXPECT_THAT(findings("flow-constant-condition", m.bytes()), IsEmpty());
}

TEST(FlowDataDependentIf, NestedInLoop) {
  ModelBuilder m = shape_flow::if_model("data");
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("flow-data-dependent-if ") + kNestedPath + "/If_2"));
}

}  // namespace
}  // namespace onnxlint::testing
