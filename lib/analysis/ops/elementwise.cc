// Elementwise ops: unary and binary math, comparisons, logic, bitwise ops, activations, string
// ops applied per element, and the casts. Output shapes follow input shapes (broadcast);
// output types follow the schema's type parameters, except Cast and BitCast (`to`).
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

// Cast/BitCast: output 0 is a tensor of the `to` type (unknown when `to` is not a known type).
void cast_to(TypeContext& ctx) {
  if (auto to = ctx.attr_int("to")) ctx.set_tensor(0, *to);
}

constexpr OpEntry kOps[] = {
    onnx("Abs", 1),         onnx("Acos", 1),
    onnx("Acosh", 1),       onnx("Add", 1),
    onnx("And", 1),         onnx("Asin", 1),
    onnx("Asinh", 1),       onnx("Atan", 1),
    onnx("Atanh", 1),       onnx("BitCast", 1).type_rule(cast_to),
    onnx("BitShift", 1),    onnx("BitwiseAnd", 1),
    onnx("BitwiseNot", 1),  onnx("BitwiseOr", 1),
    onnx("BitwiseXor", 1),  onnx("Cast", 1).type_rule(cast_to),
    onnx("CastLike", 1),  // output type parameter T2 is bound by target_type
    onnx("Ceil", 1),        onnx("Celu", 1),
    onnx("Clip", 1),        onnx("Cos", 1),
    onnx("Cosh", 1),        onnx("Div", 1),
    onnx("Elu", 1),         onnx("Equal", 1),
    onnx("Erf", 1),         onnx("Exp", 1),
    onnx("Floor", 1),       onnx("Gelu", 1),
    onnx("Greater", 1),     onnx("GreaterOrEqual", 1),
    onnx("HardSigmoid", 1), onnx("HardSwish", 1),
    onnx("Identity", 1),    onnx("IsInf", 1),
    onnx("IsNaN", 1),       onnx("LeakyRelu", 1),
    onnx("Less", 1),        onnx("LessOrEqual", 1),
    onnx("Log", 1),         onnx("Max", 1),
    onnx("Mean", 1),        onnx("Min", 1),
    onnx("Mish", 1),        onnx("Mod", 1),
    onnx("Mul", 1),         onnx("Neg", 1),
    onnx("Not", 1),         onnx("Or", 1),
    onnx("PRelu", 1),       onnx("Pow", 1),
    onnx("Reciprocal", 1),  onnx("RegexFullMatch", 1),
    onnx("Relu", 1),        onnx("Round", 1),
    onnx("Selu", 1),        onnx("Shrink", 1),
    onnx("Sigmoid", 1),     onnx("Sign", 1),
    onnx("Sin", 1),         onnx("Sinh", 1),
    onnx("Softplus", 1),    onnx("Softsign", 1),
    onnx("Sqrt", 1),        onnx("StringConcat", 1),
    onnx("Sub", 1),         onnx("Sum", 1),
    onnx("Swish", 1),       onnx("Tan", 1),
    onnx("Tanh", 1),        onnx("ThresholdedRelu", 1),
    onnx("Where", 1),       onnx("Xor", 1),
};

}  // namespace

std::span<const OpEntry> elementwise_ops() { return kOps; }

}  // namespace onnxlint::ops
