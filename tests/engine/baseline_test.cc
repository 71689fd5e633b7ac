// Baselines: fingerprints stable across runs, machines (checkout location, working folder,
// relative or absolute paths) and message rewording; only new findings count.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/baseline.h>

#include <fstream>
#include <sstream>

#include "loader/temp_dir.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// Restores the working folder when a test changes it.
class ScopedCwd {
 public:
  explicit ScopedCwd(const fs::path& p) : old_(fs::current_path()) { fs::current_path(p); }
  ~ScopedCwd() { fs::current_path(old_); }

 private:
  fs::path old_;
};

std::string model_with_dead_nodes(int dead) {
  ModelBuilder m;
  m.producer("test", "1");
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  for (int i = 0; i < dead; ++i) {
    m.graph().node("Abs", {"x"}, {"unused" + std::to_string(i)}, "dead" + std::to_string(i));
  }
  return m.bytes();
}

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

Linter make_linter() {
  LintOptions o;
  o.select = {"graph-dead-node"};
  return Linter(builtin_registry(), o);
}

std::vector<std::string> anchors(const Report& r) {
  std::vector<std::string> out;
  for (const FileReport& f : r.files) {
    for (const Diagnostic& d : f.diagnostics) out.push_back(d.rule_id + " " + d.location.anchor());
  }
  return out;
}

uint64_t baselined(const Report& r) {
  uint64_t n = 0;
  for (const FileReport& f : r.files) n += f.baselined;
  return n;
}

TEST(Baseline, FingerprintsAreStableAcrossRuns) {
  TempDir t;
  write_file(t.path() / "m.onnx", model_with_dead_nodes(2));
  Linter linter = make_linter();
  Report a = linter.lint_paths({(t.path() / "m.onnx").string()});
  Report b = linter.lint_paths({(t.path() / "m.onnx").string()});
  ASSERT_EQ(a.files[0].diagnostics.size(), 2u);
  Baseline base(t.path());
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.files[0].diagnostics[i].fingerprint(), b.files[0].diagnostics[i].fingerprint());
    EXPECT_EQ(base.fingerprint(a.files[0].diagnostics[i]),
              base.fingerprint(b.files[0].diagnostics[i]));
  }
  // Different findings, different fingerprints.
  EXPECT_NE(base.fingerprint(a.files[0].diagnostics[0]),
            base.fingerprint(a.files[0].diagnostics[1]));
}

TEST(Baseline, FingerprintsAreStableAcrossMachinesAndWorkingFolders) {
  // Machine A: the repository lives at A/work/repo and the model is linted by absolute path.
  TempDir a, b;
  const std::string bytes = model_with_dead_nodes(1);
  fs::path repo_a = a.path() / "work" / "repo";
  write_file(repo_a / "models" / "m.onnx", bytes);
  Report ra = make_linter().lint_paths({(repo_a / "models" / "m.onnx").string()});
  ASSERT_EQ(ra.files[0].diagnostics.size(), 1u);
  Baseline written(baseline_root(repo_a / "onnx-lint-baseline.json"));
  written.add(ra);
  written.save(repo_a / "onnx-lint-baseline.json");

  std::stringstream text;
  written.write(text);
  EXPECT_THAT(text.str(), HasSubstr("\"file\": \"models/m.onnx\""));
  EXPECT_THAT(text.str(), Not(HasSubstr(a.path().string())));  // nothing machine-specific

  // Machine B: another checkout location; the baseline file travels with the repository.
  fs::path repo_b = b.path() / "elsewhere" / "checkout";
  write_file(repo_b / "models" / "m.onnx", bytes);
  fs::copy_file(repo_a / "onnx-lint-baseline.json", repo_b / "onnx-lint-baseline.json");
  Baseline loaded = Baseline::load(repo_b / "onnx-lint-baseline.json");
  EXPECT_EQ(loaded.root(), repo_b);

  {  // relative path from the repository root, with a "./" prefix
    ScopedCwd cwd(repo_b);
    Report r = make_linter().lint_paths({"./models/m.onnx"});
    EXPECT_EQ(loaded.apply(r).fixed, 0u);
    EXPECT_THAT(anchors(r), IsEmpty());
    EXPECT_EQ(baselined(r), 1u);
  }
  {  // relative path from a subfolder, and the folder form
    ScopedCwd cwd(repo_b / "models");
    Report r = make_linter().lint_paths({"m.onnx"});
    EXPECT_EQ(loaded.apply(r).fixed, 0u);
    EXPECT_EQ(baselined(r), 1u);
    Report dir = make_linter().lint_paths({"."});
    EXPECT_EQ(loaded.apply(dir).fixed, 0u);
    EXPECT_EQ(baselined(dir), 1u);
  }
  // A model at another path is a different finding.
  write_file(repo_b / "other" / "m.onnx", bytes);
  Report moved = make_linter().lint_paths({(repo_b / "other" / "m.onnx").string()});
  // models/m.onnx was not linted (and is still there): its entry is neither fixed nor stale.
  BaselineOutcome outcome = loaded.apply(moved);
  EXPECT_EQ(outcome.fixed, 0u);
  EXPECT_THAT(outcome.stale, IsEmpty());
  EXPECT_THAT(outcome.moved, IsEmpty());
  EXPECT_THAT(anchors(moved), ElementsAre("graph-dead-node main/dead0"));
}

