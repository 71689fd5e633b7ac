// Reading configuration files: discovery, TOML parsing with toml++, validation. Every error
// names the file, the line, the key and the reason, because a config mistake that is silently
// ignored leaves a rule off (or on) without anyone noticing.
#include <fmt/format.h>
#include <onnxlint/config.h>
#include <sys/stat.h>
#include <toml++/toml.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "config/text_util.h"
#include "util/file_identity.h"

namespace onnxlint {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTopKeys[] = {
    "baseline",  "extend-select",  "fail-on", "ignore", "in-model-suppressions",
    "overrides", "require-target", "rules",   "select", "severity",
    "targets"};
constexpr size_t kMaxGlobBytes = 1024, kMaxGlobParts = 64;
constexpr std::string_view kOverrideKeys[] = {"extend-select", "files",  "ignore",
                                              "rules",         "select", "severity"};
constexpr std::string_view kFailOn[] = {"error", "warning", "info", "never"};

class Parser {
 public:
  Parser(std::string file, std::string prefix, const RuleRegistry& registry,
         const TargetResolver& resolve_target)
      : file_(std::move(file)),
        prefix_(std::move(prefix)),
        registry_(registry),
        resolve_target_(resolve_target) {}

  [[noreturn]] void fail(const toml::source_region& where, std::string_view key,
                         std::string_view reason) const {
    std::string at = file_;
    if (where.begin.line > 0) at += fmt::format(":{}", where.begin.line);
    throw ConfigError(fmt::format("{}: {}{}: {}", at, prefix_, key, reason));
  }

  void top_level(const toml::table& t, Config& c) {
    for (auto&& [k, v] : t) {
      const std::string key(k.str());
      if (key == "select") {
        c.selection.select = selectors(v, key);
      } else if (key == "extend-select") {
        c.selection.extend_select = selectors(v, key);
      } else if (key == "ignore") {
        c.selection.ignore = selectors(v, key);
      } else if (key == "targets") {
        c.targets = targets(v, key);
      } else if (key == "fail-on") {
        std::string s = string(v, key);
        if (std::find(std::begin(kFailOn), std::end(kFailOn), s) == std::end(kFailOn)) {
          fail(v.source(), key,
               fmt::format("'{}' is not one of \"error\", \"warning\", \"info\", \"never\"", s));
        }
        c.fail_on = s;
      } else if (key == "severity") {
        c.severity = severities(v, key);
      } else if (key == "rules") {
        c.rule_options = rule_options(v, key);
      } else if (key == "overrides") {
        overrides(v, key, c);
      } else if (key == "baseline") {
        fs::path p = string(v, key);
        if (p.empty()) fail(v.source(), key, "expected a file path, got an empty string");
        c.baseline = (p.is_absolute() ? p : c.root / p).lexically_normal();
      } else if (key == "require-target") {
        c.require_targets = requirements(v, key);
      } else if (key == "in-model-suppressions") {
        if (!v.is_boolean()) fail(v.source(), key, expected("true or false", v));
        c.in_model_suppressions = v.as_boolean()->get();
      } else {
        unknown_key(k, key, kTopKeys);
      }
    }
  }

 private:
  template <size_t N>
  [[noreturn]] void unknown_key(const toml::key& k, const std::string& key,
                                const std::string_view (&known)[N]) const {
    std::vector<std::string> names(std::begin(known), std::end(known));
    std::string reason = "unknown key";
    if (auto close = closest(key, names)) {
      reason += fmt::format(" (did you mean '{}'?)", *close);
    } else {
      reason += fmt::format(" (known keys: {})", fmt::join(names, ", "));
    }
    fail(k.source(), key, reason);
  }

  static std::string expected(std::string_view what, const toml::node& v) {
    std::ostringstream got;
    got << v.type();
    return fmt::format("expected {}, got {}", what, got.str());
  }

