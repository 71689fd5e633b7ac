// A downstream tool: lints the models given on the command line with the built-in rules plus a
// house rule, prints the findings, and exits 0 only when both a built-in and a custom finding
// came back (the package test's check). docs/library.md shows this file verbatim.
#include <onnxlint/onnxlint.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace {

// A rule: static metadata, its options read in the constructor, then callbacks. RuleBase
// supplies info() from static_info(). One instance is created per model, so members may hold
// per-model state. Rules see const views only.
class BannedOp final : public onnxlint::RuleBase<BannedOp> {
 public:
  static const onnxlint::RuleInfo& static_info() {
    static const onnxlint::RuleInfo k{
        .id = "house-banned-op",  // "<category>-<name>", kebab-case
        .category = "house",
        .severity = onnxlint::Severity::Warning,  // default; configuration may override
        .summary = "Node whose operator the house style bans",
        .node_ops = {"*"},  // on_node for every node ({"Reshape"} = only those)
        // Each option once: name, default (its type is the option's type), description.
        .options = {{"ops", std::vector<std::string>{"Abs"}, "Banned operator types"}},
    };
    return k;
  }
  // The configured value or the default, already checked to be a list of strings.
  explicit BannedOp(const onnxlint::RuleOptionsView& options)
      : banned_(options.get<std::vector<std::string>>("ops")) {}

  void on_node(const onnxlint::Node& node, onnxlint::RuleContext& ctx) override {
    if (std::find(banned_.begin(), banned_.end(), node.op_type()) == banned_.end()) return;
    onnxlint::Diagnostic& d = ctx.report(
        ctx.at_node(node), "operator " + std::string(node.op_type()) + " is banned here");
    d.help = "use the approved replacement from the style guide";
  }

 private:
  std::vector<std::string> banned_;
};

}  // namespace

int main(int argc, char** argv) {
  // 1. A registry with the built-in rules and ours. Registration is explicit; the registry
  //    must outlive the linter.
  onnxlint::RuleRegistry registry;
  onnxlint::register_all_rules(registry);
  registry.add<BannedOp>();

  // 2. Options: rule selection, severities, rule options, targets, parallelism.
  onnxlint::LintOptions options;
  options.rule_options["house-banned-op"]["ops"] = std::vector<std::string>{"Add"};
  options.jobs = 2;

  // 3. Lint. The constructor throws onnxlint::ConfigError for an unknown rule, selector,
  //    option or target, or an option of the wrong type; linting never throws for a bad model
  //    (it becomes a model-unreadable finding).
  onnxlint::Linter linter(registry, options);
  std::vector<std::string> paths(argv + 1, argv + argc);  // files or folders
  onnxlint::Report report = linter.lint_paths(paths);

  // 4. Read the findings.
  bool builtin = false, custom = false;
  for (const onnxlint::FileReport& file : report.files) {
    for (const onnxlint::Diagnostic& d : file.diagnostics) {
      const onnxlint::Location& at = d.location;
      std::cout << at.file << ": " << at.anchor()  // "main/Loop_3:body/Add_7"
                << ": " << onnxlint::severity_name(d.severity) << ": " << d.message << " ["
                << d.rule_id << "]\n";
      if (!d.help.empty()) std::cout << "    help: " << d.help << "\n";
      builtin = builtin || d.rule_id == "graph-undefined-value";
      custom = custom || d.rule_id == "house-banned-op";
    }
  }
  std::cout << "onnxlint " << onnxlint::kVersion << ": builtin=" << builtin << " custom=" << custom
            << "\n";

  // 5. Or write one of the command's formats: emit_text, emit_json, emit_sarif, emit_github;
  //    onnxlint::exit_code(report, onnxlint::Severity::Error) gives its exit code (0, 1, 2).
  return builtin && custom ? 0 : 1;
}
