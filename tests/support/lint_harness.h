// Runs rules over in-memory models and renders findings as comparable strings, so tests can
// assert the *exact* set of findings (extra findings fail the test).
#pragma once

#include <string>
#include <vector>

#include <onnxlint/linter.h>

namespace onnxlint::testing {

/// Lints `bytes` with only `rule_id` enabled (plus internal-error, which must never appear)
/// and returns one "<rule> <anchor>" string per finding, sorted, e.g.
/// "graph-dead-node main/Relu_2" or "graph-unused-input main:'x'". `options` may add targets,
/// rule options or severity overrides; its selection is replaced.
std::vector<std::string> findings(const std::string& rule_id, const std::string& bytes,
                                  LintOptions options = {});

/// Full diagnostics for the same run (for message/notes/help/severity assertions).
std::vector<Diagnostic> diagnostics(const std::string& rule_id, const std::string& bytes,
                                    LintOptions options = {});

/// Rewrites "main" prefixes of expected anchors to a nested graph path:
/// nested({"r main/X"}, "main/nest:body") == {"r main/nest:body/X"}.
std::vector<std::string> nested(const std::vector<std::string>& expected,
                                const std::string& prefix);

/// Path of the shared test data folder (tests/data), set by CMake.
std::string data_path(const std::string& relative);

}  // namespace onnxlint::testing
