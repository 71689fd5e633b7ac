// The per-op semantics table used by the provenance analysis: which inputs' *values* set an
// op's output shapes, which ops have data-dependent output shapes by nature, which ops turn a
// shape into a value. Facts from the ONNX operator specification (ONNX 1.22, opset 27, plus
// ai.onnx.ml, ai.onnx.preview and ai.onnx.preview.training); an entry applies from its
// since_version until the next entry of the same op. tests/analysis/op_semantics_test.cc
// checks that every op of the embedded operator table is covered and that every input named
// like a shape argument ("shape", "axes", "pads", "K", ...) is marked as one.
#include <onnxlint/provenance.h>

#include <algorithm>
#include <tuple>
#include <vector>

namespace onnxlint {

namespace {

using SB = ShapeBehavior;
using VB = ValueBehavior;

constexpr uint32_t in(int a) { return 1u << a; }
constexpr uint32_t in(int a, int b) { return in(a) | in(b); }
constexpr uint32_t in(int a, int b, int c) { return in(a) | in(b) | in(c); }

// Ops whose output shapes follow from input shapes and attributes and whose values follow
// from input values: the bulk of ONNX.
constexpr std::string_view kPlainOnnx[] = {
    "Abs",
    "Acos",
    "Acosh",
    "Add",
    "And",
    "ArgMax",
    "ArgMin",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "Attention",
    "AveragePool",
    "BatchNormalization",
    "BitCast",
    "BitShift",
    "BitwiseAnd",
    "BitwiseNot",
    "BitwiseOr",
    "BitwiseXor",
    "Cast",
    "CastLike",
    "CausalConvWithState",
    "Ceil",
    "Celu",
    "Clip",
    "Concat",
    "ConcatFromSequence",
    "Conv",
    "ConvInteger",
    "ConvTranspose",
    "Cos",
    "Cosh",
    "CumProd",
    "CumSum",
    "DeformConv",
    "DepthToSpace",
    "DequantizeLinear",
    "Det",
    "Div",
    "Dropout",
    "DynamicQuantizeLinear",
    "Einsum",
    "Elu",
    "Equal",
    "Erf",
    "Exp",
    "Flatten",
    "Floor",
    "GRU",
    "Gather",
    "GatherElements",
    "GatherND",
    "Gelu",
    "Gemm",
    "GlobalAveragePool",
    "GlobalLpPool",
    "GlobalMaxPool",
    "Greater",
    "GreaterOrEqual",
    "GridSample",
    "GroupNormalization",
    "HardSigmoid",
    "HardSwish",
    "Hardmax",
    "Identity",
    "InstanceNormalization",
    "IsInf",
    "IsNaN",
    "LRN",
    "LSTM",
    "LayerNormalization",
    "LeakyRelu",
    "Less",
    "LessOrEqual",
    "LinearAttention",
    "Log",
    "LogSoftmax",
    "LpNormalization",
    "LpPool",
    "MatMul",
    "MatMulInteger",
    "Max",
    "MaxPool",
    "MaxRoiPool",
    "Mean",
    "MeanVarianceNormalization",
    "Min",
    "Mish",
    "Mod",
    "Mul",
    "Neg",
    "NegativeLogLikelihoodLoss",
    "Not",
    "Optional",
    "OptionalGetElement",
    "OptionalHasElement",
    "Or",
    "PRelu",
    "Pow",
    "QLinearConv",
    "QLinearMatMul",
    "QuantizeLinear",
    "RMSNormalization",
    "RNN",
    "Reciprocal",
    "RegexFullMatch",
    "Relu",
    "ReverseSequence",
    "RoiAlign",
    "RotaryEmbedding",
    "Round",
    "Scatter",
    "ScatterElements",
    "ScatterND",
    "Selu",
    "SequenceAt",
    "SequenceConstruct",
    "SequenceErase",
    "SequenceInsert",
    "Shrink",
    "Sigmoid",
    "Sign",
    "Sin",
    "Sinh",
    "Softmax",
    "SoftmaxCrossEntropyLoss",
    "Softplus",
    "Softsign",
    "SpaceToDepth",
    "Sqrt",
    "StringConcat",
    "Sub",
    "Sum",
    "Swish",
    "Tan",
    "Tanh",
    "TensorScatter",
    "TfIdfVectorizer",
    "ThresholdedRelu",
    "Transpose",
    "Trilu",
    "Where",
    "Xor",
};

constexpr std::string_view kPlainMl[] = {
    "ArrayFeatureExtractor",
    "Binarizer",
    "CastMap",
    "CategoryMapper",
    "DictVectorizer",
    "FeatureVectorizer",
    "Imputer",
    "LabelEncoder",
    "LinearClassifier",
    "LinearRegressor",
    "Normalizer",
    "OneHotEncoder",
    "SVMClassifier",
    "SVMRegressor",
    "Scaler",
    "TreeEnsemble",
    "TreeEnsembleClassifier",
    "TreeEnsembleRegressor",
    "ZipMap",
};

constexpr std::string_view kPlainPreview[] = {"FlexAttention"};
constexpr std::string_view kPlainTraining[] = {"Adagrad", "Adam", "Gradient", "Momentum"};

// ReduceX took `axes` as an attribute until opset 18 (ReduceSum: 13), then as input 1.
constexpr std::string_view kReduceOps[] = {
    "ReduceL1",   "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
    "ReduceMean", "ReduceMin", "ReduceProd",   "ReduceSumSquare",
};

OpSemantics E(std::string_view op, int since, SB shape, VB value = VB::Propagate,
              uint32_t value_inputs = 0, bool input_shapes = true, uint32_t affected = ~0u) {
  OpSemantics s;
  s.domain = "";
  s.op = op;
  s.since_version = since;
  s.shape = shape;
  s.value = value;
  s.value_inputs = value_inputs;
  s.input_shapes = input_shapes;
  s.affected_outputs = affected;
  return s;
}

std::vector<OpSemantics> build_table() {
  std::vector<OpSemantics> t;
  for (std::string_view op : kPlainOnnx) t.push_back(E(op, 1, SB::FromInputShapes));
  for (std::string_view op : kReduceOps) {
    t.push_back(E(op, 1, SB::FromInputShapes));
    t.push_back(E(op, 18, SB::FromValues, VB::Propagate, in(1)));  // axes
  }
  t.push_back(E("ReduceSum", 1, SB::FromInputShapes));
  t.push_back(E("ReduceSum", 13, SB::FromValues, VB::Propagate, in(1)));  // axes

  // Inputs whose values set output shapes.
  t.push_back(E("AffineGrid", 20, SB::FromValues, VB::Propagate, in(1)));  // size
  for (std::string_view w : {"BlackmanWindow", "HammingWindow", "HannWindow"}) {
    t.push_back(E(w, 17, SB::FromValues, VB::Propagate, in(0), false));  // size
  }
  t.push_back(E("CenterCropPad", 18, SB::FromValues, VB::Propagate, in(1)));  // shape
  t.push_back(E("Col2Im", 18, SB::FromValues, VB::Propagate, in(1, 2)));      // image/block shape
  t.push_back(E("ConstantOfShape", 9, SB::FromValues, VB::Propagate, in(0), false));  // input
  t.push_back(E("DFT", 17, SB::FromValues, VB::Propagate, in(1)));                    // dft_length
  t.push_back(E("DFT", 20, SB::FromValues, VB::Propagate, in(1, 2)));    // dft_length, axis
  t.push_back(E("Expand", 8, SB::FromValues, VB::Propagate, in(1)));     // shape
  t.push_back(E("MaxUnpool", 9, SB::FromValues, VB::Propagate, in(2)));  // output_shape
  // num_mel_bins and dft_length set [dft_length/2+1, num_mel_bins].
  t.push_back(E("MelWeightMatrix", 17, SB::FromValues, VB::Propagate, in(0, 1), false));
  t.push_back(E("OneHot", 9, SB::FromValues, VB::Propagate, in(1)));   // depth
  t.push_back(E("Pad", 1, SB::FromInputShapes));                       // pads attribute
  t.push_back(E("Pad", 11, SB::FromValues, VB::Propagate, in(1)));     // pads
  t.push_back(E("Pad", 18, SB::FromValues, VB::Propagate, in(1, 3)));  // pads, axes
  t.push_back(E("Range", 11, SB::FromValues, VB::Propagate, in(0, 1, 2), false));
  t.push_back(E("Reshape", 1, SB::FromInputShapes));                      // shape attribute
  t.push_back(E("Reshape", 5, SB::FromValues, VB::Propagate, in(1)));     // shape
  t.push_back(E("Resize", 10, SB::FromValues, VB::Propagate, in(1)));     // scales
  t.push_back(E("Resize", 11, SB::FromValues, VB::Propagate, in(2, 3)));  // scales, sizes
  t.push_back(E("STFT", 17, SB::FromValues, VB::Propagate, in(1, 3)));    // frame_step, length
  t.push_back(E("Slice", 1, SB::FromInputShapes));  // starts/ends/axes attributes
  t.push_back(E("Slice", 10, SB::FromValues, VB::Propagate, in(1, 2, 3) | in(4)));
  t.push_back(E("Split", 1, SB::FromValues, VB::Propagate, in(1)));   // optional split input
  t.push_back(E("Split", 2, SB::FromInputShapes));                    // split attribute
  t.push_back(E("Split", 13, SB::FromValues, VB::Propagate, in(1)));  // split
  t.push_back(E("SplitToSequence", 11, SB::FromValues, VB::Propagate, in(1)));  // split
  t.push_back(E("Squeeze", 1, SB::FromInputShapes));
  t.push_back(E("Squeeze", 13, SB::FromValues, VB::Propagate, in(1)));  // axes
  t.push_back(E("Tile", 1, SB::FromValues, VB::Propagate, in(1, 2)));   // tiles, axis
  t.push_back(E("Tile", 6, SB::FromValues, VB::Propagate, in(1)));      // repeats
  t.push_back(E("TopK", 1, SB::FromInputShapes));                       // k attribute
  t.push_back(E("TopK", 10, SB::FromValues, VB::Propagate, in(1)));     // K
  t.push_back(E("Unsqueeze", 1, SB::FromInputShapes));
  t.push_back(E("Unsqueeze", 13, SB::FromValues, VB::Propagate, in(1)));  // axes
  t.push_back(E("Upsample", 1, SB::FromInputShapes));                     // scales attribute
  t.push_back(E("Upsample", 9, SB::FromValues, VB::Propagate, in(1)));    // scales

  // Output shapes that depend on input values by the op's nature.
  t.push_back(E("Compress", 9, SB::DataDependent, VB::Propagate, in(1)));       // condition
  t.push_back(E("ImageDecoder", 20, SB::DataDependent, VB::Propagate, in(0)));  // image size
  t.push_back(E("NonMaxSuppression", 10, SB::DataDependent, VB::Propagate, in(0, 1, 2) | in(3, 4)));
  t.push_back(E("NonZero", 9, SB::DataDependent, VB::Propagate, in(0)));
  // Stopword removal changes the number of strings.
  t.push_back(E("StringNormalizer", 10, SB::DataDependent, VB::Propagate, in(0)));
  // Y has one column per split of the longest string; Z has X's shape.
  t.push_back(E("StringSplit", 20, SB::DataDependent, VB::Propagate, in(0), true, in(0)));
  // Y, indices and counts have one entry per distinct value; inverse_indices has X's size.
  t.push_back(E("Unique", 11, SB::DataDependent, VB::Propagate, in(0), true, in(0, 1, 3)));

  // Shapes into values.
  t.push_back(E("SequenceLength", 11, SB::ShapeToValue, VB::FromShape, 0, false));
  t.push_back(E("Shape", 1, SB::ShapeToValue, VB::FromShape, 0, false));
  t.push_back(E("Size", 1, SB::ShapeToValue, VB::FromShape, 0, false));
  t.push_back(E("EyeLike", 9, SB::FromInputShapes, VB::FromShape));

  // Fixed by attributes, or random.
  t.push_back(E("Constant", 1, SB::Static, VB::Constant, 0, false));
  t.push_back(E("SequenceEmpty", 11, SB::Static, VB::Constant, 0, false));
  t.push_back(E("RandomNormal", 1, SB::Static, VB::Random, 0, false));
  t.push_back(E("RandomUniform", 1, SB::Static, VB::Random, 0, false));
  t.push_back(E("RandomNormalLike", 1, SB::FromInputShapes, VB::Random));
  t.push_back(E("RandomUniformLike", 1, SB::FromInputShapes, VB::Random));
  t.push_back(E("Bernoulli", 15, SB::FromInputShapes, VB::Random));
  t.push_back(E("Multinomial", 7, SB::FromInputShapes, VB::Random));

  // Control flow: the analysis follows the subgraphs (Loop trip count, Scan axis, If branches).
  t.push_back(E("If", 1, SB::ControlFlow));
  t.push_back(E("Loop", 1, SB::ControlFlow));
  t.push_back(E("Scan", 8, SB::ControlFlow));
  t.push_back(E("SequenceMap", 17, SB::ControlFlow));

  auto add_domain = [&](std::string_view domain, std::span<const std::string_view> ops) {
    for (std::string_view op : ops) {
      OpSemantics s = E(op, 1, SB::FromInputShapes);
      s.domain = domain;
      t.push_back(s);
    }
  };
  add_domain("ai.onnx.ml", kPlainMl);
  add_domain("ai.onnx.preview", kPlainPreview);
  add_domain("ai.onnx.preview.training", kPlainTraining);

  std::sort(t.begin(), t.end(), [](const OpSemantics& a, const OpSemantics& b) {
    return std::tie(a.domain, a.op, a.since_version) < std::tie(b.domain, b.op, b.since_version);
  });
  return t;
}

const std::vector<OpSemantics>& table() {
  static const std::vector<OpSemantics> t = build_table();
  return t;
}

}  // namespace

std::string_view shape_class_name(ShapeClass c) {
  switch (c) {
    case ShapeClass::Static:
      return "static";
    case ShapeClass::InputDim:
      return "input-dim-dependent";
    case ShapeClass::Unknown:
      return "unknown";
    case ShapeClass::DataDependent:
      return "data-dependent";
  }
  return "unknown";
}

std::string_view value_class_name(ValueClass c) {
  switch (c) {
    case ValueClass::Constant:
      return "constant";
    case ValueClass::ShapeDerived:
      return "shape-derived";
    case ValueClass::Unknown:
      return "unknown";
    case ValueClass::Data:
      return "data";
  }
  return "unknown";
}

std::span<const OpSemantics> op_semantics_table() { return table(); }

const OpSemantics* find_op_semantics(std::string_view domain, std::string_view op, int64_t opset) {
  if (domain == "ai.onnx") domain = "";
  const auto& t = table();
  auto lo = std::lower_bound(
      t.begin(), t.end(), std::pair(domain, op),
      [](const OpSemantics& s, const std::pair<std::string_view, std::string_view>& k) {
        return std::tie(s.domain, s.op) < std::tie(k.first, k.second);
      });
  if (lo == t.end() || lo->domain != domain || lo->op != op) return nullptr;
  const OpSemantics* best = &*lo;
  for (auto it = lo; it != t.end() && it->domain == domain && it->op == op; ++it) {
    if (it->since_version <= opset) best = &*it;
  }
  return best;
}

const OpSemantics& unknown_op_semantics() {
  static const OpSemantics s = [] {
    OpSemantics u;
    u.op = "";
    u.shape = ShapeBehavior::Unknown;
    u.value = ValueBehavior::Unknown;
    return u;
  }();
  return s;
}

}  // namespace onnxlint
