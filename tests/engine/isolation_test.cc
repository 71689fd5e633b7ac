// Crash isolation (issue 28, items 3 and N12): a file whose lint dies by a signal, is killed,
// runs out of memory or outlives its time limit (a hang) becomes that file's internal-error
// finding, naming the phase and the rule,
// and every other file's report is byte for byte the one a run without isolation prints. The
// worker's report crosses a socket encoded (encode_file_report): the round trip is exact on
// every corpus model and on a report with every field set.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/isolation.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/report.h>
#include <onnxlint/report_section.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "loader/sample_models.h"
#include "loader/temp_dir.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::HasSubstr;

// AddressSanitizer reports huge allocations and stack overflows itself (and exits 1): the tests
// that cause them run in the plain builds.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif
using ::testing::StartsWith;

// Sets ONNXLINT_TEST_CRASH_RULE for one test; unsets it after.
class CrashSwitch {
 public:
  explicit CrashSwitch(const std::string& value) { ::setenv(kTestCrashVariable, value.c_str(), 1); }
  ~CrashSwitch() { ::unsetenv(kTestCrashVariable); }
  CrashSwitch(const CrashSwitch&) = delete;
  CrashSwitch& operator=(const CrashSwitch&) = delete;
};

std::string json_of(const Report& report, const Linter& linter) {
  std::ostringstream out;
  emit_json(report, linter, out);
  return out.str();
}

std::string text_of(const Report& report, const Linter& linter) {
  std::ostringstream out;
  TextOptions text;
  text.show_infos = true;
  emit_text(report, linter, text, out);
  return out.str();
}

Report one_file(FileReport f) {
  Report r;
  r.files.push_back(std::move(f));
  return r;
}

// Everything the emitters print, through every format that prints the summary and findings.
void expect_same_output(const Report& a, const Report& b, const Linter& linter) {
  EXPECT_EQ(json_of(a, linter), json_of(b, linter));
  EXPECT_EQ(text_of(a, linter), text_of(b, linter));
  std::ostringstream sa, sb;
  emit_sarif(a, linter, sa);
  emit_sarif(b, linter, sb);
  EXPECT_EQ(sa.str(), sb.str());
}

LintOptions all_rules() {
  LintOptions o;
  o.select = {"ALL"};
  o.targets = {"tensorrt", "onnxruntime-nnapi"};
  o.hash = true;
  return o;
}

std::vector<std::string> corpus_models() {
  std::vector<std::string> out = expand_paths({data_path("corpus")});
  EXPECT_GE(out.size(), 20u);
  return out;
}

