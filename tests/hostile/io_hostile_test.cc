// Hostile input against loading, configuration, hashing and output (issue 28: N8, N9, N10, N11,
// N14, N15). Each test builds its input here and fails on the defect it is named after.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/config.h>
#include <onnxlint/escape.h>
#include <onnxlint/linter.h>
#include <onnxlint/loader.h>
#include <onnxlint/registry.h>
#include <onnxlint/report.h>
#include <onnxlint/targets.h>
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "config/text_util.h"
#include "driver/model_summary.h"
#include "loader/temp_dir.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

FileReport lint_all(const std::string& bytes, const std::string& name = "m.onnx",
                    RuleOptions fp16_options = {}) {
  LintOptions o;
  o.select = {"ALL"};
  if (!fp16_options.empty()) o.rule_options["data-fp16-overflow"] = std::move(fp16_options);
  Linter linter(builtin_registry(), o);
  return linter.lint_bytes(name, bytes);
}

bool has_rule(const FileReport& r, std::string_view id) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.rule_id == id) return true;
  }
  return false;
}

// ---- N8: a count times a width wraps ------------------------------------------------------

// Initializers that declare 2^62 elements (2^61 for 8-byte types) with empty raw_data: the
// count times the element width is 2^64, 0 in 64 bits, the size of the payload.
std::string wrapping_initializers() {
  ModelBuilder mb;
  GraphBuilder& g = mb.graph();
  const int64_t big = int64_t{1} << 31;
  g.input("x", kFloat, {2});
  g.initializer(make_tensor_raw("f32", kFloat, {big, big}, 0));
  g.initializer(make_tensor_raw("i64", kInt64, {big / 2, big}, 0));
  g.initializer(make_tensor_raw("f16", kFloat16, {big, big * 2}, 0));
  g.initializer(make_tensor_raw("f64", kDouble, {big / 2, big}, 0));
  g.node("Add", {"x", "f32"}, {"a"}, "add");
  g.node("Reshape", {"a", "i64"}, {"r"}, "reshape");
  attr_int(g.node("Cast", {"f16"}, {"c"}, "cast"), "to", kFloat);
  g.node("Add", {"r", "f64"}, {"y"}, "add2");
  g.output("y", kFloat, {}, false);
  g.output("c", kFloat, {}, false);
  return mb.bytes();
}

TEST(IoHostileN8, PayloadChecksDivideInsteadOfMultiplying) {
  EXPECT_FALSE(holds_exactly(0, uint64_t{1} << 62, 4));  // 2^62 * 4 wraps to 0
  EXPECT_FALSE(holds_exactly(0, uint64_t{1} << 61, 8));
  EXPECT_FALSE(holds_exactly(8, 3, 0));
  EXPECT_FALSE(holds_exactly(10, 2, 4));
  EXPECT_TRUE(holds_exactly(12, 3, 4));
  EXPECT_TRUE(holds_exactly(0, 0, 2));
}

TEST(IoHostileN8, WrappingCountsAreNotDecoded) {
  const std::string bytes = wrapping_initializers();
  LoadResult r = load_model_from_bytes("m.onnx", bytes);
  ASSERT_TRUE(r.model) << r.error->message;
  const auto& inits = r.model->graph().initializers();
  ASSERT_EQ(inits.size(), 4u);
  for (const TensorData& t : inits) {
    ASSERT_EQ(t.storage, TensorData::Storage::Raw) << t.name;
    ASSERT_EQ(t.payload.size, 0u) << t.name;
    // No element limit: only the payload check stands between the count and the map's end.
    const size_t no_limit = std::numeric_limits<size_t>::max();
    EXPECT_FALSE(r.model->read_floats(t, no_limit).has_value()) << t.name;
    EXPECT_FALSE(r.model->read_ints(t, no_limit).has_value()) << t.name;
  }
  // 2^62 floats are 2^64 bytes: not a number of bytes this model can state.
  EXPECT_FALSE(inits[0].expected_bytes().has_value());
}

TEST(IoHostileN8, EveryRuleAtTheLargestElementLimitSeesAMismatchNotASignal) {
  const FileReport r = lint_all(wrapping_initializers(), "m.onnx",
                                {{"max-elements", int64_t{std::numeric_limits<int32_t>::max()}}});
  EXPECT_EQ(r.status, FileReport::Status::Ok);
  EXPECT_FALSE(has_rule(r, kInternalError));
  EXPECT_TRUE(has_rule(r, "data-size-mismatch"));
}

