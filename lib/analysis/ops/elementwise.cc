// Elementwise ops: unary and binary math, comparisons, logic, bitwise ops, activations, string
// ops applied per element, and the casts. Output shapes follow input shapes (broadcast);
// output types follow the schema's type parameters, except Cast and BitCast (`to`).
#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "analysis/ops/constraint_context.h"
#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {

void broadcast_constraints(ConstraintContext& ctx, uint32_t inputs) {
  // Operands align from the last axis, so an operand of unknown rank is left out and the others
  // are still compared. Every pair for a few operands, neighbours for many (a Sum of hundreds
  // stays linear).
  constexpr size_t kFew = 4;
  std::array<size_t, kFew> few{};
  std::vector<size_t> many;
  size_t count = 0, rank = 0;
  for (size_t k = 0; k < ctx.input_count() && k < 32; ++k) {
    if (inputs != 0 && ((inputs >> k) & 1u) == 0) continue;
    if (auto r = ctx.rank(k)) {
      if (count < kFew) {
        few[count] = k;
      } else {
        if (many.empty()) many.assign(few.begin(), few.end());
        many.push_back(k);
      }
      ++count;
      rank = std::max(rank, *r);
    }
  }
  const std::span<const size_t> ops =
      many.empty() ? std::span<const size_t>(few.data(), count) : std::span<const size_t>(many);
  const bool all_pairs = ops.size() <= kFew;
  for (size_t j = 1; j <= rank; ++j) {
    const auto axis = -static_cast<int64_t>(j);
    for (size_t x = 0; x < ops.size(); ++x) {
      for (size_t y = x + 1; y < ops.size() && (all_pairs || y == x + 1); ++y) {
        auto a = ctx.dim(ops[x], axis), b = ctx.dim(ops[y], axis);
        if (a && b) ctx.require(*a, *b, Relation::EqualOrOne, "broadcasts its operands");
      }
    }
  }
}

