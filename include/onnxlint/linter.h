// The Linter facade: load → analyse → run enabled rules → filtered, sorted findings.
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/export.h>
#include <onnxlint/registry.h>
#include <onnxlint/report_section.h>
#include <onnxlint/rule.h>
#include <onnxlint/target_requirement.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A usage or configuration error (unknown rule id, bad value): exit code 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Severity override for rules matching `pattern` (id, category or glob).
struct SeverityOverride {
  std::string pattern;
  Severity severity;
};

struct LintOptions;

/// Chooses per-file options (the config file's `[[overrides]]`). Files whose key is equal share
/// one set of options; the Linter builds and caches one sub-linter per key.
class FileOptionsResolver {
 public:
  virtual ~FileOptionsResolver() = default;
  /// A key naming the options that apply to the model at `path` ("" = the Linter's own).
  virtual std::string key(std::string_view path) const = 0;
  /// The options for a non-empty key. They must pass validation whenever the Linter's own
  /// options do (their `per_file` is ignored).
  virtual LintOptions options(std::string_view key) const = 0;
};

/// LintOptions::file_time_limit's default: the time one file may take in an isolated run
/// (`--file-timeout`; docs/security.md, "Crash isolation", says why this value).
inline constexpr std::chrono::seconds kDefaultFileTimeLimit{300};

struct LintOptions {
  /// Rule selectors: ids, categories ("shape"), globs ("graph-*") or "ALL". Empty = all.
  std::vector<std::string> select;
  std::vector<std::string> extend_select;  // added to select (or to the default set)
  std::vector<std::string> ignore;
  std::vector<SeverityOverride> severity;                        // later entries win
  std::map<std::string, RuleOptions, std::less<>> rule_options;  // by rule id
  std::vector<std::string> targets;  // target ids or aliases (resolved by target rules)
  int jobs = 1;
  /// Honour `onnx-lint:disable` in the model's metadata_props.
  bool in_model_suppressions = true;
  /// SHA-256 of each model file and of its external-data files in the reports (reads every
  /// byte of the weights; off by default).
  bool hash = false;
  /// Lint each file of lint_paths()/lint_inputs() in a worker process (`jobs` at a time), so that
  /// a fatal signal in one file becomes its internal-error finding and the other files' reports
  /// are complete (<onnxlint/isolation.h>). Off by default (the command turns it on for folders
  /// and several files); lint_file/lint_bytes/lint_model always run in the calling process.
  bool isolate = false;
  /// With `isolate`: the time one file's worker may take (loading, rules, summary, sending the
  /// report); past it the worker and any process it started are killed (SIGKILL) and the file's
  /// report is an internal-error finding saying it timed out, in which phase and rule. Zero = no
  /// limit. Without `isolate` it does not apply (nothing could stop a lint in the calling
  /// process without ending it).
  std::chrono::milliseconds file_time_limit = kDefaultFileTimeLimit;
  /// Per-file options (see FileOptionsResolver); null = these options for every file.
  std::shared_ptr<const FileOptionsResolver> per_file;
  /// Measure where each file's lint spends its time (FileReport::timings; `--timings`). Off by
  /// default: each rule callback then reads the clock twice.
  bool timings = false;
  /// Keep the edits of the fixes rules propose (FileReport::fixes). Findings say whether they
  /// have a fix either way; fix_model() turns this on for its lints.
  bool collect_fixes = false;
};

/// A dimension as a report states it.
struct DimSummary {
  enum class Kind : uint8_t {
    Fixed,     ///< `value`
    Symbolic,  ///< `text`: a dim_param as declared, or the analysis's expression ("N+1")
    Data,      ///< set by tensor values at run time: `text` names the origin node; `bound`
    Unknown,
  };
  Kind kind = Kind::Unknown;
  int64_t value = 0;
  std::string text;
  int64_t bound = -1;  ///< Data: a static upper bound, -1 if none is known
};

/// A graph input or output as the model states it (and, for outputs, as the analysis finds it).
struct ValueSignature {
  std::string name;
  std::string type;  ///< "tensor(float)", "seq(tensor(int64))", ...; "" when not stated
  /// The declared dims; nullopt when no shape is stated (or the type has none).
  std::optional<std::vector<DimSummary>> dims;
  /// Outputs: each dim as the per-dimension analysis proves it (fixed, an expression in input
  /// dims, data-dependent or unknown); nullopt when not even the rank is known. Empty for inputs.
  std::optional<std::vector<DimSummary>> analysis;
};

/// An external-data file the model refers to (each location once, in first-use order).
struct ExternalFile {
  std::string location;  ///< as written in the model
  uint64_t tensors = 0;  ///< tensors stored in it
  /// Size on disk; nullopt when the file was not looked at (`error` says why).
  std::optional<uint64_t> bytes;
  std::string sha256;  ///< lowercase hex, with LintOptions::hash; "" otherwise or on error
  std::string error;   ///< why the file was not sized or hashed ("" = fine)
};

