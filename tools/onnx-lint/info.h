// What the information flags print: --list-targets and --version, in text or JSON
// (docs/cli.md). The target and operator tables live in onnxlint::rules, so these are here and
// not with the report emitters of onnxlint::core.
#pragma once

#include <ostream>

namespace onnxlint {

/// `--list-targets`: every target with its aliases, runtime (and version) and table source.
void print_target_list(bool json, std::ostream& out);

/// `--version`: the tool, the ONNX release and opsets of the operator table, and the runtime
/// version of every target table.
void print_version(bool json, std::ostream& out);

}  // namespace onnxlint
