// export-aten-op: ATen fallback nodes (operator_export_type=ONNX_ATEN_FALLBACK / ONNX_ATEN) and
// anything in the org.pytorch.aten domain.
#include <fmt/format.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

constexpr std::string_view kAtenDomain = "org.pytorch.aten";

// ATen operators that have a standard ONNX counterpart from some opset on: the usual reason
// for a fallback is an opset_version below that.
struct Standardized {
  std::string_view aten;
  std::string_view onnx_op;
  int opset;
};
constexpr Standardized kStandardized[] = {
    {"col2im", "Col2Im", 18},
    {"grid_sampler", "GridSample", 16},
    {"group_norm", "GroupNormalization", 21},
    {"layer_norm", "LayerNormalization", 17},
    {"stft", "STFT", 17},
};

class AtenOp final : public RuleBase<AtenOp> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-aten-op",
        .category = "export",
        .severity = Severity::Error,
        .summary = "ATen fallback node that only PyTorch-aware runtimes can execute",
        .node_ops = {"*"},
    };
    return k;
  }

  bool wants_op(const OpKind& op, RuleContext&) const override {
    return op.op_type == "ATen" || op.domain == kAtenDomain;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    std::string aten(n.attr_string("operator").value_or(""));
    if (aten.empty() && n.op_type() != "ATen") aten = std::string(n.op_type());
    std::string label =
        n.name().empty() ? n.display_name() : fmt::format("{} '{}'", n.op_type(), n.name());
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        fmt::format("{} is a PyTorch ATen fallback{}; only runtimes built with PyTorch's ATen "
                    "operators can execute it",
                    label, aten.empty() ? "" : fmt::format(" for aten::{}", aten)));
    d.key = aten;
    const Standardized* std_op = nullptr;
    for (const Standardized& s : kStandardized) {
      if (s.aten == aten) std_op = &s;
    }
    if (std_op != nullptr) {
      d.notes.push_back(fmt::format("ONNX has {} since opset {}", std_op->onnx_op, std_op->opset));
      d.help = fmt::format(
          "export with opset_version={} or newer so torch.onnx emits {}, and drop "
          "operator_export_type=ONNX_ATEN_FALLBACK; otherwise implement a symbolic function or "
          "rewrite with supported ops",
          std_op->opset, std_op->onnx_op);
    } else {
      d.help =
          "implement a symbolic function (torch.onnx.register_custom_op_symbolic) or "
          "rewrite with supported ops, try a newer opset_version, and export without "
          "operator_export_type=ONNX_ATEN_FALLBACK so unsupported ops fail at export time";
    }
  }
};

}  // namespace

void add_export_aten_op(RuleRegistry& registry) { registry.add<AtenOp>(); }

}  // namespace onnxlint::rules
