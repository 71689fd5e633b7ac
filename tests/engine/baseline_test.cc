// Baselines: fingerprints stable across runs, machines (checkout location, working folder,
// relative or absolute paths) and message rewording; only new findings count.
#include <fmt/format.h>
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
using ::testing::Pair;

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

// --- models that move (issue 29, item 7) ------------------------------------------------------

// A repository with a baseline at its root.
struct Repo {
  TempDir dir;
  fs::path at(const std::string& relative) const { return dir.path() / relative; }
  fs::path baseline() const { return at("baseline.json"); }
  Report lint(const std::vector<std::string>& relative) const {
    std::vector<std::string> paths;
    for (const std::string& r : relative) paths.push_back(at(r).string());
    return make_linter().lint_paths(paths);
  }
  // As `onnx-lint --write-baseline baseline.json PATHS...`, then as `--baseline` reads it.
  Baseline write_baseline(const std::vector<std::string>& relative) const {
    Baseline b(baseline_root(baseline()));
    b.add(lint(relative));
    b.save(baseline());
    return Baseline::load(baseline());
  }
  void move(const std::string& from, const std::string& to) const {
    fs::create_directories(at(to).parent_path());
    fs::rename(at(from), at(to));
  }
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> moves(const BaselineOutcome& o) {
  std::vector<std::string> out;
  for (const auto& m : o.moved)
    out.push_back(fmt::format("{} -> {} ({})", m.from, m.to, m.entries));
  return out;
}

std::vector<std::string> stale(const BaselineOutcome& o) {
  std::vector<std::string> out;
  for (const auto& s : o.stale) {
    out.push_back(fmt::format("{} ({}{})", s.file, s.entries, s.hashed ? "" : ", no hash"));
  }
  return out;
}

TEST(BaselineMoves, RecordsTheSha256OfEachModelWithEntries) {
  Repo repo;
  write_file(repo.at("models/a.onnx"), model_with_dead_nodes(2));
  write_file(repo.at("models/clean.onnx"), model_with_dead_nodes(0));
  Baseline loaded = repo.write_baseline({"models"});
  // The digest --hash reports (lib/driver/model_summary: the project's one SHA-256).
  LintOptions o;
  o.select = {"graph-dead-node"};
  o.hash = true;
  Report hashed = Linter(builtin_registry(), o).lint_paths({repo.at("models/a.onnx").string()});
  ASSERT_TRUE(hashed.files[0].model.has_value());
  const std::string sha = hashed.files[0].model->sha256;
  ASSERT_EQ(sha.size(), 64u);
  // Only the model with entries: the clean one has nothing to take along.
  EXPECT_THAT(loaded.file_hashes(), ElementsAre(Pair("models/a.onnx", sha)));
  EXPECT_THAT(read_text(repo.baseline()),
              HasSubstr("\"files\": {\n    \"models/a.onnx\": {\n      \"sha256\": \"" + sha));
  // A report that carries the digest (--hash) gives the same value without reading the file.
  Baseline from_report(repo.dir.path());
  from_report.add(hashed);
  EXPECT_EQ(from_report.file_hashes(), loaded.file_hashes());
}

TEST(BaselineMoves, AModelMovedUnchangedKeepsItsEntries) {
  Repo repo;
  write_file(repo.at("models/a.onnx"), model_with_dead_nodes(2));
  write_file(repo.at("models/other.onnx"), model_with_dead_nodes(1));
  Baseline base = repo.write_baseline({"models"});
  repo.move("models/a.onnx", "renamed/b.onnx");  // as `git mv`

  Report all = repo.lint({"models", "renamed"});
  BaselineOutcome outcome = base.apply(all);
  EXPECT_THAT(anchors(all), IsEmpty());  // no new finding
  EXPECT_EQ(baselined(all), 3u);
  EXPECT_THAT(moves(outcome), ElementsAre("models/a.onnx -> renamed/b.onnx (2)"));
  EXPECT_THAT(outcome.stale, IsEmpty());
  EXPECT_EQ(outcome.fixed, 0u);
  EXPECT_EQ(outcome.notice("baseline.json"),
            "onnx-lint: baseline baseline.json: models/a.onnx is now renamed/b.onnx (the same "
            "bytes): its 2 entries still apply\n"
            "onnx-lint: refresh the baseline over all the models it covers: onnx-lint "
            "--write-baseline baseline.json MODEL...\n");

  // Only the moved model (a pre-commit hook lints the staged files).
  Report staged = repo.lint({"renamed/b.onnx"});
  EXPECT_THAT(moves(base.apply(staged)), ElementsAre("models/a.onnx -> renamed/b.onnx (2)"));
  EXPECT_THAT(anchors(staged), IsEmpty());

  // Moved, then one of its findings gone: that entry is fixed, not stale.
  Report again = repo.lint({"renamed/b.onnx"});
  again.files[0].diagnostics.pop_back();
  BaselineOutcome fixed = base.apply(again);
  EXPECT_EQ(fixed.fixed, 1u);
  EXPECT_THAT(fixed.stale, IsEmpty());
}

TEST(BaselineMoves, AModelMovedAndEditedIsANewModel) {
  Repo repo;
  write_file(repo.at("models/a.onnx"), model_with_dead_nodes(2));
  Baseline base = repo.write_baseline({"models"});
  repo.move("models/a.onnx", "models/b.onnx");
  write_file(repo.at("models/b.onnx"), model_with_dead_nodes(3));  // other bytes: not proven

  Report r = repo.lint({"models"});
  BaselineOutcome outcome = base.apply(r);
  EXPECT_THAT(anchors(r), ElementsAre("graph-dead-node main/dead0", "graph-dead-node main/dead1",
                                      "graph-dead-node main/dead2"));
  EXPECT_EQ(baselined(r), 0u);
  EXPECT_EQ(exit_code(r, Severity::Warning), 1);
  EXPECT_THAT(outcome.moved, IsEmpty());
  EXPECT_THAT(stale(outcome), ElementsAre("models/a.onnx (2)"));
  EXPECT_EQ(outcome.stale_entries(), 2u);
  EXPECT_EQ(outcome.fixed, 0u);
  EXPECT_EQ(outcome.notice("ci/base.json"),
            "onnx-lint: baseline ci/base.json: models/a.onnx no longer exists and no model linted "
            "has its bytes: its 2 entries are stale\n"
            "onnx-lint: refresh the baseline over all the models it covers: onnx-lint "
            "--write-baseline ci/base.json MODEL...\n");
}

TEST(BaselineMoves, ADeletedModelsEntriesAreStaleWhateverTheRunLints) {
  Repo repo;
  write_file(repo.at("a.onnx"), model_with_dead_nodes(1));
  write_file(repo.at("b.onnx"), model_with_dead_nodes(2));
  Baseline base = repo.write_baseline({"a.onnx", "b.onnx"});
  fs::remove(repo.at("a.onnx"));
  Report only_b = repo.lint({"b.onnx"});
  BaselineOutcome outcome = base.apply(only_b);
  EXPECT_THAT(stale(outcome), ElementsAre("a.onnx (1)"));
  EXPECT_EQ(baselined(only_b), 2u);
  EXPECT_EQ(outcome.fixed, 0u);
}

TEST(BaselineMoves, AMissingPathGivenToTheRunIsAPathErrorNotStaleEntries) {
  Repo repo;
  write_file(repo.at("a.onnx"), model_with_dead_nodes(1));
  Baseline base = repo.write_baseline({"a.onnx"});
  fs::remove(repo.at("a.onnx"));
  Report r = repo.lint({"a.onnx"});  // the report says "no such file or folder" (exit 2)
  ASSERT_EQ(r.files[0].status, FileReport::Status::PathError);
  BaselineOutcome outcome = base.apply(r);
  EXPECT_THAT(outcome.stale, IsEmpty());
  EXPECT_EQ(outcome.notice("b.json"), "");
  // Its move is still followed (`onnx-lint a.onnx b.onnx` after `git mv a.onnx b.onnx`).
  write_file(repo.at("b.onnx"), model_with_dead_nodes(1));
  Report both = repo.lint({"a.onnx", "b.onnx"});
  EXPECT_THAT(moves(base.apply(both)), ElementsAre("a.onnx -> b.onnx (1)"));
  EXPECT_THAT(anchors(both), IsEmpty());
}

TEST(BaselineMoves, OnlyAPathWithoutEntriesOfItsOwnTakesOver) {
  Repo repo;
  write_file(repo.at("a.onnx"), model_with_dead_nodes(2));
  write_file(repo.at("b.onnx"), model_with_dead_nodes(1));
  Baseline base = repo.write_baseline({"a.onnx", "b.onnx"});
  repo.move("a.onnx", "b.onnx");  // over b: b is not a newcomer, its own entry applies
  Report r = repo.lint({"b.onnx"});
  BaselineOutcome outcome = base.apply(r);
  EXPECT_THAT(anchors(r), ElementsAre("graph-dead-node main/dead1"));
  EXPECT_EQ(baselined(r), 1u);
  EXPECT_THAT(outcome.moved, IsEmpty());
  EXPECT_THAT(stale(outcome), ElementsAre("a.onnx (2)"));
}

TEST(BaselineMoves, AMoveAndACopyPairInPathOrder) {
  Repo repo;
  const std::string bytes = model_with_dead_nodes(2);
  write_file(repo.at("a.onnx"), bytes);
  Baseline base = repo.write_baseline({"a.onnx"});
  repo.move("a.onnx", "d.onnx");
  write_file(repo.at("c.onnx"), bytes);  // a copy: one of the two is new
  Report r = repo.lint({"d.onnx", "c.onnx"});
  BaselineOutcome outcome = base.apply(r);
  EXPECT_THAT(moves(outcome), ElementsAre("a.onnx -> c.onnx (2)"));
  EXPECT_EQ(r.files[0].diagnostics.size(), 2u);  // d.onnx: the copy's findings are new
  EXPECT_EQ(r.files[1].baselined, 2u);
  EXPECT_THAT(outcome.stale, IsEmpty());
}

TEST(BaselineMoves, TwoIdenticalModelsMovedBothKeepTheirEntries) {
  Repo repo;
  const std::string bytes = model_with_dead_nodes(2);
  write_file(repo.at("old/a.onnx"), bytes);
  write_file(repo.at("old/b.onnx"), bytes);
  Baseline base = repo.write_baseline({"old"});
  repo.move("old/a.onnx", "new/a.onnx");
  repo.move("old/b.onnx", "new/b.onnx");
  Report r = repo.lint({"new"});
  BaselineOutcome outcome = base.apply(r);
  EXPECT_THAT(anchors(r), IsEmpty());
  EXPECT_THAT(moves(outcome),
              ElementsAre("old/a.onnx -> new/a.onnx (2)", "old/b.onnx -> new/b.onnx (2)"));
}

TEST(BaselineMoves, BytesLintedUnderANameAreMatchedOnlyWhenProven) {
  Repo repo;
  const std::string bytes = model_with_dead_nodes(1);
  write_file(repo.at("a.onnx"), bytes);
  Baseline base = repo.write_baseline({"a.onnx"});
  repo.move("a.onnx", "b.onnx");
  const std::string b = repo.at("b.onnx").string();
  LintOptions o;
  o.select = {"graph-dead-node"};
  o.hash = true;
  const Linter hashing(builtin_registry(), o);
  auto lint_bytes = [&](const Linter& linter, const std::string& name, const std::string& what) {
    Report r;
    r.files.push_back(linter.lint_bytes(name, what));
    return r;
  };

  // As `--stdin-filename b.onnx` from an editor: the file b.onnx has a's bytes, but the bytes
  // linted are an edit of them. Their size differs from the file's, which proves that the
  // file's digest is not theirs: no move.
  const std::string edited = model_with_dead_nodes(2);
  Report r = lint_bytes(make_linter(), b, edited);
  BaselineOutcome outcome = base.apply(r);
  EXPECT_THAT(outcome.moved, IsEmpty());
  EXPECT_THAT(stale(outcome), ElementsAre("a.onnx (1)"));
  EXPECT_THAT(anchors(r), ElementsAre("graph-dead-node main/dead0", "graph-dead-node main/dead1"));
  // With --hash the report carries the digest of the bytes linted, the edit's: no move either.
  Report hashed_edit = lint_bytes(hashing, b, edited);
  EXPECT_THAT(base.apply(hashed_edit).moved, IsEmpty());
  EXPECT_EQ(baselined(hashed_edit), 0u);

  // The bytes of the file: a move, proven by the file's digest or by the report's.
  Report same = lint_bytes(make_linter(), b, bytes);
  EXPECT_THAT(moves(base.apply(same)), ElementsAre("a.onnx -> b.onnx (1)"));
  EXPECT_THAT(anchors(same), IsEmpty());
  Report hashed = lint_bytes(hashing, b, bytes);
  EXPECT_THAT(moves(base.apply(hashed)), ElementsAre("a.onnx -> b.onnx (1)"));

  // Standard input is never a move.
  Report from_stdin = lint_bytes(make_linter(), "-", bytes);
  EXPECT_THAT(stale(base.apply(from_stdin)), ElementsAre("a.onnx (1)"));
}

TEST(BaselineMoves, NoticeText) {
  EXPECT_EQ(BaselineOutcome{}.notice("b.json"), "");
  BaselineOutcome one;
  one.moved = {{"a.onnx", "b.onnx", 1}};
  one.stale = {{"gone.onnx", 1, false}};
  one.fixed = 1;
  EXPECT_EQ(one.notice("b.json"),
            "onnx-lint: baseline b.json: a.onnx is now b.onnx (the same bytes): its 1 entry still "
            "applies\n"
            "onnx-lint: baseline b.json: gone.onnx no longer exists and the baseline has no hash "
            "of it to find it elsewhere: its 1 entry is stale\n"
            "onnx-lint: 1 baseline entry matched no finding (fixed?); refresh with "
            "--write-baseline b.json\n"
            "onnx-lint: refresh the baseline over all the models it covers: onnx-lint "
            "--write-baseline b.json MODEL...\n");
  // Only fixed entries: the line the command always printed.
  BaselineOutcome fixed;
  fixed.fixed = 2;
  EXPECT_EQ(fixed.notice("b.json"),
            "onnx-lint: 2 baseline entries matched no finding (fixed?); refresh with "
            "--write-baseline b.json\n");
  // Many stale files: ten named, the others counted.
  BaselineOutcome many;
  for (int i = 0; i < 13; ++i) many.stale.push_back({fmt::format("m{:02}.onnx", i), 2, true});
  const std::string text = many.notice("b.json");
  EXPECT_THAT(text, HasSubstr("m09.onnx no longer exists"));
  EXPECT_THAT(text, Not(HasSubstr("m10.onnx")));
  EXPECT_THAT(text, HasSubstr("onnx-lint: baseline b.json: and 3 more files that no longer exist "
                              "(6 entries)\n"));
  EXPECT_EQ(many.stale_entries(), 26u);
  // Paths come from the baseline file, that is from whoever wrote the repository.
  BaselineOutcome hostile;
  hostile.stale = {{"x\n::error::\x1b[31m.onnx", 1, true}};
  const std::string escaped = hostile.notice("b\x1b.json");
  EXPECT_THAT(escaped, Not(HasSubstr("\x1b")));
  EXPECT_THAT(escaped, HasSubstr("x\\x0a::error::\\x1b[31m.onnx"));
  EXPECT_THAT(escaped, HasSubstr("b\\x1b.json"));
}

TEST(BaselineMoves, ABaselineWithoutHashesStillLoadsAndApplies) {
  // Written before baselines recorded each model's SHA-256: no "files" object.
  Repo repo;
  write_file(repo.at("models/a.onnx"), model_with_dead_nodes(1));
  Report r = repo.lint({"models/a.onnx"});
  const std::string fp = Baseline(repo.dir.path()).fingerprint(r.files[0].diagnostics.at(0));
  write_file(repo.baseline(), R"({
  "comment": "Findings accepted by `onnx-lint --write-baseline`; only new findings fail a run. Paths are relative to this file's folder.",
  "findings": [
    {
      "file": "models/a.onnx",
      "fingerprint": ")" + fp + R"(",
      "location": "main/dead0",
      "rule": "graph-dead-node"
    }
  ],
  "schema_version": 1,
  "tool": "onnx-lint"
}
)");
  Baseline old = Baseline::load(repo.baseline());
  EXPECT_THAT(old.file_hashes(), IsEmpty());
  ASSERT_EQ(old.entries().size(), 1u);
  EXPECT_EQ(old.apply(r).fixed, 0u);
  EXPECT_THAT(anchors(r), IsEmpty());

