// shape-dynamic-input: graph inputs with symbolic or unknown dims, or no shape at all. Also
// writes the per-file dynamic-shape summary (report section "dynamic_shapes").
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <map>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

// A main-graph input that a caller must feed (not an initializer listed as an input).
bool is_fed_input(const GraphInfo& info, const ValueInfo& in) {
  const ValueDef* d = info.local(in.name_id);
  return d == nullptr || d->kind != ValueDef::Kind::Input || d->tensor == nullptr ||
         d->input != &in;
}

std::string dim_text(const Dim& d) {
  if (d.kind == Dim::Kind::Value) return std::to_string(d.value);
  if (d.kind == Dim::Kind::Param && !d.param.empty()) return std::string(d.param);
  return "?";
}

// The name the provenance analysis gives a dynamic dim (see Provenance: unnamed dims are named
// after their position).
std::string dim_name(const ValueInfo& in, size_t axis) {
  const Dim& d = in.type.dims[axis];
  if (d.kind == Dim::Kind::Param && !d.param.empty()) return std::string(d.param);
  return fmt::format("{}.shape[{}]", in.name, axis);
}

bool dim_dynamic(const Dim& d) { return !(d.kind == Dim::Kind::Value && d.value >= 0); }

class DynamicInput final : public Rule {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "shape-dynamic-input",
        .category = "shape",
        .severity = Severity::Warning,
        .summary = "Graph input with symbolic or unknown dims, or no shape at all",
    };
    return k;
  }
  const RuleInfo& info() const override { return static_info(); }

  void on_model(const Model& model, RuleContext& ctx) override {
    const Graph& g = model.graph;
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    const Provenance& p = ctx.get<Provenance>();
    std::map<std::string, size_t, std::less<>> usage;
    for (const Provenance::DimUsage& u : p.dim_usage()) usage.emplace(u.name, u.nodes);
    const size_t total = p.node_count();

    nlohmann::json inputs = nlohmann::json::array();
    // dim name -> inputs carrying it, in input order
    std::map<std::string, std::vector<std::string>> dim_inputs;
    std::vector<std::string> dim_order;
    std::vector<std::string> text;

    for (const ValueInfo& in : g.inputs) {
      if (!is_fed_input(info, in)) continue;
      nlohmann::json ji;
      ji["name"] = std::string(in.name);
      ji["has_shape"] = in.type.has_shape;
      std::vector<std::string> dyn;  // "0 'batch'", "2 (unknown)"
      std::vector<std::string> names;
      if (in.type.has_shape) {
        nlohmann::json shape = nlohmann::json::array();
        for (size_t a = 0; a < in.type.dims.size(); ++a) {
          const Dim& d = in.type.dims[a];
          if (!dim_dynamic(d)) {
            shape.push_back(d.value);
            continue;
          }
          shape.push_back(d.kind == Dim::Kind::Param && !d.param.empty() ? nlohmann::json(d.param)
                                                                         : nlohmann::json(nullptr));
          std::string nm = dim_name(in, a);
          dyn.push_back(d.kind == Dim::Kind::Param && !d.param.empty()
                            ? fmt::format("{} '{}'", a, d.param)
                            : fmt::format("{} (unknown size)", a));
          names.push_back(nm);
        }
        ji["shape"] = std::move(shape);
      } else {
        ji["shape"] = nullptr;
        names.push_back(fmt::format("{}.shape", in.name));
      }
      const bool dynamic = !in.type.has_shape || !dyn.empty();
      ji["dynamic"] = dynamic;
      inputs.push_back(std::move(ji));
      if (!dynamic) continue;

      for (const std::string& nm : names) {
        auto [it, inserted] = dim_inputs.try_emplace(nm);
        if (inserted) dim_order.push_back(nm);
        if (std::find(it->second.begin(), it->second.end(), in.name) == it->second.end()) {
          it->second.emplace_back(in.name);
        }
      }

      std::string shape_text;
      for (const Dim& d : in.type.dims) {
        shape_text += shape_text.empty() ? "" : ", ";
        shape_text += dim_text(d);
      }
      Diagnostic& diag =
          in.type.has_shape
              ? ctx.report(ctx.at_value(g, in.name),
                           fmt::format("input '{}' [{}] has dynamic dim{}: {}", in.name, shape_text,
                                       dyn.size() == 1 ? "" : "s",
                                       fmt::format("{}", fmt::join(dyn, ", "))))
              : ctx.report(ctx.at_value(g, in.name),
                           fmt::format("input '{}' has no declared shape", in.name));
      for (const std::string& nm : names) {
        auto u = usage.find(nm);
        size_t count = u == usage.end() ? 0 : u->second;
        diag.notes.push_back(fmt::format("{} of {} node{} have shapes that depend on '{}'", count,
                                         total, total == 1 ? "" : "s", nm));
      }
      diag.help = in.type.has_shape
                      ? "export with a fixed input shape (drop `dynamic_axes` for this input), "
                        "or keep `dynamic_axes` only for the dims that really vary at run time "
                        "(usually the batch)"
                      : "give the input a shape at export (pass example inputs of the real "
                        "shape; list only the varying dims in `dynamic_axes`)";
      text.push_back(in.type.has_shape
                         ? fmt::format("input '{}' [{}]: dynamic {}", in.name, shape_text,
                                       fmt::format("{}", fmt::join(dyn, ", ")))
                         : fmt::format("input '{}': no declared shape", in.name));
    }

    nlohmann::json dims = nlohmann::json::array();
    for (const std::string& nm : dim_order) {
      auto u = usage.find(nm);
      size_t count = u == usage.end() ? 0 : u->second;
      dims.push_back({{"name", nm}, {"inputs", dim_inputs[nm]}, {"nodes", count}});
      text.push_back(fmt::format("dim '{}': {} of {} nodes depend on it", nm, count, total));
    }

    const size_t data_nodes = p.data_dependent_nodes();
    nlohmann::json origins = nlohmann::json::array();
    std::vector<std::string> origin_text;
    for (const Node* n : p.data_dependent_origins()) {
      std::string where = fmt::format("{}/{}", n->graph->path, n->display_name());
      origins.push_back({{"node", where}, {"op_type", std::string(n->op_type)}});
      if (origin_text.size() < 5) origin_text.push_back(where);
    }
    if (data_nodes > 0) {
      std::string list = fmt::format("{}", fmt::join(origin_text, ", "));
      if (origins.size() > origin_text.size()) {
        list += fmt::format(" and {} more", origins.size() - origin_text.size());
      }
      text.push_back(fmt::format("data-dependent shapes: {} of {} nodes{}", data_nodes, total,
                                 origins.empty() ? "" : ", arising at " + list));
    }

    ReportSection section;
    section.name = "dynamic_shapes";
    section.data = {{"nodes", total},
                    {"inputs", std::move(inputs)},
                    {"dims", std::move(dims)},
                    {"data_dependent", {{"nodes", data_nodes}, {"origins", std::move(origins)}}}};
    section.text = std::move(text);
    ctx.add_section(std::move(section));
  }
};

}  // namespace

void add_shape_dynamic_input(RuleRegistry& registry) { registry.add<DynamicInput>(); }

}  // namespace onnxlint::rules
