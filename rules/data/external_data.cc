#include "rules/data/external_data.h"

#include <fmt/format.h>
#include <onnxlint/external_data.h>
#include <sys/stat.h>

#include <filesystem>

#include "util/decimal.h"

namespace onnxlint::rules {

namespace {

namespace fs = std::filesystem;

}  // namespace

LocalFile check_local_file(const Model& model, const fs::path& real_dir,
                           std::string_view location) {
  LocalFile f;
  const ExternalLocation where =
      resolve_external_location(fs::path(model.directory()), real_dir, location);
  switch (where.problem) {
    case ExternalLocation::Problem::Empty:  // the folder itself: not a regular file
    case ExternalLocation::Problem::None:
      break;
    case ExternalLocation::Problem::Absolute:
      f.problem = LocalFile::Problem::Absolute;
      return f;
    case ExternalLocation::Problem::LeavesFolder:
      f.problem = LocalFile::Problem::LeavesFolder;
      return f;
    case ExternalLocation::Problem::SymlinkEscape:
      f.problem = LocalFile::Problem::SymlinkOut;
      f.resolved_path = where.path.string();
      return f;
  }
  const fs::path target = where.path.empty() ? fs::path(model.directory()) : where.path;
  f.resolved_path = target.string();
  if (::stat(target.c_str(), &f.st) != 0) {
    f.problem = LocalFile::Problem::Missing;
  } else if (!S_ISREG(f.st.st_mode)) {
    f.problem = LocalFile::Problem::NotRegular;
  }
  return f;
}

namespace {

// `real_dir` is the model's folder with symlinks resolved (empty if that failed), computed
// once per model: models saved tensor by tensor reference thousands of files.
void check(const Model& model, const fs::path& real_dir, ExternalDataCheck::Entry& e) {
  const TensorData& t = *e.site.tensor;
  std::string_view location = t.external_value("location");
  e.location = std::string(location);
  if (location.empty()) {
    e.problem = ExternalDataCheck::Problem::Missing;
    e.message = fmt::format("tensor '{}' is stored externally but has no 'location' entry", t.name);
    return;
  }
  const LocalFile f = check_local_file(model, real_dir, location);
  e.resolved_path = f.resolved_path;
  switch (f.problem) {
    case LocalFile::Problem::None:
      break;
    case LocalFile::Problem::Absolute:
    case LocalFile::Problem::LeavesFolder:
      e.problem = ExternalDataCheck::Problem::PathEscape;
      e.message = fmt::format("external data location '{}' of tensor '{}' is {}", location, t.name,
                              f.problem == LocalFile::Problem::Absolute
                                  ? "an absolute path"
                                  : "outside the model's folder ('..')");
      return;
    case LocalFile::Problem::SymlinkOut:
      e.problem = ExternalDataCheck::Problem::PathEscape;
      // The resolved path is not printed: it would reveal where the symlink points (any
      // file on the machine), and the location as written is what the user can act on.
      e.message = fmt::format(
          "external data location '{}' of tensor '{}' resolves through a symlink to a file "
          "outside the model's folder",
          location, t.name);
      return;
    case LocalFile::Problem::Missing:
    case LocalFile::Problem::NotRegular:
      e.problem = ExternalDataCheck::Problem::Missing;
      e.message = fmt::format(
          "external data file '{}' of tensor '{}' {}", location, t.name,
          f.problem == LocalFile::Problem::Missing ? "does not exist" : "is not a regular file");
      return;
  }
  const struct stat& st = f.st;
  uint64_t file_size = static_cast<uint64_t>(st.st_size);
  auto parse_field = [&](std::string_view key, uint64_t fallback) -> std::optional<uint64_t> {
    std::string_view v = t.external_value(key);
    if (v.empty()) return fallback;
    return parse_decimal(v);
  };
  auto offset = parse_field("offset", 0);
  auto expected = t.expected_bytes();
  // Without a length the tensor needs dims × element size bytes (or, for types without a
  // fixed size, whatever follows the offset).
  std::optional<uint64_t> length;
  if (offset) {
    length = parse_field("length", expected.value_or(file_size - std::min(file_size, *offset)));
  }
  if (!offset || !length) {
    e.problem = ExternalDataCheck::Problem::OutOfBounds;
    e.message =
        fmt::format("external data of tensor '{}' has a non-numeric offset or length", t.name);
    return;
  }
  if (*offset > file_size) {
    e.problem = ExternalDataCheck::Problem::OutOfBounds;
    e.message = fmt::format(
        "external data of tensor '{}' starts at byte {} but '{}' has only {} "
        "bytes",
        t.name, *offset, location, file_size);
    return;
  }
  if (*length > file_size - *offset) {
    e.problem = ExternalDataCheck::Problem::OutOfBounds;
    e.message = fmt::format(
        "external data of tensor '{}' spans {} bytes from offset {} but '{}' has only {} bytes",
        t.name, *length, *offset, location, file_size);
    return;
  }
  if (expected && !t.external_value("length").empty() && *length != *expected) {
    e.problem = ExternalDataCheck::Problem::OutOfBounds;
    e.message = fmt::format(
        "external data of tensor '{}' has length {} but its dims and type need {} bytes", t.name,
        *length, *expected);
  }
}

}  // namespace

ExternalDataCheck::ExternalDataCheck(const Model& model, AnalysisCache&) {
  fs::path real_dir;
  bool resolved = false;
  for (const Graph* g : model.all_graphs()) {
    for_each_tensor(*g, [&](const TensorSite& site) {
      if (site.tensor->storage != TensorData::Storage::External) return;
      if (!resolved) {
        real_dir = real_model_dir(model);
        resolved = true;
      }
      Entry e;
      e.site = site;
      check(model, real_dir, e);
      entries_.push_back(std::move(e));
    });
  }
}

}  // namespace onnxlint::rules
