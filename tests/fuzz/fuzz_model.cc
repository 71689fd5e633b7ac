// libFuzzer target: model bytes -> loader -> every rule with three targets -> every emitter.
// Anything but a finding or an error (a crash, a sanitizer report, a leak, a stall) is a bug.
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/report.h>
#include <onnxlint/targets.h>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

namespace {

const onnxlint::Linter& linter() {
  static const onnxlint::Linter instance = [] {
    onnxlint::LintOptions o;
    o.select = {"ALL"};
    // Three targets of different kinds: a CPU runtime, a GPU compiler, a mobile runtime.
    for (const onnxlint::TargetInfo& t : onnxlint::all_targets()) {
      if (o.targets.size() < 3 && (t.id.find("cpu") != std::string_view::npos ||
                                   t.id.find("tensorrt") != std::string_view::npos ||
                                   t.id.find("mobile") != std::string_view::npos ||
                                   t.id.find("coreml") != std::string_view::npos)) {
        o.targets.emplace_back(t.id);
      }
    }
    return onnxlint::Linter(onnxlint::builtin_registry(), o);
  }();
  return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  onnxlint::Report report;
  report.files.push_back(linter().lint_bytes("fuzz.onnx", bytes));
  std::ostringstream out;
  onnxlint::emit_text(report, linter(), onnxlint::TextOptions{}, out);
  onnxlint::TextOptions color;
  color.color = true;
  color.statistics = true;
  onnxlint::emit_text(report, linter(), color, out);
  onnxlint::emit_json(report, linter(), out);
  onnxlint::emit_sarif(report, linter(), out);
  onnxlint::emit_github(report, linter(), out);
  return 0;
}
