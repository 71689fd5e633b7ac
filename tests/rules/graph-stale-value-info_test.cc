#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-stale-value-info";

// value_info says 's' is float; Shape computes int64.
ModelBuilder stale_shape() {
  ModelBuilder m;
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {2, 3});
  m.graph().node("Shape", {"x"}, {"s"}, "shape");
  m.graph().node("Reshape", {"x", "s"}, {"y"}, "reshape");
  m.graph().value_info("s", kFloat, {2});
  return m;
}

TEST(GraphStaleValueInfo, ValueInfoContradictsTheSchema) {
  ModelBuilder m = stale_shape();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-stale-value-info main:'s'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "value_info 's' is declared tensor(float), but Shape 'shape' computes tensor(int64)");
  EXPECT_EQ(d[0].severity, Severity::Error);
}

TEST(GraphStaleValueInfo, GraphOutputContradictsCast) {
  ModelBuilder m;
  m.graph().input("x").output("y", kFloat);
  attr_int(m.graph().node("Cast", {"x"}, {"y"}, "cast"), "to", kInt64);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "graph output 'y' is declared tensor(float), but Cast 'cast' computes tensor(int64)");
}

TEST(GraphStaleValueInfo, NearMissDeclarationsThatAgreeOrAddWhatInferenceCannotKnow) {
  ModelBuilder m;
  m.graph().input("x", kFloat, {2, 3}).output("y", kInt64, {2}).output("z", kFloat);
  m.graph().node("Shape", {"x"}, {"s"});
  m.graph().node("Identity", {"s"}, {"y"});
  // A custom op's output type is not inferred: its declaration is the only fact.
  m.opset("custom.domain", 1);
  m.graph().node("Mystery", {"x"}, {"c"}, "mystery", "custom.domain");
  m.graph().node("Relu", {"c"}, {"z"});
  m.graph().value_info("s", kInt64, {2});
  m.graph().value_info("c", kFloat, {1});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(GraphStaleValueInfo, NestedInLoopBody) {
  EXPECT_THAT(findings(kRule, nest_in_loop(stale_shape().proto())),
              ElementsAre(std::string("graph-stale-value-info ") + kNestedPath + ":'s'"));
}

TEST(GraphStaleValueInfo, NestedInIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_if(stale_shape().proto())),
              ElementsAre(std::string("graph-stale-value-info ") + kNestedIfPath + ":'s'"));
}

}  // namespace
}  // namespace onnxlint::testing

namespace onnxlint::testing {
namespace {

TEST(GraphStaleValueInfo, LoopBodyInputDeclaredWithAnotherType) {
  ModelBuilder body_m(17);
  GraphBuilder body = body_m.graph();
  body.input("i", kInt64, {}, false).input("c", kBool, {}, false).input("acc", kInt8, {}, false);
  body.output("c_out", kBool, {}, false).output("acc_out", 0, {}, false);
  body.node("Identity", {"c"}, {"c_out"});
  body.node("Identity", {"acc"}, {"acc_out"});
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {1}).output("final", 0, {}, false);
  m.graph().initializer(make_tensor_i64("n", {}, {3}));
  m.graph().initializer(make_tensor_bool("go", true));
  attr_graph(m.graph().node("Loop", {"n", "go", "x"}, {"final"}, "loop"), "body", body.proto());
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "subgraph input 'acc' is declared tensor(int8), but Loop 'loop' passes in "
            "tensor(float)");
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("graph-stale-value-info main/loop:body:'acc'"));
}

}  // namespace
}  // namespace onnxlint::testing
