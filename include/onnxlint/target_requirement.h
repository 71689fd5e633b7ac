// Target requirements: the verdict every model must reach on a target (`--require-target`,
// the config's `require-target`). Kept apart from verdicts.h so that the run's header
// (RunInfo, linter.h) records them typed.
#pragma once

#include <onnxlint/export.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ONNXLINT_API onnxlint {

/// How much of a model a target runs. Ordered: a requirement is met by its level or above.
enum class Support : uint8_t {
  Unsupported = 0,  ///< the conversion or the session fails (or no node is supported)
  Partial = 1,      ///< some nodes go to another provider (the CPU): slower, graph split
  Full = 2,         ///< every node runs on the target ("ok" in reports)
};

/// "unsupported", "partial", "ok" (the report's words).
std::string_view support_name(Support s);
/// Parses "unsupported", "partial", and "ok" or "full"; nullopt otherwise.
std::optional<Support> parse_support(std::string_view s);

/// Every model must reach `level` on `target` ("" = every target checked).
struct TargetRequirement {
  std::string target;
  Support level = Support::Full;
  bool operator==(const TargetRequirement&) const = default;
};

/// As given on the command line: "full", "partial", "tensorrt=full".
std::string requirement_text(const TargetRequirement& r);

/// Parses "LEVEL" or "TARGET=LEVEL" (LEVEL: full/ok or partial; TARGET: any id or alias, made
/// canonical with `resolve`). Throws ConfigError naming the value.
TargetRequirement parse_target_requirement(
    std::string_view text,
    const std::function<std::optional<std::string>(std::string_view)>& resolve);

}  // namespace onnxlint