  // "full", ["full", "tensorrt=partial"] or {tensorrt = "full", coreml = "partial"}.
  std::vector<TargetRequirement> requirements(const toml::node& v, std::string_view key) const {
    std::vector<std::string> texts;
    if (v.is_string()) {
      texts.push_back(v.as_string()->get());
    } else if (v.is_table()) {
      for (auto&& [target, level] : *v.as_table()) {
        texts.push_back(fmt::format("{}={}", target.str(), string(level, key)));
      }
    } else if (v.is_array()) {
      texts = strings(v, key);
    } else {
      fail(v.source(), key,
           expected("\"full\", \"partial\", an array of \"[TARGET=]LEVEL\" or a table of "
                    "TARGET = LEVEL",
                    v));
    }
    std::vector<TargetRequirement> out;
    for (const std::string& t : texts) {
      try {
        out.push_back(parse_target_requirement(t, resolve_target_));
      } catch (const ConfigError& e) {
        std::string why = e.what();
        if (auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
        fail(v.source(), key, why);
      }
    }
    return out;
  }

  std::string string(const toml::node& v, std::string_view key) const {
    if (!v.is_string()) fail(v.source(), key, expected("a string", v));
    return v.as_string()->get();
  }

  std::vector<std::string> strings(const toml::node& v, std::string_view key) const {
    if (!v.is_array()) fail(v.source(), key, expected("an array of strings", v));
    std::vector<std::string> out;
    for (const toml::node& el : *v.as_array()) {
      if (!el.is_string()) fail(el.source(), key, expected("an array of strings", el));
      out.push_back(el.as_string()->get());
    }
    return out;
  }

  // A selector must select something: a typo would otherwise silently disable nothing.
  void check_selector(const std::string& s, const toml::source_region& where,
                      std::string_view key) const {
    bool any =
        std::any_of(registry_.entries().begin(), registry_.entries().end(),
                    [&](const RuleRegistry::Entry& e) { return selector_matches(s, *e.info); });
    if (any) return;
    std::string reason = fmt::format("'{}' matches no rule id, category or glob", s);
    if (auto close = closest_rule_name(registry_, s)) {
      reason += fmt::format(" (did you mean '{}'?)", *close);
    } else {
      reason += " (see onnx-lint --list-rules)";
    }
    fail(where, key, reason);
  }

  std::vector<std::string> selectors(const toml::node& v, std::string_view key) const {
    std::vector<std::string> out = strings(v, key);
    size_t i = 0;
    for (const toml::node& el : *v.as_array()) check_selector(out[i++], el.source(), key);
    return out;
  }

  std::vector<std::string> targets(const toml::node& v, std::string_view key) const {
    std::vector<std::string> names = strings(v, key), out;
    size_t i = 0;
    for (const toml::node& el : *v.as_array()) {
      std::string id = names[i++];
      if (resolve_target_) {
        std::optional<std::string> canonical = resolve_target_(id);
        if (!canonical) {
          fail(el.source(), key,
               fmt::format("unknown target '{}' (see onnx-lint --list-targets)", id));
        }
        id = *canonical;
      }
      if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    }
    return out;
  }

  std::vector<SeverityOverride> severities(const toml::node& v, std::string_view key) const {
    if (!v.is_table()) fail(v.source(), key, expected("a table of rule = \"severity\"", v));
    std::vector<SeverityOverride> out;
    for (auto&& [k, sev] : *v.as_table()) {
      std::string pattern(k.str());
      std::string full = fmt::format("{}.{}", key, quote_key(pattern));
      check_selector(pattern, k.source(), full);
      if (!sev.is_string())
        fail(sev.source(), full, expected("\"error\", \"warning\" or \"info\"", sev));
      std::optional<Severity> s = parse_severity(sev.as_string()->get());
      if (!s) {
        fail(sev.source(), full,
             fmt::format("'{}' is not one of \"error\", \"warning\", \"info\"",
                         sev.as_string()->get()));
      }
      out.push_back({pattern, *s});
    }
    sort_by_specificity(registry_, out);
    return out;
  }

  OptionValue option_value(const toml::node& v, const OptionInfo& info,
                           std::string_view key) const {
    switch (info.type()) {
      case OptionType::Bool:
        if (!v.is_boolean()) fail(v.source(), key, expected("a boolean", v));
        return v.as_boolean()->get();
      case OptionType::Int: {
        if (!v.is_integer()) fail(v.source(), key, expected("an integer", v));
        const OptionValue value = v.as_integer()->get();
        if (auto error = option_type_error(info, value)) fail(v.source(), key, *error);
        return value;
      }
      case OptionType::Float:
        if (v.is_integer()) return static_cast<double>(v.as_integer()->get());
        if (!v.is_floating_point()) fail(v.source(), key, expected("a number", v));
        return v.as_floating_point()->get();
      case OptionType::String:
        return string(v, key);
      case OptionType::Strings:
        return strings(v, key);
    }
    fail(v.source(), key, "an option of a type this reader does not know");
  }

  std::map<std::string, RuleOptions, std::less<>> rule_options(const toml::node& v,
                                                               std::string_view key) const {
    if (!v.is_table()) fail(v.source(), key, expected("a table of [rules.<rule-id>] tables", v));
    std::map<std::string, RuleOptions, std::less<>> out;
    for (auto&& [k, opts] : *v.as_table()) {
      std::string id(k.str());
      std::string rule_key = fmt::format("{}.{}", key, quote_key(id));
      const RuleRegistry::Entry* e = registry_.find(id);
      if (e == nullptr) fail(k.source(), rule_key, unknown_rule_reason(registry_, id));
      if (!opts.is_table()) fail(opts.source(), rule_key, expected("a table of options", opts));
      RuleOptions& ro = out[id];
      for (auto&& [ok, ov] : *opts.as_table()) {
        std::string name(ok.str());
        std::string full = fmt::format("{}.{}", rule_key, quote_key(name));
        auto info = std::find_if(e->info->options.begin(), e->info->options.end(),
                                 [&](const OptionInfo& o) { return o.name == name; });
        if (info == e->info->options.end()) {
          fail(ok.source(), full, unknown_option_reason(*e->info));
        }
        ro[name] = option_value(ov, *info, full);
      }
    }
    return out;
  }

  void overrides(const toml::node& v, std::string_view key, Config& c) const {
    if (!v.is_array_of_tables()) {
      fail(v.source(), key, expected("an array of tables ([[overrides]])", v));
    }
    size_t index = 0;
    for (const toml::node& el : *v.as_array()) {
      const std::string at = fmt::format("{}[{}]", key, index++);
      ConfigOverride o;
      bool has_files = false;
      for (auto&& [k, val] : *el.as_table()) {
        const std::string name(k.str());
        const std::string full = at + "." + name;
        if (name == "files") {
          o.files = val.is_string() ? std::vector<std::string>{val.as_string()->get()}
                                    : strings(val, full);
          if (o.files.empty()) fail(val.source(), full, "expected at least one glob");
          for (const std::string& g : o.files) {
            // Matching costs grow with the glob: a bound keeps a hostile config cheap.
            if (g.size() > kMaxGlobBytes ||
                std::count(g.begin(), g.end(), '/') >= static_cast<long>(kMaxGlobParts)) {
              fail(val.source(), full,
                   fmt::format("glob longer than {} bytes or {} path parts", kMaxGlobBytes,
                               kMaxGlobParts));
            }
          }
          has_files = true;
        } else if (name == "select") {
          o.selection.select = selectors(val, full);
        } else if (name == "extend-select") {
          o.selection.extend_select = selectors(val, full);
        } else if (name == "ignore") {
          o.selection.ignore = selectors(val, full);
        } else if (name == "severity") {
          o.severity = severities(val, full);
        } else if (name == "rules") {
          o.rule_options = rule_options(val, full);
        } else {
          Parser sub(file_, prefix_ + at + ".", registry_, resolve_target_);
          sub.unknown_key(k, name, kOverrideKeys);
        }
      }
      if (!has_files) fail(el.source(), at, "missing 'files' (the globs the override applies to)");
      c.overrides.push_back(std::move(o));
    }
  }

  std::string file_;
  std::string prefix_;  // "tool.onnx-lint." in pyproject.toml
  const RuleRegistry& registry_;
  const TargetResolver& resolve_target_;
};

// A config file read and parsed: the TOML document (for pyproject.toml only its
// [tool.onnx-lint] table, with its source positions), or why it is not valid TOML.
struct ParsedFile {
  std::shared_ptr<const toml::table> doc;  // null: invalid TOML, or a pyproject without our table
  bool tool_is_table = false;              // pyproject.toml: [tool.onnx-lint] is a table
  bool mentions_tool = false;              // pyproject.toml: the text names [tool.onnx-lint
  std::optional<toml::source_region> tool_source;  // pyproject.toml: where tool.onnx-lint is
  std::string parse_error;                         // invalid TOML: the ConfigError message
};

// Config files by identity (device, inode, size, modification and change times), parsed once
// per process while they do not change: discovery asks about the same pyproject.toml from
// every model folder below it (a 60 MB one above 50 folders was parsed 51 times), and
// load_config() then needs what discovery parsed. Bounded: a long-lived process (the Python
// module) that sees many files starts over.
class ParsedFiles {
 public:
  static ParsedFiles& instance() {
    static ParsedFiles cache;
    return cache;
  }