  // A move cannot be recognised without the hash: the entry is stale, and the notice says why.
  repo.move("models/a.onnx", "models/b.onnx");
  Report moved = repo.lint({"models/b.onnx"});
  BaselineOutcome outcome = old.apply(moved);
  EXPECT_THAT(anchors(moved), ElementsAre("graph-dead-node main/dead0"));
  EXPECT_THAT(stale(outcome), ElementsAre("models/a.onnx (1, no hash)"));
  EXPECT_THAT(outcome.notice("baseline.json"), HasSubstr("the baseline has no hash of it"));
}

TEST(BaselineMoves, MalformedHashesAreConfigErrors) {
  TempDir t;
  auto error_of = [&](const std::string& files) -> std::string {
    write_file(t.path() / "b.json",
               R"({"schema_version": 1, "findings": [], "files": )" + files + "}");
    try {
      Baseline::load(t.path() / "b.json");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string hex(64, 'a');
  EXPECT_THAT(error_of("[]"),
              HasSubstr("b.json: not a baseline file: \"files\" must be an object"));
  const std::string need = "every entry of \"files\" needs a \"sha256\" of 64 hex digits";
  for (const std::string& bad : std::vector<std::string>{
           R"({"a.onnx": ")" + hex + "\"}", R"({"a.onnx": {}})", R"({"a.onnx": {"sha256": 7}})",
           R"({"a.onnx": {"sha256": ")" + hex.substr(1) + "\"}}",
           R"({"a.onnx": {"sha256": ")" + hex + "0\"}}",
           R"({"a.onnx": {"sha256": ")" + std::string(63, 'a') + "g\"}}",
           R"({"a.onnx": {"sha256": ")" + std::string(63, 'a') + "\\u0000\"}}"}) {
    EXPECT_THAT(error_of(bad), HasSubstr(need)) << bad;
  }
  EXPECT_EQ(error_of("{}"), "(no error)");
  // Upper case is the same digest (written back in lower case).
  EXPECT_EQ(error_of(R"({"a.onnx": {"sha256": ")" + std::string(64, 'A') + "\"}}"), "(no error)");
  EXPECT_THAT(Baseline::load(t.path() / "b.json").file_hashes(), ElementsAre(Pair("a.onnx", hex)));
}

}  // namespace
}  // namespace onnxlint::testing
