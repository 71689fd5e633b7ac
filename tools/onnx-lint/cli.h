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

// Target names are resolved by the library: resolve_targets and canonical_target
// (<onnxlint/targets.h>).

}  // namespace onnxlint
