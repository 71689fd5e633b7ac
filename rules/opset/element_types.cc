#include "rules/opset/element_types.h"

#include <onnxlint/opset_table.h>

#include <algorithm>

namespace onnxlint::rules {
namespace {

// The element type a formal parameter fixes by itself: a concrete "tensor(int64)", or a type
// parameter whose constraint allows exactly one tensor type (Shape's T1, NonZero's output...).
std::optional<int32_t> fixed_type(const OpSchema& s, const ParamSchema& p) {
  std::string_view t = p.type;
  if (const TypeConstraint* c = s.find_constraint(p.type)) {
    if (c->allowed.size() != 1) return std::nullopt;
    t = c->allowed[0];
  }
  if (!t.starts_with("tensor(")) return std::nullopt;
  return element_type_from_name(t);
}

}  // namespace

std::optional<int32_t> known_elem_type(const ValueTable& values, const OpResolutionIndex& ops,
                                       ValueId v) {
  if (v == kNoValue) return std::nullopt;
  const Node* n = values.producer(v);
  if (n != nullptr && n->op_type != "Constant" && n->op_type != "Cast") {
    const OpResolution& r = ops.of(*n);
    if (r.status == OpStatus::Standard && r.domain.empty() && !r.schema->outputs.empty()) {
      const OpSchema& s = *r.schema;
      size_t i = 0;
      while (i < n->outputs.size() && values.output(*n, i) != v) ++i;
      const ParamSchema& p = s.outputs[std::min(i, s.outputs.size() - 1)];
      if (i < s.outputs.size() || p.option == ParamOption::Variadic) {
        if (auto t = fixed_type(s, p)) return t;
      }
    }
  }
  const int32_t t = values.elem_type(v);
  return t != 0 ? std::optional<int32_t>(t) : std::nullopt;
}

}  // namespace onnxlint::rules
