// Shared by the quant-* rules: the arguments of a QuantizeLinear / DequantizeLinear node as the
// per-dimension analysis and the value table see them.
#pragma once

#include <onnxlint/model.h>
#include <onnxlint/provenance.h>
#include <onnxlint/value_table.h>

#include <optional>
#include <string>
#include <vector>

namespace onnxlint::rules {

inline bool is_qdq(const Node& n) {
  return n.in_default_domain() &&
         (n.op_type() == "QuantizeLinear" || n.op_type() == "DequantizeLinear");
}

/// "QuantizeLinear 'name'".
inline std::string qdq_label(const Node& n) {
  return std::string(n.op_type()) + " '" + n.display_name() + "'";
}

}  // namespace onnxlint::rules
