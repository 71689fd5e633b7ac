// The rule API: metadata, options and the callbacks the driver invokes in its single walk.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/diagnostic.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A configured option value (from `[rules.<id>]` in the config file).
using OptionValue = std::variant<bool, int64_t, double, std::string, std::vector<std::string>>;
using RuleOptions = std::map<std::string, OptionValue, std::less<>>;

struct OptionInfo {
  std::string name;
  std::string type;           // "bool", "int", "float", "string", "strings"
  std::string default_value;  // as TOML text, for docs and --show-config
  std::string description;
};

/// Static facts about a rule: the single source for --list-rules, --explain, docs and SARIF.
struct RuleInfo {
  std::string id;                         // "<category>-<name>", stable (a contract)
  std::string category;                   // "graph", "shape", ...
  Severity severity = Severity::Warning;  // default severity
  std::string summary;                    // one sentence, no trailing period
  /// Op types whose nodes are passed to on_node; {"*"} = every node; empty = none.
  std::vector<std::string> node_ops;
  std::vector<OptionInfo> options;
  /// Reported by the engine itself (model-unreadable, internal-error): no callbacks.
  bool engine = false;
};

/// A report section (report_section.h, which the rules that add sections include).
struct ReportSection;

class RuleContext;
class Linter;

/// A rule. One instance is created per model linted, so members may hold per-model state.
/// Callbacks receive const views only: rules never modify the model.
class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;

  /// Once per model, before any graph.
  virtual void on_model(const Model&, RuleContext&) {}
  /// For every graph (main, subgraphs at any depth, function bodies), before its nodes.
  virtual void on_graph(const Graph&, RuleContext&) {}
  /// For nodes whose op_type is in info().node_ops (or every node with "*").
  virtual void on_node(const Node&, RuleContext&) {}
  /// For every model-local function, before its body graph is walked.
  virtual void on_function(const Function&, RuleContext&) {}
  /// Once per model, after the whole walk.
  virtual void on_model_end(const Model&, RuleContext&) {}
};

/// What a rule sees while it runs: the model, shared analyses, its options, and the sink for
/// its findings.
class RuleContext {
 public:
  /// Only the driver creates contexts: the key that the constructor asks for can be made by
  /// Linter alone (a rule receives its context; it never builds one).
  class DriverKey {
    friend class Linter;
    DriverKey() = default;
  };
  RuleContext(DriverKey, const Model& model, AnalysisCache& cache, const RuleInfo& rule,
              const RuleOptions& options, std::span<const std::string> targets, Severity severity,
              std::deque<Diagnostic>& sink, std::vector<ReportSection>& sections);

  const Model& model() const { return model_; }
  AnalysisCache& analyses() { return cache_; }
  template <class A>
  const A& get() {
    return cache_.get<A>();
  }
  const RuleOptions& options() const { return options_; }
  /// Target runtime ids selected with --target / config `targets` (canonical ids).
  std::span<const std::string> targets() const { return targets_; }

  int64_t option_int(std::string_view name, int64_t fallback) const;
  bool option_bool(std::string_view name, bool fallback) const;
  std::string option_string(std::string_view name, std::string fallback) const;
  std::vector<std::string> option_strings(std::string_view name) const;

  /// Adds a finding at the rule's configured severity. The returned reference stays valid
  /// for the rest of the model's lint; fill notes/help/key through it.
  Diagnostic& report(Location location, std::string message);
  /// Same, with an explicit severity (for rules whose id covers error and warning cases).
  Diagnostic& report(Severity severity, Location location, std::string message);

  /// Adds a section to the file's report (include <onnxlint/report_section.h>).
  void add_section(ReportSection section);

  /// Findings a rule may report per model; later ones are counted, not kept (a hostile file
  /// must not turn into gigabytes of findings). The driver adds one "N more" finding.
  static constexpr uint64_t kMaxFindingsPerModel = 1000;
  /// Findings reported beyond the cap.
  uint64_t dropped() const { return dropped_; }
  /// The highest severity among them (so that the cap never changes the exit code).
  Severity dropped_severity() const { return dropped_severity_; }

  Location at_model() const;
  Location at_graph(const Graph& g) const;
  Location at_node(const Node& n) const;
  Location at_value(const Graph& g, std::string_view value) const;
  Location at_node_value(const Node& n, std::string_view value) const;

 private:
  const Model& model_;
  AnalysisCache& cache_;
  const RuleInfo& rule_;
  const RuleOptions& options_;
  std::span<const std::string> targets_;
  Severity severity_;
  std::deque<Diagnostic>& sink_;
  std::vector<ReportSection>& sections_;
  uint64_t kept_ = 0, dropped_ = 0;
  Severity dropped_severity_ = Severity::Info;
  Diagnostic overflow_;  // what report() fills once the cap is reached; never emitted
};

}  // namespace onnxlint
