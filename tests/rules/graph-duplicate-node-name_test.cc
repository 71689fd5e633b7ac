#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-duplicate-node-name";

ModelBuilder same_names() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"t"}, "layer");
  m.graph().node("Neg", {"t"}, {"y"}, "layer");
  return m;
}

TEST(GraphDuplicateNodeName, TwoNodesOneName) {
  ModelBuilder m = same_names();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-duplicate-node-name main/layer"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.node_index, 1u);
  EXPECT_EQ(d[0].message, "node name 'layer' is already used by node 0 of graph 'main'");
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

TEST(GraphDuplicateNodeName, NearMissUniqueAndEmptyNames) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"a"}, "a").clear_name();
  m.graph().node("Relu", {"a"}, {"b"}, "b").clear_name();
  m.graph().node("Neg", {"b"}, {"y"}, "unique");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// The set is sized for the first graph (here the small main graph); a Loop body of 300 names
// then grows it several times. Every duplicate is found against its first node, and only those
// are.
TEST(GraphDuplicateNodeName, ManyNamesAcrossGrowth) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  std::string prev = "x";
  for (int i = 0; i < 300; ++i) {
    const std::string out = "v" + std::to_string(i);
    // Nodes 100 and 250 reuse the names of nodes 7 and 99.
    const std::string name = i == 100 ? "n7" : i == 250 ? "n99" : "n" + std::to_string(i);
    m.graph().node("Relu", {prev}, {out}, name);
    prev = out;
  }
  m.graph().node("Neg", {prev}, {"y"}, "last");
  auto d = diagnostics(kRule, nest_in_loop(m.proto()));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].location.node_index, 100u);
  EXPECT_EQ(d[0].message,
            fmt::format("node name 'n7' is already used by node 7 of graph '{}'", kNestedPath));
  EXPECT_EQ(d[1].location.node_index, 250u);
  EXPECT_EQ(d[1].message,
            fmt::format("node name 'n99' is already used by node 99 of graph '{}'", kNestedPath));
}

TEST(GraphDuplicateNodeName, NestedInLoopBody) {
  EXPECT_THAT(findings(kRule, nest_in_loop(same_names().proto())),
              ElementsAre(std::string("graph-duplicate-node-name ") + kNestedPath + "/layer"));
}

// Names are unique across the main graph and its subgraphs: a body node named like the Loop
// that holds it is a duplicate.
TEST(GraphDuplicateNodeName, SubgraphNodeReusesAnOuterName) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "nest");
  auto d = diagnostics(kRule, nest_in_loop(m.proto()));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), std::string(kNestedPath) + "/nest");
  EXPECT_EQ(d[0].message, "node name 'nest' is already used by node 0 of graph 'main'");
}

// A model-local function with node "layer" (and an If inside it whose branch has a node
// "layer" too) next to a main graph with a node "layer".
onnx::ModelProto with_function() {
  ModelBuilder m;
  m.opset("custom", 1);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"t"}, "layer");
  m.graph().node("F", {"t"}, {"y"}, "call", "custom");
  onnx::ModelProto mp = m.proto();
  auto* f = mp.add_functions();
  f->set_name("F");
  f->set_domain("custom");
  f->add_input("a");
  f->add_output("b");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(17);
  auto* cond = f->add_node();
  cond->set_op_type("Constant");
  cond->set_name("cond");
  cond->add_output("c");
  attr_tensor(*cond, "value", make_tensor_bool("", true));
  auto* layer = f->add_node();
  layer->set_op_type("Relu");
  layer->set_name("layer");
  layer->add_input("a");
  layer->add_output("r");
  onnx::GraphProto branch;
  GraphBuilder bb(&branch);
  bb.output("o");
  bb.node("Identity", {"r"}, {"o"}, "in_branch");
  auto* iff = f->add_node();
  iff->set_op_type("If");
  iff->set_name("branch");
  iff->add_input("c");
  iff->add_output("b");
  attr_graph(*iff, "then_branch", branch);
  attr_graph(*iff, "else_branch", branch);
  return mp;
}

// Each function body (with its subgraphs) is its own namespace: "layer" in the main graph and
// in F is fine; "in_branch" in both branches of F's If is not.
TEST(GraphDuplicateNodeName, FunctionBodyIsASeparateNamespace) {
  onnx::ModelProto mp = with_function();
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()),
              ElementsAre("graph-duplicate-node-name fn:custom::F/branch:else_branch/in_branch"));
}

TEST(GraphDuplicateNodeName, DuplicateInsideAFunctionSubgraph) {
  onnx::ModelProto mp = with_function();
  // The then branch's node now repeats the function's "layer"; the else branch still
  // repeats the then branch's "in_branch".
  mp.mutable_functions(0)
      ->mutable_node(2)
      ->mutable_attribute(0)
      ->mutable_g()
      ->mutable_node(0)
      ->set_name("layer");
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()),
              ElementsAre("graph-duplicate-node-name fn:custom::F/branch:then_branch/layer"));
}

// Two levels down inside a function, names still belong to the function's namespace.
TEST(GraphDuplicateNodeName, DeeplyNestedFunctionSubgraph) {
  onnx::ModelProto mp = with_function();
  auto deep = [&](const std::string& name) {
    onnx::ModelProto copy = mp;
    onnx::GraphProto leaf;
    GraphBuilder lb(&leaf);
    lb.output("o2");
    lb.node("Identity", {"r"}, {"o2"}, name);
    onnx::GraphProto other;
    GraphBuilder ob(&other);
    ob.output("o3");
    ob.node("Identity", {"r"}, {"o3"}, name + "_other");
    auto* then_g = copy.mutable_functions(0)->mutable_node(2)->mutable_attribute(0)->mutable_g();
    then_g->clear_node();
    auto* inner_if = then_g->add_node();
    inner_if->set_op_type("If");
    inner_if->set_name("inner_if");
    inner_if->add_input("c");
    inner_if->add_output("o");
    attr_graph(*inner_if, "then_branch", leaf);
    attr_graph(*inner_if, "else_branch", other);
    // The else branch keeps its node "in_branch", now unique.
    return copy.SerializeAsString();
  };
  // "call" is a main-graph name only: no finding.
  EXPECT_THAT(findings(kRule, deep("call")), IsEmpty());
  // "cond" is a node of F: a duplicate.
  EXPECT_THAT(findings(kRule, deep("cond")),
              ElementsAre("graph-duplicate-node-name "
                          "fn:custom::F/branch:then_branch/inner_if:then_branch/cond"));
}

}  // namespace
}  // namespace onnxlint::testing
