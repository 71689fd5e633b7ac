#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-too-low";

ModelBuilder grid_sample(int64_t opset) {
  ModelBuilder m(opset, 8);
  m.graph().input("x", kFloat, {1, 2, 6, 6}).input("grid", kFloat, {1, 4, 4, 2}).output("y");
  m.graph().node("GridSample", {"x", "grid"}, {"y"}, "gs");
  return m;
}

ModelBuilder pad(int64_t opset, const std::string& mode) {
  ModelBuilder m(opset, 8);
  m.graph().input("x").input("pads", kInt64, {2}).output("y");
  attr_string(m.graph().node("Pad", {"x", "pads"}, {"y"}, "p"), "mode", mode);
  return m;
}

TEST(OpsetTooLow, OpNewerThanTheImportNamesTheVersion) {
  auto diags = diagnostics(kRule, grid_sample(13).bytes());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].location.anchor(), "main/gs");
  EXPECT_EQ(diags[0].message, "GridSample 'gs' needs opset ≥ 16; model imports 13");
  EXPECT_THAT(diags[0].help, HasSubstr("opset_version=16"));
  EXPECT_EQ(diags[0].severity, Severity::Error);
}

TEST(OpsetTooLow, NearMissOpAtItsFirstVersion) {
  EXPECT_THAT(findings(kRule, grid_sample(16).bytes()), IsEmpty());
}

TEST(OpsetTooLow, AttributeValueNewerThanTheOp) {
  auto diags = diagnostics(kRule, pad(18, "wrap").bytes());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message, "Pad 'p' with mode='wrap' needs opset ≥ 19; model imports 18");
  ASSERT_EQ(diags[0].notes.size(), 1u);
  EXPECT_THAT(diags[0].notes[0], HasSubstr("Changelog.md#Pad-19"));
  EXPECT_THAT(diags[0].help, HasSubstr("opset_version=19"));
  // Values the op always had stay silent; so does 'wrap' at 19.
  EXPECT_THAT(findings(kRule, pad(18, "reflect").bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, pad(19, "wrap").bytes()), IsEmpty());
}

TEST(OpsetTooLow, AttributeAddedInALaterVersion) {
  ModelBuilder m(13, 8);
  m.graph().input("x", kFloat, {1, 1, 4, 4}).input("scales", kFloat, {4}).output("y");
  attr_int(m.graph().node("Resize", {"x", "", "scales"}, {"y"}, "r"), "antialias", 1);
  auto diags = diagnostics(kRule, m.bytes());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message,
            "Resize 'r' with attribute 'antialias' needs opset ≥ 18; model imports 13");
  EXPECT_THAT(diags[0].notes, ElementsAre(HasSubstr("Changelog.md#Resize-18")));
}

TEST(OpsetTooLow, ReductionValuesNameTheirOwnVersion) {
  auto scatter = [](int64_t opset, const std::string& op, const std::string& reduction) {
    ModelBuilder m(opset, 8);
    m.graph().input("x").input("i", kInt64, {1, 1}).input("u").output("y");
    attr_string(m.graph().node(op, {"x", "i", "u"}, {"y"}, "s"), "reduction", reduction);
    return m;
  };
  auto d = diagnostics(kRule, scatter(16, "ScatterND", "max").bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "ScatterND 's' with reduction='max' needs opset ≥ 18; model imports 16");
  EXPECT_THAT(findings(kRule, scatter(16, "ScatterND", "add").bytes()), IsEmpty());
  // At 13 the attribute itself is missing (16) and 'min' needs 18: the higher one counts.
  d = diagnostics(kRule, scatter(13, "ScatterElements", "min").bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("needs opset ≥ 18; model imports 13"));
  d = diagnostics(kRule, scatter(13, "ScatterElements", "mul").bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("needs opset ≥ 16; model imports 13"));
}

TEST(OpsetTooLow, WithdrawnFirstVersionPointsPastIt) {
  ModelBuilder m(17, 8);
  m.graph().input("x", kFloat, {1, 4, 2, 2}).input("s", kFloat, {4}).input("b", kFloat, {4});
  m.graph().output("y");
  attr_int(m.graph().node("GroupNormalization", {"x", "s", "b"}, {"y"}, "gn"), "num_groups", 2);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "GroupNormalization 'gn' needs opset ≥ 21; model imports 17");
  EXPECT_THAT(d[0].notes, ElementsAre(HasSubstr("GroupNormalization-18 was withdrawn")));
}

TEST(OpsetTooLow, OtherDomainsNameTheirImport) {
  ModelBuilder m(17, 8);
  m.opset("ai.onnx.ml", 1);
  m.graph().input("x", kFloat, {2, 2}).output("y");
  m.graph().node("TreeEnsemble", {"x"}, {"y"}, "te", "ai.onnx.ml");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "TreeEnsemble 'te' needs ai.onnx.ml opset ≥ 5; model imports ai.onnx.ml 1");
}

TEST(OpsetTooLow, FunctionBodiesUseTheFunctionsImport) {
  ModelBuilder m(17, 8);
  m.opset("local", 1);
  m.graph().input("x").input("grid").output("y");
  m.graph().node("Sample", {"x", "grid"}, {"y"}, "call", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Sample");
  f->set_domain("local");
  f->add_input("a");
  f->add_input("b");
  f->add_output("c");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(13);
  auto* n = f->add_node();
  n->set_op_type("GridSample");
  n->set_name("inner");
  n->add_input("a");
  n->add_input("b");
  n->add_output("c");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "fn:local::Sample/inner");
  EXPECT_EQ(d[0].message,
            "GridSample 'inner' needs opset ≥ 16; function 'local::Sample' imports 13");
  // Without an import of its own, the function falls back to the model's (17): fine.
  f->clear_opset_import();
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(OpsetTooLow, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = grid_sample(13);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/gs"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/gs"));
}

}  // namespace
}  // namespace onnxlint::testing
