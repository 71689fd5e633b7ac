// The rule API: metadata, options and the callbacks the driver invokes in its single walk.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/diagnostic.h>
#include <onnxlint/export.h>
#include <onnxlint/fix.h>
#include <onnxlint/model.h>

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A configured option value (from `[rules.<id>]` in the config file).
using OptionValue = std::variant<bool, int64_t, double, std::string, std::vector<std::string>>;
using RuleOptions = std::map<std::string, OptionValue, std::less<>>;

/// The type of an option: the OptionValue alternative of the same index.
enum class OptionType { Bool, Int, Float, String, Strings };

/// "bool", "int", "float", "string" or "strings" (--list-rules, the docs).
std::string_view option_type_name(OptionType type);
/// `value` as TOML text: `3`, `0.5`, `false`, `"fast"`, `["a", "b"]` (--list-rules,
/// --show-config).
std::string option_value_text(const OptionValue& value);

/// An option of a rule, declared once: the default's alternative is the option's type, and the
/// engine checks configured values against it before any rule sees them. Write the default as
/// `3` (int), `0.5` (float), `false`, `"fast"` or `std::vector<std::string>{"a"}`.
/// An int option accepts `min_int` to `max_int` (default 0 to 2^31 - 1): configured values
/// outside are errors (exit 2), so that a configuration found in a repository cannot raise a
/// count or a size past what the engine can afford.
struct OptionInfo {
  std::string name;
  OptionValue default_value;
  std::string description;
  int64_t min_int = 0;
  int64_t max_int = int64_t{0x7fffffff};

  OptionType type() const { return static_cast<OptionType>(default_value.index()); }
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
  /// Runtimes refuse to load a model with a finding of this rule (their loaders check the
  /// schema, the graph and the data): every target verdict of the file is then "unsupported"
  /// (verdicts.h, apply_load_errors).
  bool rejected_at_load = false;
  /// The rule states fixes for (some of) its findings (RuleContext::fix, docs/fixes.md):
  /// --list-rules says so. A rule that states a fix without declaring it is a bug, reported as
  /// its internal-error finding.
  bool fixable = false;
};

/// A report section (report_section.h, which the rules that add sections include).
struct ReportSection;

class RuleContext;
class Linter;

/// Records the edits of one finding's fix (RuleContext::fix). When the lint does not collect
/// fixes (LintOptions::collect_fixes) the builder is inactive and every call does nothing, so
/// a rule states its fix unconditionally and pays for it only in fix mode.
class FixBuilder {
 public:
  FixBuilder(const Model& model, Fix* fix) : model_(model), fix_(fix) {}
  /// True when the edits are kept: a rule may skip working out an expensive fix otherwise.
  bool active() const { return fix_ != nullptr; }

  void remove_node(const Node& n);
  /// `order`: every node index of `g` once, in the new order.
  void sort_nodes(const Graph& g, std::vector<uint32_t> order);
  void rename_node(const Node& n, std::string name);
  /// Input `k` of `n` becomes `value` ("" omits an optional input).
  void set_node_input(const Node& n, uint32_t k, std::string value);
  /// Keeps the first `keep` outputs of `n`.
  void truncate_outputs(const Node& n, uint32_t keep);
  void set_int_attribute(const Node& n, std::string name, int64_t value);
  void remove_initializer(const Graph& g, std::string name);
  void remove_graph_input(const Graph& g, std::string name);
  void add_initializer(const Graph& g, FixTensor tensor);
  /// The declared type of graph output (or value_info entry) `name` becomes a tensor of
  /// `elem_type` with `shape`.
  void set_value_shape(const Graph& g, std::string name, int32_t elem_type,
                       std::vector<FixDim> shape);
  void add_opset_import(std::string domain, int64_t version);
  /// Clamps the float values of initializer `name` of `g` to ±`bound` (Edit::Kind::ClampFloats).
  void clamp_initializer(const Graph& g, std::string name, double bound);
  /// The same for the tensor attribute `attribute` of node `n` (a Constant's `value`).
  void clamp_attribute(const Node& n, std::string attribute, double bound);
  /// Replaces If node `n` by the nodes of its branch `attribute` (Edit::Kind::InlineBranch).
  void inline_branch(const Node& n, std::string attribute);

 private:
  Edit& add(Edit::Kind kind, const Graph* g);
  const Model& model_;
  Fix* fix_;
};

/// The options a rule is constructed with: the configured values over the defaults declared in
/// its RuleInfo::options. The Linter checks every configured value against its declaration
/// (a float option given an integer or a strings option given one string is converted), so
/// `get` returns the declared type. Valid during the rule's constructor: copy what you keep.
class RuleOptionsView {
 public:
  /// `configured` holds the values given for this rule, each of its declared type (the Linter
  /// guarantees that; a value of another type is a std::logic_error from `get`).
  RuleOptionsView(const RuleInfo& info, const RuleOptions& configured)
      : info_(info), configured_(configured) {}

