// Shared by the data-* rules: every tensor of the model with where it is, and the result of
// checking each external-data reference once (stat only — the data file is never read).
#pragma once

#include <string>
#include <vector>

#include <onnxlint/analysis.h>
#include <onnxlint/model.h>

namespace onnxlint::rules {

struct TensorSite {
  const TensorData* tensor = nullptr;
  const Graph* graph = nullptr;
  const Node* node = nullptr;          // attribute tensors (Constant value, ...)
  std::string_view attribute;          // attribute name for attribute tensors
  bool sparse_part = false;            // values/indices of a sparse initializer
};

/// Every tensor in `g` (initializers, sparse initializer parts, attribute tensors).
std::vector<TensorSite> tensors_of(const Graph& g);

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
