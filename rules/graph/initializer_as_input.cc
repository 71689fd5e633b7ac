// graph-initializer-as-input: initializers also listed as graph inputs (IR >= 4).
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class InitializerAsInput final : public RuleBase<InitializerAsInput> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-initializer-as-input",
        .category = "graph",
        .severity = Severity::Warning,
        .summary =
            "Initializers also listed as graph inputs (overridable, which blocks "
            "constant folding)",
        .fixable = true,
    };
    return k;
  }

  // One finding per graph: the cause is a single export flag, not each weight.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    if (g.kind() != Graph::Kind::Main) return;
    // Before IR 4 every initializer had to be an input; that is not a finding.
    if (ctx.model().ir_version() < 4) return;
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    std::vector<std::string_view> names;
    for (const ValueInfo& in : g.inputs()) {
      const ValueDef* def = info.local(in.name_id);
      if (def && def->kind() == ValueDef::Kind::Input && def->tensor() != nullptr) {
        names.push_back(in.name);
      }
    }
    if (names.empty()) return;
    Diagnostic& d = ctx.report(
        ctx.at_value(g, names.front()),
        fmt::format("{} of {} initializers {} also listed as graph inputs, so a runtime must "
                    "treat {} as overridable inputs",
                    names.size(), g.initializers().size(), names.size() == 1 ? "is" : "are",
                    names.size() == 1 ? "it" : "them"));
    std::string list;
    for (size_t i = 0; i < names.size() && i < 8; ++i) {
      list += (i ? ", " : "") + std::string(names[i]);
    }
    if (names.size() > 8) list += fmt::format(", … ({} more)", names.size() - 8);
    d.notes.push_back("initializers listed as inputs: " + list);
    d.help =
        "export with torch.onnx.export(..., keep_initializers_as_inputs=False), the "
        "default for opset >= 9; this lets runtimes fold constants";
    FixBuilder fix = ctx.fix(
        d, FixSafety::Safe,
        names.size() == 1
            ? std::string("remove the initializer from the graph inputs")
            : fmt::format("remove the {} initializers from the graph inputs", names.size()));
    for (std::string_view name : names) fix.remove_graph_input(g, std::string(name));
  }
};

}  // namespace

void add_graph_initializer_as_input(RuleRegistry& registry) { registry.add<InitializerAsInput>(); }

}  // namespace onnxlint::rules