namespace {

// Multidirectional broadcasting from opset 7 (before, `broadcast`/`axis` attributes align the
// second operand anywhere: not followed).
void broadcast_from_7(ConstraintContext& ctx) {
  if (ctx.opset() >= 7) broadcast_constraints(ctx);
}
// Max, Min, Mean and Sum broadcast from opset 8 (before, every operand has the same shape).
void broadcast_from_8(ConstraintContext& ctx) {
  if (ctx.opset() >= 8) broadcast_constraints(ctx);
}
void broadcast_all(ConstraintContext& ctx) { broadcast_constraints(ctx); }

// Cast/BitCast: output 0 is a tensor of the `to` type (unknown when `to` is not a known type).
void cast_to(TypeContext& ctx) {
  if (auto to = ctx.attr_int("to")) ctx.set_tensor(0, *to);
}

constexpr OpEntry kOps[] = {
    onnx("Abs", 1).dims(DimRule::Unary),
    onnx("Acos", 1).dims(DimRule::Unary),
    onnx("Acosh", 1).dims(DimRule::Unary),
    onnx("Add", 1).dims(DimRule::Arith).constrains(broadcast_from_7),
    onnx("And", 1).dims(DimRule::Logic).constrains(broadcast_from_7),
    onnx("Asin", 1).dims(DimRule::Unary),
    onnx("Asinh", 1).dims(DimRule::Unary),
    onnx("Atan", 1).dims(DimRule::Unary),
    onnx("Atanh", 1).dims(DimRule::Unary),
    onnx("BitCast", 1).type_rule(cast_to),
    onnx("BitShift", 1).dims(DimRule::Broadcast).constrains(broadcast_all),
    onnx("BitwiseAnd", 1).dims(DimRule::Broadcast).constrains(broadcast_all),
    onnx("BitwiseNot", 1).dims(DimRule::Unary),
    onnx("BitwiseOr", 1).dims(DimRule::Broadcast).constrains(broadcast_all),
    onnx("BitwiseXor", 1).dims(DimRule::Broadcast).constrains(broadcast_all),
    onnx("Cast", 1).dims(DimRule::Passthru).type_rule(cast_to),
    onnx("CastLike", 1)
        .dims(DimRule::Passthru),  // output type parameter T2 is bound by target_type
    onnx("Ceil", 1).dims(DimRule::Unary),
    onnx("Celu", 1).dims(DimRule::Unary),
    onnx("Clip", 1).dims(DimRule::Unary),
    onnx("Cos", 1).dims(DimRule::Unary),
    onnx("Cosh", 1).dims(DimRule::Unary),
    onnx("Div", 1).dims(DimRule::Arith).constrains(broadcast_from_7),
    onnx("Elu", 1).dims(DimRule::Unary),
    onnx("Equal", 1).dims(DimRule::Compare).constrains(broadcast_from_7),
    onnx("Erf", 1).dims(DimRule::Unary),
    onnx("Exp", 1).dims(DimRule::Unary),
    onnx("Floor", 1).dims(DimRule::Unary),
    onnx("Gelu", 1).dims(DimRule::Unary),
    onnx("Greater", 1).dims(DimRule::Compare).constrains(broadcast_from_7),
    onnx("GreaterOrEqual", 1).dims(DimRule::Compare).constrains(broadcast_all),
    onnx("HardSigmoid", 1).dims(DimRule::Unary),
    onnx("HardSwish", 1).dims(DimRule::Unary),
    onnx("Identity", 1).dims(DimRule::Passthru),
    onnx("IsInf", 1).dims(DimRule::Unary),
    onnx("IsNaN", 1).dims(DimRule::Unary),
    onnx("LeakyRelu", 1).dims(DimRule::Unary),
    onnx("Less", 1).dims(DimRule::Compare).constrains(broadcast_from_7),
    onnx("LessOrEqual", 1).dims(DimRule::Compare).constrains(broadcast_all),
    onnx("Log", 1).dims(DimRule::Unary),
    onnx("Max", 1).dims(DimRule::Arith).constrains(broadcast_from_8),
    onnx("Mean", 1).dims(DimRule::Broadcast).constrains(broadcast_from_8),
    onnx("Min", 1).dims(DimRule::Arith).constrains(broadcast_from_8),
    onnx("Mish", 1).dims(DimRule::Unary),
    onnx("Mod", 1).dims(DimRule::Arith).constrains(broadcast_all),
    onnx("Mul", 1).dims(DimRule::Arith).constrains(broadcast_from_7),
    onnx("Neg", 1).dims(DimRule::Neg),
    onnx("Not", 1).dims(DimRule::Logic),
    onnx("Or", 1).dims(DimRule::Logic).constrains(broadcast_from_7),
    onnx("PRelu", 1).dims(DimRule::Unary).constrains(broadcast_from_7),
    onnx("Pow", 1).dims(DimRule::Broadcast).constrains(broadcast_from_7),
    onnx("Reciprocal", 1).dims(DimRule::Unary),
    onnx("RegexFullMatch", 1).dims(DimRule::Unary),
    onnx("Relu", 1).dims(DimRule::Unary),
    onnx("Round", 1).dims(DimRule::Unary),
    onnx("Selu", 1).dims(DimRule::Unary),
    onnx("Shrink", 1).dims(DimRule::Unary),
    onnx("Sigmoid", 1).dims(DimRule::Unary),
    onnx("Sign", 1).dims(DimRule::Unary),
    onnx("Sin", 1).dims(DimRule::Unary),
    onnx("Sinh", 1).dims(DimRule::Unary),
    onnx("Softplus", 1).dims(DimRule::Unary),
    onnx("Softsign", 1).dims(DimRule::Unary),
    onnx("Sqrt", 1).dims(DimRule::Unary),
    onnx("StringConcat", 1),
    onnx("Sub", 1).dims(DimRule::Arith).constrains(broadcast_from_7),
    onnx("Sum", 1).dims(DimRule::Broadcast).constrains(broadcast_from_8),
    onnx("Swish", 1).dims(DimRule::Unary),
    onnx("Tan", 1).dims(DimRule::Unary),
    onnx("Tanh", 1).dims(DimRule::Unary),
    onnx("ThresholdedRelu", 1).dims(DimRule::Unary),
    onnx("Where", 1).dims(DimRule::Where).constrains(broadcast_all),
    onnx("Xor", 1).dims(DimRule::Logic).constrains(broadcast_from_7),
};

}  // namespace

std::span<const OpEntry> elementwise_ops() { return kOps; }

}  // namespace onnxlint::ops