// A report with every field set, so that a field the codec forgot shows.
FileReport every_field() {
  FileReport f;
  f.path = "models/\x1b[31mred.onnx";
  f.status = FileReport::Status::Unreadable;
  f.error = "an error";
  ModelSummary m;
  m.ir_version = 9;
  m.opset_imports = {{"", 17}, {"com.microsoft", 1}};
  m.producer_name = "pytorch";
  m.producer_version = "2.1";
  m.model_version = -3;
  m.doc_string = "doc\n\xff";
  m.doc_string_bytes = 99999;
  m.graph_name = "main_graph";
  m.metadata_props = {{"k", "v"}, {"onnx-lint:disable", "graph-dead-node"}};
  ValueSignature in;
  in.name = "x";
  in.type = "tensor(float)";
  in.dims = std::vector<DimSummary>{{DimSummary::Kind::Fixed, 3, "", -1},
                                    {DimSummary::Kind::Symbolic, 0, "N", -1}};
  m.inputs = {in};
  ValueSignature out;
  out.name = "y";
  out.analysis = std::vector<DimSummary>{{DimSummary::Kind::Data, 0, "NonZero", 300},
                                         {DimSummary::Kind::Unknown, 0, "", -1}};
  m.outputs = {out, ValueSignature{}};
  m.ops = {{"ai.onnx", {{"Add", 2}, {"Relu", 1}}}, {"custom", {{"Foo", 7}}}};
  m.graphs = 2;
  m.nodes = 10;
  m.initializers = 3;
  m.functions = 1;
  m.file_bytes = uint64_t(1) << 40;
  m.initializer_bytes = 12;
  m.external_bytes = 13;
  m.sha256 = std::string(64, 'a');
  m.external_data = {{"w.bin", 4, uint64_t(1234), "abc", ""},
                     {"gone.bin", 1, std::nullopt, "", "no such file"}};
  f.model = m;
  Diagnostic d;
  d.rule_id = "shape-data-dependent";
  d.severity = Severity::Warning;
  d.message = "message";
  d.location.file = f.path;
  d.location.graph_path = "main/Loop_7:body";
  d.location.node_index = 4294967295u;
  d.location.node_name = "n";
  d.location.op_type = "NonZero";
  d.location.domain = "ai.onnx";
  d.location.value_name = "v";
  d.location.attribute = "axes";
  d.location.byte_offset = 77;
  d.notes = {"note 1", ""};
  d.help = "help";
  d.target = "tensorrt";
  d.related = {{d.location, "graph output 'y'"}, {Location{}, ""}};
  d.key = "dim 0";
  f.diagnostics = {d, Diagnostic{}};
  ReportSection s;
  s.name = "dynamic_shapes";
  s.data = nlohmann::json{{"a", 1}, {"b", -2}, {"c", 1.5}, {"d", nullptr}, {"e", {true, "x"}}};
  s.text = {"line 1", "line 2"};
  f.sections = {s, ReportSection{"empty", nlohmann::json(), {}}};
  f.suppressed = 5;
  f.baselined = 6;
  f.hidden = 7;
  f.capped = {{"graph-dead-node", 12}};
  f.failed = true;
  f.config_file = "onnx-lint.toml";
  f.timings = {{TimingEntry::Kind::Phase, "load", 1234, 1},
               {TimingEntry::Kind::Analysis, "Provenance", 56, 1},
               {TimingEntry::Kind::Rule, "graph-dead-node", 7, 3}};
  return f;
}

TEST(IsolationWire, RoundTripKeepsEveryField) {
  const FileReport original = every_field();
  const std::string bytes = encode_file_report(original);
  std::optional<FileReport> back = decode_file_report(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(encode_file_report(*back), bytes);
  EXPECT_EQ(back->path, original.path);
  EXPECT_EQ(back->status, original.status);
  EXPECT_EQ(back->model->external_data[1].bytes, std::nullopt);
  EXPECT_EQ(back->model->outputs[0].analysis->at(0).bound, 300);
  EXPECT_EQ(back->diagnostics[0].location.node_index, 4294967295u);
  EXPECT_EQ(back->diagnostics[0].location.byte_offset, 77u);
  EXPECT_EQ(back->diagnostics[0].related[0].message, "graph output 'y'");
  EXPECT_EQ(back->diagnostics[0].key, "dim 0");
  EXPECT_EQ(back->diagnostics[0].fingerprint(), original.diagnostics[0].fingerprint());
  EXPECT_EQ(back->sections[0].data, original.sections[0].data);
  EXPECT_EQ(back->sections[0].text, original.sections[0].text);
  EXPECT_EQ(back->capped, original.capped);
  EXPECT_TRUE(back->failed);
  EXPECT_EQ(back->config_file, "onnx-lint.toml");
  const Linter linter(builtin_registry(), {});
  expect_same_output(one_file(original), one_file(*back), linter);
}

// Bytes from a worker that went wrong are refused, never read past: every cut, an extra byte,
// and counts that promise more than the bytes hold.
TEST(IsolationWire, RefusesCutAndCorruptBytes) {
  const std::string bytes = encode_file_report(every_field());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(decode_file_report(std::string_view(bytes).substr(0, n))) << n;
  }
  EXPECT_FALSE(decode_file_report(bytes + '\0'));
  std::string huge_count = encode_file_report(FileReport{});
  // path (8 + 0), status, error (8), model flag, then the diagnostics count.
  const size_t count_at = 8 + 1 + 8 + 1;
  for (size_t i = 0; i < 8; ++i) huge_count[count_at + i] = '\xff';
  EXPECT_FALSE(decode_file_report(huge_count));
  std::string bad_status = encode_file_report(FileReport{});
  bad_status[8] = 9;
  EXPECT_FALSE(decode_file_report(bad_status));
}

