// Target verdicts: whether each selected target runtime can run a model, as a typed value.
//
// `target-unsupported-op` computes them (it sees every node against every target's table) and
// the report carries them in the file's "targets" section (docs/json-report.md), which is also
// what crosses the pipe from an isolated worker. This header is the one place that reads that
// section: the emitters, the Python module and C++ callers ask target_verdicts() rather than
// parsing JSON by name. A verdict also accounts for the errors that make runtimes refuse the
// model when they load it (RuleInfo::rejected_at_load): such a model is not "ok" anywhere.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/linter.h>
#include <onnxlint/target_requirement.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ONNXLINT_API onnxlint {

class RuleRegistry;

struct TargetVerdict {
  std::string target;  ///< canonical id, e.g. "tensorrt"
  std::string name;    ///< display name, e.g. "TensorRT"
  Support support = Support::Unsupported;
  uint64_t nodes = 0;  ///< operator nodes of every graph
  uint64_t supported_nodes = 0;
  uint64_t unsupported_nodes = 0;
  uint64_t folded_nodes = 0;    ///< folded into initializers by the runtime
  uint64_t expanded_nodes = 0;  ///< run as their ONNX function bodies
  uint64_t dynamic_shape_nodes = 0;
  uint64_t unsupported_type_nodes = 0;
  uint64_t restriction_nodes = 0;
  uint64_t partitions = 0;  ///< supported partitions of the main graph
  /// Unsupported op labels ("Conv", "com.microsoft:X") and their node counts.
  std::vector<std::pair<std::string, uint64_t>> unsupported_ops;
  bool opset_supported = true;
  bool ir_version_supported = true;
  /// The target hands unsupported nodes to another provider (the CPU) instead of failing.
  bool cpu_fallback = false;
  /// Findings of rules whose errors make runtimes refuse the model at load (rule id, message;
  /// the first few), and how many there are: the verdict is then Unsupported.
  std::vector<std::pair<std::string, std::string>> load_errors;
  uint64_t load_error_count = 0;
  /// Where the target's support table comes from (repository, path, version).
  std::string source_repo, source_path, source_version;
};

/// The verdicts of one file, in the order the targets were given; empty when no target was
/// selected or the file was not linted.
std::vector<TargetVerdict> target_verdicts(const FileReport& file);

/// One line: "tensorrt (TensorRT): partial: 47/49 nodes supported, 2 supported partitions; ...".
std::string verdict_line(const TargetVerdict& v);
/// "tensorrt support table: REPO PATH @ VERSION": where the verdict's table comes from (a report
/// names each once per run).
std::string table_source_line(const TargetVerdict& v);
/// Why the verdict is below Full, briefly ("2 nodes unsupported (NonZero x2)", "the runtime
/// rejects the model at load: opset-too-low: ..."); "" for Full.
std::string verdict_reason(const TargetVerdict& v);

/// Makes every target verdict of `file` Unsupported when it has findings of rules flagged
/// RuleInfo::rejected_at_load, recording them. The linter calls it for each file; a caller that
/// adds or removes findings itself may call it again.
void apply_load_errors(FileReport& file, const RuleRegistry& registry);

/// The verdicts of `file` below what `requirements` ask, as "target: verdict, required level".
std::vector<std::string> unmet_requirements(const FileReport& file,
                                            const std::vector<TargetRequirement>& requirements);

/// decide_verdicts() (linter.h) with requirements: a file whose verdict is below a requirement
/// fails too (exit code 1). Records the requirements in report.run.required_targets.
int decide_verdicts(Report& report, std::optional<Severity> fail_on,
                    const std::vector<TargetRequirement>& requirements);

}  // namespace onnxlint
