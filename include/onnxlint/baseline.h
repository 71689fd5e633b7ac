// Baselines: accept today's findings, fail only on new ones. Documented in
// docs/configuration.md ("Baseline").
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/export.h>
#include <onnxlint/linter.h>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// What Baseline::apply() found besides the accepted findings: the models it followed to a new
/// path, the entries left behind by a model that is gone, and the entries whose finding was
/// fixed. Paths are as the baseline records them: relative to its folder, '/'-separated.
struct BaselineOutcome {
  /// A model recorded at a path that no longer exists, found at a path linted in this run that
  /// has no entries of its own, by its content: the same bytes (SHA-256 of the model file). Its
  /// entries applied to that model as if it were still at `from`.
  struct Moved {
    std::string from;  ///< the path in the baseline
    std::string to;    ///< the linted model
    size_t entries = 0;
  };
  /// The entries of a file that no longer exists and whose bytes no model linted in this run
  /// has (it was deleted, or moved and changed, or moved and not linted now). They matched
  /// nothing; the moved model's findings, if it was linted, are new. (A path given to the run
  /// that yields no model is not listed: the report's path error names it.)
  struct Stale {
    std::string file;
    size_t entries = 0;
    /// The baseline records the file's SHA-256 (false: written before baselines recorded it,
    /// so a move could not be recognised).
    bool hashed = false;
  };

  /// Entries of the models linted in this run (moved ones included) that matched no finding:
  /// the finding was fixed. Entries of models not linted are not counted.
  size_t fixed = 0;
  std::vector<Moved> moved;  ///< sorted by `from`
  std::vector<Stale> stale;  ///< sorted by `file`

  /// The entries in `stale`.
  size_t stale_entries() const;
  /// What the command prints on stderr after applying the baseline at `baseline_file` (as the
  /// user named it): one "onnx-lint: ..." line per moved model, per stale file (the first 10,
  /// then a count of the others) and for the fixed entries, and the command that refreshes the
  /// baseline; "" when there is nothing to say. Paths are escaped with visible().
  std::string notice(std::string_view baseline_file) const;
};

/// A set of accepted findings, stored as JSON next to the models (e.g. in the repository root).
///
/// A finding is identified by Diagnostic::fingerprint() computed with the model path made
/// relative to the baseline's folder (`root`). So the identity does not depend on the working
/// folder, on whether the path was given relative or absolute, or on where the checkout lives;
/// nor on the message wording, which the fingerprint never includes. The baseline also records
/// the SHA-256 of each model file that has entries, so that apply() can follow a model that
/// moved without changing (see BaselineOutcome::Moved).
class Baseline {
 public:
  struct Entry {
    std::string fingerprint;
    std::string rule;
    std::string file;    // the model, relative to root, '/'-separated (moves are found by it)
    std::string anchor;  // Location::anchor() (informational)
    /// For a finding of one cause at several places (Diagnostic::count): the fingerprints of
    /// its other copies, any of which matches the entry (JSON "copies"; optional). Removing
    /// the first copy makes another one the finding's first, and it is still accepted.
    std::vector<std::string> copies;
  };

  Baseline() = default;
  explicit Baseline(std::filesystem::path root) : root_(std::move(root)) {}

  /// The fingerprint of `d` as this baseline records it.
  std::string fingerprint(const Diagnostic& d) const;
  /// The model path as this baseline records it: relative to root, '/'-separated.
  std::string relative_file(std::string_view path) const;

  /// Records every finding of `report` except internal errors, and the SHA-256 of each model
  /// file that has one: the report's (LintOptions::hash), else the file at FileReport::path is
  /// read (nothing is recorded for stdin or a file that cannot be read).
  void add(const Report& report);

  /// Removes the findings this baseline accepts from `report` and counts them in
  /// FileReport::baselined. Each entry accepts at most one finding, so a second copy of an
  /// accepted finding is new. The entries of a file that no longer exists (under root) go to
  /// the linted model with the same bytes, if one has no entries of its own; otherwise they
  /// are stale. Reads a linted model's file only for that, when some file with entries is gone
  /// (BaselineOutcome says what was found).
  BaselineOutcome apply(Report& report) const;

  /// Reads a baseline file; its folder becomes the root. Throws ConfigError naming the file.
  static Baseline load(const std::filesystem::path& file);
  /// Writes the baseline (sorted, deterministic). Throws ConfigError if the file can't be written.
  void save(const std::filesystem::path& file) const;
  void write(std::ostream& out) const;

  const std::filesystem::path& root() const { return root_; }
  const std::vector<Entry>& entries() const { return entries_; }
  /// Lowercase hex SHA-256 of each model file with entries, by Entry::file (files recorded by
  /// an older onnx-lint have none).
  const std::map<std::string, std::string, std::less<>>& file_hashes() const {
    return file_hashes_;
  }

 private:
  /// The fingerprint of `d` with its model at `file` (a path as the baseline records it).
  std::string fingerprint_at(const Diagnostic& d, std::string_view file) const;

  std::filesystem::path root_;
  std::vector<Entry> entries_;
  std::map<std::string, std::string, std::less<>> file_hashes_;
};

/// The root a baseline at `file` uses: its absolute, normalized folder.
std::filesystem::path baseline_root(const std::filesystem::path& file);

}  // namespace onnxlint