/// Facts about a loaded model for reports (absent when the model is unreadable).
struct ModelSummary {
  int64_t ir_version = 0;
  std::vector<std::pair<std::string, int64_t>> opset_imports;
  std::string producer_name;
  std::string producer_version;
  int64_t model_version = 0;
  std::string doc_string;  ///< at most kSummaryDocStringBytes (doc_string_bytes: the full size)
  uint64_t doc_string_bytes = 0;
  std::string graph_name;
  std::vector<std::pair<std::string, std::string>> metadata_props;  ///< in file order
  std::vector<ValueSignature> inputs;   ///< main graph inputs that are not initializers
  std::vector<ValueSignature> outputs;  ///< main graph outputs
  /// Nodes per domain ("ai.onnx" for the default one) and op type, over every graph (subgraphs
  /// and function bodies included).
  std::map<std::string, std::map<std::string, uint64_t>> ops;
  uint64_t graphs = 0;
  uint64_t nodes = 0;
  uint64_t initializers = 0;
  uint64_t functions = 0;
  uint64_t file_bytes = 0;
  uint64_t initializer_bytes = 0;  // embedded payload bytes
  uint64_t external_bytes = 0;     // bytes declared in external data
  std::string sha256;              ///< of the model file, with LintOptions::hash
  std::vector<ExternalFile> external_data;
};

/// Where one file's lint spent its time (LintOptions::timings). Times are self times: the
/// analysis a rule asks for first is counted to the analysis, not to the rule.
struct TimingEntry {
  enum class Kind : uint8_t {
    Phase,     ///< "load" (reading and indexing the file), "summary", "findings", "free"
    Analysis,  ///< an analysis of the AnalysisCache ("Provenance", "ElementTypes", ...)
    Rule,      ///< a rule's callbacks, by rule id
  };
  Kind kind = Kind::Phase;
  std::string name;
  uint64_t nanoseconds = 0;
  uint64_t calls = 0;  ///< phases and analyses: 1 per file; rules: callbacks run
};
/// "phase", "analysis" or "rule", as the --timings table and the Python module name the kinds.
std::string_view timing_kind_name(TimingEntry::Kind kind);

/// Longest doc_string a ModelSummary keeps (a report is no place for a model card).
inline constexpr size_t kSummaryDocStringBytes = 4096;

struct FileReport {
  /// Ok: linted. Unreadable: not a readable model (a model-unreadable finding says why).
  /// PathError: a path given that yields no model to lint: it does not exist, is a folder that
  /// cannot be listed or one without any *.onnx file (`error` says which); nothing was linted.
  enum class Status : uint8_t { Ok, Unreadable, PathError };
  std::string path;
  Status status = Status::Ok;
  std::string error;  // Status::PathError: why, e.g. "no such file or folder"
  std::optional<ModelSummary> model;
  std::vector<Diagnostic> diagnostics;  // sorted
  std::vector<ReportSection> sections;
  uint64_t suppressed = 0;  // findings hidden by in-model suppressions
  uint64_t baselined = 0;   // findings matched by the baseline
  uint64_t hidden = 0;      // findings below the shown severity (hide_below)
  /// Rules that reported more than RuleContext::kMaxFindingsPerModel findings: rule id ->
  /// findings not kept (each such rule has one extra finding saying how many).
  std::map<std::string, uint64_t> capped;
  /// Whether this file fails the run (see decide_verdicts()); false until verdicts are decided.
  bool failed = false;
  /// The configuration file that applied to this file ("" = none: built-in defaults and the
  /// command line). Filled by the caller that found it (the CLI: per-file config discovery).
  std::string config_file;
  /// With LintOptions::collect_fixes: the fixes of the findings reported (not of those
  /// suppressed in the model), in the order the rules proposed them. Only a lint in the
  /// calling process collects them (fix_model() lints there).
  std::vector<PlannedFix> fixes;
  /// Set by fix_model(): what fixing this model did (the report is then the fixed model's).
  std::optional<FixSummary> fixing;
  /// With LintOptions::timings: phases, analyses and rules in the order they first ran.
  std::vector<TimingEntry> timings;
};

/// What a run was asked to do, for report headers. The library's emitters print it as given;
/// the caller (the CLI, the Python module) fills it.
struct RunInfo {
  /// The threshold of decide_verdicts(); nullopt = never fail (`--fail-on never`).
  std::optional<Severity> fail_on = Severity::Error;
  std::vector<std::string> targets;  // canonical target ids
  std::string config_file;           // the configuration file read; "" = built-in defaults
  std::string baseline_file;         // "" = no baseline
  /// Verdicts each file must reach (`--require-target`; verdicts.h, decide_verdicts).
  std::vector<TargetRequirement> required_targets;
  /// Versions of the tables the run used: ("onnx", release) and (target id, runtime version)
  /// for each target checked. The tables live in onnxlint::rules; the caller names them.
  std::vector<std::pair<std::string, std::string>> tables;
};

