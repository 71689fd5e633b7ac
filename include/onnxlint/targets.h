// Deployment-target operator support tables (TensorRT, ONNX Runtime EPs, OpenVINO, onnx-mlir,
// onnx2tf, ...) and the lookups the target rules use.
//
// The data is generated at build time by tools/gen_target_tables.py from
// rules/tables/targets/*.json (one file per target, copied from the runtimes' own documentation)
// plus rules/tables/targets/extra_facts.json (aliases, display names, static-shape / rank / IR
// facts, each with its source). Everything here is static, read-only data: the views stay valid
// for the whole program. See docs/targets.md for the meaning of every field and the decision
// rules of check_op().
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/opset_table.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// How the version numbers of a target's operator table are to be read.
enum class VersionSemantics : uint8_t {
  /// The table carries no version data (every op has `versions_known == false`): an op is
  /// accepted at whatever opset the host runtime accepts (see TargetInfo::min_opset/max_opset).
  None,
  /// ONNX Runtime style: the numbers are ONNX schema since-versions. A node in a model that
  /// imports opset N uses the op's largest since-version <= N; that number is checked.
  OpSinceVersion,
  /// TensorRT / OpenVINO / onnx-mlir style: the numbers are model opset-import values.
  ModelOpset,
};

/// Inclusive version range. `to == 0` means open-ended (covers every later version).
struct VersionRange {
  int from = 0;
  int to = 0;
  constexpr bool contains(int v) const { return v >= from && (to == 0 || v <= to); }
};

/// The types one kernel accepts for one type parameter of the op schema ("T", "T1", "Tind").
struct TypeParamTypes {
  std::string_view param;
  std::span<const std::string_view> types;  // sorted
};

/// The types one kernel (version range) accepts. Only the ONNX Runtime tables
/// (OperatorKernels.md) carry these.
struct TypedRange {
  VersionRange versions;
  /// Union over all its type parameters.
  std::span<const std::string_view> types;
  /// Per type parameter, sorted by name. A type parameter of the schema that is not listed is
  /// not constrained by the kernel (any type the schema allows).
  std::span<const TypeParamTypes> params;

  /// The kernel's types for `param`, or nullptr when the kernel does not constrain it.
  const TypeParamTypes* find_param(std::string_view param) const;
};

/// One operator a target supports.
struct TargetOp {
  std::string_view domain;  // "" = ai.onnx
  std::string_view op;
  /// False when the source gives no version data ("versions": null).
  bool versions_known = false;
  /// Merged inclusive ranges, read according to TargetInfo::semantics.
  std::span<const VersionRange> versions;
  /// Accepted types in ORT spelling ("tensor(float)", "seq(tensor(int64))", ...); the union over
  /// all versions and type parameters. Empty = the source lists no types (unknown).
  std::span<const std::string_view> types;
  /// ORT only: per-kernel version ranges with their own type sets (see type_supported()).
  std::span<const TypedRange> typed_ranges;
  /// Short restriction facts (paraphrased from the runtime docs), "" if none.
  std::string_view notes;
  /// onnx2tf only: "supported" or "partial"; "" for other targets.
  std::string_view status;
  /// onnx2tf flatbuffer_direct: the README lists conditions for the builtin lowering.
  bool has_constraints = false;
  /// onnx2tf flatbuffer_direct: unsupported patterns may be emitted as TFLite CUSTOM ops.
  bool custom_op_fallback = false;
  /// OpenVINO: ONNX schema versions of this op handled by an older translator (new attributes
  /// or types of those versions may not work).
  std::span<const int> unregistered_newer_versions;
  /// onnx-mlir NNPA: oldest / newest accelerator level that offloads the op ("" = none/newest).
  std::string_view min_hw_level;
  std::string_view max_hw_level;
};

/// A per-domain opset bound. `domain` "" = ai.onnx.
struct DomainOpset {
  std::string_view domain;
  int opset = 0;
};

/// Where a fact added by onnx-lint (extra_facts.json) comes from.
struct FactSource {
  std::string_view fact;  // e.g. "requires_static_shapes"
  std::string_view source;
};

/// One deployment target.
struct TargetInfo {
  std::string_view id;            // file name, e.g. "onnxruntime-cpu"
  std::string_view display_name;  // short name for messages, e.g. "TensorRT 10.15"
  std::string_view runtime;
  std::string_view runtime_version;
  /// The runtime this table is one release of: "tensorrt" for "tensorrt@8.6" and for
  /// "tensorrt" itself (the newest table). Facts of the runtime rather than of a table (TensorRT
  /// casts double down; ORT's CPU EP runs float16 on float kernels) are keyed by family.
  std::string_view family;
  /// The release the table describes ("8.6", "10.15"), "" when the table has no versions.
  /// `--target tensorrt@8.6` selects it; `tensorrt@10` the newest 10.x; `tensorrt` the newest.
  std::string_view version;
  std::string_view source_repo;
  std::string_view source_path;
  std::string_view source_version;            // commit or version the table was extracted from
  std::span<const std::string_view> aliases;  // e.g. {"ort-cpu"}
  VersionSemantics semantics = VersionSemantics::None;
  bool versions_specified = false;
  /// Target-wide opset bounds per domain (table values plus extra facts); a domain that is not
  /// listed has no known bound.
  std::span<const DomainOpset> min_opset;
  std::span<const DomainOpset> max_opset;
  int max_ir_version = 0;  // 0 = unknown
  /// The runtime rejects (or does not offload) nodes whose inputs have dynamic shapes.
  bool requires_static_shapes = false;
  /// Dynamic shapes work but are documented to cost performance (CoreML).
  bool prefers_static_shapes = false;
  int max_rank = 0;     // 0 = unknown
  int64_t max_dim = 0;  // largest accepted dimension value of an input; 0 = unknown
  /// Nodes the target cannot take are run elsewhere (ORT EPs fall back to another EP, usually
  /// CPU; onnx-mlir NNPA runs them on the CPU) instead of failing the whole model.
  bool cpu_fallback = false;
  /// The runtime turns Constant nodes, and nodes computed only from constants, into
  /// initializers before it assigns nodes (ONNX Runtime's graph loading and ConstantFolding), so
  /// such nodes need no kernel. check_op() accepts Constant on these targets.
  bool constant_folding = false;
  /// A node the target has no kernel for, whose ONNX schema defines a function body, is
  /// replaced by the body's nodes (ONNX Runtime's function inlining): it is not unsupported as
  /// such (the body's ops are what must run).
  bool inlines_functions = false;
  std::span<const std::string_view> global_notes;
  std::span<const TargetOp> ops;                  // sorted by (domain, op)
  std::span<const std::string_view> unsupported;  // "domain::Op", sorted; listed as NOT supported
  std::span<const std::string_view> covered_domains;  // domains with any op or unsupported entry
  std::span<const FactSource> extra_fact_sources;     // one entry per fact from extra_facts.json
};