TEST(IoHostileN8, IntOptionsOutsideTheirRangeAreConfigErrors) {
  LintOptions o;
  o.rule_options["data-fp16-overflow"]["max-elements"] = int64_t{1} << 62;
  try {
    Linter linter(builtin_registry(), o);
    FAIL() << "a max-elements of 2^62 was accepted";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("rules.data-fp16-overflow.max-elements: 4611686018427387904 "
                                    "is out of range (from 0 to 2147483647)"));
  }
  o.rule_options["data-fp16-overflow"]["max-elements"] = int64_t{-1};
  EXPECT_THROW(Linter(builtin_registry(), o), ConfigError);
  o.rule_options["data-fp16-overflow"]["max-elements"] = int64_t{1} << 20;
  EXPECT_NO_THROW(Linter(builtin_registry(), o));

  TempDir t;
  const std::string file =
      t.write("onnx-lint.toml", "[rules.data-fp16-overflow]\nmax-elements = 4611686018427387904\n");
  try {
    (void)load_config(file, builtin_registry());
    FAIL() << "the config reader accepted a max-elements of 2^62";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr(file + ":2: rules.data-fp16-overflow.max-elements: "
                                           "4611686018427387904 is out of range"));
  }
}

// ---- N9: one config file, many folders -----------------------------------------------------

TEST(IoHostileN9, APyprojectAboveManyFoldersIsParsedOnce) {
  TempDir t;
  std::string text = "[tool.other]\nfiller = [\n";
  for (int i = 0; i < 2000; ++i) text += "  \"" + std::to_string(i) + "\",\n";
  text += "]\n\n[tool.onnx-lint]\nignore = [\"graph-dead-node\"]\n";
  t.write("pyproject.toml", text);
  std::vector<std::string> models;
  for (int i = 0; i < 20; ++i) {
    models.push_back(t.write("m" + std::to_string(i) + "/a/model.onnx", "x"));
  }
  const uint64_t before = config_file_parses();
  const Config run = load_config(t.path() / "pyproject.toml", builtin_registry());
  const Settings s =
      resolve_settings_per_file(builtin_registry(), run, CommandLine{}, models, canonical_target);
  EXPECT_EQ(config_file_parses() - before, 1u);
  for (const std::string& m : models) {
    EXPECT_EQ(config_file_for(s, m), (t.path() / "pyproject.toml").string());
  }
  // Discovery alone (a fresh run in the same process) reads nothing new either.
  for (const std::string& m : models) {
    EXPECT_EQ(find_config_file(fs::path(m).parent_path()), t.path() / "pyproject.toml");
  }
  EXPECT_EQ(config_file_parses() - before, 1u);
}

TEST(IoHostileN9, AConfigFileThatChangesIsReadAgain) {
  TempDir t;
  const std::string file = t.write("onnx-lint.toml", "ignore = [\"graph-dead-node\"]\n");
  EXPECT_EQ(load_config(file, builtin_registry()).selection.ignore,
            std::vector<std::string>{"graph-dead-node"});
  t.write("onnx-lint.toml", "ignore = [\"graph-unused-input\", \"graph-dead-node\"]\n");
  EXPECT_EQ(load_config(file, builtin_registry()).selection.ignore,
            (std::vector<std::string>{"graph-unused-input", "graph-dead-node"}));
}

// ---- N10: a long name echoed by every finding ---------------------------------------------

// One input whose first dim is named by `name_bytes` bytes, and `outputs` Identity outputs of
// it without declared shapes: each output's finding, notes and signature name the dim.
std::string long_dim_name(size_t name_bytes, int outputs) {
  ModelBuilder mb;
  GraphBuilder& g = mb.graph();
  g.input("x", kFloat, {std::string(name_bytes, 'N'), int64_t{3}});
  for (int i = 0; i < outputs; ++i) {
    const std::string y = "y" + std::to_string(i);
    g.node("Identity", {"x"}, {y}, "id" + std::to_string(i));
    g.output(y, kFloat, {}, false);
  }
  return mb.bytes();
}

size_t longest_string(const Diagnostic& d) {
  size_t n = std::max({d.message.size(), d.help.size(), d.location.node_name.size(),
                       d.location.value_name.size(), d.location.graph_path.size()});
  for (const std::string& note : d.notes) n = std::max(n, note.size());
  for (const RelatedLocation& r : d.related) n = std::max(n, r.message.size());
  return n;
}

