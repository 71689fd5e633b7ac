// quant-scale-length: a per-axis scale or zero point whose length does not match the
// quantized axis, or a zero point shaped unlike its scale.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/quant/qdq.h"

namespace onnxlint::rules {
namespace {

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    s += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
  }
  return s + "]";
}

class ScaleLength final : public RuleBase<ScaleLength> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "quant-scale-length",
        .category = "quant",
        .severity = Severity::Error,
        .summary =
            "Per-axis quantization scale or zero point whose length does not match the "
            "quantized axis",
        .node_ops = {"DequantizeLinear", "QuantizeLinear"},
        .fixable = true,
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_qdq(n) || n.inputs().size() < 2) return;
    // Blocked quantization (opset 21 `block_size`): the scale has x's rank; not checked.
    if (n.attr_int("block_size").value_or(0) > 0) return;
    const Provenance& p = ctx.get<Provenance>();
    const auto scale = p.static_dims(p.input(n, 1));
    const auto zero = n.inputs().size() > 2 ? p.static_dims(p.input(n, 2)) : std::nullopt;
    if (scale && scale->size() >= 2) {
      Diagnostic& d = ctx.report(
          ctx.at_node_value(n, n.inputs()[1]),
          fmt::format("{} has a scale '{}' of shape {}, but a scale is a scalar (per tensor) "
                      "or 1-D (per axis) unless `block_size` is set",
                      qdq_label(n), n.inputs()[1], shape_text(*scale)));
      d.key = "scale-rank";
      d.help = help();
      return;
    }
    // Below opset 13 there is no per-axis form (quant-per-channel-opset reports it).
    if (scale && scale->size() == 1 && (*scale)[0] > 1 && p.opset(n) >= 13) {
      check_axis(n, ctx, p, *scale);
    }
    // A scalar and a 1-element vector are the same per-tensor parameter to every runtime.
    auto count = [](const std::vector<int64_t>& d) { return d.empty() ? int64_t{1} : d[0]; };
    if (scale && zero && zero->size() <= 1 && count(*scale) >= 0 && count(*zero) >= 0 &&
        count(*scale) != count(*zero)) {
      mismatch(n, ctx, *scale, *zero);
    }
  }

 private:
  static std::string help() {
    return "the quantizer wrote inconsistent parameters: re-run the quantization "
           "(onnxruntime.quantization quantize_static(..., per_channel=True) takes the channel "
           "axis from the weight) or pass the weight's channel axis as `axis` when building "
           "the QuantizeLinear/DequantizeLinear pair by hand";
  }

  void check_axis(const Node& n, RuleContext& ctx, const Provenance& p,
                  const std::vector<int64_t>& scale) {
    const auto x = p.static_dims(p.input(n, 0));
    if (!x) return;
    const int64_t rank = static_cast<int64_t>(x->size());
    const int64_t axis_attr = n.attr_int("axis").value_or(1);
    const int64_t axis = axis_attr < 0 ? axis_attr + rank : axis_attr;
    if (axis < 0 || axis >= rank) {
      Diagnostic& d = ctx.report(
          ctx.at_node_value(n, n.inputs()[1]),
          fmt::format("{} quantizes '{}' (rank {}) per axis along axis {}, which it does not "
                      "have ({} scales)",
                      qdq_label(n), n.inputs()[0], rank, axis_attr, scale[0]));
      d.key = "axis";
      d.help = help();
      offer_axis(n, ctx, d, *x, scale[0]);
      return;
    }
    const int64_t size = (*x)[static_cast<size_t>(axis)];
    if (size < 0 || size == scale[0]) return;
    Diagnostic& d = ctx.report(
        ctx.at_node_value(n, n.inputs()[1]),
        fmt::format("{} has {} per-axis scales in '{}' but '{}' {} has {} elements along axis "
                    "{}",
                    qdq_label(n), scale[0], n.inputs()[1], n.inputs()[0], shape_text(*x), size,
                    axis_attr));
    d.key = "axis";
    d.help = help();
    offer_axis(n, ctx, d, *x, scale[0]);
  }

  // The unsafe fix: `axis` set to the one axis of the quantized tensor whose length is the
  // number of scales (a weight quantized along its output channels, axis 0, with the default
  // axis 1). Not offered when no axis, or several, have that length: which one was meant is
  // then not known.
  static void offer_axis(const Node& n, RuleContext& ctx, Diagnostic& d,
                         const std::vector<int64_t>& x, int64_t scales) {
    int64_t found = -1;
    for (size_t j = 0; j < x.size(); ++j) {
      if (x[j] != scales) continue;
      if (found >= 0) return;
      found = static_cast<int64_t>(j);
    }
    if (found < 0) return;
    ctx.fix(d, FixSafety::Unsafe,
            fmt::format("set axis to {}, the only axis of '{}' with {} elements", found,
                        n.inputs()[0], scales))
        .set_int_attribute(n, "axis", found);
  }

  void mismatch(const Node& n, RuleContext& ctx, const std::vector<int64_t>& scale,
                const std::vector<int64_t>& zero) {
    Diagnostic& d = ctx.report(
        ctx.at_node_value(n, n.inputs()[2]),
        fmt::format("{} has a zero point '{}' of shape {} but a scale '{}' of shape {}: they "
                    "must have the same shape",
                    qdq_label(n), n.inputs()[2], shape_text(zero), n.inputs()[1],
                    shape_text(scale)));
    d.key = "zero-point";
    d.help = help();
  }
};

}  // namespace

void add_quant_scale_length(RuleRegistry& registry) { registry.add<ScaleLength>(); }

}  // namespace onnxlint::rules
