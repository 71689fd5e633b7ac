// Every tensor of a graph with where it sits, and where an external-data location leads,
// checked as ONNX's checker does. Stat only: the data file is never read here. Shared by the
// data-* rules and the report's file list.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/model.h>

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace ONNXLINT_API onnxlint {

struct TensorSite {
  const TensorData* tensor = nullptr;
  const Graph* graph = nullptr;
  const Node* node = nullptr;  // attribute tensors (Constant value, ...)
  std::string_view attribute;  // attribute name for attribute tensors
  bool sparse_part = false;    // values/indices of a sparse initializer
};

/// Calls `visit(const TensorSite&)` for every tensor in `g`: initializers, sparse initializer
/// parts, attribute tensors (a visitor, not a list: a big graph has 10^5 of them).
template <class Visit>
void for_each_tensor(const Graph& g, Visit&& visit) {
  for (const TensorData& t : g.initializers()) visit(TensorSite{&t, &g});
  for (const SparseTensorData& s : g.sparse_initializers()) {
    visit(TensorSite{&s.values, &g, nullptr, {}, true});
    visit(TensorSite{&s.indices, &g, nullptr, {}, true});
  }
  for (const Node& n : g.nodes()) {
    for (const Attribute& a : n.attributes()) {
      if (a.t != nullptr) visit(TensorSite{a.t, &g, &n, a.name});
      for (const TensorData* t : a.tensors) visit(TensorSite{t, &g, &n, a.name});
    }
  }
}

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

/// The model's folder with symlinks resolved, or empty when that fails (then symlinks are not
/// checked). Computed once per model: models saved tensor by tensor name thousands of files.
std::filesystem::path real_model_dir(const Model& model);

}  // namespace onnxlint
