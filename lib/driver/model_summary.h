// The facts about a model that reports carry besides the findings (ModelSummary).
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/linter.h>
#include <onnxlint/model.h>
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "util/file_identity.h"

namespace onnxlint {

/// SHA-256 digests of files, each file read once: entries are keyed by its identity (device,
/// inode, size, modification and change times), so that the spellings of one file ("w.bin",
/// "./w.bin", "sub/../w.bin", a hard link) are one entry, and the models of a run that share
/// weights hash them once. Thread-safe: a file being hashed by one thread is waited for, not
/// read again, by another.
class FileHashCache {
 public:
  /// The lowercase hex digest of the regular file at `path`, whose stat() is `st`; "" with
  /// `error` set when it cannot be read.
  std::string sha256(const std::filesystem::path& path, const struct stat& st, std::string& error);
  /// Bytes read for digests so far (what --hash cost).
  uint64_t bytes_hashed() const { return bytes_hashed_; }

 private:
  struct Entry {
    std::once_flag once;
    std::string hex, error;
  };
  std::mutex mutex_;
  std::map<FileIdentity, std::shared_ptr<Entry>> entries_;
  std::atomic<uint64_t> bytes_hashed_{0};
};

/// Summarises a loaded model. Output dims come from the per-dimension analysis in `cache`
/// (computed if no rule asked for it). With `hash`, the model's bytes and each external-data
/// file inside the model's folder are hashed (SHA-256), each file once through `files` (the
/// run's cache; a cache of this model's own when null); otherwise no file is read. Strings
/// from the model are capped (cap_echoes()).
ModelSummary summarize(const Model& model, AnalysisCache& cache, bool hash,
                       FileHashCache* files = nullptr);

/// Lowercase hex SHA-256 of `bytes`.
std::string sha256_hex(std::span<const std::byte> bytes);

}  // namespace onnxlint
