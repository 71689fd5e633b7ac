#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-initializer-as-input";

// keep_initializers_as_inputs=True: both weights are also graph inputs.
ModelBuilder weights_as_inputs(int64_t ir_version = 8) {
  ModelBuilder m(13, ir_version);
  m.graph().input("x").input("fc.weight").input("fc.bias").output("y");
  m.graph().initializer(make_tensor_f32("fc.weight", {1}, {2.0f}));
  m.graph().initializer(make_tensor_f32("fc.bias", {1}, {0.5f}));
  m.graph().node("Mul", {"x", "fc.weight"}, {"t"});
  m.graph().node("Add", {"t", "fc.bias"}, {"y"});
  return m;
}

TEST(GraphInitializerAsInput, OneFindingForTheWholeGraph) {
  ModelBuilder m = weights_as_inputs();
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("graph-initializer-as-input main:'fc.weight'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "2 of 2 initializers are also listed as graph inputs, so a runtime "
            "must treat them as overridable inputs");
  EXPECT_THAT(d[0].notes, ElementsAre("initializers listed as inputs: fc.weight, fc.bias"));
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

TEST(GraphInitializerAsInput, LongListIsCut) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  std::string prev = "x";
  for (int i = 0; i < 10; ++i) {
    std::string w = "w" + std::to_string(i);
    m.graph().input(w);
    m.graph().initializer(make_tensor_f32(w, {1}, {1.0f}));
    std::string out = i == 9 ? "y" : "t" + std::to_string(i);
    m.graph().node("Add", {prev, w}, {out});
    prev = out;
  }
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].notes, ElementsAre("initializers listed as inputs: w0, w1, w2, w3, w4, w5, "
                                      "w6, w7, … (2 more)"));
}

// Before IR 4 every initializer had to be an input: not a finding.
TEST(GraphInitializerAsInput, NearMissIrVersion3) {
  EXPECT_THAT(findings(kRule, weights_as_inputs(3).bytes()), IsEmpty());
}

TEST(GraphInitializerAsInput, NearMissInitializersNotInputs) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {2.0f}));
  m.graph().node("Mul", {"x", "w"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// Main graph only: the cause is one export flag for the model's inputs. A subgraph input that
// shares a name with a subgraph initializer is a different (and odd) thing, not reported.
TEST(GraphInitializerAsInput, SubgraphsAreNotChecked) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().initializer(make_tensor_f32("w", {1}, {2.0f}));
  inner.graph().node("Mul", {"x", "w"}, {"z"});
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* body = mp.mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_g();
  set_value_info(body->add_input(), "w", kFloat, {1});
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()), IsEmpty());
  // Nesting moves the initializers into the body, away from the main graph's inputs: the
  // inputs now name outer values no initializer backs, so there is nothing to report.
  EXPECT_THAT(findings(kRule, nest_in_loop(weights_as_inputs().proto())), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
