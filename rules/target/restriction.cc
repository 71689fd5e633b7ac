// target-restriction: a statically checkable restriction from a target table's notes (constant
// inputs, attribute values, ranks, types, optional inputs/outputs), plus the target-wide rank and
// dimension limits. The restrictions are data: rules/target/restrictions.cc. The evaluation,
// target::broken_restrictions, is shared with the fallback estimate (target-unsupported-op).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/data_type.h>
#include <onnxlint/element_types.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <unordered_map>

#include "rules/advice.h"
#include "rules/categories.h"
#include "rules/target/restrictions.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
namespace {

using target::Check;

std::optional<double> as_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string tmp(s);
  char* end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return v;
}

bool same_value(std::string_view a, std::string_view b) {
  if (a == b) return true;
  auto x = as_number(a), y = as_number(b);
  return x && y && *x == *y;
}

bool in_values(std::string_view v, const std::vector<std::string_view>& values) {
  return std::any_of(values.begin(), values.end(),
                     [&](std::string_view w) { return same_value(v, w); });
}

std::string quoted_list(const std::vector<std::string_view>& values) {
  std::string s;
  for (std::string_view v : values) {
    if (!s.empty()) s += ", ";
    s += v;
  }
  return s;
}

// An attribute's value as text items (one for scalars), from the node or the schema default.
struct AttrValue {
  std::vector<std::string> items;
  bool from_default = false;
};

std::optional<AttrValue> attr_value(const Node& n, const OpSchema* schema, std::string_view name) {
  AttrValue v;
  if (const Attribute* a = n.attribute(name)) {
    switch (a->type) {
      case Attribute::Type::Int:
        v.items.push_back(std::to_string(a->i));
        break;
      case Attribute::Type::Float:
        v.items.push_back(fmt::format("{}", a->f));
        break;
      case Attribute::Type::String:
        v.items.emplace_back(a->s);
        break;
      case Attribute::Type::Ints:
        for (int64_t x : a->ints) v.items.push_back(std::to_string(x));
        break;
      case Attribute::Type::Floats:
        for (float x : a->floats) v.items.push_back(fmt::format("{}", x));
        break;
      case Attribute::Type::Strings:
        for (std::string_view x : a->strings) v.items.emplace_back(x);
        break;
      default:
        return std::nullopt;
    }
    return v;
  }
  if (schema == nullptr) return std::nullopt;
  const AttributeSchema* as = schema->find_attribute(name);
  // No such attribute at this version (the restriction does not apply), or no default.
  if (as == nullptr || !as->has_default) return std::nullopt;
  v.from_default = true;
  const std::string text(as->default_text);
  if (!text.empty() && text.front() == '[') {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array()) return std::nullopt;
    for (const auto& e : j) v.items.push_back(e.is_string() ? e.get<std::string>() : e.dump());
  } else {
    v.items.push_back(text);
  }
  return v;
}

std::string attr_text(const AttrValue& v) {
  if (v.items.size() == 1) return v.items[0];
  return "[" + fmt::format("{}", fmt::join(v.items, ", ")) + "]";
}

// A node argument named by a restriction.
struct Arg {
  std::string_view value;
  std::string label;  // "input 'axes'" / "output 'Indices'"
  bool output = false;
};

std::optional<size_t> formal_index(std::span<const ParamSchema> formals, std::string_view name) {
  for (size_t i = 0; i < formals.size(); ++i) {
    if (formals[i].name == name) return i;
  }
  return std::nullopt;
}

std::optional<Arg> find_arg(const Node& n, const OpSchema* schema, std::string_view name,
                            bool want_output) {
  std::optional<size_t> idx;
  std::string label;
  if (name.starts_with("#")) {
    idx = static_cast<size_t>(std::atoi(std::string(name.substr(1)).c_str()));
    label = fmt::format("{} {}", want_output ? "output" : "input", idx.value());
  } else if (schema != nullptr) {
    idx = formal_index(want_output ? schema->outputs : schema->inputs, name);
    label = fmt::format("{} '{}'", want_output ? "output" : "input", name);
  }
  if (!idx) return std::nullopt;
  const auto& list = want_output ? n.outputs() : n.inputs();
  if (*idx >= list.size() || list[*idx].empty()) return std::nullopt;
  return Arg{list[*idx], label, want_output};
}

// Inputs named by `names` ("*" = all present inputs), then outputs when `outputs_too`.
std::vector<Arg> find_args(const Node& n, const OpSchema* schema,
                           const std::vector<std::string_view>& names, bool outputs_too) {
  std::vector<Arg> out;
  for (std::string_view name : names) {
    if (name == "*") {
      for (size_t i = 0; i < n.inputs().size(); ++i) {
        if (!n.inputs()[i].empty())
          out.push_back({n.inputs()[i], fmt::format("input '{}'", n.inputs()[i]), false});
      }
      if (outputs_too) {
        for (size_t i = 0; i < n.outputs().size(); ++i) {
          if (!n.outputs()[i].empty())
            out.push_back({n.outputs()[i], fmt::format("output '{}'", n.outputs()[i]), true});
        }
      }
      continue;
    }
    if (auto a = find_arg(n, schema, name, false)) {
      out.push_back(*a);
    } else if (outputs_too) {
      if (auto b = find_arg(n, schema, name, true)) out.push_back(*b);
    }
  }
  return out;
}

