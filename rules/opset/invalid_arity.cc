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
      // Nearly every node: counts in range and no argument left empty.
      if (plainly_fine(n.input_ids(), s.min_input, s.max_input) &&
          plainly_fine(n.output_ids(), s.min_output, s.max_output)) {
        continue;
      }
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
  static bool plainly_fine(std::span<const NameId> ids, int lo, int hi) {
    const auto count = static_cast<int64_t>(ids.size());
    if (count < lo || count > hi) return false;
    for (NameId id : ids) {
      if (id == kNoNameId) return false;
    }
    return true;
  }

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
    const std::span<const NameId> ids = actual.ids();  // "" is kNoNameId: no name lookups
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != kNoNameId) continue;
      const ParamSchema* p = param_for(params, i);
      if (p == nullptr) continue;
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
