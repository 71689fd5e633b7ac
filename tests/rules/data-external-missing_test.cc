#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "loader/external_model.h"
#include "loader/temp_dir.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-external-missing";

std::string write_model(const TempDir& dir, const onnx::TensorProto& t) {
  return dir.write("model.onnx", model_with_initializer(t).bytes());
}

TEST(DataExternalMissing, FileDoesNotExist) {
  TempDir dir;
  std::string model = write_model(dir, external_tensor("W", {4}, "nope.bin"));
  EXPECT_THAT(file_findings(kRule, model), ElementsAre("data-external-missing main:'W'"));
  auto d = file_diagnostics(kRule, model);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "external data file 'nope.bin' of tensor 'W' does not exist");
  EXPECT_EQ(d[0].severity, Severity::Error);
}

TEST(DataExternalMissing, NoLocationEntry) {
  TempDir dir;
  std::string model = write_model(dir, external_tensor("W", {4}, ""));
  auto d = file_diagnostics(kRule, model);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "tensor 'W' is stored externally but has no 'location' entry");
}

TEST(DataExternalMissing, LocationIsAFolder) {
  TempDir dir;
  dir.write("weights/readme.txt", "x");
  std::string model = write_model(dir, external_tensor("W", {4}, "weights"));
  auto d = file_diagnostics(kRule, model);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "external data file 'weights' of tensor 'W' is not a regular file");
}

TEST(DataExternalMissing, DanglingSymlinkInsideTheFolder) {
  TempDir dir;
  ASSERT_EQ(::symlink("gone.bin", dir.str("w.bin").c_str()), 0);
  std::string model = write_model(dir, external_tensor("W", {4}, "w.bin"));
  EXPECT_THAT(file_findings(kRule, model), ElementsAre("data-external-missing main:'W'"));
}

TEST(DataExternalMissing, NearMissFilePresent) {
  TempDir dir;
  dir.write("w.bin", std::string(16, '\0'));
  dir.write("sub/w2.bin", std::string(16, '\0'));
  EXPECT_THAT(file_findings(kRule, write_model(dir, external_tensor("W", {4}, "w.bin"))),
              IsEmpty());
  EXPECT_THAT(file_findings(kRule, write_model(dir, external_tensor("W", {4}, "sub/w2.bin"))),
              IsEmpty());
}

// A location that escapes the folder is data-external-path-escape, not also "missing": the
// file outside is never looked at.
TEST(DataExternalMissing, NearMissEscapingLocationIsNotStatted) {
  TempDir dir;
  EXPECT_THAT(file_findings(kRule, write_model(dir, external_tensor("W", {4}, "/no/such.bin"))),
              IsEmpty());
  EXPECT_THAT(file_findings(kRule, write_model(dir, external_tensor("W", {4}, "../none.bin"))),
              IsEmpty());
}

TEST(DataExternalMissing, NestedInLoopBody) {
  TempDir dir;
  auto m = model_with_initializer(external_tensor("W", {4}, "nope.bin"));
  std::string model = dir.write("model.onnx", nest_in_loop(m.proto()));
  EXPECT_THAT(file_findings(kRule, model),
              ElementsAre(std::string("data-external-missing ") + kNestedPath + ":'W'"));
}

TEST(DataExternalMissing, ConstantAttributeTensor) {
  TempDir dir;
  ModelBuilder m;
  m.graph().input("x").output("y");
  attr_tensor(m.graph().node("Constant", {}, {"k"}, "const"), "value",
              external_tensor("k_data", {4}, "k.bin"));
  m.graph().node("Add", {"x", "k"}, {"y"});
  std::string model = dir.write("model.onnx", nest_in_if(m.proto()));
  auto d = file_diagnostics(kRule, model);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), std::string(kNestedIfPath) + "/const");
  EXPECT_EQ(d[0].location.attribute, "value");
}

TEST(DataExternalMissing, OneFindingPerMissingFileWithEveryTensorRelated) {
  // A model saved with all its weights in one file that was not shipped: one cause, one
  // finding; a second missing file is a second finding; a tensor without a location its own.
  TempDir dir;
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {4}).output("y", kFloat, {4});
  std::string prev = "x";
  for (int i = 0; i < 4; ++i) {
    const std::string w = "W" + std::to_string(i);
    g.initializer(external_tensor(w, {4}, i < 3 ? "weights.bin" : "other.bin"));
    g.node("Add", {prev, w}, {"a" + std::to_string(i)});
    prev = "a" + std::to_string(i);
  }
  g.initializer(external_tensor("V", {4}, ""));
  g.node("Add", {prev, "V"}, {"y"});
  const std::string model = dir.write("model.onnx", m.bytes());
  auto d = file_diagnostics(kRule, model);
  ASSERT_EQ(d.size(), 3u);
  std::sort(d.begin(), d.end(),
            [](const Diagnostic& a, const Diagnostic& b) { return a.message < b.message; });
  EXPECT_EQ(d[0].message, "external data file 'other.bin' of tensor 'W3' does not exist");
  EXPECT_THAT(d[0].related, IsEmpty());
  EXPECT_EQ(d[1].message,
            "external data file 'weights.bin' of tensor 'W0' does not exist; 2 other tensors are "
            "stored in it too");
  ASSERT_EQ(d[1].related.size(), 2u);
  EXPECT_EQ(d[1].related[0].message, "tensor 'W1'");
  EXPECT_EQ(d[1].related[1].message, "tensor 'W2'");
  EXPECT_EQ(d[1].related[1].location.value_name, "W2");
  EXPECT_EQ(d[2].message, "tensor 'V' is stored externally but has no 'location' entry");
}

}  // namespace
}  // namespace onnxlint::testing
