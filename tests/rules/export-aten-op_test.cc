#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "export-aten-op";

ModelBuilder aten_fallback() {
  ModelBuilder m(11, 6);
  m.opset("org.pytorch.aten", 1);
  m.graph().input("x").input("grid").output("y").output("z");
  auto& n = m.graph().node("ATen", {"x", "grid"}, {"y"}, "gs", "org.pytorch.aten");
  attr_string(n, "operator", "grid_sampler");
  m.graph().node("my_op", {"x"}, {"z"}, "other", "org.pytorch.aten");
  return m;
}

TEST(ExportAtenOp, AtenNodesAndTheAtenDomain) {
  EXPECT_THAT(findings(kRule, aten_fallback().bytes()),
              ElementsAre("export-aten-op main/gs", "export-aten-op main/other"));
  auto d = diagnostics(kRule, aten_fallback().bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].message,
            "ATen 'gs' is a PyTorch ATen fallback for aten::grid_sampler; only "
            "runtimes built with PyTorch's ATen operators can execute it");
  EXPECT_THAT(d[0].notes, ElementsAre("ONNX has GridSample since opset 16"));
  EXPECT_THAT(d[0].help, HasSubstr("opset_version=16"));
  EXPECT_THAT(d[1].message, HasSubstr("fallback for aten::my_op"));
  EXPECT_THAT(d[1].help, HasSubstr("or rewrite with supported ops"));
}

TEST(ExportAtenOp, NearMissStandardGridSample) {
  ModelBuilder m(16, 8);
  m.graph().input("x").input("grid").output("y");
  m.graph().node("GridSample", {"x", "grid"}, {"y"}, "ATen");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(ExportAtenOp, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = aten_fallback();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/gs",
                          std::string(kRule) + " " + kNestedPath + "/other"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/gs",
                          std::string(kRule) + " " + kNestedIfPath + "/other"));
}

}  // namespace
}  // namespace onnxlint::testing
