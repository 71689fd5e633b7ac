// Configuration: `onnx-lint.toml` or `[tool.onnx-lint]` in `pyproject.toml`, layered with the
// command line into the options a Linter runs with. Documented in docs/configuration.md.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/verdicts.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// One layer of rule selection. Layers apply in order — config file, each matching
/// `[[overrides]]` entry, command line — starting from every rule: `select` (when present)
/// replaces the rules enabled so far, `extend_select` adds rules, `ignore` removes rules.
/// Selectors are rule ids, categories ("shape"), globs ("graph-*") or "ALL".
struct RuleSelection {
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
};

/// Rule ids enabled after applying `layers` in order to the full rule set, sorted.
std::vector<std::string> resolve_selection(const RuleRegistry& registry,
                                           const std::vector<const RuleSelection*>& layers);

/// An `[[overrides]]` entry: settings for the model files matching `files`.
struct ConfigOverride {
  /// Globs relative to Config::root. `*` and `?` stay within one path component, `**` spans
  /// folders; a glob without '/' matches a file or folder name at any level (unless it starts
  /// with "./", which anchors it at the root); a folder glob covers the files below it.
  std::vector<std::string> files;
  RuleSelection selection;
  std::vector<SeverityOverride> severity;                        // applied after the file-wide ones
  std::map<std::string, RuleOptions, std::less<>> rule_options;  // merged over the file-wide
};

/// The contents of a configuration file. Every field is optional.
struct Config {
  std::string path;            // the file read; "" = none (built-in defaults)
  std::filesystem::path root;  // absolute folder of the file; `files` globs are relative to it
  RuleSelection selection;
  std::vector<std::string> targets;    // canonical target ids (see TargetResolver)
  std::optional<std::string> fail_on;  // "error", "warning", "info" or "never"
  /// Most specific pattern last: ALL, categories, globs (fewest literal characters first), ids.
  std::vector<SeverityOverride> severity;
  std::map<std::string, RuleOptions, std::less<>> rule_options;
  std::vector<ConfigOverride> overrides;
  std::optional<std::filesystem::path> baseline;  // absolute (relative paths are from root)
  std::optional<bool> in_model_suppressions;
  /// `require-target`: the verdicts every model must reach (targets canonical; "" = all).
  std::vector<TargetRequirement> require_targets;
};

/// Maps a target id or alias to its canonical id (nullopt = unknown): pass
/// onnxlint::canonical_target (targets.h) to check `targets`, as the CLI does; none = unchecked.
using TargetResolver = std::function<std::optional<std::string>(std::string_view)>;

/// The configuration file for `start` (a folder): the first folder from `start` upward that has
/// `onnx-lint.toml`, or a `pyproject.toml` with a `[tool.onnx-lint]` table (onnx-lint.toml wins
/// in one folder; a pyproject.toml without the table is skipped).
std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& start);

/// Reads and validates a configuration file (a file named `pyproject.toml` is read from its
/// `[tool.onnx-lint]` table). Throws ConfigError "FILE:LINE: KEY: reason" for unreadable TOML,
/// an unknown key, rule id, option or target, or a bad value.
Config load_config(const std::filesystem::path& file, const RuleRegistry& registry,
                   const TargetResolver& resolve_target = {});

/// The same from text; `file` names the source in messages, sets Config::root and decides the
/// pyproject handling. Nothing is read from disk.
Config parse_config(std::string_view text, const std::filesystem::path& file,
                    const RuleRegistry& registry, const TargetResolver& resolve_target = {});

/// Settings given on the command line; they win over the configuration file.
struct CommandLine {
  RuleSelection selection;
  std::vector<std::string> targets;    // canonical ids; non-empty replaces the config's
  std::optional<std::string> fail_on;  // as in Config
  std::optional<std::filesystem::path> baseline;
  bool no_baseline = false;  // ignore the config's baseline
  /// `--require-target`: non-empty replaces the config's `require-target`.
  std::vector<TargetRequirement> require_targets;
  int jobs = 1;
  bool hash = false;     // LintOptions::hash (`--hash`)
  bool timings = false;  // LintOptions::timings (`--timings`)
};

struct PerFileConfigs;

/// What a run uses: the layered result of defaults, config file and command line.
struct Settings {
  /// Base options (select holds the explicit rule ids); `per_file` is set when the config has
  /// overrides, so that each model gets its own layered options.
  LintOptions lint;
  std::string fail_on = "error";
  std::optional<Severity> fail_threshold = Severity::Error;  // nullopt = never
  /// Verdicts every model must reach (per run, like fail-on): decide_verdicts() (verdicts.h).
  std::vector<TargetRequirement> require_targets;
  std::optional<std::filesystem::path> baseline;
  /// The configuration file of the run ("" = none): `--config`, or the one found from the
  /// working directory. Its fail-on and baseline are the run's.
  std::string config_file;
  /// Set by resolve_settings_per_file(): the configuration of each model (config_file_for()).
  std::shared_ptr<const PerFileConfigs> per_file_configs;
};

/// Layers `config` and `command_line`. Throws ConfigError for a bad `fail_on`.
Settings resolve_settings(const RuleRegistry& registry, const Config& config,
                          const CommandLine& command_line);

/// Per-file configuration discovery (as ruff and ESLint do): each model uses the configuration
/// file nearest above it (find_config_file() from the model's folder); a model with none above
/// it uses `run_config` (the one found from the working directory, or none). Per file: rule
/// selection, severities, rule options, `[[overrides]]` (globs relative to their own file's
/// folder), targets and in-model-suppressions. Per run, from `run_config` and the command line
/// only: fail-on and baseline. The command line wins over every file. The configuration of each
/// of `model_paths` (paths as given to the Linter; a stdin model by its --stdin-filename) is
/// found and loaded now, so that a bad file is a ConfigError before any model is linted.
Settings resolve_settings_per_file(const RuleRegistry& registry, const Config& run_config,
                                   const CommandLine& command_line,
                                   const std::vector<std::string>& model_paths,
                                   const TargetResolver& resolve_target = {});

/// The configuration that applies to the model at `path` (for resolve_settings_per_file()
/// settings: the one found for it; otherwise the run's).
const Config& config_for(const Settings& settings, const Config& run_config, std::string_view path);

/// The configuration file that applies to the model at `path` ("" = built-in defaults).
std::string config_file_for(const Settings& settings, std::string_view path);

/// The options that apply to the model at `path` (base options with matching overrides).
LintOptions options_for_file(const Settings& settings, std::string_view path);

/// Indexes of the `[[overrides]]` entries whose globs match `path` (made relative to `root`).
std::vector<size_t> matching_overrides(const Config& config, std::string_view path);

/// Glob match of a '/'-separated relative path (see ConfigOverride::files).
bool path_glob_match(std::string_view glob, std::string_view path);

/// The effective configuration as TOML that `--config` accepts (for `--show-config`): source,
/// enabled rules, severities, every enabled rule's options, targets, fail-on, baseline and the
/// overrides. With `path`, the options are those that apply to that model.
std::string show_config(const RuleRegistry& registry, const Config& config,
                        const Settings& settings, std::optional<std::string_view> path = {});

}  // namespace onnxlint
