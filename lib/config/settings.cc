// Layering: built-in defaults < config file < matching [[overrides]] < command line. The result
// is plain LintOptions with the enabled rules listed explicitly, so the Linter needs to know
// nothing about layers; per-file overrides reach it through a FileOptionsResolver.
#include <fmt/format.h>
#include <onnxlint/config.h>
#include <onnxlint/diagnostic.h>
#include <onnxlint/escape.h>

#include <algorithm>
#include <set>
#include <span>

#include "config/text_util.h"

namespace onnxlint {

namespace fs = std::filesystem;

std::vector<std::string> resolve_selection(const RuleRegistry& registry,
                                           const std::vector<const RuleSelection*>& layers) {
  std::set<std::string> enabled;
  for (const RuleRegistry::Entry& e : registry.entries()) enabled.insert(e.info->id);
  auto matching = [&](const std::vector<std::string>& selectors) {
    std::vector<std::string> ids;
    for (const RuleRegistry::Entry& e : registry.entries()) {
      if (std::any_of(selectors.begin(), selectors.end(),
                      [&](const std::string& s) { return selector_matches(s, *e.info); })) {
        ids.push_back(e.info->id);
      }
    }
    return ids;
  };
  // A selector that matches nothing is a typo: refuse it, naming it (exit 2).
  auto check = [&](const std::vector<std::string>& selectors, const char* what) {
    for (const std::string& s : selectors) {
      if (matching({s}).empty()) {
        std::optional<std::string> close = closest_rule_name(registry, s);
        throw ConfigError(fmt::format(
            "{}: '{}' matches no rule id, category or glob ({})", what, s,
            close ? fmt::format("did you mean '{}'?", *close) : std::string("see --list-rules")));
      }
    }
  };
  for (const RuleSelection* layer : layers) {
    if (layer->select) check(*layer->select, "select");
    check(layer->extend_select, "extend-select");
    check(layer->ignore, "ignore");
  }
  for (const RuleSelection* layer : layers) {
    if (layer->select) {
      std::vector<std::string> ids = matching(*layer->select);
      enabled = {ids.begin(), ids.end()};
    }
    for (std::string& id : matching(layer->extend_select)) enabled.insert(std::move(id));
    for (const std::string& id : matching(layer->ignore)) enabled.erase(id);
  }
  return {enabled.begin(), enabled.end()};
}

namespace {

std::vector<std::string_view> split_path(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t slash = s.find('/', start);
    std::string_view part = s.substr(start, slash == s.npos ? s.npos : slash - start);
    if (!part.empty() && part != ".") out.push_back(part);
    if (slash == s.npos) break;
    start = slash + 1;
  }
  return out;
}

// `**` matches any run of path parts, every other glob part exactly one path part. Iterative
// with backtracking to the last `**` (like glob_match over characters): O(glob parts x path
// parts) part matches and no recursion, whatever the config holds (the config is found in the
// repository, so it may be hostile).
bool match_parts(std::span<const std::string_view> glob, std::span<const std::string_view> path) {
  size_t g = 0, p = 0, star = std::string_view::npos, mark = 0;
  while (p < path.size()) {
    if (g < glob.size() && glob[g] == "**") {
      star = g++;
      mark = p;
    } else if (g < glob.size() && glob_match(glob[g], path[p])) {
      ++g;
      ++p;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      p = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == "**") ++g;
  return g == glob.size();
}

// The path of a model relative to the config root, '/'-separated ("" for stdin).
std::string relative_to(const fs::path& root, std::string_view path) {
  if (is_in_memory_path(path)) return "";
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(path), ec).lexically_normal();
  if (ec) return std::string(path);
  fs::path rel = abs.lexically_relative(root);
  return (rel.empty() ? abs : rel).generic_string();
}

void merge_options(std::map<std::string, RuleOptions, std::less<>>& into,
                   const std::map<std::string, RuleOptions, std::less<>>& from) {
  for (const auto& [id, opts] : from) {
    for (const auto& [name, value] : opts) into[id][name] = value;
  }
}

}  // namespace

// Everything a per-file resolver needs, copied so that it outlives the caller's Config.
struct Layers {
  const RuleRegistry* registry;
  Config config;
  RuleSelection command_line;
  LintOptions common;  // targets, jobs, in-model suppressions, hash

