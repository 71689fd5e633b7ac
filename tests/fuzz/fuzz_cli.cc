// libFuzzer target: model bytes -> the onnx-lint command line (run_cli, which the executable
// and the Python package's `python3 -m onnxlint` / onnxlint._run_cli both run).
//
// The model is written into a scratch tree with configuration files at two levels, so that
// per-file configuration discovery picks a different file per model:
//   root/onnx-lint.toml                 select ALL, every rule option at an extreme value
//   root/a.onnx                         the input
//   root/sub/pyproject.toml             [tool.onnx-lint]: targets, severities, an override
//   root/sub/deep/m.onnx (+ w.bin)      the input again
// Per input (picked by a hash of it) one run lints the folder (both models, each with its own
// configuration) and one lints root/sub/deep/m.onnx alone, with an output format (every one of
// the CLI's ten) and flags among --hash, --statistics,
// --quiet, --show-infos, --min-severity, --fail-on, --color, --jobs, --target, --no-config,
// --output, --write-baseline and --baseline; then, half the time each, --show-config for
// both models and --list-external-data for the folder. The CLI's stdout goes to /dev/null.
#include <fcntl.h>
#include <onnxlint/registry.h>
#include <onnxlint/rule.h>
#include <onnxlint/targets.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli.h"
#include "fuzz_support.h"
#include "onnx_mutator.h"

namespace {

namespace fs = std::filesystem;

std::string toml_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

struct Tree {
  onnxlint::fuzz::ScratchFolder scratch;
  fs::path root;
  fs::path deep_model;
  fs::path top_model;

  Tree() {
    root = scratch.path();
    fs::create_directories(root / "sub" / "deep");
    top_model = root / "a.onnx";
    deep_model = root / "sub" / "deep" / "m.onnx";
    fs::copy_file(root / "w.bin", root / "sub" / "deep" / "w.bin");

    // Every rule option at an extreme value, as TOML (profile 1's values).
    std::ostringstream top;
    top << "select = [\"ALL\"]\n";
    std::map<std::string, onnxlint::RuleOptions, std::less<>> options =
        onnxlint::fuzz::extreme_rule_options(onnxlint::fuzz::accepted_option_extremes(), 1);
    for (const auto& [rule, values] : options) {
      top << "[rules." << rule << "]\n";
      for (const auto& [name, value] : values) {
        top << toml_string(name) << " = " << onnxlint::option_value_text(value) << "\n";
      }
    }
    std::ofstream(root / "onnx-lint.toml") << top.str();
    std::ofstream(root / "sub" / "pyproject.toml") << R"([project]
name = "fuzz"
[tool.onnx-lint]
targets = ["onnxruntime-cpu", "tensorrt"]
ignore = ["graph-dead-node"]
in-model-suppressions = false
[tool.onnx-lint.severity]
"shape-*" = "error"
[[tool.onnx-lint.overrides]]
files = ["deep/**"]
extend-select = ["ALL"]
)";
    // The CLI's reports are not looked at: only how it ends.
    const int null = ::open("/dev/null", O_WRONLY);
    if (null < 0 || ::dup2(null, STDOUT_FILENO) < 0) std::abort();
    ::close(null);
  }
};

Tree& tree() {
  static Tree instance;
  return instance;
}

int run(std::vector<std::string> args) {
  args.insert(args.begin(), "onnx-lint");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return onnxlint::run_cli(static_cast<int>(args.size()), argv.data());
}

void write_file(const fs::path& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Tree& t = tree();
  write_file(t.top_model, data, size);
  write_file(t.deep_model, data, size);
  uint64_t bits =
      onnxlint::fuzz::input_hash(std::string_view(reinterpret_cast<const char*>(data), size));
  auto take = [&bits](uint64_t n) {
    const uint64_t v = bits % n;
    bits /= n;
    return v;
  };
  constexpr const char* kFormats[] = {"text",   "concise", "summary", "json",     "sarif",
                                      "github", "gitlab",  "junit",   "markdown", "model-explorer"};
  constexpr size_t kFolderFormats = 9;  // model-explorer takes one model
  const std::span<const onnxlint::TargetInfo> targets = onnxlint::all_targets();

  // The folder: each model with the configuration found above it.
  std::vector<std::string> folder_run = {"--format", kFormats[take(kFolderFormats)],
                                         t.root.string()};
  if (take(2) == 0) folder_run.emplace_back("--hash");
  if (take(2) == 0) folder_run.insert(folder_run.end(), {"-j", "2"});
  const int folder_code = run(folder_run);

  // The one model, with more flags.
  std::vector<std::string> one = {"--format", kFormats[take(std::size(kFormats))],
                                  t.deep_model.string()};
  if (take(2) == 0) one.emplace_back("--hash");
  if (take(2) == 0) one.emplace_back("--statistics");
  if (take(3) == 0) one.emplace_back("--quiet");
  if (take(3) == 0) one.emplace_back("--show-infos");
  if (take(3) == 0) one.insert(one.end(), {"--min-severity", "warning"});
  if (take(3) == 0) one.insert(one.end(), {"--fail-on", take(2) == 0 ? "info" : "never"});
  if (take(3) == 0) one.insert(one.end(), {"--color", "always"});
  if (take(3) == 0) one.emplace_back("--no-config");
  if (!targets.empty() && take(2) == 0) {
    one.insert(one.end(), {"--target", std::string(targets[take(targets.size())].id)});
  }
  if (take(4) == 0) one.insert(one.end(), {"--output", (t.root / "out.txt").string()});
  switch (take(4)) {
    case 0:
      one.insert(one.end(), {"--write-baseline", (t.root / "baseline.json").string()});
      break;
    case 1:
      if (fs::exists(t.root / "baseline.json")) {
        one.insert(one.end(), {"--baseline", (t.root / "baseline.json").string()});
      }
      break;
    default:
      break;
  }
  const int one_code = run(one);
  // Neither lints: the configuration per model, and the external-data files of each model.
  const int config_code =
      take(2) == 0 ? run({"--show-config", t.deep_model.string(), t.top_model.string()}) : 0;
  const int list_code = take(2) == 0 ? run({"--list-external-data", t.root.string()}) : 0;
  // Exit codes are 0, 1 or 2 (docs/cli.md); anything else is a bug.
  for (const int code : {folder_code, one_code, config_code, list_code}) {
    if (code < 0 || code > 2) std::abort();
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned seed) {
  return onnxlint::fuzz::custom_mutate(data, size, max_size, seed);
}
