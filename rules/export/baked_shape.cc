// export-baked-shape: a constant computed from the example input at export time pins a dim the
// model declares dynamic. Tracing turns every Python int read from a size (`int(x.shape[0])`,
// `x.view(2, -1)`, `range(x.shape[1])`, split sizes computed in Python) into a constant; the
// export succeeds, and the model fails or silently computes the wrong thing at every other size.
//
// This file only reports. The facts come from the analyses every rule shares:
//  - DimPins (include/onnxlint/dim_pins.h): the equalities the op registry's constraint rules
//    state, solved for the input dims declared dynamic, with the node that wrote the fixed size
//    (a ConstantOfShape, an Expand/Tile/Reshape argument) or folded the dynamic one (a Reshape
//    with a constant target) for the location;
//  - UnrolledLoops (include/onnxlint/unrolled_loops.h): Gather/Slice pieces at positions
//    0..k-1 of an axis of dynamic size that are combined again, a traced Python loop;
//  - Provenance's dims: a graph output declared with an input's dim name whose dim a constant
//    argument writes, Resize `sizes` over the batch or channels, and a Slice end equal to a size
//    another finding shows the model was exported with.
// Only proven contradictions are reported.
#include <fmt/format.h>
#include <onnxlint/dim_pins.h>
#include <onnxlint/provenance.h>
#include <onnxlint/unrolled_loops.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

// An end this large is "to the end" (torch writes INT64_MAX, other exporters INT32_MAX).
constexpr int64_t kOpenEnd = std::numeric_limits<int32_t>::max();

std::string ints_text(std::span<const int64_t> v) {
  return fmt::format("[{}]", fmt::join(v, ", "));
}

std::string sizes_text(int64_t first, int64_t last) {
  return first == last ? fmt::format("{}", first) : fmt::format("{} to {}", first, last);
}

// "'H' is 63 to 64 (or 1 to 2)"; with several dims, their bounds and the sizes that work
// when they are equal: "'H' is at most 64 and 'W' at most 64 ('H' = 'W' = 63 to 64 works)".
std::string runs_text(const DimPin& pin) {
  if (pin.dim_names.size() == 1) {
    std::string out = fmt::format("'{}' is {}", pin.dim_names[0], sizes_text(pin.first, pin.last));
    if (pin.or_one && pin.first_one <= pin.last_one) {
      out += fmt::format(" (or {})", sizes_text(pin.first_one, pin.last_one));
    }
    return out;
  }
  std::vector<std::string> bounds;
  for (size_t i = 0; i < pin.dim_names.size() && i < pin.at_most.size(); ++i) {
    bounds.push_back(fmt::format("'{}' is at most {}", pin.dim_names[i], pin.at_most[i]));
  }
  std::string out = fmt::format("{}", fmt::join(bounds, " and "));
  if (pin.first <= pin.last) {
    out += fmt::format(" ('{}' = {} works)", fmt::join(pin.dim_names, "' = '"),
                       sizes_text(pin.first, pin.last));
  }
  return out;
}

std::string help_for(std::string_view op) {
  if (op == "Split") {
    return "pass `torch.split` a chunk size (`torch.split(x, k, dim)`), or slice with bounds "
           "computed from `x.shape[i]` inside the traced code, so the sizes come from the "
           "input rather than from the example; or export with a fixed size on purpose";
  }
  if (op == "Loop") {
    return "vectorise the loop (one op over the whole axis: batched matmul, einsum, "
           "broadcasting, cumsum), or move it into a `torch.jit.script` function so it exports "
           "as an ONNX Loop whose trip count comes from the input; or export with a fixed size "
           "for that axis on purpose";
  }
  if (op == "Resize") {
    return "give `F.interpolate` a `scale_factor`, or compute `size` from `x.shape[2:]` inside "
           "the traced code; the sizes of the batch and channel axes must come from "
           "`x.shape[:2]` (tracing does this when sizes are not turned into Python ints)";
  }
  return "read sizes inside the traced code with `x.shape[i]` / `x.size(i)` and keep them as "
         "tensors (torch.onnx traces them as Shape ops) instead of turning them into Python ints "
         "(`int(...)`, numpy, `len()`, literals equal to the example's size); use -1 in "
         "`view`/`reshape` for the dynamic dim; or, if the size is meant to be fixed, export "
         "without dynamic_axes for it";
}

