#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "model-missing-producer";
// A model-level finding has no graph path: its anchor is empty.
constexpr const char* kAtModel = "model-missing-producer ";

ModelBuilder relu_model(const std::string& name, const std::string& version) {
  ModelBuilder m;
  m.producer(name, version);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  return m;
}

TEST(ModelMissingProducer, BothFieldsEmpty) {
  ModelBuilder m = relu_model("", "");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(kAtModel));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "producer_name and producer_version are empty");
  EXPECT_EQ(d[0].severity, Severity::Info);
  EXPECT_FALSE(d[0].help.empty());
}

TEST(ModelMissingProducer, OnlyVersionEmpty) {
  ModelBuilder m = relu_model("pytorch", "");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "producer_version is empty");
}

TEST(ModelMissingProducer, OnlyNameEmpty) {
  ModelBuilder m = relu_model("", "1.13.1");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "producer_name is empty");
}

TEST(ModelMissingProducer, FieldAbsentIsTheSameAsEmpty) {
  ModelBuilder m = relu_model("x", "y");
  m.proto().clear_producer_name();
  m.proto().clear_producer_version();
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(kAtModel));
}

TEST(ModelMissingProducer, NearMissBothFieldsSet) {
  EXPECT_THAT(findings(kRule, relu_model("pytorch", "1.13.1").bytes()), IsEmpty());
}

// A model-level rule: nesting the graph changes nothing (it is reported once, for the model).
TEST(ModelMissingProducer, NestedGraphStillOneModelFinding) {
  ModelBuilder m = relu_model("", "");
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())), ElementsAre(kAtModel));
  EXPECT_THAT(findings(kRule, nest_in_loop(relu_model("a", "b").proto())), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