// A value's shape as the analysis proves it, so that a verdict does not change when
// `infer_shapes` adds value_info: the declaration only fills what inference cannot know (no rank
// at all, or a dim it leaves unknown), the precedence of Provenance::static_dims. Symbolic dims
// keep their expression ("N", "N+1") for the messages, which static_dims does not carry.
class KnownShape {
 public:
  KnownShape(const Provenance& p, const ValueTable& values, ValueId v) {
    const StatedType st = values.stated(v);
    auto facts = v == kNoValue ? std::nullopt : p.dims(v);
    if (!facts) {
      if (st.has_shape()) {
        has_shape_ = true;
        dims_ = st.dims();  // dim_param views point into the model, which outlives this
      }
      return;
    }
    has_shape_ = true;
    const bool declared = st.has_shape() && st.rank() == facts->size();
    exprs_.reserve(facts->size());  // the Param views below point into these strings
    for (size_t i = 0; i < facts->size(); ++i) {
      const DimFact& f = (*facts)[i];
      Dim d;
      if (f.kind == DimFact::Kind::Fixed) {
        d.kind = Dim::Kind::Value;
        d.value = f.value;
      } else if (f.kind == DimFact::Kind::Symbolic) {
        exprs_.push_back(f.expr);
        d.kind = Dim::Kind::Param;
        d.param = exprs_.back();
      } else if (f.kind == DimFact::Kind::Unknown && declared) {
        d = st.dim(i);
      }
      dims_.push_back(d);
    }
  }
  KnownShape(const KnownShape&) = delete;
  KnownShape& operator=(const KnownShape&) = delete;

  bool has_shape() const { return has_shape_; }
  size_t rank() const { return dims_.size(); }
  bool is_static_shape() const {
    return has_shape_ &&
           std::all_of(dims_.begin(), dims_.end(), [](const Dim& d) { return d.is_static(); });
  }
  const std::vector<Dim>& dims() const { return dims_; }

 private:
  bool has_shape_ = false;
  std::vector<std::string> exprs_;
  std::vector<Dim> dims_;
};

std::string dims_text(std::span<const Dim> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) s += ", ";
    if (dims[i].kind == Dim::Kind::Value) {
      s += std::to_string(dims[i].value);
    } else if (dims[i].kind == Dim::Kind::Param) {
      s += dims[i].param;
    } else {
      s += "?";
    }
  }
  return s + "]";
}

std::string_view help_for(Check c) {
  switch (c) {
    case Check::ConstInput:
    case Check::ConstUnlessType:
    case Check::ConstUnlessAttr:
    case Check::ConstIntScalarAtMost:
      return "make the value a constant: export with do_constant_folding=True (the default) and "
             "without computing it from inputs, or fold the graph with onnx-simplifier / "
             "polygraphy surgeon sanitize --fold-constants";
    case Check::NoInput:
    case Check::NoOutput:
    case Check::MaxOutputs:
      return "export without the optional input/output (do not pass or use it in forward()), or "
             "keep the node off this target";
    case Check::AttrIn:
    case Check::AttrNotIn:
    case Check::AttrAbsent:
    case Check::AttrAllEqual:
    case Check::BidiActivationsMatch:
    case Check::PadsSymmetric:
    case Check::AxisIsLast:
    case Check::AxesGiven:
      return "change the argument in the PyTorch call that produces this node (e.g. mode, "
             "align_corners, padding, keepdim, dim), or rewrite it with supported primitives";
    case Check::RankIn:
    case Check::RankAtMost:
    case Check::RankAtLeast:
    case Check::SameShapes:
    case Check::IfBranchRanks:
    case Check::Scalar:
      return "reshape to a supported rank/shape around the node (e.g. view/unsqueeze to 4D, "
             "explicit expand instead of broadcasting), or keep the node off this target";
    case Check::StaticShape:
      return "fix the shapes: export without dynamic_axes (or pin them with "
             "onnxruntime.tools.make_dynamic_shape_fixed)";
    case Check::TypeIn:
    case Check::TypeNotIn:
      return "cast to a supported element type before the node, or export in that precision";
    case Check::ConstAllEqual:
    case Check::ConstMin:
    case Check::ConstBelow:
    case Check::ConstNotValue:
    case Check::MinInputs:
    case Check::PadsLastDims:
      return "change the values at export (e.g. symmetric quantization with zero point 0, "
             "model.eval(), explicit sizes), or rewrite the node";
  }
  return "";
}

