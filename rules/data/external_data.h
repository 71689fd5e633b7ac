// Shared by the data-* rules: the result of checking each external-data reference once (stat
// only — the data file is never read). Tensor sites and path resolution: onnxlint/external_data.h.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/external_data.h>
#include <onnxlint/model.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace onnxlint::rules {

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

class ExternalDataCheck {
 public:
  enum class Problem { None, Missing, PathEscape, OutOfBounds };
  struct Entry {
    TensorSite site;
    Problem problem = Problem::None;
    std::string message;
    std::string location;  // the 'location' entry as written ("" when there is none)
    std::string resolved_path;
  };

  ExternalDataCheck(const Model& model, AnalysisCache& cache);
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

}  // namespace onnxlint::rules
