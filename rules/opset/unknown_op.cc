// opset-unknown-op: an op name that no version of a standard domain defines.
#include <fmt/format.h>

#include <map>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

class UnknownOp final : public RuleBase<UnknownOp>, ResolvedOps {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-unknown-op",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Operator unknown in its standard domain at every opset",
        .node_ops = {"*"},
        .rejected_at_load = true,
    };
    return k;
  }

  bool wants_op(const OpKind& op, RuleContext& ctx) const override {
    return ctx.get<OpResolutionIndex>().any(OpStatus::Unknown, op);
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    const OpResolutionIndex& ops = resolved(ctx);
    const OpResolution& r = ops.of(n);
    if (r.status != OpStatus::Unknown) return;
    // Looked up once per (domain, op): a model may repeat one unknown op a million times.
    auto [it, added] = lookups_.try_emplace({r.domain, n.op_type()});
    Lookup& found = it->second;
    if (added) {
      found.elsewhere = domains_defining(n.op_type());
      std::erase(found.elsewhere, r.domain);
      if (found.elsewhere.empty()) found.close = closest_op_names(r.domain, n.op_type());
    }
    const std::vector<std::string_view>& elsewhere = found.elsewhere;
    if (!elsewhere.empty()) {
      const std::string_view where = domain_display_name(elsewhere.front());
      Diagnostic& d = ctx.report(ctx.at_node(n),
                                 fmt::format("{} is not an operator of {}; it is defined in {}",
                                             node_label(n), domain_display_name(r.domain), where));
      d.help = fmt::format(
          "set the node's domain to '{}' and import it (in a symbolic function: "
          "g.op('{}::{}', ...))",
          elsewhere.front(), where, n.op_type());
      return;
    }
    const std::vector<std::string_view>& close = found.close;
    std::string msg = fmt::format("{} is not an operator of {} at any opset", node_label(n),
                                  domain_display_name(r.domain));
    if (!close.empty()) {
      msg += "; did you mean ";
      for (size_t i = 0; i < close.size(); ++i) {
        if (i > 0) msg += i + 1 == close.size() ? " or " : ", ";
        msg += close[i];
      }
      msg += "?";
    }
    Diagnostic& d = ctx.report(ctx.at_node(n), std::move(msg));
    d.help =
        "fix the op name in the symbolic function that emits it; if it is a custom op, put it "
        "in its own domain (g.op('mydomain::Op', ...) with custom_opsets) and ship a runtime "
        "kernel, or implement a symbolic function or rewrite with supported ops";
  }

 private:
  struct Lookup {
    std::vector<std::string_view> elsewhere, close;
  };
  std::map<std::pair<std::string_view, std::string_view>, Lookup> lookups_;
};

}  // namespace

void add_opset_unknown_op(RuleRegistry& registry) { registry.add<UnknownOp>(); }

}  // namespace onnxlint::rules
