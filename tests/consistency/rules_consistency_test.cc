// Every registered rule has a doc page in the house format and a test file; no doc page or
// rule test exists for a rule that is not registered; registration is sorted. Like ESLint's
// checkRuleFiles: cheap, and it stops drift between the registry, the docs and the tests.
//
// Engine rules (model-unreadable, internal-error) have no callbacks to unit-test in isolation:
// they may be tested in tests/rules/<id>_test.cc or, if not, in tests/engine/ (a test there
// must mention the id in quotes).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/registry.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = ONNXLINT_SOURCE_DIR;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

// The sections of a doc page outside fenced code blocks: H2 title -> body lines.
struct DocPage {
  std::string title_line;
  std::string summary;  // the paragraph after the title, lines joined with spaces
  std::vector<std::string> h2;
  std::map<std::string, std::string> sections;
  std::vector<std::string> other_headings;  // H1 after the first line, H3+ are fine
};

DocPage parse(const std::string& text) {
  DocPage page;
  std::vector<std::string> lines = lines_of(text);
  if (lines.empty()) return page;
  page.title_line = lines[0];
  size_t i = 1;
  while (i < lines.size() && lines[i].empty()) ++i;
  std::string summary;
  for (; i < lines.size() && !lines[i].empty() && !lines[i].starts_with("#"); ++i) {
    summary += (summary.empty() ? "" : " ") + lines[i];
  }
  page.summary = summary;
  bool in_code = false;
  std::string current;
  for (; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.starts_with("```")) in_code = !in_code;
    if (!in_code && l.starts_with("## ")) {
      current = l.substr(3);
      page.h2.push_back(current);
      page.sections[current];
      continue;
    }
    if (!in_code && l.starts_with("# ")) page.other_headings.push_back(l);
    if (!current.empty()) page.sections[current] += l + "\n";
  }
  return page;
}

const std::vector<std::string> kRequired = {"What it flags", "Why it matters", "Example",
                                            "How to fix"};
const std::vector<std::string> kOrder = {"What it flags", "Why it matters", "Example",
                                         "How to fix",    "Options",        "Known limitations",
                                         "Related rules"};

std::set<std::string> registered_ids() {
  std::set<std::string> ids;
  for (const auto& e : builtin_registry().entries()) ids.insert(e.info->id);
  return ids;
}

// One test per registered rule, so a failure names the rule.
class RuleDoc : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleDoc, PageFollowsTheHouseFormat) {
  const std::string id = GetParam();
  const RuleInfo& info = *builtin_registry().find(id)->info;
  const fs::path path = kSource / "docs" / "rules" / (id + ".md");
  ASSERT_TRUE(fs::exists(path)) << "missing doc page docs/rules/" << id << ".md";
  const std::string text = read_text(path);
  DocPage page = parse(text);

  EXPECT_EQ(page.title_line, "# " + id);
  EXPECT_TRUE(page.other_headings.empty()) << "extra H1: " << page.other_headings.front();

  // The summary: the registry's, verbatim, in house style.
  EXPECT_EQ(page.summary, info.summary) << "the doc's second paragraph must be the summary";
  const std::string& s = info.summary;
  EXPECT_FALSE(s.empty());
  EXPECT_LE(s.size(), 120u) << s;
  EXPECT_FALSE(s.ends_with(".")) << s;
  EXPECT_EQ(s.find(". "), std::string::npos) << "one sentence: " << s;
  EXPECT_TRUE(!s.empty() && std::isupper(static_cast<unsigned char>(s[0]))) << s;
  EXPECT_FALSE(s.starts_with("This rule") || s.starts_with("This check")) << s;

  // H2 sections: required ones present, all known, in order, none repeated.
  for (const std::string& r : kRequired) {
    EXPECT_TRUE(std::find(page.h2.begin(), page.h2.end(), r) != page.h2.end())
        << "missing '## " << r << "'";
  }
  size_t last = 0;
  for (const std::string& h : page.h2) {
    auto it = std::find(kOrder.begin(), kOrder.end(), h);
    ASSERT_TRUE(it != kOrder.end()) << "unknown section '## " << h << "'";
    size_t pos = static_cast<size_t>(it - kOrder.begin());
    EXPECT_TRUE(pos >= last && (pos > last || &h == &page.h2.front()))
        << "'## " << h << "' is out of order or repeated";
    last = pos;
  }
  for (const auto& [name, body] : page.sections) {
    EXPECT_NE(body.find_first_not_of(" \n"), std::string::npos) << "empty '## " << name << "'";
  }

  // The example shows an incorrect and a correct model.
  const std::string& example = page.sections["Example"];
  EXPECT_NE(example.find("Incorrect"), std::string::npos) << "Example needs an Incorrect case";
  EXPECT_NE(example.find("Correct"), std::string::npos) << "Example needs a Correct case";
  EXPECT_NE(text.find("```"), std::string::npos) << "Example needs a code block";

