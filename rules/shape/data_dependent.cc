// shape-data-dependent: the nodes where an output shape starts to depend on runtime tensor
// values (NonZero, a Reshape fed computed numbers, a Loop with a data trip count...). One
// finding per origin; everything downstream inherits the class silently, and the graph outputs
// it reaches are the finding's related locations (shape-dynamic-output leaves them out).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/provenance.h>

#include <unordered_map>
#include <vector>

#include "rules/categories.h"
#include "rules/shape/detection.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

class DataDependent final : public RuleBase<DataDependent> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "shape-data-dependent",
        .category = "shape",
        .severity = Severity::Warning,
        .summary = "Op whose output shape depends on runtime tensor values",
    };
    return k;
  }

  void on_model(const Model& model, RuleContext& ctx) override {
    const Provenance& p = ctx.get<Provenance>();
    // The origins in graph order, by graph: on_graph reports its own.
    for (const Node* n : p.data_dependent_origins()) origins_[n->graph()].push_back(n);
    const Graph& g = model.graph();
    for (const ValueInfo& out : g.outputs()) {
      const ValueId v = p.find(g, out.name);
      if (v == kNoValue || p.shape_class(v) != ShapeClass::DataDependent) continue;
      if (const Node* origin = p.shape_origin(v)) {
        reaches_[origin].push_back({ctx.at_value(g, out.name), "graph output"});
      }
    }
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    auto it = origins_.find(&g);
    if (it == origins_.end()) return;
    const Provenance& p = ctx.get<Provenance>();
    for (const Node* n : it->second) report(*n, p, ctx);
  }

 private:
  std::unordered_map<const Graph*, std::vector<const Node*>> origins_;
  // Graph outputs whose data-dependent shape arises at a node, by node.
  std::unordered_map<const Node*, std::vector<RelatedLocation>> reaches_;

  void report(const Node& n, const Provenance& p, RuleContext& ctx) {
    // The first output whose data-dependent shape arises here, and the value that caused it.
    ValueId out = kNoValue, cause = kNoValue;
    for (size_t k = 0; k < n.outputs().size() && out == kNoValue; ++k) {
      ValueId v = p.output(n, k);
      if (v == kNoValue || p.shape_class(v) != ShapeClass::DataDependent ||
          p.shape_origin(v) != &n) {
        continue;
      }
      out = v;
      auto steps = p.shape_reason(v, 2);
      if (steps.size() > 1 && steps[1].via_value) cause = steps[1].value;
    }
    const OpSemantics& sem = p.semantics(n);
    const int64_t opset = p.opset(n);
    std::string arg;
    // The cause without the model's names (Diagnostic::cause): the kind of message, the input,
    // the chain's op types and the computed shape with its bounds. Equal at every copy of an
    // unrolled loop, so the linter reports the copies as one finding.
    std::string shape_of_cause;
    if (cause != kNoValue) {
      for (size_t i = 0; i < n.inputs().size(); ++i) {
        if (p.input(n, i) == cause) {
          arg = fmt::format("'{}' ('{}')", formal_input_name(n, i, opset), n.inputs()[i]);
          shape_of_cause = fmt::format("input {}", i);
          break;
        }
      }
      if (arg.empty()) arg = fmt::format("'{}'", p.name_of(cause));
      shape_of_cause += '|';
      shape_of_cause += chain_shape(p.value_reason(cause));
    } else if (out != kNoValue) {
      shape_of_cause = fmt::format("|{}", chain_shape(p.shape_reason(out)));
    }

    std::string message;
    const bool standard = n.in_default_domain();
    if (standard && n.op_type() == "Loop") {
      // Output k < N carried values (N = inputs - 2): one that changes shape per pass (a
      // growing tensor or sequence); the rest are scan outputs, one slice per iteration.
      const size_t carried = n.inputs().size() > 2 ? n.inputs().size() - 2 : 0;
      size_t k = 0;
      while (k < n.outputs().size() && p.output(n, k) != out) ++k;
      message =
          k < carried
              ? fmt::format(
                    "{} changes the shape of its loop-carried '{}' on every pass (it grows or "
                    "shrinks), and its trip count depends on runtime data",
                    node_label(n), n.outputs()[k])
              : fmt::format(
                    "{} stacks one slice per iteration into its scan outputs, and its trip "
                    "count depends on runtime data",
                    node_label(n));
    } else if (standard && n.op_type() == "If") {
      message = fmt::format(
          "the branches of {} return outputs of different shapes, picked by a runtime condition",
          node_label(n));
    } else if (sem.shape == ShapeBehavior::DataDependent && !arg.empty()) {
      message = fmt::format("{} has an output shape set by the runtime values of its input {}",
                            node_label(n), arg);
    } else if (!arg.empty()) {
      message = fmt::format(
          "the {} argument of {} is computed from runtime values, so its output shape is "
          "data-dependent",
          arg, node_label(n));
    } else {
      message = fmt::format("{} has an output shape that depends on runtime values", node_label(n));
    }
    size_t out_index = 0;
    while (out_index < n.outputs().size() && p.output(n, out_index) != out) ++out_index;
    shape_of_cause = fmt::format("output {}|{}|{}", out_index, shape_of_cause, body_shape(n));
    Diagnostic& d = ctx.report(ctx.at_node(n), std::move(message));
    if (cause != kNoValue) {
      const Graph* cg = p.graph_of(cause);
      if (p.producer(cause) == nullptr && cg != nullptr && cg->kind() == Graph::Kind::Main) {
        d.notes.push_back(
            fmt::format("'{}' is a graph input: its values are only known at run "
                        "time",
                        p.name_of(cause)));
      } else {
        d.notes.push_back(
            fmt::format("'{}' comes from {}", p.name_of(cause), p.explain_value(cause)));
      }
    }
    // The static bound of the count, where one exists: what a static-shape target, a TensorRT
    // profile or a padded re-export needs.
    if (out != kNoValue) {
      const ComputedShape c = computed_shape(p, out);
      if (c.known) {  // a copy with other sizes or bounds is another cause
        shape_of_cause += "|" + c.text;
        if (const auto dims = p.dims(out)) {
          for (const DimFact& f : *dims) {
            if (f.kind == DimFact::Kind::Data) shape_of_cause += fmt::format(" {}", f.bound);
          }
        }
      }
      if (c.known && !c.bounds.empty()) {
        std::string bounds = fmt::format("{}", fmt::join(c.bounds, "; "));
        // "k ≤ 20, set by NonZero '/NonZero'" at that NonZero: the origin goes without saying.
        const std::string self = fmt::format(", set by {}", node_label(n));
        for (size_t at; (at = bounds.find(self)) != std::string::npos;)
          bounds.erase(at, self.size());
        d.notes.push_back(fmt::format("'{}' is {}: {}", p.name_of(out), c.text, bounds));
      }
    }
    if (auto it = reaches_.find(&n); it != reaches_.end()) {
      d.related = std::move(it->second);  // the graph outputs it reaches say how far it goes
    } else if (out != kNoValue) {
      // Without the name for a node of one output: the same words at every origin, which the
      // text output then prints once per file.
      d.notes.push_back(n.outputs().size() == 1
                            ? std::string("every shape computed from its output is "
                                          "data-dependent too")
                            : fmt::format("every shape computed from '{}' is data-dependent too",
                                          p.name_of(out)));
    }
    // The detector's own post-processing (torchvision's, unrolled per class) is not code the
    // user wrote: its fix is where it runs, not how it is written.
    const DetectionPart part = detection_part(n, p, ctx.get<NmsFeeders>(), cause);
    d.help = detection_help(part, data_dependent_help(n.op_type()));
    d.cause = std::move(shape_of_cause);
  }
};

}  // namespace

void add_shape_data_dependent(RuleRegistry& registry) { registry.add<DataDependent>(); }

}  // namespace onnxlint::rules
