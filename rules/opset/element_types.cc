#include "rules/opset/element_types.h"

#include <onnxlint/data_type.h>
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

std::optional<int32_t> KnownElemTypes::of(const StatedType& st) {
  const Node* n = st.producer;
  if (n != nullptr && n->op_type() != "Constant" && n->op_type() != "Cast") {
    const OpResolution& r = ops_.of(*n);
    if (r.status == OpStatus::Standard && r.domain.empty() && !r.schema->outputs.empty()) {
      const OpSchema& s = *r.schema;
      const size_t i = st.output_index;
      const ParamSchema& p = s.outputs[std::min(i, s.outputs.size() - 1)];
      if (i < s.outputs.size() || p.option == ParamOption::Variadic) {
        auto [it, added] = fixed_.try_emplace(&p, 0);
        if (added) it->second = fixed_type(s, p).value_or(0);
        if (it->second != 0) return it->second;
      }
    }
  }
  return st.elem_type != DataType::Undefined ? std::optional<int32_t>(st.elem_type) : std::nullopt;
}

}  // namespace onnxlint::rules
