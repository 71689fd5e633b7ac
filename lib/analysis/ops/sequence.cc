// Sequence and optional ops. Their types wrap or unwrap the element tensor's type, which the
// schema's type parameters do not tie together (S and T are separate parameters): each op
// that crosses the wrapping has a rule.
#include <onnxlint/data_type.h>

#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

// SequenceAt and ConcatFromSequence: a tensor of the sequence's element type.
void element_of_sequence(TypeContext& ctx) { ctx.set(0, ctx.input(0).sequence_elem()); }

// SequenceConstruct and SplitToSequence: a sequence of the input tensor's type.
void sequence_of_input(TypeContext& ctx) { ctx.set(0, ctx.input(0).as_sequence()); }

// SequenceInsert and SequenceErase: the input sequence's type (S), else a sequence of the
// inserted tensor's type.
void same_sequence(TypeContext& ctx) {
  ctx.from_schema();
  if (!ctx.input(0).known() && ctx.node().op_type() == "SequenceInsert") {
    ctx.set(0, ctx.input(1).as_sequence());
  }
}

// SequenceEmpty: a sequence of `dtype` tensors, float by default.
void sequence_empty(TypeContext& ctx) {
  if (const Attribute* a = ctx.attribute("dtype")) {
    if (a->type == Attribute::Type::Int) ctx.set(0, ValueType::tensor(a->i).as_sequence());
    return;
  }
  if (!ctx.attr_listed("dtype")) {
    ctx.set(0, ValueType::tensor(static_cast<int64_t>(DataType::Float)).as_sequence());
  }
}

// Optional: the input's type wrapped, else the `type` attribute's.
void optional_type(TypeContext& ctx) {
  if (ctx.has_input(0)) {
    ctx.set(0, ctx.input(0).as_optional());
  } else if (const Attribute* a = ctx.attribute("type"); a != nullptr && a->tp) {
    ctx.set(0, declared_value_type(*a->tp).as_optional());
  }
}

// OptionalGetElement: the optional's element; from opset 18 a plain tensor or sequence passes
// through unchanged.
void optional_element(TypeContext& ctx) {
  const ValueType t = ctx.input(0);
  if (t.kind == ValueType::Kind::Optional || t.kind == ValueType::Kind::OptionalSequence) {
    ctx.set(0, t.optional_elem());
  } else if (t.known() && ctx.opset() >= 18) {
    ctx.set(0, t);
  }
}

constexpr OpEntry kOps[] = {
    onnx("ConcatFromSequence", 1).dims(DimRule::ConcatFromSequence).type_rule(element_of_sequence),
    onnx("Optional", 1).dims(DimRule::Optional).type_rule(optional_type),
    onnx("OptionalGetElement", 1).dims(DimRule::OptionalGetElement).type_rule(optional_element),
    onnx("OptionalHasElement", 1).dims(DimRule::OptionalHasElement),
    onnx("SequenceAt", 1).dims(DimRule::SequenceAt).type_rule(element_of_sequence),
    onnx("SequenceConstruct", 1).dims(DimRule::SequenceConstruct).type_rule(sequence_of_input),
    onnx("SequenceEmpty", 11)
        .dims(DimRule::SequenceEmpty)
        .static_shape()
        .value(ValueBehavior::Constant)
        .type_rule(sequence_empty),
    onnx("SequenceErase", 1).dims(DimRule::SequenceErase).type_rule(same_sequence),
    onnx("SequenceInsert", 1).dims(DimRule::SequenceInsert).type_rule(same_sequence),
    onnx("SequenceLength", 11).dims(DimRule::SequenceLength).shape_to_value(),
    onnx("SplitToSequence", 11)
        .dims(DimRule::SplitToSequence)
        .values_set_shape(in(1))
        .type_rule(sequence_of_input),  // split
};

}  // namespace

std::span<const OpEntry> sequence_ops() { return kOps; }

}  // namespace onnxlint::ops
