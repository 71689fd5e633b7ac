// Reductions and scans along axes: ReduceX, ArgMax/ArgMin, CumSum/CumProd.
#include "analysis/ops/registry.h"

namespace onnxlint::ops {
namespace {

// ReduceX took `axes` as an attribute until opset 18 (ReduceSum: 13), then as input 1.
constexpr OpEntry kOps[] = {
    onnx("ArgMax", 1),          onnx("ArgMin", 1),
    onnx("CumProd", 1),         onnx("CumSum", 1),
    onnx("ReduceL1", 1),        onnx("ReduceL1", 18).values_set_shape(in(1)),         // axes
    onnx("ReduceL2", 1),        onnx("ReduceL2", 18).values_set_shape(in(1)),         // axes
    onnx("ReduceLogSum", 1),    onnx("ReduceLogSum", 18).values_set_shape(in(1)),     // axes
    onnx("ReduceLogSumExp", 1), onnx("ReduceLogSumExp", 18).values_set_shape(in(1)),  // axes
    onnx("ReduceMax", 1),       onnx("ReduceMax", 18).values_set_shape(in(1)),        // axes
    onnx("ReduceMean", 1),      onnx("ReduceMean", 18).values_set_shape(in(1)),       // axes
    onnx("ReduceMin", 1),       onnx("ReduceMin", 18).values_set_shape(in(1)),        // axes
    onnx("ReduceProd", 1),      onnx("ReduceProd", 18).values_set_shape(in(1)),       // axes
    onnx("ReduceSum", 1),       onnx("ReduceSum", 13).values_set_shape(in(1)),        // axes
    onnx("ReduceSumSquare", 1), onnx("ReduceSumSquare", 18).values_set_shape(in(1)),  // axes
};

}  // namespace

std::span<const OpEntry> reduction_ops() { return kOps; }

}  // namespace onnxlint::ops
