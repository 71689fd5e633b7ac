// graph-stale-value-info: a declaration (value_info entry, graph output, or a Loop/Scan body's
// formal input) whose type contradicts what element-type inference proves: the op's schema, a
// Cast's `to`, a constant's payload. A runtime trusts the declaration (ONNX Runtime refuses to
// load the model, "Type ... does not match expected type"); tools that copy it propagate it.
// Typically left behind by a graph edit that changed a producer without updating value_info.
#include <fmt/format.h>
#include <onnxlint/element_types.h>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

class StaleValueInfo final : public RuleBase<StaleValueInfo> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "graph-stale-value-info",
        .category = "graph",
        .severity = Severity::Error,
        .summary =
            "Declared type (value_info, graph output) that contradicts the inferred element type",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const ElementTypes& types = ctx.get<ElementTypes>();
    const ValueTable& values = types.values();
    for (const StaleDeclaration& s : types.stale_declarations()) {
      if (s.graph != &g) continue;
      const std::string_view name = values.name_of(s.value);
      const char* what = s.formal_input   ? "subgraph input"
                         : s.graph_output ? "graph output"
                                          : "value_info";
      Diagnostic& d =
          ctx.report(ctx.at_value(g, name),
                     fmt::format("{} '{}' is declared {}, but {}", what, name,
                                 value_type_text(s.declared_type), source_text(s, values)));
      d.key = name;
      d.help = s.formal_input
                   ? "declare the body input with the type the node passes in (or re-run "
                     "onnx.shape_inference.infer_shapes on a model without the stale entries)"
                   : "remove the stale entry (del model.graph.value_info[...]) or correct its "
                     "type, then re-run onnx.shape_inference.infer_shapes; an exporter or graph "
                     "edit changed the producer without updating the declaration";
    }
  }

 private:
  // "Cast '/Cast' computes tensor(int64)" or "the Loop passes in tensor(float)".
  static std::string source_text(const StaleDeclaration& s, const ValueTable& values) {
    const std::string inferred = value_type_text(s.inferred_type);
    if (const Node* p = values.producer(s.value)) {
      return fmt::format("{} computes {}", node_label(*p), inferred);
    }
    if (s.formal_input && s.graph != nullptr && s.graph->owner() != nullptr) {
      return fmt::format("{} passes in {}", node_label(*s.graph->owner()), inferred);
    }
    return fmt::format("it holds {}", inferred);
  }
};

}  // namespace

void add_graph_stale_value_info(RuleRegistry& registry) { registry.add<StaleValueInfo>(); }

}  // namespace onnxlint::rules
