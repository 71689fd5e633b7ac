// Element types that are *known* for tensor values, without shape inference: what the model
// states (ValueTable: initializers, Constant nodes, Cast `to`, declarations) and, for outputs of
// standard ops, what the op's schema fixes by itself (Shape → int64, ...). A value without one
// has an unknown type, and rules must stay silent about it.
#pragma once

#include <onnxlint/value_table.h>

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {

/// The TensorProto.DataType of values, where known. The schema's fixed output type wins over
/// a declaration (the runtime computes what the schema says), but not over Constant or Cast.
class KnownElemTypes {
 public:
  KnownElemTypes(const ValueTable& values, const OpResolutionIndex& ops)
      : values_(values), ops_(ops) {}
  std::optional<int32_t> of(ValueId v) { return of(values_.stated(v)); }
  std::optional<int32_t> of(const StatedType& st);

 private:
  const ValueTable& values_;
  const OpResolutionIndex& ops_;
  // The type each formal output fixes by itself (0: none), decided once per schema parameter.
  std::unordered_map<const ParamSchema*, int32_t> fixed_;
};

}  // namespace onnxlint::rules
