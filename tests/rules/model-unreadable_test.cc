// model-unreadable is reported by the engine (the loader's LoadError), not by a rule callback.
// Byte-level robustness (every truncation, bit flips) is in tests/loader/.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/registry.h>

#include <fstream>

#include "loader/temp_dir.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "model-unreadable";
constexpr const char* kAtModel = "model-unreadable ";

std::string relu_model() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  return m.bytes();
}

// Loop bodies nested `depth` deep, each one holding the next Loop.
std::string nested_loops(int depth) {
  onnx::GraphProto inner;
  inner.set_name("leaf");
  for (int i = 0; i < depth; ++i) {
    onnx::GraphProto outer;
    outer.set_name("level" + std::to_string(i));
    auto* n = outer.add_node();
    n->set_op_type("Loop");
    n->set_name("loop" + std::to_string(i));
    attr_graph(*n, "body", inner);
    inner = outer;
  }
  ModelBuilder m;
  *m.proto().mutable_graph() = inner;
  return m.bytes();
}

Diagnostic only_diagnostic(const std::string& bytes) {
  auto d = diagnostics(kRule, bytes);
  EXPECT_EQ(d.size(), 1u);
  return d.empty() ? Diagnostic{} : d[0];
}

TEST(ModelUnreadable, EmptyFile) {
  Diagnostic d = only_diagnostic("");
  EXPECT_EQ(d.message, "cannot read the model: file is empty (at byte 0)");
  EXPECT_EQ(d.location.byte_offset, 0u);
  EXPECT_EQ(d.severity, Severity::Error);
}

TEST(ModelUnreadable, NotAnOnnxFile) {
  EXPECT_THAT(findings(kRule, "hello, this is a text file\n"), ElementsAre(kAtModel));
  Diagnostic d = only_diagnostic("{\"json\": true}");
  EXPECT_THAT(d.message, HasSubstr("cannot read the model"));
  EXPECT_TRUE(d.location.byte_offset.has_value());
}

// A file that is not a model at all is named in the user's terms, not the parser's (wire
// types, field numbers): those stay in a note.
TEST(ModelUnreadable, WhatTheFileIsInsteadOfProtobufJargon) {
  const std::pair<std::string, std::string> kinds[] = {
      {"hello, this is a text file\n", "a text file"},
      {"PK\x03\x04\x14\x00\x00\x00", "a zip archive (torch.save writes PyTorch checkpoints"},
      {std::string("\x80\x02}q\x00(X", 7), "a Python pickle"},
      {"\x89HDF\r\n\x1a\n", "an HDF5 file (a Keras model)"},
      {std::string("\x1c\x00\x00\x00TFL3\x00\x00", 10), "a TensorFlow Lite model"},
      {"\x89PNG\r\n\x1a\n0000", "an image"},
      {"  <!DOCTYPE html><html>", "an HTML page"},
      {"ir_version: 8\nproducer_name: \"x\"\n", "ONNX in text form"},
  };
  for (const auto& [bytes, what] : kinds) {
    const Diagnostic d = only_diagnostic(bytes);
    EXPECT_THAT(d.message, HasSubstr("cannot read the model: the file is " + what)) << what;
    EXPECT_THAT(d.message, ::testing::EndsWith("not an ONNX model")) << what;
    EXPECT_THAT(d.message, ::testing::Not(HasSubstr("wire type"))) << what;
    EXPECT_THAT(d.notes, ElementsAre(::testing::StartsWith("the protobuf parser stopped at byte")))
        << what;
    EXPECT_FALSE(d.help.empty()) << what;
  }
  // A truncated model starts like one: the parser's words, with the offset.
  const std::string model = relu_model();
  const Diagnostic cut = only_diagnostic(model.substr(0, 10));
  EXPECT_THAT(cut.message, ::testing::Not(HasSubstr("the file is")));
  EXPECT_THAT(cut.message, HasSubstr("(at byte"));
}

TEST(ModelUnreadable, TruncatedModelNamesTheOffset) {
  std::string bytes = relu_model();
  std::string cut = bytes.substr(0, bytes.size() - 3);
  Diagnostic d = only_diagnostic(cut);
  EXPECT_THAT(d.message, HasSubstr("runs past the end"));
  ASSERT_TRUE(d.location.byte_offset.has_value());
  EXPECT_LT(*d.location.byte_offset, cut.size());
  EXPECT_THAT(d.message, HasSubstr("(at byte " + std::to_string(*d.location.byte_offset) + ")"));
}

TEST(ModelUnreadable, BadVarint) {
  // ir_version (field 1, varint) whose varint never ends within 10 bytes.
  Diagnostic d = only_diagnostic(std::string("\x08") + std::string(11, '\xff'));
  EXPECT_THAT(d.message, HasSubstr("varint"));
  EXPECT_EQ(d.location.byte_offset, 1u);
  // A varint cut off by the end of the file.
  Diagnostic t = only_diagnostic(std::string("\x08\x80\x80", 3));
  EXPECT_THAT(t.message, HasSubstr("truncated varint"));
  EXPECT_EQ(t.location.byte_offset, 1u);
}

