// shape-dynamic-input: graph inputs with symbolic or unknown dims, or no shape at all. Also
// writes the per-file dynamic-shape summary (report section "dynamic_shapes").
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/config.h>
#include <onnxlint/escape.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>
#include <onnxlint/report_section.h>

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
  return d == nullptr || d->kind() != ValueDef::Kind::Input || d->tensor() == nullptr ||
         d->input() != &in;
}

// The name the provenance analysis gives a dynamic dim (see Provenance: unnamed dims are named
// after their position).
std::string dim_name(const ValueInfo& in, size_t axis) {
  const Dim& d = in.type.dims[axis];
  if (d.kind == Dim::Kind::Param && !d.param.empty()) return std::string(d.param);
  return fmt::format("{}.shape[{}]", in.name, axis);
}

// How a dim is named to the user: its dim_param when the exporter named it, else its position.
std::string dim_label(const ValueInfo& in, size_t axis) {
  const Dim& d = in.type.dims[axis];
  if (named_dim(d)) return capped(d.param);
  return fmt::format("{}.shape[{}]", in.name, axis);
}

// "main/Reshape_3", "main/encoder/Reshape" (torch names start with '/'), as Location::anchor.
std::string node_anchor(const Node& n) {
  std::string name = n.display_name();
  return n.graph()->path() + (name.starts_with('/') ? "" : "/") + name;
}

// "the shapes of 12 of 40 nodes depend on 'batch'".
std::string usage_text(size_t count, size_t total, const std::string& name) {
  if (count == 0) {
    return fmt::format(
        "no node's output shape depends on '{}' (values computed from it, such as a "
        "loop's trip count, are not counted)",
        name);
  }
  return fmt::format("the shapes of {} of {} node{} depend on '{}'", count, total,
                     total == 1 ? "" : "s", name);
}

bool dim_dynamic(const Dim& d) { return !(d.kind == Dim::Kind::Value && d.value >= 0); }

// Fixing dynamic dims without re-exporting, in each runtime's own terms: ONNX Runtime's
// free-dimension overrides and its make_dynamic_shape_fixed tool (by dim name when the exporter
// named the dim, else by input shape), and a TensorRT optimization profile for trtexec (a
// template: the sizes are the user's to choose).
struct RuntimeFixes {
  std::vector<std::string> ort_overrides;  // dim names
  std::vector<std::string> make_fixed;     // tool command lines
  std::string trt_min, trt_opt, trt_max;   // "x:1x16,y:1x3"
};

void add_runtime_fixes(const ValueInfo& in, RuntimeFixes& f) {
  if (!in.type.has_shape) return;
  std::string mins, opts, maxs;
  bool unnamed = false;
  for (const Dim& d : in.type.dims) {
    const std::string sep = mins.empty() ? "" : "x";
    if (!dim_dynamic(d)) {
      const std::string v = std::to_string(d.value);
      mins += sep + v;
      opts += sep + v;
      maxs += sep + v;
      continue;
    }
    const std::string name = named_dim(d) ? capped(d.param) : std::string("size");
    mins += sep + "<min_" + name + ">";
    opts += sep + "<opt_" + name + ">";
    maxs += sep + "<max_" + name + ">";
    if (named_dim(d)) {
      if (std::find(f.ort_overrides.begin(), f.ort_overrides.end(), name) ==
          f.ort_overrides.end()) {
        f.ort_overrides.push_back(name);
        f.make_fixed.push_back(fmt::format(
            "python -m onnxruntime.tools.make_dynamic_shape_fixed --dim_param {} --dim_value "
            "<size> model.onnx model.fixed.onnx",
            name));
      }
    } else {
      unnamed = true;
    }
  }
  if (unnamed) {
    std::string shape;
    for (const Dim& d : in.type.dims) {
      shape += (shape.empty() ? "" : ",") +
               (dim_dynamic(d) ? std::string("<size>") : std::to_string(d.value));
    }
    f.make_fixed.push_back(fmt::format(
        "python -m onnxruntime.tools.make_dynamic_shape_fixed --input_name {} --input_shape {} "
        "model.onnx model.fixed.onnx",
        in.name, shape));
  }
  auto add = [&](std::string& list, const std::string& dims) {
    list += (list.empty() ? "" : ",") + std::string(in.name) + ":" + dims;
  };
  add(f.trt_min, mins);
  add(f.trt_opt, opts);
  add(f.trt_max, maxs);
}

