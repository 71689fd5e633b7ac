// run_lint (include/onnxlint/run.h): the run the CLI and the Python module share.
#include <fmt/format.h>
#include <onnxlint/baseline.h>
#include <onnxlint/escape.h>
#include <onnxlint/fix.h>
#include <onnxlint/isolation.h>
#include <onnxlint/run.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>

#include <algorithm>

namespace onnxlint {

namespace {

namespace fs = std::filesystem;

// Throws when `target` (a baseline to write) is one of the models to read: writing it would
// destroy the model (nothing given to onnx-lint is modified).
void refuse_to_overwrite_input(const fs::path& target, const char* option,
                               const std::vector<std::string>& files) {
  std::error_code ec;
  if (target.empty() || !fs::exists(target, ec)) return;
  for (const std::string& f : files) {
    if (f != "-" && fs::equivalent(target, f, ec)) {
      throw ConfigError(
          fmt::format("{} {}: that file is one of the models to check; refusing to overwrite it",
                      option, target.string()));
    }
  }
}

}  // namespace

Config run_config(const RuleRegistry& registry, const RunRequest& request) {
  if (request.config_file) return load_config(*request.config_file, registry, canonical_target);
  if (!request.no_config) {
    if (auto found = find_config_file(request.working_dir)) {
      return load_config(*found, registry, canonical_target);
    }
  }
  return Config{};
}

Settings run_settings(const RuleRegistry& registry, const RunRequest& request,
                      const Config& run_config, const std::vector<std::string>& models) {
  // Without --config each model also finds its own configuration, the nearest above it
  // (docs/configuration.md, "Where the configuration comes from").
  if (!request.config_file && !request.no_config) {
    return resolve_settings_per_file(registry, run_config, request.command_line, models,
                                     canonical_target);
  }
  return resolve_settings(registry, run_config, request.command_line);
}

RunResult run_lint(const RuleRegistry& registry, const RunRequest& request) {
  RunResult result;
  result.run_config = run_config(registry, request);
  const Config& config = result.run_config;
  const bool has_stdin = std::count(request.paths.begin(), request.paths.end(), "-") > 0;
  if (!request.stdin_name.empty() && !has_stdin) {
    throw ConfigError("--stdin-filename names the model read from stdin: give '-' too");
  }
  if (std::count(request.paths.begin(), request.paths.end(), "-") > 1) {
    throw ConfigError("'-' (stdin) given more than once");
  }
  // Folders expanded once, here: the inputs must be known before any file is written. A path
  // that yields no model is an entry of the report (and exit 2), not the end of the run.
  const std::vector<InputPath> inputs = expand_inputs(request.paths);
  std::vector<std::string> files, models;
  for (const InputPath& in : inputs) {
    if (!in.error.empty()) continue;
    files.push_back(in.path);
    models.push_back(in.path == "-" && !request.stdin_name.empty() ? request.stdin_name : in.path);
  }
  result.settings = run_settings(registry, request, config, models);
  const Settings& settings = result.settings;
  if (request.output_file) refuse_to_overwrite_input(*request.output_file, "--output", files);
  if (request.write_baseline) {
    refuse_to_overwrite_input(*request.write_baseline, "--write-baseline", files);
  }
  if (request.fix) {
    if (has_stdin)
      throw ConfigError("--fix writes a file beside the model: give a file, not stdin");
    if (!request.fix->output.empty()) {
      if (files.size() != 1) {
        throw ConfigError(
            "--fix-output names the file of one model: give one model, or leave it "
            "out to write each beside its input as <stem>.fixed.onnx");
      }
      refuse_to_overwrite_input(request.fix->output, "--fix-output", files);
    }
    if (request.write_baseline) throw ConfigError("--fix and --write-baseline: choose one");
  }

  // Isolation by default when several files are linted: one file's crash must not take the
  // others' reports with it (docs/security.md, "Crash isolation").
  LintOptions options = settings.lint;
  const bool several =
      files.size() > 1 || std::any_of(request.paths.begin(), request.paths.end(), [](auto& p) {
        std::error_code ec;
        return fs::is_directory(p, ec);
      });
  options.isolate = request.isolate.value_or(several);
  options.file_time_limit = request.file_time_limit;
  result.linter = std::make_shared<const Linter>(registry, std::move(options));
  const Linter& linter = *result.linter;

  Report& report = result.report;
  if (request.stdin_name.empty() || !has_stdin) {
    report = linter.lint_inputs(inputs, request.progress);
  } else {
    // The `-` input read from stdin under its name: that name is its path in the report, for
    // its configuration and for its external data (its folder).
    std::vector<InputPath> named = inputs;
    auto at = std::find_if(named.begin(), named.end(),
                           [](const InputPath& in) { return in.path == "-"; });
    const auto index = static_cast<size_t>(at - named.begin());
    if (at != named.end()) at->error = "(read below)";  // lint_inputs skips it
    report = linter.lint_inputs(named, request.progress);
    if (index < report.files.size()) {
      const std::string bytes = request.read_stdin ? request.read_stdin() : std::string();
      report.files[index] = linter.options().isolate
                                ? lint_bytes_isolated(linter, request.stdin_name, bytes)
                                : linter.lint_bytes(request.stdin_name, bytes);
    }
  }
  if (request.fix) {
    // Each model linted is fixed in this process (a rule's fix edits name the model view they
    // were found on), then reported as the model written.
    for (FileReport& f : report.files) {
      if (f.status != FileReport::Status::Ok) continue;
      // A model whose lint failed (a rule threw, or its worker crashed or timed out) is not
      // linted again in this process, where a crash would end the run.
      const bool failed =
          std::any_of(f.diagnostics.begin(), f.diagnostics.end(),
                      [](const Diagnostic& d) { return d.rule_id == kInternalError; });
      if (failed) {
        FixSummary& s = f.fixing.emplace();
        s.input = f.path;
        s.dry_run = request.fix->dry_run;
        s.not_fixable = "its lint failed (internal-error), so it is not fixed";
        continue;
      }
      f = fix_model(linter, f.path, *request.fix);
    }
  }
  for (FileReport& f : report.files) {
    f.config_file = config_file_for(settings, f.fixing ? f.fixing->input : f.path);
  }

  if (request.write_baseline) {
    Baseline written(baseline_root(*request.write_baseline));
    written.add(report);
    written.save(*request.write_baseline);
    written.apply(report);
    result.notices.push_back(fmt::format(
        "onnx-lint: wrote {} finding{} to {}", written.entries().size(),
        written.entries().size() == 1 ? "" : "s", visible(request.write_baseline->string())));
  } else if (settings.baseline) {
    // Moved models, stale and fixed entries: notices, so that the report stays valid.
    const BaselineOutcome outcome = Baseline::load(*settings.baseline).apply(report);
    std::string notice = outcome.notice(settings.baseline->string());
    while (!notice.empty() && notice.back() == '\n') notice.pop_back();
    if (!notice.empty()) result.notices.push_back(std::move(notice));
  }

  // Failing is decided on every finding; --min-severity only changes what is shown, later.
  report.run.targets = settings.lint.targets;
  report.run.tables = table_versions(settings.lint.targets);
  report.run.config_file = config.path;
  if (settings.baseline && !request.write_baseline) {
    report.run.baseline_file = settings.baseline->string();
  }
  result.exit_code = decide_verdicts(report, settings.fail_threshold, settings.require_targets);
  return result;
}

}  // namespace onnxlint