  // Options: documented exactly when the rule has them, each by name.
  const bool has_options_section = page.sections.count("Options") > 0;
  EXPECT_EQ(has_options_section, !info.options.empty());
  // ... with the declared type and default ("- `min-length` (int, default 3): ...").
  for (const OptionInfo& o : info.options) {
    const std::string& options = page.sections["Options"];
    const std::string head =
        "`" + o.name + "` (" + std::string(option_type_name(o.type())) + ", default ";
    const std::string value = option_value_text(o.default_value);
    EXPECT_TRUE(options.find(head + value + ")") != std::string::npos ||
                options.find(head + "`" + value + "`)") != std::string::npos)
        << "option '" << o.name << "' is not documented as " << head << value << ")";
  }

  // Related rules name registered rules.
  if (page.sections.count("Related rules")) {
    std::regex ticked("`([a-z]+(-[a-z0-9]+)+)`");
    const std::string& related = page.sections["Related rules"];
    std::set<std::string> ids = registered_ids();
    for (std::sregex_iterator m(related.begin(), related.end(), ticked), end; m != end; ++m) {
      EXPECT_TRUE(ids.count((*m)[1].str())) << "related rule '" << (*m)[1] << "' is unknown";
    }
  }
  EXPECT_EQ(text.find("TODO"), std::string::npos) << "the page still has a TODO";

  // --explain prints this very page (embedded at build time).
  EXPECT_EQ(RuleRegistry::documentation(id), text) << "rebuild: embedded doc is stale";
}

TEST_P(RuleDoc, HasATestFile) {
  const std::string id = GetParam();
  const RuleInfo& info = *builtin_registry().find(id)->info;
  const fs::path test = kSource / "tests" / "rules" / (id + "_test.cc");
  if (fs::exists(test)) {
    const std::string text = read_text(test);
    EXPECT_NE(text.find("\"" + id + "\""), std::string::npos) << test << " never names the rule";
    EXPECT_NE(text.find("TEST("), std::string::npos) << test << " has no test";
    return;
  }
  ASSERT_TRUE(info.engine) << "missing tests/rules/" << id << "_test.cc";
  bool found = false;
  for (const auto& entry : fs::directory_iterator(kSource / "tests" / "engine")) {
    if (entry.path().extension() == ".cc" &&
        read_text(entry.path()).find("\"" + id + "\"") != std::string::npos) {
      found = true;
    }
  }
  EXPECT_TRUE(found) << "engine rule " << id << " is tested nowhere (tests/rules or tests/engine)";
}

std::vector<std::string> all_ids() {
  std::vector<std::string> ids;
  for (const auto& e : builtin_registry().entries()) ids.push_back(e.info->id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(Registered, RuleDoc, ::testing::ValuesIn(all_ids()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string name = p.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(RulesConsistency, NoDocPageForAnUnregisteredRule) {
  std::set<std::string> ids = registered_ids();
  for (const auto& entry : fs::directory_iterator(kSource / "docs" / "rules")) {
    const std::string name = entry.path().filename().string();
    if (name == "index.md" || name == "README.md") continue;
    EXPECT_EQ(entry.path().extension(), ".md") << name;
    EXPECT_TRUE(ids.count(entry.path().stem().string()))
        << "docs/rules/" << name << " documents no registered rule";
  }
}

TEST(RulesConsistency, NoRuleTestForAnUnregisteredRule) {
  std::set<std::string> ids = registered_ids();
  for (const auto& entry : fs::directory_iterator(kSource / "tests" / "rules")) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with("_test.cc")) continue;
    const std::string id = name.substr(0, name.size() - std::string("_test.cc").size());
    EXPECT_TRUE(ids.count(id)) << "tests/rules/" << name << " tests no registered rule";
  }
}

// Each rules/<category>/<category>_rules.cc registers its rules sorted by id, and registers
// every rule of that category that the registry knows.
TEST(RulesConsistency, CategoryRegistrationIsSortedAndComplete) {
  std::map<std::string, std::vector<std::string>> by_category;
  for (const auto& e : builtin_registry().entries()) {
    if (!e.info->engine) by_category[e.info->category].push_back(e.info->id);
  }
  std::regex call(R"(^\s*add_([a-z0-9_]+)\(registry\);)");
  for (const auto& [category, ids] : by_category) {
    const fs::path file = kSource / "rules" / category / (category + "_rules.cc");
    ASSERT_TRUE(fs::exists(file)) << file;
    std::vector<std::string> calls;
    for (const std::string& line : lines_of(read_text(file))) {
      std::smatch m;
      if (std::regex_search(line, m, call)) {
        std::string id = m[1].str();
        std::replace(id.begin(), id.end(), '_', '-');
        calls.push_back(id);
      }
    }
    EXPECT_TRUE(std::is_sorted(calls.begin(), calls.end())) << file << " is not sorted";
    std::vector<std::string> sorted_calls = calls;
    std::sort(sorted_calls.begin(), sorted_calls.end());
    EXPECT_EQ(sorted_calls, ids) << file;
  }
}

// Ids follow "<category>-<name>" in kebab-case (the registry enforces it too).
TEST(RulesConsistency, IdsAndCategories) {
  std::regex id_re("^[a-z]+(-[a-z0-9]+)+$");
  for (const auto& e : builtin_registry().entries()) {
    EXPECT_TRUE(std::regex_match(e.info->id, id_re)) << e.info->id;
    EXPECT_TRUE(e.info->id.starts_with(e.info->category + "-")) << e.info->id;
  }
}

}  // namespace
}  // namespace onnxlint::testing
