#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/quant_support.h"
#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "quant-scale-length";

TEST(QuantScaleLength, ScaleLengthDiffersFromTheAxis) {
  auto d = diagnostics(kRule, dq_weight(13, 8, 3).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/dq_w");
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message,
            "DequantizeLinear 'dq_w' has 3 per-axis scales in 'w_scale' but 'w' [8,3] has 8 "
            "elements along axis 0");
  EXPECT_THAT(d[0].help, HasSubstr("quantize_static(..., per_channel=True)"));
}

TEST(QuantScaleLength, AxisOutOfRangeScaleRankAndZeroPointShape) {
  EXPECT_THAT(diagnostics(kRule, dq_weight(13, 8, 8, -1, 2).bytes())[0].message,
              HasSubstr("along axis 2, which it does not have"));
  // Zero point with another length than the scale.
  auto d = diagnostics(kRule, dq_weight(13, 8, 8, 4).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "DequantizeLinear 'dq_w' has a zero point 'w_zero' of shape [4] but a scale "
            "'w_scale' of shape [8]: they must have the same shape");
  // A 2-D scale without block_size.
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {2, 4}).output("y", kInt8, {2, 4});
  m.graph().initializer(make_tensor_f32("s", {2, 4}, std::vector<float>(8, 1.0f)));
  m.graph().initializer(make_tensor_i8("z", {}, {0}));
  m.graph().node("QuantizeLinear", {"x", "s", "z"}, {"y"}, "q");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("quant-scale-length main/q"));
}

TEST(QuantScaleLength, NearMisses) {
  EXPECT_THAT(findings(kRule, dq_weight(13, 8, 8, 8).bytes()), IsEmpty());     // per channel
  EXPECT_THAT(findings(kRule, dq_weight(13, 8, 0, 0).bytes()), IsEmpty());     // per tensor
  EXPECT_THAT(findings(kRule, dq_weight(13, 8, 1, 0).bytes()), IsEmpty());     // [1] vs scalar
  EXPECT_THAT(findings(kRule, dq_weight(13, 3, 3, 3, 1).bytes()), IsEmpty());  // default axis
  // The quantized tensor's axis is dynamic: nothing to compare.
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {"n", "c"}).output("y", kInt8, {"n", "c"});
  m.graph().initializer(make_tensor_f32("s", {4}, {1, 1, 1, 1}));
  m.graph().node("QuantizeLinear", {"x", "s"}, {"y"}, "q");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(QuantScaleLength, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = dq_weight(13, 8, 3);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/dq_w"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/dq_w"));
}

}  // namespace
}  // namespace onnxlint::testing
