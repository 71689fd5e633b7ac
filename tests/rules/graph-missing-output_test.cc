#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-missing-output";

ModelBuilder lost_output() {
  ModelBuilder m;
  m.graph().input("x").output("y").output("z");
  m.graph().node("Relu", {"x"}, {"y"});
  return m;
}

TEST(GraphMissingOutput, OutputNothingProduces) {
  ModelBuilder m = lost_output();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-missing-output main:'z'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "graph output 'z' is not produced by any node, input or initializer");
  EXPECT_EQ(d[0].severity, Severity::Error);
}

TEST(GraphMissingOutput, OutputWithEmptyName) {
  ModelBuilder m;
  m.graph().input("x").output("y").output("");
  m.graph().node("Relu", {"x"}, {"y"});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main");
  EXPECT_EQ(d[0].message, "graph output 1 has an empty name");
}

TEST(GraphMissingOutput, NearMissInputInitializerAndNodeOutputs) {
  ModelBuilder m;
  m.graph().input("x").output("x").output("w").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {1.0f}));
  m.graph().node("Relu", {"x"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(GraphMissingOutput, NestedInLoopBody) {
  EXPECT_THAT(findings(kRule, nest_in_loop(lost_output().proto())),
              ElementsAre(std::string("graph-missing-output ") + kNestedPath + ":'z'"));
}

TEST(GraphMissingOutput, NestedInIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_if(lost_output().proto())),
              ElementsAre(std::string("graph-missing-output ") + kNestedIfPath + ":'z'"));
}

// A subgraph may return a value of an enclosing scope directly.
TEST(GraphMissingOutput, NearMissSubgraphReturnsOuterValue) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  // nest_in_loop keeps x in the main graph: the body's output y is computed from it, and we
  // make a second body output that is x itself.
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(m.proto())));
  auto* body = mp.mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_g();
  set_value_info(body->add_output(), "x", kFloat, {1});
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
