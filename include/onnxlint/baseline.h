// Baselines: accept today's findings, fail only on new ones. Documented in
// docs/configuration.md ("Baseline").
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/export.h>
#include <onnxlint/linter.h>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A set of accepted findings, stored as JSON next to the models (e.g. in the repository root).
///
/// A finding is identified by Diagnostic::fingerprint() computed with the model path made
/// relative to the baseline's folder (`root`). So the identity does not depend on the working
/// folder, on whether the path was given relative or absolute, or on where the checkout lives;
/// nor on the message wording, which the fingerprint never includes.
class Baseline {
 public:
  struct Entry {
    std::string fingerprint;
    std::string rule;
    std::string file;    // relative to root, '/'-separated (informational)
    std::string anchor;  // Location::anchor() (informational)
  };

  Baseline() = default;
  explicit Baseline(std::filesystem::path root) : root_(std::move(root)) {}

  /// The fingerprint of `d` as this baseline records it.
  std::string fingerprint(const Diagnostic& d) const;
  /// The model path as this baseline records it: relative to root, '/'-separated.
  std::string relative_file(std::string_view path) const;

  /// Records every finding of `report` except internal errors.
  void add(const Report& report);

  /// Removes the findings this baseline accepts from `report` and counts them in
  /// FileReport::baselined. Each entry accepts at most one finding, so a second copy of an
  /// accepted finding is new. Returns the number of entries for the models in `report` that
  /// matched nothing (findings since fixed); entries for models not linted are not counted.
  size_t apply(Report& report) const;

  /// Reads a baseline file; its folder becomes the root. Throws ConfigError naming the file.
  static Baseline load(const std::filesystem::path& file);
  /// Writes the baseline (sorted, deterministic). Throws ConfigError if the file can't be written.
  void save(const std::filesystem::path& file) const;
  void write(std::ostream& out) const;

  const std::filesystem::path& root() const { return root_; }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::filesystem::path root_;
  std::vector<Entry> entries_;
};

/// The root a baseline at `file` uses: its absolute, normalized folder.
std::filesystem::path baseline_root(const std::filesystem::path& file);

}  // namespace onnxlint
