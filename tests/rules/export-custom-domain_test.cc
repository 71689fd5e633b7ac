#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "export-custom-domain";

ModelBuilder custom_ops() {
  ModelBuilder m(13, 7);
  m.opset("custom.mydomain", 1).opset("com.microsoft", 1).opset("prim", 1);
  m.graph().input("x").output("y").output("z").output("g").output("p");
  m.graph().node("MyRelu", {"x"}, {"y"}, "relu1", "custom.mydomain");
  m.graph().node("MyRelu", {"y"}, {"z"}, "relu2", "custom.mydomain");
  m.graph().node("FastGelu", {"x"}, {"g"}, "gelu", "com.microsoft");  // ORT's: not here
  m.graph().node("PythonOp", {"x"}, {"p"}, "py", "prim");             // export-python-op's finding
  return m;
}

TEST(ExportCustomDomain, OneFindingPerCustomOpAndGraph) {
  EXPECT_THAT(findings(kRule, custom_ops().bytes()),
              ElementsAre("export-custom-domain main/relu1"));
  auto d = diagnostics(kRule, custom_ops().bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "MyRelu 'relu1' is in custom domain 'custom.mydomain': only runtimes "
            "with that custom-op library registered can load it");
  EXPECT_THAT(d[0].notes, ElementsAre("1 more MyRelu node in this graph"));
  EXPECT_EQ(d[0].severity, Severity::Warning);
}

TEST(ExportCustomDomain, NearMissLocalFunctionsAndStandardDomains) {
  ModelBuilder m(15, 8);
  m.opset("torch.nn.modules.linear", 1).opset("ai.onnx.ml", 3);
  m.graph().input("x").output("y").output("z");
  m.graph().node("Linear", {"x"}, {"y"}, "lin", "torch.nn.modules.linear");
  m.graph().node("Normalizer", {"x"}, {"z"}, "norm", "ai.onnx.ml");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Linear");
  f->set_domain("torch.nn.modules.linear");
  f->add_input("a");
  f->add_output("b");
  auto* n = f->add_node();
  n->set_op_type("Relu");
  n->add_input("a");
  n->add_output("b");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(ExportCustomDomain, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = custom_ops();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/relu1"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/relu1"));
}

}  // namespace
}  // namespace onnxlint::testing