// Every corpus model's report (all rules, two targets, hashes) survives the codec exactly, in
// JSON, text and SARIF.
TEST(IsolationWire, RoundTripOnEveryCorpusModel) {
  const Linter linter(builtin_registry(), all_rules());
  for (const std::string& path : corpus_models()) {
    const FileReport f = linter.lint_file(path);
    const std::string bytes = encode_file_report(f);
    std::optional<FileReport> back = decode_file_report(bytes);
    ASSERT_TRUE(back) << path;
    EXPECT_EQ(encode_file_report(*back), bytes) << path;
    expect_same_output(one_file(f), one_file(*back), linter);
  }
}

// Isolation changes nothing when nothing crashes: the corpus folder with and without it, one
// worker and three, prints the same JSON, text and SARIF.
TEST(Isolation, ReportsIdenticalWithAndWithoutIsolation) {
  const std::vector<std::string> paths = {data_path("corpus"), "/no/such/model.onnx"};
  const Linter plain(builtin_registry(), all_rules());
  const Report expected = plain.lint_paths(paths);
  for (int jobs : {1, 3}) {
    LintOptions o = all_rules();
    o.isolate = true;
    o.jobs = jobs;
    const Linter isolated(builtin_registry(), o);
    std::vector<size_t> progress;
    const Report got = isolated.lint_paths(paths, [&](size_t done, size_t total) {
      EXPECT_EQ(total, expected.files.size());
      progress.push_back(done);
    });
    ASSERT_EQ(got.files.size(), expected.files.size());
    expect_same_output(expected, got, plain);
    ASSERT_EQ(progress.size(), expected.files.size());
    for (size_t i = 0; i < progress.size(); ++i) EXPECT_EQ(progress[i], i + 1);
  }
}

// Three models in a folder; the middle one's name holds "crash".
struct ThreeModels {
  TempDir dir;
  std::vector<std::string> paths;
  ThreeModels() {
    paths = {dir.write("a.onnx", kitchen_sink_model()),
             dir.write("b_crash.onnx", kitchen_sink_model()),
             dir.write("c.onnx", kitchen_sink_model())};
  }
};

const Diagnostic& only_finding(const FileReport& f) {
  EXPECT_EQ(f.diagnostics.size(), 1u) << f.path;
  return f.diagnostics.front();
}

