// A downstream tool that links onnxlint::core alone: the engine (with its engine rules) and one
// house rule, no built-in rules. Exits 0 when the house rule reported on the model given.
#include <onnxlint/onnxlint.h>
#include <onnxlint/targets.h>

#include <iostream>
#include <string>

namespace {

class NodeCount final : public onnxlint::RuleBase<NodeCount> {
 public:
  static const onnxlint::RuleInfo& static_info() {
    static const onnxlint::RuleInfo k{
        .id = "house-node-count",
        .category = "house",
        .severity = onnxlint::Severity::Info,
        .summary = "Number of nodes of the main graph",
    };
    return k;
  }

  void on_model(const onnxlint::Model& model, onnxlint::RuleContext& ctx) override {
    ctx.report(ctx.at_model(), std::to_string(model.graph().nodes().size()) + " nodes");
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  onnxlint::RuleRegistry registry;
  onnxlint::register_engine_rules(registry);
  registry.add<NodeCount>();
  onnxlint::LintOptions options;
  options.targets = {std::string(onnxlint::all_targets().front().id)};  // tables: in core
  onnxlint::Linter linter(registry, options);
  onnxlint::FileReport report = linter.lint_file(argv[1]);
  for (const onnxlint::Diagnostic& d : report.diagnostics) {
    std::cout << d.rule_id << ": " << d.message << "\n";
  }
  return report.diagnostics.size() == 1 && report.diagnostics[0].rule_id == "house-node-count" ? 0
                                                                                               : 1;
}
