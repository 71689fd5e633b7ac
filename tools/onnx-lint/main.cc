// The onnx-lint command: argument parsing and exit codes only; everything else is the library.
#include <fmt/format.h>
#include <onnxlint/onnxlint.h>
#include <onnxlint/targets.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>

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

// Resolves target ids and aliases to canonical ids; throws ConfigError for an unknown one.
std::vector<std::string> resolve_targets(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    const onnxlint::TargetInfo* t = onnxlint::find_target(name);
    if (t == nullptr) {
      throw onnxlint::ConfigError(fmt::format("unknown target '{}'; known targets: {}", name,
                                              onnxlint::target_names_for_help()));
    }
    if (std::find(out.begin(), out.end(), t->id) == out.end()) out.emplace_back(t->id);
  }
  return out;
}

void list_targets(std::ostream& out) {
  for (const onnxlint::TargetInfo& t : onnxlint::all_targets()) {
    std::string aliases;
    for (std::string_view a : t.aliases) aliases += (aliases.empty() ? "" : ", ") + std::string(a);
    out << fmt::format("{:<34} {}\n", t.id, t.display_name);
    out << fmt::format("    aliases: {}\n", aliases.empty() ? "-" : aliases);
    out << fmt::format("    runtime: {} ({})\n", t.runtime, t.runtime_version);
    out << fmt::format("    source:  {} : {} @ {}\n", t.source_repo, t.source_path,
                       t.source_version);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace onnxlint;
  CLI::App app{"onnx-lint: static checks for ONNX models before you deploy them", "onnx-lint"};
  app.set_version_flag("--version", std::string("onnx-lint ") + kVersion);

  std::vector<std::string> paths;
  std::string format = "text";
  std::string output;
  std::vector<std::string> targets, select, extend_select, ignore;
  std::string fail_on = "error";
  std::string color = "auto";
  std::string explain;
  bool list_rules = false, list_targets_flag = false, statistics = false, quiet = false;
  int jobs = 1;

  app.add_option("paths", paths, "Model files, folders (searched for *.onnx), or - for stdin");
  app.add_option("--format", format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}));
  app.add_option("-o,--output", output, "Write the report to FILE instead of stdout");
  app.add_option("--target", targets, "Check support on a target runtime (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--select", select,
                 "Rules to enable: ids, categories, globs, ALL (comma-separated)")
      ->allow_extra_args(false);
  app.add_option("--extend-select", extend_select, "Rules to enable in addition to the selection")
      ->allow_extra_args(false);
  app.add_option("--ignore", ignore, "Rules to disable: ids, categories or globs")
      ->allow_extra_args(false);
  app.add_option("--fail-on", fail_on, "Lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "info", "never"}));
  app.add_option("--color", color, "Color the text output")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--list-rules", list_rules, "List every rule (text, or JSON with --format json)");
  app.add_flag("--list-targets", list_targets_flag, "List the known target runtimes");
  app.add_option("--explain", explain, "Print the documentation of a rule");
  app.add_flag("--statistics", statistics, "Print the number of findings per rule");
  app.add_flag("-q,--quiet", quiet, "Print findings only, no summary");
  app.add_option("-j,--jobs", jobs, "Lint N files in parallel (output stays in input order)")
      ->check(CLI::Range(1, 256));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  const RuleRegistry& registry = builtin_registry();
  if (list_rules) {
    emit_rule_list(registry, format == "json", std::cout);
    return 0;
  }
  if (list_targets_flag) {
    list_targets(std::cout);
    return 0;
  }
  if (!explain.empty()) {
    const auto* entry = registry.find(explain);
    if (entry == nullptr) {
      std::cerr << fmt::format("onnx-lint: unknown rule '{}' (see --list-rules)\n", explain);
      return kExitUsage;
    }
    std::string_view doc = RuleRegistry::documentation(explain);
    if (doc.empty()) {
      std::cout << entry->info->id << ": " << entry->info->summary << "\n";
    } else {
      std::cout << doc;
    }
    return 0;
  }
  if (paths.empty()) {
    std::cerr << "onnx-lint: no model given (try: onnx-lint model.onnx, or --help)\n";
    return kExitUsage;
  }

  LintOptions options;
  options.select = split_commas(select);
  options.extend_select = split_commas(extend_select);
  options.ignore = split_commas(ignore);
  options.jobs = jobs;

  std::optional<Severity> fail_threshold;
  if (fail_on != "never") fail_threshold = parse_severity(fail_on);

  try {
    options.targets = resolve_targets(split_commas(targets));
    Linter linter(registry, options);
    Report report = linter.lint_paths(paths);

    std::ofstream file;
    if (!output.empty()) {
      file.open(output);
      if (!file) {
        std::cerr << fmt::format("onnx-lint: cannot write '{}'\n", output);
        return kExitUsage;
      }
    }
    std::ostream& out = output.empty() ? std::cout : file;
    if (format == "json") {
      emit_json(report, linter, out);
    } else {
      TextOptions text;
      const bool tty = output.empty() && ::isatty(STDOUT_FILENO);
      text.color =
          color == "always" || (color == "auto" && tty && std::getenv("NO_COLOR") == nullptr);
      text.quiet = quiet;
      text.statistics = statistics;
      emit_text(report, linter, text, out);
    }
    return exit_code(report, fail_threshold);
  } catch (const ConfigError& e) {
    std::cerr << "onnx-lint: " << e.what() << "\n";
    return kExitUsage;
  }
}
