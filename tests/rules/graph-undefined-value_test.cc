#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-undefined-value";

ModelBuilder reads_ghost() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Add", {"x", "ghost"}, {"y"}, "add");
  return m;
}

TEST(GraphUndefinedValue, InputNamedNowhere) {
  ModelBuilder m = reads_ghost();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-undefined-value main/add"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "input 1 'ghost' of add is not a graph input, initializer or output of any node in "
            "scope");
  EXPECT_EQ(d[0].location.value_name, "ghost");
  EXPECT_EQ(d[0].severity, Severity::Error);
}

TEST(GraphUndefinedValue, OneFindingPerUndefinedInput) {
  ModelBuilder m;
  m.graph().input("x").output("y").output("z");
  m.graph().node("Add", {"a", "b"}, {"y"}, "first");
  m.graph().node("Relu", {"c"}, {"z"}, "second");
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("graph-undefined-value main/first", "graph-undefined-value main/first",
                          "graph-undefined-value main/second"));
}

// Inputs, initializers, node outputs (even produced later: that is graph-unsorted-nodes) and
// omitted optional inputs ("") are all defined.
TEST(GraphUndefinedValue, NearMissEverySourceOfAValue) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {2.0f}));
  m.graph().node("Mul", {"t", "w"}, {"y"}, "reads_later");
  m.graph().node("Clip", {"x", "", ""}, {"t"}, "optional_inputs_omitted");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(GraphUndefinedValue, NestedInLoopBody) {
  EXPECT_THAT(findings(kRule, nest_in_loop(reads_ghost().proto())),
              ElementsAre(std::string("graph-undefined-value ") + kNestedPath + "/add"));
}

TEST(GraphUndefinedValue, NestedInIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_if(reads_ghost().proto())),
              ElementsAre(std::string("graph-undefined-value ") + kNestedIfPath + "/add"));
}

// A subgraph sees the enclosing graph's values (lexical scope): no finding.
TEST(GraphUndefinedValue, NearMissOuterScopeValue) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"outer"}, "producer");
  m.graph().node("Add", {"x", "outer"}, {"y"}, "add");
  // The body reads x and "outer" from the main graph.
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())), IsEmpty());
}

// A value defined in one branch is not visible in the other (sibling scopes).
TEST(GraphUndefinedValue, SiblingSubgraphValueIsNotInScope) {
  ModelBuilder m;
  m.graph().input("c", kBool, {}).output("y");
  onnx::GraphProto then_branch;
  GraphBuilder tb(&then_branch);
  tb.output("t_out");
  attr_tensor(tb.node("Constant", {}, {"t_out"}, "then_const"), "value",
              make_tensor_f32("", {1}, {1.0f}));
  onnx::GraphProto else_branch;
  GraphBuilder eb(&else_branch);
  eb.output("e_out");
  eb.node("Identity", {"t_out"}, {"e_out"}, "else_reads_then");
  auto& n = m.graph().node("If", {"c"}, {"y"}, "branch");
  attr_graph(n, "then_branch", then_branch);
  attr_graph(n, "else_branch", else_branch);
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("graph-undefined-value main/branch:else_branch/else_reads_then"));
}

}  // namespace
}  // namespace onnxlint::testing
