// Helpers shared by the fuzz targets (docs/security.md#fuzzing): extreme option values, an
// input hash that picks a configuration, and the scratch folder external data resolves in.
#pragma once

#include <onnxlint/linter.h>
#include <onnxlint/rule.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace onnxlint::fuzz {

/// A rule option and the extreme values of its type that the option validation accepts
/// (0, -1, INT64_MIN/MAX, 2^40; NaN, infinities, 1e308; empty, 5000-byte and control-character
/// strings; empty, long and 1000-entry lists; the other bool).
struct OptionExtremes {
  std::string rule;
  std::string option;
  std::vector<OptionValue> values;
};

/// Every option of every built-in rule with the extremes the Linter accepts for it (each tried
/// alone; the probe costs a Linter construction per value, once at start-up).
std::vector<OptionExtremes> accepted_option_extremes();

/// Rule options for profile `profile` (>= 1): each option at one of its extremes, a different
/// one per profile.
std::map<std::string, RuleOptions, std::less<>> extreme_rule_options(
    const std::vector<OptionExtremes>& extremes, size_t profile);

/// FNV-1a: the hash that picks a configuration per input (deterministic, so a crash reproduces
/// from the input alone).
uint64_t input_hash(std::string_view bytes);

/// A folder under /tmp, removed at exit, holding external-data files for the models: w.bin
/// (4 KiB), empty.bin, a folder sub/ and link.bin, a symlink out of it (to /etc/hostname).
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace onnxlint::fuzz
