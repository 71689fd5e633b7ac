// Reductions and scans along axes: ReduceX, ArgMax/ArgMin, CumSum/CumProd.
#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"

namespace onnxlint::ops {
namespace {

// ReduceX took `axes` as an attribute until opset 18 (ReduceSum: 13), then as input 1.
constexpr OpEntry kOps[] = {
    onnx("ArgMax", 1).dims(DimRule::ArgReduce),
    onnx("ArgMin", 1).dims(DimRule::ArgReduce),
    onnx("CumProd", 1).dims(DimRule::Unary),
    onnx("CumSum", 1).dims(DimRule::Unary),
    onnx("ReduceL1", 1).dims(DimRule::Reduce),
    onnx("ReduceL1", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceL2", 1).dims(DimRule::Reduce),
    onnx("ReduceL2", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceLogSum", 1).dims(DimRule::Reduce),
    onnx("ReduceLogSum", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceLogSumExp", 1).dims(DimRule::Reduce),
    onnx("ReduceLogSumExp", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceMax", 1).dims(DimRule::Reduce),
    onnx("ReduceMax", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceMean", 1).dims(DimRule::Reduce),
    onnx("ReduceMean", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceMin", 1).dims(DimRule::Reduce),
    onnx("ReduceMin", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceProd", 1).dims(DimRule::Reduce),
    onnx("ReduceProd", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceSum", 1).dims(DimRule::Reduce),
    onnx("ReduceSum", 13).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
    onnx("ReduceSumSquare", 1).dims(DimRule::Reduce),
    onnx("ReduceSumSquare", 18).dims(DimRule::Reduce).values_set_shape(in(1)),  // axes
};

}  // namespace

std::span<const OpEntry> reduction_ops() { return kOps; }

}  // namespace onnxlint::ops
