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

}  // namespace
}  // namespace onnxlint::testing