// A fatal signal while a rule runs on one file: that file's report is one internal-error
// finding naming the signal, the phase and the rule; the other files' reports are the ones a
// run without the crash gives; the run's exit code is 2.
TEST(Isolation, FatalSignalInOneFileIsThatFilesInternalError) {
  ThreeModels models;
  LintOptions o;
  o.isolate = true;
  const Linter linter(builtin_registry(), o);
  const Report clean = Linter(builtin_registry(), {}).lint_paths(models.paths);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"segv", "crashed with SIGSEGV (segmentation fault)"},
      {"abort", "crashed with SIGABRT (abort)"},
      {"bus", "crashed with SIGBUS (bus error)"},
      {"fpe", "crashed with SIGFPE (arithmetic exception)"},
      {"ill", "crashed with SIGILL (illegal instruction)"},
      {"kill",
       "'s worker process was killed (SIGKILL, most likely by the kernel's out-of-memory killer)"},
  };
  std::vector<std::pair<std::string, std::string>> all = cases;
  if (!kSanitized) all.emplace_back("stack", "crashed with SIGSEGV (segmentation fault)");
  for (const auto& [how, what] : all) {
    SCOPED_TRACE(how);
    CrashSwitch crash("graph-dead-node:" + how + ":crash");
    const Report report = linter.lint_paths(models.paths);
    ASSERT_EQ(report.files.size(), 3u);
    const FileReport& crashed = report.files[1];
    EXPECT_EQ(crashed.path, models.paths[1]);
    EXPECT_EQ(crashed.status, FileReport::Status::Ok);
    EXPECT_FALSE(crashed.model);
    const Diagnostic& d = only_finding(crashed);
    EXPECT_EQ(d.rule_id, kInternalError);
    EXPECT_EQ(d.severity, Severity::Error);
    EXPECT_EQ(d.location.file, models.paths[1]);
    EXPECT_EQ(d.message, "onnx-lint" + std::string(what[0] == '\'' ? "" : " ") + what +
                             " while running rule 'graph-dead-node'; nothing else is reported "
                             "for this file");
    EXPECT_THAT(d.help, HasSubstr("`--ignore graph-dead-node`"));
    Report others = report;
    others.files.erase(others.files.begin() + 1);
    Report expected = clean;
    expected.files.erase(expected.files.begin() + 1);
    expect_same_output(expected, others, linter);
    EXPECT_EQ(exit_code(report, Severity::Error), 2);
  }
}

// A dead worker is replaced: with two workers and every other file crashing, all files are
// reported, in input order.
TEST(Isolation, DeadWorkersAreReplacedAndTheRunCompletes) {
  TempDir dir;
  std::vector<std::string> paths;
  for (int i = 0; i < 7; ++i) {
    paths.push_back(
        dir.write(fmt::format("m{}{}.onnx", i, i % 2 == 1 ? "_crash" : ""), kitchen_sink_model()));
  }
  LintOptions o;
  o.isolate = true;
  o.jobs = 2;
  const Linter linter(builtin_registry(), o);
  const Report clean = Linter(builtin_registry(), {}).lint_paths(paths);
  CrashSwitch crash("model-missing-producer:segv:_crash");
  const Report report = linter.lint_paths(paths);
  ASSERT_EQ(report.files.size(), paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_EQ(report.files[i].path, paths[i]);
    if (i % 2 == 1) {
      EXPECT_THAT(only_finding(report.files[i]).message,
                  StartsWith("onnx-lint crashed with SIGSEGV (segmentation fault) while running "
                             "rule 'model-missing-producer'"));
    } else {
      expect_same_output(one_file(clean.files[i]), one_file(report.files[i]), linter);
    }
  }
}

// A worker whose socket another process also holds (a host that forked meanwhile) sends no end
// of stream when it dies: the parent notices the death anyway (it checks every second), not
// when that other process ends 20 s later.
TEST(Isolation, DeadWorkerIsNoticedWhileAnotherProcessHoldsItsSocket) {
  ThreeModels models;
  LintOptions o;
  o.isolate = true;
  const Linter linter(builtin_registry(), o);
  CrashSwitch crash("graph-dead-node:orphan:crash");
  const auto start = std::chrono::steady_clock::now();
  const Report report = linter.lint_paths(models.paths);
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 15.0);
  ASSERT_EQ(report.files.size(), 3u);
  EXPECT_THAT(only_finding(report.files[1]).message,
              StartsWith("onnx-lint crashed with SIGSEGV (segmentation fault) while running rule "
                         "'graph-dead-node'"));
  EXPECT_FALSE(report.files[2].diagnostics.empty());
}

