// Element types that are *known* for tensor values, without shape inference: what the model
// states (ValueTable: initializers, Constant nodes, Cast `to`, declarations) and, for outputs of
// standard ops, what the op's schema fixes by itself (Shape → int64, ...). A value without one
// has an unknown type, and rules must stay silent about it.
#pragma once

#include <onnxlint/value_table.h>

#include <cstdint>
#include <optional>

#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {

/// The TensorProto.DataType of value `v`, if known. The schema's fixed output type wins over a
/// declaration (the runtime computes what the schema says), but not over Constant or Cast.
std::optional<int32_t> known_elem_type(const ValueTable& values, const OpResolutionIndex& ops,
                                       ValueId v);

}  // namespace onnxlint::rules
