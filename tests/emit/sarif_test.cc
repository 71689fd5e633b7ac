// SARIF 2.1.0 output: structure, level mapping, logical locations, fingerprints, and
// validation against the official schema (tests/data/sarif-schema-2.1.0.json) with Debian's
// python3-jsonschema.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/report.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "support/findings.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;

// Validates `doc` against the SARIF schema; returns "" or the validator's complaint.
std::string schema_errors(const json& doc) {
  std::random_device rd;
  fs::path tmp = fs::temp_directory_path() / ("onnxlint-sarif-" + std::to_string(rd()));
  fs::create_directories(tmp);
  std::ofstream(tmp / "out.sarif") << doc.dump();
  const std::string script =
      "import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "doc = json.load(open(sys.argv[2]))\n"
      "errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=str)\n"
      "for e in errors[:5]: print(list(e.absolute_path), e.message)\n"
      "sys.exit(1 if errors else 0)\n";
  std::ofstream(tmp / "validate.py") << script;
  const std::string cmd = "/usr/bin/python3 " + (tmp / "validate.py").string() + " " +
                          data_path("sarif-schema-2.1.0.json") + " " +
                          (tmp / "out.sarif").string() + " > " + (tmp / "log.txt").string() +
                          " 2>&1";
  int rc = std::system(cmd.c_str());
  std::ifstream log(tmp / "log.txt");
  std::stringstream ss;
  ss << log.rdbuf();
  fs::remove_all(tmp);
  return rc == 0 ? "" : "validator exit " + std::to_string(rc) + ": " + ss.str();
}

std::string model_bytes() {
  ModelBuilder m;
  m.producer("test", "1");
  m.metadata("onnx-lint:disable", "graph-unused-input, graph-nosuch");
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Abs", {"x"}, {"unused"}, "dead node");
  return m.bytes();
}

struct Emitted {
  Report report;
  json doc;
};

Emitted emit(const Linter& linter, Report report) {
  std::stringstream out;
  emit_sarif(report, linter, out);
  return {std::move(report), json::parse(out.str())};
}

Linter small_linter() {
  LintOptions o;
  o.select = {"graph-dead-node", "graph-unused-input", "model-unused-suppression",
              "model-unreadable"};
  o.severity = {{"graph-unused-input", Severity::Error}};
  return Linter(builtin_registry(), o);
}

const json* rule(const json& doc, const std::string& id) {
  for (const json& r : doc["runs"][0]["tool"]["driver"]["rules"]) {
    if (r["id"] == id) return &r;
  }
  return nullptr;
}