// N12: out of memory in a rule is the rule's internal-error finding (std::bad_alloc, caught by
// the driver), in-process and in a worker; the other files are complete.
TEST(Isolation, OutOfMemoryInARuleIsAFinding) {
  if (kSanitized) GTEST_SKIP() << "AddressSanitizer reports the huge allocation itself";
  ThreeModels models;
  const Report clean = Linter(builtin_registry(), {}).lint_paths(models.paths);
  for (bool isolate : {false, true}) {
    SCOPED_TRACE(isolate);
    LintOptions o;
    o.isolate = isolate;
    const Linter linter(builtin_registry(), o);
    CrashSwitch crash("graph-dead-node:oom:crash");
    const Report report = linter.lint_paths(models.paths);
    ASSERT_EQ(report.files.size(), 3u);
    std::vector<std::string> internal;
    for (const Diagnostic& d : report.files[1].diagnostics) {
      if (d.rule_id == kInternalError) internal.push_back(d.message);
    }
    EXPECT_THAT(internal, ::testing::ElementsAre("rule 'graph-dead-node' failed: out of memory"));
    expect_same_output(one_file(clean.files[0]), one_file(report.files[0]), linter);
    expect_same_output(one_file(clean.files[2]), one_file(report.files[2]), linter);
  }
}

// A test rule that computes an analysis whose constructor crashes: the phase names the
// analysis and the rule that asked for it.
struct CrashingAnalysis {
  CrashingAnalysis(const Model&, AnalysisCache&) { std::abort(); }
};

class AsksForCrashingAnalysis final : public RuleBase<AsksForCrashingAnalysis> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{.id = "test-analysis-user",
                            .category = "test",
                            .severity = Severity::Warning,
                            .summary = "Requests an analysis that crashes"};
    return k;
  }
  void on_model(const Model& m, RuleContext& ctx) override {
    if (m.path().find("crash") != std::string::npos) ctx.get<CrashingAnalysis>();
  }
};

TEST(Isolation, CrashInAnAnalysisNamesTheAnalysisAndTheRule) {
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    register_engine_rules(r);
    r.add<AsksForCrashingAnalysis>();
    return r;
  }();
  ThreeModels models;
  LintOptions o;
  o.isolate = true;
  const Linter linter(registry, o);
  const Report report = linter.lint_paths(models.paths);
  ASSERT_EQ(report.files.size(), 3u);
  EXPECT_EQ(only_finding(report.files[1]).message,
            "onnx-lint crashed with SIGABRT (abort) while computing the analysis "
            "'CrashingAnalysis' for rule 'test-analysis-user'; nothing else is reported for this "
            "file");
  // The others: as without isolation (where the rule requests nothing).
  const Report plain = Linter(registry, {}).lint_paths({models.paths[0], models.paths[2]});
  expect_same_output(one_file(plain.files[0]), one_file(report.files[0]), linter);
  expect_same_output(one_file(plain.files[1]), one_file(report.files[2]), linter);
}

// The phases outside rules: a crash while loading the model or computing its summary names
// that phase; out of memory there is the file's finding, in-process too (N12).
TEST(Isolation, LoadingAndSummaryPhasesAreNamed) {
  ThreeModels models;
  const Report clean = Linter(builtin_registry(), {}).lint_paths(models.paths);
  for (const char* phase : {"loading", "summary"}) {
    SCOPED_TRACE(phase);
    const std::string words =
        std::string(phase) == "loading" ? "loading the model" : "computing the model summary";
    for (bool isolate : {false, true}) {
      LintOptions o;
      o.isolate = isolate;
      const Linter linter(builtin_registry(), o);
      std::vector<std::string> hows = {"oom"};
      if (isolate) hows.push_back("segv");
      for (const std::string& how : hows) {
        if (kSanitized && how == "oom") continue;
        CrashSwitch crash(fmt::format("@{}:{}:crash", phase, how));
        const Report report = linter.lint_paths(models.paths);
        ASSERT_EQ(report.files.size(), 3u);
        const std::string what = how == "oom"
                                     ? "onnx-lint ran out of memory"
                                     : "onnx-lint crashed with SIGSEGV (segmentation fault)";
        EXPECT_EQ(only_finding(report.files[1]).message,
                  what + " while " + words + "; nothing else is reported for this file");
        EXPECT_FALSE(report.files[1].model);
        expect_same_output(one_file(clean.files[0]), one_file(report.files[0]), linter);
        expect_same_output(one_file(clean.files[2]), one_file(report.files[2]), linter);
      }
    }
  }
}

