// opset-missing-import: a node's domain has no opset_import.
#include <fmt/format.h>

#include <map>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

class MissingImport final : public RuleBase<MissingImport> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-missing-import",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Node whose domain has no opset_import",
        .rejected_at_load = true,
    };
    return k;
  }

  // One finding per domain and graph, at its first node: a graph without its default-domain
  // import would otherwise get one finding per node.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    const auto& ops = ctx.get<OpResolutionIndex>();
    std::map<std::string_view, std::pair<const Node*, size_t>> missing;
    for (const Node& n : g.nodes()) {
      const OpResolution& r = ops.of(n);
      if (r.status != OpStatus::MissingImport) continue;
      auto [it, inserted] = missing.try_emplace(r.domain, &n, 0);
      ++it->second.second;
    }
    for (const auto& [domain, first] : missing) {
      const Node& n = *first.first;
      const OpResolution& r = ops.of(n);
      std::string shown = domain.empty() ? "ai.onnx (the default domain)" : std::string(domain);
      std::string where = "the model has";
      if (r.scope_function != nullptr) {
        where = fmt::format("neither function '{}::{}' nor the model has",
                            r.scope_function->domain(), r.scope_function->name());
      }
      Diagnostic& d =
          ctx.report(ctx.at_node(n), fmt::format("{} uses domain {} but {} no opset_import for it",
                                                 node_label(n), shown, where));
      if (first.second > 1) {
        d.notes.push_back(fmt::format("{} more node{} in this graph use{} that domain",
                                      first.second - 1, first.second == 2 ? "" : "s",
                                      first.second == 2 ? "s" : ""));
      }
      if (r.function != nullptr) {
        d.notes.push_back(
            "the node calls a model-local function; its domain must be imported "
            "too");
      }
      if (domain.empty() || is_standard_domain(domain)) {
        d.help = fmt::format(
            "add the import (onnx.helper.make_opsetid('{}', N)); torch.onnx.export writes it "
            "itself, so a graph edited or merged by hand probably lost it",
            domain);
      } else {
        d.help = fmt::format(
            "add the import: torch.onnx.export(..., custom_opsets={{'{}': 1}}), or "
            "onnx.helper.make_opsetid('{}', 1) when building the model",
            domain, domain);
      }
    }
  }
};

}  // namespace

void add_opset_missing_import(RuleRegistry& registry) { registry.add<MissingImport>(); }

}  // namespace onnxlint::rules
