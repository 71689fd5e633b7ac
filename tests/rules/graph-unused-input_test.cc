#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-unused-input";

ModelBuilder ignored_input() {
  ModelBuilder m;
  m.graph().input("x").input("mask").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  return m;
}

TEST(GraphUnusedInput, InputNothingReads) {
  ModelBuilder m = ignored_input();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-unused-input main:'mask'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "graph input 'mask' is never used");
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

// Read by a node, returned as an output, or read only inside a subgraph: all used. An input
// backed by an initializer is left to graph-unused-initializer.
TEST(GraphUnusedInput, NearMissEveryKindOfUse) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"x", "read_by_body"}, {"z"}, "body_add");
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* g = mp.mutable_graph();
  set_value_info(g->add_input(), "read_by_body", kFloat, {1});
  set_value_info(g->add_input(), "returned", kFloat, {1});
  set_value_info(g->add_output(), "returned", kFloat, {1});
  set_value_info(g->add_input(), "has_default", kFloat, {1});
  *g->add_initializer() = make_tensor_f32("has_default", {1}, {0.0f});
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()), IsEmpty());
}

// Main graph only: subgraph inputs are positional (a Loop body receives the iteration number
// and the condition whether or not it reads them). Nesting the model keeps the unused main
// input unused, and the body's unused iteration input "nest_iter" is not reported.
TEST(GraphUnusedInput, SubgraphInputsAreNotChecked) {
  EXPECT_THAT(findings(kRule, nest_in_loop(ignored_input().proto())),
              ElementsAre("graph-unused-input main:'mask'"));
  EXPECT_THAT(findings(kRule, nest_in_if(ignored_input().proto())),
              ElementsAre("graph-unused-input main:'mask'"));
}

}  // namespace
}  // namespace onnxlint::testing
