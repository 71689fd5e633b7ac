// export-python-op: PythonOp nodes, left by torch.onnx when a custom autograd Function has no
// symbolic and the export falls through (OperatorExportTypes.ONNX_FALLTHROUGH).
#include <fmt/format.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class PythonOp final : public RuleBase<PythonOp> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-python-op",
        .category = "export",
        .severity = Severity::Error,
        .summary = "PythonOp node: a Python autograd Function exported without a symbolic",
        .node_ops = {"PythonOp"},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    // torch.onnx may record the autograd.Function class in the `name` attribute
    // (newer exporters), and the Python module it came from in `module`.
    std::string fn(n.attr_string("name").value_or(""));
    std::string module(n.attr_string("module").value_or(""));
    std::string label =
        n.name().empty() ? n.display_name() : fmt::format("PythonOp '{}'", n.name());
    std::string what = fn.empty() ? "a Python autograd Function"
                                  : fmt::format("the Python autograd Function '{}'", fn);
    if (!module.empty()) what += fmt::format(" (module '{}')", module);
    Diagnostic& d = ctx.report(
        ctx.at_node(n), fmt::format("{} calls {}, which no ONNX runtime can execute", label, what));
    if (!n.domain().empty()) d.notes.push_back(fmt::format("domain '{}'", n.domain()));
    d.help = fmt::format(
        "give {} a static symbolic(g, ...) method that emits ONNX ops (or register one with "
        "torch.onnx.register_custom_op_symbolic), i.e. implement a symbolic function or rewrite "
        "with supported ops; do not export with operator_export_type=ONNX_FALLTHROUGH",
        fn.empty() ? "the autograd.Function" : fn);
  }
};

}  // namespace

void add_export_python_op(RuleRegistry& registry) { registry.add<PythonOp>(); }

}  // namespace onnxlint::rules
