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

// One cause, one finding: per-axis DequantizeLinear with an `axis` attribute at opset 12 is this
// rule's (it says what per-axis quantization needs); opset-too-low leaves the axis to it.
TEST(QuantPerChannelOpset, OpsetTooLowLeavesTheAxisToThisRule) {
  ModelBuilder m = dq_weight(12, 8, 8, 8);
  for (auto& n : *m.proto().mutable_graph()->mutable_node()) attr_int(n, "axis", 0);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("quant-per-channel-opset main/dq_w"));
  EXPECT_THAT(findings("opset-too-low", m.bytes()), IsEmpty());
  // A scalar scale with an axis: not per-axis, so the attribute is opset-too-low's.
  ModelBuilder scalar = dq_weight(12, 8, 0, 0);
  for (auto& n : *scalar.proto().mutable_graph()->mutable_node()) attr_int(n, "axis", 0);
  EXPECT_THAT(findings("opset-too-low", scalar.bytes()), ElementsAre("opset-too-low main/dq_w"));
  // An op too old for its own sake is still opset-too-low's.
  ModelBuilder old = dq_weight(9, 8, 0, 0);
  EXPECT_THAT(findings("opset-too-low", old.bytes()), ElementsAre("opset-too-low main/dq_w"));
}

}  // namespace
}  // namespace onnxlint::testing
