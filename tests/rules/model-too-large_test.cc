#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/registry.h>

#include "loader/temp_dir.h"
#include "loader/wire_writer.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "model-too-large";
constexpr uint64_t kLimit = 2147483647;  // INT32_MAX: protobuf's serialized-size limit

FileReport lint_only_rule(const std::string& path) {
  LintOptions options;
  options.select = {kRule};
  Linter linter(builtin_registry(), options);
  return linter.lint_file(path);
}

std::vector<std::string> rule_ids(const FileReport& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) out.push_back(d.rule_id + " " + d.location.anchor());
  return out;
}

// The file is sparse: ftruncate leaves the 2.5 GiB payload as a hole, so this costs no disk
// space, and the loader must skip the payload without reading it.
TEST(ModelTooLarge, SparseFileOverTwoGiB) {
  TempDir dir;
  const uint64_t payload = 2560ull << 20;  // 2.5 GiB of raw_data
  auto big = wire_writer::write_sparse_model(dir.str("big.onnx"), payload);
  FileReport r = lint_only_rule(big.path);
  ASSERT_EQ(r.status, FileReport::Status::Ok);
  EXPECT_THAT(rule_ids(r), ElementsAre("model-too-large "));
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_THAT(d.message, HasSubstr("2.50 GiB"));
  EXPECT_THAT(d.notes,
              ElementsAre(std::to_string(payload) + " bytes of it are embedded initializer data"));
  EXPECT_THAT(d.help, HasSubstr("save_as_external_data=True"));
  ASSERT_TRUE(r.model.has_value());
  EXPECT_EQ(r.model->file_bytes, big.file_size);
  EXPECT_EQ(r.model->initializer_bytes, payload);
}

// The boundary: INT32_MAX bytes is still parseable by protobuf, one byte more is not.
TEST(ModelTooLarge, BoundaryAtInt32Max) {
  TempDir dir;
  auto at_limit = wire_writer::write_sparse_model(dir.str("at.onnx"),
                                                  wire_writer::payload_for_file_size(kLimit));
  ASSERT_EQ(at_limit.file_size, kLimit);
  EXPECT_THAT(rule_ids(lint_only_rule(at_limit.path)), IsEmpty());

  auto over = wire_writer::write_sparse_model(dir.str("over.onnx"),
                                              wire_writer::payload_for_file_size(kLimit + 1));
  ASSERT_EQ(over.file_size, kLimit + 1);
  EXPECT_THAT(rule_ids(lint_only_rule(over.path)), ElementsAre("model-too-large "));
}

TEST(ModelTooLarge, NearMissSmallModel) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_raw("W", kFloat, {1024}, 4096));
  m.graph().node("Add", {"x", "W"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// A model-level rule: nesting does not apply. Small nested models stay silent as well.
TEST(ModelTooLarge, NearMissNestedSmallModel) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_raw("W", kFloat, {4}, 16));
  m.graph().node("Add", {"x", "W"}, {"y"});
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