// A worker that hangs (an endless loop in a rule, a read that never returns) is killed when the
// file's time limit passes: the file's report is one internal-error finding saying it timed
// out and in which rule, the other files' reports are the ones a run without the hang gives,
// the run's exit code is 2 (as for a crash), and the run takes about the limit, not forever.
TEST(IsolationTimeout, HungRuleTimesOutAndTheOtherFilesAreReported) {
  ThreeModels models;
  const Report clean = Linter(builtin_registry(), {}).lint_paths(models.paths);
  struct Case {
    std::string how;
    std::chrono::milliseconds limit;
    int jobs;
    std::string seconds;
  };
  const std::vector<Case> cases = {{"hang", std::chrono::seconds(1), 1, "1"},
                                   {"hang", std::chrono::seconds(1), 3, "1"},
                                   {"stuck", std::chrono::milliseconds(1500), 2, "1.5"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.how + " jobs " + std::to_string(c.jobs));
    LintOptions o;
    o.isolate = true;
    o.jobs = c.jobs;
    o.file_time_limit = c.limit;
    const Linter linter(builtin_registry(), o);
    CrashSwitch hang("graph-dead-node:" + c.how + ":crash");
    const auto start = std::chrono::steady_clock::now();
    const Report report = linter.lint_paths(models.paths);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, c.limit);
    EXPECT_LT(took, c.limit + std::chrono::seconds(4));
    ASSERT_EQ(report.files.size(), 3u);
    const FileReport& hung = report.files[1];
    EXPECT_EQ(hung.path, models.paths[1]);
    EXPECT_FALSE(hung.model);
    const Diagnostic& d = only_finding(hung);
    EXPECT_EQ(d.rule_id, kInternalError);
    EXPECT_EQ(d.severity, Severity::Error);
    EXPECT_EQ(d.location.file, models.paths[1]);
    EXPECT_EQ(d.message, "onnx-lint timed out after " + c.seconds +
                             " s while running rule 'graph-dead-node'; nothing else is reported "
                             "for this file");
    EXPECT_THAT(d.help, HasSubstr("`--ignore graph-dead-node`"));
    EXPECT_THAT(d.help, HasSubstr("`--file-timeout SECONDS` raises the limit"));
    expect_same_output(one_file(clean.files[0]), one_file(report.files[0]), linter);
    expect_same_output(one_file(clean.files[2]), one_file(report.files[2]), linter);
    EXPECT_EQ(exit_code(report, Severity::Error), 2);
    EXPECT_EQ(exit_code(report, std::nullopt), 2);
  }
}

// A hang outside the rules (loading the model, computing its summary) names that phase.
TEST(IsolationTimeout, HangWhileLoadingOrSummarizingNamesThePhase) {
  ThreeModels models;
  const Report clean = Linter(builtin_registry(), {}).lint_paths(models.paths);
  LintOptions o;
  o.isolate = true;
  o.file_time_limit = std::chrono::seconds(1);
  const Linter linter(builtin_registry(), o);
  for (const auto& [phase, words] :
       {std::pair<std::string, std::string>{"loading", "loading the model"},
        {"summary", "computing the model summary"}}) {
    SCOPED_TRACE(phase);
    CrashSwitch hang("@" + phase + ":hang:crash");
    const auto start = std::chrono::steady_clock::now();
    const Report report = linter.lint_paths(models.paths);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    ASSERT_EQ(report.files.size(), 3u);
    EXPECT_EQ(only_finding(report.files[1]).message,
              "onnx-lint timed out after 1 s while " + words +
                  "; nothing else is reported for this file");
    expect_same_output(one_file(clean.files[0]), one_file(report.files[0]), linter);
    expect_same_output(one_file(clean.files[2]), one_file(report.files[2]), linter);
  }
}