// The fix keyed by the cause, where the argument a restriction is about says more than the kind
// of check (help_for above): Dropout's training_mode and a zero point break the same "must
// equal" check, and the fixes are model.eval() and symmetric quantization. First match wins;
// `arg` matches the argument's name, or its end when it starts with '*'.
struct CauseHelp {
  std::string_view arg;
  std::string_view help;
  std::optional<Check> check = std::nullopt;  // only for this check (pads: symmetric ones)
};
constexpr CauseHelp kHelpByCause[] = {
    {"training_mode", advice::kEvalMode},
    {"*zero_point", advice::kSymmetricQuantization, Check::ConstAllEqual},
    {"pads",
     "pad the same on both sides (an odd kernel with padding=k//2), or pad explicitly with "
     "F.pad before the op so the op itself has symmetric pads",
     Check::PadsSymmetric},
    {"auto_pad", "give explicit padding (padding=k//2 or a number) instead of padding='same'"},
    {"dilations",
     "use dilation=1 in the convolution or pooling call, or keep the node off this target"},
    {"ceil_mode", "use ceil_mode=False in the pooling call (pad the input instead)"},
    {"layout",
     "export recurrent layers with batch_first=False (permute the input before and after the "
     "layer in forward())"},
    {"input_forget", "use a plain nn.LSTM (no coupled input-forget gate)"},
    {"activations", "use the same activations in both directions of a bidirectional layer"},
    {"keepdims", "pass keepdim=True to the reduction and squeeze afterwards"},
    {"coordinate_transformation_mode",
     "change interpolate's align_corners (and scale_factor vs size) to a combination the "
     "target supports, e.g. align_corners=False"},
    {"nearest_mode", "use mode='nearest' with a rounding the target supports, or mode='bilinear'"},
    {"antialias", "call interpolate with antialias=False"},
};

std::string_view help_for_cause(const target::Restriction& r) {
  // What a constant, a type, a rank or a static shape needs is the check's fix, whatever the
  // argument (NNAPI's constant zero point is not TensorRT's zero zero point).
  switch (r.check) {
    case Check::ConstInput:
    case Check::ConstUnlessType:
    case Check::ConstUnlessAttr:
    case Check::ConstIntScalarAtMost:
    case Check::TypeIn:
    case Check::TypeNotIn:
    case Check::StaticShape:
    case Check::RankIn:
    case Check::RankAtMost:
    case Check::RankAtLeast:
      return {};
    default:
      break;
  }
  for (const CauseHelp& c : kHelpByCause) {
    for (std::string_view arg : r.args) {
      if (c.check && *c.check != r.check) continue;
      if (c.arg.starts_with('*') ? arg.ends_with(c.arg.substr(1)) : arg == c.arg) return c.help;
    }
  }
  return {};
}

// The encoded restrictions by op name (all targets and domains: a few per op), built once; looked
// up per node and target without building a key.
const std::unordered_map<std::string_view, std::vector<const target::Restriction*>>& by_op() {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, std::vector<const target::Restriction*>>();
    for (const target::Restriction& r : target::restriction_table()) (*m)[r.op].push_back(&r);
    return m;
  }();
  return *index;
}

// The product of static dims, or nullopt when a dim is negative or the product overflows.
std::optional<int64_t> element_count(std::span<const Dim> dims) {
  int64_t count = 1;
  for (const Dim& d : dims) {
    if (d.value < 0 || __builtin_mul_overflow(count, d.value, &count)) return std::nullopt;
  }
  return count;
}

struct Finding {
  std::string what;             // "…" completing "<node> (<op>) …"
  std::string arg;              // fingerprint key part
  std::string_view help = {};   // overrides the check's help
  std::string_view value = {};  // the value whose contents break it, when one does
};

// A value the target takes computed at run time when it is int32 (NNAPI's Gather indices):
// the fix is the type, not a constant (an embedding's token ids come from the input).
constexpr std::string_view kCastToInt32Help =
    "give the node int32 values: cast where they are computed (an embedding's token ids: "
    "`input_ids.to(torch.int32)` in forward(), or export that graph input as int32); the "
    "target takes int32 values computed at run time. A value that does not come from the "
    "input can be made a constant instead (export with do_constant_folding=True)";

// An If whose condition is a constant: folding replaces it by the branch taken.
constexpr std::string_view kFoldConstantIfHelp =
    "the If's condition is a constant (flow-constant-condition reports it): fold the graph "
    "(onnx-simplifier, or polygraphy surgeon sanitize --fold-constants) and the If is replaced "
    "by the branch it takes; or remove the check from the traced code";

constexpr std::string_view kOverridableHelp =
    "export with keep_initializers_as_inputs=False (or remove the initializers from the graph "
    "inputs, e.g. onnxruntime/tools/python/remove_initializer_from_input.py)";

