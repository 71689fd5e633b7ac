// opset-removed-op: the schema in force at the imported opset is deprecated (Upsample from
// opset 10, Scatter from 11, ...), and the ONNX checker rejects it.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

struct Replacement {
  std::string_view domain;
  std::string_view op;
  std::string_view use;   // what to use instead, for the message
  std::string_view help;  // the fix in exporter terms
};

// Every deprecated schema of the ONNX 1.22 tables, with what replaces it.
constexpr Replacement kReplacements[] = {
    {"", "GroupNormalization", "GroupNormalization-21",
     "GroupNormalization-18 was withdrawn because its scale and bias were per group instead of "
     "per channel: export with opset_version=21 or newer, or with opset_version=17 or lower "
     "where torch.onnx decomposes group_norm into InstanceNormalization, Mul and Add"},
    {"", "Scatter", "ScatterElements",
     "use ScatterElements (same inputs and semantics); torch.onnx exports scatter as "
     "ScatterElements from opset_version=11 on, so re-export instead of keeping an old graph"},
    {"", "Upsample", "Resize",
     "use Resize; torch.onnx exports F.interpolate / nn.Upsample as Resize from "
     "opset_version=10 on, so re-export (or convert with onnx.version_converter)"},
    {"ai.onnx.ml", "TreeEnsembleClassifier", "TreeEnsemble",
     "use TreeEnsemble (ai.onnx.ml 5), or import ai.onnx.ml 4 or lower (target_opset in "
     "onnxmltools/skl2onnx)"},
    {"ai.onnx.ml", "TreeEnsembleRegressor", "TreeEnsemble",
     "use TreeEnsemble (ai.onnx.ml 5), or import ai.onnx.ml 4 or lower (target_opset in "
     "onnxmltools/skl2onnx)"},
};

class RemovedOp final : public RuleBase<RemovedOp>, ResolvedOps {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-removed-op",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Operator deprecated or removed at the imported opset",
        .node_ops = {"*"},
        .rejected_at_load = true,
    };
    return k;
  }

  bool wants_op(const OpKind& op, RuleContext& ctx) const override {
    return ctx.get<OpResolutionIndex>().any(OpStatus::Removed, op);
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    const OpResolutionIndex& ops = resolved(ctx);
    const OpResolution& r = ops.of(n);
    if (r.status != OpStatus::Removed) return;
    const Replacement* rep = nullptr;
    for (const Replacement& x : kReplacements) {
      if (x.domain == r.domain && x.op == n.op_type()) rep = &x;
    }
    // GroupNormalization-18 was withdrawn and replaced at 21; the others are gone for good.
    const bool replaced_later = r.schema->until_version < find_domain(r.domain)->max_opset;
    std::string msg = replaced_later ? fmt::format("{} is withdrawn at {} to {}; {}", node_label(n),
                                                   opset_text(r.domain, r.schema->since_version),
                                                   r.schema->until_version, imports_text(r))
                                     : fmt::format("{} is removed from {} on; {}", node_label(n),
                                                   opset_text(r.domain, r.schema->since_version),
                                                   imports_text(r));
    if (rep != nullptr) msg += fmt::format(": use {} instead", rep->use);
    Diagnostic& d = ctx.report(ctx.at_node(n), std::move(msg));
    std::span<const OpSchema> versions = op_versions(r.domain, n.op_type());
    const OpSchema* last_live = nullptr;
    for (const OpSchema& s : versions) {
      if (!s.deprecated && s.since_version < r.schema->since_version) last_live = &s;
    }
    if (last_live != nullptr) {
      d.notes.push_back(fmt::format("{}-{} is the last version, valid up to {}", n.op_type(),
                                    last_live->since_version,
                                    opset_text(r.domain, last_live->until_version)));
    }
    d.help = rep != nullptr ? std::string(rep->help)
                            : fmt::format("rewrite {} with the operators that replace it at {}",
                                          n.op_type(), opset_text(r.domain, r.opset));
  }
};

}  // namespace

void add_opset_removed_op(RuleRegistry& registry) { registry.add<RemovedOp>(); }

}  // namespace onnxlint::rules
