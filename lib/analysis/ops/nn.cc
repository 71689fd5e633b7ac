// Neural-network ops: convolution, pooling, normalization, matrix products, recurrent cells,
// attention, losses, resizing and RoI ops, and the signal, image and text ops (DFT, STFT,
// windows, MelWeightMatrix, ImageDecoder, StringNormalizer, StringSplit, TfIdfVectorizer).
#include <onnxlint/data_type.h>

#include <algorithm>
#include <string_view>

#include "analysis/ops/constraint_context.h"
#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

constexpr std::string_view kInnerDims = "multiplies matrices whose inner dims must be equal";

// MatMul: A[..., M, K] x B[..., K, N] (a 1-D operand is promoted to a matrix); the batch dims
// broadcast.
void matmul_constraints(ConstraintContext& ctx) {
  auto ra = ctx.rank(0), rb = ctx.rank(1);
  if (ra && rb && *ra >= 1 && *rb >= 1) {
    auto k_a = ctx.dim(0, -1), k_b = ctx.dim(1, *rb == 1 ? 0 : -2);
    if (k_a && k_b) ctx.require(*k_a, *k_b, Relation::Equal, kInnerDims);
  }
  if (!ra || !rb || *ra < 3 || *rb < 3) return;
  for (size_t j = 3; j <= std::min(*ra, *rb); ++j) {
    auto a = ctx.dim(0, -static_cast<int64_t>(j)), b = ctx.dim(1, -static_cast<int64_t>(j));
    if (a && b)
      ctx.require(*a, *b, Relation::EqualOrOne, "broadcasts the batch dims of a matrix product");
  }
}

// Gemm: A[M, K] (transA: [K, M]) x B[K, N] (transB: [N, K]); C broadcasts to [M, N].
void gemm_constraints(ConstraintContext& ctx) {
  if (ctx.rank(0) != 2u || ctx.rank(1) != 2u) return;
  const bool ta = ctx.attr_int("transA").value_or(0) != 0;
  const bool tb = ctx.attr_int("transB").value_or(0) != 0;
  auto k_a = ctx.dim(0, ta ? 0 : 1), k_b = ctx.dim(1, tb ? 1 : 0);
  if (k_a && k_b) ctx.require(*k_a, *k_b, Relation::Equal, kInnerDims);
  if (ctx.opset() < 7 || !ctx.has_input(2)) return;
  auto rc = ctx.rank(2);
  if (!rc || *rc > 2) return;
  auto m = ctx.dim(0, ta ? 1 : 0), n = ctx.dim(1, tb ? 0 : 1);
  auto c_n = ctx.dim(2, -1);
  if (c_n && n)
    ctx.require(*c_n, *n, Relation::EqualOrOne, "adds a bias that broadcasts to its output");
  if (*rc == 2) {
    auto c_m = ctx.dim(2, 0);
    if (c_m && m)
      ctx.require(*c_m, *m, Relation::EqualOrOne, "adds a bias that broadcasts to its output");
  }
}

// Conv: X[N, C, ...] and W[M, C/group, ...]; the bias has M entries.
void conv_constraints(ConstraintContext& ctx) {
  const int64_t group = ctx.attr_int("group").value_or(1);
  auto c = ctx.dim(0, 1), wc = ctx.dim(1, 1);
  if (c && wc && group >= 1) {
    const DimRef rhs[] = {*wc, DimRef::number(group)};
    ctx.require(std::span<const DimRef>(&*c, 1), rhs, Relation::Equal,
                "convolves input channels that must match its weight's");
  }
  auto m = ctx.dim(1, 0), b = ctx.dim(2, 0);
  if (m && b && ctx.rank(2) == 1u)
    ctx.require(*b, *m, Relation::Equal, "adds one bias per output channel");
}

// ConvTranspose: X[N, C, ...] and W[C, M/group, ...].
void conv_transpose_constraints(ConstraintContext& ctx) {
  auto c = ctx.dim(0, 1), wc = ctx.dim(1, 0);
  if (c && wc)
    ctx.require(*c, *wc, Relation::Equal, "convolves input channels that must match its weight's");
}