// The finding a broken restriction says again, if the report has it at the same node
// (Diagnostic::restates): a training_mode restriction is export-training-mode's finding in the
// target's terms; a value (a uint8 zero point) whose element type the target rejects for the
// node is the element type's finding: a zero point of 0 in that type would not help.
std::string restated_rule(const target::Restriction& r, const Finding& f, const TargetInfo& t,
                          const Node& n, const target::NodeCheck& nc, RuleContext& ctx) {
  for (std::string_view arg : r.args) {
    if (arg == "training_mode") return "export-training-mode";
  }
  if (f.value.empty()) return {};
  for (const target::TypeOffence& o :
       target::unsupported_types(ctx.model(), t, n, nc, ctx.get<ElementTypes>())) {
    if (std::find(o.inputs.begin(), o.inputs.end(), f.value) != o.inputs.end())
      return "target-unsupported-type";
  }
  return {};
}

void evaluate(const target::Restriction& r, const TargetInfo& t, const Node& n,
              const OpSchema* schema, const target::NodeCheck& nc, RuleContext& ctx,
              std::vector<target::BrokenRestriction>& out) {
  if (!r.when_attr.empty()) {
    if (r.when_value == "*") {
      if (n.attribute(r.when_attr) == nullptr) return;
    } else {
      auto w = attr_value(n, schema, r.when_attr);
      if (!w || w->items.size() != 1 || !same_value(w->items[0], r.when_value)) return;
    }
  }
  const Graph& g = *n.graph();
  const ValueTable& values = ctx.get<ValueTable>();
  const Provenance& prov = ctx.get<Provenance>();
  auto known = [&](ValueId v) { return KnownShape(prov, values, v); };
  auto known_name = [&](std::string_view name) { return known(values.find(g, name)); };
  // Element types as inferred (declarations never override inference).
  auto elem_of = [&](std::string_view name) {
    return ctx.get<ElementTypes>().elem_type(values.find(g, name));
  };
  const FoldStates& folds = ctx.get<FoldStates>();
  auto fold = [&](std::string_view name) { return folds.state_of(g, name); };
  auto is_runtime = [&](std::string_view name) { return fold(name) == FoldState::Runtime; };
  const std::string_view who = t.display_name;
  std::vector<Finding> found;
  auto value0 = [&] { return r.values.empty() ? std::string_view() : r.values[0]; };
  // The restriction's number (table data); a value outside int64 would make the conversion UB.
  auto int0 = [&] {
    const double v = as_number(value0()).value_or(0);
    return v >= -9.2e18 && v <= 9.2e18 ? static_cast<int64_t>(v) : int64_t{0};
  };

  switch (r.check) {
    case Check::ConstInput:
      for (const Arg& a : find_args(n, schema, r.args, false)) {
        if (!is_runtime(a.value)) continue;
        const auto c = values.constant(values.find(g, a.value));
        if (c && c->overridable) {
          found.push_back({fmt::format("takes {} from '{}', an initializer that is also a graph "
                                       "input (so it can be overridden at run time), but {} "
                                       "needs it constant",
                                       a.label, a.value, who),
                           a.label, kOverridableHelp});
        } else {
          found.push_back({fmt::format("computes {} ('{}') at run time, but {} needs it constant",
                                       a.label, a.value, who),
                           a.label});
        }
      }
      break;
    case Check::NoInput:
      for (const Arg& a : find_args(n, schema, r.args, false)) {
        found.push_back({fmt::format("uses the optional {} ('{}'), which {} does not support",
                                     a.label, a.value, who),
                         a.label});
      }
      break;
    case Check::NoOutput:
      for (std::string_view name : r.args) {
        if (auto a = find_arg(n, schema, name, true)) {
          found.push_back({fmt::format("produces the optional {} ('{}'), which {} does not "
                                       "support",
                                       a->label, a->value, who),
                           a->label});
        }
      }
      break;
    case Check::MaxOutputs: {
      const auto count = std::count_if(n.outputs().begin(), n.outputs().end(),
                                       [](std::string_view o) { return !o.empty(); });
      if (count > int0()) {
        found.push_back(
            {fmt::format("has {} outputs, but {} supports at most {}", count, who, int0()),
             "outputs"});
      }
      break;
    }
    case Check::MinInputs: {
      const auto count = std::count_if(n.inputs().begin(), n.inputs().end(),
                                       [](std::string_view i) { return !i.empty(); });
      if (count < int0()) {
        found.push_back({fmt::format("has {} input{}, but {} needs at least {}", count,
                                     count == 1 ? "" : "s", who, int0()),
                         "inputs"});
      }
      break;
    }
    case Check::AttrIn:
    case Check::AttrNotIn: {
      const std::string_view name = r.args.at(0);
      auto v = attr_value(n, schema, name);
      if (!v) break;
      for (const std::string& item : v->items) {
        const bool listed = in_values(item, r.values);
        if (listed == (r.check == Check::AttrIn)) continue;
        found.push_back(
            {fmt::format("has {}={}{}, which {} does not support ({})", name, attr_text(*v),
                         v->from_default ? " (the default)" : "", who,
                         r.check == Check::AttrIn ? "supported: " + quoted_list(r.values)
                                                  : "unsupported: " + quoted_list(r.values)),
             std::string(name)});
        break;
      }
      break;
    }
    case Check::AttrAbsent:
      for (std::string_view name : r.args) {
        if (n.attribute(name) != nullptr) {
          found.push_back({fmt::format("sets attribute '{}', which {} does not support", name, who),
                           std::string(name)});
        }
      }
      break;
    case Check::AttrAllEqual: {
      const Attribute* a = n.attribute(r.args.at(0));
      if (a == nullptr) break;
      if (std::any_of(a->ints.begin(), a->ints.end(), [&](int64_t x) { return x != int0(); })) {
        found.push_back({fmt::format("has {}=[{}], but {} supports only {} of all {}", r.args[0],
                                     fmt::join(a->ints, ", "), who, r.args[0], int0()),
                         std::string(r.args[0])});
      }
      break;
    }
    case Check::RankIn:
    case Check::RankAtMost:
    case Check::RankAtLeast:
      for (const Arg& a : find_args(n, schema, r.args, true)) {
        const KnownShape f = known_name(a.value);
        if (!f.has_shape()) continue;
        const auto rk = static_cast<int64_t>(f.rank());
        bool ok = true;
        std::string allowed;
        if (r.check == Check::RankIn) {
          ok = in_values(std::to_string(rk), r.values);
          allowed = quoted_list(r.values);
        } else if (r.check == Check::RankAtMost) {
          ok = rk <= int0();
          allowed = fmt::format("at most {}", int0());
        } else {
          ok = rk >= int0();
          allowed = fmt::format("at least {}", int0());
        }
        if (!ok) {
          found.push_back({fmt::format("has {} ('{}') of rank {}, but {} supports rank {}", a.label,
                                       a.value, rk, who, allowed),
                           a.label});
        }
      }
      break;
    case Check::StaticShape:
      for (const Arg& a : find_args(n, schema, r.args, true)) {
        const KnownShape f = known_name(a.value);
        if (!f.has_shape() || f.is_static_shape()) continue;
        found.push_back({fmt::format("has {} ('{}') with dynamic shape {}, but {} needs it "
                                     "static",
                                     a.label, a.value, dims_text(f.dims()), who),
                         a.label});
      }
      break;
    case Check::TypeIn:
    case Check::TypeNotIn:
      for (const Arg& a : find_args(n, schema, r.args, true)) {
        const int32_t elem = elem_of(a.value);
        const std::string_view name = elem != DataType::Undefined ? data_type_name(elem) : "";
        if (name.empty()) continue;
        const bool listed = std::find(r.values.begin(), r.values.end(), name) != r.values.end();
        if (listed == (r.check == Check::TypeIn)) continue;
        found.push_back({fmt::format("has {} ('{}') of type {}, which {} does not support here",
                                     a.label, a.value, name, who),
                         a.label});
      }
      break;
    case Check::ConstAllEqual:
    case Check::ConstMin:
    case Check::ConstBelow:
    case Check::ConstNotValue:
      for (const Arg& a : find_args(n, schema, r.args, false)) {
        if (fold(a.value) != FoldState::Constant) {
          if (!is_runtime(a.value)) continue;
          // Only "must equal" needs the value fixed; the bounds apply to whatever it is.
          if (r.check == Check::ConstAllEqual) {
            found.push_back({fmt::format("computes {} ('{}') at run time, but {} needs it to "
                                         "be the constant {}",
                                         a.label, a.value, who, value0()),
                             a.label});
          }
          continue;
        }
        auto ints = values.constant_ints(values.find(g, a.value));
        if (!ints) continue;  // derived from constants or not an integer type: unknown
        const int64_t v = int0();
        auto bad = std::find_if(ints->begin(), ints->end(), [&](int64_t x) {
          switch (r.check) {
            case Check::ConstAllEqual:
              return x != v;
            case Check::ConstMin:
              return x < v;
            case Check::ConstBelow:
              return x >= v;
            default:
              return x == v;
          }
        });
        if (bad == ints->end()) continue;
        std::string need = r.check == Check::ConstAllEqual ? fmt::format("all {}", v)
                           : r.check == Check::ConstMin    ? fmt::format(">= {}", v)
                           : r.check == Check::ConstBelow  ? fmt::format("< {}", v)
                                                           : fmt::format("no {}", v);
        found.push_back({fmt::format("has {} ('{}') containing {}, but {} needs {}", a.label,
                                     a.value, *bad, who, need),
                         a.label,
                         {},
                         a.value});
      }
      break;
    case Check::ConstIntScalarAtMost:
      for (const Arg& a : find_args(n, schema, r.args, false)) {
        if (is_runtime(a.value)) {
          found.push_back({fmt::format("computes {} ('{}') at run time, but {} needs a constant "
                                       "scalar integer <= {}",
                                       a.label, a.value, who, int0()),
                           a.label});
          continue;
        }
        const auto c = values.constant(values.find(g, a.value));
        if (!c || c->tensor == nullptr) continue;
        std::optional<std::vector<double>> vals = ctx.model().read_floats(*c->tensor, 16);
        if (!vals) {
          if (auto ints = ctx.model().read_ints(*c->tensor, 16)) {
            vals = std::vector<double>(ints->begin(), ints->end());
          }
        }
        if (!vals) continue;
        const bool ok = vals->size() == 1 && std::floor((*vals)[0]) == (*vals)[0] &&
                        (*vals)[0] <= static_cast<double>(int0());
        if (!ok) {
          found.push_back({fmt::format("has {} ('{}') = [{}], but {} needs one integer <= {}",
                                       a.label, a.value, fmt::join(*vals, ", "), who, int0()),
                           a.label});
        }
      }
      break;
    case Check::Scalar:
      for (const Arg& a : find_args(n, schema, r.args, false)) {
        const KnownShape f = known_name(a.value);
        if (!f.is_static_shape()) continue;
        // A count that overflows int64 (or a negative dim) describes no real tensor: no claim
        // about it, rather than a wrapped count.
        auto count = element_count(f.dims());
        if (!count) continue;
        if (*count != 1) {
          found.push_back({fmt::format("has {} ('{}') with {} elements (per-axis), but {} "
                                       "supports only one (per-tensor)",
                                       a.label, a.value, *count, who),
                           a.label});
        }
      }
      break;
    case Check::SameShapes: {
      std::optional<std::vector<Dim>> first;
      std::string_view first_name;
      for (size_t k = 0; k < n.inputs().size(); ++k) {
        const std::string_view in = n.inputs()[k];
        const KnownShape st = known(values.input(n, k));
        if (in.empty() || !st.is_static_shape()) continue;
        if (!first) {
          first = st.dims();
          first_name = in;
          continue;
        }
        const std::vector<Dim> f = st.dims();
        bool same = f.size() == first->size();
        for (size_t i = 0; same && i < f.size(); ++i) same = f[i].value == (*first)[i].value;
        if (!same) {
          found.push_back({fmt::format("broadcasts '{}' {} with '{}' {}, but {} needs inputs "
                                       "of the same shape",
                                       first_name, dims_text(*first), in, dims_text(f), who),
                           "shapes"});
          break;
        }
      }
      break;
    }
    case Check::BidiActivationsMatch: {
      const Attribute* a = n.attribute(r.args.at(0));
      const auto per = static_cast<size_t>(std::max<int64_t>(0, int0()));
      if (a == nullptr || per == 0 || a->strings.size() < 2 * per) break;
      if (!std::equal(a->strings.begin(), a->strings.begin() + per, a->strings.begin() + per)) {
        found.push_back({fmt::format("uses different forward and reverse activations [{}], "
                                     "which {} does not support",
                                     fmt::join(a->strings, ", "), who),
                         "activations"});
      }
      break;
    }
    case Check::PadsSymmetric: {
      const Attribute* a = n.attribute("pads");
      if (a == nullptr || a->ints.size() % 2 != 0) break;
      const size_t k = a->ints.size() / 2;
      for (size_t i = 0; i < k; ++i) {
        if (a->ints[i] != a->ints[i + k]) {
          found.push_back({fmt::format("has pads=[{}] with different begin and end pads, which "
                                       "{} does not support",
                                       fmt::join(a->ints, ", "), who),
                           "pads"});
          break;
        }
      }
      break;
    }
    case Check::PadsLastDims: {
      // Pads given as the `pads` input (opset 11+) or attribute (older); with `axes` the
      // positions are not per dimension.
      if (find_arg(n, schema, "axes", false)) break;
      std::optional<std::vector<int64_t>> pads;
      if (auto a = find_arg(n, schema, "pads", false)) {
        pads = values.constant_ints(values.find(g, a->value));
      } else if (const Attribute* attr = n.attribute("pads")) {
        pads.emplace(attr->ints.begin(), attr->ints.end());
      }
      if (!pads || pads->size() % 2 != 0) break;
      const size_t rank = pads->size() / 2;
      const auto last = static_cast<size_t>(std::max<int64_t>(0, int0()));
      for (size_t i = 0; i + last < rank; ++i) {
        if ((*pads)[i] != 0 || (*pads)[i + rank] != 0) {
          found.push_back({fmt::format("pads axis {} (pads [{}]), but {} pads only the last {} "
                                       "axes",
                                       i, fmt::join(*pads, ", "), who, last),
                           "pads"});
          break;
        }
      }
      break;
    }
    case Check::AxisIsLast: {
      auto v = attr_value(n, schema, r.args.at(0));
      if (!v || v->items.size() != 1 || n.inputs().empty()) break;
      const auto axis = as_number(v->items[0]);
      if (!axis || *axis == -1) break;
      const KnownShape in = known(values.input(n, 0));
      if (!in.has_shape() || static_cast<double>(in.rank()) - 1 == *axis) break;
      const size_t rank = in.rank();
      found.push_back(
          {fmt::format("has {}={}{} on a rank-{} input, but {} supports only the "
                       "last axis",
                       r.args[0], v->items[0], v->from_default ? " (the default)" : "", rank, who),
           std::string(r.args[0])});
      break;
    }
    case Check::IfBranchRanks: {
      const Attribute* then_a = n.attribute("then_branch");
      const Attribute* else_a = n.attribute("else_branch");
      if (then_a == nullptr || else_a == nullptr || then_a->g == nullptr || else_a->g == nullptr) {
        break;
      }
      const Graph& tg = *then_a->g;
      const Graph& eg = *else_a->g;
      // A condition the analysis proves constant (torch's traced asserts and size checks):
      // folding removes the If, and with it the problem.
      const ValueId cond = prov.input(n, 0);
      const auto known = cond == kNoValue ? std::nullopt : prov.known_ints(cond);
      const std::string_view help =
          known && known->size() == 1 ? kFoldConstantIfHelp : std::string_view();
      for (size_t i = 0; i < tg.outputs().size() && i < eg.outputs().size(); ++i) {
        const TypeInfo& x = tg.outputs()[i].type;
        const TypeInfo& y = eg.outputs()[i].type;
        if (!x.has_shape || !y.has_shape || x.dims.size() == y.dims.size()) continue;
        found.push_back({fmt::format("returns output {} with rank {} from then_branch and {} "
                                     "from else_branch, which {} does not support",
                                     i, x.dims.size(), y.dims.size(), who),
                         fmt::format("output {}", i), help});
      }
      break;
    }
    case Check::ConstUnlessType:
      for (const Arg& a : find_args(n, schema, r.args, false)) {
        if (!is_runtime(a.value)) continue;
        const int32_t elem = elem_of(a.value);
        if (elem == DataType::Undefined || data_type_name(elem) == value0()) continue;
        found.push_back({fmt::format("computes {} ('{}', {}) at run time, but {} needs it "
                                     "constant unless it is {}",
                                     a.label, a.value, data_type_name(elem), who, value0()),
                         a.label, value0() == "int32" ? kCastToInt32Help : std::string_view()});
      }
      break;
    case Check::ConstUnlessAttr: {
      auto a = find_arg(n, schema, r.args.at(0), false);
      if (!a || !is_runtime(a->value)) break;
      auto v = attr_value(n, schema, r.args.at(1));
      if (!v || (v->items.size() == 1 && same_value(v->items[0], value0()))) break;
      found.push_back(
          {fmt::format("computes {} ('{}') at run time with {}={}, but {} needs it "
                       "constant unless {}={}",
                       a->label, a->value, r.args[1], attr_text(*v), who, r.args[1], value0()),
           a->label});
      break;
    }
    case Check::AxesGiven:
      if (find_arg(n, schema, "axes", false) || n.attribute("axes") != nullptr) break;
      found.push_back({fmt::format("reduces over all axes by default (no axes given), which {} "
                                   "does not support",
                                   who),
                       "axes"});
      break;
  }

  // One restriction broken by several inputs of one node is one finding: the first input
  // in the message, the others in a note.
  if (!found.empty()) {
    const Finding& f = found.front();
    Diagnostic d;
    d.message = fmt::format("{} ({}) {}", n.display_name(),
                            target::op_label(n.domain(), n.op_type()), f.what);
    d.target = std::string(t.id);
    d.key = fmt::format("{}:{}", target::to_string(r.check), f.arg);
    d.notes.push_back(fmt::format("{} documents for {}: \"{}\"", who, n.op_type(), r.note));
    if (found.size() > 1) {
      std::string others;
      for (size_t i = 1; i < found.size(); ++i) {
        others += fmt::format("{}{}", i == 1 ? "" : ", ", found[i].arg);
      }
      d.notes.push_back(fmt::format("the same holds for {}", others));
    }
    // The finding's own fix first (it knows the values), then the cause's, then the check's.
    const std::string_view cause_help = help_for_cause(r);
    d.help = std::string(!f.help.empty()       ? f.help
                         : !cause_help.empty() ? cause_help
                                               : help_for(r.check));
    d.restates = restated_rule(r, f, t, n, nc, ctx);
    out.push_back({std::move(d), r.fails_node});
  }
}

