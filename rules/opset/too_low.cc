// opset-too-low: an op, attribute or attribute value that needs a newer opset than imported.
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

class TooLow final : public RuleBase<TooLow>, ResolvedOps {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-too-low",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Operator, attribute or attribute value newer than the imported opset",
        .node_ops = {"*"},
        .rejected_at_load = true,
    };
    return k;
  }

  bool wants_op(const OpKind& op, RuleContext& ctx) const override {
    return ctx.get<OpResolutionIndex>().any_needed_opset(op);
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    const OpResolutionIndex& ops = resolved(ctx);
    const OpResolution& r = ops.of(n);
    if (r.needed_opset == 0) return;
    if (r.status != OpStatus::TooLow && r.status != OpStatus::Standard) return;
    if (axis_of_quantization(n, r, ops.issues(r), ctx.get<Provenance>())) return;
    report(n, r, ops.issues(r), ctx);
  }

 private:
  // One cause, one finding: a QuantizeLinear/DequantizeLinear with per-axis scales whose only
  // newer part is its `axis` (per-axis quantization, opset 13) is quant-per-channel-opset's,
  // which says what per-axis quantization needs.
  static bool axis_of_quantization(const Node& n, const OpResolution& r,
                                   std::span<const AttrIssue> issues, const Provenance& p) {
    if (r.status != OpStatus::Standard || !n.in_default_domain() ||
        (n.op_type() != "QuantizeLinear" && n.op_type() != "DequantizeLinear")) {
      return false;
    }
    const auto scale = n.input_count() > 1 ? p.static_dims(p.input(n, 1)) : std::nullopt;
    if (!scale || scale->size() != 1 || (*scale)[0] <= 1) return false;  // not per-axis
    bool axis = false;
    for (const AttrIssue& i : issues) {
      if (i.kind != AttrIssue::Kind::NeedsNewer) continue;
      if (i.name != "axis") return false;
      axis = true;
    }
    return axis;
  }

  static std::string issue_text(const AttrIssue& i) {
    if (!i.value.empty()) {
      return i.attribute != nullptr && i.attribute->type == Attribute::Type::String
                 ? fmt::format("{}='{}'", i.name, i.value)
                 : fmt::format("{}={}", i.name, i.value);
    }
    return fmt::format("attribute '{}'", i.name);
  }

  static void report(const Node& n, const OpResolution& r, std::span<const AttrIssue> issues,
                     RuleContext& ctx) {
    const int needed = r.needed_opset;
    // The headline names what sets the version: the attribute needing the most, if it needs
    // more than the op itself.
    const AttrIssue* top = nullptr;
    for (const AttrIssue& i : issues) {
      if (i.kind == AttrIssue::Kind::NeedsNewer && i.version == needed &&
          (r.status != OpStatus::TooLow || i.version > r.schema->since_version)) {
        top = &i;
        break;
      }
    }
    std::string what = node_label(n);
    if (top != nullptr) what += " with " + issue_text(*top);
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        fmt::format("{} needs {}; {}", what, min_opset_text(r.domain, needed), imports_text(r)));
    if (r.status == OpStatus::TooLow) {
      std::span<const OpSchema> versions = op_versions(r.domain, n.op_type());
      if (!versions.empty() && versions.front().deprecated &&
          versions.front().since_version < r.schema->since_version) {
        d.notes.push_back(fmt::format("{}-{} was withdrawn (deprecated); {}-{} replaces it",
                                      n.op_type(), versions.front().since_version, n.op_type(),
                                      r.schema->since_version));
      } else if (top != nullptr) {
        d.notes.push_back(fmt::format("{} itself exists since {}", n.op_type(),
                                      opset_text(r.domain, r.schema->since_version)));
      }
    }
    for (const AttrIssue& i : issues) {
      if (i.kind != AttrIssue::Kind::NeedsNewer) continue;
      std::string note =
          fmt::format("{} needs {}", issue_text(i), min_opset_text(r.domain, i.version));
      if (!i.source.empty()) note += fmt::format(" ({})", i.source);
      d.notes.push_back(std::move(note));
    }
    d.help = raise_opset_help(r.domain, needed);
    if (r.status == OpStatus::Standard && issues.size() == 1 && top != nullptr) {
      d.help += top->value.empty() ? fmt::format("; or drop attribute '{}' to stay at {}",
                                                 top->name, opset_text(r.domain, r.opset))
                                   : fmt::format("; or use a {} value that {} accepts", top->name,
                                                 opset_text(r.domain, r.opset));
    }
  }
};

}  // namespace

void add_opset_too_low(RuleRegistry& registry) { registry.add<TooLow>(); }

}  // namespace onnxlint::rules
