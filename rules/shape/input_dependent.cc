// shape-input-dependent: shape arguments computed at run time from input dims (the
// Shape→Gather→Concat→Reshape pattern of `dynamic_axes` exports). They become constants once
// the inputs have fixed shapes.
#include <fmt/format.h>
#include <onnxlint/provenance.h>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class InputDependent final : public RuleBase<InputDependent> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "shape-input-dependent",
        .category = "shape",
        .severity = Severity::Info,
        .summary = "Shape argument computed at run time from input dims",
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const Provenance& p = ctx.get<Provenance>();
    for (const Node& n : g.nodes()) {
      const OpSemantics& sem = p.semantics(n);
      if (sem.value_inputs == 0) continue;
      // Data-dependent outputs are shape-data-dependent's business.
      bool data = false;
      for (size_t k = 0; k < n.outputs().size(); ++k) {
        ValueId v = p.output(n, k);
        if (v != kNoValue && sem.affects_output(k) &&
            p.shape_class(v) == ShapeClass::DataDependent) {
          data = true;
        }
      }
      if (data) continue;
      std::vector<size_t> args;
      for (size_t i = 0; i < n.inputs().size(); ++i) {
        if (!sem.reads_value(i)) continue;
        ValueId v = p.input(n, i);
        if (v == kNoValue || p.value_class(v) != ValueClass::ShapeDerived) continue;
        args.push_back(i);
      }
      if (args.empty()) continue;
      if (ctx.at_cap()) {  // counted only: no wording (explain_value walks the graph)
        ctx.count_past_cap();
        continue;
      }
      std::vector<std::string_view> dims;
      for (size_t i : args) {
        for (std::string_view d : p.value_dims(p.input(n, i))) {
          if (std::find(dims.begin(), dims.end(), d) == dims.end()) dims.push_back(d);
        }
      }
      std::sort(dims.begin(), dims.end());
      const int64_t opset = p.opset(n);
      std::string names;
      for (size_t i : args) {
        names += names.empty() ? "" : ", ";
        names += fmt::format("'{}'", formal_input_name(n, i, opset));
      }
      Diagnostic& d = ctx.report(
          ctx.at_node(n),
          fmt::format("the {} of {} {} computed at run time from {}; it would be a constant if "
                      "the inputs had fixed shapes",
                      names, node_label(n), args.size() == 1 ? "is" : "are", dims_phrase(dims)));
      for (size_t i : args) {
        ValueId v = p.input(n, i);
        d.notes.push_back(fmt::format("'{}' comes from {}", n.inputs()[i], p.explain_value(v)));
      }
      d.help =
          "export with fixed input shapes (no `dynamic_axes`) and onnx-simplifier folds "
          "this into a constant; keep it if these dims must stay dynamic";
    }
  }
};

}  // namespace

void add_shape_input_dependent(RuleRegistry& registry) { registry.add<InputDependent>(); }

}  // namespace onnxlint::rules