struct Report {
  std::vector<FileReport> files;  // in input order (deterministic with --jobs)
  RunInfo run;
  std::map<std::string, uint64_t> count_by_rule() const;
  uint64_t count(Severity s) const;
  uint64_t count_at_least(Severity s) const;
  bool has_internal_error() const;
  /// Some file could not be read as a model (FileReport::Status::Unreadable).
  bool has_unreadable() const;
  /// Some path given yielded no model (FileReport::Status::PathError): exit code 2.
  bool has_path_error() const;
  /// Files linted (status Ok or Unreadable): every entry but the path errors.
  uint64_t files_linted() const;
};

/// One input of a run: a model file to lint ("-" for stdin), or a path that yields no model.
struct InputPath {
  std::string path;
  std::string error;  // empty: a model file; else why the path yields none
};

/// Expands paths: files as given, folders searched recursively for *.onnx (sorted), "-" kept.
/// A path that does not exist, a folder (or subfolder) that cannot be listed and a folder
/// without any *.onnx file become entries with an error, in their place: the run goes on.
std::vector<InputPath> expand_inputs(const std::vector<std::string>& paths);

/// expand_inputs() for callers that want all or nothing: throws ConfigError ("PATH: why") for
/// the first path that yields no model.
std::vector<std::string> expand_paths(const std::vector<std::string>& paths);

class FileHashCache;  // lib/driver/model_summary.h

class Linter {
 public:
  /// Validates the options against the registry as the command line does, with its messages:
  /// throws ConfigError naming a bad selector, rule id, option, option type or target
  /// (targets become canonical ids). Keeps a reference to `registry`, which must outlive the
  /// linter. The const members may be called from several threads at once.
  Linter(const RuleRegistry& registry, LintOptions options);

  const LintOptions& options() const { return options_; }
  const RuleRegistry& registry() const { return registry_; }
  /// Rule ids enabled by the selection, sorted.
  std::vector<std::string> enabled_rules() const;
  bool is_enabled(std::string_view rule_id) const;
  Severity severity_of(const RuleInfo& info) const;

  /// Lints one file ("-" reads stdin). Never throws for bad input: an unreadable model gives
  /// a model-unreadable finding.
  FileReport lint_file(const std::string& path) const;
  /// Lints bytes already in memory without copying them (they need to stay valid only for
  /// the call). External data is resolved in `directory`, by default the folder of `name`
  /// ("." for "-", as for stdin).
  FileReport lint_bytes(const std::string& name, std::string_view bytes,
                        std::optional<std::string> directory = {}) const;
  /// Expands and lints every path, `options().jobs` files at a time. A path that yields no
  /// model is a FileReport with Status::PathError in its place (see expand_inputs()).
  Report lint_paths(const std::vector<std::string>& paths,
                    const std::function<void(size_t done, size_t total)>& progress = {}) const;
  /// Lints inputs already expanded (expand_inputs()), in their order.
  Report lint_inputs(const std::vector<InputPath>& inputs,
                     const std::function<void(size_t done, size_t total)>& progress = {}) const;
  /// Lints a model that is already loaded.
  FileReport lint_model(const Model& model) const;

  /// The linter for a file's own options (`*this` unless options().per_file picks others).
  const Linter& for_path(std::string_view path) const;

 private:
  const RuleRegistry& registry_;
  LintOptions options_;
  std::vector<const RuleRegistry::Entry*> enabled_;
  struct PerFileCache;
  std::shared_ptr<PerFileCache> per_file_cache_;  // shared: copies of a Linter share it
  /// External-data digests of the run (--hash), by file identity: each file is read once
  /// however many models and spellings name it. Shared with copies and per-file linters.
  std::shared_ptr<FileHashCache> hash_cache_;
};

/// Exit code per the CLI contract: 2 on internal errors and path errors, 1 if any finding is at or
/// above `fail_on` or any model is unreadable (whatever the rule selection; nullopt = never fail),
/// else 0.
int exit_code(const Report& report, std::optional<Severity> fail_on);

/// Whether one file fails at `fail_on`, as exit_code() decides for the run: a path error or an
/// internal error always; with a threshold, an unreadable model or a finding at or above it.
bool file_fails(const FileReport& file, std::optional<Severity> fail_on);

/// Records the verdicts in the report (`run.fail_on`, each FileReport::failed) and returns
/// exit_code(report, fail_on). Call it before hide_below(), which drops findings.
int decide_verdicts(Report& report, std::optional<Severity> fail_on);

/// Drops findings below `min` from every file, counting them in FileReport::hidden: what is
/// shown (`--min-severity`). Compute exit_code() first: failing does not depend on what is shown.
void hide_below(Report& report, Severity min);

/// Whether a selector (id, category, glob, "ALL") matches a rule.
bool selector_matches(std::string_view selector, const RuleInfo& info);

}  // namespace onnxlint
