// Where an external-data location leads, checked as ONNX's checker does. Stat only: the data
// file is never read here. Shared by the data-external-* rules and the report's file list.
#pragma once

#include <onnxlint/export.h>

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace ONNXLINT_API onnxlint {

struct ExternalLocation {
  enum class Problem : uint8_t {
    None,
    Empty,          ///< no location given
    Absolute,       ///< "/x", "\\x" or a Windows drive path "C:..."
    LeavesFolder,   ///< climbs out of the model's folder once "a/../b" is folded
    SymlinkEscape,  ///< inside the folder as written, outside once symlinks are resolved
  };
  Problem problem = Problem::None;
  /// The model's folder joined with the location (empty for Empty, Absolute, LeavesFolder).
  std::filesystem::path path;
};

/// Resolves `location` against `model_dir`. `real_model_dir` is `model_dir` with symlinks
/// resolved (std::filesystem::canonical), or empty when unknown: then symlinks are not checked.
/// Callers with many locations compute it once per model.
ExternalLocation resolve_external_location(const std::filesystem::path& model_dir,
                                           const std::filesystem::path& real_model_dir,
                                           std::string_view location);

}  // namespace onnxlint
