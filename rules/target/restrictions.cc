// The encoded restrictions. Each row cites the exact fragment of the op's note in
// rules/tables/targets/<target>.json (notes are split at "; "). Fragments not encoded here are
// listed, with the reason, in docs/targets.md ("Restrictions not encoded").
#include "rules/target/restrictions.h"

namespace onnxlint::rules::target {
namespace {

using C = Check;
using L = std::vector<std::string_view>;

constexpr std::string_view kTrt = "tensorrt";
constexpr std::string_view kOrtCpu = "onnxruntime-cpu";
constexpr std::string_view kNnapi = "onnxruntime-nnapi";
constexpr std::string_view kMlProgram = "onnxruntime-coreml-mlprogram";
constexpr std::string_view kCoremlNn = "onnxruntime-coreml-neuralnetwork";
constexpr std::string_view kWebnn = "onnxruntime-webnn";
constexpr std::string_view kWebgpu = "onnxruntime-webgpu-jsep";
constexpr std::string_view kQnn = "onnxruntime-qnn";
constexpr std::string_view kOv = "openvino";
constexpr std::string_view kMlir = "onnx-mlir-cpu";
constexpr std::string_view kNnpa = "onnx-mlir-nnpa";
constexpr std::string_view kMs = "com.microsoft";

const L kReduceOps = {"ReduceL1",  "ReduceL2",       "ReduceLogSum", "ReduceLogSumExp",
                      "ReduceMax", "ReduceMean",     "ReduceMin",    "ReduceProd",
                      "ReduceSum", "ReduceSumSquare"};
const L kPool2d = {"AveragePool", "GlobalAveragePool", "GlobalMaxPool", "MaxPool"};
const L kInt4 = {"int4", "uint4"};

std::vector<Restriction> build() {
  std::vector<Restriction> t;
  auto add = [&](std::string_view target, std::string_view domain, std::string_view op, Check c,
                 L args, L values, std::string_view note, std::string_view when_attr = {},
                 std::string_view when_value = {}) {
    t.push_back(Restriction{target, domain, op, c, std::move(args), std::move(values), note,
                            when_attr, when_value});
  };
  auto onnx = [&](std::string_view target, std::string_view op, Check c, L args, L values,
                  std::string_view note, std::string_view when_attr = {},
                  std::string_view when_value = {}) {
    add(target, "", op, c, std::move(args), std::move(values), note, when_attr, when_value);
  };

  // ---- TensorRT 10.15 (onnx-tensorrt docs/operators.md) ----
  onnx(kTrt, "Attention", C::RankIn, {"Q", "K", "V", "attn_mask"}, {"4"},
       "Q/K/V/attn_mask must be 4D");
  onnx(kTrt, "Attention", C::NoInput, {"past_key", "past_value", "nonpad_kv_seqlen"}, {},
       "past_key, past_value, nonpad_kv_seqlen inputs and present_*/qk outputs unsupported");
  onnx(kTrt, "Attention", C::NoOutput, {"present_key", "present_value", "qk_matmul_output"}, {},
       "past_key, past_value, nonpad_kv_seqlen inputs and present_*/qk outputs unsupported");
  onnx(kTrt, "Attention", C::AttrIn, {"qk_matmul_output_mode"}, {"0"},
       "qk_matmul_output_mode and softcap unsupported");
  onnx(kTrt, "Attention", C::AttrIn, {"softcap"}, {"0"},
       "qk_matmul_output_mode and softcap unsupported");
  onnx(kTrt, "AveragePool", C::RankIn, {"X"}, {"4", "5"}, "2D or 3D only");
  onnx(kTrt, "AveragePool", C::AttrAllEqual, {"dilations"}, {"1"}, "dilations absent or all 1");
  onnx(kTrt, "Constant", C::AttrAbsent, {"sparse_value", "value_string", "value_strings"}, {},
       "sparse_value and string-valued attributes unsupported");
  onnx(kTrt, "Constant", C::TypeNotIn, {"output"}, {"string"},
       "sparse_value and string-valued attributes unsupported");
  onnx(kTrt, "CumSum", C::ConstInput, {"axis"}, {}, "axis must be a build-time constant");
  onnx(kTrt, "DeformConv", C::RankIn, {"X"}, {"3", "4"}, "1D or 2D spatial only");
  onnx(kTrt, "DeformConv", C::PadsSymmetric, {"pads"}, {}, "begin/end pads equal per axis");
  onnx(kTrt, "DequantizeLinear", C::ConstAllEqual, {"x_zero_point"}, {"0"},
       "x_zero_point must be 0");
  onnx(kTrt, "Dropout", C::ConstAllEqual, {"training_mode"}, {"0"},
       "is_training must be a constant false");
  onnx(kTrt, "EyeLike", C::StaticShape, {"input"}, {}, "input must have static shape");
  onnx(kTrt, "GridSample", C::RankIn, {"X"}, {"4"}, "4D input only");
  onnx(kTrt, "GRU", C::BidiActivationsMatch, {"activations"}, {"2"},
       "bidirectional: forward/reverse activations must match", "direction", "bidirectional");
  onnx(kTrt, "If", C::IfBranchRanks, {}, {},
       "branch outputs must have equal rank and distinct names");
  onnx(kTrt, "LayerNormalization", C::NoOutput, {"Mean", "InvStdDev"}, {},
       "only output Y supported (no Mean/InvStdDev)");
  onnx(kTrt, "LpPool", C::AttrAllEqual, {"dilations"}, {"1"}, "dilations absent or all 1");
  onnx(kTrt, "LSTM", C::BidiActivationsMatch, {"activations"}, {"3"},
       "bidirectional: activations must match", "direction", "bidirectional");
  onnx(kTrt, "LSTM", C::AttrIn, {"input_forget"}, {"0"}, "input_forget=0");
  onnx(kTrt, "LSTM", C::AttrIn, {"layout"}, {"0"}, "layout=0");
  onnx(kTrt, "MaxPool", C::RankIn, {"X"}, {"4", "5"}, "2D or 3D only");
  onnx(kTrt, "MaxPool", C::NoOutput, {"Indices"}, {}, "Indices output unsupported");
  onnx(kTrt, "MaxPool", C::AttrAllEqual, {"dilations"}, {"1"}, "dilations absent or all 1");
  onnx(kTrt, "OneHot", C::ConstInput, {"depth"}, {}, "depth must be a build-time constant");
  onnx(kTrt, "QuantizeLinear", C::ConstAllEqual, {"y_zero_point"}, {"0"}, "y_zero_point must be 0");
  for (std::string_view op :
       {"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike"}) {
    onnx(kTrt, op, C::AttrAbsent, {"seed"}, {}, "seed ignored");
    t.back().fails_node = false;  // the parser drops the seed: the node converts
  }
  for (std::string_view op : kReduceOps) {
    onnx(kTrt, op, C::ConstInput, {"axes"}, {}, "axes must be an initializer");
  }
  onnx(kTrt, "Resize", C::AttrIn, {"coordinate_transformation_mode"},
       {"half_pixel", "pytorch_half_pixel", "tf_half_pixel_for_nn", "asymmetric", "align_corners"},
       "coordinate modes half_pixel, pytorch_half_pixel, tf_half_pixel_for_nn, asymmetric, "
       "align_corners");
  onnx(kTrt, "Resize", C::AttrIn, {"mode"}, {"nearest", "linear"},
       "modes nearest/linear (no cubic)");
  onnx(kTrt, "Resize", C::AttrIn, {"nearest_mode"},
       {"floor", "ceil", "round_prefer_floor", "round_prefer_ceil"},
       "nearest modes floor, ceil, round_prefer_floor, round_prefer_ceil", "mode", "nearest");
  onnx(kTrt, "Resize", C::AttrIn, {"keep_aspect_ratio_policy"}, {"stretch"},
       "keep_aspect_ratio_policy stretch");
  onnx(kTrt, "Resize", C::AttrIn, {"antialias"}, {"0"}, "no antialias");
  onnx(kTrt, "RNN", C::BidiActivationsMatch, {"activations"}, {"1"},
       "bidirectional: activations must match", "direction", "bidirectional");
  onnx(kTrt, "RotaryEmbedding", C::TypeIn, {"position_ids"}, {"int64"},
       "position_ids must be int64");
  onnx(kTrt, "ScatterND", C::AttrIn, {"reduction"}, {"none"}, "reduction must be none");
  onnx(kTrt, "Squeeze", C::ConstInput, {"axes"}, {}, "axes must resolve to a constant");
  onnx(kTrt, "Unsqueeze", C::ConstInput, {"axes"}, {}, "axes must resolve to a constant");
  onnx(kTrt, "STFT", C::ConstInput, {"frame_step", "window"}, {},
       "frame_step and window must be initializers");
  onnx(kTrt, "TensorScatter", C::RankIn, {"past_cache", "update"}, {"4"},
       "past_cache and update must be 4D");
  // -2 and 2 name the same axis of the required 4D cache.
  onnx(kTrt, "TensorScatter", C::AttrIn, {"axis"}, {"-2", "2"}, "axis must be -2");
  onnx(kTrt, "TopK", C::AttrIn, {"sorted"}, {"1"}, "sorted must be 1");
  onnx(kTrt, "TopK", C::ConstBelow, {"K"}, {"3840"}, "K < 3840");

  // ---- ONNX Runtime CPU EP (notes added from the kernels; rules/tables/targets/README.md) ----
  // The kernel constructors enforce layout_ == 0 in every release with a table (1.16.0 to
  // 1.30); each release refuses the session (tests/ort, ort.target_verdicts@<release>).
  for (std::string_view op : {"GRU", "LSTM", "RNN"}) {
    onnx(kOrtCpu, op, C::AttrIn, {"layout"}, {"0"},
         "layout=0 only (batch-major layout=1 fails when the session is created)");
    t.back().every_release = true;
  }

  // ---- OpenVINO ONNX frontend (a note added from its translator; tables/targets/README.md) ----
  onnx(kOv, "Dropout", C::ConstAllEqual, {"training_mode"}, {"0"},
       "training_mode must be a constant false");

  // ---- ONNX Runtime NNAPI EP (nnapi_supported_ops.md) ----
  for (std::string_view op : kPool2d) onnx(kNnapi, op, C::RankIn, {"X"}, {"4"}, "2D pooling only");
  onnx(kNnapi, "Conv", C::RankIn, {"X"}, {"4"}, "2D only");
  onnx(kNnapi, "Conv", C::ConstInput, {"W", "B"}, {}, "weights and bias must be constant");
  onnx(kNnapi, "DepthToSpace", C::AttrIn, {"mode"}, {"DCR"}, "mode DCR only");
  onnx(kNnapi, "DequantizeLinear", C::ConstInput, {"x_scale", "x_zero_point"}, {},
       "scales and zero points must be constant");
  onnx(kNnapi, "Gather", C::ConstUnlessType, {"indices"}, {"int32"},
       "indices must be constant unless int32");
  onnx(kNnapi, "Gemm", C::ConstUnlessAttr, {"B", "transB"}, {"1"},
       "non-constant B requires transB=1");
  onnx(kNnapi, "Pad", C::AttrIn, {"mode"}, {"constant"}, "constant mode only");
  onnx(kNnapi, "Pad", C::ConstInput, {"pads", "constant_value"}, {},
       "pads and constant_value must be constant");
  onnx(kNnapi, "Pad", C::ConstMin, {"pads"}, {"0"}, "pads must be >= 0");
  onnx(kNnapi, "QLinearConv", C::RankIn, {"x"}, {"4"}, "2D only");
  onnx(kNnapi, "QLinearConv", C::ConstInput,
       {"x_scale", "x_zero_point", "w", "w_scale", "w_zero_point", "y_scale", "y_zero_point", "B"},
       {}, "weights, bias, scales and zero points must be constant");
  onnx(kNnapi, "QLinearMatMul", C::ConstInput,
       {"a_scale", "a_zero_point", "b_scale", "b_zero_point", "y_scale", "y_zero_point"}, {},
       "scales and zero points must be constant");
  onnx(kNnapi, "QuantizeLinear", C::ConstInput, {"y_scale", "y_zero_point"}, {},
       "scales and zero points must be constant");
  onnx(kNnapi, "Resize", C::RankIn, {"X"}, {"4"}, "2D resize only");
  onnx(kNnapi, "Split", C::ConstInput, {"split"}, {}, "split input must be constant if given");
  onnx(kNnapi, "Squeeze", C::ConstInput, {"axes"}, {}, "axes input must be constant");
  onnx(kNnapi, "Unsqueeze", C::ConstInput, {"axes"}, {}, "axes input must be constant");
  // com.microsoft ops have no embedded schema: inputs by position (ORT ContribOperators.md).
  add(kNnapi, kMs, "QLinearAdd", C::ConstInput, {"#1", "#2", "#4", "#5", "#6", "#7"}, {},
      "scales and zero points must be constant");
  add(kNnapi, kMs, "QLinearAveragePool", C::RankIn, {"#0"}, {"4"}, "2D pooling only");
  add(kNnapi, kMs, "QLinearAveragePool", C::ConstInput, {"#1", "#2", "#3", "#4"}, {},
      "scales and zero points must be constant");
  add(kNnapi, kMs, "QLinearSigmoid", C::ConstInput, {"#1", "#2", "#3", "#4"}, {},
      "scales and zero points must be constant");

  // ---- ONNX Runtime CoreML EP, ML Program (coreml_supported_mlprogram_ops.md) ----
  for (std::string_view op : kPool2d) {
    onnx(kMlProgram, op, C::RankIn, {"X"}, {"4"}, "2D pooling only");
  }
  onnx(kMlProgram, "Conv", C::RankIn, {"X"}, {"3", "4"}, "1D or 2D only");
  onnx(kMlProgram, "Conv", C::ConstInput, {"B"}, {}, "bias must be constant if present");
  onnx(kMlProgram, "ConvTranspose", C::ConstInput, {"W", "B"}, {}, "weight and bias constant");
  onnx(kMlProgram, "ConvTranspose", C::AttrNotIn, {"auto_pad"}, {"SAME_UPPER", "SAME_LOWER"},
       "no SAME_UPPER/SAME_LOWER auto_pad");
  onnx(kMlProgram, "ConvTranspose", C::AttrAbsent, {"output_shape"}, {},
       "output_shape unsupported");
  onnx(kMlProgram, "DepthToSpace", C::StaticShape, {"input"}, {},
       "CRD mode needs a fixed input shape", "mode", "CRD");
  onnx(kMlProgram, "GatherND", C::AttrIn, {"batch_dims"}, {"0"}, "batch_dims must be 0");
  onnx(kMlProgram, "Gemm", C::ConstInput, {"B"}, {}, "B must be constant");
  onnx(kMlProgram, "GridSample", C::RankIn, {"X"}, {"4"}, "4D input");
  onnx(kMlProgram, "Pow", C::TypeIn, {"X", "Y"}, {"float"}, "both inputs must be fp32");
  onnx(kMlProgram, "Range", C::TypeIn, {"start", "limit", "delta"}, {"int32", "float16", "float"},
       "int32/fp16/fp32");
  onnx(kMlProgram, "Slice", C::ConstInput, {"starts", "ends", "axes", "steps"}, {},
       "starts/ends/axes/steps must be constant initializers");
  onnx(kMlProgram, "Split", C::ConstInput, {"split"}, {}, "split sizes must be constant if given");
  onnx(kMlProgram, "Tile", C::RankAtMost, {"input"}, {"5"}, "rank <= 5");

  // ---- ONNX Runtime CoreML EP, NeuralNetwork (coreml_supported_neuralnetwork_ops.md) ----
  for (std::string_view op : kPool2d)
    onnx(kCoremlNn, op, C::RankIn, {"X"}, {"4"}, "2D pooling only");
  onnx(kCoremlNn, "Conv", C::RankIn, {"X"}, {"3", "4"}, "1D or 2D only");
  onnx(kCoremlNn, "Conv", C::ConstInput, {"W", "B"}, {}, "weights and bias must be constant");
  onnx(kCoremlNn, "DepthToSpace", C::AttrIn, {"mode"}, {"DCR"}, "mode DCR only");
  onnx(kCoremlNn, "Gather", C::RankAtLeast, {"indices"}, {"1"}, "scalar indices unsupported");
  onnx(kCoremlNn, "Gemm", C::ConstInput, {"B"}, {}, "B must be constant");
  onnx(kCoremlNn, "MatMul", C::ConstInput, {"B"}, {}, "B must be constant");
  onnx(kCoremlNn, "Pad", C::AttrIn, {"mode"}, {"constant"}, "constant mode, last two dims only");
  onnx(kCoremlNn, "Pad", C::PadsLastDims, {"pads"}, {"2"}, "constant mode, last two dims only");
  onnx(kCoremlNn, "Pad", C::ConstInput, {"pads", "constant_value", "axes"}, {},
       "pads/constant_value (and axes) must be constant");
  onnx(kCoremlNn, "Pow", C::TypeIn, {"X", "Y"}, {"float"}, "both inputs must be fp32");
  onnx(kCoremlNn, "PRelu", C::ConstInput, {"slope"}, {},
       "slope constant, shape [C,1,1] or single element");
  onnx(kCoremlNn, "Resize", C::RankIn, {"X"}, {"4"}, "4D");
  onnx(kCoremlNn, "Resize", C::AttrIn, {"coordinate_transformation_mode"}, {"asymmetric"},
       "asymmetric coords");
  onnx(kCoremlNn, "Resize", C::AttrIn, {"mode"}, {"linear", "nearest"}, "linear or nearest(floor)");
  onnx(kCoremlNn, "Resize", C::AttrIn, {"nearest_mode"}, {"floor"}, "linear or nearest(floor)",
       "mode", "nearest");
  onnx(kCoremlNn, "Resize", C::AttrIn, {"exclude_outside"}, {"0"}, "exclude_outside=0");
  onnx(kCoremlNn, "Resize", C::ConstInput, {"scales", "sizes"}, {}, "scales/sizes constant");
  onnx(kCoremlNn, "Shape", C::AttrIn, {"start"}, {"0"}, "non-default start unsupported");
  onnx(kCoremlNn, "Shape", C::AttrAbsent, {"end"}, {}, "end unsupported");
  onnx(kCoremlNn, "Slice", C::ConstInput, {"starts", "ends", "axes", "steps"}, {},
       "starts/ends/axes/steps must be constant");
  onnx(kCoremlNn, "Split", C::ConstInput, {"split"}, {}, "split sizes must be constant if given");

  // ---- ONNX Runtime Web, WebNN EP (webnn-operators.md) ----
  onnx(kWebnn, "AveragePool", C::RankIn, {"X"}, {"4"}, "4D input, 2D kernel only");
  onnx(kWebnn, "BatchNormalization", C::AttrIn, {"training_mode"}, {"0"},
       "inference mode (training_mode=0), single output");
  onnx(kWebnn, "BatchNormalization", C::MaxOutputs, {}, {"1"},
       "inference mode (training_mode=0), single output");
  onnx(kWebnn, "Conv", C::RankIn, {"X", "W"}, {"3", "4"}, "3D or 4D input and weight only");
  onnx(kWebnn, "ConvInteger", C::RankIn, {"x", "w"}, {"3", "4"}, "3D or 4D input and weight only");
  onnx(kWebnn, "ConvTranspose", C::RankIn, {"X", "W"}, {"3", "4"},
       "3D or 4D input and weight only");
  onnx(kWebnn, "CumSum", C::ConstInput, {"axis"}, {}, "axis input must be constant");
  onnx(kWebnn, "Dropout", C::ConstAllEqual, {"training_mode"}, {"0"}, "inference mode only");
  onnx(kWebnn, "Expand", C::ConstInput, {"shape"}, {}, "shape input must be constant");
  onnx(kWebnn, "GatherND", C::AttrIn, {"batch_dims"}, {"0"}, "batch_dims must be 0");
  onnx(kWebnn, "GlobalAveragePool", C::RankIn, {"X"}, {"4"}, "4D input only");
  onnx(kWebnn, "GlobalMaxPool", C::RankIn, {"X"}, {"4"}, "4D input only");
  onnx(kWebnn, "GlobalLpPool", C::RankIn, {"X"}, {"4"}, "4D input");
  onnx(kWebnn, "GlobalLpPool", C::AttrIn, {"p"}, {"2"}, "p=2 only");
  for (std::string_view op : {"GRU", "LSTM"}) {
    onnx(kWebnn, op, C::AttrIn, {"layout"}, {"0"}, "layout=0");
    onnx(kWebnn, op, C::AttrAbsent, {"clip"}, {}, "no clip");
    onnx(kWebnn, op, C::AttrIn, {"activations"}, {"Relu", "Tanh", "Sigmoid"},
         "activations Relu/Tanh/Sigmoid, same both directions");
    onnx(kWebnn, op, C::BidiActivationsMatch, {"activations"}, {op == "GRU" ? "2" : "3"},
         "activations Relu/Tanh/Sigmoid, same both directions", "direction", "bidirectional");
    onnx(kWebnn, op, C::ConstInput, {"sequence_lens"}, {},
         "sequence_lens constant and equal to X dim 0");
  }
  onnx(kWebnn, "LSTM", C::AttrIn, {"input_forget"}, {"0"}, "input_forget=0");
  onnx(kWebnn, "LpPool", C::RankIn, {"X"}, {"4"}, "4D input, 2D kernel");
  onnx(kWebnn, "LpPool", C::AttrIn, {"p"}, {"2"}, "p=2 only");
  onnx(kWebnn, "MaxPool", C::RankIn, {"X"}, {"4"}, "4D input, 2D kernel");
  onnx(kWebnn, "MaxPool", C::AttrIn, {"storage_order"}, {"0"}, "storage_order must be 0");
  onnx(kWebnn, "MaxPool", C::NoOutput, {"Indices"}, {}, "single output");
  onnx(kWebnn, "Pad", C::AttrNotIn, {"mode"}, {"wrap"}, "wrap mode unsupported");
  for (std::string_view op : kReduceOps) {
    onnx(kWebnn, op, C::ConstInput, {"axes"}, {}, "axes input must be constant");
  }
  onnx(kWebnn, "Reshape", C::ConstInput, {"shape"}, {}, "shape input constant");
  onnx(kWebnn, "Reshape", C::ConstNotValue, {"shape"}, {"0"}, "zeros in shape unsupported");
  onnx(kWebnn, "Resize", C::RankIn, {"X"}, {"4"}, "4D");
  onnx(kWebnn, "Resize", C::AttrIn, {"antialias"}, {"0"}, "antialias=0");
  onnx(kWebnn, "Resize", C::AttrIn, {"exclude_outside"}, {"0"}, "exclude_outside=0");
  onnx(kWebnn, "Resize", C::AttrIn, {"keep_aspect_ratio_policy"}, {"stretch"},
       "keep_aspect_ratio_policy stretch");
  onnx(kWebnn, "Resize", C::AttrIn, {"mode"}, {"linear", "nearest"}, "linear/nearest");
  onnx(kWebnn, "Resize", C::ConstInput, {"scales", "sizes"}, {}, "scales/sizes constant");
  onnx(kWebnn, "ScatterElements", C::AttrIn, {"reduction"}, {"none"}, "reduction none only");
  onnx(kWebnn, "ScatterND", C::AttrIn, {"reduction"}, {"none"}, "reduction none only");
  onnx(kWebnn, "Slice", C::ConstInput, {"starts", "ends", "axes", "steps"}, {},
       "starts/ends/axes/steps must be constant");
  onnx(kWebnn, "Split", C::ConstInput, {"split"}, {}, "split input must be constant");
  onnx(kWebnn, "Squeeze", C::ConstInput, {"axes"}, {}, "axes input must be constant");
  onnx(kWebnn, "Tile", C::ConstInput, {"repeats"}, {}, "repeats input must be constant");
  onnx(kWebnn, "Trilu", C::ConstInput, {"k"}, {}, "k input must be constant");
  add(kWebnn, kMs, "GroupQueryAttention", C::ConstInput, {"#6"}, {},
      "total_sequence_length constant");
  add(kWebnn, kMs, "MatMulNBits", C::ConstInput, {"#1", "#3"}, {}, "B and zero_points constant");
  add(kWebnn, kMs, "MatMulNBits", C::NoInput, {"#4"}, {}, "g_idx unsupported");
  add(kWebnn, kMs, "MatMulNBits", C::AttrIn, {"bits"}, {"4"}, "bits=4 only");

  // ---- ONNX Runtime Web, WebGPU (JSEP) EP (webgpu-operators.md) ----
  onnx(kWebgpu, "Conv", C::RankAtMost, {"X"}, {"4"}, "3D conv unsupported");
  onnx(kWebgpu, "ConvTranspose", C::RankAtMost, {"X"}, {"4"}, "3D unsupported");

  // ---- ONNX Runtime QNN EP (QNN-ExecutionProvider.md) ----
  onnx(kQnn, "Gather", C::ConstMin, {"indices"}, {"0"}, "non-negative indices only");
  onnx(kQnn, "GRU", C::AttrIn, {"layout"}, {"0"}, "layout=0");
  onnx(kQnn, "GRU", C::NoInput, {"sequence_lens"}, {}, "fixed-length sequences");
  onnx(kQnn, "GRU", C::AttrAbsent, {"clip"}, {}, "no clip");
  onnx(kQnn, "GRU", C::NoInput, {"initial_h"}, {}, "no initial state input");
  onnx(kQnn, "If", C::MaxOutputs, {}, {"1"}, "one output per branch with equal shape/dtype");
  onnx(kQnn, "IsInf", C::TypeIn, {"X"}, {"float", "float16"}, "float32/float16 input");
  onnx(kQnn, "LpNormalization", C::AttrIn, {"p"}, {"2"}, "p=2 only");
  onnx(kQnn, "LpPool", C::AttrIn, {"p"}, {"1", "2"}, "p in {1,2}");
  onnx(kQnn, "NonMaxSuppression", C::ConstInput,
       {"max_output_boxes_per_class", "iou_threshold", "score_threshold"}, {},
       "box-count/iou/score thresholds static constants");
  onnx(kQnn, "NonMaxSuppression", C::ConstMin, {"max_output_boxes_per_class"}, {"1"},
       "box count > 0");
  onnx(kQnn, "NonMaxSuppression", C::AttrIn, {"center_point_box"}, {"0"}, "center_point_box=0");
  onnx(kQnn, "OneHot", C::ConstInput, {"depth", "values"}, {}, "depth and values constant");
  onnx(kQnn, "OneHot", C::TypeIn, {"indices"}, {"int32", "int64", "uint32"},
       "indices int32/int64/uint32");
  onnx(kQnn, "QLinearMatMul", C::Scalar,
       {"a_scale", "a_zero_point", "b_scale", "b_zero_point", "y_scale", "y_zero_point"}, {},
       "per-tensor scale/zero-point");
  onnx(kQnn, "QLinearMatMul", C::TypeIn, {"a_scale", "b_scale", "y_scale"},
       {"float", "float16", "bfloat16"}, "scale fp32/fp16/bf16");
  onnx(kQnn, "QLinearMatMul", C::TypeIn, {"a", "b"}, {"int8", "uint8"}, "int8/uint8 data");
  onnx(kQnn, "Range", C::ConstInput, {"start", "limit", "delta"}, {},
       "start/limit/delta must be constant initializers");
  add(kQnn, kMs, "GatherBlockQuantized", C::AttrIn, {"bits"}, {"4"}, "4-bit");
  add(kQnn, kMs, "GatherBlockQuantized", C::AttrIn, {"quantize_axis"}, {"1"}, "quantize_axis=1");
  add(kQnn, kMs, "GroupQueryAttention", C::AttrIn, {"rotary_interleaved"}, {"0"},
      "rotary_interleaved=0");

  // ---- onnx-mlir, CPU (SupportedONNXOps-cpu.md) ----
  onnx(kMlir, "Add", C::TypeNotIn, {"*"}, {"int8", "int16"}, "no int8/int16 (short integer) types");
  for (std::string_view op : {"Clip", "Div", "Mul", "Sub"}) {
    onnx(kMlir, op, C::TypeNotIn, {"*"}, {"int8", "int16"}, "no int8/int16 types");
  }
  onnx(kMlir, "BatchNormalization", C::AttrIn, {"training_mode"}, {"0"}, "inference only");
  onnx(kMlir, "BatchNormalization", C::MaxOutputs, {}, {"1"}, "inference only");
  for (std::string_view op :
       {"Cast", "CastLike", "Constant", "ConstantOfShape", "DequantizeLinear", "Flatten",
        "Identity", "If", "Loop", "Pad", "QuantizeLinear", "Reshape", "Scan", "Shape", "Size",
        "Squeeze", "Transpose", "Unsqueeze"}) {
    onnx(kMlir, op, C::TypeNotIn, {"*"}, kInt4, "no int4/uint4");
  }
  onnx(kMlir, "ConvTranspose", C::ConstInput, {"W"}, {}, "W must be constant with static shape");
  onnx(kMlir, "ConvTranspose", C::StaticShape, {"X"}, {},
       "X shape must be static when output_shape is used", "output_shape", "*");
  onnx(kMlir, "DequantizeLinear", C::Scalar, {"x_scale"}, {}, "per-tensor only (no per-axis)");
  onnx(kMlir, "Dropout", C::NoOutput, {"mask"}, {}, "no mask output");
  onnx(kMlir, "Dropout", C::ConstAllEqual, {"training_mode"}, {"0"}, "inference only");
  onnx(kMlir, "Einsum", C::TypeNotIn, {"*"}, {"int8", "int16", "uint8", "uint16"},
       "only types supported by ReduceSum/MatMul (no integers narrower than 32 bit)");
  onnx(kMlir, "Einsum", C::StaticShape, {"*"}, {}, "static input shapes");
  onnx(kMlir, "Expand", C::StaticShape, {"shape"}, {}, "shape input must have static shape");
  onnx(kMlir, "GridSample", C::RankIn, {"X"}, {"4", "5"}, "2D/3D only");
  onnx(kMlir, "GridSample", C::AttrIn, {"padding_mode"}, {"zeros", "border"},
       "padding modes zeros or border");
  for (std::string_view op : {"GRU", "LSTM", "RNN"}) {
    onnx(kMlir, op, C::ConstInput, {"W", "R", "B"}, {}, "W, R, B must be constants");
  }
  onnx(kMlir, "IsInf", C::TypeIn, {"X"}, {"float", "double"}, "float32/float64 only (no float16)");
  onnx(kMlir, "Loop", C::StaticShape, {"*"}, {}, "static input shapes");
  onnx(kMlir, "MaxPool", C::NoOutput, {"Indices"}, {}, "no Indices output (single output)");
  onnx(kMlir, "MaxPool", C::TypeNotIn, {"*"}, {"int8", "int16", "uint8", "uint16"},
       "no short integer types");
  for (std::string_view op : {"Max", "Min"}) {
    onnx(kMlir, op, C::TypeNotIn, {"*"}, {"uint8", "uint16", "uint32", "uint64"},
         "no unsigned ints");
  }
  // float16 is allowed on some platforms by the op's next note fragment.
  onnx(kMlir, "Mod", C::TypeIn, {"A", "B"}, {"float", "double", "float16"}, "float/double only");
  onnx(kMlir, "Pad", C::NoInput, {"axes"}, {}, "axes input unsupported");
  onnx(kMlir, "Pow", C::TypeNotIn, {"X", "Z"},
       {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"},
       "integer types unsupported");
  onnx(kMlir, "QLinearMatMul", C::TypeIn, {"a", "b"}, {"int8", "uint8"},
       "int8/uint8 with float32 scales only");
  onnx(kMlir, "QLinearMatMul", C::TypeIn, {"a_scale", "b_scale", "y_scale"}, {"float"},
       "int8/uint8 with float32 scales only");
  onnx(kMlir, "QuantizeLinear", C::Scalar, {"y_scale"}, {}, "per-tensor only");
  onnx(kMlir, "QuantizeLinear", C::TypeNotIn, {"y_zero_point", "y"}, {"int8"},
       "int8 output unsupported");
  for (std::string_view op : kReduceOps) {
    if (op == "ReduceSum" || op == "ReduceSumSquare") {
      onnx(kMlir, op, C::AxesGiven, {}, {}, "default axes and keepdims=0 unsupported");
      onnx(kMlir, op, C::AttrIn, {"keepdims"}, {"1"}, "default axes and keepdims=0 unsupported");
    } else {
      onnx(kMlir, op, C::AttrIn, {"keepdims"}, {"1"}, "keepdims=0 unsupported");
    }
  }
  onnx(kMlir, "Reshape", C::AttrIn, {"allowzero"}, {"0"}, "allowzero unsupported");
  onnx(kMlir, "Resize", C::AttrIn, {"mode"}, {"nearest"},
       "no linear/cubic modes, crop, pytorch_half_pixel or floor");
  onnx(kMlir, "Resize", C::AttrNotIn, {"coordinate_transformation_mode"},
       {"tf_crop_and_resize", "pytorch_half_pixel"},
       "no linear/cubic modes, crop, pytorch_half_pixel or floor");
  onnx(kMlir, "Resize", C::AttrNotIn, {"nearest_mode"}, {"floor"},
       "no linear/cubic modes, crop, pytorch_half_pixel or floor");
  onnx(kMlir, "Resize", C::AttrIn, {"antialias"}, {"0"},
       "antialias, axes, keep_aspect_ratio_policy unsupported");
  onnx(kMlir, "Resize", C::AttrAbsent, {"axes"}, {},
       "antialias, axes, keep_aspect_ratio_policy unsupported");
  onnx(kMlir, "Resize", C::AttrIn, {"keep_aspect_ratio_policy"}, {"stretch"},
       "antialias, axes, keep_aspect_ratio_policy unsupported");
  onnx(kMlir, "Resize", C::ConstInput, {"scales", "sizes"}, {}, "scales/sizes static");
  onnx(kMlir, "ScatterND", C::AttrNotIn, {"reduction"}, {"add", "mul"},
       "reduction add/mul unsupported");
  onnx(kMlir, "Shape", C::AttrAbsent, {"start", "end"}, {}, "start/end attributes unsupported");
  onnx(kMlir, "Slice", C::ConstInput, {"axes"}, {}, "axes must be constant");
  onnx(kMlir, "Split", C::ConstNotValue, {"split"}, {"0"}, "zero-size splits unsupported");
  onnx(kMlir, "TopK", C::StaticShape, {"K"}, {}, "K must have static shape");
  onnx(kMlir, "Upsample", C::StaticShape, {"X", "Y"}, {}, "X and Y must have static shape");

  // ---- onnx-mlir, IBM z NNPA (SupportedONNXOps-NNPA.md) ----
  for (std::string_view op : {"Add", "Div", "Max", "Min", "Mul", "Sub"}) {
    onnx(kNnpa, op, C::SameShapes, {}, {}, "same-shape inputs only (no broadcasting)");
  }
  onnx(kNnpa, "AveragePool", C::AttrNotIn, {"auto_pad"}, {"SAME_LOWER"},
       "auto_pad NOTSET(pads equivalent to VALID/SAME_UPPER), VALID or SAME_UPPER");
  onnx(kNnpa, "AveragePool", C::AttrIn, {"ceil_mode"}, {"0"}, "ceil_mode=0");
  onnx(kNnpa, "AveragePool", C::RankIn, {"X", "Y"}, {"4"}, "4D input/output");
  onnx(kNnpa, "AveragePool", C::AttrIn, {"count_include_pad"}, {"0"}, "count_include_pad=0");
  onnx(kNnpa, "BatchNormalization", C::RankIn, {"X", "Y"}, {"4"}, "4D NCHW input/output");
  onnx(kNnpa, "Conv", C::AttrNotIn, {"auto_pad"}, {"SAME_LOWER"},
       "auto_pad NOTSET(VALID/SAME_UPPER-equivalent pads), VALID or SAME_UPPER");
  onnx(kNnpa, "ConvTranspose", C::RankIn, {"X"}, {"4"}, "2D only (no 1D/3D)");
  onnx(kNnpa, "ConvTranspose", C::AttrAllEqual, {"dilations"}, {"1"}, "default dilations");
  onnx(kNnpa, "Exp", C::RankIn, {"input"}, {"4"}, "4D input");
  onnx(kNnpa, "Log", C::RankIn, {"input"}, {"4"}, "4D input");
  for (std::string_view op : {"Gelu", "LeakyRelu", "Relu", "Sigmoid", "Sqrt", "Tanh"}) {
    onnx(kNnpa, op, C::RankAtMost, {"#0"}, {"4"}, "rank <= 4");
  }
  onnx(kNnpa, "Gemm", C::AttrIn, {"alpha"}, {"1"}, "alpha=beta=1");
  onnx(kNnpa, "Gemm", C::AttrIn, {"beta"}, {"1"}, "alpha=beta=1");
  onnx(kNnpa, "Gemm", C::RankIn, {"C"}, {"1", "2"}, "C rank 1 or 2 (rank-1 C sized like B dim 1)");
  onnx(kNnpa, "GlobalAveragePool", C::RankIn, {"X"}, {"4"}, "4D NCHW input");
  onnx(kNnpa, "MatMul", C::RankAtLeast, {"A", "B"}, {"2"}, "both inputs rank >= 2");
  onnx(kNnpa, "MaxPool", C::AttrNotIn, {"auto_pad"}, {"SAME_LOWER"},
       "auto_pad NOTSET(VALID/SAME_UPPER-equivalent pads), VALID or SAME_UPPER");
  onnx(kNnpa, "MaxPool", C::AttrIn, {"ceil_mode"}, {"0"}, "ceil_mode=0");
  onnx(kNnpa, "MaxPool", C::RankIn, {"X", "Y"}, {"4"}, "4D input/output");
  onnx(kNnpa, "Pow", C::ConstIntScalarAtMost, {"Y"}, {"64"},
       "exponent must be a scalar integer <= 64");
  onnx(kNnpa, "QLinearMatMul", C::TypeIn, {"a_zero_point", "b_zero_point", "y_zero_point"},
       {"int8", "uint8"}, "int8/uint8 zero points, float32 scales");
  onnx(kNnpa, "QLinearMatMul", C::TypeIn, {"a_scale", "b_scale", "y_scale"}, {"float"},
       "int8/uint8 zero points, float32 scales");
  for (std::string_view op : {"ReduceMax", "ReduceMin"}) {
    onnx(kNnpa, op, C::AttrIn, {"keepdims"}, {"1"}, "keepdims=1");
    onnx(kNnpa, op, C::AttrIn, {"noop_with_empty_axes"}, {"0"}, "noop_with_empty_axes=0");
  }
  onnx(kNnpa, "ReduceMean", C::AttrIn, {"keepdims"}, {"1"}, "keepdims=1");
  onnx(kNnpa, "ReduceMean", C::RankIn, {"data"}, {"4"}, "4D input with axes [2,3]");
  onnx(kNnpa, "Softmax", C::AxisIsLast, {"axis"}, {}, "axis must be the last dimension");
  onnx(kNnpa, "Sum", C::SameShapes, {}, {}, "same-shape inputs only");
  onnx(kNnpa, "Sum", C::MinInputs, {}, {"2"}, "single input unsupported");
  return t;
}

}  // namespace

bool applies_to(const Restriction& r, const TargetInfo& t) {
  return r.target == t.id || (r.every_release && r.target == t.family);
}

const std::vector<Restriction>& restriction_table() {
  static const std::vector<Restriction> table = build();
  return table;
}

std::string_view to_string(Check check) {
  switch (check) {
    case Check::ConstInput:
      return "const-input";
    case Check::NoInput:
      return "no-input";
    case Check::NoOutput:
      return "no-output";
    case Check::MaxOutputs:
      return "max-outputs";
    case Check::MinInputs:
      return "min-inputs";
    case Check::AttrIn:
      return "attr-in";
    case Check::AttrNotIn:
      return "attr-not-in";
    case Check::AttrAbsent:
      return "attr-absent";
    case Check::AttrAllEqual:
      return "attr-all-equal";
    case Check::RankIn:
      return "rank-in";
    case Check::RankAtMost:
      return "rank-at-most";
    case Check::RankAtLeast:
      return "rank-at-least";
    case Check::StaticShape:
      return "static-shape";
    case Check::TypeIn:
      return "type-in";
    case Check::TypeNotIn:
      return "type-not-in";
    case Check::ConstAllEqual:
      return "const-all-equal";
    case Check::ConstMin:
      return "const-min";
    case Check::ConstBelow:
      return "const-below";
    case Check::ConstNotValue:
      return "const-not-value";
    case Check::ConstIntScalarAtMost:
      return "const-int-scalar-at-most";
    case Check::Scalar:
      return "scalar";
    case Check::SameShapes:
      return "same-shapes";
    case Check::BidiActivationsMatch:
      return "bidi-activations-match";
    case Check::PadsSymmetric:
      return "pads-symmetric";
    case Check::PadsLastDims:
      return "pads-last-dims";
    case Check::AxisIsLast:
      return "axis-is-last";
    case Check::IfBranchRanks:
      return "if-branch-ranks";
    case Check::ConstUnlessType:
      return "const-unless-type";
    case Check::ConstUnlessAttr:
      return "const-unless-attr";
    case Check::AxesGiven:
      return "axes-given";
  }
  return "unknown";
}

}  // namespace onnxlint::rules::target
