// quant-integer-arithmetic: an op that computes with a QuantizeLinear's integer codes as if they
// were the values, with no DequantizeLinear between them.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "rules/categories.h"
#include "rules/quant/qdq.h"

namespace onnxlint::rules {
namespace {

// Ops whose result depends on what the codes stand for (scale and zero point), not only on
// their order: reading codes gives wrong values. Max, Min, Relu, comparisons, ArgMax and the
// like are left out: on codes of one QuantizeLinear they agree with the values or nearly.
constexpr std::array<std::string_view, 38> kArithmetic = {"Add",
                                                          "AveragePool",
                                                          "BatchNormalization",
                                                          "Conv",
                                                          "ConvTranspose",
                                                          "CumSum",
                                                          "Div",
                                                          "Einsum",
                                                          "Erf",
                                                          "Exp",
                                                          "Gelu",
                                                          "Gemm",
                                                          "GlobalAveragePool",
                                                          "GlobalLpPool",
                                                          "InstanceNormalization",
                                                          "LayerNormalization",
                                                          "Log",
                                                          "LogSoftmax",
                                                          "LpPool",
                                                          "MatMul",
                                                          "Mean",
                                                          "Mod",
                                                          "Mul",
                                                          "Pow",
                                                          "Reciprocal",
                                                          "ReduceL1",
                                                          "ReduceL2",
                                                          "ReduceLogSum",
                                                          "ReduceLogSumExp",
                                                          "ReduceMean",
                                                          "ReduceProd",
                                                          "ReduceSum",
                                                          "ReduceSumSquare",
                                                          "Sigmoid",
                                                          "Softmax",
                                                          "Sqrt",
                                                          "Sub",
                                                          "Sum"};

// Ops that move or select codes without computing with them: a QuantizeLinear's codes stay codes
// through them (ONNX Runtime runs the same ops on quantized tensors in QDQ models). Cast keeps
// the codes too: Cast(int8 → float) of a QuantizeLinear's output is the codes as floats.
constexpr std::array<std::string_view, 17> kMovesCodes = {
    "Cast",           "Concat",   "DepthToSpace", "Expand",  "Flatten",  "Gather",
    "GatherElements", "GatherND", "Identity",     "MaxPool", "Reshape",  "Slice",
    "SpaceToDepth",   "Split",    "Squeeze",      "Tile",    "Transpose"};

bool in(std::span<const std::string_view> ops, const Node& n) {
  return n.in_default_domain() && std::find(ops.begin(), ops.end(), n.op_type()) != ops.end();
}

class IntegerArithmetic final : public RuleBase<IntegerArithmetic> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "quant-integer-arithmetic",
        .category = "quant",
        .severity = Severity::Warning,
        .summary =
            "Op computing with a QuantizeLinear's integer codes without a "
            "DequantizeLinear in between",
        .node_ops = {kArithmetic.begin(), kArithmetic.end()},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!n.in_default_domain()) return;
    if (vt_ == nullptr) vt_ = &ctx.get<ValueTable>();  // once per model, not per node
    const ValueTable& vt = *vt_;
    for (size_t k = 0; k < n.inputs().size(); ++k) {
      std::vector<const Node*> path;
      const Node* q = quantize_behind(vt, vt.input(n, k), path);
      if (q == nullptr) continue;
      std::string through;
      for (const Node* p : path) {
        through += fmt::format("{}{} '{}'", through.empty() ? ", through " : " → ", p->op_type(),
                               p->display_name());
      }
      Diagnostic& d = ctx.report(
          ctx.at_node(n),
          fmt::format("{} '{}' computes with the integer codes of {} (input {}{}) as if they "
                      "were values: the scale and zero point are never applied",
                      n.op_type(), n.display_name(), qdq_label(*q), k, through));
      d.help =
          "put a DequantizeLinear (with the QuantizeLinear's scale and zero point) before this "
          "op, as quantization tools do: QuantizeLinear → DequantizeLinear → op; with "
          "torch.ao.quantization, call dequantize() before float ops";
      return;  // one finding per node
    }
  }

 private:
  const ValueTable* vt_ = nullptr;

  // The QuantizeLinear whose codes reach `v` through code-moving ops only (at most kMaxSteps
  // of them, first input of each), or nullptr. `path` gets the ops passed, nearest first.
  static const Node* quantize_behind(const ValueTable& vt, ValueId v,
                                     std::vector<const Node*>& path) {
    constexpr int kMaxSteps = 16;
    for (int step = 0; step <= kMaxSteps && v != kNoValue; ++step) {
      const Node* p = vt.producer(v);
      if (p == nullptr) return nullptr;
      if (p->op_type() == "QuantizeLinear" && is_qdq(*p)) return p;
      if (!in(kMovesCodes, *p) || p->inputs().empty()) return nullptr;
      path.push_back(p);
      v = vt.input(*p, 0);
    }
    return nullptr;
  }
};

}  // namespace

void add_quant_integer_arithmetic(RuleRegistry& registry) { registry.add<IntegerArithmetic>(); }

}  // namespace onnxlint::rules