TEST(IoHostileN10, CappedKeepsBothEndsAndSaysWhatIsLeftOut) {
  EXPECT_EQ(capped("short"), "short");
  const std::string name = "head" + std::string(100000, 'N') + "tail";
  const std::string c = capped(name);
  EXPECT_LE(c.size(), kMaxEchoBytes + 64);
  EXPECT_TRUE(c.starts_with("headNNN"));
  EXPECT_TRUE(c.ends_with("NNNtail"));
  const size_t kept_head = kMaxEchoBytes / 3 * 2, kept_tail = kMaxEchoBytes / 4;
  EXPECT_THAT(c, HasSubstr("\u2026[" + std::to_string(name.size() - kept_head - kept_tail) +
                           " bytes elided, #"));
  // Two long names that differ only in the middle stay different.
  std::string other = name;
  other[50000] = 'M';
  EXPECT_NE(capped(other), c);
  // A cut never splits a UTF-8 character.
  const std::string wide = [] {
    std::string s;
    for (int i = 0; i < 3000; ++i) s += "\xc3\xa9";  // é
    return s;
  }();
  EXPECT_TRUE(is_visible(capped(wide, 101)));
  EXPECT_EQ(capped(wide, 101).find("\xc3\u2026"), std::string::npos);
}

TEST(IoHostileN10, ALongDimNameCostsAtMostTheCapPerString) {
  const FileReport r = lint_all(long_dim_name(100000, 50));
  ASSERT_EQ(r.status, FileReport::Status::Ok);
  size_t findings_naming_it = 0;
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_LE(longest_string(d), kMaxEchoBytes + 64) << d.rule_id;
    for (const std::string& n : d.notes) findings_naming_it += n.find("NNNN") != n.npos;
  }
  EXPECT_GE(findings_naming_it, 50u);  // the findings are there, the name cut in each
  ASSERT_TRUE(r.model.has_value());
  ASSERT_EQ(r.model->inputs.size(), 1u);
  ASSERT_TRUE(r.model->inputs[0].dims.has_value());
  EXPECT_LE(r.model->inputs[0].dims->at(0).text.size(), kMaxEchoBytes + 64);
  for (const ValueSignature& out : r.model->outputs) {
    ASSERT_TRUE(out.analysis.has_value()) << out.name;
    EXPECT_LE(out.analysis->at(0).text.size(), kMaxEchoBytes + 64) << out.name;
  }
  // Every format: the report grows with the findings, not with findings x name length.
  LintOptions o;
  o.select = {"ALL"};
  Linter linter(builtin_registry(), o);
  Report report;
  report.files.push_back(r);
  decide_verdicts(report, Severity::Info);
  std::ostringstream json, sarif, text, junit, github, gitlab, markdown;
  emit_json(report, linter, json);
  emit_sarif(report, linter, sarif);
  emit_text(report, linter, TextOptions{}, text);
  emit_junit(report, linter, junit);
  emit_github(report, linter, github);
  emit_gitlab(report, linter, gitlab);
  emit_markdown(report, linter, markdown);
  for (const std::string& s : {json.str(), sarif.str(), text.str(), junit.str(), github.str(),
                               gitlab.str(), markdown.str()}) {
    EXPECT_LT(s.size(), size_t{2} << 20) << s.substr(0, 200);  // uncapped: 10 MB and more
  }
}

// ---- N15: escaping ---------------------------------------------------------------------------

TEST(IoHostileN15, HiddenCharactersAreEscapedInEveryMode) {
  const std::string text =
      "a\u200b\u200d\u2060\ufeff\u00ad\u202e\U000E0041\U000E007F\u3164z";  // zero-width, tags
  EXPECT_EQ(visible(text),
            "a\\u{200B}\\u{200D}\\u{2060}\\u{FEFF}\\u{00AD}\\u{202E}\\u{E0041}\\u{E007F}"
            "\\u{3164}z");
  EXPECT_EQ(escape(text, EscapeMode::Json),
            "a\\u200b\\u200d\\u2060\\ufeff\\u00ad\\u202e\\udb40\\udc41\\udb40\\udc7f\\u3164z");
  EXPECT_EQ(escape(text, EscapeMode::Toml),
            "a\\u200B\\u200D\\u2060\\uFEFF\\u00AD\\u202E\\U000E0041\\U000E007F\\u3164z");
  EXPECT_FALSE(is_visible(text));
  // Ordinary non-ASCII names are kept.
  EXPECT_EQ(visible("Größe_批量"), "Größe_批量");
  EXPECT_EQ(escape("Größe_批量", EscapeMode::Json), "Größe_批量");
  // Line breaks are kept only on request, never in JSON mode's sense of "controls".
  EXPECT_EQ(visible("a\nb"), "a\\x0ab");
  EXPECT_EQ(visible("a\nb", true), "a\nb");
}

