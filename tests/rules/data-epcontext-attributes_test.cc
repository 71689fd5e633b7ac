#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-epcontext-attributes";

ModelBuilder epcontext(int64_t embed_mode, int64_t main_context, const std::string& cache) {
  ModelBuilder m(13, 8);
  m.opset("com.microsoft", 1);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  auto& n = m.graph().node("EPContext", {"x"}, {"y"}, "ctx", "com.microsoft");
  attr_int(n, "embed_mode", embed_mode);
  attr_int(n, "main_context", main_context);
  if (!cache.empty()) attr_string(n, "ep_cache_context", cache);
  attr_string(n, "source", "QNNExecutionProvider");
  return m;
}

TEST(DataEpcontextAttributes, BadValuesAndMissingContext) {
  auto d = diagnostics(kRule, epcontext(2, 1, "blob").bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/ctx");
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message, "EPContext 'ctx': embed_mode is 2 (0 or 1)");
  EXPECT_THAT(diagnostics(kRule, epcontext(1, 1, "").bytes())[0].message,
              HasSubstr("main_context is 1 but ep_cache_context is empty"));
  // An int attribute written as a string.
  ModelBuilder m = epcontext(0, 1, "a.bin");
  attr_string(*m.graph().proto().mutable_node(0), "partition_name", "p0");
  attr_float(*m.graph().proto().mutable_node(0), "max_size", 1.0f);
  EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message, HasSubstr("'max_size' must be an int"));
}

TEST(DataEpcontextAttributes, NearMisses) {
  EXPECT_THAT(findings(kRule, epcontext(1, 1, "blob").bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, epcontext(0, 1, "ctx.bin").bytes()), IsEmpty());
  // A secondary node of a shared context carries no payload.
  EXPECT_THAT(findings(kRule, epcontext(0, 0, "").bytes()), IsEmpty());
  // Another domain's EPContext is not ONNX Runtime's.
  ModelBuilder other(13, 8);
  other.opset("custom", 1);
  other.graph().input("x").output("y");
  attr_int(other.graph().node("EPContext", {"x"}, {"y"}, "c", "custom"), "embed_mode", 7);
  EXPECT_THAT(findings(kRule, other.bytes()), IsEmpty());
}

TEST(DataEpcontextAttributes, TargetUnsupportedOpNamesTheSourceEp) {
  LintOptions o;
  o.targets = {"onnxruntime-qnn"};
  EXPECT_THAT(findings("target-unsupported-op", epcontext(1, 1, "blob").bytes(), o), IsEmpty());
  o.targets = {"onnxruntime-cpu"};
  auto d = diagnostics("target-unsupported-op", epcontext(1, 1, "blob").bytes(), o);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("it holds a context precompiled by QNNExecutionProvider"));
}

TEST(DataEpcontextAttributes, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = epcontext(3, 1, "blob");
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/ctx"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/ctx"));
}

}  // namespace
}  // namespace onnxlint::testing
