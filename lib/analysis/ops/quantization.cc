// Quantization: QuantizeLinear/DequantizeLinear (QDQ), DynamicQuantizeLinear, the QLinear ops
// and the integer ops (ConvInteger, MatMulInteger).
#include <onnxlint/data_type.h>

#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

// QuantizeLinear: `output_dtype` (opset 21) when set, else the zero point's type, else uint8
// (no zero point and no output_dtype).
void quantize_type(TypeContext& ctx) {
  if (auto dtype = ctx.attr_int("output_dtype"); dtype && *dtype != 0) {
    ctx.set_tensor(0, *dtype);
  } else if (ctx.attr_listed("output_dtype") && !dtype) {
    return;  // a reference to a function attribute this call does not resolve
  } else if (ctx.has_input(2)) {
    ctx.set(0, ctx.input(2).is_tensor() ? ctx.input(2) : ValueType{});
  } else {
    ctx.set_tensor(0, static_cast<int64_t>(DataType::Uint8));
  }
}

// DequantizeLinear: `output_dtype` (opset 23) when set, else the scale's type (float until
// opset 19, where the output type parameter is the scale's).
void dequantize_type(TypeContext& ctx) {
  if (auto dtype = ctx.attr_int("output_dtype"); dtype && *dtype != 0) {
    ctx.set_tensor(0, *dtype);
  } else if (!ctx.attr_listed("output_dtype") && ctx.input(1).is_tensor()) {
    ctx.set(0, ctx.input(1));
  }
  ctx.from_schema();
}

constexpr OpEntry kOps[] = {
    onnx("ConvInteger", 1).dims(DimRule::Conv),
    onnx("DequantizeLinear", 1).dims(DimRule::Unary).type_rule(dequantize_type),
    onnx("DynamicQuantizeLinear", 1)
        .dims(DimRule::DynamicQuantize),  // uint8, float scale, uint8 zero point: the schema's
    onnx("MatMulInteger", 1).dims(DimRule::MatMul),
    onnx("QLinearConv", 1).dims(DimRule::Conv),
    onnx("QLinearMatMul", 1).dims(DimRule::MatMul),
    onnx("QuantizeLinear", 1).dims(DimRule::Unary).type_rule(quantize_type),
};

}  // namespace

std::span<const OpEntry> quantization_ops() { return kOps; }

}  // namespace onnxlint::ops