// A model whose names hold line breaks, a forged workflow command, ESC, NUL, a bidi override,
// zero-width and tag characters.
const std::string& evil_text() {
  static const std::string evil = std::string("n\n::error file=x::forged\r\n\x1b[31m") +
                                  std::string(1, '\0') + "\u202e\u200b\U000E0041z";
  return evil;
}

std::string hostile_names() {
  const std::string& evil = evil_text();
  ModelBuilder mb;
  GraphBuilder& g = mb.graph();
  g.input("x" + evil, kFloat, {evil, int64_t{3}});
  g.node("Relu", {"x" + evil}, {"a"}, "relu" + evil);
  g.node("Neg", {"x" + evil}, {"dead" + evil}, "dead" + evil);
  g.node("Relu", {"a"}, {"y"}, "relu2");
  g.output("y", kFloat, {}, false);
  return mb.bytes();
}

TEST(IoHostileN15, NoFormatPrintsAModelsControlOrHiddenCharacters) {
  LintOptions o;
  o.select = {"ALL"};
  Linter linter(builtin_registry(), o);
  Report report;
  report.files.push_back(linter.lint_bytes("m.onnx", hostile_names()));
  ASSERT_GE(report.files[0].diagnostics.size(), 3u);
  decide_verdicts(report, Severity::Info);
  std::ostringstream json, sarif, text, junit, github, gitlab, markdown;
  emit_json(report, linter, json);
  emit_sarif(report, linter, sarif);
  emit_text(report, linter, TextOptions{}, text);
  emit_junit(report, linter, junit);
  emit_github(report, linter, github);
  emit_gitlab(report, linter, gitlab);
  emit_markdown(report, linter, markdown);
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {"json", json.str()},        {"sarif", sarif.str()},   {"text", text.str()},
      {"junit", junit.str()},      {"github", github.str()}, {"gitlab", gitlab.str()},
      {"markdown", markdown.str()}};
  for (const auto& [format, s] : outputs) {
    EXPECT_EQ(s.find('\x1b'), std::string::npos) << format;
    EXPECT_EQ(s.find('\0'), std::string::npos) << format;
    EXPECT_EQ(s.find('\r'), std::string::npos) << format;
    EXPECT_EQ(s.find("\u202e"), std::string::npos) << format;
    EXPECT_EQ(s.find("\u200b"), std::string::npos) << format;
    EXPECT_EQ(s.find("\U000E0041"), std::string::npos) << format;
    // No line a model wrote: no workflow command but the GitHub format's own, one per finding.
    std::istringstream lines(s);
    size_t commands = 0;
    for (std::string line; std::getline(lines, line);) {
      const size_t start = line.find_first_not_of(' ');
      commands += start != std::string::npos && line.compare(start, 2, "::") == 0;
    }
    EXPECT_EQ(commands, format == "github" ? report.files[0].diagnostics.size() : 0u)
        << format << s;
  }
  // The JSON formats keep the names exactly: escapes a JSON reader decodes to the same bytes.
  EXPECT_THAT(json.str(), HasSubstr("\\u202e\\u200b\\udb40\\udc41z"));
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  bool found = false;
  for (const auto& d : doc["files"][0]["diagnostics"]) {
    if (d["location"].contains("node")) {
      found = found || d["location"]["node"]["name"] == "dead" + evil_text();
    }
  }
  EXPECT_TRUE(found) << json.str();
}

// ---- N11: one file, many spellings ---------------------------------------------------------

// A model whose tensors keep their data in `spellings` of one file name.
std::string external_spellings(const std::vector<std::string>& spellings) {
  ModelBuilder mb;
  GraphBuilder& g = mb.graph();
  g.input("x", kFloat, {4});
  std::string last = "x";
  for (size_t i = 0; i < spellings.size(); ++i) {
    onnx::TensorProto t;
    t.set_name("w" + std::to_string(i));
    t.set_data_type(kFloat);
    t.add_dims(4);
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    auto* loc = t.add_external_data();
    loc->set_key("location");
    loc->set_value(spellings[i]);
    auto* len = t.add_external_data();
    len->set_key("length");
    len->set_value("16");
    g.initializer(t);
    const std::string sum = "s" + std::to_string(i);
    g.node("Add", {last, t.name()}, {sum});
    last = sum;
  }
  g.output(last, kFloat, {4});
  return mb.bytes();
}

