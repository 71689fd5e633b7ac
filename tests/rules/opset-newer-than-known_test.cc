#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-newer-than-known";

ModelBuilder relu(int64_t opset) {
  ModelBuilder m(opset, 11);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  return m;
}

TEST(OpsetNewerThanKnown, DefaultDomainBeyondTheTable) {
  auto d = diagnostics(kRule, relu(28).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].message,
            "model imports opset 28, newer than the operator tables know (ONNX "
            "1.22.0, up to opset 27); its ops are not checked");
  EXPECT_THAT(d[0].help, HasSubstr("opset_version=27"));
}

TEST(OpsetNewerThanKnown, NearMissNewestKnownAndCustomDomains) {
  ModelBuilder m = relu(27);
  m.opset("ai.onnx.ml", 5).opset("my.ops", 99);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(OpsetNewerThanKnown, OtherDomainsAndFunctionImports) {
  ModelBuilder m = relu(17);
  m.opset("ai.onnx.ml", 6).opset("local", 1);
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("F");
  f->set_domain("local");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(30);
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("opset-newer-than-known ", "opset-newer-than-known fn:local::F"));
  auto d = diagnostics(kRule, m.bytes());
  EXPECT_THAT(d[0].message, HasSubstr("model imports ai.onnx.ml opset 6"));
  EXPECT_THAT(d[1].message, HasSubstr("function 'local::F' imports opset 30"));
}

TEST(OpsetNewerThanKnown, NestedGraphsDoNotRepeatTheModelFinding) {
  ModelBuilder m = relu(28);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())), ElementsAre("opset-newer-than-known "));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())), ElementsAre("opset-newer-than-known "));
}

}  // namespace
}  // namespace onnxlint::testing
