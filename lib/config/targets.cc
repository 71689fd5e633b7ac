// Target names: ids and aliases resolved to canonical ids, shared by Linter, the CLI, the
// configuration reader and the Python module.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/linter.h>
#include <onnxlint/targets.h>

#include <algorithm>

#include "config/text_util.h"

namespace onnxlint {

std::vector<std::string> resolve_targets(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    const TargetInfo* t = find_target(name);
    if (const size_t at = name.find('@'); t == nullptr && at != std::string::npos) {
      if (const TargetInfo* base = find_target(name.substr(0, at))) {
        std::vector<std::string> releases;
        for (const TargetInfo* v : target_versions(base->family)) releases.emplace_back(v->version);
        throw ConfigError(fmt::format(
            "unknown version '{}' of target '{}'; {}", name.substr(at + 1), base->family,
            releases.empty() ? std::string("it has one table, without versions")
                             : fmt::format("its tables: {}", fmt::join(releases, ", "))));
      }
    }
    if (t == nullptr) {
      std::vector<std::string> names;
      for (const TargetInfo& info : all_targets()) {
        names.emplace_back(info.id);
        for (std::string_view alias : info.aliases) names.emplace_back(alias);
      }
      if (auto close = closest(name, names)) {
        throw ConfigError(fmt::format("unknown target '{}' (did you mean '{}'?); known targets: {}",
                                      name, *close, target_names_for_help()));
      }
      throw ConfigError(
          fmt::format("unknown target '{}'; known targets: {}", name, target_names_for_help()));
    }
    if (std::find(out.begin(), out.end(), t->id) == out.end()) out.emplace_back(t->id);
  }
  return out;
}

std::optional<std::string> canonical_target(std::string_view name) {
  const TargetInfo* t = find_target(name);
  if (t == nullptr) return std::nullopt;
  return std::string(t->id);
}

}  // namespace onnxlint