  LintOptions build(const std::vector<size_t>& overrides) const {
    LintOptions o = common;
    std::vector<const RuleSelection*> layers{&config.selection};
    o.severity = config.severity;
    o.rule_options = config.rule_options;
    for (size_t i : overrides) {
      const ConfigOverride& ov = config.overrides[i];
      layers.push_back(&ov.selection);
      o.severity.insert(o.severity.end(), ov.severity.begin(), ov.severity.end());
      merge_options(o.rule_options, ov.rule_options);
    }
    layers.push_back(&command_line);
    o.select = resolve_selection(*registry, layers);
    // An empty LintOptions::select means "every rule"; nothing selected needs an ignore.
    if (o.select.empty()) o.ignore = {"ALL"};
    return o;
  }
};

namespace {

class OverrideResolver final : public FileOptionsResolver {
 public:
  explicit OverrideResolver(std::shared_ptr<const Layers> layers) : layers_(std::move(layers)) {}

  std::string key(std::string_view path) const override {
    std::vector<size_t> idx = matching_overrides(layers_->config, path);
    return idx.empty() ? "" : fmt::format("{}", fmt::join(idx, ","));
  }

  LintOptions options(std::string_view key) const override {
    return layers_->build(parse_indexes(key));
  }

  // "0,2" -> {0, 2}; "" -> {}.
  static std::vector<size_t> parse_indexes(std::string_view key) {
    std::vector<size_t> idx;
    if (key.empty()) return idx;
    size_t value = 0;
    for (char c : key) {
      if (c == ',') {
        idx.push_back(value);
        value = 0;
      } else {
        value = value * 10 + static_cast<size_t>(c - '0');
      }
    }
    idx.push_back(value);
    return idx;
  }

 private:
  std::shared_ptr<const Layers> layers_;
};

}  // namespace

// The configuration of each model of a run (resolve_settings_per_file()).
struct PerFileConfigs {
  Config run;                                                   // the run's ("" path = none)
  std::map<std::string, std::shared_ptr<const Layers>> layers;  // by Config::path, run's too
  std::map<std::string, std::string> folder_config;             // absolute folder -> Config::path

  const std::string& config_path(std::string_view model) const {
    if (is_in_memory_path(model)) return run.path;
    std::error_code ec;
    fs::path abs = fs::absolute(fs::path(model), ec).lexically_normal();
    if (ec) return run.path;
    auto it = folder_config.find(abs.parent_path().string());
    return it == folder_config.end() ? run.path : it->second;
  }
};

namespace {

// Options per (configuration file, matching [[overrides]] of that file). The key is
// "CONFIG\nINDEXES"; "" for the run's own configuration without overrides (the base options).
class DiscoveryResolver final : public FileOptionsResolver {
 public:
  explicit DiscoveryResolver(std::shared_ptr<const PerFileConfigs> configs)
      : configs_(std::move(configs)) {}

  std::string key(std::string_view path) const override {
    const std::string& file = configs_->config_path(path);
    const std::vector<size_t> idx = matching_overrides(configs_->layers.at(file)->config, path);
    if (file == configs_->run.path && idx.empty()) return "";
    return fmt::format("{}\n{}", file, fmt::join(idx, ","));
  }

  LintOptions options(std::string_view key) const override {
    const size_t nl = key.rfind('\n');
    const std::string file(key.substr(0, nl));
    return configs_->layers.at(file)->build(OverrideResolver::parse_indexes(key.substr(nl + 1)));
  }

 private:
  std::shared_ptr<const PerFileConfigs> configs_;
};

}  // namespace

bool path_glob_match(std::string_view glob, std::string_view path) {
  bool anchored = false;
  while (glob.starts_with("./")) {
    glob.remove_prefix(2);
    anchored = true;
  }
  std::vector<std::string_view> p = split_path(path);
  if (!anchored && glob.find('/') == std::string_view::npos) {
    // Like .gitignore: a bare name matches a file or folder name at any level.
    return std::any_of(p.begin(), p.end(),
                       [&](std::string_view part) { return glob_match(glob, part); });
  }
  std::vector<std::string_view> g = split_path(glob);
  if (match_parts(g, p)) return true;
  // A folder pattern ("exports/legacy", "exports/legacy/") covers the files below it.
  g.push_back("**");
  return match_parts(g, p);
}

std::vector<size_t> matching_overrides(const Config& config, std::string_view path) {
  std::vector<size_t> out;
  if (config.overrides.empty() || is_in_memory_path(path)) return out;
  const std::string rel = relative_to(config.root, path);
  for (size_t i = 0; i < config.overrides.size(); ++i) {
    const auto& files = config.overrides[i].files;
    if (std::any_of(files.begin(), files.end(),
                    [&](const std::string& g) { return path_glob_match(g, rel); })) {
      out.push_back(i);
    }
  }
  return out;
}

