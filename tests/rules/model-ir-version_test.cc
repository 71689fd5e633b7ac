#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "model-ir-version";

ModelBuilder relu(int64_t opset, int64_t ir) {
  ModelBuilder m(opset, ir);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  return m;
}

TEST(ModelIrVersion, MissingOrZeroIsAnError) {
  ModelBuilder m = relu(13, 7);
  m.proto().clear_ir_version();
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "ir_version is missing");
  EXPECT_EQ(d[0].severity, Severity::Error);
  m.proto().set_ir_version(0);
  d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "ir_version is 0");
}

TEST(ModelIrVersion, OlderThanTheReleaseOfTheOpsetIsAWarning) {
  auto d = diagnostics(kRule, relu(13, 6).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].message,
            "ir_version 6 is older than the opsets it imports: ai.onnx 13 first "
            "shipped in ONNX 1.8.0 (IR 7)");
  // ai.onnx.ml 3 first shipped in 1.11.0 (IR 8): the strictest import leads, the other is a note.
  ModelBuilder m = relu(13, 6);
  m.opset("ai.onnx.ml", 3);
  d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("ai.onnx.ml 3 first shipped in ONNX 1.11.0 (IR 8)"));
  EXPECT_THAT(d[0].notes, ElementsAre(HasSubstr("ai.onnx 13")));
}

TEST(ModelIrVersion, NearMissMatchingPairs) {
  EXPECT_THAT(findings(kRule, relu(13, 7).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, relu(9, 4).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, relu(17, 13).bytes()), IsEmpty());
}

TEST(ModelIrVersion, NewerThanKnownIsAWarning) {
  auto d = diagnostics(kRule, relu(17, 14).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_THAT(d[0].message, HasSubstr("ir_version 14 is newer than the tables know (IR 13"));
}

ModelBuilder with_float8(int64_t ir) {
  ModelBuilder m(19, ir);
  m.graph().input("x").output("y").output("z");
  // Two float8 initializers and a Cast to int4: one finding per element type.
  m.graph().initializer(make_tensor_raw("w8", 17, {2}, 2));  // FLOAT8E4M3FN
  m.graph().initializer(make_tensor_raw("v8", 17, {2}, 2));
  m.graph().node("Relu", {"x"}, {"y"});
  attr_int(m.graph().node("Cast", {"x"}, {"z"}, "to_int4"), "to", 22);  // INT4
  return m;
}

TEST(ModelIrVersion, ElementTypeNeedsANewerIr) {
  auto d = diagnostics(kRule, with_float8(8).bytes());
  // IR 8 is also older than opset 19's release (1.14.0, IR 9): that is the warning.
  ASSERT_EQ(d.size(), 3u);
  std::vector<std::string> messages;
  for (const auto& x : d) messages.push_back(x.message);
  EXPECT_THAT(messages, ::testing::UnorderedElementsAre(
                            HasSubstr("ai.onnx 19 first shipped in ONNX 1.14.0 (IR 9)"),
                            "initializer 'w8' uses element type float8e4m3fn, which needs IR ≥ 9; "
                            "model has ir_version 8",
                            "to_int4 attribute 'to' uses element type int4, which needs IR ≥ 10; "
                            "model has ir_version 8"));
  for (const auto& x : d) {
    if (x.message.starts_with("initializer")) {
      EXPECT_EQ(x.severity, Severity::Error);
      EXPECT_THAT(x.notes, ElementsAre("1 more use of float8e4m3fn in the model"));
    }
  }
  // IR 9 knows float8 but not int4.
  EXPECT_THAT(findings(kRule, with_float8(9).bytes()),
              ElementsAre("model-ir-version main/to_int4"));
  EXPECT_THAT(findings(kRule, with_float8(10).bytes()), IsEmpty());
}

TEST(ModelIrVersion, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m(19, 9);
  m.graph().input("x").output("z");
  attr_int(m.graph().node("Cast", {"x"}, {"z"}, "to_int4"), "to", 22);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/to_int4"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/to_int4"));
}

}  // namespace
}  // namespace onnxlint::testing
