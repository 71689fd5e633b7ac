// Neural-network ops: convolution, pooling, normalization, matrix products, recurrent cells,
// attention, losses, resizing and RoI ops, and the signal, image and text ops (DFT, STFT,
// windows, MelWeightMatrix, ImageDecoder, StringNormalizer, StringSplit, TfIdfVectorizer).
#include <onnxlint/data_type.h>

#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

// BlackmanWindow, HammingWindow, HannWindow and MelWeightMatrix: `output_datatype`, float by
// default.
void output_datatype(TypeContext& ctx) {
  type_from_dtype_attr(ctx, "output_datatype", static_cast<int64_t>(DataType::Float));
}

// LayerNormalization: Y is X's type; Mean and InvStdDev are `stash_type` (float by default).
void layer_norm_type(TypeContext& ctx) {
  ctx.from_schema();
  if (const Attribute* a = ctx.attribute("stash_type")) {
    if (a->type != Attribute::Type::Int) return;
    ctx.set_tensor(1, a->i);
    ctx.set_tensor(2, a->i);
  } else if (!ctx.attr_listed("stash_type")) {
    ctx.set_tensor(1, static_cast<int64_t>(DataType::Float));
    ctx.set_tensor(2, static_cast<int64_t>(DataType::Float));
  }
}

constexpr OpEntry kOps[] = {
    onnx("AffineGrid", 20).values_set_shape(in(1)),  // size
    onnx("Attention", 1), onnx("AveragePool", 1), onnx("BatchNormalization", 1),
    onnx("BlackmanWindow", 17)
        .values_set_shape(in(0))  // size
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("CausalConvWithState", 1), onnx("Conv", 1), onnx("ConvTranspose", 1),
    onnx("DFT", 17).values_set_shape(in(1)),     // dft_length
    onnx("DFT", 20).values_set_shape(in(1, 2)),  // dft_length, axis
    onnx("DeformConv", 1), onnx("Det", 1), onnx("Dropout", 1), onnx("Einsum", 1), onnx("GRU", 1),
    onnx("Gemm", 1), onnx("GlobalAveragePool", 1), onnx("GlobalLpPool", 1),
    onnx("GlobalMaxPool", 1), onnx("GridSample", 1), onnx("GroupNormalization", 1),
    onnx("HammingWindow", 17)
        .values_set_shape(in(0))  // size
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("HannWindow", 17)
        .values_set_shape(in(0))  // size
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("Hardmax", 1), onnx("ImageDecoder", 20).data_dependent(in(0)),  // the image's own size
    onnx("InstanceNormalization", 1), onnx("LRN", 1), onnx("LSTM", 1),
    onnx("LayerNormalization", 1).type_rule(layer_norm_type), onnx("LinearAttention", 1),
    onnx("LogSoftmax", 1), onnx("LpNormalization", 1), onnx("LpPool", 1), onnx("MatMul", 1),
    onnx("MaxPool", 1), onnx("MaxRoiPool", 1),
    onnx("MaxUnpool", 9).values_set_shape(in(2)),  // output_shape
    onnx("MeanVarianceNormalization", 1),
    // num_mel_bins and dft_length set [dft_length/2+1, num_mel_bins].
    onnx("MelWeightMatrix", 17)
        .values_set_shape(in(0, 1))
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("NegativeLogLikelihoodLoss", 1),
    onnx("NonMaxSuppression", 10).data_dependent(in(0, 1, 2) | in(3, 4)),
    onnx("RMSNormalization", 1), onnx("RNN", 1),
    onnx("Resize", 10).values_set_shape(in(1)),     // scales
    onnx("Resize", 11).values_set_shape(in(2, 3)),  // scales, sizes
    onnx("RoiAlign", 1), onnx("RotaryEmbedding", 1),
    onnx("STFT", 17).values_set_shape(in(1, 3)),  // frame_step, frame_length
    onnx("Softmax", 1), onnx("SoftmaxCrossEntropyLoss", 1),
    // Stopword removal changes the number of strings.
    onnx("StringNormalizer", 10).data_dependent(in(0)),
    // Y has one column per split of the longest string; Z has X's shape.
    onnx("StringSplit", 20).data_dependent(in(0)).only_outputs(in(0)), onnx("TfIdfVectorizer", 1),
    onnx("Upsample", 1),                          // scales attribute
    onnx("Upsample", 9).values_set_shape(in(1)),  // scales
};

}  // namespace

std::span<const OpEntry> nn_ops() { return kOps; }

}  // namespace onnxlint::ops
