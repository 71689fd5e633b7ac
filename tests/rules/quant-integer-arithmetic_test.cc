#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/quant_support.h"
#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "quant-integer-arithmetic";

// x → QuantizeLinear → xq (uint8); `tail` adds what reads xq and the output y.
ModelBuilder quantized(int64_t opset = 14) {
  ModelBuilder m(opset, 8);
  m.graph().input("x", kFloat, {2, 4});
  m.graph().initializer(make_tensor_f32("s", {}, {0.5f}));
  m.graph().initializer(make_tensor_i8("z", {}, {128}, onnx::TensorProto::UINT8));
  m.graph().node("QuantizeLinear", {"x", "s", "z"}, {"xq"}, "q");
  return m;
}

TEST(QuantIntegerArithmetic, AddOnTheCodes) {
  ModelBuilder m = quantized();
  m.graph().node("Add", {"xq", "xq"}, {"y"}, "add");
  m.graph().output("y", kUint8, {2, 4});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/add");
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].message,
            "Add 'add' computes with the integer codes of QuantizeLinear 'q' (input 0) as if "
            "they were values: the scale and zero point are never applied");
  EXPECT_THAT(d[0].help, HasSubstr("DequantizeLinear"));
}

TEST(QuantIntegerArithmetic, ThroughOpsThatMoveCodes) {
  // Reshape and a Cast to float keep the codes: MatMul then multiplies codes.
  ModelBuilder m = quantized();
  m.graph().initializer(make_tensor_i64("shape", {2}, {4, 2}));
  m.graph().initializer(make_tensor_f32("w", {2, 3}, {1, 2, 3, 4, 5, 6}));
  m.graph().node("Reshape", {"xq", "shape"}, {"r"}, "reshape");
  attr_int(m.graph().node("Cast", {"r"}, {"rf"}, "to_float"), "to", kFloat);
  m.graph().node("MatMul", {"w", "rf"}, {"y"}, "mm");
  m.graph().output("y", kFloat, {2, 2});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/mm");
  EXPECT_THAT(d[0].message, HasSubstr("(input 1, through Cast 'to_float' → Reshape 'reshape')"));
}

TEST(QuantIntegerArithmetic, NearMisses) {
  // Dequantized first: the usual QDQ pattern.
  ModelBuilder dq = quantized();
  dq.graph().node("DequantizeLinear", {"xq", "s", "z"}, {"xf"}, "dq");
  dq.graph().node("Add", {"xf", "xf"}, {"y"}, "add");
  dq.graph().output("y", kFloat, {2, 4});
  EXPECT_THAT(findings(kRule, dq.bytes()), IsEmpty());
  // torch's same-type Cast between the pair, then DequantizeLinear.
  ModelBuilder cast = quantized();
  attr_int(cast.graph().node("Cast", {"xq"}, {"xc"}, "cast"), "to", kUint8);
  cast.graph().node("DequantizeLinear", {"xc", "s", "z"}, {"xf"}, "dq");
  cast.graph().node("Mul", {"xf", "xf"}, {"y"}, "mul");
  cast.graph().output("y", kFloat, {2, 4});
  EXPECT_THAT(findings(kRule, cast.bytes()), IsEmpty());
  // An op that only compares codes of one QuantizeLinear (order is kept): not arithmetic.
  ModelBuilder max = quantized();
  max.graph().node("Max", {"xq", "xq"}, {"y"}, "max");
  max.graph().output("y", kUint8, {2, 4});
  EXPECT_THAT(findings(kRule, max.bytes()), IsEmpty());
  // Arithmetic on a graph input of type uint8 (not a QuantizeLinear's codes).
  ModelBuilder plain(14, 8);
  plain.graph().input("a", kUint8, {4}).output("y", kUint8, {4});
  plain.graph().node("Add", {"a", "a"}, {"y"}, "add");
  EXPECT_THAT(findings(kRule, plain.bytes()), IsEmpty());
}

TEST(QuantIntegerArithmetic, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = quantized();
  m.graph().node("Add", {"xq", "xq"}, {"y"}, "add");
  m.graph().output("y", kUint8, {2, 4});
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/add"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/add"));
}

}  // namespace
}  // namespace onnxlint::testing
