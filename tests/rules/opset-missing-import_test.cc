#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-missing-import";

ModelBuilder ml_without_import() {
  ModelBuilder m(17, 8);
  m.graph().input("x", kInt64, {3}).output("y").output("z");
  m.graph().node("LabelEncoder", {"x"}, {"y"}, "enc", "ai.onnx.ml");
  m.graph().node("LabelEncoder", {"x"}, {"z"}, "enc2", "ai.onnx.ml");
  return m;
}

TEST(OpsetMissingImport, OneFindingPerDomainAndGraph) {
  auto d = diagnostics(kRule, ml_without_import().bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/enc");
  EXPECT_EQ(d[0].message,
            "LabelEncoder 'enc' uses domain ai.onnx.ml but the model has no opset_import for it");
  EXPECT_THAT(d[0].notes, ElementsAre("1 more node in this graph uses that domain"));
  EXPECT_THAT(d[0].help, HasSubstr("make_opsetid('ai.onnx.ml'"));
}

TEST(OpsetMissingImport, NearMissImportedDomainAndAiOnnxSpelling) {
  ModelBuilder m = ml_without_import();
  m.opset("ai.onnx.ml", 3);
  m.graph().node("Relu", {"x"}, {"r"}, "relu", "ai.onnx");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(OpsetMissingImport, CustomDomainAndLocalFunctionCalls) {
  ModelBuilder m(17, 8);
  m.graph().input("x").output("y").output("z");
  m.graph().node("MyRelu", {"x"}, {"y"}, "custom", "my.ops");
  m.graph().node("Fn", {"x"}, {"z"}, "call", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Fn");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* n = f->add_node();
  n->set_op_type("Relu");
  n->add_input("a");
  n->add_output("b");
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("opset-missing-import main/call", "opset-missing-import main/custom"));
  auto d = diagnostics(kRule, m.bytes());
  EXPECT_THAT(d[0].help + d[1].help, HasSubstr("custom_opsets={'my.ops': 1}"));
  m.opset("my.ops", 1).opset("local", 1);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(OpsetMissingImport, IrBeforeThreeImpliesOpsetOne) {
  ModelBuilder m(1, 2);
  m.proto().clear_opset_import();
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  m.proto().set_ir_version(3);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("opset-missing-import main/Relu_0"));
}

TEST(OpsetMissingImport, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = ml_without_import();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/enc"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/enc"));
}

}  // namespace
}  // namespace onnxlint::testing
