#include "fuzz_support.h"

#include <onnxlint/registry.h>
#include <stdlib.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <system_error>

namespace onnxlint::fuzz {
namespace {

std::vector<OptionValue> extreme_values(const OptionValue& default_value) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  switch (static_cast<OptionType>(default_value.index())) {
    case OptionType::Bool:
      return {!std::get<bool>(default_value)};
    case OptionType::Int:
      return {int64_t{0},
              int64_t{-1},
              int64_t{1},
              std::numeric_limits<int64_t>::max(),
              std::numeric_limits<int64_t>::min(),
              int64_t{1} << 40};
    case OptionType::Float:
      return {0.0, -1.0, 1e308, kInf, -kInf, std::nan(""), 1e-300, -0.0};
    case OptionType::String:
      return {std::string(), std::string(5000, 's'), std::string("*"),
              std::string("\n::error::x\x1b[2J")};
    case OptionType::Strings:
      break;
  }
  return {std::vector<std::string>{}, std::vector<std::string>{""},
          std::vector<std::string>{"*", "N", std::string(5000, 'n')},
          std::vector<std::string>(1000, "batch")};
}

bool accepted(const LintOptions& options) {
  try {
    const Linter probe(builtin_registry(), options);
    return true;
  } catch (const ConfigError&) {
    return false;
  }
}

}  // namespace

std::vector<OptionExtremes> accepted_option_extremes() {
  std::vector<OptionExtremes> out;
  for (const RuleRegistry::Entry& e : builtin_registry().entries()) {
    for (const OptionInfo& o : e.info->options) {
      OptionExtremes x{e.info->id, o.name, {}};
      for (OptionValue& v : extreme_values(o.default_value)) {
        LintOptions probe;
        probe.select = {e.info->id};
        probe.rule_options[e.info->id][o.name] = v;
        if (accepted(probe)) x.values.push_back(std::move(v));
      }
      if (!x.values.empty()) out.push_back(std::move(x));
    }
  }
  return out;
}

std::map<std::string, RuleOptions, std::less<>> extreme_rule_options(
    const std::vector<OptionExtremes>& extremes, size_t profile) {
  std::map<std::string, RuleOptions, std::less<>> out;
  for (size_t k = 0; k < extremes.size(); ++k) {
    const OptionExtremes& x = extremes[k];
    out[x.rule][x.option] = x.values[(profile + k) % x.values.size()];
  }
  LintOptions probe;
  probe.select = {"ALL"};
  probe.rule_options = out;
  if (!accepted(probe)) out.clear();  // a combination refused: the defaults
  return out;
}

uint64_t input_hash(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

ScratchFolder::ScratchFolder() {
  char folder[] = "/tmp/onnxlint-fuzz-XXXXXX";
  if (::mkdtemp(folder) == nullptr) std::abort();
  path_ = folder;
  std::ofstream(path_ / "w.bin", std::ios::binary) << std::string(4096, '\x3f');
  std::ofstream(path_ / "empty.bin", std::ios::binary).flush();
  std::filesystem::create_directory(path_ / "sub");
  std::error_code ec;
  std::filesystem::create_symlink("/etc/hostname", path_ / "link.bin", ec);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace onnxlint::fuzz
