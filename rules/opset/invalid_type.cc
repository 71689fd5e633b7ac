// opset-invalid-type: a tensor whose element type is known (inferred as ONNX does: graph
// inputs, initializers, Constant, Cast `to`, the schemas' type constraints; a declaration only
// where inference knows nothing) but that the op version's type constraints do not allow, or two
// arguments of one type parameter with different known types. Unknown types are never guessed.
#include <fmt/format.h>
#include <onnxlint/data_type.h>
#include <onnxlint/element_types.h>

#include <map>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

const ParamSchema* param_for(std::span<const ParamSchema> params, size_t i) {
  if (params.empty()) return nullptr;
  if (i < params.size()) return &params[i];
  if (params.back().option == ParamOption::Variadic) return &params.back();
  return nullptr;
}

std::string allowed_text(const TypeConstraint& c) {
  std::string out;
  size_t shown = 0;
  for (std::string_view t : c.allowed) {
    if (!t.starts_with("tensor(")) continue;
    if (shown == 12) {
      out += ", ...";
      break;
    }
    out += shown == 0 ? "" : ", ";
    out += t.substr(7, t.size() - 8);
    ++shown;
  }
  return out;
}

bool has_tensor_types(const TypeConstraint& c) {
  for (std::string_view t : c.allowed) {
    if (t.starts_with("tensor(")) return true;
  }
  return false;
}

class InvalidType final : public RuleBase<InvalidType> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-invalid-type",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Tensor element type that the op version's type constraints do not allow",
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const auto& ops = ctx.get<OpResolutionIndex>();
    const ElementTypes* types = nullptr;
    for (const Node& n : g.nodes()) {
      const OpResolution& r = ops.of(n);
      if (r.status != OpStatus::Standard) continue;
      if (types == nullptr) types = &ctx.get<ElementTypes>();
      check(n, *r.schema, *types, ctx);
    }
  }

 private:
  struct Binding {
    int32_t type;
    std::string_view value;
  };

  static void check(const Node& n, const OpSchema& s, const ElementTypes& types, RuleContext& ctx) {
    std::vector<std::string> problems;
    std::map<std::string_view, Binding> bound;
    auto visit = [&](const ValueNames& args, bool inputs, std::span<const ParamSchema> ps,
                     const char* what) {
      for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].empty()) continue;
        const ParamSchema* p = param_for(ps, i);
        if (p == nullptr) return;  // arity is opset-invalid-arity's business
        const int32_t elem = inputs ? types.input_elem(n, i) : types.output_elem(n, i);
        if (elem == 0) continue;
        const std::optional<int32_t> t = elem;
        const char* ts = tensor_type_string(*t);
        if (*ts == '\0') continue;
        const TypeConstraint* c = s.find_constraint(p->type);
        if (c == nullptr) {
          // A concrete type ("tensor(int64)"); other kinds (seq, map) are not tracked.
          if (p->type.starts_with("tensor(") && p->type != ts) {
            problems.push_back(fmt::format("{} '{}' is {}, but {} '{}' of {}-{} must be {}", what,
                                           args[i], data_type_name(*t), what, p->name, n.op_type(),
                                           s.since_version, p->type.substr(7, p->type.size() - 8)));
          }
          continue;
        }
        if (!has_tensor_types(*c)) continue;
        // An output whose type the inputs bound repeats what the inputs' check says.
        if (auto b = bound.find(p->type); !inputs && b != bound.end() && b->second.type == *t)
          continue;
        if (!c->allows(ts)) {
          problems.push_back(
              fmt::format("{} '{}' is {}, which {}-{} does not allow for {} "
                          "(allowed: {})",
                          what, args[i], data_type_name(*t), n.op_type(), s.since_version, p->type,
                          allowed_text(*c)));
          continue;
        }
        // Heterogeneous variadics (Loop, Scan, ...) bind the parameter per argument.
        if (p->option == ParamOption::Variadic && !p->homogeneous) continue;
        auto [it, inserted] = bound.try_emplace(p->type, Binding{*t, args[i]});
        if (!inserted && it->second.type != *t) {
          problems.push_back(fmt::format("{} '{}' is {} but '{}' is {}; both bind {} of {}-{}",
                                         what, args[i], data_type_name(*t), it->second.value,
                                         data_type_name(it->second.type), p->type, n.op_type(),
                                         s.since_version));
        }
      }
    };
    visit(n.inputs(), true, s.inputs, "input");
    visit(n.outputs(), false, s.outputs, "output");
    if (problems.empty()) return;
    Diagnostic& d = ctx.report(ctx.at_node(n), node_label(n) + ": " + problems.front());
    for (size_t k = 1; k < problems.size(); ++k) d.notes.push_back(problems[k]);
    d.help = fmt::format(
        "insert a Cast to a type {}-{} accepts (in PyTorch: .to(torch.float32) before the op), "
        "or export with an opset_version whose {} accepts this type",
        n.op_type(), s.since_version, n.op_type());
  }
};

}  // namespace

void add_opset_invalid_type(RuleRegistry& registry) { registry.add<InvalidType>(); }

}  // namespace onnxlint::rules