TEST(Baseline, FingerprintsIgnoreMessageWording) {
  TempDir t;
  write_file(t.path() / "m.onnx", model_with_dead_nodes(1));
  Report r = make_linter().lint_paths({(t.path() / "m.onnx").string()});
  Baseline base(t.path());
  base.add(r);
  Diagnostic& d = r.files[0].diagnostics.at(0);
  const std::string before = base.fingerprint(d), raw = d.fingerprint();
  d.message = "a completely rewritten message";
  d.notes = {"a new note"};
  d.help = "new advice";
  d.severity = Severity::Error;  // a severity change is configuration, not identity
  EXPECT_EQ(base.fingerprint(d), before);
  EXPECT_EQ(d.fingerprint(), raw);
  EXPECT_EQ(base.apply(r).fixed, 0u);
  EXPECT_THAT(anchors(r), IsEmpty());
}

TEST(Baseline, OnlyNewFindingsCountTowardTheExitCode) {
  TempDir t;
  fs::path model = t.path() / "m.onnx";
  write_file(model, model_with_dead_nodes(1));
  Report before = make_linter().lint_paths({model.string()});
  EXPECT_EQ(exit_code(before, Severity::Warning), 1);
  Baseline base(t.path());
  base.add(before);
  EXPECT_EQ(base.apply(before).fixed, 0u);
  EXPECT_EQ(exit_code(before, Severity::Warning), 0);

  write_file(model, model_with_dead_nodes(2));  // a new dead node appears
  Report after = make_linter().lint_paths({model.string()});
  EXPECT_EQ(base.apply(after).fixed, 0u);
  EXPECT_THAT(anchors(after), ElementsAre("graph-dead-node main/dead1"));
  EXPECT_EQ(after.files[0].baselined, 1u);
  EXPECT_EQ(exit_code(after, Severity::Warning), 1);

  write_file(model, model_with_dead_nodes(0));  // everything fixed: the entry is stale
  Report fixed = make_linter().lint_paths({model.string()});
  EXPECT_EQ(base.apply(fixed).fixed, 1u);
}

Diagnostic finding(const std::string& rule, const std::string& node) {
  Diagnostic d;
  d.rule_id = rule;
  d.location.file = "m.onnx";
  d.location.graph_path = "main";
  d.location.node_name = node;
  d.message = "m";
  return d;
}

