// flow-constant-condition: If with a constant condition, or Loop with a constant trip count
// and condition: foldable or unrollable control flow.
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <limits>

#include "rules/categories.h"
#include "rules/flow/loop_facts.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

std::string value_text(const Provenance& p, ValueId v) {
  auto ints = p.known_ints(v);
  if (!ints || ints->size() != 1) return "";
  // TorchScript exports `while` loops with INT64_MAX as M: the count sets no limit.
  if ((*ints)[0] == std::numeric_limits<int64_t>::max()) return " (no limit)";
  return fmt::format(" ({})", (*ints)[0]);
}

// The branch `attribute` of If `n` when its nodes can take the If's place in its graph: it
// holds no subgraph (whose outer references the renaming would have to follow), each output
// is named once, and no value it defines is a name any other graph of the model uses (the
// If's own branches aside), so that moving the branch's values into the enclosing scope
// clashes with nothing. nullptr otherwise.
const Graph* inlinable_branch(const Node& n, std::string_view attribute, const Model& model) {
  const Graph* branch = nullptr;
  for (const Graph* sub : n.subgraphs()) {
    if (sub->owner_attribute() == attribute) branch = sub;
  }
  if (branch == nullptr || branch->outputs().size() != n.outputs().size()) return nullptr;
  std::vector<std::string_view> defined;
  for (const Node& inner : branch->nodes()) {
    if (!inner.subgraphs().empty()) return nullptr;
    for (std::string_view out : inner.outputs()) {
      if (!out.empty()) defined.push_back(out);
    }
  }
  for (const TensorData& t : branch->initializers()) defined.push_back(t.name);
  if (!branch->sparse_initializers().empty()) return nullptr;
  std::vector<std::string_view> outputs;
  for (const ValueInfo& out : branch->outputs()) outputs.push_back(out.name);
  std::sort(outputs.begin(), outputs.end());
  if (std::adjacent_find(outputs.begin(), outputs.end()) != outputs.end()) return nullptr;
  for (const Graph* g : model.all_graphs()) {
    bool inside = false;
    for (const Graph* up = g; up != nullptr && !inside; up = up->parent()) {
      inside = up->owner() == &n;
    }
    if (inside) continue;
    for (std::string_view name : defined) {
      if (g->name_id(name) != kNoNameId) return nullptr;
    }
  }
  return branch;
}

class ConstantCondition final : public RuleBase<ConstantCondition> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "flow-constant-condition",
        .category = "flow",
        .severity = Severity::Info,
        .summary = "If or Loop whose condition or trip count is constant",
        .node_ops = {"If", "Loop"},
        .fixable = true,
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    const Provenance& p = ctx.get<Provenance>();
    auto constant = [&](ValueId v) {
      return v != kNoValue && p.value_class(v) == ValueClass::Constant;
    };
    if (is_standard_op(n, "If")) {
      if (n.inputs().empty() || n.inputs()[0].empty()) return;
      ValueId cond = p.input(n, 0);
      if (!constant(cond)) return;
      auto ints = p.known_ints(cond);
      std::string branch;
      if (ints && ints->size() == 1) {
        branch = (*ints)[0] != 0 ? ": only then_branch can run" : ": only else_branch can run";
      }
      Diagnostic& d = ctx.report(
          ctx.at_node(n), fmt::format("the condition '{}' of {} is a constant{}{}", n.inputs()[0],
                                      node_label(n), value_text(p, cond), branch));
      d.help =
          "fold the branch away (onnx-simplifier does), or make the condition a Python "
          "bool at export so the exporter keeps only one branch";
      if (ints && ints->size() == 1) {
        const char* taken = (*ints)[0] != 0 ? "then_branch" : "else_branch";
        if (const Graph* branch = inlinable_branch(n, taken, ctx.model())) {
          ctx.fix(d, FixSafety::Safe,
                  fmt::format("replace the If by the nodes of its {} ({} node{})", taken,
                              branch->nodes().size(), branch->nodes().size() == 1 ? "" : "s"))
              .inline_branch(n, taken);
        }
      }
      return;
    }
    if (!is_standard_op(n, "Loop")) return;
    const LoopControl c = loop_control(n, p);
    // Absent trip count and condition: an infinite loop, not a constant one.
    if (c.trip == kNoValue && c.cond == kNoValue) return;
    if (c.trip != kNoValue && !constant(c.trip)) return;
    if (c.cond != kNoValue && !constant(c.cond)) return;
    if (c.body_cond == kNoValue || !constant(c.body_cond)) return;
    std::string what = c.trip != kNoValue
                           ? fmt::format("a constant trip count{}", value_text(p, c.trip))
                           : std::string("a constant condition");
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        fmt::format("{} has {} and a condition that never depends on data: it can be unrolled "
                    "or folded",
                    node_label(n), what));
    d.help =
        "if the count is fixed, tracing (`torch.onnx.export` without `torch.jit.script`) "
        "unrolls the loop into plain ops; keep the Loop if the unrolled graph would be "
        "too large";
  }
};

}  // namespace

void add_flow_constant_condition(RuleRegistry& registry) { registry.add<ConstantCondition>(); }

}  // namespace onnxlint::rules
