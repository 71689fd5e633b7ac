// libFuzzer target: model bytes -> loader -> every rule -> every output format.
//
// Each input is linted under one of kProfiles configurations, picked by a hash of the input
// (so a run is reproducible from the input alone): profile 0 is the defaults; the others set
// every rule option to an extreme value the option validation accepts (0, -1, INT64_MAX, NaN,
// long strings, ...), turn `--hash` on or in-model suppressions off. Together the profiles check
// every deployment target (four per profile). External data resolves in a scratch folder of
// small files (w.bin, empty.bin, a symlink out of it), where `--hash` reads them.
//
// After linting, the report goes through what the CLI and the Python binding do with it
// (python/src/module.cc: decide_verdicts, a baseline written and applied, hide_below) and every
// emitter: text (full, concise, summary; colour, quiet, statistics, show-infos), JSON, SARIF
// (also with a tiny result cap), GitHub, GitLab, JUnit, Markdown (also with a tiny size cap)
// and Model Explorer (which reads the model again: the input is kept in a memfd for it).
//
// Then the input is fixed in memory (fix_bytes, unsafe fixes on every other input) and the
// fixed model's report goes through every emitter too.
//
// Anything but findings (a crash, a sanitizer report, a leak, more than -timeout seconds or
// -rss_limit_mb) is a bug. The structure-aware mutator is onnx_mutator.cc.
#include <onnxlint/baseline.h>
#include <onnxlint/fix.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/report.h>
#include <onnxlint/targets.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "onnx_mutator.h"

namespace {

constexpr size_t kProfiles = 8;
constexpr size_t kTargetsPerProfile = 4;

struct Profile {
  std::unique_ptr<onnxlint::Linter> linter;
  std::optional<onnxlint::Severity> fail_on;
  bool baseline = false;
};

struct Fixture {
  onnxlint::fuzz::ScratchFolder folder;  // external data resolves here
  int model_fd = -1;                     // the input as a file, for Model Explorer
  std::string model_path;
  std::vector<Profile> profiles;

  Fixture() {
    model_fd = ::memfd_create("model", 0);
    if (model_fd < 0) std::abort();
    model_path = "/proc/self/fd/" + std::to_string(model_fd);
    const std::vector<onnxlint::fuzz::OptionExtremes> extremes =
        onnxlint::fuzz::accepted_option_extremes();
    const std::span<const onnxlint::TargetInfo> targets = onnxlint::all_targets();
    constexpr std::array<std::optional<onnxlint::Severity>, 4> kFailOn = {
        onnxlint::Severity::Error, onnxlint::Severity::Warning, onnxlint::Severity::Info,
        std::nullopt};
    for (size_t p = 0; p < kProfiles; ++p) {
      onnxlint::LintOptions o;
      o.select = {"ALL"};
      for (size_t k = 0; k < kTargetsPerProfile && !targets.empty(); ++k) {
        o.targets.emplace_back(targets[(p * kTargetsPerProfile + k) % targets.size()].id);
      }
      if (p > 0) {
        o.rule_options = onnxlint::fuzz::extreme_rule_options(extremes, p);
        o.hash = p % 2 == 1;
        o.in_model_suppressions = p % 3 != 0;
      }
      Profile profile;
      profile.linter = std::make_unique<onnxlint::Linter>(onnxlint::builtin_registry(), o);
      profile.fail_on = kFailOn[p % kFailOn.size()];
      profile.baseline = p % 2 == 0 && p > 0;
      profiles.push_back(std::move(profile));
    }
  }
};

Fixture& fixture() {
  static Fixture instance;
  return instance;
}

void emit_everything(const onnxlint::Report& report, const onnxlint::Linter& linter) {
  std::ostringstream out;
  for (const onnxlint::TextStyle style :
       {onnxlint::TextStyle::Full, onnxlint::TextStyle::Concise, onnxlint::TextStyle::Files}) {
    onnxlint::TextOptions plain;
    plain.style = style;
    onnxlint::emit_text(report, linter, plain, out);
    onnxlint::TextOptions all;
    all.style = style;
    all.color = true;
    all.statistics = true;
    all.show_infos = true;
    onnxlint::emit_text(report, linter, all, out);
  }
  onnxlint::TextOptions quiet;
  quiet.quiet = true;
  onnxlint::emit_text(report, linter, quiet, out);
  onnxlint::emit_json(report, linter, out);
  onnxlint::emit_sarif(report, linter, out);
  onnxlint::emit_sarif(report, linter, out, 3);
  onnxlint::emit_github(report, linter, out);
  onnxlint::emit_gitlab(report, linter, out);
  onnxlint::emit_junit(report, linter, out);
  onnxlint::emit_markdown(report, linter, out);
  onnxlint::emit_markdown(report, linter, out, 300);
  try {
    onnxlint::emit_model_explorer(report, linter, out);
  } catch (const onnxlint::ConfigError&) {  // documented: not for more than one model
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Fixture& fx = fixture();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const Profile& profile = fx.profiles[onnxlint::fuzz::input_hash(bytes) % fx.profiles.size()];
  const onnxlint::Linter& linter = *profile.linter;

  // The bytes as a file too, for Model Explorer (it reads the model again).
  if (::ftruncate(fx.model_fd, 0) != 0 ||
      ::pwrite(fx.model_fd, data, size, 0) != static_cast<ssize_t>(size)) {
    std::abort();
  }
  onnxlint::Report report;
  report.files.push_back(linter.lint_bytes(fx.model_path, bytes, fx.folder.path().string()));
  report.run.targets = linter.options().targets;
  report.run.tables = onnxlint::table_versions(linter.options().targets);
  if (profile.baseline) {
    // As `--write-baseline` then `--baseline` (and the Python binding's baseline=): every
    // finding recorded, then accepted.
    onnxlint::Baseline recorded(fx.folder.path());
    recorded.add(report);
    std::ostringstream text;
    recorded.write(text);
    (void)recorded.apply(report);
  }
  (void)onnxlint::decide_verdicts(report, profile.fail_on);
  emit_everything(report, linter);
  onnxlint::hide_below(report, onnxlint::Severity::Warning);
  emit_everything(report, linter);

  // Fix mode (docs/fixes.md): the whole lint-apply loop, unsafe fixes on every other input,
  // and the report of the fixed model through every emitter.
  onnxlint::FixOptions fix;
  fix.unsafe = onnxlint::fuzz::input_hash(bytes) % 2 == 1;
  std::string fixed;
  onnxlint::Report fixed_report;
  fixed_report.files.push_back(
      onnxlint::fix_bytes(linter, fx.model_path, bytes, fx.folder.path().string(), fix, fixed));
  (void)onnxlint::decide_verdicts(fixed_report, profile.fail_on);
  emit_everything(fixed_report, linter);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned seed) {
  return onnxlint::fuzz::custom_mutate(data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2, uint8_t* out,
                                            size_t max_out_size, unsigned seed) {
  return onnxlint::fuzz::custom_cross_over(data1, size1, data2, size2, out, max_out_size, seed);
}