TEST(Baseline, StaleEntriesAreCountedOnlyForTheModelsLinted) {
  TempDir t;
  write_file(t.path() / "a.onnx", model_with_dead_nodes(1));
  write_file(t.path() / "b.onnx", model_with_dead_nodes(1));
  Baseline base(t.path());
  base.add(make_linter().lint_paths({t.path().string()}));
  ASSERT_EQ(base.entries().size(), 2u);
  // Linting only a.onnx (as a pre-commit hook does with the staged files): b's entry is not
  // stale, it is just not looked at.
  Report only_a = make_linter().lint_paths({(t.path() / "a.onnx").string()});
  EXPECT_EQ(base.apply(only_a).fixed, 0u);
  EXPECT_EQ(baselined(only_a), 1u);
  write_file(t.path() / "a.onnx", model_with_dead_nodes(0));
  Report fixed_a = make_linter().lint_paths({(t.path() / "a.onnx").string()});
  EXPECT_EQ(base.apply(fixed_a).fixed, 1u);
}

TEST(Baseline, EachEntryAcceptsOneFinding) {
  Report r;
  r.files.resize(1);
  r.files[0].diagnostics = {finding("graph-dead-node", "n"), finding("graph-dead-node", "n")};
  Baseline base(fs::current_path());
  Report one;
  one.files.resize(1);
  one.files[0].diagnostics = {finding("graph-dead-node", "n")};
  base.add(one);
  EXPECT_EQ(base.apply(r).fixed, 0u);
  EXPECT_EQ(r.files[0].diagnostics.size(), 1u);  // the second copy is new
  EXPECT_EQ(r.files[0].baselined, 1u);
}

TEST(Baseline, InternalErrorsAreNeverAccepted) {
  Report r;
  r.files.resize(1);
  r.files[0].diagnostics = {finding("internal-error", "n"), finding("graph-dead-node", "n")};
  Baseline base(fs::current_path());
  base.add(r);
  EXPECT_EQ(base.entries().size(), 1u);
  EXPECT_EQ(base.apply(r).fixed, 0u);
  ASSERT_EQ(r.files[0].diagnostics.size(), 1u);
  EXPECT_EQ(r.files[0].diagnostics[0].rule_id, "internal-error");
  EXPECT_EQ(exit_code(r, Severity::Error), 2);
}

TEST(Baseline, SavesDeterministicallyAndLoadsBack) {
  TempDir t;
  Report r;
  r.files.resize(1);
  r.files[0].diagnostics = {finding("graph-unused-input", "b"), finding("graph-dead-node", "a")};
  Baseline base(t.path());
  base.add(r);
  base.save(t.path() / "b1.json");
  Baseline loaded = Baseline::load(t.path() / "b1.json");
  loaded.save(t.path() / "b2.json");
  auto read = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  EXPECT_EQ(read(t.path() / "b1.json"), read(t.path() / "b2.json"));
  ASSERT_EQ(loaded.entries().size(), 2u);
  EXPECT_EQ(loaded.entries()[0].anchor, "main/a");  // sorted by file, location, rule
  EXPECT_EQ(loaded.entries()[0].rule, "graph-dead-node");
}

TEST(Baseline, LoadErrorsNameTheFile) {
  TempDir t;
  auto error_of = [&](const std::string& text) -> std::string {
    write_file(t.path() / "b.json", text);
    try {
      Baseline::load(t.path() / "b.json");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_THAT(error_of("{"), HasSubstr("b.json: not a baseline file"));
  EXPECT_THAT(error_of("{\"findings\": []}"), HasSubstr("unsupported schema_version"));
  EXPECT_THAT(error_of("{\"schema_version\": 1, \"findings\": [{}]}"),
              HasSubstr("every finding needs a \"fingerprint\""));
  EXPECT_EQ(error_of("{\"schema_version\": 1, \"findings\": []}"), "(no error)");
  EXPECT_THROW(Baseline::load(t.path() / "missing.json"), ConfigError);
}

}  // namespace
}  // namespace onnxlint::testing