/// Every target, sorted by id.
std::span<const TargetInfo> all_targets();

/// Looks a target up by id ("onnxruntime-cpu") or alias ("ort-cpu"), either one optionally
/// followed by "@<version>": "tensorrt@8.6" is that release's table, "trt@10" the newest table
/// of a 10.x release, "tensorrt@10.15" the newest table itself. nullptr if unknown.
const TargetInfo* find_target(std::string_view id_or_alias);

/// The tables of one family (TargetInfo::family), oldest release first.
std::vector<const TargetInfo*> target_versions(std::string_view family);

/// Comma-separated list of every id and alias, for "unknown target" messages.
std::string target_names_for_help();

/// The table versions a run uses, for RunInfo::tables: ("onnx", the operator table's ONNX
/// release), then (id, runtime version) for each of `targets` (ids or aliases) that is known.
std::vector<std::pair<std::string, std::string>> table_versions(
    const std::vector<std::string>& targets);

/// Canonical target ids for ids or aliases (`--target`, LintOptions::targets), without
/// repeats, in order; throws ConfigError ("unknown target 'x'; known targets: ...") naming an
/// unknown one. Linter's constructor applies it to LintOptions::targets.
std::vector<std::string> resolve_targets(const std::vector<std::string>& names);

/// The canonical id of a target id or alias, or nullopt: the TargetResolver for load_config.
std::optional<std::string> canonical_target(std::string_view name);

/// Binary search in target.ops. `domain` "" and "ai.onnx" are the same.
const TargetOp* find_target_op(const TargetInfo& target, std::string_view domain,
                               std::string_view op);

/// True when the target's documentation lists the op explicitly as not supported.
bool is_listed_unsupported(const TargetInfo& target, std::string_view domain, std::string_view op);

/// Target-wide opset bound for a domain; 0 when unknown.
int target_min_opset(const TargetInfo& target, std::string_view domain);
int target_max_opset(const TargetInfo& target, std::string_view domain);

enum class OpVerdict : uint8_t {
  Supported,
  /// Not in the target's operator list (or its domain is not supported at all).
  Unsupported,
  /// The target's documentation lists the op explicitly as not supported.
  ListedUnsupported,
  /// The op is known but not at this version, or the model opset is outside what the target
  /// accepts.
  VersionOutOfRange,
  /// The target has no operator data at all, so nothing can be said.
  Unknown,
};

std::string_view to_string(OpVerdict verdict);

struct OpCheck {
  OpVerdict verdict = OpVerdict::Unknown;
  const TargetOp* entry = nullptr;  // table entry when the op is listed
  /// True for Unsupported verdicts on a domain the target has no operators for and that is not
  /// a standard ONNX domain: the op could still work through a custom-op plugin/extension.
  bool custom_domain = false;
  /// One sentence naming the runtime and version, e.g. "TensorRT 10.15 supports GridSample only
  /// for opset 9-24; the model imports 25."
  std::string reason;
  bool supported() const { return verdict == OpVerdict::Supported; }
};

/// Decides whether `target` accepts the node `domain::op`.
///
/// `since_version`: the op's ONNX schema since-version resolved at the model's opset for that
/// domain (the caller resolves it; 0 = unknown, which skips the since-version check).
/// `model_opset`: the model's opset import for that domain (0 = unknown, skips opset checks).
///
/// Order: listed-unsupported -> absent from the table -> the op's own version ranges (read per
/// TargetInfo::semantics) -> the target-wide min/max opset for the domain.
OpCheck check_op(const TargetInfo& target, std::string_view domain, std::string_view op,
                 int since_version, int model_opset);

/// True when `type_string` (ORT spelling, e.g. "tensor(float16)") is among the op's types, or
/// when the table lists no types for the op (unknown counts as supported).
bool type_supported(const TargetOp& op, std::string_view type_string);

/// Like above, but when the op has per-kernel type sets (ORT) and `since_version` > 0, checks
/// the kernel whose range contains `since_version`; falls back to the union otherwise.
bool type_supported(const TargetOp& op, std::string_view type_string, int since_version);

/// The ORT kernel whose version range contains `since_version`, or nullptr (no per-kernel data,
/// or no kernel for that version).
const TypedRange* find_kernel(const TargetOp& op, int since_version);

/// "7-9", "13+", "1-5, 7 and 13+": version ranges as text for messages.
std::string version_ranges_text(std::span<const VersionRange> ranges);

}  // namespace onnxlint
