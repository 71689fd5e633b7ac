// The onnx-lint command: argument parsing and exit codes only; everything else is the library.
// Shared by the onnx-lint executable (main.cc) and `python3 -m onnxlint`.
#include "cli.h"

#include <fmt/format.h>
#include <onnxlint/baseline.h>
#include <onnxlint/config.h>
#include <onnxlint/escape.h>
#include <onnxlint/isolation.h>
#include <onnxlint/onnxlint.h>
#include <onnxlint/run.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>
#include <onnxlint/version.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <system_error>

#include "completions.h"
#include "external_list.h"
#include "info.h"

namespace {

constexpr int kExitUsage = 2;

std::vector<std::string> split_commas(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    size_t start = 0;
    while (start <= v.size()) {
      size_t comma = v.find(',', start);
      std::string item =
          v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!item.empty()) out.push_back(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

// "files done / total" on stderr, redrawn in place. Only for a terminal (a log or a pipe would
// collect every redraw) and only for runs long enough to wait on.
class Progress {
 public:
  static constexpr size_t kMinFiles = 6;  // more than a handful

  explicit Progress(bool enabled) : enabled_(enabled) {}

  void operator()(size_t done, size_t total) {
    if (!enabled_ || total < kMinFiles) return;
    auto now = std::chrono::steady_clock::now();
    if (shown_ && done != total && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "\r\x1b[Konnx-lint: %zu/%zu files", done, total);
    std::fflush(stderr);
  }

  // Erases the line so that the report starts on a clean terminal line.
  void finish() {
    if (!shown_) return;
    std::fputs("\r\x1b[K", stderr);
    std::fflush(stderr);
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

// Flushes `out` and says whether everything written to it arrived; if not, prints why on
// stderr: "cannot write " + `what` ("to standard output", "the report to 'r.json'"). Callers
// clear errno before they write, so that errno is the failed write's (a full disk, a closed
// descriptor): a stream that failed writes nothing more.
bool all_written(std::ostream& out, std::string_view what) {
  out.flush();
  if (!out.fail()) return true;
  const int err = errno;
  std::cerr << fmt::format("onnx-lint: cannot write {}{}\n", what,
                           err != 0 ? ": " + std::generic_category().message(err) : "");
  return false;
}

// The information flags print text, or JSON with --format json; SARIF only for --list-rules.
bool format_allowed(const std::string& format, std::string_view flag, bool sarif = false) {
  if (format == "json" || (sarif && format == "sarif")) return true;
  if (format == "text" || format == "concise" || format == "summary") return true;  // as text
  std::cerr << fmt::format("onnx-lint: {} prints text or JSON{}, not --format {}\n", flag,
                           sarif ? " or SARIF" : "", format);
  return false;
}

// `--generate KIND`: completions or the man page from `app`'s option definitions.
void print_generated(const std::string& kind, CLI::App& app, std::ostream& out) {
  onnxlint::CompletionValues values;
  std::set<std::string> categories;
  for (const auto& e : onnxlint::builtin_registry().entries()) {
    values.rules.emplace_back(e.info->id);
    categories.emplace(e.info->category);
  }
  values.selectors = values.rules;
  values.selectors.insert(values.selectors.end(), categories.begin(), categories.end());
  values.selectors.emplace_back("ALL");
  for (const onnxlint::TargetInfo& t : onnxlint::all_targets()) values.targets.emplace_back(t.id);
  values.version = ONNXLINT_VERSION;
  onnxlint::generate(kind, app, values, out);
}

// Reads all of standard input (the model of `-` with --stdin-filename).
std::string read_stdin() {
  std::string data;
  char buf[1 << 16];
  while (true) {
    ssize_t got = ::read(STDIN_FILENO, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      throw std::runtime_error(
          fmt::format("cannot read stdin: {}", std::generic_category().message(errno)));
    }
    if (got == 0) return data;
    data.append(buf, static_cast<size_t>(got));
  }
}

}  // namespace

namespace {

int run_command(int argc, char** argv) {
  using namespace onnxlint;
  CLI::App app{"onnx-lint: static checks for ONNX models before you deploy them", "onnx-lint"};
  bool version = false;
  app.add_flag("--version", version,
               "Print the version, with the ONNX and target table versions (text or JSON)");

  std::vector<std::string> paths;
  std::string format = "text";
  std::string output;
  std::vector<std::string> targets, select, extend_select, ignore, require_target;
  std::string fail_on = "error";
  std::string min_severity = "info";
  std::string color = "auto";
  std::string explain;
  std::string config_file, baseline_file, write_baseline_file, stdin_filename;
  bool list_rules = false, list_targets_flag = false, statistics = false, quiet = false;
  bool show_config = false, no_config = false, no_baseline = false, show_infos = false;
  bool hash = false, timings = false, list_external = false, isolate = false, no_isolate = false;
  int jobs = 1;
  double file_timeout = static_cast<double>(kDefaultFileTimeLimit.count());

  app.add_option("paths", paths, "Model files, folders (searched for *.onnx), or - for stdin");
  app.add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "concise", "summary", "json", "sarif", "github", "gitlab",
                             "junit", "markdown", "model-explorer"}));
  // Type names FILE, TARGET, RULE and SELECTOR also say what completes the value (completions.cc).
  app.add_option("-o,--output", output, "Write the report to FILE instead of stdout")
      ->type_name("FILE");
  app.add_option("--target", targets, "Check support on a target runtime (repeatable)")
      ->allow_extra_args(false)
      ->type_name("TARGET");
  app.add_option("--require-target", require_target,
                 "Fail the run unless every model reaches this verdict: full (every node runs "
                 "on the target) or partial, for every target, or TARGET=LEVEL (repeatable)")
      ->allow_extra_args(false)
      ->type_name("[TARGET=]LEVEL");
  app.add_option("--select", select,
                 "Rules to enable: ids, categories, globs, ALL (comma-separated)")
      ->allow_extra_args(false)
      ->type_name("SELECTOR");
  app.add_option("--extend-select", extend_select, "Rules to enable in addition to the selection")
      ->allow_extra_args(false)
      ->type_name("SELECTOR");
  app.add_option("--ignore", ignore, "Rules to disable: ids, categories or globs")
      ->allow_extra_args(false)
      ->type_name("SELECTOR");
  app.add_option("--fail-on", fail_on, "Lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_option("--min-severity", min_severity,
                 "Show only findings at or above this severity (the exit code still counts all)")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  app.add_flag("-v,--show-infos", show_infos,
               "Show every finding and every target verdict (text: a rule's many findings in a "
               "file are otherwise one count line; quiet forms show only verdicts that are not "
               "ok)");
  app.add_option("--color", color, "Color the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--list-rules", list_rules,
               "List every rule (text, JSON with --format json, SARIF rules with --format sarif)");
  app.add_flag("--list-targets", list_targets_flag,
               "List the known target runtimes (text, or JSON with --format json)");
  app.add_option("--explain", explain,
                 "Print the documentation of a rule (text, or JSON with --format json)")
      ->type_name("RULE");
  app.add_flag("--statistics", statistics, "Print the number of findings per rule");
  app.add_flag("-q,--quiet", quiet, "Print findings and target verdicts only, no summary");
  app.add_flag("--hash", hash,
               "Put the SHA-256 of each model and of its external-data files in the JSON report "
               "(reads all the weights)");
  app.add_flag("--timings", timings,
               "Print the time each phase, analysis and rule took, summed over the files, to "
               "standard error");
  app.add_option("-j,--jobs", jobs, "Lint N files in parallel (output stays in input order)")
      ->check(CLI::Range(1, 256));
  auto* isolate_opt = app.add_flag(
      "--isolate", isolate,
      "Lint each file in a worker process, so that a crash becomes that file's internal-error "
      "finding and the other files are still reported (the default with a folder or several "
      "files)");
  auto* no_isolate_opt =
      app.add_flag("--no-isolate", no_isolate,
                   "Lint every file in this process (a crash then ends the run with exit code 3)")
          ->excludes(isolate_opt);
  // Only a worker process can be stopped: the limit needs isolation, and given for one file it
  // turns isolation on (docs/cli.md, "Crash isolation").
  app.add_option("--file-timeout", file_timeout,
                 fmt::format("Stop a file's worker after SECONDS and report it as an internal "
                             "error (isolated runs; given for one file it isolates it; 0: no "
                             "limit; default {})",
                             kDefaultFileTimeLimit.count()))
      ->type_name("SECONDS")
      ->check(CLI::Range(0.0, 1e7))
      ->excludes(no_isolate_opt);
  auto* config_opt =
      app.add_option(
             "--config", config_file,
             "Read this config file for every model instead of the nearest onnx-lint.toml / "
             "pyproject.toml above each")
          ->type_name("FILE");
  app.add_flag("--no-config", no_config, "Ignore configuration files (built-in defaults + flags)")
      ->excludes(config_opt);
  app.add_flag("--show-config", show_config,
               "Print the effective configuration (for each PATH given: its own config file "
               "and overrides)");
  app.add_option("--stdin-filename", stdin_filename,
                 "With -, the model's name in reports, for finding its config and overrides "
                 "and its external data (its folder)")
      ->type_name("FILE");
  app.add_flag("--list-external-data", list_external,
               "List each model's external-data files as NUL-separated MODEL, FILE pairs (for "
               "the git hooks)");
  // Hidden (no group): shell completions and the man page, from the definitions above.
  std::string generate_kind;
  app.add_option("--generate", generate_kind, "Print a shell completion script or the man page")
      ->check(CLI::IsMember(kGenerateKinds))
      ->group("");
  auto* baseline_opt = app.add_option("--baseline", baseline_file,
                                      "Accept the findings recorded in this baseline file")
                           ->type_name("FILE");
  app.add_flag("--no-baseline", no_baseline, "Ignore the config file's baseline")
      ->excludes(baseline_opt);
  bool fix = false, unsafe_fixes = false, fix_diff = false;
  std::string fix_output, fix_dims;
  auto* fix_opt = app.add_flag("--fix", fix,
                               "Write the model with the safe fixes applied beside it "
                               "(<stem>.fixed.onnx) and report what is left (docs/fixes.md)");
  app.add_flag("--unsafe-fixes", unsafe_fixes,
               "With --fix: apply the fixes that change what the model computes too");
  app.add_option("--fix-output", fix_output, "With --fix: write the fixed model to FILE")
      ->type_name("FILE");
  app.add_flag("--diff,--dry-run", fix_diff,
               "With --fix: print what would be fixed, write nothing");
  app.add_option("--fix-dims", fix_dims,
                 "Fix mode (implies --fix): make these symbolic input dims fixed first, then "
                 "fold what they make constant (batch=1,height=320)")
      ->type_name("NAME=SIZE,...");
  (void)fix_opt;
  app.add_option("--write-baseline", write_baseline_file,
                 "Record the current findings in this baseline file (the run then exits 0)")
      ->type_name("FILE");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  errno = 0;  // parsing may have set it: from here on it is a failed write's (all_written)
  if (!generate_kind.empty()) {
    print_generated(generate_kind, app, std::cout);
    return 0;
  }
  const bool json = format == "json";
  if (version) {
    if (!format_allowed(format, "--version")) return kExitUsage;
    print_version(json, std::cout);
    return 0;
  }
  const RuleRegistry& registry = builtin_registry();
  if (list_rules) {
    if (!format_allowed(format, "--list-rules", true)) return kExitUsage;
    if (format == "sarif") {
      emit_rule_list_sarif(registry, std::cout);
    } else {
      emit_rule_list(registry, json, std::cout);
    }
    return 0;
  }
  if (list_targets_flag) {
    if (!format_allowed(format, "--list-targets")) return kExitUsage;
    print_target_list(json, std::cout);
    return 0;
  }
  if (!explain.empty()) {
    if (!format_allowed(format, "--explain")) return kExitUsage;
    const auto* entry = registry.find(explain);
    if (entry == nullptr) {
      const auto close = registry.closest_id(explain);
      std::cerr << fmt::format("onnx-lint: unknown rule '{}'{} (see --list-rules)\n",
                               visible(explain),
                               close ? fmt::format(" (did you mean '{}'?)", *close) : "");
      return kExitUsage;
    }
    std::string_view doc = RuleRegistry::documentation(explain);
    if (json) {
      emit_rule_doc_json(*entry->info, std::cout);
    } else if (doc.empty()) {
      std::cout << entry->info->id << ": " << entry->info->summary << "\n";
    } else {
      std::cout << doc;
    }
    return 0;
  }
  try {
    CommandLine cli;
    if (app.count("--select") > 0) cli.selection.select = split_commas(select);
    cli.selection.extend_select = split_commas(extend_select);
    cli.selection.ignore = split_commas(ignore);
    cli.targets = resolve_targets(split_commas(targets));
    for (const std::string& r : split_commas(require_target)) {
      cli.require_targets.push_back(parse_target_requirement(r, canonical_target));
    }
    if (app.count("--fail-on") > 0) cli.fail_on = fail_on;
    if (!baseline_file.empty()) cli.baseline = baseline_file;
    cli.no_baseline = no_baseline;
    cli.jobs = jobs;
    cli.hash = hash;
    cli.timings = timings;

    RunRequest request;
    request.paths = paths;
    request.command_line = cli;
    if (!config_file.empty()) request.config_file = config_file;
    request.no_config = no_config;
    request.stdin_name = stdin_filename;
    if (show_config) {
      // The configuration each model would be linted with (run.h), as the run finds it.
      const Config config = run_config(registry, request);
      std::vector<std::string> models;
      for (const std::string& p : paths) {
        models.push_back(p == "-" && !stdin_filename.empty() ? stdin_filename : p);
      }
      const Settings settings = run_settings(registry, request, config, models);
      if (paths.empty()) std::cout << onnxlint::show_config(registry, config, settings);
      for (size_t i = 0; i < models.size(); ++i) {
        std::cout << (i > 0 ? "\n" : "")
                  << onnxlint::show_config(registry, config_for(settings, config, models[i]),
                                           settings, models[i]);
      }
      return 0;
    }
    if (paths.empty()) {
      std::cerr << "onnx-lint: no model given (try: onnx-lint model.onnx, or --help)\n";
      return kExitUsage;
    }

    if (list_external) return list_external_data(expand_inputs(paths), std::cout) ? 0 : kExitUsage;
    if (format == "model-explorer") {
      std::vector<std::string> files;
      for (const InputPath& in : expand_inputs(paths)) {
        if (in.error.empty()) files.push_back(in.path);
      }
      if (files.size() > 1 || (files.size() == 1 && files[0] == "-")) {
        throw ConfigError(files.size() > 1
                              ? "--format model-explorer: node data is for one model; give one "
                                "model file"
                              : "--format model-explorer reads the model file for its graph and "
                                "node names; give a file, not stdin");
      }
    }

    request.read_stdin = read_stdin;
    // Isolation by default when several files are linted (run.h); --isolate, a time limit
    // given for one file, or --no-isolate decide otherwise.
    const bool timeout_given = app.count("--file-timeout") > 0 && file_timeout > 0;
    if (isolate || timeout_given) {
      request.isolate = true;
    } else if (no_isolate) {
      request.isolate = false;
    }
    const std::optional<std::chrono::milliseconds> limit =
        file_time_limit_from_seconds(file_timeout);
    if (!limit) throw ConfigError("--file-timeout: expected seconds from 0 to 1e7");
    request.file_time_limit = *limit;
    if (!write_baseline_file.empty()) request.write_baseline = write_baseline_file;
    if (!output.empty()) request.output_file = output;
    const bool fix_asked = fix || !fix_dims.empty();
    if (!fix_asked && (unsafe_fixes || fix_diff || !fix_output.empty())) {
      throw ConfigError("--unsafe-fixes, --diff and --fix-output go with --fix");
    }
    if (fix_asked) {
      FixOptions fo;
      fo.unsafe = unsafe_fixes;
      fo.dry_run = fix_diff;
      fo.output = fix_output;
      for (const std::string& item : split_commas({fix_dims})) {
        const size_t eq = item.find('=');
        int64_t size = -1;
        if (eq != std::string::npos) {
          const std::string number = item.substr(eq + 1);
          const char* end = number.data() + number.size();
          auto [ptr, ec] = std::from_chars(number.data(), end, size);
          if (ec != std::errc() || ptr != end) size = -1;
        }
        if (eq == std::string::npos || eq == 0 || size < 1) {
          throw ConfigError(fmt::format(
              "--fix-dims: expected NAME=SIZE with a size of at least 1, got '{}'", item));
        }
        fo.dims[item.substr(0, eq)] = size;
      }
      request.fix = std::move(fo);
    }
    // Progress never mixes with machine-readable output, even on stderr.
    Progress progress(
        ::isatty(STDERR_FILENO) && !quiet &&
        (format == "text" || format == "concise" || format == "summary" || format == "github"));
    request.progress = [&progress](size_t done, size_t total) { progress(done, total); };
    RunResult run = run_lint(registry, request);
    progress.finish();
    Report& report = run.report;
    const Linter& linter = *run.linter;
    for (const std::string& notice : run.notices) {
      // The baseline written is always said; the rest is advice that --quiet leaves out.
      if (!quiet || !write_baseline_file.empty()) std::cerr << notice << "\n";
    }
    int exit_status = run.exit_code;
    for (const FileReport& f : report.files) {
      // A fix that could not be done (a dim no input has, a file that could not be written).
      if (f.fixing && !f.fixing->error.empty()) exit_status = kExitUsage;
    }
    const Severity shown = parse_severity(min_severity).value_or(Severity::Info);
    if (shown > Severity::Info) hide_below(report, shown);

    std::ofstream file;
    if (!output.empty()) {
      errno = 0;
      file.open(output);
      if (!file) {
        const int err = errno;
        std::cerr << fmt::format("onnx-lint: cannot write '{}'{}\n", output,
                                 err != 0 ? ": " + std::generic_category().message(err) : "");
        return kExitUsage;
      }
    }
    std::ostream& out = output.empty() ? std::cout : file;
    const auto report_start = std::chrono::steady_clock::now();
    errno = 0;
    if (format == "json") {
      emit_json(report, linter, out);
    } else if (format == "sarif") {
      emit_sarif(report, linter, out);
    } else if (format == "github") {
      emit_github(report, linter, out);
    } else if (format == "gitlab") {
      emit_gitlab(report, linter, out);
    } else if (format == "junit") {
      emit_junit(report, linter, out);
    } else if (format == "markdown") {
      emit_markdown(report, linter, out);
    } else if (format == "model-explorer") {
      emit_model_explorer(report, linter, out);
    } else {
      TextOptions text;
      const bool tty = output.empty() && ::isatty(STDOUT_FILENO);
      text.color =
          color == "always" || (color == "auto" && tty && std::getenv("NO_COLOR") == nullptr);
      text.quiet = quiet;
      text.statistics = statistics;
      text.show_infos = show_infos;
      text.min_severity = shown;
      text.style = format == "concise"   ? TextStyle::Concise
                   : format == "summary" ? TextStyle::Files
                                         : TextStyle::Full;
      errno = 0;  // isatty() sets it
      emit_text(report, linter, text, out);
    }
    if (timings) {
      const int saved = errno;  // the report's write errors are checked below
      out.flush();
      TimingEntry writing;
      writing.name = "report";
      writing.calls = 1;
      writing.nanoseconds =
          static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now() - report_start)
                                    .count());
      emit_timings(report, std::cerr, {writing});
      errno = saved;
    }
    // Each path that gave no model, on stderr too (the report has it in its place).
    for (const FileReport& f : report.files) {
      if (f.status == FileReport::Status::PathError) {
        std::cerr << fmt::format("onnx-lint: {}: {}\n", visible(f.path), f.error);
      }
    }
    // A report that did not reach its file is a failed run, whatever the findings.
    if (!output.empty()) {
      if (!all_written(file, fmt::format("the report to '{}'", output))) return kExitUsage;
      file.close();
      if (file.fail()) {
        std::cerr << fmt::format("onnx-lint: cannot write the report to '{}'\n", output);
        return kExitUsage;
      }
    }
    return exit_status;
  } catch (const ConfigError& e) {
    // Config keys, globs and file names come from the repository: printed visibly.
    std::cerr << "onnx-lint: " << visible(e.what()) << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "onnx-lint: error: " << visible(e.what()) << "\n";
    return kExitUsage;
  }
}

}  // namespace

int onnxlint::run_cli(int argc, char** argv) {
  errno = 0;
  const int code = run_command(argc, argv);
  // Whatever went to standard output must have reached it (a full disk, a closed stdout): a
  // report that was never written is not a success.
  if (!all_written(std::cout, "to standard output")) return kExitUsage;
  return code;
}
