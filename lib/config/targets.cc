// Target names: ids and aliases resolved to canonical ids, shared by Linter, the CLI, the
// configuration reader and the Python module.
#include <fmt/format.h>
#include <onnxlint/linter.h>
#include <onnxlint/targets.h>

#include <algorithm>

#include "config/text_util.h"

namespace onnxlint {

std::vector<std::string> resolve_targets(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    const TargetInfo* t = find_target(name);
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