class BakedShape final : public RuleBase<BakedShape> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-baked-shape",
        .category = "export",
        .severity = Severity::Error,
        .summary = "Size from the export example frozen into a model that declares the dim dynamic",
        .options =
            {{"min-length", 3,
              "fewest loop iterations (Gather/Slice pieces) reported as a loop unrolled over "
              "a dynamic axis, unless another finding shows that size"}},
    };
    return k;
  }
  explicit BakedShape(const RuleOptionsView& opts)
      : min_length_(std::max<int64_t>(2, opts.get<int64_t>("min-length"))) {}

  void on_model(const Model& m, RuleContext& ctx) override {
    p_ = &ctx.get<Provenance>();
    // Free dims come only from the main graph's inputs: a static model has nothing to report.
    for (const ValueInfo& vi : m.graph().inputs()) {
      const ValueId v = p_->find(m.graph(), vi.name);
      if (v == kNoValue || p_->producer(v) != nullptr) continue;
      auto ds = p_->dims(v);
      if (!ds) continue;
      for (const DimFact& d : *ds) {
        if (d.kind == DimFact::Kind::Symbolic && d.names.size() == 1 && d.expr == d.names[0]) {
          declared_by_.emplace(d.names[0], p_->name_of(v));
        }
      }
    }
    if (declared_by_.empty()) return;
    const DimPins& pins = ctx.get<DimPins>();
    const UnrolledLoops& loops = ctx.get<UnrolledLoops>();
    report_pins(pins, loops, ctx);
    report_resizes(m, ctx);
    report_loops(loops, ctx);
    report_declared_outputs(m, pins, loops, ctx);
    report_slice_ends(m, ctx);
  }

 private:
  const int64_t min_length_;  // the min-length option, at least 2
  const Provenance* p_ = nullptr;
  // Input dim name -> the main-graph input declaring it (the first one).
  std::map<std::string_view, std::string_view> declared_by_;
  // Sizes a finding shows the model was exported with, per input dim: name -> size.
  std::map<std::string_view, int64_t> learned_;
  // One finding per set of input dims; later nodes that pin them are notes.
  struct Reported {
    Diagnostic* d;
    const Node* node;
  };
  std::map<std::vector<std::string_view>, Reported> reported_;

  bool is_input_dim(std::string_view name) const { return declared_by_.count(name) > 0; }

  std::string dim_phrase(const std::vector<std::string_view>& names) const {
    if (names.size() == 1) {
      auto it = declared_by_.find(names[0]);
      if (it != declared_by_.end()) {
        return fmt::format("dim '{}' of input '{}'", names[0], it->second);
      }
      return fmt::format("input dim '{}'", names[0]);
    }
    return fmt::format("the product of input dims {}", quoted_list(names));
  }

  // "[N, 16]": a value's dims as the analysis proves them ("?" where unknown).
  std::string dims_text(ValueId v) const {
    auto ds = v == kNoValue ? std::nullopt : p_->dims(v);
    if (!ds) return "[?]";
    std::vector<std::string> parts;
    for (const DimFact& d : *ds) {
      if (d.kind == DimFact::Kind::Fixed) {
        parts.push_back(std::to_string(d.value));
      } else if (d.kind == DimFact::Kind::Symbolic) {
        parts.push_back(d.expr);
      } else {
        parts.push_back("?");
      }
    }
    return fmt::format("[{}]", fmt::join(parts, ", "));
  }

  void add_declared_notes(Diagnostic& d, const std::vector<std::string_view>& names) const {
    for (std::string_view n : names) {
      d.notes.push_back(fmt::format("{} is declared dynamic", dim_phrase({n})));
    }
  }

  // ------------------------------------------------------------------------- pins

  // The message for a pin, worded after where the size was baked in.
  std::string pin_message(const DimPin& pin, const Node& where) const {
    const bool plain = pin.dim_names.size() == 1 && pin.expr == pin.dim_names[0];
    const std::string runs = runs_text(pin);
    const std::string value_text =
        plain ? runs : fmt::format("{} is {}, i.e. {}", pin.expr, pin.required, runs);
    const std::string names = quoted_list(pin.dim_names);
    const std::string fails = fmt::format(
        "the size seen at export was baked in, and any other size of {} fails at run time", names);
    const Node& at = *pin.node;
    if (&where == pin.folded_by) {
      auto shape = p_->argument_ints(where, 1, "shape", 5);
      return fmt::format(
          "{} has the constant shape {}, which folds {} into the dim {}; {} needs that dim to be "
          "{}, so the model only runs when {}: {}",
          node_label(where), shape ? ints_text(*shape) : std::string("?"),
          dim_phrase(pin.dim_names), pin.expr, node_label(at), pin.required, value_text, fails);
    }
    if (&where == pin.written_by) {
      std::string via;  // name the operand when it is not the input itself
      if (p_->producer(pin.operand) != nullptr || !plain) {
        via = fmt::format(" (in '{}')", p_->name_of(pin.operand));
      }
      return fmt::format(
          "{} writes the constant size {}, and {} needs {}{} to match it: the model only runs "
          "when {}; {}",
          node_label(where), pin.required, node_label(at), dim_phrase(pin.dim_names), via,
          value_text, fails);
    }
    const std::string_view op = at.op_type();
    if (pin.fixed_operand == kNoValue && at.in_default_domain()) {
      const std::string operand =
          fmt::format("'{}' {}", p_->name_of(pin.operand), dims_text(pin.operand));
      if (op == "Reshape") {
        if (auto shape = p_->argument_ints(at, 1, "shape", 5)) {
          return fmt::format(
              "{} has the constant shape {} ({} elements) for its input {}, which only holds "
              "when {}: {}",
              node_label(at), ints_text(*shape), pin.required, operand, value_text, fails);
        }
      } else if (op == "Split") {
        if (auto sizes = p_->argument_ints(at, 1, "split", 13)) {
          return fmt::format(
              "{} cuts axis {} of {} into the constant sizes {} ({} in all), which only holds "
              "when {}: {}",
              node_label(at), pin.axis, operand, ints_text(*sizes), pin.required, value_text,
              fails);
        }
      } else if (op == "Expand") {
        if (auto shape = p_->argument_ints(at, 1)) {
          return fmt::format("{} expands {} to the constant shape {}, which only holds when {}: {}",
                             node_label(at), operand, ints_text(*shape), value_text, fails);
        }
      }
    }
    const std::string against = pin.fixed_operand == kNoValue
                                    ? fmt::format("its constant size {}", pin.required)
                                    : fmt::format("dim {} of '{}', which is {}", pin.fixed_axis,
                                                  p_->name_of(pin.fixed_operand), pin.required);
    const std::string expr = plain ? names : fmt::format("{}, from {},", pin.expr, names);
    return fmt::format(
        "{} {}: dim {} of '{}' is {} and must equal {}{}, so the model only runs when {}: the "
        "size seen at export was baked in, and other sizes of {} fail at run time",
        node_label(at), pin.what, pin.axis, p_->name_of(pin.operand), expr, against,
        pin.or_one ? " (or be 1)" : "", runs, names);
  }

  void report_pins(const DimPins& pins, const UnrolledLoops& loops, RuleContext& ctx) {
    for (const DimPin& pin : pins.pins()) {
      // A loop's combined result has the loop's length: the loop finding says it.
      if (pin.fixed_operand != kNoValue && loops.combines_pieces(pin.fixed_operand)) continue;
      const Node& where = pin.folded_by != nullptr    ? *pin.folded_by
                          : pin.written_by != nullptr ? *pin.written_by
                                                      : *pin.node;
      if (auto it = reported_.find(pin.dim_names); it != reported_.end()) {
        // Usually a consequence of the first one; say where else the size is assumed.
        Reported& r = it->second;
        if (r.d->notes.size() < 4 && r.node != pin.node && r.node != &where) {
          r.d->notes.push_back(
              fmt::format("{} also needs {}", node_label(*pin.node), runs_text(pin)));
        }
        continue;
      }
      Diagnostic& d = ctx.report(ctx.at_node(where), pin_message(pin, where));
      d.key = fmt::format("{}={}", fmt::join(pin.dim_names, "*"), pin.required);
      add_declared_notes(d, pin.dim_names);
      d.help = help_for(where.op_type());
      reported_.emplace(pin.dim_names, Reported{&d, &where});
      if (pin.dim_names.size() == 1 && pin.first == pin.last) {
        learned_.emplace(pin.dim_names[0], pin.first);
      }
    }
  }

  // ------------------------------------------------------------------------- Resize sizes

  // Resize to constant sizes over the batch or channel axis of a rank >= 3 input: samples or
  // channels are interpolated together at any other size, silently.
  void report_resizes(const Model& m, RuleContext& ctx) {
    for (const Graph* g : m.all_graphs()) {
      for (const Node& n : g->nodes()) {
        if (!n.in_default_domain() || n.op_type() != "Resize" || p_->opset(n) < 11) continue;
        auto sizes = p_->argument_ints(n, 3);
        const ValueId x = p_->input(n, 0);
        auto ds = x == kNoValue ? std::nullopt : p_->dims(x);
        if (!sizes || !ds || ds->size() < 3 || sizes->size() != ds->size()) continue;
        for (size_t axis = 0; axis < 2; ++axis) {
          const DimFact& f = (*ds)[axis];
          if (f.kind != DimFact::Kind::Symbolic || f.names.size() != 1 || f.expr != f.names[0] ||
              !is_input_dim(f.names[0]) || (*sizes)[axis] < 1) {
            continue;
          }
          const std::vector<std::string_view> names{f.names[0]};
          if (reported_.count(names) > 0) continue;
          const int64_t size = (*sizes)[axis];
          Diagnostic& d = ctx.report(
              ctx.at_node(n),
              fmt::format("{} has the constant sizes {}: axis {} of '{}' ({}) is resized to {} "
                          "whatever its size, which interpolates across {} and silently gives "
                          "wrong results for any '{}' other than {}",
                          node_label(n), ints_text(*sizes), axis, p_->name_of(x), dim_phrase(names),
                          size, axis == 0 ? "samples" : "channels", names[0], size));
          d.key = fmt::format("{}={}", names[0], size);
          d.help = help_for("Resize");
          reported_.emplace(names, Reported{&d, &n});
        }
      }
    }
  }

  // ------------------------------------------------------------------------- loops

  void report_loops(const UnrolledLoops& loops, RuleContext& ctx) {
    for (const UnrolledRun& r : loops.runs()) {
      if (r.combined == nullptr || r.leading_length < 2) continue;
      auto ds = p_->dims(r.data);
      if (!ds || r.axis >= static_cast<int64_t>(ds->size())) continue;
      const DimFact& dim = (*ds)[static_cast<size_t>(r.axis)];
      if (dim.kind != DimFact::Kind::Symbolic || dim.names.empty() ||
          !std::all_of(dim.names.begin(), dim.names.end(),
                       [&](std::string_view n) { return is_input_dim(n); })) {
        continue;
      }
      const int64_t k = r.leading_length;
      // Two or three leading positions can be meant (first and second token); a shorter run
      // counts when another finding shows the axis had exactly that size at export.
      const bool plain = dim.names.size() == 1 && dim.expr == dim.names[0];
      auto seen = plain ? learned_.find(dim.names[0]) : learned_.end();
      if (k < min_length_ && !(seen != learned_.end() && seen->second == k)) continue;
      const Node& first = *r.pieces.front().node;
      size_t count = 0;
      for (const UnrolledPiece& x : r.pieces) {
        count += (!x.end || *x.end == x.index + 1) && x.index >= 0 && x.index < k ? 1 : 0;
      }
      const std::string quoted = plain ? fmt::format("'{}'", dim.expr) : dim.expr;
      Diagnostic& d = ctx.report(
          ctx.at_node_value(first, p_->name_of(r.data)),
          fmt::format(
              "'{}' is read at positions 0..{} of axis {} by {} {} nodes that {} combines again, "
              "but that axis has the dynamic size {}: a Python loop over it was unrolled by "
              "tracing for a size of {}; at any other size the model silently ignores the "
              "positions after {} (or fails when there are fewer)",
              p_->name_of(r.data), k - 1, r.axis, count, first.op_type(), node_label(*r.combined),
              quoted, k, k - 1));
      d.key = fmt::format("axis{}", r.axis);
      d.notes.push_back(fmt::format("the size of that axis is {}{}",
                                    plain ? "" : dim.expr + ", from ", dim_phrase(dim.names)));
      d.help = help_for("Loop");
      if (plain) learned_.emplace(dim.names[0], k);
    }
  }

  // ------------------------------------------------------------------------- declared outputs

  // A graph output declared with an input's dim name whose dim a constant argument writes.
  void report_declared_outputs(const Model& m, const DimPins& pins, const UnrolledLoops& loops,
                               RuleContext& ctx) {
    const Graph& g = m.graph();
    for (const ValueInfo& vi : g.outputs()) {
      if (!vi.type.has_shape) continue;
      const ValueId v = p_->find(g, vi.name);
      auto ds = v == kNoValue ? std::nullopt : p_->dims(v);
      if (!ds || ds->size() != vi.type.dims.size() || loops.combines_pieces(v)) continue;
      for (size_t i = 0; i < ds->size(); ++i) {
        const Dim& decl = vi.type.dims[i];
        const DimFact& f = (*ds)[i];
        if (decl.kind != Dim::Kind::Param || f.kind != DimFact::Kind::Fixed || f.value < 1) {
          continue;
        }
        auto input = declared_by_.find(decl.param);
        if (input == declared_by_.end()) continue;
        const Node* lit = pins.writer_of(v, i);
        if (lit == nullptr) continue;
        const std::vector<std::string_view> names{input->first};
        if (auto it = reported_.find(names); it != reported_.end()) {
          if (it->second.d->notes.size() < 4 && it->second.node != lit) {
            it->second.d->notes.push_back(fmt::format("{} also writes {} into output '{}'",
                                                      node_label(*lit), f.value, vi.name));
          }
          continue;
        }
        Diagnostic& d = ctx.report(
            ctx.at_node(*lit),
            fmt::format("{} writes the constant size {} into dim {} of output '{}', which the "
                        "model declares as '{}', which only holds when '{}' is {}: the size "
                        "seen at export was baked in, and at any other size of '{}' the output "
                        "silently has the wrong shape",
                        node_label(*lit), f.value, i, vi.name, decl.param, decl.param, f.value,
                        decl.param));
        d.key = fmt::format("{}={}", decl.param, f.value);
        add_declared_notes(d, names);
        d.help = help_for(lit->op_type());
        reported_.emplace(names, Reported{&d, lit});
        learned_.emplace(input->first, f.value);
      }
    }
  }

  // ------------------------------------------------------------------------- Slice ends

  // x[:, :T] where T is the size the model is shown elsewhere to have been exported with.
  void report_slice_ends(const Model& m, RuleContext& ctx) {
    if (learned_.empty()) return;
    for (const Graph* g : m.all_graphs()) {
      for (const Node& n : g->nodes()) {
        const auto slice = single_axis_slice(*p_, n);
        if (!slice) continue;
        int64_t axis = slice->axis;
        const int64_t end = slice->end;
        if (slice->start != 0 || end <= 0 || end >= kOpenEnd) continue;
        const ValueId x = p_->input(n, 0);
        auto ds = x == kNoValue ? std::nullopt : p_->dims(x);
        if (!ds) continue;
        if (axis < 0) axis += static_cast<int64_t>(ds->size());
        if (axis < 0 || axis >= static_cast<int64_t>(ds->size())) continue;
        const DimFact& f = (*ds)[static_cast<size_t>(axis)];
        if (f.kind != DimFact::Kind::Symbolic || f.names.size() != 1 || f.expr != f.names[0]) {
          continue;
        }
        auto it = learned_.find(f.names[0]);
        if (it == learned_.end() || it->second != end) continue;
        Diagnostic& d = ctx.report(
            ctx.at_node(n),
            fmt::format(
                "{} keeps positions 0..{} of axis {} of '{}', whose size '{}' is dynamic; {} is "
                "the size the model was exported with (see the other finding for '{}'), so the "
                "end was read from the example: longer inputs are silently cut to {}",
                node_label(n), end - 1, axis, p_->name_of(x), f.names[0], end, f.names[0], end));
        d.key = fmt::format("slice:{}={}", f.names[0], end);
        d.help = help_for("Slice");
      }
    }
  }
};

}  // namespace

void add_export_baked_shape(RuleRegistry& registry) { registry.add<BakedShape>(); }

}  // namespace onnxlint::rules
