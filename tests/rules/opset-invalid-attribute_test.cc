#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "opset-invalid-attribute";

ModelBuilder bad_attributes() {
  ModelBuilder m(17, 8);
  m.graph().input("x").input("w").output("y").output("c").output("z");
  attr_float(m.graph().node("Relu", {"x"}, {"y"}, "relu"), "alpha", 0.1f);
  m.graph().node("Cast", {"x"}, {"c"}, "cast");  // `to` is required
  attr_float(m.graph().node("Concat", {"x", "w"}, {"z"}, "cat"), "axis", 0.0f);
  return m;
}

TEST(OpsetInvalidAttribute, UnknownMissingAndWrongType) {
  EXPECT_THAT(findings(kRule, bad_attributes().bytes()),
              ElementsAre("opset-invalid-attribute main/cast", "opset-invalid-attribute main/cat",
                          "opset-invalid-attribute main/relu"));
  auto d = diagnostics(kRule, bad_attributes().bytes());
  ASSERT_EQ(d.size(), 3u);  // in node order
  EXPECT_EQ(d[0].message, "Relu 'relu': attribute 'alpha' is not defined for Relu at any opset");
  EXPECT_EQ(d[1].message, "Cast 'cast': required attribute 'to' (INT) is missing");
  EXPECT_EQ(d[2].message, "Concat 'cat': attribute 'axis' is FLOAT, Concat-13 expects INT");
}

TEST(OpsetInvalidAttribute, AttributeDroppedByALaterVersion) {
  ModelBuilder m(13, 8);
  m.graph().input("x").output("y");
  attr_ints(m.graph().node("Abs", {"x"}, {"y"}, "abs"), "consumed_inputs", {0});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Abs 'abs': attribute 'consumed_inputs' is not defined for Abs-13 (the "
            "last version that had it ends at opset 5)");
}

TEST(OpsetInvalidAttribute, OneFindingPerNode) {
  ModelBuilder m(17, 8);
  m.graph().input("x").output("y");
  auto& n = m.graph().node("Relu", {"x"}, {"y"}, "relu");
  attr_float(n, "alpha", 0.1f);
  attr_float(n, "beta", 0.1f);
  attr_int(n, "gamma", 1);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("(and 2 more attribute problems)"));
  EXPECT_EQ(d[0].notes.size(), 3u);  // the two others, then what Relu-14 defines
}

TEST(OpsetInvalidAttribute, NearMissValidAttributesAndNewerOnes) {
  ModelBuilder m(17, 8);
  m.graph().input("x").input("w").output("y").output("c");
  attr_int(m.graph().node("Concat", {"x", "w"}, {"y"}, "cat"), "axis", 0);
  attr_int(m.graph().node("Cast", {"x"}, {"c"}, "cast"), "to", kInt64);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  // An attribute that exists from a later opset is opset-too-low's finding, not this one.
  ModelBuilder r(13, 8);
  r.graph().input("x").input("s").output("y");
  attr_int(r.graph().node("Resize", {"x", "", "s"}, {"y"}), "antialias", 1);
  EXPECT_THAT(findings(kRule, r.bytes()), IsEmpty());
}

TEST(OpsetInvalidAttribute, FunctionAttributeReferences) {
  ModelBuilder m(17, 8);
  m.opset("local", 1);
  m.graph().input("x").input("w").output("y");
  attr_int(m.graph().node("Cat", {"x", "w"}, {"y"}, "call", "local"), "ax", 0);
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Cat");
  f->set_domain("local");
  f->add_input("a");
  f->add_input("b");
  f->add_output("c");
  f->add_attribute("ax");
  auto* n = f->add_node();
  n->set_op_type("Concat");
  n->set_name("inner");
  n->add_input("a");
  n->add_input("b");
  n->add_output("c");
  auto* a = n->add_attribute();
  a->set_name("axis");
  a->set_ref_attr_name("ax");
  a->set_type(onnx::AttributeProto::INT);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  a->set_type(onnx::AttributeProto::FLOAT);  // a declared type is still checked
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("opset-invalid-attribute fn:local::Cat/inner"));
}

TEST(OpsetInvalidAttribute, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = bad_attributes();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/cast",
                          std::string(kRule) + " " + kNestedPath + "/cat",
                          std::string(kRule) + " " + kNestedPath + "/relu"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/cast",
                          std::string(kRule) + " " + kNestedIfPath + "/cat",
                          std::string(kRule) + " " + kNestedIfPath + "/relu"));
}

}  // namespace
}  // namespace onnxlint::testing
