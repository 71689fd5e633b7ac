#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "loader/external_model.h"
#include "loader/temp_dir.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-external-out-of-bounds";

// A folder with a 64-byte data file "w.bin" and the model referencing it.
struct Folder {
  TempDir dir;
  Folder() { dir.write("w.bin", std::string(64, '\x01')); }
  std::string model(const onnx::TensorProto& t) {
    return dir.write("model.onnx", model_with_initializer(t).bytes());
  }
  std::string message(const onnx::TensorProto& t) {
    auto d = file_diagnostics(kRule, model(t));
    EXPECT_EQ(d.size(), 1u);
    return d.empty() ? "" : d[0].message;
  }
};

TEST(DataExternalOutOfBounds, OffsetBeyondTheFile) {
  Folder f;
  auto t = external_tensor("W", {4}, "w.bin", "100", "16");
  EXPECT_THAT(file_findings(kRule, f.model(t)),
              ElementsAre("data-external-out-of-bounds main:'W'"));
  EXPECT_EQ(f.message(t),
            "external data of tensor 'W' starts at byte 100 but 'w.bin' has only 64 bytes");
}

TEST(DataExternalOutOfBounds, LengthRunsPastTheEnd) {
  Folder f;
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "56", "16")),
            "external data of tensor 'W' spans 16 bytes from offset 56 but 'w.bin' has only 64 "
            "bytes");
}

// Without a length entry the tensor needs dims × element size bytes from the offset.
TEST(DataExternalOutOfBounds, ImpliedLengthRunsPastTheEnd) {
  Folder f;
  EXPECT_EQ(f.message(external_tensor("W", {16}, "w.bin", "8")),
            "external data of tensor 'W' spans 64 bytes from offset 8 but 'w.bin' has only 64 "
            "bytes");
}

TEST(DataExternalOutOfBounds, LengthDisagreesWithDims) {
  Folder f;
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "0", "32")),
            "external data of tensor 'W' has length 32 but its dims and type need 16 bytes");
}

TEST(DataExternalOutOfBounds, NonNumericOffsetOrLength) {
  Folder f;
  const std::string expected = "external data of tensor 'W' has a non-numeric offset or length";
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "abc", "16")), expected);
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "abc")), expected);
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "-1", "16")), expected);
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "0", "16 ")), expected);
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "0", "99999999999999999999999")),
            expected);
}

TEST(DataExternalOutOfBounds, HugeOffsetDoesNotWrapAround) {
  Folder f;
  // offset + length overflows 64 bits: still out of bounds, not "fits".
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "18446744073709551615", "16")),
            "external data of tensor 'W' starts at byte 18446744073709551615 but 'w.bin' has "
            "only 64 bytes");
  EXPECT_EQ(f.message(external_tensor("W", {4}, "w.bin", "8", "18446744073709551615")),
            "external data of tensor 'W' spans 18446744073709551615 bytes from offset 8 but "
            "'w.bin' has only 64 bytes");
}

TEST(DataExternalOutOfBounds, NearMissExactFits) {
  Folder f;
  EXPECT_THAT(file_findings(kRule, f.model(external_tensor("W", {4}, "w.bin", "48", "16"))),
              IsEmpty());
  EXPECT_THAT(file_findings(kRule, f.model(external_tensor("W", {16}, "w.bin"))), IsEmpty());
  EXPECT_THAT(file_findings(kRule, f.model(external_tensor("W", {2, 2}, "w.bin", "", "16"))),
              IsEmpty());
  EXPECT_THAT(file_findings(kRule, f.model(external_tensor("W", {0}, "w.bin", "64", "0"))),
              IsEmpty());
}

// A missing file is data-external-missing's finding, not this rule's.
TEST(DataExternalOutOfBounds, NearMissMissingFile) {
  Folder f;
  EXPECT_THAT(file_findings(kRule, f.model(external_tensor("W", {4}, "gone.bin", "0", "16"))),
              IsEmpty());
}

TEST(DataExternalOutOfBounds, NestedInLoopBody) {
  Folder f;
  auto m = model_with_initializer(external_tensor("W", {4}, "w.bin", "60", "16"));
  std::string model = f.dir.write("nested.onnx", nest_in_loop(m.proto()));
  EXPECT_THAT(file_findings(kRule, model),
              ElementsAre(std::string("data-external-out-of-bounds ") + kNestedPath + ":'W'"));
}

TEST(DataExternalOutOfBounds, NestedInIfBranch) {
  Folder f;
  auto m = model_with_initializer(external_tensor("W", {4}, "w.bin", "0", "8"));
  std::string model = f.dir.write("nested.onnx", nest_in_if(m.proto()));
  EXPECT_THAT(file_findings(kRule, model),
              ElementsAre(std::string("data-external-out-of-bounds ") + kNestedIfPath + ":'W'"));
}

}  // namespace
}  // namespace onnxlint::testing
