#pragma once

#define ONNXLINT_VERSION "0.1.0"

namespace onnxlint {
inline constexpr const char* kVersion = ONNXLINT_VERSION;
}  // namespace onnxlint