  // Throws ConfigError when the file cannot be read.
  std::shared_ptr<const ParsedFile> get(const fs::path& file) {
    struct stat st {};
    const bool keyed = ::stat(file.c_str(), &st) == 0;
    const FileIdentity key = file_identity(st);
    if (keyed) {
      std::lock_guard lock(mutex_);
      if (auto it = files_.find(key); it != files_.end()) return it->second;
    }
    auto parsed = std::make_shared<ParsedFile>(parse(file));
    if (keyed) {
      std::lock_guard lock(mutex_);
      if (files_.size() >= kMaxEntries) files_.clear();
      files_[key] = parsed;
    }
    return parsed;
  }

  uint64_t parses() const { return parses_; }

 private:
  static constexpr size_t kMaxEntries = 256;

  ParsedFile parse(const fs::path& file) {
    ParsedFile out;
    const std::string path = file.string();
    const std::string text = read_small_file(path, "config file");
    ++parses_;
    const bool pyproject = file.filename() == "pyproject.toml";
    try {
      toml::table doc = toml::parse(text, path);
      if (!pyproject) {
        out.doc = std::make_shared<const toml::table>(std::move(doc));
        return out;
      }
      toml::node_view tool = doc["tool"]["onnx-lint"];
      if (tool) out.tool_source = tool.node()->source();
      if (tool.is_table()) {
        out.tool_is_table = true;
        out.doc = std::make_shared<const toml::table>(std::move(*tool.as_table()));
      }
      out.mentions_tool = static_cast<bool>(tool);
    } catch (const toml::parse_error& e) {
      out.parse_error = fmt::format("{}:{}:{}: invalid TOML: {}", path, e.source().begin.line,
                                    e.source().begin.column, e.description());
      // A broken pyproject.toml of another tool is not ours to report, unless we would use it;
      // a quick textual check decides.
      out.mentions_tool = pyproject && text.find("[tool.onnx-lint") != std::string::npos;
    }
    return out;
  }

