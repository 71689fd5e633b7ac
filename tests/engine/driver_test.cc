// The driver's single walk: which callbacks run for which graphs and nodes, exceptions turned
// into internal-error (exit code 2), and deterministic parallel linting.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include "loader/sample_models.h"
#include "loader/temp_dir.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Records every callback as a finding, so the walk is visible in the report.
class Recorder final : public RuleBase<Recorder> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{.id = "test-recorder",
                            .category = "test",
                            .severity = Severity::Info,
                            .summary = "Records callbacks",
                            .node_ops = {"Relu", "Loop"}};
    return k;
  }
  void on_model(const Model&, RuleContext& ctx) override { ctx.report(ctx.at_model(), "model"); }
  void on_graph(const Graph& g, RuleContext& ctx) override {
    ctx.report(ctx.at_graph(g), "graph " + g.path());
  }
  void on_node(const Node& n, RuleContext& ctx) override {
    ctx.report(ctx.at_node(n), "node " + std::string(n.op_type()));
  }
  void on_function(const Function& f, RuleContext& ctx) override {
    ctx.report(ctx.at_model(), "function " + std::string(f.name()));
  }
  void on_model_end(const Model&, RuleContext& ctx) override {
    ctx.report(ctx.at_model(), "model end");
  }
};

// Throws on every Relu (std::exception) and on every Neg (anything else).
class Thrower final : public RuleBase<Thrower> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{.id = "test-thrower",
                            .category = "test",
                            .severity = Severity::Warning,
                            .summary = "Throws",
                            .node_ops = {"Relu", "Neg"}};
    return k;
  }
  void on_node(const Node& n, RuleContext&) override {
    if (n.op_type() == "Relu") throw std::runtime_error("boom");
    throw 42;
  }
};

const RuleRegistry& test_registry() {
  static const RuleRegistry r = [] {
    RuleRegistry reg;
    register_engine_rules(reg);
    reg.add<Recorder>();
    reg.add<Thrower>();
    return reg;
  }();
  return r;
}

std::vector<std::string> messages(const FileReport& r, const std::string& rule) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule_id == rule) out.push_back(d.location.anchor() + " | " + d.message);
  }
  return out;
}

TEST(Driver, OneWalkOverEveryGraphAndFunction) {
  LintOptions o;
  o.select = {"test-recorder"};
  Linter linter(test_registry(), o);
  FileReport r = linter.lint_bytes("m.onnx", loop_and_function_model());
  // Sorted: model-level findings (no graph) first, then by graph path and node index; graph
  // findings (no node) after the node findings of their graph.
  EXPECT_THAT(messages(r, "test-recorder"),
              ElementsAre(" | function Twice", " | model", " | model end",
                          "fn:local::Twice | graph fn:local::Twice", "main/nest | node Loop",
                          "main | graph main", "main/nest:body/relu | node Relu",
                          "main/nest:body | graph main/nest:body"));
}

TEST(Driver, ExceptionsBecomeInternalErrors) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"a"}, "first_relu");
  m.graph().node("Relu", {"a"}, {"b"}, "second_relu");
  m.graph().node("Identity", {"b"}, {"y"}, "id");
  LintOptions o;
  o.select = {"test"};
  Linter linter(test_registry(), o);
  FileReport r = linter.lint_bytes("m.onnx", m.bytes());
  // The failing rule is reported once and switched off; the other rule keeps running.
  EXPECT_THAT(messages(r, "internal-error"),
              ElementsAre("main/first_relu | rule 'test-thrower' failed: boom"));
  EXPECT_THAT(messages(r, "test-recorder"), ::testing::Contains(HasSubstr("second_relu")));
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule_id == "internal-error") {
      EXPECT_EQ(d.severity, Severity::Error);
      EXPECT_THAT(d.help, HasSubstr("--ignore test-thrower"));
    }
  }
  Report report;
  report.files.push_back(r);
  EXPECT_EQ(exit_code(report, Severity::Error), 2);
  EXPECT_EQ(exit_code(report, std::nullopt), 2);  // even with --fail-on never
}

TEST(Driver, UnknownExceptionType) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Neg", {"x"}, {"y"}, "neg");
  LintOptions o;
  o.select = {"test-thrower"};
  Linter linter(test_registry(), o);
  EXPECT_THAT(messages(linter.lint_bytes("m.onnx", m.bytes()), "internal-error"),
              ElementsAre("main/neg | rule 'test-thrower' failed with an unknown exception"));
}

TEST(Driver, InternalErrorCannotBeIgnored) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "relu");
  LintOptions o;
  o.select = {"test-thrower"};
  o.ignore = {"internal-error"};
  Linter linter(test_registry(), o);
  EXPECT_TRUE(linter.is_enabled("internal-error"));
  EXPECT_EQ(messages(linter.lint_bytes("m.onnx", m.bytes()), "internal-error").size(), 1u);
  // An in-model suppression does not hide it either.
  ModelBuilder suppressed = m;
  suppressed.metadata("onnx-lint:disable", "internal-error, test-thrower");
  EXPECT_EQ(messages(linter.lint_bytes("m.onnx", suppressed.bytes()), "internal-error").size(), 1u);
}

