// The JSON report's model facts: signatures with declared and analysed dims, the op histogram,
// model metadata, external-data files and their hashes, verdicts and run header.
#include <gtest/gtest.h>
#include <onnxlint/onnxlint.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lib/driver/model_summary.h"
#include "tests/emit/validate.h"
#include "tests/support/model_builder.h"

namespace onnxlint {

nlohmann::json report_json(const Report& report, const Linter& linter);  // lib/emit/json.cc

namespace {

using testing::GraphBuilder;
using testing::ModelBuilder;
namespace fs = std::filesystem;

FileReport lint(const std::string& bytes, LintOptions options = {},
                const std::string& directory = ".") {
  options.select = {"graph-dead-node"};
  Linter linter(builtin_registry(), options);
  return linter.lint_bytes("m.onnx", bytes, directory);
}

std::string dims_text(const std::optional<std::vector<DimSummary>>& dims) {
  if (!dims) return "none";
  std::string out;
  for (const DimSummary& d : *dims) {
    if (!out.empty()) out += ",";
    switch (d.kind) {
      case DimSummary::Kind::Fixed:
        out += std::to_string(d.value);
        break;
      case DimSummary::Kind::Symbolic:
        out += d.text;
        break;
      case DimSummary::Kind::Data:
        out += "data(" + d.text + (d.bound >= 0 ? "<=" + std::to_string(d.bound) : "") + ")";
        break;
      case DimSummary::Kind::Unknown:
        out += "?";
        break;
    }
  }
  return out;
}

TEST(ModelSummary, SignaturesCarryDeclaredAndAnalysedDims) {
  ModelBuilder mb(17);
  GraphBuilder& g = mb.graph();
  g.input("x", testing::kFloat, {std::string("N"), 4});
  g.initializer(testing::make_tensor_f32("w", {4}, {1, 2, 3, 4}));
  // IR < 4 style: the weight listed as an input too is not part of the signature.
  g.input("w", testing::kFloat, {4});
  g.node("Add", {"x", "w"}, {"a"}, "add");
  testing::attr_int(g.node("Concat", {"a", "a"}, {"y"}, "cat"), "axis", 0);
  g.node("NonZero", {"x"}, {"nz"}, "nz");
  g.input("z", testing::kFloat, {3, 4});
  g.node("NonZero", {"z"}, {"nz2"}, "nz2");
  g.output("y", testing::kFloat, {std::string("Concaty_dim_0"), 4});
  g.output("nz", testing::kInt64, {});
  g.output("nz2", testing::kInt64, {2, std::string("NonZeronz2_dim_1")});
  const FileReport r = lint(mb.bytes());
  ASSERT_TRUE(r.model);
  const ModelSummary& m = *r.model;
  ASSERT_EQ(m.inputs.size(), 2u);
  EXPECT_EQ(m.inputs[0].name, "x");
  EXPECT_EQ(m.inputs[0].type, "tensor(float)");
  EXPECT_EQ(dims_text(m.inputs[0].dims), "N,4");
  EXPECT_FALSE(m.inputs[0].analysis);
  ASSERT_EQ(m.outputs.size(), 3u);
  EXPECT_EQ(dims_text(m.outputs[0].dims), "Concaty_dim_0,4");
  EXPECT_EQ(dims_text(m.outputs[0].analysis), "N+N,4");
  EXPECT_EQ(m.outputs[1].type, "tensor(int64)");
  EXPECT_EQ(dims_text(m.outputs[1].dims), "");  // declared rank 0: an empty shape
  EXPECT_EQ(dims_text(m.outputs[1].analysis), "2,data(nz)");
  EXPECT_EQ(dims_text(m.outputs[2].dims), "2,NonZeronz2_dim_1");
  EXPECT_EQ(dims_text(m.outputs[2].analysis), "2,data(nz2<=12)");
}

TEST(ModelSummary, OpHistogramCoversSubgraphsAndFoldsTheDefaultDomain) {
  ModelBuilder mb(17);
  mb.opset("com.microsoft", 1);
  GraphBuilder& g = mb.graph();
  g.input("x", testing::kFloat, {2});
  g.node("Relu", {"x"}, {"a"}, "r1");
  g.node("Relu", {"a"}, {"b"}, "r2").set_domain("ai.onnx");
  g.node("FusedGemm", {"b"}, {"c"}, "f").set_domain("com.microsoft");
  g.output("c", testing::kFloat, {2});
  const std::string nested = testing::nest_in_loop(mb.proto());
  const FileReport r = lint(nested);
  ASSERT_TRUE(r.model);
  const auto& ops = r.model->ops;
  ASSERT_TRUE(ops.contains("ai.onnx"));
  EXPECT_EQ(ops.at("ai.onnx").at("Relu"), 2u);
  EXPECT_EQ(ops.at("ai.onnx").at("Loop"), 1u);
  EXPECT_EQ(ops.at("com.microsoft").at("FusedGemm"), 1u);
  EXPECT_EQ(ops.size(), 2u);
}

TEST(ModelSummary, MetadataDocStringAndVersion) {
  ModelBuilder mb(17);
  mb.metadata("author", "me").metadata("license", "MIT");
  mb.proto().set_model_version(7);
  mb.proto().set_doc_string(std::string(kSummaryDocStringBytes + 10, 'd'));
  mb.proto().mutable_graph()->set_name("g");
  mb.graph().input("x", testing::kFloat, {1});
  mb.graph().node("Relu", {"x"}, {"y"}, "r");
  mb.graph().output("y", testing::kFloat, {1});
  const FileReport r = lint(mb.bytes());
  ASSERT_TRUE(r.model);
  EXPECT_EQ(r.model->model_version, 7);
  EXPECT_EQ(r.model->doc_string.size(), kSummaryDocStringBytes);
  EXPECT_EQ(r.model->doc_string_bytes, kSummaryDocStringBytes + 10);
  EXPECT_EQ(r.model->graph_name, "g");
  const std::vector<std::pair<std::string, std::string>> expected = {{"author", "me"},
                                                                     {"license", "MIT"}};
  EXPECT_EQ(r.model->metadata_props, expected);
  EXPECT_TRUE(r.model->sha256.empty());  // only with LintOptions::hash
}

TEST(ModelSummary, Sha256IsTheStandardDigest) {
  const std::string abc = "abc";  // FIPS 180-2 test vector
  EXPECT_EQ(sha256_hex(std::as_bytes(std::span<const char>(abc.data(), abc.size()))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

void add_external(GraphBuilder& g, const std::string& name, const std::string& location) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(testing::kFloat);
  t.add_dims(1);
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = t.add_external_data();
  e->set_key("location");
  e->set_value(location);
  g.initializer(t);
}

TEST(ModelSummary, ExternalFilesAreListedOnceSizedAndHashedInsideTheFolderOnly) {
  const fs::path dir =
      fs::temp_directory_path() / ("onnxlint_summary_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "w.bin") << "abc";
  fs::create_directory(dir / "sub");
  ModelBuilder mb(17);
  GraphBuilder& g = mb.graph();
  g.input("x", testing::kFloat, {1});
  add_external(g, "a", "w.bin");
  add_external(g, "b", "w.bin");
  add_external(g, "c", "missing.bin");
  add_external(g, "d", "../outside.bin");
  add_external(g, "e", "/etc/passwd");
  add_external(g, "f", "sub");
  g.node("Sum", {"x", "a", "b", "c", "d", "e", "f"}, {"y"}, "s");
  g.output("y", testing::kFloat, {1});

  const FileReport plain = lint(mb.bytes(), {}, dir.string());
  ASSERT_TRUE(plain.model);
  const auto& files = plain.model->external_data;
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files[0].location, "w.bin");
  EXPECT_EQ(files[0].tensors, 2u);
  EXPECT_EQ(files[0].bytes, 3u);
  EXPECT_EQ(files[0].sha256, "");
  EXPECT_EQ(files[0].error, "");
  EXPECT_EQ(files[1].error, "does not exist");
  EXPECT_FALSE(files[1].bytes);
  EXPECT_EQ(files[2].error, "outside the model's folder (not looked at)");
  EXPECT_EQ(files[3].error, "an absolute path (not looked at)");
  EXPECT_EQ(files[4].error, "not a regular file");

  LintOptions hashing;
  hashing.hash = true;
  const std::string bytes = mb.bytes();
  const FileReport hashed = lint(bytes, hashing, dir.string());
  ASSERT_TRUE(hashed.model);
  EXPECT_EQ(hashed.model->external_data[0].sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hashed.model->external_data[1].sha256, "");
  EXPECT_EQ(hashed.model->external_data[3].sha256, "");
  EXPECT_EQ(hashed.model->sha256,
            sha256_hex(std::as_bytes(std::span<const char>(bytes.data(), bytes.size()))));
  fs::remove_all(dir);
}

TEST(Verdicts, FollowTheExitCode) {
  FileReport ok, warn, unreadable, missing;
  Diagnostic w;
  w.rule_id = "graph-dead-node";
  w.severity = Severity::Warning;
  warn.diagnostics.push_back(w);
  unreadable.status = FileReport::Status::Unreadable;
  missing.status = FileReport::Status::PathError;
  Report report;
  report.files = {ok, warn, unreadable, missing};
  EXPECT_EQ(decide_verdicts(report, Severity::Warning), 2);
  EXPECT_EQ(report.run.fail_on, Severity::Warning);
  EXPECT_FALSE(report.files[0].failed);
  EXPECT_TRUE(report.files[1].failed);
  EXPECT_TRUE(report.files[2].failed);
  EXPECT_TRUE(report.files[3].failed);
  EXPECT_FALSE(file_fails(warn, Severity::Error));
  // `--fail-on never`: an unreadable model passes, as the exit code says; a path error does not.
  EXPECT_FALSE(file_fails(unreadable, std::nullopt));
  EXPECT_TRUE(file_fails(missing, std::nullopt));
}

// The JSON report of one corpus model linted with `options`.
nlohmann::json corpus_report_json(const std::string& model, const LintOptions& options) {
  Linter linter(builtin_registry(), options);
  Report report;
  report.files.push_back(linter.lint_file(testing::data_path("corpus/" + model)));
  return report_json(report, linter);
}

// A finding of one cause repeated (Diagnostic::count) has `count`, valid against the published
// schema; a finding of one place has none.
TEST(JsonReport, GroupedFindingsHaveACount) {
  LintOptions options;
  options.select = {"shape-data-dependent", "flow-data-dependent-if"};
  const nlohmann::json j = corpus_report_json("torchvision_ssd_tiny_op11.onnx", options);
  std::map<std::string, int> counts;
  size_t related = 0;
  for (const nlohmann::json& d : j["files"][0]["diagnostics"]) {
    counts[d["location"]["node"]["name"]] = d.value("count", 0);
    related += d.value("related", nlohmann::json::array()).size();
  }
  EXPECT_EQ(counts,
            (std::map<std::string, int>{{"/NonZero", 6}, {"/ConstantOfShape", 3}, {"If_401", 0}}));
  // The copies (5 and 2) and the graph outputs they reach: '447' from /NonZero, '469' from its
  // copy /NonZero_1 (kept: no place is lost by grouping), '448' from /ConstantOfShape.
  EXPECT_EQ(related, 5u + 2 + 3);
  EXPECT_EQ(testing::json_schema_errors(j.dump(), "../../docs/json-report.schema.json"), "");
}

// A finding that restated another (one dynamic input for two targets) is the other's `also`,
// valid against the published schema.
TEST(JsonReport, FoldedFindingsAreTheirCounterpartsAlso) {
  LintOptions options;
  options.select = {"target-dynamic-shape"};
  options.targets = {"nnapi", "coreml"};
  const nlohmann::json j = corpus_report_json("torch_mlp_dynamic_batch_op13.onnx", options);
  const nlohmann::json& diags = j["files"][0]["diagnostics"];
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0]["target"], "onnxruntime-nnapi");
  EXPECT_EQ(diags[0]["severity"], "warning");
  ASSERT_EQ(diags[0]["also"].size(), 1u);
  EXPECT_EQ(diags[0]["also"][0]["rule"], "target-dynamic-shape");
  EXPECT_EQ(diags[0]["also"][0]["target"], "onnxruntime-coreml-mlprogram");
  EXPECT_EQ(diags[0]["also"][0]["severity"], "info");
  EXPECT_EQ(testing::json_schema_errors(j.dump(), "../../docs/json-report.schema.json"), "");
}

TEST(JsonReport, CarriesVerdictsCountsByRuleAndTheRunHeader) {
  ModelBuilder mb(17);
  GraphBuilder& g = mb.graph();
  g.input("x", testing::kFloat, {1});
  g.node("Relu", {"x"}, {"y"}, "r");
  g.node("Neg", {"x"}, {"dead"}, "dead");
  g.output("y", testing::kFloat, {1});
  LintOptions options;
  options.select = {"graph-dead-node"};
  Linter linter(builtin_registry(), options);
  Report report;
  report.files.push_back(linter.lint_bytes("m.onnx", mb.bytes()));
  report.run.targets = {"tensorrt"};
  report.run.tables = {{"onnx", "1.19.0"}, {"tensorrt", "10.15"}};
  report.run.config_file = "onnx-lint.toml";
  EXPECT_EQ(decide_verdicts(report, Severity::Warning), 1);
  const nlohmann::json j = report_json(report, linter);
  const nlohmann::json& f = j["files"][0];
  EXPECT_EQ(f["verdict"], "fail");
  EXPECT_EQ(f["counts_by_rule"], nlohmann::json({{"graph-dead-node", 1}}));
  EXPECT_EQ(f["hidden"], 0);
  EXPECT_EQ(f["model"]["ops"], nlohmann::json({{"ai.onnx", {{"Neg", 1}, {"Relu", 1}}}}));
  EXPECT_EQ(f["model"]["inputs"],
            nlohmann::json::parse(R"J([{"name": "x", "type": "tensor(float)", "dims": [1]}])J"));
  EXPECT_EQ(j["run"], nlohmann::json::parse(
                          R"({"targets": ["tensorrt"], "required_targets": [], "fail_on": "warning",
      "config_file": "onnx-lint.toml", "baseline_file": null, "hash": false,
      "tables": {"onnx": "1.19.0", "tensorrt": "10.15"}})"));
  EXPECT_EQ(j["summary"]["failed"], 1);
  EXPECT_EQ(j["summary"]["passed"], 0);
  EXPECT_EQ(j["summary"]["unreadable"], 0);

  // The streamed document is the same as the one built in memory.
  std::ostringstream streamed;
  emit_json(report, linter, streamed);
  EXPECT_EQ(nlohmann::json::parse(streamed.str()), j);
}

}  // namespace
}  // namespace onnxlint
