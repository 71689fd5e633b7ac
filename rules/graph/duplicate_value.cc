// graph-duplicate-value: a value name defined twice (SSA violation).
#include <fmt/format.h>
#include <onnxlint/graph_index.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

std::string describe(const ValueDef& d) {
  switch (d.kind()) {
    case ValueDef::Kind::Input:
      return "a graph input";
    case ValueDef::Kind::Initializer:
      return "an initializer";
    case ValueDef::Kind::SparseInitializer:
      return "a sparse initializer";
    case ValueDef::Kind::Node:
      return fmt::format("output {} of {}", d.output_index(), d.node()->display_name());
  }
  return "a definition";
}

class DuplicateValue final : public RuleBase<DuplicateValue> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-duplicate-value",
        .category = "graph",
        .severity = Severity::Error,
        .summary =
            "Value name defined more than once in a graph or shadowing an outer value "
            "(SSA violation)",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    for (const auto& [name, dup] : info.duplicate_defs) {
      const ValueDef* first = info.local(name);
      Location loc = dup.kind() == ValueDef::Kind::Node ? ctx.at_node_value(*dup.node(), name)
                                                        : ctx.at_value(g, name);
      Diagnostic& d = ctx.report(loc, fmt::format("'{}' is defined again by {}; it is already {}",
                                                  name, describe(dup), describe(*first)));
      d.key = fmt::format("{}", static_cast<int>(dup.kind()));
      d.help =
          "every value must have exactly one definition; rename one of them (a graph "
          "rewrite that copied nodes usually causes this)";
    }
    // Node outputs may not shadow names of enclosing scopes (ONNX checker: SSA across scopes).
    if (info.parent == nullptr) return;
    for (const Node& n : g.nodes()) {
      for (std::string_view out : n.outputs()) {
        if (out.empty()) continue;
        const ValueDef* outer = info.parent->resolve(out);
        if (outer == nullptr) continue;
        Diagnostic& d = ctx.report(
            ctx.at_node_value(n, out),
            fmt::format("'{}' produced by {} shadows {} of the enclosing graph '{}'", out,
                        n.display_name(), describe(*outer), outer->graph()->path()));
        d.key = "shadow";
        d.help = "rename the value inside the subgraph";
      }
    }
  }
};

}  // namespace

void add_graph_duplicate_value(RuleRegistry& registry) { registry.add<DuplicateValue>(); }

}  // namespace onnxlint::rules
