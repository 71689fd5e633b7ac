// Shared by the data-epcontext-* rules and target-unsupported-op: ONNX Runtime's EPContext node
// (com.microsoft), which holds a blob precompiled by one execution provider, inline
// (embed_mode 1) or in a file next to the model (embed_mode 0). Attributes as ONNX Runtime's
// EP context design documents them (docs/execution-providers/EP-Context-Design.md).
#pragma once

#include <onnxlint/model.h>

#include <string_view>

namespace onnxlint::rules {

inline bool is_epcontext(const Node& n) {
  return n.op_type() == "EPContext" && n.domain() == "com.microsoft";
}

/// The selected target id an EPContext's `source` execution provider corresponds to ("" when the
/// EP has no target table); prefix match for the CoreML formats.
inline std::string_view epcontext_target_prefix(std::string_view source) {
  if (source == "QNNExecutionProvider" || source == "QNN") return "onnxruntime-qnn";
  if (source == "CoreMLExecutionProvider") return "onnxruntime-coreml";
  if (source == "NnapiExecutionProvider") return "onnxruntime-nnapi";
  if (source == "WebNNExecutionProvider") return "onnxruntime-webnn";
  if (source == "DmlExecutionProvider") return "onnxruntime-dml";
  if (source == "CUDAExecutionProvider") return "onnxruntime-cuda";
  return {};
}

}  // namespace onnxlint::rules
