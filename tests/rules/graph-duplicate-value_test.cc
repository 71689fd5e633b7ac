#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-duplicate-value";

ModelBuilder two_producers() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"t"}, "a");
  m.graph().node("Neg", {"x"}, {"t"}, "b");
  m.graph().node("Add", {"t", "t"}, {"y"}, "c");
  return m;
}

TEST(GraphDuplicateValue, TwoNodesProduceTheSameName) {
  ModelBuilder m = two_producers();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-duplicate-value main/b"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "'t' is defined again by output 0 of b; it is already output 0 of a");
  EXPECT_EQ(d[0].severity, Severity::Error);
}

TEST(GraphDuplicateValue, RepeatedInitializer) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_f32("W", {1}, {1.0f}));
  m.graph().initializer(make_tensor_f32("W", {1}, {2.0f}));
  m.graph().node("Add", {"x", "W"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-duplicate-value main:'W'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "'W' is defined again by an initializer; it is already an initializer");
}

TEST(GraphDuplicateValue, NodeOverwritesAGraphInput) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"y"}, {"x"}, "writes_input");
  m.graph().node("Relu", {"x"}, {"y"}, "reads");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/writes_input");
  EXPECT_EQ(d[0].message,
            "'x' is defined again by output 0 of writes_input; it is already a "
            "graph input");
}

TEST(GraphDuplicateValue, InputListedTwice) {
  ModelBuilder m;
  m.graph().input("x").input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-duplicate-value main:'x'"));
}

// Before IR 4 every initializer had to be a graph input too: that is one value, not two.
TEST(GraphDuplicateValue, NearMissInitializerAlsoListedAsInput) {
  ModelBuilder m(9, 3);
  m.graph().input("x").input("W").output("y");
  m.graph().initializer(make_tensor_f32("W", {1}, {1.0f}));
  m.graph().node("Add", {"x", "W"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// The same holds for a sparse initializer listed as an input.
TEST(GraphDuplicateValue, NearMissSparseInitializerAlsoListedAsInput) {
  ModelBuilder m;
  m.graph().input("x").input("S", kFloat, {4}).output("y");
  auto* sparse = m.graph().proto().add_sparse_initializer();
  *sparse->mutable_values() = make_tensor_f32("S", {1}, {5.0f});
  *sparse->mutable_indices() = make_tensor_i64("", {1}, {2});
  sparse->add_dims(4);
  m.graph().node("Add", {"x", "S"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  // ...but a sparse and a dense initializer with one name are two definitions.
  m.graph().initializer(make_tensor_f32("S", {4}, {0, 0, 5, 0}));
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-duplicate-value main:'S'"));
}

TEST(GraphDuplicateValue, NestedInLoopBody) {
  EXPECT_THAT(findings(kRule, nest_in_loop(two_producers().proto())),
              ElementsAre(std::string("graph-duplicate-value ") + kNestedPath + "/b"));
}

TEST(GraphDuplicateValue, NestedInIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_if(two_producers().proto())),
              ElementsAre(std::string("graph-duplicate-value ") + kNestedIfPath + "/b"));
}

// A subgraph node may not redefine a value of an enclosing graph.
TEST(GraphDuplicateValue, SubgraphShadowsOuterValue) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Neg", {"x"}, {"t"}, "inner_t");  // shadows main's t once nested
  inner.graph().node("Relu", {"t"}, {"z"}, "inner_z");
  // Nest it in a Loop and give the main graph its own t.
  std::string nested = nest_in_loop(inner.proto());
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nested));
  auto* producer = mp.mutable_graph()->add_node();
  producer->set_op_type("Relu");
  producer->set_name("outer_t");
  producer->add_input("x");
  producer->add_output("t");
  auto d = diagnostics(kRule, mp.SerializeAsString());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), std::string(kNestedPath) + "/inner_t");
  EXPECT_EQ(d[0].message,
            "'t' produced by inner_t shadows output 0 of outer_t of the enclosing graph 'main'");
}

// Sibling branches are separate scopes: each may define its own "t".
TEST(GraphDuplicateValue, NearMissSameNameInSiblingBranches) {
  ModelBuilder m;
  m.graph().input("c", kBool, {}).input("x").output("y");
  onnx::GraphProto then_branch, else_branch;
  GraphBuilder tb(&then_branch), eb(&else_branch);
  tb.output("t");
  tb.node("Relu", {"x"}, {"t"}, "then_t");
  eb.output("t");
  eb.node("Neg", {"x"}, {"t"}, "else_t");
  auto& n = m.graph().node("If", {"c"}, {"y"}, "branch");
  attr_graph(n, "then_branch", then_branch);
  attr_graph(n, "else_branch", else_branch);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
