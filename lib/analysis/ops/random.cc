// Random generators: values differ between runs even with constant inputs (no constant
// folding), and the output type is the `dtype` attribute's.
#include <onnxlint/data_type.h>

#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

constexpr int64_t kFloat = static_cast<int64_t>(DataType::Float);
constexpr int64_t kInt32 = static_cast<int64_t>(DataType::Int32);

void dtype_or_float(TypeContext& ctx) { type_from_dtype_attr(ctx, "dtype", kFloat); }
void dtype_or_input(TypeContext& ctx) { type_from_dtype_attr(ctx, "dtype", -1); }
void dtype_or_int32(TypeContext& ctx) { type_from_dtype_attr(ctx, "dtype", kInt32); }

constexpr OpEntry kOps[] = {
    onnx("Bernoulli", 15)
        .dims(DimRule::Unary)
        .value(ValueBehavior::Random)
        .type_rule(dtype_or_input),
    onnx("Multinomial", 7).value(ValueBehavior::Random).type_rule(dtype_or_int32),
    onnx("RandomNormal", 1).static_shape().value(ValueBehavior::Random).type_rule(dtype_or_float),
    onnx("RandomNormalLike", 1)
        .dims(DimRule::Unary)
        .value(ValueBehavior::Random)
        .type_rule(dtype_or_input),
    onnx("RandomUniform", 1).static_shape().value(ValueBehavior::Random).type_rule(dtype_or_float),
    onnx("RandomUniformLike", 1)
        .dims(DimRule::Unary)
        .value(ValueBehavior::Random)
        .type_rule(dtype_or_input),
};

}  // namespace

std::span<const OpEntry> random_ops() { return kOps; }

}  // namespace onnxlint::ops
