// opset-invalid-arity: input or output count outside the op version's schema, or an empty name
// where the schema needs a value.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

std::string range_text(int lo, int hi) {
  if (hi == kUnboundedArity) return fmt::format("at least {}", lo);
  if (lo == hi) return fmt::format("exactly {}", lo);
  return fmt::format("{} to {}", lo, hi);
}

class InvalidArity final : public RuleBase<InvalidArity> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-invalid-arity",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Input or output count outside what the op version accepts",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const auto& ops = ctx.get<OpResolutionIndex>();
    for (const Node& n : g.nodes()) {
      const OpResolution& r = ops.of(n);
      if (r.status != OpStatus::Standard) continue;
      const OpSchema& s = *r.schema;
      std::vector<std::string> problems;
      check(n.inputs(), s.inputs, s.min_input, s.max_input, "input", s, n, problems);
      check(n.outputs(), s.outputs, s.min_output, s.max_output, "output", s, n, problems);
      if (problems.empty()) continue;
      Diagnostic& d = ctx.report(ctx.at_node(n), node_label(n) + " " + problems.front());
      for (size_t k = 1; k < problems.size(); ++k) d.notes.push_back(problems[k]);
      d.help = fmt::format(
          "check the symbolic function that emits {} against the {}-{} signature (optional "
          "inputs are skipped with an empty name ''; outputs=N in g.op sets the output count), "
          "or export with the opset_version whose signature matches",
          n.op_type(), n.op_type(), s.since_version);
    }
  }

 private:
  static void check(const ValueNames& actual, std::span<const ParamSchema> params, int lo, int hi,
                    const char* what, const OpSchema& s, const Node& n,
                    std::vector<std::string>& problems) {
    const int count = static_cast<int>(actual.size());
    if (count < lo || count > hi) {
      problems.push_back(fmt::format("has {} {}{}; {}-{} takes {}", count, what,
                                     count == 1 ? "" : "s", n.op_type(), s.since_version,
                                     range_text(lo, hi)));
      return;
    }
    for (size_t i = 0; i < actual.size(); ++i) {
      const ParamSchema* p = param_for(params, i);
      if (p == nullptr || !actual[i].empty()) continue;
      if (p->option == ParamOption::Single) {
        problems.push_back(fmt::format("leaves required {} '{}' (#{}) of {}-{} empty", what,
                                       p->name, i, n.op_type(), s.since_version));
      }
    }
  }
};

}  // namespace

void add_opset_invalid_arity(RuleRegistry& registry) { registry.add<InvalidArity>(); }

}  // namespace onnxlint::rules