TEST(ModelUnreadable, HugeDeclaredLength) {
  // graph (field 7) declaring 2^40 bytes in a 10-byte file.
  std::string bytes = "\x3a";
  uint64_t v = 1ull << 40;
  while (v >= 0x80) {
    bytes.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  bytes.push_back(static_cast<char>(v));
  Diagnostic d = only_diagnostic(bytes);
  EXPECT_THAT(d.message, HasSubstr("length 1099511627776 of field 7 runs past the end"));
  EXPECT_EQ(d.location.byte_offset, 1u);
}

TEST(ModelUnreadable, NestingBeyondTheLimit) {
  Diagnostic d = only_diagnostic(nested_loops(70));
  EXPECT_THAT(d.message, HasSubstr("subgraphs nested deeper than 64"));
  // Within the limit it loads.
  EXPECT_THAT(findings(kRule, nested_loops(60)), IsEmpty());
}

TEST(ModelUnreadable, MissingFileAndFolder) {
  LintOptions options;
  options.select = {kRule};
  Linter linter(builtin_registry(), options);
  TempDir dir;
  FileReport missing = linter.lint_file(dir.str("nope.onnx"));
  EXPECT_EQ(missing.status, FileReport::Status::Unreadable);
  ASSERT_EQ(missing.diagnostics.size(), 1u);
  EXPECT_THAT(missing.diagnostics[0].message, HasSubstr("cannot open"));
  EXPECT_EQ(missing.diagnostics[0].location.file, dir.str("nope.onnx"));

  FileReport folder = linter.lint_file(dir.str());
  ASSERT_EQ(folder.diagnostics.size(), 1u);
  EXPECT_THAT(folder.diagnostics[0].message, HasSubstr("not a regular file"));
}

TEST(ModelUnreadable, GitLfsPointerIsNamed) {
  const std::string pointer =
      "version https://git-lfs.github.com/spec/v1\n"
      "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
      "size 12345\n";
  Diagnostic d = only_diagnostic(pointer);
  EXPECT_EQ(d.message, "cannot read the model: this is a Git LFS pointer, not the model");
  EXPECT_THAT(d.help, HasSubstr("git lfs pull"));
  EXPECT_FALSE(d.location.byte_offset.has_value());  // no offset into a pointer file
  // Also from a file.
  TempDir dir;
  const std::string path = dir.str("model.onnx");
  {
    std::ofstream f(path, std::ios::binary);
    f << pointer;
  }
  Linter linter(builtin_registry(), LintOptions{});
  FileReport r = linter.lint_file(path);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, d.message);
}

// Nothing can be checked in a file that cannot be read: the finding is there and the run fails
// whatever the selection, severity overrides or --fail-on level (but never) say.
TEST(ModelUnreadable, AlwaysReportedAndAlwaysFails) {
  LintOptions o;
  o.select = {"graph-dead-node"};
  o.ignore = {"model-unreadable", "model"};
  o.severity = {{"model-unreadable", Severity::Info}};
  Linter linter(builtin_registry(), o);
  Report report;
  report.files.push_back(linter.lint_bytes("bad.onnx", "not a model"));
  ASSERT_EQ(report.files[0].diagnostics.size(), 1u);
  EXPECT_EQ(report.files[0].diagnostics[0].rule_id, kRule);
  EXPECT_EQ(report.files[0].diagnostics[0].severity, Severity::Error);
  EXPECT_TRUE(report.has_unreadable());
  EXPECT_EQ(exit_code(report, Severity::Error), 1);
  EXPECT_EQ(exit_code(report, Severity::Info), 1);
  EXPECT_EQ(exit_code(report, std::nullopt), 0);
  // Hiding by severity never hides it: it is why the run fails.
  hide_below(report, Severity::Error);
  EXPECT_EQ(report.files[0].diagnostics.size(), 1u);
}

TEST(ModelUnreadable, NearMissValidModel) { EXPECT_THAT(findings(kRule, relu_model()), IsEmpty()); }

// Unreadable in a subgraph is unreadable for the whole model: the finding is model-level.
TEST(ModelUnreadable, CorruptSubgraphIsModelLevel) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  std::string nested = nest_in_loop(m.proto());
  // Corrupt a byte inside the Loop body: the body's node op_type "Relu" becomes a field with
  // wire type 7, which does not exist.
  size_t at = nested.find("Relu");
  ASSERT_NE(at, std::string::npos);
  nested[at - 2] = '\x27';  // tag of the op_type field (4, LEN) -> field 4, wire type 7
  Diagnostic d = only_diagnostic(nested);
  EXPECT_THAT(d.message, HasSubstr("wire type 7"));
  EXPECT_EQ(d.location.graph_path, "");
  EXPECT_EQ(d.location.byte_offset, at - 2);
}

}  // namespace
}  // namespace onnxlint::testing
