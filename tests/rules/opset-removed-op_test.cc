#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-removed-op";

ModelBuilder upsample(int64_t opset) {
  ModelBuilder m(opset, 8);
  m.graph().input("x", kFloat, {1, 1, 2, 2}).input("scales", kFloat, {4}).output("y");
  attr_string(m.graph().node("Upsample", {"x", "scales"}, {"y"}, "up"), "mode", "nearest");
  return m;
}

TEST(OpsetRemovedOp, UpsampleFromOpsetTenNamesResize) {
  auto d = diagnostics(kRule, upsample(11).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/up");
  EXPECT_EQ(d[0].message,
            "Upsample 'up' is removed from opset 10 on; model imports 11: use Resize instead");
  EXPECT_THAT(d[0].notes, ElementsAre("Upsample-9 is the last version, valid up to opset 9"));
  EXPECT_THAT(d[0].help, HasSubstr("opset_version=10"));
}

TEST(OpsetRemovedOp, NearMissUpsampleAtNine) {
  EXPECT_THAT(findings(kRule, upsample(9).bytes()), IsEmpty());
}

TEST(OpsetRemovedOp, ScatterAndGroupNormalization) {
  ModelBuilder m(18, 8);
  m.graph().input("x").input("i", kInt64, {1}).input("u").input("s").input("b");
  m.graph().output("y").output("z");
  m.graph().node("Scatter", {"x", "i", "u"}, {"y"}, "sc");
  attr_int(m.graph().node("GroupNormalization", {"x", "s", "b"}, {"z"}, "gn"), "num_groups", 1);
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("opset-removed-op main/gn", "opset-removed-op main/sc"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 2u);  // in node order
  EXPECT_EQ(d[0].message,
            "Scatter 'sc' is removed from opset 11 on; model imports 18: use ScatterElements "
            "instead");
  EXPECT_EQ(d[1].message,
            "GroupNormalization 'gn' is withdrawn at opset 18 to 20; model imports 18: use "
            "GroupNormalization-21 instead");
  // GroupNormalization-21 replaces the withdrawn version; Scatter stays removed.
  m.proto().mutable_opset_import(0)->set_version(21);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("opset-removed-op main/sc"));
}

TEST(OpsetRemovedOp, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = upsample(11);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/up"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/up"));
}

}  // namespace
}  // namespace onnxlint::testing