// The processes named `name` that are still running (a zombie is dead: in a container nobody
// may reap it).
std::vector<pid_t> running_processes_named(const std::string& name) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream comm(entry.path() / "comm");
    std::string got;
    if (!std::getline(comm, got) || got != name) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t paren = text.rfind(')');
    if (paren != std::string::npos && paren + 2 < text.size() &&
        (text[paren + 2] == 'Z' || text[paren + 2] == 'X')) {
      continue;
    }
    out.push_back(static_cast<pid_t>(std::stol(entry.path().filename().string())));
  }
  return out;
}

// A timeout kills the worker's whole process group: a process the hung worker started (it
// would hold the worker's socket and live on) ends with it.
TEST(IsolationTimeout, TimeoutKillsTheProcessesTheWorkerStarted) {
  ASSERT_THAT(running_processes_named("onnxlint-hang"), ::testing::IsEmpty());
  ThreeModels models;
  LintOptions o;
  o.isolate = true;
  o.file_time_limit = std::chrono::seconds(1);
  const Linter linter(builtin_registry(), o);
  CrashSwitch hang("graph-dead-node:hang-fork:crash");
  const Report report = linter.lint_paths(models.paths);
  ASSERT_EQ(report.files.size(), 3u);
  EXPECT_THAT(only_finding(report.files[1]).message,
              StartsWith("onnx-lint timed out after 1 s while running rule 'graph-dead-node'"));
  // SIGKILL is delivered asynchronously to the other members of the group.
  std::vector<pid_t> left;
  for (int i = 0; i < 100; ++i) {
    left = running_processes_named("onnxlint-hang");
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_THAT(left, ::testing::IsEmpty());
  for (pid_t pid : left) ::kill(pid, SIGKILL);  // a failed run leaves nothing behind
}

// Seconds as --file-timeout and file_timeout= take them: fractions kept to the millisecond, a
// positive value never rounds to "no limit", and what is not from 0 to 1e7 is refused.
TEST(IsolationTimeout, LimitFromSeconds) {
  using std::chrono::milliseconds;
  EXPECT_EQ(file_time_limit_from_seconds(0), milliseconds(0));
  EXPECT_EQ(file_time_limit_from_seconds(300), milliseconds(300000));
  EXPECT_EQ(file_time_limit_from_seconds(1.5), milliseconds(1500));
  EXPECT_EQ(file_time_limit_from_seconds(0.0001), milliseconds(1));
  EXPECT_EQ(file_time_limit_from_seconds(1e7), milliseconds(10000000000));
  for (double bad : {-1.0, -0.0001, 1e7 + 1, std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    EXPECT_EQ(file_time_limit_from_seconds(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(kDefaultFileTimeLimit, std::chrono::seconds(300));
  EXPECT_EQ(LintOptions{}.file_time_limit, kDefaultFileTimeLimit);
}

// lint_bytes_isolated (the Python module's buffers) has the same limit; zero means none (the
// limit is not what ends a lint that finishes).
TEST(IsolationTimeout, BytesInAWorkerTimeOutAndZeroIsNoLimit) {
  const std::string bytes = kitchen_sink_model();
  LintOptions o;
  o.file_time_limit = std::chrono::seconds(1);
  const Linter linter(builtin_registry(), o);
  {
    CrashSwitch hang("graph-dead-node:hang");
    EXPECT_EQ(only_finding(lint_bytes_isolated(linter, "in-memory.onnx", bytes)).message,
              "onnx-lint timed out after 1 s while running rule 'graph-dead-node'; nothing else "
              "is reported for this file");
  }
  LintOptions none;
  none.file_time_limit = std::chrono::milliseconds(0);
  const Linter unlimited(builtin_registry(), none);
  expect_same_output(one_file(unlimited.lint_bytes("in-memory.onnx", bytes)),
                     one_file(lint_bytes_isolated(unlimited, "in-memory.onnx", bytes)), unlimited);
}

// lint_bytes_isolated (the Python module's isolate=True for buffers): the same report as
// lint_bytes, or the internal error when the lint crashes.
TEST(Isolation, BytesInAWorker) {
  const std::string bytes = kitchen_sink_model();
  const Linter linter(builtin_registry(), all_rules());
  expect_same_output(one_file(linter.lint_bytes("in-memory.onnx", bytes)),
                     one_file(lint_bytes_isolated(linter, "in-memory.onnx", bytes)), linter);
  CrashSwitch crash("graph-dead-node:segv");
  const FileReport crashed = lint_bytes_isolated(linter, "in-memory.onnx", bytes);
  EXPECT_EQ(crashed.path, "in-memory.onnx");
  EXPECT_EQ(only_finding(crashed).message,
            "onnx-lint crashed with SIGSEGV (segmentation fault) while running rule "
            "'graph-dead-node'; nothing else is reported for this file");
}

// The test switch is inert unless set, and names one rule: other rules run as usual.
TEST(Isolation, TestSwitchIsInertUnlessSetAndNamesOneRule) {
  const std::string bytes = kitchen_sink_model();
  const Linter linter(builtin_registry(), {});
  const FileReport before = linter.lint_bytes("m.onnx", bytes);
  {
    CrashSwitch other("no-such-rule:segv");
    expect_same_output(one_file(before), one_file(linter.lint_bytes("m.onnx", bytes)), linter);
  }
  {
    CrashSwitch not_this_file("graph-dead-node:segv:another-file");
    expect_same_output(one_file(before), one_file(linter.lint_bytes("m.onnx", bytes)), linter);
  }
  CrashSwitch thrown("graph-dead-node:throw");
  const FileReport after = linter.lint_bytes("m.onnx", bytes);
  std::vector<std::string> internal;
  for (const Diagnostic& d : after.diagnostics) {
    if (d.rule_id == kInternalError) internal.push_back(d.message);
  }
  EXPECT_THAT(internal,
              ::testing::ElementsAre("rule 'graph-dead-node' failed: test crash requested by "
                                     "ONNXLINT_TEST_CRASH_RULE"));
}

// Without isolation, a program that installed the crash handler prints what was running and
// exits with kExitCrash instead of dying by the signal; a stack overflow too (alternate stack).
TEST(IsolationDeathTest, CrashHandlerNamesRuleAndFileAndExitsWith3) {
  ThreeModels models;
  EXPECT_EXIT(
      {
        install_crash_handler();
        ::setenv(kTestCrashVariable, "@loading:segv", 1);
        Linter(builtin_registry(), {}).lint_file(models.paths[0]);
      },
      ::testing::ExitedWithCode(kExitCrash),
      "onnx-lint: internal error while loading .*a\\.onnx: SIGSEGV");
  for (const char* how : {"segv", "stack", "abort"}) {
    SCOPED_TRACE(how);
    if (kSanitized && std::string(how) == "stack") continue;
    const std::string signal = std::string(how) == "abort" ? "SIGABRT" : "SIGSEGV";
    EXPECT_EXIT(
        {
          install_crash_handler();
          ::setenv(kTestCrashVariable, (std::string("graph-dead-node:") + how).c_str(), 1);
          Linter(builtin_registry(), {}).lint_file(models.paths[0]);
        },
        ::testing::ExitedWithCode(kExitCrash),
        "onnx-lint: internal error while running rule 'graph-dead-node' on .*a\\.onnx: " + signal);
  }
}

}  // namespace
}  // namespace onnxlint::testing
