// One lint run, as the onnx-lint command does it: the configuration of each model found and
// layered with the command line, the models linted (in worker processes when several), the
// baseline applied or written, the run's header filled and the verdicts decided. The CLI, the
// Python module and C++ tools all call run_lint(), so `onnxlint.lint(path)` and
// `onnx-lint path` give the same findings and verdicts.
#pragma once

#include <onnxlint/config.h>
#include <onnxlint/export.h>
#include <onnxlint/fix.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// What a run is asked to do: the command line's meaning, without its syntax.
struct RunRequest {
  /// Model files, folders (searched for *.onnx) and "-" (standard input, read with
  /// `read_stdin`).
  std::vector<std::string> paths;
  /// Settings that override every configuration file (selection, targets, fail-on, baseline,
  /// require-target, jobs, hash).
  CommandLine command_line;
  /// `--config`: one file for every model. nullopt: each model's nearest configuration file,
  /// and the run's own from `working_dir` (fail-on, baseline).
  std::optional<std::filesystem::path> config_file;
  bool no_config = false;  ///< `--no-config`: built-in defaults and the command line only
  std::filesystem::path working_dir = std::filesystem::current_path();
  /// `--stdin-filename`: the name a "-" model has in reports, for its configuration and its
  /// external data ("" = "-").
  std::string stdin_name;
  std::function<std::string()> read_stdin;
  /// Worker processes: true, false, or nullopt for "when several files or a folder are given".
  std::optional<bool> isolate;
  std::chrono::milliseconds file_time_limit = kDefaultFileTimeLimit;
  /// `--write-baseline`: record the findings there (they are then accepted in this report).
  std::optional<std::filesystem::path> write_baseline;
  /// `--output`: the report file the caller will write; refused (ConfigError) when it is one of
  /// the models, as the baseline to write is.
  std::optional<std::filesystem::path> output_file;
  std::function<void(size_t done, size_t total)> progress;
  /// `--fix` (docs/fixes.md): each model is fixed after its lint (fix_model(), in this
  /// process) and its report becomes the fixed model's. Not with stdin; `output` only with one
  /// model.
  std::optional<FixOptions> fix;
};

struct RunResult {
  Report report;
  /// The linter of the run: the emitters need it (rule metadata, options).
  std::shared_ptr<const Linter> linter;
  Settings settings;
  Config run_config;  ///< the run's own configuration (`--config`, or the one found)
  int exit_code = 0;  ///< as the command exits (docs/cli.md)
  /// Lines for standard error, each complete: a baseline written, baseline entries that matched
  /// nothing or whose models are gone.
  std::vector<std::string> notices;
};

/// The run's own configuration: `config_file`, else the one found from `working_dir` (none with
/// `no_config`). Its fail-on, baseline and require-target are the run's.
Config run_config(const RuleRegistry& registry, const RunRequest& request);

/// The settings for `models` (paths as reports name them): without `config_file` or
/// `no_config`, each model also finds its own configuration file, the nearest above it.
Settings run_settings(const RuleRegistry& registry, const RunRequest& request,
                      const Config& run_config, const std::vector<std::string>& models);

/// Runs the lint. Throws ConfigError for a bad configuration or request (before any model is
/// linted), never for a bad model: that is a finding in the report.
RunResult run_lint(const RuleRegistry& registry, const RunRequest& request);

}  // namespace onnxlint