TEST(Sarif, ResultsCarryLevelLocationsAndFingerprints) {
  Linter linter = small_linter();
  Report report;
  report.files.push_back(linter.lint_bytes("my models/m v1.onnx", model_bytes()));
  report.files.push_back(linter.lint_bytes("/abs/broken.onnx", "not a model at all"));
  Emitted e = emit(linter, std::move(report));
  const json& run = e.doc["runs"][0];
  EXPECT_EQ(e.doc["version"], "2.1.0");
  EXPECT_EQ(run["tool"]["driver"]["name"], "onnx-lint");

  const json& results = run["results"];
  // Sorted as the report is: per file, model-level findings (the two suppression entries that
  // hid nothing) before graph findings (the dead node); then the broken file.
  ASSERT_EQ(results.size(), 4u) << results.dump(2);
  const json& dead = results[2];
  EXPECT_EQ(dead["ruleId"], "graph-dead-node");
  EXPECT_EQ(dead["level"], "warning");
  EXPECT_EQ(run["tool"]["driver"]["rules"][dead["ruleIndex"].get<size_t>()]["id"],
            "graph-dead-node");
  const json& loc = dead["locations"][0];
  EXPECT_EQ(loc["physicalLocation"]["artifactLocation"]["uri"], "my%20models/m%20v1.onnx");
  EXPECT_EQ(loc["physicalLocation"]["region"]["startLine"], 1);
  const json& logical = loc["logicalLocations"][0];
  EXPECT_EQ(logical["fullyQualifiedName"], "main/dead node");
  EXPECT_EQ(logical["name"], "dead node");
  EXPECT_EQ(logical["kind"], "function");
  EXPECT_EQ(logical["properties"]["graph"], "main");
  EXPECT_EQ(logical["properties"]["opType"], "Abs");
  EXPECT_EQ(logical["properties"]["nodeIndex"], 1);
  EXPECT_EQ(dead["partialFingerprints"]["onnxLint/v1"],
            e.report.files[0].diagnostics[2].fingerprint());
  EXPECT_THAT(dead["message"]["text"].get<std::string>(), HasSubstr("dead node"));

  const json& unused = results[0];
  EXPECT_EQ(unused["ruleId"], "model-unused-suppression");
  EXPECT_EQ(unused["level"], "note");                                 // info
  EXPECT_FALSE(unused["locations"][0].contains("logicalLocations"));  // the whole model
  EXPECT_THAT(unused["message"]["text"].get<std::string>(),
              HasSubstr("'graph-nosuch' names no rule id, category or glob\nhelp: "));
  EXPECT_EQ(results[1]["ruleId"], "model-unused-suppression");
  EXPECT_NE(results[1]["partialFingerprints"], unused["partialFingerprints"]);

  const json& broken = results[3];
  EXPECT_EQ(broken["ruleId"], "model-unreadable");
  EXPECT_EQ(broken["level"], "error");
  EXPECT_EQ(broken["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///abs/broken.onnx");
  EXPECT_TRUE(broken["properties"].contains("byteOffset"));

  EXPECT_EQ(run["properties"]["suppressedInModel"], 0);
  EXPECT_TRUE(run["invocations"][0]["executionSuccessful"].get<bool>());
  EXPECT_EQ(schema_errors(e.doc), "");
}

TEST(Sarif, RulesComeFromTheRegistryWithTheirDocumentation) {
  Linter linter = small_linter();
  Emitted e = emit(linter, Report{});
  const json& rules = e.doc["runs"][0]["tool"]["driver"]["rules"];
  std::vector<std::string> ids;
  for (const json& r : rules) ids.push_back(r["id"]);
  std::vector<std::string> expected = linter.enabled_rules();
  EXPECT_EQ(ids, expected);

  const json* unused = rule(e.doc, "model-unused-suppression");
  ASSERT_NE(unused, nullptr);
  const RuleInfo& info = *builtin_registry().find("model-unused-suppression")->info;
  EXPECT_EQ((*unused)["shortDescription"]["text"], info.summary);
  const std::string doc(RuleRegistry::documentation(info.id));
  ASSERT_FALSE(doc.empty());
  EXPECT_EQ((*unused)["help"]["markdown"], doc);
  // fullDescription is the "What it flags" paragraph, not the whole page.
  const std::string full = (*unused)["fullDescription"]["text"];
  EXPECT_THAT(doc, HasSubstr(full.substr(0, 40)));
  EXPECT_LT(full.size(), doc.size());
  EXPECT_EQ((*unused)["defaultConfiguration"]["level"], "note");
  // A configured severity shows in the rule's default level.
  EXPECT_EQ((*rule(e.doc, "graph-unused-input"))["defaultConfiguration"]["level"], "error");
  EXPECT_EQ(schema_errors(e.doc), "");
}

TEST(Sarif, WholeCorpusValidatesAgainstTheSchema) {
  Linter linter(builtin_registry(), LintOptions{});
  Report report = linter.lint_paths({data_path("corpus")});
  ASSERT_GT(report.files.size(), 30u);
  Emitted e = emit(linter, std::move(report));
  EXPECT_GT(e.doc["runs"][0]["results"].size(), 0u);
  EXPECT_EQ(schema_errors(e.doc), "");
}

// One finding per cause: the outputs a data-dependent shape reaches and the other nodes of a
// grouped target finding are relatedLocations, valid SARIF, each with a logical location.
TEST(Sarif, RelatedLocations) {
  LintOptions o;
  o.select = {"shape-data-dependent", "target-unsupported-op"};
  o.targets = {"onnxruntime-nnapi"};
  Linter linter(builtin_registry(), o);
  Report report;
  report.files.push_back(linter.lint_file(data_path("corpus/torch_bool_mask_index_op13.onnx")));
  report.files.push_back(linter.lint_file(data_path("corpus/torch_mha_dynamic_op14.onnx")));
  Emitted e = emit(linter, std::move(report));
  EXPECT_EQ(schema_errors(e.doc), "");
  size_t outputs = 0, nodes = 0;
  for (const json& r : e.doc["runs"][0]["results"]) {
    if (!r.contains("relatedLocations")) continue;
    for (const json& rl : r["relatedLocations"]) {
      ASSERT_TRUE(rl.contains("logicalLocations")) << rl.dump();
      const json& ll = rl["logicalLocations"][0];
      if (r["ruleId"] == "shape-data-dependent") {
        EXPECT_EQ(ll["kind"], "variable");
        EXPECT_EQ(rl["message"]["text"], "graph output");
        ++outputs;
      } else {
        EXPECT_EQ(ll["kind"], "function");
        ++nodes;
      }
    }
  }
  EXPECT_EQ(outputs, 1u);  // 'y' of the boolean-mask model
  EXPECT_GT(nodes, 0u);
}

// A cause repeated over an unrolled loop (torchvision's per-class post-processing) is one
// result with occurrenceCount and every other copy a related location.
TEST(Sarif, GroupedFindingsCarryTheirCount) {
  LintOptions o;
  o.select = {"shape-data-dependent"};
  Linter linter(builtin_registry(), o);
  Report report;
  report.files.push_back(linter.lint_file(data_path("corpus/torchvision_ssd_tiny_op11.onnx")));
  Emitted e = emit(linter, std::move(report));
  EXPECT_EQ(schema_errors(e.doc), "");
  std::map<std::string, std::pair<int, size_t>> by_node;  // occurrenceCount, copies related
  for (const json& r : e.doc["runs"][0]["results"]) {
    size_t copies = 0;
    for (const json& rl : r.value("relatedLocations", json::array())) {
      copies += rl["message"]["text"] == "same cause";
    }
    by_node[r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]] = {
        r.value("occurrenceCount", 1), copies};
  }
  EXPECT_EQ(by_node, (std::map<std::string, std::pair<int, size_t>>{
                         {"main/NonZero", {6, 5}}, {"main/ConstantOfShape", {3, 2}}}));
}

