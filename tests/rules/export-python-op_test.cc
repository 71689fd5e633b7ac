#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "export-python-op";

ModelBuilder fallthrough() {
  ModelBuilder m(13, 7);
  m.opset("prim", 1);
  m.graph().input("x").output("y");
  auto& n = m.graph().node("PythonOp", {"x"}, {"y"}, "clamp", "prim");
  attr_string(n, "name", "MyClampFn");
  attr_string(n, "module", "__main__");
  return m;
}

TEST(ExportPythonOp, FlagsPythonOpAndNamesTheFunction) {
  auto d = diagnostics(kRule, fallthrough().bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/clamp");
  EXPECT_EQ(d[0].message,
            "PythonOp 'clamp' calls the Python autograd Function 'MyClampFn' "
            "(module '__main__'), which no ONNX runtime can execute");
  EXPECT_THAT(d[0].help, HasSubstr("MyClampFn a static symbolic(g, ...) method"));
  EXPECT_THAT(d[0].help, HasSubstr("operator_export_type=ONNX_FALLTHROUGH"));
}

TEST(ExportPythonOp, NearMissOtherPrimOpAndNodeNamedPythonOp) {
  ModelBuilder m(13, 7);
  m.opset("prim", 1);
  m.graph().input("x").output("y").output("z");
  m.graph().node("Relu", {"x"}, {"y"}, "PythonOp");
  m.graph().node("ListConstruct", {"x"}, {"z"}, "list", "prim");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(ExportPythonOp, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = fallthrough();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/clamp"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/clamp"));
}

}  // namespace
}  // namespace onnxlint::testing
