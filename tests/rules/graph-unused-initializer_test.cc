#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "graph-unused-initializer";

ModelBuilder dead_weight() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_f32("used", {1}, {1.0f}));
  m.graph().initializer(make_tensor_raw("dead", kFloat, {512}, 2048));
  m.graph().node("Add", {"x", "used"}, {"y"});
  return m;
}

TEST(GraphUnusedInitializer, InitializerNothingReads) {
  ModelBuilder m = dead_weight();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-unused-initializer main:'dead'"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "initializer 'dead' (2.0 KiB) is never used");
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

TEST(GraphUnusedInitializer, ExternalInitializerSizeComesFromDims) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  onnx::TensorProto t;
  t.set_name("ext");
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(1024);
  t.add_dims(1024);
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* loc = t.add_external_data();
  loc->set_key("location");
  loc->set_value("weights.bin");
  m.graph().initializer(t);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "initializer 'ext' (4.0 MiB) is never used");
}

// Read by a node, read only inside a subgraph, or returned as a graph output: all used.
TEST(GraphUnusedInitializer, NearMissEveryKindOfUse) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"x", "read_by_body"}, {"z"}, "body_add");
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* g = mp.mutable_graph();
  *g->add_initializer() = make_tensor_f32("read_by_body", {1}, {1.0f});
  *g->add_initializer() = make_tensor_f32("returned", {1}, {1.0f});
  set_value_info(g->add_output(), "returned", kFloat, {1});
  EXPECT_THAT(findings(kRule, mp.SerializeAsString()), IsEmpty());
}

TEST(GraphUnusedInitializer, NestedInLoopBody) {
  EXPECT_THAT(findings(kRule, nest_in_loop(dead_weight().proto())),
              ElementsAre(std::string("graph-unused-initializer ") + kNestedPath + ":'dead'"));
}

TEST(GraphUnusedInitializer, NestedInIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_if(dead_weight().proto())),
              ElementsAre(std::string("graph-unused-initializer ") + kNestedIfPath + ":'dead'"));
}

TEST(GraphUnusedInitializer, UnusedSparseInitializer) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  auto* sparse = m.graph().proto().add_sparse_initializer();
  *sparse->mutable_values() = make_tensor_f32("S", {2}, {5.0f, 6.0f});
  *sparse->mutable_indices() = make_tensor_i64("", {2}, {0, 3});
  sparse->add_dims(100);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("graph-unused-initializer main:'S'"));
  m.graph().proto().mutable_node(0)->set_op_type("Add");
  m.graph().proto().mutable_node(0)->add_input("S");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
