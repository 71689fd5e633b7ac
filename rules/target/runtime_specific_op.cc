// target-runtime-specific-op: ONNX Runtime's own ops (contrib ops, NCHWc / internal NHWC
// layouts, EPContext) in a model linted without a target: it was saved by ONNX Runtime's
// optimizer or quantizer, and only ONNX Runtime loads it. With targets selected,
// target-unsupported-op decides per target (and says the same in a note), so this rule is quiet.
#include <fmt/format.h>

#include <map>

#include "rules/categories.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
namespace {

bool is_quantizer_op(std::string_view op) {
  return op.starts_with("QLinear") || op == "QGemm" || op == "QAttention" ||
         op == "DynamicQuantizeMatMul" || op == "MatMulInteger16" ||
         op == "QEmbedLayerNormalization" || op == "MatMulNBits" || op == "DynamicQuantizeLSTM";
}

class RuntimeSpecificOp final : public RuleBase<RuntimeSpecificOp> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "target-runtime-specific-op",
        .category = "target",
        .severity = Severity::Info,
        .summary =
            "ONNX Runtime contrib or internal-layout op: the model loads only in ONNX "
            "Runtime",
    };
    return k;
  }

  void on_model(const Model& m, RuleContext& ctx) override {
    active_ = target::selected_targets(ctx).empty();
    // Only a model using an op of an ONNX Runtime domain has anything to report.
    bool any = false;
    for (const OpKind& k : m.op_kinds()) any = any || target::is_onnxruntime_domain(k.domain);
    active_ = active_ && any;
  }

  // One finding per (domain, op) and graph, at its first node.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    if (!active_) return;
    std::map<std::pair<std::string_view, std::string_view>, std::pair<const Node*, size_t>> seen;
    for (const Node& n : g.nodes()) {
      if (!target::is_onnxruntime_domain(n.domain())) continue;
      if (ctx.model().find_function(n.domain(), n.op_type()) != nullptr) continue;
      auto [it, inserted] = seen.try_emplace(std::pair{n.domain(), n.op_type()}, &n, 0);
      ++it->second.second;
    }
    for (const auto& [key, first] : seen) {
      const Node& n = *first.first;
      const auto [domain, op] = key;
      std::string why;
      if (op == "EPContext") {
        why = "it holds a blob precompiled by one ONNX Runtime execution provider";
      } else if (domain == "com.microsoft.nchwc" || domain == "com.ms.internal.nhwc") {
        why = fmt::format(
            "'{}' is a data layout ONNX Runtime's graph optimizer writes for its "
            "CPU kernels: the model was saved after optimization",
            domain);
      } else if (is_quantizer_op(op)) {
        why = "ONNX Runtime's quantizer writes it (operator-oriented QOperator format)";
      } else {
        why =
            "it is an ONNX Runtime contrib op, written by ONNX Runtime's graph optimizer "
            "(fusions) or transformers optimizer";
      }
      Diagnostic& d =
          ctx.report(ctx.at_node(n), fmt::format("{} '{}' ({}:{}) runs only in ONNX Runtime: {}",
                                                 op, n.display_name(), domain, op, why));
      if (first.second > 1) {
        d.notes.push_back(fmt::format("{} more {} node{} in this graph", first.second - 1, op,
                                      first.second == 2 ? "" : "s"));
      }
      d.notes.push_back(
          "most other runtimes and converters (TensorRT, CoreML, the TFLite converters) reject "
          "the node, OpenVINO reads some com.microsoft ops: select targets (--target) to see "
          "which");
      d.help = op == "EPContext"
                   ? "ship the model with the runtime and SDK it was compiled for, and keep the "
                     "original model to compile again for other targets"
                   : "export the original instead: deploy the torch.onnx.export output, not the "
                     "file written by SessionOptions.optimized_model_filepath or the onnxruntime "
                     "transformers optimizer; quantize with onnxruntime.quantization "
                     "quantize_static(..., quant_format=QuantFormat.QDQ), which keeps standard "
                     "QuantizeLinear/DequantizeLinear";
    }
  }

 private:
  bool active_ = false;
};

}  // namespace

void add_target_runtime_specific_op(RuleRegistry& registry) { registry.add<RuntimeSpecificOp>(); }

}  // namespace onnxlint::rules
