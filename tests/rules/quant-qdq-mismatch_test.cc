#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/quant_support.h"
#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "quant-qdq-mismatch";

// x → QuantizeLinear(qs, qz) → DequantizeLinear(ds, dz) → y
ModelBuilder pair(float qs, int32_t qz, float ds, int32_t dz, bool share = false) {
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {4}).output("y", kFloat, {4});
  m.graph().initializer(make_tensor_f32("qs", {}, {qs}));
  m.graph().initializer(make_tensor_i8("qz", {}, {qz}, onnx::TensorProto::UINT8));
  if (!share) {
    m.graph().initializer(make_tensor_f32("ds", {}, {ds}));
    m.graph().initializer(make_tensor_i8("dz", {}, {dz}, onnx::TensorProto::UINT8));
  }
  m.graph().node("QuantizeLinear", {"x", "qs", "qz"}, {"xq"}, "q");
  m.graph().node("DequantizeLinear", {"xq", share ? "qs" : "ds", share ? "qz" : "dz"}, {"y"}, "dq");
  return m;
}

TEST(QuantQdqMismatch, ScaleOrZeroPointDiffers) {
  auto d = diagnostics(kRule, pair(0.5f, 128, 0.25f, 128).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/dq");
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].message,
            "DequantizeLinear 'dq' dequantizes the output of QuantizeLinear 'q' with other "
            "parameters than it was quantized with (scale 0.5 vs 0.25), so the values come out "
            "rescaled");
  EXPECT_THAT(d[0].help, HasSubstr("quantize_static"));
  EXPECT_THAT(diagnostics(kRule, pair(0.5f, 128, 0.5f, 0).bytes())[0].message,
              HasSubstr("(zero point 128 vs 0)"));
}

TEST(QuantQdqMismatch, ThroughTorchsSameTypeCast) {
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {4}).output("y", kFloat, {4});
  m.graph().initializer(make_tensor_f32("qs", {}, {0.5f}));
  m.graph().initializer(make_tensor_f32("ds", {}, {0.125f}));
  m.graph().initializer(make_tensor_i8("z", {}, {0}, onnx::TensorProto::UINT8));
  m.graph().node("QuantizeLinear", {"x", "qs", "z"}, {"xq"}, "q");
  attr_int(m.graph().node("Cast", {"xq"}, {"xc"}, "cast"), "to", kUint8);
  m.graph().node("DequantizeLinear", {"xc", "ds", "z"}, {"y"}, "dq");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("quant-qdq-mismatch main/dq"));
}

TEST(QuantQdqMismatch, NearMisses) {
  EXPECT_THAT(findings(kRule, pair(0.5f, 128, 0.5f, 128).bytes()), IsEmpty());   // equal values
  EXPECT_THAT(findings(kRule, pair(0.5f, 128, 0, 0, true).bytes()), IsEmpty());  // shared
  // Scale computed at run time: not compared.
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {4}).input("s", kFloat, {}).output("y", kFloat, {4});
  m.graph().initializer(make_tensor_f32("qs", {}, {0.5f}));
  m.graph().node("QuantizeLinear", {"x", "qs"}, {"xq"}, "q");
  m.graph().node("DequantizeLinear", {"xq", "s"}, {"y"}, "dq");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(QuantQdqMismatch, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = pair(0.5f, 128, 0.25f, 128);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/dq"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/dq"));
}

}  // namespace
}  // namespace onnxlint::testing
