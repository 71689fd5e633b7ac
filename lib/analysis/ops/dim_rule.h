// The per-dimension shape transfer an op-registry entry names (OpEntry::dims): which of the
// transfers of lib/analysis/provenance_dims.cc computes the op's output dims and the elements of
// small integer outputs. DimRule::None: the outputs' dims are unknown, and their shape classes
// come from the entry's class facts alone.
#pragma once

#include <cstdint>

namespace onnxlint::ops {

enum class DimRule : uint8_t {
  None,      // not followed: unknown dims
  Unary,     // output 0 (and the other outputs listed in the op) has input 0's dims
  Passthru,  // Identity, Cast, CastLike: dims and integer elements unchanged
  Neg,
  Broadcast,  // multidirectional broadcasting of every input
  Arith,      // broadcasting with element arithmetic on small integer vectors
  MatMul,
  Gemm,
  Transpose,
  Unsqueeze,
  Squeeze,
  Flatten,
  Reshape,
  Expand,
  Tile,
  Concat,
  Gather,
  GatherElements,
  Slice,
  Split,
  Shape,
  Size,
  Constant,
  ConstantOfShape,
  Range,
  Conv,
  Pool,
  GlobalPool,
  Reduce,
  ArgReduce,
  Rnn,
  TopK,
  OneHot,
  Pad,
  Resize,
  Upsample,
  Compare,  // Equal, Less, Greater, ...: broadcasting, and element comparison of fixed ints
  Logic,    // And, Or, Xor, Not on fixed elements
  Where,
  NonZero,
  Compress,
  Unique,
  Nms,
  SequenceEmpty,
  SequenceConstruct,
  SequenceInsert,
  SequenceErase,
  SequenceLength,
  SequenceAt,
  ConcatFromSequence,
  SplitToSequence,
  Optional,
  OptionalGetElement,
  OptionalHasElement,
  Dft,
  TfIdf,
  StringNormalizer,
  GatherND,
  DepthToSpace,
  SpaceToDepth,
  BatchNorm,
  LayerNorm,
  Loss,  // SoftmaxCrossEntropyLoss, NegativeLogLikelihoodLoss
  ConvTranspose,
  GridSample,
  RoiAlign,
  Det,
  DynamicQuantize,
  MaxUnpool,
};

}  // namespace onnxlint::ops
