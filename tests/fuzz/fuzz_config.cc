// libFuzzer target: config bytes -> onnx-lint.toml and pyproject.toml parsing -> settings ->
// per-file overrides; per-file configuration discovery (the bytes written as both files of a
// folder tree, as the CLI finds them above each model); the same bytes as a baseline file.
// Only ConfigError may come out.
#include <onnxlint/baseline.h>
#include <onnxlint/config.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/targets.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_support.h"

namespace {

std::optional<std::string> resolve_target(std::string_view name) {
  const onnxlint::TargetInfo* t = onnxlint::find_target(name);
  if (t == nullptr) return std::nullopt;
  return std::string(t->id);
}

void settings_of(std::string_view text, const char* file) {
  const onnxlint::RuleRegistry& registry = onnxlint::builtin_registry();
  try {
    onnxlint::Config config = onnxlint::parse_config(text, file, registry, resolve_target);
    onnxlint::Settings s = onnxlint::resolve_settings(registry, config, onnxlint::CommandLine{});
    onnxlint::Linter linter(registry, s.lint);
    for (const char* path : {"/proj/m.onnx", "/proj/a/b/c/model.onnx", "/elsewhere/x.onnx", "-"}) {
      (void)onnxlint::matching_overrides(config, path);
      // The per-file linter (the overrides' options validated) on a tiny model.
      (void)linter.lint_bytes(path, std::string_view("\x08\x08\x3a\x00", 4));
    }
    (void)onnxlint::show_config(registry, config, s);
  } catch (const onnxlint::ConfigError&) {
  }
}

// The bytes as root/onnx-lint.toml and root/sub/pyproject.toml; models at three depths (and
// one outside the tree) each get the configuration nearest above them.
void discovery_of(std::string_view text) {
  static const onnxlint::fuzz::ScratchFolder scratch;
  static const bool made = std::filesystem::create_directories(scratch.path() / "sub" / "deep");
  (void)made;
  const std::filesystem::path root = scratch.path();
  for (const std::filesystem::path& file :
       {root / "onnx-lint.toml", root / "sub" / "pyproject.toml"}) {
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(text.data(), std::streamsize(text.size()));
  }
  const onnxlint::RuleRegistry& registry = onnxlint::builtin_registry();
  const std::vector<std::string> models = {(root / "a.onnx").string(),
                                           (root / "sub" / "deep" / "m.onnx").string(),
                                           (root / "sub" / "b.onnx").string(), "/elsewhere/x.onnx"};
  try {
    onnxlint::Config run_config;
    if (auto found = onnxlint::find_config_file(root / "sub" / "deep")) {
      run_config = onnxlint::load_config(*found, registry, resolve_target);
    }
    onnxlint::Settings s = onnxlint::resolve_settings_per_file(
        registry, run_config, onnxlint::CommandLine{}, models, resolve_target);
    onnxlint::Linter linter(registry, s.lint);
    for (const std::string& m : models) {
      (void)onnxlint::config_file_for(s, m);
      (void)onnxlint::show_config(registry, onnxlint::config_for(s, run_config, m), s, m);
      (void)linter.lint_bytes(m, std::string_view("\x08\x08\x3a\x00", 4));
    }
  } catch (const onnxlint::ConfigError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  settings_of(text, "/proj/onnx-lint.toml");
  settings_of(text, "/proj/pyproject.toml");
  discovery_of(text);
  // Globs against paths, both taken from the input.
  const size_t cut = text.find('\n');
  if (cut != std::string_view::npos) {
    (void)onnxlint::path_glob_match(text.substr(0, cut), text.substr(cut + 1));
  }
  // The bytes as a baseline file (an in-memory file: no disk traffic per run).
  static const int fd = ::memfd_create("baseline", 0);
  if (fd >= 0 && ::ftruncate(fd, 0) == 0 && ::pwrite(fd, data, size, 0) == ssize_t(size)) {
    try {
      (void)onnxlint::Baseline::load("/proc/self/fd/" + std::to_string(fd));
    } catch (const onnxlint::ConfigError&) {
    }
  }
  return 0;
}