void add_fact_note(const TargetInfo& t, std::string_view fact, Diagnostic& d) {
  for (const FactSource& f : t.extra_fact_sources) {
    if (f.fact == fact) d.notes.push_back(fmt::format("source: {}", f.source));
  }
}

// Target-wide limits from extra_facts.json: max rank and max dimension of a node's inputs.
void check_limits(const TargetInfo& t, const Node& n, RuleContext& ctx,
                  std::vector<target::BrokenRestriction>& out) {
  if (t.max_rank <= 0 && t.max_dim <= 0) return;
  const ValueTable& values = ctx.get<ValueTable>();
  const Provenance& prov = ctx.get<Provenance>();
  for (size_t i = 0; i < n.inputs().size(); ++i) {
    if (n.inputs()[i].empty()) continue;
    const KnownShape st(prov, values, values.input(n, i));
    if (!st.has_shape()) continue;
    const std::vector<Dim>& dims = st.dims();
    if (t.max_rank > 0 && static_cast<int>(dims.size()) > t.max_rank) {
      Diagnostic d;
      d.message =
          fmt::format("{} ({}) reads '{}' of rank {}, but {} supports tensors up to rank {}",
                      n.display_name(), target::op_label(n.domain(), n.op_type()), n.inputs()[i],
                      dims.size(), t.display_name, t.max_rank);
      d.target = std::string(t.id);
      d.key = fmt::format("max-rank:{}", i);
      add_fact_note(t, "max_rank", d);
      d.help = std::string(help_for(Check::RankAtMost));
      out.push_back({std::move(d), true});
    }
    if (t.max_dim > 0) {
      for (const Dim& dim : dims) {
        if (dim.is_static() && dim.value > t.max_dim) {
          Diagnostic d;
          d.message =
              fmt::format("{} ({}) reads '{}' with a dimension of {}, but {} supports at most {}",
                          n.display_name(), target::op_label(n.domain(), n.op_type()),
                          n.inputs()[i], dim.value, t.display_name, t.max_dim);
          d.target = std::string(t.id);
          d.key = fmt::format("max-dim:{}", i);
          add_fact_note(t, "max_dim", d);
          d.help =
              "split or reshape the tensor so that no dimension exceeds the limit, or keep "
              "the node off this target";
          out.push_back({std::move(d), true});
          break;
        }
      }
    }
  }
}

