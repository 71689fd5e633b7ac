// opset-invalid-attribute: an attribute the op version does not define, a required attribute
// that is missing, or an attribute of the wrong type. One finding per node.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

std::string issue_text(const AttrIssue& i, const Node& n, const OpSchema& s) {
  switch (i.kind) {
    case AttrIssue::Kind::Unknown:
      return fmt::format("attribute '{}' is not defined for {} at any opset", i.name, n.op_type());
    case AttrIssue::Kind::Removed:
      return fmt::format(
          "attribute '{}' is not defined for {}-{} (the last version that had it "
          "ends at {})",
          i.name, n.op_type(), s.since_version, opset_text(s.domain, i.version));
    case AttrIssue::Kind::WrongType:
      return fmt::format("attribute '{}' is {}, {}-{} expects {}", i.name,
                         attr_type_name(i.attribute->type), n.op_type(), s.since_version,
                         attr_type_name(i.expected->type));
    case AttrIssue::Kind::MissingRequired:
      return fmt::format("required attribute '{}' ({}) is missing", i.name,
                         attr_type_name(i.expected->type));
    case AttrIssue::Kind::NeedsNewer:
      break;
  }
  return {};
}

class InvalidAttribute final : public RuleBase<InvalidAttribute>, ResolvedOps {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-invalid-attribute",
        .category = "opset",
        .severity = Severity::Error,
        .summary =
            "Attribute unknown to the op version, required but missing, or of the wrong "
            "type",
        .node_ops = {"*"},
        .rejected_at_load = true,
    };
    return k;
  }

  bool wants_op(const OpKind& op, RuleContext& ctx) const override {
    return ctx.get<OpResolutionIndex>().any_attribute_issue(op);
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    const OpResolutionIndex& ops = resolved(ctx);
    const OpResolution& r = ops.of(n);
    if (r.status != OpStatus::Standard) return;
    std::vector<const AttrIssue*> found;
    for (const AttrIssue& i : ops.issues(r)) {
      if (i.kind != AttrIssue::Kind::NeedsNewer) found.push_back(&i);
    }
    if (found.empty()) return;
    const OpSchema& s = *r.schema;
    std::string msg = node_label(n) + ": " + issue_text(*found.front(), n, s);
    if (found.size() > 1) {
      msg += fmt::format(" (and {} more attribute problem{})", found.size() - 1,
                         found.size() == 2 ? "" : "s");
    }
    Diagnostic& d = ctx.report(ctx.at_node(n), std::move(msg));
    d.key = std::string(found.front()->name);
    bool wrong_name = false;
    for (size_t k = 1; k < found.size(); ++k) d.notes.push_back(issue_text(*found[k], n, s));
    for (const AttrIssue* i : found) {
      wrong_name |= i->kind == AttrIssue::Kind::Unknown || i->kind == AttrIssue::Kind::Removed;
    }
    std::string known;
    for (const AttributeSchema& a : s.attributes) {
      known += known.empty() ? "" : ", ";
      known += a.name;
    }
    d.notes.push_back(fmt::format("{}-{} defines {}", n.op_type(), s.since_version,
                                  known.empty() ? "no attributes" : "attributes " + known));
    d.help = wrong_name ? "fix the attribute in the symbolic function that emits this node "
                          "(g.op(..., name_i=/name_f=/name_s=)), or export with the opset_version "
                          "whose schema defines it"
                        : "set the attribute with the type the schema expects (in a symbolic "
                          "function: the suffix of g.op(..., axis_i=1) picks the type: _i int, _f "
                          "float, _s string, _t tensor)";
  }
};

}  // namespace

void add_opset_invalid_attribute(RuleRegistry& registry) { registry.add<InvalidAttribute>(); }

}  // namespace onnxlint::rules
