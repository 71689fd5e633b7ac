#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/quant_support.h"
#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "quant-per-channel-opset";

TEST(QuantPerChannelOpset, PerAxisScaleAtOpset10) {
  // At opset 10 the weight's channels are axis 1 (no `axis` attribute): 3 channels.
  auto d = diagnostics(kRule, dq_weight(10, 8, 3, 3).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/dq_w");
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message,
            "DequantizeLinear 'dq_w' has 3 per-axis scales in 'w_scale', but "
            "DequantizeLinear-10 (opset 10) takes a scalar scale only: per-axis quantization "
            "needs opset 13");
  EXPECT_THAT(d[0].help, HasSubstr("opset_version=13"));
}

TEST(QuantPerChannelOpset, QuantScaleLengthLeavesItToThisRule) {
  EXPECT_THAT(findings("quant-scale-length", dq_weight(10, 8, 8, 8).bytes()), IsEmpty());
}

TEST(QuantPerChannelOpset, NearMisses) {
  EXPECT_THAT(findings(kRule, dq_weight(13, 8, 8, 8, 0).bytes()), IsEmpty());  // opset 13
  EXPECT_THAT(findings(kRule, dq_weight(10, 8, 0, 0).bytes()), IsEmpty());     // scalar
  EXPECT_THAT(findings(kRule, dq_weight(12, 8, 1, 0).bytes()), IsEmpty());     // one element
}

TEST(QuantPerChannelOpset, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = dq_weight(11, 8, 3, 3);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/dq_w"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/dq_w"));
}

}  // namespace
}  // namespace onnxlint::testing
