// export-custom-domain: nodes in a non-standard domain that no model-local function defines.
// PythonOp and ATen fallbacks have rules of their own and are left to them, and so are ONNX
// Runtime's own domains (target-runtime-specific-op, target-unsupported-op).
#include <fmt/format.h>

#include <map>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
namespace {

class CustomDomain final : public RuleBase<CustomDomain> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-custom-domain",
        .category = "export",
        .severity = Severity::Warning,
        .summary = "Node in a non-standard domain not defined by a model-local function",
    };
    return k;
  }

  // One finding per (domain, op) and graph, at its first node.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    const auto& ops = ctx.get<OpResolutionIndex>();
    // Nodes of non-standard domains resolve as Custom, MissingImport or LocalFunction.
    if (!ops.any(OpStatus::Custom) && !ops.any(OpStatus::MissingImport)) return;
    std::map<std::pair<std::string_view, std::string_view>, std::pair<const Node*, size_t>> seen;
    for (const Node& n : g.nodes()) {
      if (n.op_type() == "PythonOp" || n.op_type() == "ATen" || n.domain() == "org.pytorch.aten") {
        continue;
      }
      const OpResolution& r = ops.of(n);
      if (is_standard_domain(r.domain) || r.function != nullptr) continue;
      if (target::is_onnxruntime_domain(r.domain)) continue;
      auto [it, inserted] = seen.try_emplace(std::pair{r.domain, n.op_type()}, &n, 0);
      ++it->second.second;
    }
    for (const auto& [key, first] : seen) {
      const Node& n = *first.first;
      Diagnostic& d = ctx.report(
          ctx.at_node(n),
          fmt::format("{} is in custom domain '{}': only runtimes with that custom-op library "
                      "registered can load it",
                      node_label(n), key.first));
      if (first.second > 1) {
        d.notes.push_back(fmt::format("{} more {} node{} in this graph", first.second - 1,
                                      key.second, first.second == 2 ? "" : "s"));
      }
      d.help =
          "ship and register the custom-op library with the model (onnxruntime: "
          "SessionOptions.register_custom_ops_library), or make the op's symbolic function "
          "emit standard ONNX ops (implement a symbolic function or rewrite with supported "
          "ops) so any runtime can load it";
    }
  }
};

}  // namespace

void add_export_custom_domain(RuleRegistry& registry) { registry.add<CustomDomain>(); }

}  // namespace onnxlint::rules
