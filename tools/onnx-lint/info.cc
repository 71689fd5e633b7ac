// --list-targets and --version in text and JSON (docs/cli.md).
#include "info.h"

#include <fmt/format.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/report.h>
#include <onnxlint/targets.h>
#include <onnxlint/version.h>

#include <nlohmann/json.hpp>
#include <string>

namespace onnxlint {

namespace {

nlohmann::json string_list(std::span<const std::string_view> items) {
  nlohmann::json out = nlohmann::json::array();
  for (std::string_view s : items) out.push_back(std::string(s));
  return out;
}

// The operator table: ONNX release, newest IR version, newest opset per domain.
nlohmann::json onnx_tables_json() {
  nlohmann::json opsets = nlohmann::json::object();
  for (const DomainInfo& d : all_domains()) opsets[std::string(d.name)] = d.max_opset;
  return {{"release", std::string(onnx_data_version())},
          {"ir_version", max_known_ir_version()},
          {"opsets", std::move(opsets)}};
}

}  // namespace

void print_target_list(bool json, std::ostream& out) {
  if (json) {
    nlohmann::json targets = nlohmann::json::array();
    for (const TargetInfo& t : all_targets()) {
      targets.push_back({{"id", std::string(t.id)},
                         {"display_name", std::string(t.display_name)},
                         {"aliases", string_list(t.aliases)},
                         {"runtime", std::string(t.runtime)},
                         {"runtime_version", std::string(t.runtime_version)},
                         {"family", std::string(t.family)},
                         {"version", std::string(t.version)},
                         {"source",
                          {{"repo", std::string(t.source_repo)},
                           {"path", std::string(t.source_path)},
                           {"version", std::string(t.source_version)}}}});
    }
    out << nlohmann::json{{"schema_version", kJsonSchemaVersion}, {"targets", targets}}.dump(2)
        << "\n";
    return;
  }
  for (const TargetInfo& t : all_targets()) {
    std::string aliases;
    for (std::string_view a : t.aliases) aliases += (aliases.empty() ? "" : ", ") + std::string(a);
    out << fmt::format("{:<34} {}\n", t.id, t.display_name);
    // A versioned table is also named by every alias of its family with the version; the
    // newest table also by its own id with its version.
    if (const TargetInfo* family = find_target(t.family); family != nullptr && t.id != t.family) {
      for (std::string_view a : family->aliases) {
        if (a != t.family)
          aliases += fmt::format("{}{}@{}", aliases.empty() ? "" : ", ", a, t.version);
      }
    } else if (!t.version.empty()) {
      aliases += fmt::format("{}{}@{}", aliases.empty() ? "" : ", ", t.id, t.version);
    }
    out << fmt::format("    aliases: {}\n", aliases.empty() ? "-" : aliases);
    out << fmt::format("    runtime: {} ({})\n", t.runtime, t.runtime_version);
    out << fmt::format("    source:  {} : {} @ {}\n", t.source_repo, t.source_path,
                       t.source_version);
  }
}

void print_version(bool json, std::ostream& out) {
  if (json) {
    nlohmann::json targets = nlohmann::json::object();
    for (const TargetInfo& t : all_targets()) {
      targets[std::string(t.id)] = {{"runtime", std::string(t.runtime)},
                                    {"runtime_version", std::string(t.runtime_version)},
                                    {"source_version", std::string(t.source_version)}};
    }
    nlohmann::json doc = {{"schema_version", kJsonSchemaVersion},
                          {"tool", {{"name", "onnx-lint"}, {"version", kVersion}}},
                          {"onnx", onnx_tables_json()},
                          {"targets", std::move(targets)}};
    out << doc.dump(2) << "\n";
    return;
  }
  out << "onnx-lint " << kVersion << "\n";
  std::string opsets;
  for (const DomainInfo& d : all_domains()) {
    opsets += fmt::format("{}{} {}", opsets.empty() ? "" : ", ", d.name, d.max_opset);
  }
  out << fmt::format("ONNX operator table: ONNX {} (IR version {}; max opset {})\n",
                     onnx_data_version(), max_known_ir_version(), opsets);
  out << "target tables:\n";
  for (const TargetInfo& t : all_targets()) {
    out << fmt::format("  {:<32} {}\n", t.id, t.runtime_version);
  }
}

}  // namespace onnxlint
