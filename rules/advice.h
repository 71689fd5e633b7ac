// Fixes that several rules give for one cause, in exporter terms: a cause has one wording
// wherever it is found (export-training-mode and a target's training_mode restriction; a
// target's zero-point restriction and its uint8 element type).
#pragma once

#include <string_view>

namespace onnxlint::rules::advice {

/// A module exported in training mode (Dropout's training_mode, BatchNormalization's).
inline constexpr std::string_view kEvalMode =
    "call model.eval() before torch.onnx.export (or pass training=torch.onnx.TrainingMode.EVAL); "
    "TrainingMode.TRAINING and PRESERVE on a module in train mode export training behaviour";

// The tools that quantize to int8 with zero point 0 (a literal, so that each help below is one
// constant string).
#define ONNXLINT_INT8_SYMMETRIC_TOOLS                                                           \
  "ONNX Runtime `quantize_static(..., activation_type=QuantType.QInt8, "                        \
  "weight_type=QuantType.QInt8, extra_options={\"ActivationSymmetric\": True, "                 \
  "\"WeightSymmetric\": True})`, or NVIDIA ModelOpt / pytorch-quantization, which export int8 " \
  "Q/DQ with zero point 0"

/// A zero point the target needs to be 0.
inline constexpr std::string_view kSymmetricQuantization =
    "quantize symmetrically so that zero points are 0: " ONNXLINT_INT8_SYMMETRIC_TOOLS;

/// uint8 (asymmetric) quantization on a target that takes int8 only: a cast does not help.
inline constexpr std::string_view kInt8Quantization =
    "quantize to int8 with symmetric activations (zero point 0) instead of "
    "uint8: " ONNXLINT_INT8_SYMMETRIC_TOOLS;

#undef ONNXLINT_INT8_SYMMETRIC_TOOLS

}  // namespace onnxlint::rules::advice
