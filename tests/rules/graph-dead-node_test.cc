#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-dead-node";

ModelBuilder dead_branch() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Neg", {"x"}, {"t"}, "dead_feeder");
  m.graph().node("Abs", {"t"}, {"unused"}, "dead_sink");
  return m;
}

TEST(GraphDeadNode, ReportsTheSinkOfADeadBranchOnce) {
  ModelBuilder m = dead_branch();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-dead-node main/dead_sink"));
  auto diags = diagnostics(kRule, m.bytes());
  ASSERT_EQ(diags.size(), 1u);
  ASSERT_EQ(diags[0].notes.size(), 1u);
  EXPECT_EQ(diags[0].notes[0], "1 more node only feeds it and is dead too");
}

TEST(GraphDeadNode, NearMissEveryNodeFeedsAnOutput) {
  ModelBuilder m;
  m.graph().input("x").output("y").output("z");
  m.graph().node("Relu", {"x"}, {"y"});
  m.graph().node("Neg", {"x"}, {"z"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(GraphDeadNode, NestedInLoopBody) {
  ModelBuilder m = dead_branch();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("graph-dead-node ") + kNestedPath + "/dead_sink"));
}

TEST(GraphDeadNode, NestedInIfBranch) {
  ModelBuilder m = dead_branch();
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("graph-dead-node ") + kNestedIfPath + "/dead_sink"));
}

TEST(GraphDeadNode, TwoSinksSharingAFeeder) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Neg", {"x"}, {"t"}, "feeder");
  m.graph().node("Abs", {"t"}, {"u"}, "sink_a");
  m.graph().node("Exp", {"t"}, {"v"}, "sink_b");
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("graph-dead-node main/sink_a", "graph-dead-node main/sink_b"));
}

TEST(GraphDeadNode, NodeWithoutOutputs) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Print", {"x"}, {}, "no_outputs", "custom.domain");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/no_outputs");
  EXPECT_EQ(d[0].message, "no_outputs (Print) computes no outputs but nothing uses them");
}

// A value read only inside a live node's subgraph is live.
TEST(GraphDeadNode, NearMissValueUsedOnlyBySubgraph) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"x", "outer_t"}, {"z"}, "body_add");
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* g = mp.mutable_graph();
  auto* producer = g->add_node();
  producer->set_op_type("Neg");
  producer->set_name("outer_producer");
  producer->add_input("x");
  producer->add_output("outer_t");
  g->mutable_node()->SwapElements(0, 1);  // producer first, then the Loop
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()), IsEmpty());
}

// A Loop whose outputs nobody uses is dead, and so is the node feeding only its body.
TEST(GraphDeadNode, DeadLoopCountsTheNodeFeedingItsBody) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"x", "outer_t"}, {"z"}, "body_add");
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* g = mp.mutable_graph();
  auto* producer = g->add_node();
  producer->set_op_type("Neg");
  producer->set_name("outer_producer");
  producer->add_input("x");
  producer->add_output("outer_t");
  g->mutable_node()->SwapElements(0, 1);
  g->clear_output();
  set_value_info(g->add_output(), "x", kFloat, {1});  // the model returns its input
  auto d = diagnostics(kRule, mp.SerializeAsString());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/nest");
  EXPECT_THAT(d[0].notes, ElementsAre("1 more node only feeds it and is dead too"));
}

}  // namespace
}  // namespace onnxlint::testing
