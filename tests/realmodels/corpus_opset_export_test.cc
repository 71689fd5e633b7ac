// The PyTorch-exported corpus (tests/data/corpus): every expect / forbid / clean entry of
// manifest.json that concerns the opset-*, export-* (except export-unrolled-loop and
// export-baked-shape, checked by corpus_shape_flow_test) and model-ir-version rules holds.
#include <gtest/gtest.h>
#include <onnxlint/linter.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;

bool mine(const std::string& id) {
  return id.starts_with("opset-") || id == "model-ir-version" ||
         (id.starts_with("export-") && id != "export-unrolled-loop" &&
          id != "export-baked-shape");  // both checked with the shape rules
}

TEST(CorpusOpsetExport, ManifestEntriesHold) {
  std::ifstream in(data_path("corpus/manifest.json"));
  ASSERT_TRUE(in) << "manifest.json missing";
  const nlohmann::json manifest = nlohmann::json::parse(in);
  LintOptions options;
  options.select = {"opset",          "export-training-mode", "export-python-op",
                    "export-aten-op", "export-custom-domain", "model-ir-version"};
  Linter linter(builtin_registry(), options);
  size_t models = 0, expects = 0, forbids = 0;
  for (const auto& m : manifest.at("models")) {
    const std::string file =
        data_path("corpus/" + fs::path(m.at("file").get<std::string>()).filename().string());
    if (!fs::exists(file)) continue;  // the large torchvision models are not copied
    ++models;
    FileReport report = linter.lint_file(file);
    std::set<std::string> reported, serious;
    for (const Diagnostic& d : report.diagnostics) {
      reported.insert(d.rule_id);
      if (d.severity != Severity::Info) serious.insert(d.rule_id);
    }
    for (const auto& e : m.value("expect", nlohmann::json::array())) {
      bool all_mine = true, hit = false;
      for (const auto& id : e.at("any_of")) {
        all_mine &= mine(id.get<std::string>());
        hit |= reported.count(id.get<std::string>()) > 0;
      }
      if (!all_mine) continue;  // another family decides
      ++expects;
      EXPECT_TRUE(hit) << file << ": expected " << e.dump();
    }
    std::set<std::string> accepted;
    for (const auto& e : m.value("accept", nlohmann::json::array())) {
      for (const auto& id : e.at("any_of")) accepted.insert(id.get<std::string>());
    }
    for (const auto& e : m.value("forbid", nlohmann::json::array())) {
      for (const auto& id : e.at("any_of")) {
        if (!mine(id.get<std::string>())) continue;
        ++forbids;
        EXPECT_EQ(reported.count(id.get<std::string>()), 0u) << file << ": forbidden " << e.dump();
      }
    }
    if (m.value("clean", false)) {
      for (const std::string& id : serious) {
        EXPECT_TRUE(accepted.count(id) > 0) << file << " is clean but got " << id;
      }
    }
  }
  EXPECT_GE(models, 39u);
  EXPECT_GE(expects, 6u);
  EXPECT_GT(forbids, 100u);
}

}  // namespace
}  // namespace onnxlint::testing
