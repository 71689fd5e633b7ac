// Config files: discovery, parsing, validation errors (file, line, key, reason), layering with
// the command line, per-file overrides and --show-config.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/config.h>

#include <fstream>

#include "loader/temp_dir.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A rule with one option of every type, to test option validation.
class OptionsRule final : public RuleBase<OptionsRule> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-test-options",
        .category = "graph",
        .severity = Severity::Warning,
        .summary = "Test rule with options",
        .options = {{"min-bytes", 0, "int option"},
                    {"names", std::vector<std::string>{}, "strings option"},
                    {"ratio", 0.5, "float option"},
                    {"strict", false, "bool option"},
                    {"mode", "fast", "string option"}},
    };
    return k;
  }
};

const RuleRegistry& test_registry() {
  static const RuleRegistry r = [] {
    RuleRegistry reg;
    register_all_rules(reg);
    reg.add<OptionsRule>();
    return reg;
  }();
  return r;
}

std::optional<std::string> resolve_test_target(std::string_view name) {
  if (name == "trt" || name == "tensorrt") return "tensorrt";
  if (name == "ort-cpu") return "onnxruntime-cpu";
  return std::nullopt;
}

Config parse(const std::string& text, const std::string& file = "/proj/onnx-lint.toml") {
  return parse_config(text, file, test_registry(), resolve_test_target);
}

