// LintOptions::timings (`--timings`): where one file's lint spends its time, by phase, analysis
// and rule, in self times; carried across isolation's workers; summed by emit_timings().
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/report.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "loader/temp_dir.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

LintOptions all_rules() {
  LintOptions o;
  o.select = {"ALL"};
  return o;
}

std::string chain_bytes() {
  ModelBuilder m;
  m.graph().input("x", kFloat, {"N", 4}).output("z", kFloat, {"N", 4});
  m.graph().node("Relu", {"x"}, {"y"});
  m.graph().node("Neg", {"y"}, {"z"});
  return m.bytes();
}

std::set<std::string> names_of(const FileReport& f, TimingEntry::Kind kind) {
  std::set<std::string> out;
  for (const TimingEntry& t : f.timings) {
    if (t.kind == kind) out.insert(t.name);
  }
  return out;
}

const TimingEntry* find(const FileReport& f, TimingEntry::Kind kind, const std::string& name) {
  for (const TimingEntry& t : f.timings) {
    if (t.kind == kind && t.name == name) return &t;
  }
  return nullptr;
}

TEST(Timings, OffByDefault) {
  const Linter linter(builtin_registry(), all_rules());
  EXPECT_TRUE(linter.lint_bytes("m.onnx", chain_bytes()).timings.empty());
}

TEST(Timings, EveryPhaseAnalysisAndRuleThatRan) {
  LintOptions o = all_rules();
  o.timings = true;
  const Linter linter(builtin_registry(), o);
  const FileReport f = linter.lint_bytes("m.onnx", chain_bytes());
  EXPECT_THAT(names_of(f, TimingEntry::Kind::Phase), IsSupersetOf({"load", "summary", "findings"}));
  EXPECT_THAT(names_of(f, TimingEntry::Kind::Analysis),
              IsSupersetOf({"Provenance", "GraphIndex", "ValueTable", "ElementTypes"}));
  // Every rule that ran is listed once, with its callbacks counted: on_model, on_graph and
  // on_model_end at least.
  const std::set<std::string> rules = names_of(f, TimingEntry::Kind::Rule);
  for (const RuleRegistry::Entry& e : builtin_registry().entries()) {
    if (e.info->engine || !e.factory) continue;
    EXPECT_TRUE(rules.count(e.info->id)) << e.info->id;
  }
  const TimingEntry* dead = find(f, TimingEntry::Kind::Rule, "graph-dead-node");
  ASSERT_NE(dead, nullptr);
  EXPECT_GE(dead->calls, 3u);
  for (const TimingEntry& t : f.timings) {
    if (t.kind != TimingEntry::Kind::Rule) {
      EXPECT_EQ(t.calls, 1u) << t.name;  // once per file
    }
  }
  std::ostringstream table;
  Report r;
  r.files.push_back(f);
  emit_timings(r, table);
  EXPECT_THAT(table.str(), HasSubstr("phase load"));
  EXPECT_THAT(table.str(), HasSubstr("analysis Provenance"));
  EXPECT_THAT(table.str(), HasSubstr("rule graph-dead-node"));
}

TEST(Timings, TheSameEntriesFromLintFileAndThroughAWorkerProcess) {
  TempDir dir;
  const std::string path = dir.write("m.onnx", chain_bytes());
  LintOptions o = all_rules();
  o.timings = true;
  const FileReport direct = Linter(builtin_registry(), o).lint_file(path);
  EXPECT_NE(find(direct, TimingEntry::Kind::Phase, "free"), nullptr);
  o.isolate = true;
  const Report isolated = Linter(builtin_registry(), o).lint_paths({path});
  ASSERT_EQ(isolated.files.size(), 1u);
  std::vector<std::pair<int, std::string>> a, b;
  for (const TimingEntry& t : direct.timings) a.emplace_back(int(t.kind), t.name);
  for (const TimingEntry& t : isolated.files[0].timings) b.emplace_back(int(t.kind), t.name);
  EXPECT_EQ(a, b);
}

TEST(Timings, TheTableSumsFilesSlowestFirstAndNothingWithoutTimings) {
  Report r;
  std::ostringstream none;
  r.files.emplace_back();
  emit_timings(r, none);
  EXPECT_EQ(none.str(), "");

  FileReport f1, f2;
  f1.timings = {{TimingEntry::Kind::Phase, "load", 3'000'000, 1},
                {TimingEntry::Kind::Rule, "graph-dead-node", 1'000'000, 3}};
  f2.timings = {{TimingEntry::Kind::Phase, "load", 1'000'000, 1},
                {TimingEntry::Kind::Analysis, "Provenance", 2'000'000, 1}};
  r.files = {f1, f2};
  std::ostringstream table;
  emit_timings(r, table, {{TimingEntry::Kind::Phase, "report", 1'000'000, 1}});
  EXPECT_EQ(table.str(),
            "onnx-lint timings: 2 files, 8.0 ms measured (self times)\n"
            "what                   time (ms)   share      calls\n"
            "phase load                 4.000   50.0%          2\n"
            "analysis Provenance        2.000   25.0%          1\n"
            "phase report               1.000   12.5%          1\n"
            "rule graph-dead-node       1.000   12.5%          3\n");
}

}  // namespace
}  // namespace onnxlint::testing