// BatchNormalization / InstanceNormalization: one scale (bias, mean, var) entry per channel.
void per_channel_constraints(ConstraintContext& ctx) {
  auto c = ctx.dim(0, 1);
  if (!c) return;
  for (size_t k = 1; k < ctx.input_count() && k <= 4; ++k) {
    if (ctx.rank(k) != 1u) continue;
    if (auto p = ctx.dim(k, 0))
      ctx.require(*p, *c, Relation::Equal, "normalizes with one parameter per channel");
  }
}

// LayerNormalization: Scale and B broadcast to the normalized trailing dims of X.
void layer_norm_constraints(ConstraintContext& ctx) {
  auto rx = ctx.rank(0);
  if (!rx) return;
  for (size_t k = 1; k <= 2; ++k) {
    auto rk = ctx.rank(k);
    if (!rk) continue;
    for (size_t j = 1; j <= std::min(*rx, *rk); ++j) {
      auto x = ctx.dim(0, -static_cast<int64_t>(j)), p = ctx.dim(k, -static_cast<int64_t>(j));
      if (x && p)
        ctx.require(*p, *x, Relation::EqualOrOne,
                    "normalizes with parameters that broadcast to its input");
    }
  }
}

// RNN, GRU, LSTM: X[seq, batch, input] (layout 1: [batch, seq, input]), W[dirs, k*hidden,
// input], R[dirs, k*hidden, hidden], sequence_lens[batch], initial_h and initial_c
// [dirs, batch, hidden] (layout 1: [batch, dirs, hidden]).
void rnn_constraints(ConstraintContext& ctx) {
  const bool batch_first = ctx.opset() >= 14 && ctx.attr_int("layout").value_or(0) != 0;
  auto batch = ctx.dim(0, batch_first ? 0 : 1);
  auto in_x = ctx.dim(0, 2), in_w = ctx.dim(1, 2);
  if (in_x && in_w && ctx.rank(0) == 3u && ctx.rank(1) == 3u) {
    ctx.require(*in_x, *in_w, Relation::Equal,
                "multiplies its input by a weight whose input size must match");
  }
  if (!batch || ctx.rank(0) != 3u) return;
  if (ctx.rank(4) == 1u) {
    if (auto s = ctx.dim(4, 0))
      ctx.require(*s, *batch, Relation::Equal, "takes one sequence length per batch entry");
  }
  for (size_t k : {size_t{5}, size_t{6}}) {  // initial_h, initial_c (LSTM)
    if (k == 6 && ctx.node().op_type() != "LSTM") break;
    if (ctx.rank(k) != 3u) continue;
    if (auto h = ctx.dim(k, batch_first ? 0 : 1)) {
      ctx.require(*h, *batch, Relation::Equal,
                  "starts from an initial state whose batch must match its input's");
    }
  }
}

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
    onnx("Attention", 1), onnx("AveragePool", 1).dims(DimRule::Pool),
    onnx("BatchNormalization", 1).dims(DimRule::BatchNorm).constrains(per_channel_constraints),
    onnx("BlackmanWindow", 17)
        .values_set_shape(in(0))  // size
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("CausalConvWithState", 1),
    onnx("Conv", 1).dims(DimRule::Conv).constrains(conv_constraints),
    onnx("ConvTranspose", 1).dims(DimRule::ConvTranspose).constrains(conv_transpose_constraints),
    onnx("DFT", 17).dims(DimRule::Dft).values_set_shape(in(1)),     // dft_length
    onnx("DFT", 20).dims(DimRule::Dft).values_set_shape(in(1, 2)),  // dft_length, axis
    onnx("DeformConv", 1), onnx("Det", 1).dims(DimRule::Det),
    onnx("Dropout", 1).dims(DimRule::Unary), onnx("Einsum", 1),
    onnx("GRU", 1).dims(DimRule::Rnn).constrains(rnn_constraints),
    onnx("Gemm", 1).dims(DimRule::Gemm).constrains(gemm_constraints),
    onnx("GlobalAveragePool", 1).dims(DimRule::GlobalPool),
    onnx("GlobalLpPool", 1).dims(DimRule::GlobalPool),
    onnx("GlobalMaxPool", 1).dims(DimRule::GlobalPool),
    onnx("GridSample", 1).dims(DimRule::GridSample),
    onnx("GroupNormalization", 1).dims(DimRule::Unary),
    onnx("HammingWindow", 17)
        .values_set_shape(in(0))  // size
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("HannWindow", 17)
        .values_set_shape(in(0))  // size
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("Hardmax", 1).dims(DimRule::Unary),
    onnx("ImageDecoder", 20).data_dependent(in(0)),  // the image's own size
    onnx("InstanceNormalization", 1).dims(DimRule::Unary).constrains(per_channel_constraints),
    onnx("LRN", 1).dims(DimRule::Unary),
    onnx("LSTM", 1).dims(DimRule::Rnn).constrains(rnn_constraints),
    onnx("LayerNormalization", 1)
        .dims(DimRule::LayerNorm)
        .type_rule(layer_norm_type)
        .constrains(layer_norm_constraints),
    onnx("LinearAttention", 1), onnx("LogSoftmax", 1).dims(DimRule::Unary),
    onnx("LpNormalization", 1).dims(DimRule::Unary), onnx("LpPool", 1).dims(DimRule::Pool),
    onnx("MatMul", 1).dims(DimRule::MatMul).constrains(matmul_constraints),
    onnx("MaxPool", 1).dims(DimRule::Pool), onnx("MaxRoiPool", 1),
    onnx("MaxUnpool", 9).dims(DimRule::MaxUnpool).values_set_shape(in(2)),  // output_shape
    onnx("MeanVarianceNormalization", 1).dims(DimRule::Unary),
    // num_mel_bins and dft_length set [dft_length/2+1, num_mel_bins].
    onnx("MelWeightMatrix", 17)
        .values_set_shape(in(0, 1))
        .no_input_shapes()
        .type_rule(output_datatype),
    onnx("NegativeLogLikelihoodLoss", 1).dims(DimRule::Loss),
    onnx("NonMaxSuppression", 10).dims(DimRule::Nms).data_dependent(in(0, 1, 2) | in(3, 4)),
    onnx("RMSNormalization", 1).dims(DimRule::Unary),
    onnx("RNN", 1).dims(DimRule::Rnn).constrains(rnn_constraints),
    onnx("Resize", 10).dims(DimRule::Resize).values_set_shape(in(1)),     // scales
    onnx("Resize", 11).dims(DimRule::Resize).values_set_shape(in(2, 3)),  // scales, sizes
    onnx("RoiAlign", 1).dims(DimRule::RoiAlign), onnx("RotaryEmbedding", 1),
    onnx("STFT", 17).values_set_shape(in(1, 3)),  // frame_step, frame_length
    onnx("Softmax", 1).dims(DimRule::Unary), onnx("SoftmaxCrossEntropyLoss", 1).dims(DimRule::Loss),
    // Stopword removal changes the number of strings.
    onnx("StringNormalizer", 10).dims(DimRule::StringNormalizer).data_dependent(in(0)),
    // Y has one column per split of the longest string; Z has X's shape.
    onnx("StringSplit", 20).data_dependent(in(0)).only_outputs(in(0)),
    onnx("TfIdfVectorizer", 1).dims(DimRule::TfIdf),
    onnx("Upsample", 1).dims(DimRule::Upsample),                          // scales attribute
    onnx("Upsample", 9).dims(DimRule::Upsample).values_set_shape(in(1)),  // scales
};

}  // namespace

std::span<const OpEntry> nn_ops() { return kOps; }

}  // namespace onnxlint::ops
