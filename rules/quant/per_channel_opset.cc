// quant-per-channel-opset: per-axis QuantizeLinear/DequantizeLinear below opset 13.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/quant/qdq.h"

namespace onnxlint::rules {
namespace {

class PerChannelOpset final : public RuleBase<PerChannelOpset> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "quant-per-channel-opset",
        .category = "quant",
        .severity = Severity::Error,
        .summary = "Per-axis QuantizeLinear or DequantizeLinear below opset 13",
        .node_ops = {"DequantizeLinear", "QuantizeLinear"},
        .rejected_at_load = true,
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_qdq(n) || n.inputs().size() < 2) return;
    const Provenance& p = ctx.get<Provenance>();
    const int64_t opset = p.opset(n);
    if (opset <= 0 || opset >= 13) return;
    const auto scale = p.static_dims(p.input(n, 1));
    if (!scale || scale->size() != 1 || (*scale)[0] <= 1) return;
    Diagnostic& d = ctx.report(
        ctx.at_node_value(n, n.inputs()[1]),
        fmt::format("{} has {} per-axis scales in '{}', but {}-10 (opset {}) takes a scalar "
                    "scale only: per-axis quantization needs opset 13",
                    qdq_label(n), (*scale)[0], n.inputs()[1], n.op_type(), opset));
    d.help =
        "export and quantize at opset 13 or later (torch.onnx.export(..., opset_version=13); "
        "onnxruntime.quantization quantize_static(..., per_channel=True) needs the model at "
        "opset >= 13, so convert it with onnx.version_converter first), or quantize per tensor "
        "(per_channel=False)";
  }
};

}  // namespace

void add_quant_per_channel_opset(RuleRegistry& registry) { registry.add<PerChannelOpset>(); }

}  // namespace onnxlint::rules