TEST(IoHostileN11, EachExternalFileIsHashedOncePerRun) {
  TempDir t;
  const std::string weights(1 << 20, '\x01');
  t.write("w.bin", weights);
  fs::create_directories(t.path() / "sub");
  const std::vector<std::string> spellings = {"w.bin", "./w.bin", ".//w.bin", "sub/../w.bin",
                                              "./sub/.././w.bin"};
  const std::string model = external_spellings(spellings);
  t.write("a.onnx", model);
  t.write("b.onnx", model);
  FileHashCache hashes;
  LoadResult a = load_model(t.str("a.onnx"));
  ASSERT_TRUE(a.model);
  AnalysisCache cache(*a.model);
  const ModelSummary s = summarize(*a.model, cache, true, &hashes);
  ASSERT_EQ(s.external_data.size(), spellings.size());
  for (const ExternalFile& f : s.external_data) {
    EXPECT_EQ(f.error, "") << f.location;
    EXPECT_EQ(f.sha256, s.external_data[0].sha256) << f.location;
  }
  EXPECT_EQ(s.external_data[0].sha256.size(), 64u);
  EXPECT_EQ(hashes.bytes_hashed(), weights.size());
  // A second model of the run naming the same file reads nothing more.
  LoadResult b = load_model(t.str("b.onnx"));
  ASSERT_TRUE(b.model);
  AnalysisCache cache_b(*b.model);
  (void)summarize(*b.model, cache_b, true, &hashes);
  EXPECT_EQ(hashes.bytes_hashed(), weights.size());

  // Through the Linter (--hash): the two models of one run.
  LintOptions o;
  o.hash = true;
  o.select = {"data-external-missing"};
  Linter linter(builtin_registry(), o);
  Report report = linter.lint_paths({t.str()});
  ASSERT_EQ(report.files.size(), 2u);
  for (const FileReport& f : report.files) {
    ASSERT_TRUE(f.model.has_value());
    EXPECT_EQ(f.model->external_data[3].sha256, s.external_data[0].sha256);
  }
}

// ---- N14: symlinks out of the folder walked ------------------------------------------------

TEST(IoHostileN14, FolderExpansionFollowsNoSymlinkOutOfTheFolder) {
  TempDir t;
  const std::string outside = t.write("outside/secret.onnx", "x");
  t.write("repo/models/a.onnx", "x");
  fs::create_symlink(outside, t.path() / "repo/models/leak.onnx");
  fs::create_symlink(t.path() / "outside", t.path() / "repo/models/outdir");
  fs::create_symlink("a.onnx", t.path() / "repo/models/alias.onnx");         // inside: fine
  fs::create_symlink("../models/a.onnx", t.path() / "repo/models/up.onnx");  // still inside
  std::vector<std::string> found;
  for (const InputPath& in : expand_inputs({t.str("repo")})) {
    EXPECT_EQ(in.error, "") << in.path;
    found.push_back(fs::path(in.path).lexically_relative(t.path()).string());
  }
  EXPECT_EQ(found, (std::vector<std::string>{"repo/models/a.onnx", "repo/models/alias.onnx",
                                             "repo/models/up.onnx"}));
  // Walking from the models folder: "up.onnx" leaves it by name only, and lands inside.
  found.clear();
  for (const InputPath& in : expand_inputs({t.str("repo/models")})) {
    found.push_back(fs::path(in.path).filename().string());
  }
  EXPECT_EQ(found, (std::vector<std::string>{"a.onnx", "alias.onnx", "up.onnx"}));
  // A path given explicitly is linted wherever it leads.
  const std::vector<InputPath> explicit_link = expand_inputs({t.str("repo/models/leak.onnx")});
  ASSERT_EQ(explicit_link.size(), 1u);
  EXPECT_EQ(explicit_link[0].error, "");
  // A folder whose only model is a link out of it has no model.
  t.write("solo/.keep", "");
  fs::create_symlink(outside, t.path() / "solo/leak.onnx");
  const std::vector<InputPath> solo = expand_inputs({t.str("solo")});
  ASSERT_EQ(solo.size(), 1u);
  EXPECT_EQ(solo[0].error, "no model (*.onnx file) in this folder");
}

}  // namespace
}  // namespace onnxlint::testing
