// shape-dynamic-output: graph outputs with symbolic or unknown dims, with the analysis's view
// of why (input dims, runtime data, an op it cannot see through, or nothing: a stale
// declaration).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/config.h>
#include <onnxlint/element_types.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <set>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class DynamicOutput final : public RuleBase<DynamicOutput> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "shape-dynamic-output",
        .category = "shape",
        .severity = Severity::Info,
        .summary = "Graph output with symbolic or unknown dims",
        .options = {{"allow-dims", std::vector<std::string>{},
                     "names (globs) of dynamic input dims that are intended, e.g. [\"batch\"]: "
                     "outputs whose shape depends on no other dim are not reported (defaults to "
                     "shape-dynamic-input's allow-dims)"}},
        .fixable = true,
    };
    return k;
  }
  explicit DynamicOutput(const RuleOptionsView& opts)
      : allowed_(opts.get<std::vector<std::string>>("allow-dims")) {}

  void on_model(const Model& model, RuleContext& ctx) override {
    const Graph& g = model.graph();
    const Provenance& p = ctx.get<Provenance>();
    // Dim names the graph inputs declare (dynamic by declaration).
    std::set<std::string_view> input_dims;
    for (const ValueInfo& in : g.inputs()) {
      for (const Dim& dim : in.type.dims) {
        if (dim.kind == Dim::Kind::Param) input_dims.insert(dim.param);
      }
    }
    for (const ValueInfo& out : g.outputs()) {
      ValueId v = p.find(g, out.name);
      const ShapeClass cls = v == kNoValue ? ShapeClass::Unknown : p.shape_class(v);
      std::vector<std::string> dyn;
      std::string shape_text;
      if (out.type.has_shape) {
        for (size_t a = 0; a < out.type.dims.size(); ++a) {
          const Dim& d = out.type.dims[a];
          const bool fixed = d.kind == Dim::Kind::Value && d.value >= 0;
          shape_text += shape_text.empty() ? "" : ", ";
          shape_text += shape_dim_text(d);
          if (!fixed) dyn.push_back(dynamic_dim_text(d, a));
        }
        // Declared fully static: trusted (the analysis is not full shape inference).
        if (dyn.empty()) continue;
      } else if (cls == ShapeClass::Static) {
        continue;
      }
      // Dims the user means to vary (allow-dims): an output that depends on them alone is
      // what was asked for.
      if (cls == ShapeClass::InputDim && !allowed_.empty()) {
        const std::vector<std::string_view> names = p.shape_dims(v);
        if (!names.empty() && std::all_of(names.begin(), names.end(), [&](std::string_view n) {
              return std::any_of(allowed_.begin(), allowed_.end(),
                                 [&](const std::string& glob) { return path_glob_match(glob, n); });
            })) {
          continue;
        }
      }
      // One cause, one finding: shape-data-dependent reports the node where the shape starts
      // to depend on runtime values and lists the outputs it reaches.
      if (cls == ShapeClass::DataDependent) {
        const Node* origin = p.shape_origin(v);
        if (origin != nullptr && p.is_shape_origin(*origin, ShapeClass::DataDependent)) continue;
      }

      std::string message =
          out.type.has_shape
              ? fmt::format("output '{}' [{}] has dynamic dim{}: {}", out.name, shape_text,
                            dyn.size() == 1 ? "" : "s", fmt::format("{}", fmt::join(dyn, ", ")))
              : fmt::format("output '{}' has no declared shape and its shape is {}", out.name,
                            shape_class_name(cls));
      Diagnostic& d = ctx.report(ctx.at_value(g, out.name), std::move(message));
      const ComputedShape computed = computed_shape(p, v);
      switch (cls) {
        case ShapeClass::Static: {
          // Declared with a dim an input declares dynamic, yet computed fixed: the size of the
          // export example was baked in. Declaring the computed shape would make that permanent.
          std::string baked;
          for (const Dim& dim : out.type.dims) {
            if (dim.kind == Dim::Kind::Param && input_dims.count(dim.param) > 0) {
              baked = std::string(dim.param);
              break;
            }
          }
          if (!baked.empty()) {
            d.notes.push_back(fmt::format(
                "the graph computes the static shape {} here although the output is declared "
                "with input dim '{}': a size from the export example was baked in "
                "(export-baked-shape says where)",
                computed.known ? computed.text : std::string("of this output"), baked));
            d.help =
                "keep the dim dynamic inside the traced code (read sizes with `x.shape[i]`, "
                "use -1 in view/reshape) rather than declaring the computed shape";
            break;
          }
          d.notes.push_back(fmt::format(
              "the graph computes the static shape {} here: only the declaration is dynamic (the "
              "exporter could not infer it)",
              computed.known ? computed.text : std::string("of this output")));
          d.help =
              "run ONNX shape inference (`onnx.shape_inference.infer_shapes`) or "
              "onnx-simplifier to declare the static output shape";
          declare_proven_shape(g, out, v, p, ctx, d);
          break;
        }
        case ShapeClass::InputDim:
          // Worth saying when it tells more than the declaration ([N+1, 4] vs [?, 4]).
          if (computed.known && computed.text != "[" + shape_text + "]") {
            d.notes.push_back(fmt::format("its shape is {}", computed.text));
          }
          d.notes.push_back(fmt::format("its shape depends on {}: {}", dims_phrase(p.shape_dims(v)),
                                        p.explain_shape(v)));
          d.help =
              "nothing to fix if those input dims are meant to vary; otherwise export with "
              "fixed input shapes (keep in `dynamic_axes` only the dims that must vary)";
          break;
        case ShapeClass::DataDependent: {
          const Node* origin = p.shape_origin(v);
          if (computed.known) {
            d.notes.push_back(fmt::format(
                "its shape is {}{}", computed.text,
                computed.bounds.empty() ? ""
                                        : fmt::format(", {}", fmt::join(computed.bounds, "; "))));
          }
          d.notes.push_back(fmt::format(
              "its shape depends on runtime values{}: {}",
              origin != nullptr ? " (from " + node_label(*origin) + ")" : "", p.explain_shape(v)));
          d.help = data_dependent_help(origin != nullptr ? origin->op_type() : "");
          break;
        }
        case ShapeClass::Unknown: {
          const Node* origin = v == kNoValue ? nullptr : p.shape_origin(v);
          d.notes.push_back(
              origin != nullptr
                  ? fmt::format("its shape comes through {}, whose shape behaviour is unknown",
                                node_label(*origin))
                  : std::string("the analysis cannot determine its shape"));
          d.help =
              "declare the output shape at export (custom ops need a shape inference "
              "function or a symbolic with `setType`)";
          break;
        }
      }
    }
  }

 private:
  const std::vector<std::string> allowed_;  // allow-dims

  // The fix: the output declared with the shape the analysis proves (every dim Fixed), of the
  // element type it declares or the analysis infers.
  static void declare_proven_shape(const Graph& g, const ValueInfo& out, ValueId v,
                                   const Provenance& p, RuleContext& ctx, Diagnostic& d) {
    const auto dims = p.proven_dims(v);
    if (!dims || g.kind() == Graph::Kind::Function) return;
    if (out.type.kind != TypeInfo::Kind::Tensor && out.type.kind != TypeInfo::Kind::None) return;
    std::vector<FixDim> shape;
    for (int64_t size : *dims) shape.push_back(FixDim{size, {}});
    int32_t elem = out.type.elem_type;
    if (elem == 0) elem = ctx.get<ElementTypes>().elem_type(v);
    if (elem == 0) return;
    ctx.fix(d, FixSafety::Safe, "declare the output's static shape")
        .set_value_shape(g, std::string(out.name), elem, std::move(shape));
  }
};

}  // namespace

void add_shape_dynamic_output(RuleRegistry& registry) { registry.add<DynamicOutput>(); }

}  // namespace onnxlint::rules