  std::mutex mutex_;
  std::map<FileIdentity, std::shared_ptr<const ParsedFile>> files_;
  std::atomic<uint64_t> parses_{0};
};

bool has_tool_table(const fs::path& pyproject) {
  try {
    const std::shared_ptr<const ParsedFile> parsed = ParsedFiles::instance().get(pyproject);
    return parsed->parse_error.empty() ? parsed->tool_is_table : parsed->mentions_tool;
  } catch (const ConfigError&) {
    return false;  // not ours to report: we would not use it
  }
}

Config config_from(const toml::table& doc, bool pyproject, const std::string& path,
                   const RuleRegistry& registry, const TargetResolver& resolve_target) {
  Config c;
  c.path = path;
  std::error_code ec;
  c.root = fs::absolute(fs::path(path), ec).lexically_normal().parent_path();
  Parser(c.path, pyproject ? "tool.onnx-lint." : "", registry, resolve_target).top_level(doc, c);
  return c;
}

}  // namespace

std::optional<fs::path> find_config_file(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec).lexically_normal();
  if (ec) return std::nullopt;
  while (true) {
    if (fs::is_regular_file(dir / "onnx-lint.toml", ec)) return dir / "onnx-lint.toml";
    if (fs::is_regular_file(dir / "pyproject.toml", ec) && has_tool_table(dir / "pyproject.toml")) {
      return dir / "pyproject.toml";
    }
    fs::path parent = dir.parent_path();
    if (parent == dir || parent.empty()) return std::nullopt;
    dir = parent;
  }
}

Config parse_config(std::string_view text, const fs::path& file, const RuleRegistry& registry,
                    const TargetResolver& resolve_target) {
  const std::string path = file.string();
  toml::table doc;
  try {
    doc = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}:{}:{}: invalid TOML: {}", path, e.source().begin.line,
                                  e.source().begin.column, e.description()));
  }
  const bool pyproject = file.filename() == "pyproject.toml";
  if (!pyproject) return config_from(doc, false, path, registry, resolve_target);
  toml::node_view tool = doc["tool"]["onnx-lint"];
  if (!tool) throw ConfigError(fmt::format("{}: no [tool.onnx-lint] table", path));
  Parser parser(path, "tool.onnx-lint.", registry, resolve_target);
  if (!tool.is_table()) parser.fail(tool.node()->source(), "", "expected a table");
  return config_from(*tool.as_table(), true, path, registry, resolve_target);
}

Config load_config(const fs::path& file, const RuleRegistry& registry,
                   const TargetResolver& resolve_target) {
  // Parsed once per file (ParsedFiles): discovery has usually read it already.
  const std::shared_ptr<const ParsedFile> parsed = ParsedFiles::instance().get(file);
  const std::string path = file.string();
  if (!parsed->parse_error.empty()) throw ConfigError(parsed->parse_error);
  const bool pyproject = file.filename() == "pyproject.toml";
  if (pyproject && !parsed->tool_is_table) {
    if (!parsed->tool_source) {
      throw ConfigError(fmt::format("{}: no [tool.onnx-lint] table", path));
    }
    Parser(path, "tool.onnx-lint.", registry, resolve_target)
        .fail(*parsed->tool_source, "", "expected a table");
  }
  return config_from(*parsed->doc, pyproject, path, registry, resolve_target);
}

uint64_t config_file_parses() { return ParsedFiles::instance().parses(); }

}  // namespace onnxlint