TEST(Driver, ExitCodes) {
  auto report_with = [](std::vector<Severity> severities) {
    Report r;
    FileReport f;
    for (Severity s : severities) {
      Diagnostic d;
      d.rule_id = "graph-dead-node";
      d.severity = s;
      f.diagnostics.push_back(d);
    }
    r.files.push_back(f);
    return r;
  };
  EXPECT_EQ(exit_code(report_with({}), Severity::Info), 0);
  EXPECT_EQ(exit_code(report_with({Severity::Warning}), Severity::Error), 0);
  EXPECT_EQ(exit_code(report_with({Severity::Warning}), Severity::Warning), 1);
  EXPECT_EQ(exit_code(report_with({Severity::Info}), Severity::Warning), 0);
  EXPECT_EQ(exit_code(report_with({Severity::Info}), Severity::Info), 1);
  EXPECT_EQ(exit_code(report_with({Severity::Error}), std::nullopt), 0);
}

TEST(Driver, ParallelLintingKeepsInputOrder) {
  std::vector<std::string> paths = {data_path("corpus")};
  LintOptions serial_options;
  LintOptions parallel_options;
  parallel_options.jobs = 2;
  Linter serial(builtin_registry(), serial_options);
  Linter parallel(builtin_registry(), parallel_options);
  Report a = serial.lint_paths(paths);
  Report b = parallel.lint_paths(paths);
  ASSERT_EQ(a.files.size(), b.files.size());
  ASSERT_GT(a.files.size(), 30u);
  for (size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].path, b.files[i].path);
    ASSERT_EQ(a.files[i].diagnostics.size(), b.files[i].diagnostics.size()) << a.files[i].path;
    for (size_t k = 0; k < a.files[i].diagnostics.size(); ++k) {
      EXPECT_EQ(a.files[i].diagnostics[k].fingerprint(), b.files[i].diagnostics[k].fingerprint());
    }
  }
  EXPECT_TRUE(
      std::is_sorted(a.files.begin(), a.files.end(),
                     [](const FileReport& x, const FileReport& y) { return x.path < y.path; }));
}

TEST(Driver, ExpandPaths) {
  EXPECT_THROW(expand_paths({"/no/such/path.onnx"}), ConfigError);
  EXPECT_THAT(expand_paths({"-"}), ElementsAre("-"));
  auto files = expand_paths({data_path("corpus")});
  EXPECT_TRUE(std::is_sorted(files.begin(), files.end()));
  for (const std::string& f : files) EXPECT_TRUE(f.ends_with(".onnx")) << f;
}

// A path that yields no model is an entry in its place (issue 16), not the end of the run; the
// exit code is then 2 whatever the findings.
TEST(Driver, PathsWithoutAModelAreEntriesInTheirPlace) {
  TempDir dir;
  const std::string model = dir.write("m.onnx", kitchen_sink_model());
  dir.write("tree/a.onnx", kitchen_sink_model());
  std::filesystem::create_directories(dir.path() / "tree" / "b");  // no model below: fine
  std::filesystem::create_directories(dir.path() / "empty");
  const std::string missing = dir.str("gone.onnx");
  const std::vector<std::string> paths = {missing, dir.str("tree"), dir.str("empty"), model};

  std::vector<InputPath> inputs = expand_inputs(paths);
  ASSERT_EQ(inputs.size(), 4u);
  EXPECT_EQ(inputs[0].path, missing);
  EXPECT_EQ(inputs[0].error, "no such file or folder");
  EXPECT_EQ(inputs[1].path, dir.str("tree/a.onnx"));
  EXPECT_EQ(inputs[1].error, "");
  EXPECT_EQ(inputs[2].path, dir.str("empty"));
  EXPECT_EQ(inputs[2].error, "no model (*.onnx file) in this folder");
  EXPECT_EQ(inputs[3].path, model);
  EXPECT_EQ(inputs[3].error, "");
  // The all-or-nothing form names the first one.
  try {
    expand_paths(paths);
    ADD_FAILURE() << "expand_paths did not throw";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": no such file or folder");
  }

  for (int jobs : {1, 3}) {
    LintOptions options;
    options.jobs = jobs;
    Report report = Linter(builtin_registry(), options).lint_paths(paths);
    ASSERT_EQ(report.files.size(), 4u);
    EXPECT_EQ(report.files[0].status, FileReport::Status::PathError);
    EXPECT_EQ(report.files[0].error, "no such file or folder");
    EXPECT_FALSE(report.files[0].model);
    EXPECT_TRUE(report.files[0].diagnostics.empty());
    EXPECT_EQ(report.files[1].status, FileReport::Status::Ok);
    EXPECT_FALSE(report.files[1].diagnostics.empty());  // linted as usual
    EXPECT_EQ(report.files[2].status, FileReport::Status::PathError);
    EXPECT_EQ(report.files[3].status, FileReport::Status::Ok);
    EXPECT_TRUE(report.has_path_error());
    EXPECT_EQ(report.files_linted(), 2u);
    EXPECT_EQ(exit_code(report, Severity::Error), 2);
    EXPECT_EQ(exit_code(report, std::nullopt), 2);
  }
  Report clean = Linter(builtin_registry(), {}).lint_paths({model});
  EXPECT_FALSE(clean.has_path_error());
  EXPECT_EQ(clean.files_linted(), 1u);
}

}  // namespace
}  // namespace onnxlint::testing
