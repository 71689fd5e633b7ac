// Shared by the data-* rules: every tensor of the model with where it is, and the result of
// checking each external-data reference once (stat only — the data file is never read).
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/model.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace onnxlint::rules {

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
  for (const TensorData& t : g.initializers) visit(TensorSite{&t, &g});
  for (const SparseTensorData& s : g.sparse_initializers) {
    visit(TensorSite{&s.values, &g, nullptr, {}, true});
    visit(TensorSite{&s.indices, &g, nullptr, {}, true});
  }
  for (const Node& n : g.nodes) {
    for (const Attribute& a : n.attributes) {
      if (a.t != nullptr) visit(TensorSite{a.t, &g, &n, a.name});
      for (const TensorData* t : a.tensors) visit(TensorSite{t, &g, &n, a.name});
    }
  }
}

/// A file a model names by a path relative to its folder (external data, an EPContext blob),
/// checked with stat only: never read.
struct LocalFile {
  enum class Problem { None, Absolute, LeavesFolder, SymlinkOut, Missing, NotRegular };
  Problem problem = Problem::None;
  std::string resolved_path;
  struct stat st {};
};
/// `real_dir` is real_model_dir(model) (empty when that failed: symlinks are then not checked).
LocalFile check_local_file(const Model& model, const std::filesystem::path& real_dir,
                           std::string_view location);
/// The model's folder with symlinks resolved, or empty.
std::filesystem::path real_model_dir(const Model& model);

class ExternalDataCheck {
 public:
  enum class Problem { None, Missing, PathEscape, OutOfBounds };
  struct Entry {
    TensorSite site;
    Problem problem = Problem::None;
    std::string message;
    std::string resolved_path;
  };

  ExternalDataCheck(const Model& model, AnalysisCache& cache);
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

}  // namespace onnxlint::rules
