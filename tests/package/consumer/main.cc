// A downstream tool: registers its own house rule next to the built-in ones, lints the models
// given on the command line and checks that both kinds of findings come back.
// Usage: consumer MODEL... ; exit 0 when a built-in and a custom finding were reported.
#include <onnxlint/onnxlint.h>

#include <algorithm>
#include <iostream>

namespace {

// Flags nodes whose op type the house style bans (option "ops", default ["Abs"]).
class BannedOp final : public onnxlint::Rule {
 public:
  static const onnxlint::RuleInfo& static_info() {
    static const onnxlint::RuleInfo k{
        .id = "house-banned-op",
        .category = "house",
        .severity = onnxlint::Severity::Warning,
        .summary = "Node whose operator the house style bans",
        .node_ops = {"*"},
        .options = {{"ops", "strings", "[\"Abs\"]", "Banned operator types"}},
    };
    return k;
  }
  const onnxlint::RuleInfo& info() const override { return static_info(); }

  void on_node(const onnxlint::Node& node, onnxlint::RuleContext& ctx) override {
    std::vector<std::string> banned = ctx.option_strings("ops");
    if (banned.empty()) banned = {"Abs"};
    if (std::find(banned.begin(), banned.end(), node.op_type) == banned.end()) return;
    onnxlint::Diagnostic& d =
        ctx.report(ctx.at_node(node), "operator " + std::string(node.op_type) + " is banned here");
    d.help = "use the approved replacement from the style guide";
  }
};

}  // namespace

int main(int argc, char** argv) {
  onnxlint::RuleRegistry registry;
  onnxlint::register_all_rules(registry);
  registry.add<BannedOp>();

  onnxlint::LintOptions options;
  options.rule_options["house-banned-op"]["ops"] = std::vector<std::string>{"Add"};
  onnxlint::Linter linter(registry, options);

  std::vector<std::string> paths(argv + 1, argv + argc);
  onnxlint::Report report = linter.lint_paths(paths);
  bool builtin = false, custom = false;
  for (const onnxlint::FileReport& file : report.files) {
    for (const onnxlint::Diagnostic& d : file.diagnostics) {
      std::cout << d.location.file << ": " << d.location.anchor() << ": "
                << onnxlint::severity_name(d.severity) << ": " << d.message << " [" << d.rule_id
                << "]\n";
      builtin = builtin || d.rule_id == "graph-undefined-value";
      custom = custom || d.rule_id == "house-banned-op";
    }
  }
  std::cout << "onnxlint " << onnxlint::kVersion << ": builtin=" << builtin << " custom=" << custom
            << "\n";
  return builtin && custom ? 0 : 1;
}