namespace {

std::shared_ptr<Layers> make_layers(const RuleRegistry& registry, const Config& config,
                                    const CommandLine& command_line) {
  auto layers = std::make_shared<Layers>();
  layers->registry = &registry;
  layers->config = config;
  layers->command_line = command_line.selection;
  layers->common.targets = command_line.targets.empty() ? config.targets : command_line.targets;
  layers->common.jobs = std::max(1, command_line.jobs);
  layers->common.in_model_suppressions = config.in_model_suppressions.value_or(true);
  layers->common.hash = command_line.hash;
  layers->common.timings = command_line.timings;
  return layers;
}

// Fails now, not in the middle of a run, if an override cannot form valid options.
void check_overrides(const RuleRegistry& registry, const Layers& layers) {
  for (size_t i = 0; i < layers.config.overrides.size(); ++i) {
    (void)Linter(registry, layers.build({i}));
  }
}

}  // namespace

Settings resolve_settings(const RuleRegistry& registry, const Config& config,
                          const CommandLine& command_line) {
  Settings s;
  s.config_file = config.path;
  s.fail_on = command_line.fail_on.value_or(config.fail_on.value_or("error"));
  if (s.fail_on == "never") {
    s.fail_threshold = std::nullopt;
  } else if (auto sev = parse_severity(s.fail_on)) {
    s.fail_threshold = *sev;
  } else {
    throw ConfigError(
        fmt::format("fail-on: '{}' is not one of error, warning, info, never", s.fail_on));
  }
  s.require_targets =
      command_line.require_targets.empty() ? config.require_targets : command_line.require_targets;
  if (command_line.baseline) {
    s.baseline = command_line.baseline;
  } else if (!command_line.no_baseline) {
    s.baseline = config.baseline;
  }

  std::shared_ptr<Layers> layers = make_layers(registry, config, command_line);
  s.lint = layers->build({});
  if (!config.overrides.empty()) {
    check_overrides(registry, *layers);
    s.lint.per_file = std::make_shared<OverrideResolver>(layers);
  }
  return s;
}

Settings resolve_settings_per_file(const RuleRegistry& registry, const Config& run_config,
                                   const CommandLine& command_line,
                                   const std::vector<std::string>& model_paths,
                                   const TargetResolver& resolve_target) {
  Settings s = resolve_settings(registry, run_config, command_line);
  auto configs = std::make_shared<PerFileConfigs>();
  configs->run = run_config;
  configs->layers[run_config.path] = make_layers(registry, run_config, command_line);
  for (const std::string& model : model_paths) {
    if (is_in_memory_path(model)) continue;
    std::error_code ec;
    fs::path folder = fs::absolute(fs::path(model), ec).lexically_normal().parent_path();
    if (ec || configs->folder_config.contains(folder.string())) continue;
    std::optional<fs::path> found = find_config_file(folder);
    const std::string file = found ? found->string() : run_config.path;
    configs->folder_config[folder.string()] = file;
    if (configs->layers.contains(file)) continue;
    std::shared_ptr<Layers> layers =
        make_layers(registry, load_config(*found, registry, resolve_target), command_line);
    (void)Linter(registry, layers->build({}));
    check_overrides(registry, *layers);
    configs->layers[file] = std::move(layers);
  }
  s.per_file_configs = configs;
  s.lint.per_file = std::make_shared<DiscoveryResolver>(configs);
  return s;
}

const Config& config_for(const Settings& settings, const Config& run_config,
                         std::string_view path) {
  if (!settings.per_file_configs) return run_config;
  const PerFileConfigs& c = *settings.per_file_configs;
  return c.layers.at(c.config_path(path))->config;
}

std::string config_file_for(const Settings& settings, std::string_view path) {
  if (!settings.per_file_configs) return settings.config_file;
  return settings.per_file_configs->config_path(path);
}

LintOptions options_for_file(const Settings& settings, std::string_view path) {
  LintOptions base = settings.lint;
  if (!base.per_file) return base;
  std::string key = base.per_file->key(path);
  if (key.empty()) return base;
  LintOptions o = base.per_file->options(key);
  o.per_file = nullptr;
  return o;
}