  /// The value of option `name`: the configured one, else the declared default. T is the
  /// declared type: bool, int64_t, double, std::string or std::vector<std::string>. Throws
  /// std::logic_error when the rule does not declare `name` or declares another type (a bug in
  /// the rule, reported as an internal-error finding).
  template <class T>
  const T& get(std::string_view name) const {
    return std::get<T>(value(name, type_of<T>()));
  }

  const RuleInfo& rule() const { return info_; }

 private:
  template <class T>
  static constexpr OptionType type_of() {
    if constexpr (std::is_same_v<T, bool>) {
      return OptionType::Bool;
    } else if constexpr (std::is_same_v<T, int64_t>) {
      return OptionType::Int;
    } else if constexpr (std::is_same_v<T, double>) {
      return OptionType::Float;
    } else if constexpr (std::is_same_v<T, std::string>) {
      return OptionType::String;
    } else {
      static_assert(std::is_same_v<T, std::vector<std::string>>,
                    "an option is bool, int64_t, double, std::string or std::vector<std::string>");
      return OptionType::Strings;
    }
  }
  const OptionValue& value(std::string_view name, OptionType type) const;

  const RuleInfo& info_;
  const RuleOptions& configured_;
};

/// A rule. One instance is created per model linted, so members may hold per-model state.
/// Callbacks receive const views only: rules never modify the model. Derive from RuleBase
/// rather than from Rule directly.
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
  /// With node_ops {"*"}: whether on_node wants the nodes of this op. Asked once per op the
  /// model uses (Model::op_kinds()), after on_model, so that a rule interested in a few ops,
  /// or in none for this model (a target rule without targets), costs nothing per node. The
  /// context gives the model's analyses: a rule about nodes that resolve one way (an unknown
  /// op, a type check of standard ops) asks a per-op fact (OpKind::id) and runs in the one
  /// pass over the nodes that every such rule shares, instead of walking the graphs itself.
  virtual bool wants_op(const OpKind&, RuleContext&) const { return true; }
  /// For every model-local function, before its body graph is walked.
  virtual void on_function(const Function&, RuleContext&) {}
  /// Once per model, after the whole walk.
  virtual void on_model_end(const Model&, RuleContext&) {}
};

/// The base of a rule class `R`: supplies info() from `R::static_info()`, the RuleInfo that
/// RuleRegistry::add<R>() registers. `R` has a default constructor or, to read options, an
/// `explicit R(const RuleOptionsView&)`.
template <class Derived>
class RuleBase : public Rule {
 public:
  const RuleInfo& info() const final { return Derived::static_info(); }
};

/// What a rule sees while it runs: the model, shared analyses, the selected targets, and where
/// its findings go.
class RuleContext {
 public:
  /// Only the driver creates contexts: the key that the constructor asks for can be made by
  /// Linter alone (a rule receives its context; it never builds one).
  class DriverKey {
    friend class Linter;
    DriverKey() = default;
  };
  /// One model's lint as the driver runs it (the model, its analyses, the targets, and where
  /// findings and sections go). Defined by the driver only.
  struct LintRun;
  RuleContext(DriverKey, LintRun& run, const RuleInfo& rule, Severity severity);

  const Model& model() const { return model_; }
  AnalysisCache& analyses() { return cache_; }
  template <class A>
  const A& get() {
    return cache_.get<A>();
  }
  /// Target runtime ids selected with --target / config `targets` (canonical ids).
  std::span<const std::string> targets() const { return targets_; }

  /// Adds a finding at the rule's configured severity. The returned reference stays valid
  /// for the rest of the model's lint; fill notes/help/key through it.
  Diagnostic& report(Location location, std::string message);
  /// Same, with an explicit severity (for rules whose id covers error and warning cases).
  Diagnostic& report(Severity severity, Location location, std::string message);

  /// Declares the fix of finding `d` (one this context reported): how safe it is and what it
  /// does, in one sentence ("remove the dead node", "fold ... into an initializer"). Fill its
  /// edits through the builder returned (docs/fixes.md).
  FixBuilder fix(Diagnostic& d, FixSafety safety, std::string description);

  /// Adds a section to the file's report (include <onnxlint/report_section.h>).
  void add_section(ReportSection section);

  /// Findings a rule may report per model; later ones are counted, not kept (a hostile file
  /// must not turn into gigabytes of findings). The driver adds one "N more" finding.
  static constexpr uint64_t kMaxFindingsPerModel = 1000;
  /// Whether the rule has reached the cap: a finding reported now is only counted. A rule whose
  /// findings are costly to word (explanations walked through the graph) may then call
  /// count_past_cap() instead of report() and skip the wording.
  bool at_cap() const { return kept_ >= kMaxFindingsPerModel; }
  /// Counts one finding at the rule's severity past the cap, as report() would (only when
  /// at_cap(); before it, a std::logic_error: the finding would have been kept).
  void count_past_cap();
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
  std::span<const std::string> targets_;
  Severity severity_;
  LintRun& run_;
  uint64_t kept_ = 0, dropped_ = 0;
  Severity dropped_severity_ = Severity::Info;
  Diagnostic overflow_;  // what report() fills once the cap is reached; never emitted
};

}  // namespace onnxlint
