#include <onnxlint/external_data.h>

#include <string>

namespace onnxlint {

namespace fs = std::filesystem;

namespace {

// Whether a relative location climbs out of the model's folder once "a/../b" is folded, as
// ONNX's checker decides (so "sub/../w.bin" is fine). '\\' counts as a separator too: models
// saved on Windows use it.
bool leaves_folder(std::string_view location) {
  std::string normalized(location);
  for (char& c : normalized) {
    if (c == '\\') c = '/';
  }
  fs::path p = fs::path(normalized).lexically_normal();
  return !p.empty() && *p.begin() == "..";
}

}  // namespace

ExternalLocation resolve_external_location(const fs::path& model_dir,
                                           const fs::path& real_model_dir,
                                           std::string_view location) {
  ExternalLocation out;
  if (location.empty()) {
    out.problem = ExternalLocation::Problem::Empty;
    return out;
  }
  // "C:..." is a Windows drive path: absolute on the machine that wrote it.
  if (location.front() == '/' || location.front() == '\\' ||
      (location.size() > 1 && location[1] == ':')) {
    out.problem = ExternalLocation::Problem::Absolute;
    return out;
  }
  if (leaves_folder(location)) {
    out.problem = ExternalLocation::Problem::LeavesFolder;
    return out;
  }
  out.path = model_dir / fs::path(std::string(location));
  if (!real_model_dir.empty()) {
    std::error_code ec;
    fs::path real_target = fs::weakly_canonical(out.path, ec);
    if (!ec) {
      fs::path rel = real_target.lexically_relative(real_model_dir);
      if (rel.empty() || *rel.begin() == "..")
        out.problem = ExternalLocation::Problem::SymlinkEscape;
    }
  }
  return out;
}

fs::path real_model_dir(const Model& model) {
  std::error_code ec;
  fs::path real_dir = fs::canonical(fs::path(model.directory()), ec);
  if (ec) real_dir.clear();
  return real_dir;
}

}  // namespace onnxlint