namespace {

std::string toml_value(const OptionValue& v) { return option_value_text(v); }

std::string toml_list(const std::vector<std::string>& items, bool multiline) {
  if (items.empty()) return "[]";
  std::vector<std::string> quoted;
  for (const std::string& s : items) quoted.push_back(toml_string(s));
  if (!multiline) return fmt::format("[{}]", fmt::join(quoted, ", "));
  return fmt::format("[\n  {},\n]", fmt::join(quoted, ",\n  "));
}

void show_selection(std::string& out, const RuleSelection& sel) {
  if (sel.select) out += fmt::format("select = {}\n", toml_list(*sel.select, false));
  if (!sel.extend_select.empty()) {
    out += fmt::format("extend-select = {}\n", toml_list(sel.extend_select, false));
  }
  if (!sel.ignore.empty()) out += fmt::format("ignore = {}\n", toml_list(sel.ignore, false));
}

}  // namespace

std::string show_config(const RuleRegistry& registry, const Config& config,
                        const Settings& settings, std::optional<std::string_view> path) {
  LintOptions o = path ? options_for_file(settings, *path) : settings.lint;
  o.per_file = nullptr;
  Linter linter(registry, o);
  std::string out = "# onnx-lint effective configuration (valid input for --config)\n";
  // Paths are folder and file names from the repository: a line break in one would start a
  // TOML line of its own choosing, an escape sequence would reach the terminal.
  out += fmt::format("# config file: {}\n",
                     config.path.empty() ? "none (built-in defaults)" : visible(config.path));
  if (path) {
    std::vector<size_t> idx = matching_overrides(config, *path);
    out += fmt::format("# for model: {} ({})\n", visible(*path),
                       idx.empty() ? std::string("no [[overrides]] apply")
                                   : fmt::format("[[overrides]] {} applied", fmt::join(idx, ", ")));
  }
  std::vector<std::string> enabled = linter.enabled_rules();
  out += fmt::format("# {} of {} rules enabled\n", enabled.size(), registry.entries().size());
  out += fmt::format("select = {}\n", toml_list(enabled, true));
  out += fmt::format("fail-on = {}\n", toml_string(settings.fail_on));
  out += fmt::format("targets = {}\n", toml_list(o.targets, false));
  if (!settings.require_targets.empty()) {
    std::vector<std::string> required;
    for (const TargetRequirement& r : settings.require_targets) {
      required.push_back(requirement_text(r));
    }
    out += fmt::format("require-target = {}\n", toml_list(required, false));
  }
  out += fmt::format("in-model-suppressions = {}\n", o.in_model_suppressions ? "true" : "false");
  if (settings.baseline) {
    out += fmt::format("baseline = {}\n", toml_string(settings.baseline->generic_string()));
  } else {
    out += "# baseline: none\n";
  }

  out += "\n[severity]\n";
  for (const std::string& id : enabled) {
    const RuleInfo& info = *registry.find(id)->info;
    Severity s = linter.severity_of(info);
    out += fmt::format("{} = {}{}\n", quote_key(id), toml_string(severity_name(s)),
                       s == info.severity ? "" : "  # changed from the default");
  }

  for (const std::string& id : enabled) {
    const RuleInfo& info = *registry.find(id)->info;
    if (info.options.empty()) continue;
    out += fmt::format("\n[rules.{}]\n", quote_key(id));
    auto configured = o.rule_options.find(id);
    for (const OptionInfo& opt : info.options) {
      const OptionValue* value = nullptr;
      if (configured != o.rule_options.end()) {
        auto it = configured->second.find(opt.name);
        if (it != configured->second.end()) value = &it->second;
      }
      if (value != nullptr) {
        out += fmt::format("{} = {}\n", quote_key(opt.name), toml_value(*value));
      } else {
        out += fmt::format("# {} = {}  (default)\n", quote_key(opt.name),
                           option_value_text(opt.default_value));
      }
    }
  }

  if (!path) {
    for (const ConfigOverride& ov : config.overrides) {
      out += "\n[[overrides]]\n";
      out += fmt::format("files = {}\n", toml_list(ov.files, false));
      show_selection(out, ov.selection);
      if (!ov.severity.empty()) {
        out += "severity = { ";
        std::vector<std::string> items;
        for (const SeverityOverride& s : ov.severity) {
          items.push_back(
              fmt::format("{} = {}", quote_key(s.pattern), toml_string(severity_name(s.severity))));
        }
        out += fmt::format("{} }}\n", fmt::join(items, ", "));
      }
      for (const auto& [id, opts] : ov.rule_options) {
        std::vector<std::string> items;
        for (const auto& [name, value] : opts) {
          items.push_back(fmt::format("{} = {}", quote_key(name), toml_value(value)));
        }
        out += fmt::format("rules.{} = {{ {} }}\n", quote_key(id), fmt::join(items, ", "));
      }
    }
  }
  return out;
}

}  // namespace onnxlint