TEST(Sarif, ValidatorRejectsBrokenDocuments) {
  // The validation above can fail: a result without a message is not SARIF.
  json doc = {{"version", "2.1.0"},
              {"runs", {{{"tool", {{"driver", {{"name", "x"}}}}}, {"results", {json::object()}}}}}};
  EXPECT_NE(schema_errors(doc), "");
}

TEST(Sarif, PartialFingerprintsIgnoreTheMessage) {
  Linter linter = small_linter();
  Report report;
  report.files.resize(1);
  report.files[0].diagnostics = {finding("graph-dead-node", Severity::Warning, "message about n",
                                         {.node = "n", .node_index = 0})};
  const json before = emit(linter, report).doc["runs"][0]["results"][0]["partialFingerprints"];
  report.files[0].diagnostics[0].message = "reworded";
  report.files[0].diagnostics[0].notes = {"a new note"};
  const json after = emit(linter, report).doc["runs"][0]["results"][0]["partialFingerprints"];
  EXPECT_EQ(before, after);
  EXPECT_EQ(before, json({{"onnxLint/v1", report.files[0].diagnostics[0].fingerprint()}}));
}

// Past code scanning's 25 000 results per run, the most severe are kept (in report order) and
// the run says how many were left out.
TEST(Sarif, KeepsTheMostSevereResultsPastTheLimit) {
  Linter linter = small_linter();
  Report report;
  report.files.resize(1);
  for (int i = 0; i < 12; ++i) {
    const Severity s = i % 3 == 0   ? Severity::Error
                       : i % 3 == 1 ? Severity::Info
                                    : Severity::Warning;
    const std::string node = "n" + std::to_string(i);
    report.files[0].diagnostics.push_back(
        finding("graph-dead-node", s, "message about " + node, {.node = node, .node_index = 0}));
  }
  std::stringstream out;
  emit_sarif(report, linter, out, 6);
  const json doc = json::parse(out.str());
  const json& run = doc["runs"][0];
  std::vector<std::string> kept;
  for (const json& r : run["results"]) {
    kept.push_back(r["locations"][0]["logicalLocations"][0]["name"].get<std::string>());
  }
  // 4 errors (n0, n3, n6, n9) and the first 2 warnings (n2, n5), in report order.
  EXPECT_EQ(kept, (std::vector<std::string>{"n0", "n2", "n3", "n5", "n6", "n9"}));
  EXPECT_EQ(run["properties"]["resultsOmitted"], 6);
  const json& note = run["invocations"][0]["toolExecutionNotifications"][0];
  EXPECT_EQ(note["level"], "warning");
  EXPECT_THAT(note["message"]["text"].get<std::string>(),
              HasSubstr("6 of 12 results left out: code scanning accepts at most 6 results"));
  EXPECT_TRUE(run["invocations"][0]["executionSuccessful"].get<bool>());
  EXPECT_EQ(schema_errors(doc), "");

  // Under the limit nothing changes, and the default limit is code scanning's.
  std::stringstream all;
  emit_sarif(report, linter, all);
  EXPECT_EQ(json::parse(all.str())["runs"][0]["results"].size(), 12u);
  EXPECT_FALSE(json::parse(all.str())["runs"][0]["properties"].contains("resultsOmitted"));
  EXPECT_EQ(kSarifMaxResults, 25000u);
}

TEST(Sarif, RelatedLocationsStopAtTheLimit) {
  Linter linter = small_linter();
  Report report;
  report.files.resize(1);
  Diagnostic d = finding("graph-dead-node", Severity::Warning, "message about n",
                         {.node = "n", .node_index = 0});
  for (size_t i = 0; i < kSarifMaxRelatedLocations + 5; ++i) {
    const std::string node = "r" + std::to_string(i);
    d.related.push_back(
        {finding("graph-dead-node", Severity::Warning, "", {.node = node, .node_index = 0})
             .location,
         ""});
  }
  report.files[0].diagnostics = {d};
  const json result = emit(linter, report).doc["runs"][0]["results"][0];
  EXPECT_EQ(result["relatedLocations"].size(), kSarifMaxRelatedLocations);
  EXPECT_EQ(result["properties"]["relatedLocationsOmitted"], 5);
}

}  // namespace
}  // namespace onnxlint::testing
