#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-invalid-arity";

ModelBuilder bad_arity() {
  ModelBuilder m(17, 8);
  m.graph().input("x").input("w").output("y").output("z");
  m.graph().node("Relu", {"x", "w"}, {"y"}, "relu");
  m.graph().node("Conv", {"x", ""}, {"z"}, "conv");
  return m;
}

TEST(OpsetInvalidArity, TooManyInputsAndAnEmptyRequiredOne) {
  EXPECT_THAT(findings(kRule, bad_arity().bytes()),
              ElementsAre("opset-invalid-arity main/conv", "opset-invalid-arity main/relu"));
  auto d = diagnostics(kRule, bad_arity().bytes());
  ASSERT_EQ(d.size(), 2u);  // in node order
  EXPECT_EQ(d[0].message, "Relu 'relu' has 2 inputs; Relu-14 takes exactly 1");
  EXPECT_EQ(d[1].message, "Conv 'conv' leaves required input 'W' (#1) of Conv-11 empty");
}

TEST(OpsetInvalidArity, OutputsAndVariadics) {
  ModelBuilder m(17, 8);
  m.graph().input("x").output("a").output("b");
  m.graph().node("Relu", {"x"}, {"a", "b"}, "relu");
  m.graph().node("Concat", {}, {"c"}, "cat");
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("opset-invalid-arity main/cat", "opset-invalid-arity main/relu"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_THAT(d[0].message, HasSubstr("has 2 outputs; Relu-14 takes exactly 1"));
  EXPECT_THAT(d[1].message, HasSubstr("has 0 inputs; Concat-13 takes at least 1"));
}

TEST(OpsetInvalidArity, NearMissOptionalInputsSkippedWithEmptyNames) {
  ModelBuilder m(17, 8);
  m.graph().input("x").input("mx").output("y").output("z");
  m.graph().node("Clip", {"x", "", "mx"}, {"y"}, "clip");
  m.graph().node("Concat", {"x", "x", "mx"}, {"z"}, "cat");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(OpsetInvalidArity, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = bad_arity();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/conv",
                          std::string(kRule) + " " + kNestedPath + "/relu"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/conv",
                          std::string(kRule) + " " + kNestedIfPath + "/relu"));
}

}  // namespace
}  // namespace onnxlint::testing
