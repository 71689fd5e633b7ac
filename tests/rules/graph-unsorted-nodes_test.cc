#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-unsorted-nodes";

ModelBuilder reversed() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Neg", {"t"}, {"y"}, "consumer");
  m.graph().node("Relu", {"x"}, {"t"}, "producer");
  return m;
}

ModelBuilder cycle() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Add", {"x", "b"}, {"a"}, "first");
  m.graph().node("Relu", {"a"}, {"b"}, "second");
  m.graph().node("Identity", {"b"}, {"y"}, "out");
  return m;
}

TEST(GraphUnsortedNodes, ConsumerBeforeProducer) {
  ModelBuilder m = reversed();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-unsorted-nodes main/consumer"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "consumer is out of topological order: it reads 't', which producer produces later");
}

// A cycle is reported once for the graph, plus the node that closes it.
TEST(GraphUnsortedNodes, Cycle) {
  EXPECT_THAT(findings(kRule, cycle().bytes()),
              ElementsAre("graph-unsorted-nodes main", "graph-unsorted-nodes main/first"));
  // Node findings sort before the graph-level one (no node index).
  auto d = diagnostics(kRule, cycle().bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[1].message, "the nodes of graph 'main' form a cycle");
  EXPECT_EQ(d[0].message,
            "first is out of topological order: it reads 'b', which second produces later");
}

TEST(GraphUnsortedNodes, NodeReadingItsOwnOutput) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Add", {"x", "y"}, {"y"}, "self");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[1].location.anchor(), "main");
  EXPECT_EQ(d[0].message,
            "self is out of topological order: it reads 'y', which self produces "
            "itself");
}

TEST(GraphUnsortedNodes, NearMissSortedGraphWithSharedInputs) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {1.0f}));
  m.graph().node("Relu", {"x"}, {"a"});
  m.graph().node("Neg", {"x"}, {"b"});
  m.graph().node("Add", {"a", "b"}, {"c"});
  m.graph().node("Mul", {"c", "w"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(GraphUnsortedNodes, NestedInLoopBody) {
  const std::string p = std::string("graph-unsorted-nodes ") + kNestedPath;
  EXPECT_THAT(findings(kRule, nest_in_loop(reversed().proto())), ElementsAre(p + "/consumer"));
  EXPECT_THAT(findings(kRule, nest_in_loop(cycle().proto())), ElementsAre(p, p + "/first"));
}

TEST(GraphUnsortedNodes, NestedInIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_if(reversed().proto())),
              ElementsAre(std::string("graph-unsorted-nodes ") + kNestedIfPath + "/consumer"));
}

// A node whose subgraph reads an outer value must come after that value's producer.
TEST(GraphUnsortedNodes, SubgraphReadsAValueProducedLater) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"x", "late"}, {"z"}, "body_add");
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* late = mp.mutable_graph()->add_node();  // after the Loop "nest"
  late->set_op_type("Relu");
  late->set_name("late_producer");
  late->add_input("x");
  late->add_output("late");
  auto d = diagnostics(kRule, mp.SerializeAsString());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/nest");
  EXPECT_EQ(d[0].message,
            "nest is out of topological order: it reads 'late', which late_producer produces "
            "later");
  // Moved before the Loop, it is in order.
  mp.mutable_graph()->mutable_node()->SwapElements(0, 1);
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
