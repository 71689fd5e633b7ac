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

/// The dims of a value: the analysis's, else the stated ones; nullopt when not even the rank is
/// known. Each entry is the fixed size or -1.
inline std::optional<std::vector<int64_t>> known_dims(const Provenance& p, const ValueTable& vt,
                                                      ValueId v) {
  if (v == kNoValue) return std::nullopt;
  std::vector<int64_t> out;
  if (auto dims = p.dims(v)) {
    for (const DimFact& f : *dims) out.push_back(f.kind == DimFact::Kind::Fixed ? f.value : -1);
    return out;
  }
  const StatedType s = vt.stated(v);
  if (!s.has_shape()) return std::nullopt;
  for (const Dim& d : s.dims()) out.push_back(d.is_static() ? d.value : -1);
  return out;
}

/// "QuantizeLinear 'name'".
inline std::string qdq_label(const Node& n) {
  return std::string(n.op_type()) + " '" + n.display_name() + "'";
}

}  // namespace onnxlint::rules
