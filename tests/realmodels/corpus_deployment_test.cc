// The corpus (tests/data/corpus): every expect / forbid entry of manifest.json that concerns
// the deployment rules (data-fp16-overflow, quant-*, target-runtime-specific-op,
// data-epcontext-*) holds. An entry may carry "targets": [...] (default: none) and "at": node
// or value names where the rule must (expect) or must not (forbid) report.
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
  return id == "data-fp16-overflow" || id.starts_with("quant-") ||
         id == "target-runtime-specific-op" || id.starts_with("data-epcontext-");
}

struct Findings {
  std::set<std::string> ids;
  std::set<std::pair<std::string, std::string>> at;  // (rule, node or value name)
};

Findings lint(const std::string& file, const std::vector<std::string>& targets) {
  LintOptions options;
  for (const auto& e : builtin_registry().entries()) {
    if (mine(e.info->id)) options.select.push_back(e.info->id);
  }
  options.targets = targets;
  Linter linter(builtin_registry(), options);
  Findings r;
  for (const Diagnostic& d : linter.lint_file(file).diagnostics) {
    r.ids.insert(d.rule_id);
    r.at.insert({d.rule_id, d.location.node_name});
    r.at.insert({d.rule_id, d.location.value_name});
  }
  return r;
}

TEST(CorpusDeployment, ManifestEntriesHold) {
  std::ifstream in(data_path("corpus/manifest.json"));
  ASSERT_TRUE(in) << "manifest.json missing";
  const nlohmann::json manifest = nlohmann::json::parse(in);
  size_t expects = 0, forbids = 0;
  for (const auto& m : manifest.at("models")) {
    const std::string file =
        data_path("corpus/" + fs::path(m.at("file").get<std::string>()).filename().string());
    if (!fs::exists(file)) continue;
    auto targets_of = [](const nlohmann::json& e) {
      return e.value("targets", std::vector<std::string>{});
    };
    auto check = [&](const nlohmann::json& e, bool expect) {
      std::vector<std::string> ids;
      for (const auto& id : e.at("any_of")) {
        if (mine(id.get<std::string>())) ids.push_back(id.get<std::string>());
      }
      if (ids.empty()) return;
      const Findings r = lint(file, targets_of(e));
      if (expect) {
        ++expects;
        if (!e.contains("at")) {
          bool hit = false;
          for (const auto& id : ids) hit |= r.ids.count(id) > 0;
          EXPECT_TRUE(hit) << file << ": expected " << e.dump();
          return;
        }
        for (const std::string where : e["at"]) {
          bool hit = false;
          for (const auto& id : ids) hit |= r.at.count({id, where}) > 0;
          EXPECT_TRUE(hit) << file << ": expected at '" << where << "': " << e.dump();
        }
        return;
      }
      ++forbids;
      for (const auto& id : ids) {
        if (!e.contains("at")) {
          EXPECT_EQ(r.ids.count(id), 0u) << file << ": forbidden " << e.dump();
          continue;
        }
        for (const std::string where : e["at"]) {
          EXPECT_EQ(r.at.count({id, where}), 0u) << file << ": forbidden at " << e.dump();
        }
      }
    };
    for (const auto& e : m.value("expect", nlohmann::json::array())) check(e, true);
    for (const auto& e : m.value("forbid", nlohmann::json::array())) check(e, false);
  }
  EXPECT_GE(expects, 8u);
  EXPECT_GE(forbids, 12u);
}

}  // namespace
}  // namespace onnxlint::testing
