#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "target-runtime-specific-op";

// What ONNX Runtime's optimizer writes at ORT_ENABLE_ALL: contrib fusions and NCHWc convs.
ModelBuilder optimized() {
  ModelBuilder m(13, 7);
  m.opset("com.microsoft", 1).opset("com.microsoft.nchwc", 1).opset("custom.mydomain", 1);
  m.graph().input("x").output("y").output("z").output("c");
  m.graph().node("FusedConv", {"x"}, {"f"}, "fused1", "com.microsoft");
  m.graph().node("FusedConv", {"f"}, {"y"}, "fused2", "com.microsoft");
  m.graph().node("Conv", {"x"}, {"z"}, "nchwc_conv", "com.microsoft.nchwc");
  m.graph().node("MyRelu", {"x"}, {"c"}, "custom", "custom.mydomain");  // export-custom-domain
  return m;
}

TEST(TargetRuntimeSpecificOp, OnePerOpAndGraphWithoutTargets) {
  auto d = diagnostics(kRule, optimized().bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].location.anchor(), "main/fused1");
  EXPECT_EQ(d[0].severity, Severity::Info);
  EXPECT_EQ(d[0].message,
            "FusedConv 'fused1' (com.microsoft:FusedConv) runs only in ONNX Runtime: it is an "
            "ONNX Runtime contrib op, written by ONNX Runtime's graph optimizer (fusions) or "
            "transformers optimizer");
  EXPECT_THAT(d[0].notes,
              ElementsAre("1 more FusedConv node in this graph", HasSubstr("--target")));
  EXPECT_THAT(d[0].help, HasSubstr("export the original instead"));
  EXPECT_EQ(d[1].location.anchor(), "main/nchwc_conv");
  EXPECT_THAT(d[1].message, HasSubstr("'com.microsoft.nchwc' is a data layout"));
}

TEST(TargetRuntimeSpecificOp, QuantizerOpsAndEpContext) {
  ModelBuilder m(13, 7);
  m.opset("com.microsoft", 1);
  m.graph().input("x").output("y").output("z");
  m.graph().node("QLinearAdd", {"x"}, {"y"}, "qadd", "com.microsoft");
  m.graph().node("EPContext", {"x"}, {"z"}, "ctx", "com.microsoft");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_THAT(d[0].message, HasSubstr("ONNX Runtime's quantizer writes it"));
  EXPECT_THAT(d[1].message, HasSubstr("precompiled by one ONNX Runtime execution provider"));
}

TEST(TargetRuntimeSpecificOp, QuietWithTargetsAndOnStandardModels) {
  // With targets, target-unsupported-op decides per target (one finding per node and cause).
  LintOptions o;
  o.targets = {"tensorrt"};
  EXPECT_THAT(findings(kRule, optimized().bytes(), o), IsEmpty());
  o.targets = {"onnxruntime-cpu"};
  EXPECT_THAT(findings(kRule, optimized().bytes(), o), IsEmpty());
  ModelBuilder plain(13, 7);
  plain.graph().input("x").output("y");
  plain.graph().node("Relu", {"x"}, {"y"}, "relu");
  EXPECT_THAT(findings(kRule, plain.bytes()), IsEmpty());
}

TEST(TargetRuntimeSpecificOp, TargetUnsupportedOpSaysExportTheOriginal) {
  LintOptions o;
  o.targets = {"tensorrt"};
  bool noted = false;
  for (const Diagnostic& d : diagnostics("target-unsupported-op", optimized().bytes(), o)) {
    for (const std::string& note : d.notes) {
      noted |= note.find("saved after ONNX Runtime's optimizer") != std::string::npos;
    }
  }
  EXPECT_TRUE(noted);
}

TEST(TargetRuntimeSpecificOp, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = optimized();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/fused1",
                          std::string(kRule) + " " + kNestedPath + "/nchwc_conv"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/fused1",
                          std::string(kRule) + " " + kNestedIfPath + "/nchwc_conv"));
}

}  // namespace
}  // namespace onnxlint::testing