std::string error_of(const std::string& text, const std::string& file = "/proj/onnx-lint.toml") {
  try {
    parse(text, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Config, ParsesEveryKey) {
  Config c = parse(R"(
select = ["graph", "model-ir-version"]
extend-select = ["export-*"]
ignore = ["graph-dead-node"]
targets = ["trt", "ort-cpu", "tensorrt"]
fail-on = "warning"
baseline = "ci/baseline.json"
in-model-suppressions = false

[severity]
"graph-*" = "info"
graph-unused-input = "error"
ALL = "warning"

[rules.graph-test-options]
min-bytes = 1024
names = ["*.running_mean"]
ratio = 1
strict = true
mode = "slow"

[[overrides]]
files = ["legacy/**/*.onnx"]
ignore = ["graph"]
severity = { "export-*" = "info" }

[[overrides]]
files = "exp.onnx"
select = ["model"]
rules.graph-test-options = { min-bytes = 1 }
)");
  EXPECT_EQ(c.root, fs::path("/proj"));
  ASSERT_TRUE(c.selection.select);
  EXPECT_THAT(*c.selection.select, ElementsAre("graph", "model-ir-version"));
  EXPECT_THAT(c.selection.extend_select, ElementsAre("export-*"));
  EXPECT_THAT(c.selection.ignore, ElementsAre("graph-dead-node"));
  EXPECT_THAT(c.targets, ElementsAre("tensorrt", "onnxruntime-cpu"));  // resolved, deduplicated
  EXPECT_EQ(c.fail_on, "warning");
  EXPECT_EQ(c.baseline, fs::path("/proj/ci/baseline.json"));
  EXPECT_EQ(c.in_model_suppressions, false);
  // Least specific first, so that applying in order lets the most specific pattern win.
  ASSERT_EQ(c.severity.size(), 3u);
  EXPECT_EQ(c.severity[0].pattern, "ALL");
  EXPECT_EQ(c.severity[1].pattern, "graph-*");
  EXPECT_EQ(c.severity[2].pattern, "graph-unused-input");
  const RuleOptions& o = c.rule_options.at("graph-test-options");
  EXPECT_EQ(std::get<int64_t>(o.at("min-bytes")), 1024);
  EXPECT_THAT(std::get<std::vector<std::string>>(o.at("names")), ElementsAre("*.running_mean"));
  EXPECT_DOUBLE_EQ(std::get<double>(o.at("ratio")), 1.0);  // an integer is a fine float
  EXPECT_TRUE(std::get<bool>(o.at("strict")));
  EXPECT_EQ(std::get<std::string>(o.at("mode")), "slow");
  ASSERT_EQ(c.overrides.size(), 2u);
  EXPECT_THAT(c.overrides[0].files, ElementsAre("legacy/**/*.onnx"));
  EXPECT_THAT(c.overrides[0].selection.ignore, ElementsAre("graph"));
  ASSERT_EQ(c.overrides[0].severity.size(), 1u);
  EXPECT_EQ(c.overrides[0].severity[0].severity, Severity::Info);
  EXPECT_THAT(c.overrides[1].files, ElementsAre("exp.onnx"));
  EXPECT_EQ(std::get<int64_t>(c.overrides[1].rule_options.at("graph-test-options").at("min-bytes")),
            1);
}

TEST(Config, EmptyFileIsDefaults) {
  Config c = parse("");
  EXPECT_FALSE(c.selection.select);
  EXPECT_FALSE(c.fail_on);
  EXPECT_FALSE(c.baseline);
  Settings s = resolve_settings(test_registry(), c, {});
  EXPECT_EQ(s.fail_threshold, Severity::Error);
  EXPECT_EQ(s.lint.select.size(), test_registry().entries().size());
}

TEST(ConfigErrors, UnknownKeyNamesFileLineKeyAndSuggestion) {
  EXPECT_EQ(error_of("fail-on = \"error\"\nselct = [\"graph\"]\n"),
            "/proj/onnx-lint.toml:2: selct: unknown key (did you mean 'select'?)");
  EXPECT_THAT(error_of("zzzzzzzz = 1\n"), HasSubstr("known keys: baseline, extend-select"));
}

TEST(ConfigErrors, UnknownRuleIdsAndSelectors) {
  EXPECT_EQ(error_of("select = [\"graph\", \"graph-dead-nod\"]\n"),
            "/proj/onnx-lint.toml:1: select: 'graph-dead-nod' matches no rule id, category or "
            "glob (did you mean 'graph-dead-node'?)");
  EXPECT_THAT(error_of("ignore = [\"nosuch-*\"]\n"),
              HasSubstr("ignore: 'nosuch-*' matches no rule id"));
  EXPECT_THAT(error_of("[rules.graph-nope]\nx = 1\n"),
              HasSubstr(":1: rules.graph-nope: unknown rule id"));
  EXPECT_THAT(error_of("\n[severity]\ngrph = \"info\"\n"),
              HasSubstr(":3: severity.grph: 'grph' matches no rule id, category or glob "
                        "(did you mean 'graph'?)"));
}

TEST(ConfigErrors, BadValues) {
  EXPECT_EQ(error_of("fail-on = \"fatal\"\n"),
            "/proj/onnx-lint.toml:1: fail-on: 'fatal' is not one of \"error\", \"warning\", "
            "\"info\", \"never\"");
  EXPECT_EQ(error_of("select = \"graph\"\n"),
            "/proj/onnx-lint.toml:1: select: expected an array of strings, got string");
  EXPECT_THAT(error_of("select = [\"graph\", 3]\n"),
              HasSubstr("select: expected an array of strings, got integer"));
  EXPECT_THAT(error_of("[severity]\ngraph = \"fatal\"\n"),
              HasSubstr(":2: severity.graph: 'fatal' is not one of"));
  EXPECT_THAT(error_of("targets = [\"tpu9000\"]\n"),
              HasSubstr(":1: targets: unknown target 'tpu9000'"));
  EXPECT_THAT(error_of("baseline = 3\n"), HasSubstr("baseline: expected a string, got integer"));
  EXPECT_THAT(error_of("in-model-suppressions = \"yes\"\n"),
              HasSubstr("in-model-suppressions: expected true or false"));
}

TEST(ConfigErrors, RuleOptions) {
  EXPECT_THAT(error_of("[rules.graph-test-options]\nmin-byte = 1\n"),
              HasSubstr(":2: rules.graph-test-options.min-byte: unknown option (options of "
                        "'graph-test-options': min-bytes, names, ratio, strict, mode)"));
  EXPECT_THAT(error_of("[rules.graph-test-options]\nmin-bytes = \"big\"\n"),
              HasSubstr("rules.graph-test-options.min-bytes: expected an integer, got string"));
  EXPECT_THAT(error_of("[rules.graph-test-options]\nstrict = 1\n"),
              HasSubstr("rules.graph-test-options.strict: expected a boolean, got integer"));
  EXPECT_THAT(error_of("[rules.graph-dead-node]\nx = 1\n"),
              HasSubstr("rules.graph-dead-node.x: unknown option: rule 'graph-dead-node' has no "
                        "options"));
}

TEST(ConfigErrors, Overrides) {
  EXPECT_THAT(error_of("[[overrides]]\nignore = [\"graph\"]\n"),
              HasSubstr(":1: overrides[0]: missing 'files'"));
  EXPECT_THAT(error_of("[[overrides]]\nfiles = [\"a\"]\n[[overrides]]\nfiles = [\"b\"]\n"
                       "fail-on = \"info\"\n"),
              HasSubstr(":5: overrides[1].fail-on: unknown key"));
  EXPECT_THAT(error_of("overrides = 1\n"), HasSubstr("overrides: expected an array of tables"));
  EXPECT_THAT(error_of("[[overrides]]\nfiles = []\n"),
              HasSubstr("overrides[0].files: expected at least one glob"));
}

TEST(ConfigErrors, InvalidToml) {
  EXPECT_THAT(error_of("select = [\"graph\"\n"), HasSubstr("/proj/onnx-lint.toml:"));
  EXPECT_THAT(error_of("select = [\"graph\"\n"), HasSubstr("invalid TOML"));
}

TEST(Pyproject, ReadsTheToolTableAndPrefixesKeys) {
  Config c = parse("[project]\nname = \"x\"\n[tool.onnx-lint]\nselect = [\"graph\"]\n",
                   "/proj/pyproject.toml");
  ASSERT_TRUE(c.selection.select);
  EXPECT_THAT(*c.selection.select, ElementsAre("graph"));
  EXPECT_EQ(error_of("[tool.onnx-lint]\nfail-on = \"x\"\n", "/proj/pyproject.toml"),
            "/proj/pyproject.toml:2: tool.onnx-lint.fail-on: 'x' is not one of \"error\", "
            "\"warning\", \"info\", \"never\"");
  EXPECT_THAT(error_of("[tool.onnx-lint]\n[[tool.onnx-lint.overrides]]\nfilez = []\n",
                       "/proj/pyproject.toml"),
              HasSubstr(":3: tool.onnx-lint.overrides[0].filez: unknown key (did you mean "
                        "'files'?)"));
  EXPECT_THAT(error_of("[tool.black]\n", "/proj/pyproject.toml"),
              HasSubstr("no [tool.onnx-lint] table"));
}

TEST(Discovery, SearchesUpwardPrefersOnnxLintTomlAndSkipsForeignPyproject) {
  TempDir t;
  fs::path deep = t.path() / "a" / "b" / "c";
  fs::create_directories(deep);
  EXPECT_FALSE(find_config_file(deep).has_value());

  t.write("pyproject.toml", "[tool.onnx-lint]\nselect = [\"graph\"]\n");
  EXPECT_EQ(find_config_file(deep), t.path() / "pyproject.toml");

  t.write("a/pyproject.toml", "[tool.black]\nline-length = 100\n");  // not ours: skipped
  EXPECT_EQ(find_config_file(deep), t.path() / "pyproject.toml");

  t.write("a/b/pyproject.toml", "[tool.onnx-lint]\n");
  t.write("a/b/onnx-lint.toml", "");
  EXPECT_EQ(find_config_file(deep), t.path() / "a" / "b" / "onnx-lint.toml");

  Config c = load_config(t.path() / "pyproject.toml", test_registry());
  EXPECT_EQ(c.root, t.path());
  EXPECT_THROW(load_config(t.path() / "missing.toml", test_registry()), ConfigError);
}

std::string error_of_settings(const std::string& model) {
  try {
    (void)resolve_settings_per_file(test_registry(), Config{}, {}, {model});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool enabled(const Settings& s, const std::string& id) {
  return Linter(test_registry(), s.lint).is_enabled(id);
}

TEST(Precedence, CommandLineWinsOverFile) {
  Config c = parse(R"(
select = ["graph"]
ignore = ["graph-dead-node"]
fail-on = "warning"
targets = ["trt"]
)");
  Settings file_only = resolve_settings(test_registry(), c, {});
  EXPECT_TRUE(enabled(file_only, "graph-unused-input"));
  EXPECT_FALSE(enabled(file_only, "graph-dead-node"));
  EXPECT_FALSE(enabled(file_only, "model-ir-version"));
  EXPECT_EQ(file_only.fail_threshold, Severity::Warning);
  EXPECT_THAT(file_only.lint.targets, ElementsAre("tensorrt"));

  // --extend-select re-enables what the file ignores; --ignore removes more.
  CommandLine cli;
  cli.selection.extend_select = {"graph-dead-node", "model-ir-version"};
  cli.selection.ignore = {"graph-unused-input"};
  cli.fail_on = "never";
  cli.targets = {"onnxruntime-cpu"};
  Settings s = resolve_settings(test_registry(), c, cli);
  EXPECT_TRUE(enabled(s, "graph-dead-node"));
  EXPECT_TRUE(enabled(s, "model-ir-version"));
  EXPECT_FALSE(enabled(s, "graph-unused-input"));
  EXPECT_EQ(s.fail_threshold, std::nullopt);
  EXPECT_THAT(s.lint.targets, ElementsAre("onnxruntime-cpu"));

  // --select replaces the file's selection, ignores included.
  CommandLine sel;
  sel.selection.select = {"graph-dead-node"};
  Settings only = resolve_settings(test_registry(), c, sel);
  EXPECT_THAT(Linter(test_registry(), only.lint).enabled_rules(),
              ElementsAre("graph-dead-node", "internal-error"));
}

TEST(Precedence, CommandLineSelectorThatMatchesNothingIsAnError) {
  CommandLine cli;
  cli.selection.extend_select = {"graph-dead-nod"};
  try {
    resolve_settings(test_registry(), Config{}, cli);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "extend-select: 'graph-dead-nod' matches no rule id, category or glob (did you "
                 "mean 'graph-dead-node'?)");
  }
  cli.selection.extend_select.clear();
  cli.selection.ignore = {"zzzz-*"};
  EXPECT_THROW(resolve_settings(test_registry(), Config{}, cli), ConfigError);
}

TEST(Precedence, EmptySelectionEnablesNothing) {
  CommandLine cli;
  cli.selection.select = std::vector<std::string>{};
  Settings s = resolve_settings(test_registry(), Config{}, cli);
  EXPECT_THAT(Linter(test_registry(), s.lint).enabled_rules(), ElementsAre("internal-error"));
}

TEST(Precedence, BaselineFromFileUnlessCommandLineSaysOtherwise) {
  Config c = parse("baseline = \"b.json\"\n");
  EXPECT_EQ(resolve_settings(test_registry(), c, {}).baseline, fs::path("/proj/b.json"));
  CommandLine other;
  other.baseline = "x.json";
  EXPECT_EQ(resolve_settings(test_registry(), c, other).baseline, fs::path("x.json"));
  CommandLine none;
  none.no_baseline = true;
  EXPECT_FALSE(resolve_settings(test_registry(), c, none).baseline.has_value());
}

TEST(Severity, MostSpecificPatternWinsWhateverTheOrder) {
  // TOML tables are unordered (toml++ sorts keys): "*-dead-node" comes first alphabetically but
  // a glob is more specific than a category, so it must still win.
  Config c = parse(
      "[severity]\n\"*-dead-node\" = \"info\"\ngraph = \"error\"\n"
      "\"graph-unused-*\" = \"warning\"\ngraph-unused-input = \"info\"\n");
  Linter l(test_registry(), resolve_settings(test_registry(), c, {}).lint);
  auto sev = [&](const char* id) { return l.severity_of(*test_registry().find(id)->info); };
  EXPECT_EQ(sev("graph-dead-node"), Severity::Info);
  EXPECT_EQ(sev("graph-unused-initializer"), Severity::Warning);
  EXPECT_EQ(sev("graph-unused-input"), Severity::Info);
  EXPECT_EQ(sev("graph-unsorted-nodes"), Severity::Error);
}

TEST(PathGlob, Matches) {
  EXPECT_TRUE(path_glob_match("*.onnx", "a/b/model.onnx"));  // bare name: any folder
  EXPECT_FALSE(path_glob_match("*.onnx", "a/b/model.onnx.data"));
  EXPECT_TRUE(path_glob_match("legacy/*.onnx", "legacy/m.onnx"));
  EXPECT_FALSE(path_glob_match("legacy/*.onnx", "legacy/sub/m.onnx"));  // '*' stays in a folder
  EXPECT_TRUE(path_glob_match("legacy/**/*.onnx", "legacy/m.onnx"));
  EXPECT_TRUE(path_glob_match("legacy/**/*.onnx", "legacy/a/b/m.onnx"));
  EXPECT_TRUE(path_glob_match("**/exp_?.onnx", "x/y/exp_1.onnx"));
  EXPECT_TRUE(path_glob_match("./legacy", "legacy/a/m.onnx"));   // a folder covers its files
  EXPECT_FALSE(path_glob_match("./legacy", "x/legacy/m.onnx"));  // "./" anchors at the root
  EXPECT_TRUE(path_glob_match("legacy", "x/legacy/m.onnx"));     // a bare name: any level
  EXPECT_TRUE(path_glob_match("legacy/", "legacy/m.onnx"));
  EXPECT_FALSE(path_glob_match("legacy", "legacy2/m.onnx"));
  EXPECT_FALSE(path_glob_match("models/*.onnx", "other/models/m.onnx"));  // anchored at root
}

std::string dead_node_model() {
  ModelBuilder m;
  m.producer("test", "1");
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Abs", {"x"}, {"unused"}, "dead");
  return m.bytes();
}

std::vector<std::string> rules_of(const FileReport& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) {
    out.push_back(d.rule_id + ":" + std::string(severity_name(d.severity)));
  }
  return out;
}

TEST(Overrides, ApplyPerFileRelativeToTheConfigFolder) {
  TempDir t;
  fs::path file = t.write("onnx-lint.toml", R"(
select = ["graph-dead-node", "graph-unused-input"]

[[overrides]]
files = ["legacy/**"]
ignore = ["graph-dead-node"]

[[overrides]]
files = ["*_warn.onnx"]
severity = { graph-dead-node = "error" }
)");
  Config c = load_config(file, test_registry());
  Settings s = resolve_settings(test_registry(), c, {});
  Linter linter(test_registry(), s.lint);
  const std::string bytes = dead_node_model();
  const std::string root = t.path().string();

  EXPECT_THAT(rules_of(linter.lint_bytes(root + "/new/m.onnx", bytes)),
              ElementsAre("graph-dead-node:warning"));
  EXPECT_THAT(rules_of(linter.lint_bytes(root + "/legacy/old/m.onnx", bytes)), IsEmpty());
  EXPECT_THAT(rules_of(linter.lint_bytes(root + "/new/m_warn.onnx", bytes)),
              ElementsAre("graph-dead-node:error"));
  // Both overrides: the later layers apply on top of the earlier ones.
  EXPECT_THAT(rules_of(linter.lint_bytes(root + "/legacy/m_warn.onnx", bytes)), IsEmpty());

  EXPECT_THAT(matching_overrides(c, root + "/legacy/m_warn.onnx"), ElementsAre(0u, 1u));
  EXPECT_THAT(matching_overrides(c, root + "/legacy/../new/x.onnx"), IsEmpty());
  EXPECT_FALSE(options_for_file(s, root + "/legacy/a.onnx").per_file);
}

// Per-file discovery (ruff/ESLint): each model uses the nearest config above it; run-level
// settings (fail-on, baseline) stay the run's; [[overrides]] globs are relative to their own file.
TEST(PerFileConfig, NearestConfigAboveEachModel) {
  TempDir t;
  fs::path run_file = t.write("onnx-lint.toml", R"(
select = ["graph-dead-node"]
fail-on = "warning"
)");
  fs::path sub_file = t.write("sub/onnx-lint.toml", R"(
select = ["graph-dead-node"]
fail-on = "never"
severity = { graph-dead-node = "info" }

[[overrides]]
files = ["legacy/**"]
ignore = ["graph-dead-node"]
)");
  t.write("other/pyproject.toml", "[tool.black]\nline-length = 100\n");  // skipped
  const std::string root = t.path().string();
  const std::vector<std::string> models = {root + "/m.onnx", root + "/sub/m.onnx",
                                           root + "/sub/legacy/m.onnx", root + "/other/m.onnx",
                                           root + "/legacy/m.onnx"};
  Config run = load_config(run_file, test_registry());
  Settings s = resolve_settings_per_file(test_registry(), run, {}, models);
  EXPECT_EQ(s.fail_threshold, Severity::Warning);  // the run's, not sub's "never"
  EXPECT_EQ(s.config_file, run_file.string());
  EXPECT_EQ(config_file_for(s, models[0]), run_file.string());
  EXPECT_EQ(config_file_for(s, models[1]), sub_file.string());
  EXPECT_EQ(config_file_for(s, models[2]), sub_file.string());
  EXPECT_EQ(config_file_for(s, models[3]), run_file.string());  // foreign pyproject skipped
  EXPECT_EQ(config_file_for(s, "-"), run_file.string());
  EXPECT_EQ(config_for(s, run, models[1]).path, sub_file.string());

  Linter linter(test_registry(), s.lint);
  const std::string bytes = dead_node_model();
  EXPECT_THAT(rules_of(linter.lint_bytes(models[0], bytes)),
              ElementsAre("graph-dead-node:warning"));
  EXPECT_THAT(rules_of(linter.lint_bytes(models[1], bytes)), ElementsAre("graph-dead-node:info"));
  EXPECT_THAT(rules_of(linter.lint_bytes(models[2], bytes)), IsEmpty());  // sub's override
  // sub's "legacy/**" is relative to sub/: root/legacy is not under it.
  EXPECT_THAT(rules_of(linter.lint_bytes(models[4], bytes)),
              ElementsAre("graph-dead-node:warning"));

  // The command line wins over every file.
  CommandLine cli;
  cli.selection.ignore = {"graph-dead-node"};
  Settings quiet = resolve_settings_per_file(test_registry(), run, cli, models);
  Linter quiet_linter(test_registry(), quiet.lint);
  EXPECT_THAT(rules_of(quiet_linter.lint_bytes(models[1], bytes)), IsEmpty());
}

TEST(PerFileConfig, WithoutARunConfigAndABadFileFailsUpFront) {
  TempDir t;
  t.write("a/onnx-lint.toml", "select = [\"graph-dead-node\"]\n");
  t.write("b/onnx-lint.toml", "select = [\"no-such-rule\"]\n");
  const std::string root = t.path().string();
  Settings s = resolve_settings_per_file(test_registry(), Config{}, {}, {root + "/a/m.onnx", "-"});
  EXPECT_EQ(config_file_for(s, root + "/a/m.onnx"), (t.path() / "a" / "onnx-lint.toml").string());
  EXPECT_EQ(config_file_for(s, root + "/c/m.onnx"), "");  // not given: the run's (none)
  EXPECT_EQ(config_file_for(s, "-"), "");
  EXPECT_THAT(error_of_settings(root + "/b/m.onnx"), HasSubstr("no-such-rule"));
}

TEST(Overrides, CommandLineStillWinsInsideAnOverride) {
  Config c = parse(R"(
[[overrides]]
files = ["*.onnx"]
ignore = ["graph-dead-node"]
)",
                   (fs::temp_directory_path() / "onnx-lint.toml").string());
  CommandLine cli;
  cli.selection.extend_select = {"graph-dead-node"};
  Settings s = resolve_settings(test_registry(), c, cli);
  LintOptions o = options_for_file(s, (fs::temp_directory_path() / "m.onnx").string());
  EXPECT_TRUE(Linter(test_registry(), o).is_enabled("graph-dead-node"));
}

TEST(Overrides, RuleOptionsMergeOverTheFileWide) {
  Config c = parse(R"(
[rules.graph-test-options]
min-bytes = 5
mode = "slow"
[[overrides]]
files = ["big/**"]
rules.graph-test-options = { min-bytes = 7 }
)");
  Settings s = resolve_settings(test_registry(), c, {});
  LintOptions o = options_for_file(s, "/proj/big/m.onnx");
  EXPECT_EQ(std::get<int64_t>(o.rule_options.at("graph-test-options").at("min-bytes")), 7);
  EXPECT_EQ(std::get<std::string>(o.rule_options.at("graph-test-options").at("mode")), "slow");
  LintOptions base = options_for_file(s, "/proj/small/m.onnx");
  EXPECT_EQ(std::get<int64_t>(base.rule_options.at("graph-test-options").at("min-bytes")), 5);
}

TEST(ShowConfig, IsValidTomlThatReproducesTheSettings) {
  Config c = parse(R"(
select = ["graph", "export"]
ignore = ["graph-unused-input"]
fail-on = "warning"
targets = ["trt"]
[severity]
"export-*" = "info"
[rules.graph-test-options]
names = ["a \"quoted\" name", "b"]
ratio = 0.25
[[overrides]]
files = ["legacy/**"]
ignore = ["export"]
)");
  Settings s = resolve_settings(test_registry(), c, {});
  std::string shown = show_config(test_registry(), c, s);
  EXPECT_THAT(shown, HasSubstr("# config file: /proj/onnx-lint.toml"));
  EXPECT_THAT(shown, HasSubstr("export-python-op = \"info\"  # changed from the default"));
  EXPECT_THAT(shown, HasSubstr("# min-bytes = 0  (default)"));

  Config again = parse(shown);
  Settings s2 = resolve_settings(test_registry(), again, {});
  Linter a(test_registry(), s.lint), b(test_registry(), s2.lint);
  EXPECT_EQ(a.enabled_rules(), b.enabled_rules());
  for (const std::string& id : a.enabled_rules()) {
    const RuleInfo& info = *test_registry().find(id)->info;
    EXPECT_EQ(a.severity_of(info), b.severity_of(info)) << id;
  }
  EXPECT_EQ(s2.fail_on, "warning");
  EXPECT_THAT(s2.lint.targets, ElementsAre("tensorrt"));
  // Rules whose options are all defaults show as tables of comments: empty when read back.
  std::erase_if(s2.lint.rule_options, [](const auto& kv) { return kv.second.empty(); });
  EXPECT_EQ(s.lint.rule_options, s2.lint.rule_options);
  ASSERT_EQ(again.overrides.size(), 1u);
  EXPECT_EQ(Linter(test_registry(), options_for_file(s, "/proj/legacy/m.onnx")).enabled_rules(),
            Linter(test_registry(), options_for_file(s2, "/proj/legacy/m.onnx")).enabled_rules());

  std::string for_file = show_config(test_registry(), c, s, "/proj/legacy/m.onnx");
  EXPECT_THAT(for_file, HasSubstr("# for model: /proj/legacy/m.onnx ([[overrides]] 0 applied)"));
  EXPECT_THAT(for_file, ::testing::Not(HasSubstr("\"export-python-op\",")));
}

}  // namespace
}  // namespace onnxlint::testing
