// The onnx-lint command line as a function: the executable's main() and the Python package's
// `python3 -m onnxlint` run the same code.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnxlint {

/// Parses `argv` as the onnx-lint command does, runs it (writing to stdout/stderr) and returns
/// its exit code (0, 1 or 2; docs/cli.md).
int run_cli(int argc, char** argv);

/// Canonical target ids for ids or aliases (`--target`), without repeats; throws ConfigError
/// naming an unknown one and listing the known ones.
std::vector<std::string> resolve_targets(const std::vector<std::string>& names);

/// The canonical id of a target id or alias, or nullopt: the TargetResolver for load_config.
std::optional<std::string> canonical_target(std::string_view name);

}  // namespace onnxlint
