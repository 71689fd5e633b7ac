#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "loader/external_model.h"
#include "loader/temp_dir.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-epcontext-file";

// What ONNX Runtime writes with ep.context_enable=1, ep.context_embed_mode=0.
ModelBuilder epcontext(const std::string& file, int64_t embed_mode = 0) {
  ModelBuilder m(13, 8);
  m.opset("com.microsoft", 1);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  auto& n = m.graph().node("EPContext", {"x"}, {"y"}, "qnn_ctx", "com.microsoft");
  attr_int(n, "embed_mode", embed_mode);
  attr_int(n, "main_context", 1);
  attr_string(n, "ep_cache_context", file);
  attr_string(n, "source", "QNNExecutionProvider");
  return m;
}

TEST(DataEpcontextFile, FileMissingOrOutsideTheFolder) {
  TempDir dir;
  std::string model = dir.write("model_ctx.onnx", epcontext("model_qnn.bin").bytes());
  auto d = file_diagnostics(kRule, model);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/qnn_ctx");
  EXPECT_EQ(d[0].location.attribute, "ep_cache_context");
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message,
            "EPContext 'qnn_ctx' keeps its compiled context in 'model_qnn.bin' (embed_mode 0), "
            "which does not exist next to the model");
  EXPECT_THAT(d[0].help, HasSubstr("ep.context_embed_mode=1"));
  model = dir.write("escape.onnx", epcontext("../model_qnn.bin").bytes());
  EXPECT_THAT(file_diagnostics(kRule, model)[0].message, HasSubstr("outside the model's folder"));
  model = dir.write("abs.onnx", epcontext("/etc/passwd").bytes());
  EXPECT_THAT(file_diagnostics(kRule, model)[0].message, HasSubstr("an absolute path"));
  TempDir outside;
  outside.write("blob.bin", "x");
  ASSERT_EQ(::symlink(outside.str("blob.bin").c_str(), dir.str("link.bin").c_str()), 0);
  model = dir.write("link.onnx", epcontext("link.bin").bytes());
  EXPECT_THAT(file_diagnostics(kRule, model)[0].message, HasSubstr("through a symlink"));
}

TEST(DataEpcontextFile, NearMisses) {
  TempDir dir;
  dir.write("model_qnn.bin", "blob");
  dir.write("ctx/part1.bin", "blob");
  EXPECT_THAT(file_findings(kRule, dir.write("a.onnx", epcontext("model_qnn.bin").bytes())),
              IsEmpty());
  EXPECT_THAT(file_findings(kRule, dir.write("b.onnx", epcontext("ctx/part1.bin").bytes())),
              IsEmpty());
  // embed_mode 1: ep_cache_context is the blob itself, not a path.
  EXPECT_THAT(file_findings(kRule, dir.write("c.onnx", epcontext("not/a/file", 1).bytes())),
              IsEmpty());
}

TEST(DataEpcontextFile, NestedInLoopBodyAndIfBranch) {
  TempDir dir;
  ModelBuilder m = epcontext("model_qnn.bin");
  EXPECT_THAT(file_findings(kRule, dir.write("l.onnx", nest_in_loop(m.proto()))),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/qnn_ctx"));
  EXPECT_THAT(file_findings(kRule, dir.write("i.onnx", nest_in_if(m.proto()))),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/qnn_ctx"));
}

}  // namespace
}  // namespace onnxlint::testing