std::string runtime_fix_note(const ValueInfo& in) {
  RuntimeFixes f;
  add_runtime_fixes(in, f);
  if (f.make_fixed.empty()) return "";
  std::string ort;
  if (f.ort_overrides.size() == 1) {
    ort = fmt::format("`SessionOptions.add_free_dimension_override_by_name(\"{}\", <size>)`",
                      f.ort_overrides[0]);
  } else if (!f.ort_overrides.empty()) {
    std::string names;
    for (const std::string& n : f.ort_overrides) {
      names += fmt::format("{}'{}'", names.empty() ? "" : ", ", n);
    }
    ort = fmt::format("`SessionOptions.add_free_dimension_override_by_name(<dim>, <size>)` for {}",
                      names);
  }
  return fmt::format(
      "to fix the size at deployment without re-exporting: ONNX Runtime {}`{}`{}; TensorRT "
      "`trtexec --minShapes={} --optShapes={} --maxShapes={}`",
      ort.empty() ? "" : ort + " or ", f.make_fixed[0],
      f.make_fixed.size() > 1 ? " (once per dim)" : "", f.trt_min, f.trt_opt, f.trt_max);
}

class DynamicInput final : public RuleBase<DynamicInput> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "shape-dynamic-input",
        .category = "shape",
        .severity = Severity::Warning,
        .summary = "Graph input with symbolic or unknown dims, or no shape at all",
        .options = {{"allow-dims", std::vector<std::string>{},
                     "names (globs) of dynamic dims that are intended, e.g. [\"batch\", "
                     "\"seq*\"]: not reported"}},
    };
    return k;
  }
  explicit DynamicInput(const RuleOptionsView& opts)
      : allowed_(opts.get<std::vector<std::string>>("allow-dims")) {}

  void on_model(const Model& model, RuleContext& ctx) override {
    const Graph& g = model.graph();
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    const Provenance& p = ctx.get<Provenance>();
    std::map<std::string, size_t, std::less<>> usage;
    for (const Provenance::DimUsage& u : p.dim_usage()) usage.emplace(u.name, u.nodes);
    const size_t total = p.node_count();
    auto is_allowed = [&](const Dim& d) {
      return named_dim(d) &&
             std::any_of(allowed_.begin(), allowed_.end(),
                         [&](const std::string& glob) { return path_glob_match(glob, d.param); });
    };

    nlohmann::json inputs = nlohmann::json::array();
    RuntimeFixes fixes;
    // dim name -> inputs carrying it, in input order
    std::map<std::string, std::vector<std::string>> dim_inputs;
    std::vector<std::string> dim_order;
    std::map<std::string, std::string> label_of;  // provenance name -> shown name
    std::vector<std::string> text;

    for (const ValueInfo& in : g.inputs()) {
      if (!is_fed_input(info, in)) continue;
      nlohmann::json ji;
      ji["name"] = std::string(in.name);
      ji["has_shape"] = in.type.has_shape;
      std::vector<std::string> dyn;        // "0 'batch'", "2 (unknown size)", reported dims only
      std::vector<std::string> names;      // provenance names of the reported dims
      std::vector<std::string> all_names;  // of every dynamic dim, for the summary
      std::vector<std::string> all_dyn;
      std::vector<std::string> labels;      // and how they are shown
      bool anonymous = !in.type.has_shape;  // a dim nobody named (or no shape at all)
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
          if (!is_allowed(d)) {
            dyn.push_back(dynamic_dim_text(d, a));
            names.push_back(nm);
            labels.push_back(dim_label(in, a));
            anonymous = anonymous || !named_dim(d);
          }
          all_names.push_back(nm);
          all_dyn.push_back(dynamic_dim_text(d, a));
          label_of.emplace(nm, dim_label(in, a));
        }
        ji["shape"] = std::move(shape);
      } else {
        ji["shape"] = nullptr;
        names.push_back(fmt::format("{}.shape", in.name));
        labels.push_back(names.back());
        all_names.push_back(names.back());
      }
      const bool dynamic = !all_names.empty();
      ji["dynamic"] = dynamic;
      if (dynamic) add_runtime_fixes(in, fixes);
      inputs.push_back(std::move(ji));
      if (!dynamic) continue;

      for (const std::string& nm : all_names) {
        auto [it, inserted] = dim_inputs.try_emplace(nm);
        if (inserted) dim_order.push_back(nm);
        if (std::find(it->second.begin(), it->second.end(), in.name) == it->second.end()) {
          it->second.emplace_back(in.name);
        }
      }

      std::string shape_text;
      for (const Dim& d : in.type.dims) {
        shape_text += shape_text.empty() ? "" : ", ";
        shape_text += shape_dim_text(d);
      }
      if (!in.type.has_shape || !dyn.empty()) {
        // Named dims are what `dynamic_axes` asked for: intent, an info. A dim nobody named (or
        // no shape at all) may be an accident of the export: a warning.
        const Severity sev = anonymous ? Severity::Warning : Severity::Info;
        Diagnostic& diag =
            in.type.has_shape
                ? ctx.report(sev, ctx.at_value(g, in.name),
                             fmt::format("input '{}' [{}] has dynamic dim{}: {}", in.name,
                                         shape_text, dyn.size() == 1 ? "" : "s",
                                         fmt::format("{}", fmt::join(dyn, ", "))))
                : ctx.report(sev, ctx.at_value(g, in.name),
                             fmt::format("input '{}' has no declared shape", in.name));
        // One note for the dims that nodes depend on ("the shapes of 421 of 2529 nodes depend
        // on 'height', 421 on 'width'": one line, not one per dim), one for each that none does.
        std::string used;
        std::vector<std::string> unused;
        for (size_t k = 0; k < names.size(); ++k) {
          auto u = usage.find(names[k]);
          const size_t count = u == usage.end() ? 0 : u->second;
          if (count == 0) {
            unused.push_back(usage_text(0, total, labels[k]));
          } else if (used.empty()) {
            used = usage_text(count, total, labels[k]);
          } else {
            used += fmt::format(", {} on '{}'", count, labels[k]);
          }
        }
        if (!used.empty()) diag.notes.push_back(std::move(used));
        for (std::string& n : unused) diag.notes.push_back(std::move(n));
        if (std::string fix = runtime_fix_note(in); !fix.empty()) diag.notes.push_back(fix);
        if (!in.type.has_shape) {
          diag.help =
              "give the input a shape at export (pass example inputs of the real shape; list "
              "only the varying dims in `dynamic_axes`)";
        } else if (anonymous) {
          diag.help =
              "name each dim that should vary in `dynamic_axes` (e.g. {0: \"batch\"}) and "
              "export the others with a fixed size; an unnamed dynamic dim is usually an "
              "accident of the export";
        } else {
          diag.help =
              "nothing to fix if these dims are meant to vary; list them in `allow-dims` "
              "([rules.shape-dynamic-input]) to silence this, or drop them from `dynamic_axes` "
              "for a fixed shape";
        }
      }
      text.push_back(in.type.has_shape
                         ? fmt::format("input '{}' [{}]: dynamic {}", in.name, shape_text,
                                       fmt::format("{}", fmt::join(all_dyn, ", ")))
                         : fmt::format("input '{}': no declared shape", in.name));
    }

    nlohmann::json dims = nlohmann::json::array();
    std::vector<std::string> dim_parts;  // several dims share one line
    for (const std::string& nm : dim_order) {
      auto u = usage.find(nm);
      size_t count = u == usage.end() ? 0 : u->second;
      dims.push_back({{"name", nm}, {"inputs", dim_inputs[nm]}, {"nodes", count}});
      auto l = label_of.find(nm);
      const std::string& label = l == label_of.end() ? nm : l->second;
      if (dim_order.size() == 1) {
        text.push_back(
            count == 0 ? fmt::format("dim '{}': no node's output shape depends on it", label)
                       : fmt::format("dim '{}': {} of {} nodes depend on it", label, count, total));
      } else {
        dim_parts.push_back(fmt::format("'{}' {}", label, count));
      }
    }
    if (!dim_parts.empty()) {
      text.push_back(fmt::format("nodes of {} whose shapes depend on each dim: {}", total,
                                 fmt::join(dim_parts, ", ")));
    }

    // Each output as the analysis computes it: an expression in input dims, with the static
    // bound of every data-set dim (what a static-shape target or a TensorRT profile needs).
    nlohmann::json outputs = nlohmann::json::array();
    size_t shown = 0;
    for (const ValueInfo& out : g.outputs()) {
      const ValueId v = p.find(g, out.name);
      const ComputedShape c = computed_shape(p, v);
      const ShapeClass cls = v == kNoValue ? ShapeClass::Unknown : p.shape_class(v);
      outputs.push_back({{"name", std::string(out.name)},
                         {"shape", c.known ? c.json : nlohmann::json(nullptr)},
                         {"class", std::string(shape_class_name(cls))}});
      // Static, or not followed at all (nothing to show but "?"): JSON only.
      if (cls == ShapeClass::Static || !c.known) continue;
      if (shown++ >= 5) continue;
      text.push_back(
          fmt::format("output '{}' = {}{}", out.name, c.text,
                      c.bounds.empty() ? "" : fmt::format(" ({})", fmt::join(c.bounds, "; "))));
    }
    if (shown > 5) text.push_back(fmt::format("... and {} more dynamic outputs", shown - 5));

    const size_t data_nodes = p.data_dependent_nodes();
    nlohmann::json origins = nlohmann::json::array();
    std::vector<std::string> origin_text;
    for (const Node* n : p.data_dependent_origins()) {
      std::string where = node_anchor(*n);
      origins.push_back({{"node", where}, {"op_type", std::string(n->op_type())}});
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

    // The analysis ran out of its work budget (nested loops re-run to a fixed point): say where,
    // since every fact computed there and below is unknown rather than proven.
    nlohmann::json cut_short = nullptr;
    if (auto cut = p.cut_short(); cut && cut->node != nullptr) {
      const std::string where = node_anchor(*cut->node);
      cut_short = {
          {"node", where}, {"op_type", std::string(cut->node->op_type())}, {"count", cut->count}};
      text.push_back(fmt::format(
          "analysis cut short: its work budget ran out at {} ({} loop bod{} or call{} left "
          "unanalysed; what they compute is unknown)",
          where, cut->count, cut->count == 1 ? "y" : "ies", cut->count == 1 ? "" : "s"));
    }

    ReportSection section;
    section.name = "dynamic_shapes";
    section.data = {
        {"nodes", total},
        {"inputs", std::move(inputs)},
        {"outputs", std::move(outputs)},
        {"fixes",
         {{"onnxruntime_free_dimension_overrides", fixes.ort_overrides},
          {"make_dynamic_shape_fixed", fixes.make_fixed},
          {"trtexec", fixes.trt_min.empty() ? nlohmann::json(nullptr)
                                            : nlohmann::json({{"minShapes", fixes.trt_min},
                                                              {"optShapes", fixes.trt_opt},
                                                              {"maxShapes", fixes.trt_max}})}}},
        {"dims", std::move(dims)},
        {"data_dependent", {{"nodes", data_nodes}, {"origins", std::move(origins)}}}};
    if (!cut_short.is_null()) section.data["analysis_cut_short"] = std::move(cut_short);
    section.text = std::move(text);
    ctx.add_section(std::move(section));
  }

 private:
  const std::vector<std::string> allowed_;  // allow-dims
};

}  // namespace

void add_shape_dynamic_input(RuleRegistry& registry) { registry.add<DynamicInput>(); }

}  // namespace onnxlint::rules
