// quant-qdq-mismatch: a DequantizeLinear reading a QuantizeLinear's output with other
// quantization parameters than those it was quantized with.
#include <fmt/format.h>
#include <onnxlint/element_types.h>

#include <algorithm>

#include "rules/categories.h"
#include "rules/quant/qdq.h"

namespace onnxlint::rules {
namespace {

class QdqMismatch final : public RuleBase<QdqMismatch> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "quant-qdq-mismatch",
        .category = "quant",
        .severity = Severity::Warning,
        .summary =
            "QuantizeLinear and DequantizeLinear pair with different scale, zero point "
            "or axis",
        .node_ops = {"DequantizeLinear"},
    };
    return k;
  }

  void on_node(const Node& dq, RuleContext& ctx) override {
    if (!is_qdq(dq) || dq.inputs().size() < 2) return;
    const ValueTable& vt = ctx.get<ValueTable>();
    const Node* q = vt.producer(vt.input(dq, 0));
    // torch.onnx.export puts a Cast to the same type between the two (uint8 → uint8).
    if (q != nullptr && q->op_type() == "Cast" && q->in_default_domain() && !q->inputs().empty()) {
      const Node* before = vt.producer(vt.input(*q, 0));
      if (before != nullptr && is_qdq(*before) && before->op_type() == "QuantizeLinear") {
        // The QuantizeLinear's output type, as inferred (zero point, output_dtype, uint8).
        const int32_t type = ctx.get<ElementTypes>().output_elem(*before, 0);
        if (type != 0 && q->attr_int("to") == type) q = before;
      }
    }
    if (q == nullptr || !is_qdq(*q) || q->op_type() != "QuantizeLinear" || q->inputs().size() < 2) {
      return;
    }
    std::string diff;
    const auto qs = floats(vt, ctx, *q, 1), ds = floats(vt, ctx, dq, 1);
    if (!qs || !ds) return;  // computed at run time, or too large to read
    if (*qs != *ds) {
      diff = fmt::format("scale {} vs {}", text(*qs), text(*ds));
    } else {
      const auto qz = ints(vt, ctx, *q, 2), dz = ints(vt, ctx, dq, 2);
      if (!qz || !dz) return;
      if (*qz != *dz) {
        diff = fmt::format("zero point {} vs {}", text(*qz), text(*dz));
      } else if (qs->size() > 1 &&
                 q->attr_int("axis").value_or(1) != dq.attr_int("axis").value_or(1)) {
        diff = fmt::format("axis {} vs {}", q->attr_int("axis").value_or(1),
                           dq.attr_int("axis").value_or(1));
      }
    }
    if (diff.empty()) return;
    Diagnostic& d =
        ctx.report(ctx.at_node(dq),
                   fmt::format("{} dequantizes the output of {} with other parameters than it was "
                               "quantized with ({}), so the values come out rescaled",
                               qdq_label(dq), qdq_label(*q), diff));
    d.help =
        "a quantizer writes one scale and zero point per tensor and uses them on both sides of "
        "the pair: re-run onnxruntime.quantization (quantize_static) or fix the hand-written "
        "pair to share the scale and zero-point initializers";
  }

 private:
  static const TensorData* tensor(const ValueTable& vt, const Node& n, size_t k) {
    const auto c = vt.constant(vt.input(n, k));
    return c && !c->overridable ? c->tensor : nullptr;
  }
  static std::optional<std::vector<double>> floats(const ValueTable& vt, RuleContext& ctx,
                                                   const Node& n, size_t k) {
    const TensorData* t = tensor(vt, n, k);
    return t ? ctx.model().read_floats(*t, 4096) : std::nullopt;
  }
  // The zero point (absent: 0); nullopt when not a readable constant.
  static std::optional<std::vector<int64_t>> ints(const ValueTable& vt, RuleContext& ctx,
                                                  const Node& n, size_t k) {
    if (k >= n.inputs().size() || n.inputs()[k].empty()) return std::vector<int64_t>{0};
    const TensorData* t = tensor(vt, n, k);
    auto v = t ? ctx.model().read_ints(*t, 4096) : std::nullopt;
    if (v && v->size() > 1 && std::all_of(v->begin(), v->end(), [](int64_t z) { return z == 0; }))
      return std::vector<int64_t>{0};
    return v;
  }
  static std::string one(double x) { return fmt::format("{:g}", x); }
  static std::string one(int64_t x) { return std::to_string(x); }
  template <class T>
  static std::string text(const std::vector<T>& v) {
    if (v.size() == 1) return one(v[0]);
    std::string s = "[";
    for (size_t i = 0; i < v.size() && i < 4; ++i) s += (i ? ", " : "") + one(v[i]);
    return s + (v.size() > 4 ? ", ...]" : "]");
  }
};

}  // namespace

void add_quant_qdq_mismatch(RuleRegistry& registry) { registry.add<QdqMismatch>(); }

}  // namespace onnxlint::rules