class RestrictionRule final : public RuleBase<RestrictionRule> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "target-restriction",
        .category = "target",
        .severity = Severity::Error,
        .summary =
            "Statically checkable restriction of a selected target runtime that a node "
            "violates",
        .node_ops = {"*"},
    };
    return k;
  }

  void on_model(const Model&, RuleContext& ctx) override {
    targets_ = target::selected_targets(ctx);
  }

  bool wants_op(const OpKind&, RuleContext&) const override { return !targets_.empty(); }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (targets_.empty()) return;
    for (const TargetInfo* tp : targets_) {
      const TargetInfo& t = *tp;
      const target::NodeCheck nc = target::check_node(ctx.model(), t, n, &ctx.get<FoldStates>());
      for (target::BrokenRestriction& b : target::broken_restrictions(t, n, nc, ctx)) {
        // Nodes of one op that break one restriction on one target are one finding (see
        // target::NodeFindings); the restriction is the finding's key. The severity follows
        // the target's consequence (node_failure_severity): the node runs elsewhere or the
        // conversion fails, and the verdict counts the node as unsupported. A restriction the
        // target survives (it ignores the argument) stays a warning.
        // A finding that restates another groups apart from one that does not (a uint8 and
        // an int8 zero point break one restriction for different causes).
        const std::string reason = b.diagnostic.key + '\x1f' + b.diagnostic.restates;
        findings_.add(t, n, reason, std::move(b.diagnostic), ctx.at_node(n),
                      b.fails_node ? std::nullopt : std::optional(Severity::Warning));
      }
    }
  }

  void on_model_end(const Model&, RuleContext& ctx) override {
    findings_.report(ctx, [](const Diagnostic& first, const std::string&, size_t count) {
      const TargetInfo* t = find_target(first.target);
      return fmt::format("{} {} nodes break the same {} restriction; the first: {}", count,
                         target::op_label(first.location.domain, first.location.op_type),
                         t != nullptr ? t->display_name : first.target, first.message);
    });
  }

 private:
  std::vector<const TargetInfo*> targets_;
  target::NodeFindings findings_;
};

}  // namespace

namespace target {

std::vector<BrokenRestriction> broken_restrictions(const TargetInfo& t, const Node& n,
                                                   const NodeCheck& nc, RuleContext& ctx) {
  std::vector<BrokenRestriction> out;
  if (!nc.runs_node() || !nc.op.supported() || nc.op.entry == nullptr) return out;
  const auto& index = by_op();
  auto it = index.find(n.op_type());
  if (it != index.end()) {
    const std::string_view domain = normalize_domain(n.domain());
    const OpSchema* schema = nullptr;
    bool schema_known = false;
    for (const Restriction* r : it->second) {
      if (!target::applies_to(*r, t) || r->domain != domain) continue;
      if (!schema_known) {
        schema = node_schema(ctx.model(), n);
        schema_known = true;
      }
      evaluate(*r, t, n, schema, nc, ctx, out);
    }
  }
  check_limits(t, n, ctx, out);
  return out;
}

}  // namespace target

void add_target_restriction(RuleRegistry& registry) { registry.add<RestrictionRule>(); }

}  // namespace onnxlint::rules
