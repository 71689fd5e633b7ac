#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/analysis.h>
#include <onnxlint/loader.h>

#include "rules/opset/op_resolution.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-unknown-op";

ModelBuilder misspelled() {
  ModelBuilder m(17, 8);
  m.graph().input("x").output("y");
  m.graph().node("Reluu", {"x"}, {"y"}, "r");
  return m;
}

// The rule runs in the driver's pass over the nodes, for the ops whose nodes resolve as unknown
// (Rule::wants_op asks OpResolutionIndex per op): the per-op facts must name exactly those ops.
TEST(OpsetUnknownOp, PerOpFactsNameTheOpsToVisit) {
  ModelBuilder m(17, 8);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"a"}, "ok");
  m.graph().node("Reluu", {"a"}, {"b"}, "bad");
  m.graph().node("Relu", {"b"}, {"c"}, "ok2");
  m.graph().node("Reluu", {"c"}, {"y"}, "bad2");
  const std::string bytes = m.bytes();
  LoadResult loaded = load_model_from_bytes("t.onnx", bytes);
  ASSERT_TRUE(loaded.model);
  AnalysisCache cache(*loaded.model);
  const auto& ops = cache.get<rules::OpResolutionIndex>();
  ASSERT_EQ(loaded.model->op_kinds().size(), 2u);
  for (const OpKind& op : loaded.model->op_kinds()) {
    const bool unknown = op.op_type == "Reluu";
    EXPECT_EQ(ops.any(rules::OpStatus::Unknown, op), unknown) << op.op_type;
    EXPECT_EQ(ops.any(rules::OpStatus::Standard, op), !unknown) << op.op_type;
    EXPECT_FALSE(ops.any_attribute_issue(op));
    EXPECT_FALSE(ops.any_needed_opset(op));
  }
  EXPECT_THAT(findings(kRule, bytes),
              ElementsAre("opset-unknown-op main/bad", "opset-unknown-op main/bad2"));
}

TEST(OpsetUnknownOp, SuggestsTheClosestNames) {
  auto d = diagnostics(kRule, misspelled().bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/r");
  EXPECT_THAT(d[0].message, HasSubstr("Reluu 'r' is not an operator of ai.onnx at any opset; "
                                      "did you mean Relu"));
  EXPECT_THAT(d[0].help, HasSubstr("implement a symbolic function or rewrite with supported ops"));
}

TEST(OpsetUnknownOp, OpOfAnotherStandardDomain) {
  ModelBuilder m(17, 8);
  m.graph().input("x", kInt64, {3}).output("y");
  m.graph().node("LabelEncoder", {"x"}, {"y"}, "enc");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "LabelEncoder 'enc' is not an operator of ai.onnx; it is defined in ai.onnx.ml");
  EXPECT_THAT(d[0].help, HasSubstr("'ai.onnx.ml'"));
}

TEST(OpsetUnknownOp, NearMissKnownCustomAndBeyondTheTable) {
  ModelBuilder m(17, 8);
  m.opset("my.ops", 1);
  m.graph().input("x").output("y").output("z");
  m.graph().node("Relu", {"x"}, {"y"});
  m.graph().node("Reluu", {"x"}, {"z"}, "", "my.ops");  // custom domains are not ours to judge
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  ModelBuilder future = misspelled();
  future.proto().mutable_opset_import(0)->set_version(28);  // may be a newer op: not judged
  EXPECT_THAT(findings(kRule, future.bytes()), IsEmpty());
}

TEST(OpsetUnknownOp, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = misspelled();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/r"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/r"));
}

}  // namespace
}  // namespace onnxlint::testing
