#include "support/lint_harness.h"

#include <algorithm>
#include <stdexcept>

#include <onnxlint/registry.h>

namespace onnxlint::testing {

std::vector<Diagnostic> diagnostics(const std::string& rule_id, const std::string& bytes,
                                    LintOptions options) {
  const RuleRegistry& registry = builtin_registry();
  if (registry.find(rule_id) == nullptr) throw std::invalid_argument("unknown rule " + rule_id);
  options.select = {rule_id};
  options.extend_select.clear();
  options.ignore.clear();
  Linter linter(registry, options);
  FileReport report = linter.lint_bytes("test.onnx", bytes);
  return report.diagnostics;
}

std::vector<std::string> findings(const std::string& rule_id, const std::string& bytes,
                                  LintOptions options) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics(rule_id, bytes, std::move(options))) {
    std::string line = d.rule_id + " " + d.location.anchor();
    if (!d.target.empty()) line += " @" + d.target;
    if (d.rule_id == "internal-error") line += " " + d.message;
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> nested(const std::vector<std::string>& expected,
                                const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& e : expected) {
    size_t space = e.find(' ');
    std::string anchor = e.substr(space + 1);
    if (anchor.rfind("main", 0) == 0) anchor = prefix + anchor.substr(4);
    out.push_back(e.substr(0, space + 1) + anchor);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string data_path(const std::string& relative) {
  return std::string(ONNXLINT_TEST_DATA_DIR) + "/" + relative;
}

}  // namespace onnxlint::testing
