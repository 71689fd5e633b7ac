#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr const char* kRule = "opset-invalid-type";

// Relu-13 takes float types only; Relu-14 added the signed integers.
ModelBuilder relu_on_int64(int64_t opset) {
  ModelBuilder m(opset, 8);
  m.graph().input("x", kInt64, {3}).output("y", kInt64, {3});
  m.graph().node("Relu", {"x"}, {"y"}, "relu");
  return m;
}

TEST(OpsetInvalidType, GraphInputTypeNotAllowed) {
  auto d = diagnostics(kRule, relu_on_int64(13).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/relu");
  EXPECT_THAT(d[0].message, HasSubstr("Relu 'relu': input 'x' is int64, which Relu-13 does not "
                                      "allow for T (allowed: float16, float, double, bfloat16)"));
  EXPECT_THAT(d[0].help, HasSubstr("Cast"));
}

// The rule remembers the argument types a node of an op passed with; a later node of the same
// op is checked again when any of its types differs (also in a subgraph and after many clean
// nodes of other ops), and a node with the same types as a bad one is reported too.
TEST(OpsetInvalidType, AVerdictIsReusedOnlyForTheSameOpAndTypes) {
  ModelBuilder m(13, 8);
  m.graph().input("f", kFloat, {3}).input("i", kInt64, {3}).output("o", kFloat, {3});
  m.graph().node("Relu", {"f"}, {"a"}, "relu_float");
  m.graph().node("Relu", {"i"}, {"b"}, "relu_int");
  for (int k = 0; k < 300; ++k) {  // past the verdict cache's 256 slots
    m.graph().node("Neg", {k == 0 ? "f" : "n" + std::to_string(k - 1)}, {"n" + std::to_string(k)});
  }
  m.graph().node("Relu", {"f"}, {"c"}, "relu_float_again");
  m.graph().node("Relu", {"i"}, {"d"}, "relu_int_again");
  m.graph().node("Add", {"a", "c"}, {"o"}, "add");
  m.graph().node("Add", {"a", "i"}, {"mixed"}, "add_mixed");
  EXPECT_THAT(
      findings(kRule, m.bytes()),
      UnorderedElementsAre("opset-invalid-type main/add_mixed", "opset-invalid-type main/relu_int",
                           "opset-invalid-type main/relu_int_again"));
}

TEST(OpsetInvalidType, NearMissTypeAllowedAtTheImportedOpset) {
  EXPECT_THAT(findings(kRule, relu_on_int64(14).bytes()), IsEmpty());
}

TEST(OpsetInvalidType, UnknownTypesAreNeverGuessed) {
  ModelBuilder m(13, 8);
  m.graph().input("x").output("y");
  m.graph().node("Abs", {"x"}, {"t"});  // t has no declared type
  m.graph().node("Relu", {"t"}, {"y"}, "relu");
  m.proto().mutable_graph()->mutable_output(0)->clear_type();
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(OpsetInvalidType, CastConstantAndInitializerTypesAreKnown) {
  ModelBuilder m(13, 8);
  m.graph().input("x").output("a").output("b").output("c");
  attr_int(m.graph().node("Cast", {"x"}, {"xi"}), "to", kInt64);
  m.graph().node("Relu", {"xi"}, {"a"}, "relu_cast");
  m.graph().constant_i64("k", {1, 2});
  m.graph().node("Sigmoid", {"k"}, {"b"}, "sigmoid_const");
  m.graph().initializer(make_tensor_i64("w", {1}, {3}));
  m.graph().node("Add", {"x", "w"}, {"c"}, "add_mixed");  // float + int64: both bind T
  m.proto().mutable_graph()->clear_output();
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("opset-invalid-type main/add_mixed", "opset-invalid-type main/relu_cast",
                          "opset-invalid-type main/sigmoid_const"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_THAT(d[2].message,
              HasSubstr("input 'w' is int64 but 'x' is float; both bind T of Add-13"));
}

TEST(OpsetInvalidType, OutputTypesFixedByTheSchema) {
  ModelBuilder m(13, 8);
  m.graph().input("x").output("y");
  m.graph().node("Shape", {"x"}, {"s"});  // Shape-13's output is always int64
  m.graph().node("Sigmoid", {"s"}, {"y"}, "sigmoid");
  m.proto().mutable_graph()->mutable_output(0)->clear_type();
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("input 's' is int64, which Sigmoid-13 does not allow"));
}

TEST(OpsetInvalidType, ConcreteParameterTypes) {
  ModelBuilder m(13, 8);
  m.graph().input("x").input("shape", kInt32, {1}).output("y");
  m.graph().node("Reshape", {"x", "shape"}, {"y"}, "reshape");  // shape must be int64
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Reshape 'reshape': input 'shape' is int32, but input 'shape' of Reshape-13 must be "
            "int64");
}

TEST(OpsetInvalidType, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = relu_on_int64(13);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/relu"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/relu"));
}

}  // namespace
}  // namespace onnxlint::testing
