// opset-missing-import: a node's domain has no opset_import.
#include <fmt/format.h>

#include <algorithm>
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
        .fixable = true,
    };
    return k;
  }

  // One finding per domain and graph, at its first node: a graph without its default-domain
  // import would otherwise get one finding per node.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    const auto& ops = ctx.get<OpResolutionIndex>();
    if (!ops.any(OpStatus::MissingImport)) return;  // no node of that kind: no walk
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
      if (r.scope_function == nullptr && g.kind() != Graph::Kind::Function) {
        if (auto version = unambiguous_version(domain, ops, ctx.model())) {
          ctx.fix(d, FixSafety::Safe,
                  fmt::format("add the import of {} at version {}",
                              domain.empty() ? std::string("ai.onnx") : std::string(domain),
                              *version))
              .add_opset_import(std::string(domain), *version);
        }
      }
    }
  }

 private:
  // The one version every node of `domain` outside functions (the import is the model's, so
  // every graph and subgraph reads it) means the same thing at: 1 when each calls
  // a model-local function (the version of a function's domain selects nothing), else, when
  // every op used has a single schema in the tables, the newest of their since-versions (from
  // there on each resolves to that schema). nullopt when versions would differ in meaning, or
  // the model's IR version does not allow that opset.
  static std::optional<int64_t> unambiguous_version(std::string_view domain,
                                                    const OpResolutionIndex& ops, const Model& m) {
    int64_t version = 1;
    for (const Graph* g : m.all_graphs()) {
      if (g->kind() == Graph::Kind::Function) continue;
      for (const Node& n : g->nodes()) {
        const OpResolution& r = ops.of(n);
        if (r.status != OpStatus::MissingImport || r.domain != domain) continue;
        if (r.function != nullptr) continue;
        const auto versions = op_versions(domain, n.op_type());
        if (versions.size() != 1) return std::nullopt;
        version = std::max<int64_t>(version, versions.front().since_version);
      }
    }
    if (!domain.empty() && !is_standard_domain(domain)) return version;
    const std::optional<int> min_ir = min_ir_version_for_opset(domain, version);
    if (!min_ir || (m.has_ir_version() && m.ir_version() < *min_ir)) return std::nullopt;
    return version;
  }
};

}  // namespace

void add_opset_missing_import(RuleRegistry& registry) { registry.add<MissingImport>(); }

}  // namespace onnxlint::rules
