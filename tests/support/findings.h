// Hand-made findings for the output-format tests (tests/emit/): a Diagnostic placed the way a
// rule would place it, without running a rule.
#pragma once

#include <onnxlint/diagnostic.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace onnxlint::testing {

/// Where a hand-made finding is. By default: graph "main" of "m.onnx", at no node.
struct FindingAt {
  std::string node;                    // Location::node_name
  std::optional<uint32_t> node_index;  // Location::node_index
  std::string op_type;                 // Location::op_type
  std::string file = "m.onnx";
  std::string graph = "main";
};

inline Diagnostic finding(std::string rule, Severity severity, std::string message,
                          FindingAt at = {}) {
  Diagnostic d;
  d.rule_id = std::move(rule);
  d.severity = severity;
  d.message = std::move(message);
  d.location.file = std::move(at.file);
  d.location.graph_path = std::move(at.graph);
  d.location.node_name = std::move(at.node);
  d.location.node_index = at.node_index;
  d.location.op_type = std::move(at.op_type);
  return d;
}

}  // namespace onnxlint::testing
