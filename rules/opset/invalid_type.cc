// opset-invalid-type: a tensor whose element type is known (inferred as ONNX does: graph
// inputs, initializers, Constant, Cast `to`, the schemas' type constraints; a declaration only
// where inference knows nothing) but that the op version's type constraints do not allow, or two
// arguments of one type parameter with different known types. Unknown types are never guessed.
#include <fmt/format.h>
#include <onnxlint/data_type.h>
#include <onnxlint/element_types.h>

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

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

class InvalidType final : public RuleBase<InvalidType> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "opset-invalid-type",
        .category = "opset",
        .severity = Severity::Error,
        .summary = "Tensor element type that the op version's type constraints do not allow",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    const auto& ops = ctx.get<OpResolutionIndex>();
    const ElementTypes* types = nullptr;
    const GraphSlot* slot = nullptr;  // the graph's value ids, looked up once per graph
    for (const Node& n : g.nodes()) {
      const OpResolution& r = ops.of(n);
      if (r.status != OpStatus::Standard) continue;
      if (types == nullptr) {
        types = &ctx.get<ElementTypes>();
        slot = types->values().slot(g);
        if (slot == nullptr) return;
      }
      check(n, *r.schema, *types, *slot, ctx);
    }
  }

 private:
  // Trivially constructible (no std::string_view member), so that check()'s array of them
  // costs nothing until used.
  struct Binding {
    int32_t type;
    const char* value_data;
    size_t value_size;
    std::string_view value() const { return {value_data, value_size}; }
  };

  // What a formal parameter accepts, decided once per schema: the tensor element types as a
  // bit set (bit e: DataType e), for a type parameter or a concrete "tensor(...)" type.
  struct ParamFacts {
    const TypeConstraint* constraint = nullptr;
    uint64_t allowed = 0;
    bool checked = false;  // a concrete tensor type, or a constraint with tensor types
  };
  struct SchemaFacts {
    std::vector<ParamFacts> inputs, outputs;
  };

  static ParamFacts facts_of(const OpSchema& s, const ParamSchema& p) {
    ParamFacts f;
    auto add = [&](std::string_view type) {
      if (!type.starts_with("tensor(")) return;
      f.checked = true;
      if (auto e = element_type_from_name(type); e && *e > 0 && *e < 64) f.allowed |= 1ull << *e;
    };
    f.constraint = s.find_constraint(p.type);
    if (f.constraint == nullptr) {
      add(p.type);
    } else {
      for (std::string_view t : f.constraint->allowed) add(t);
    }
    return f;
  }

  // Indexed by the schema's position in all_schemas(): no hashing per node.
  const SchemaFacts& facts(const OpSchema& s) {
    const std::span<const OpSchema> all = all_schemas();
    if (slot_of_.empty()) slot_of_.assign(all.size() + 1, -1);
    // Schemas come from the embedded table; anything else shares the last slot's cache miss.
    const bool in_table = !all.empty() && &s >= all.data() && &s < all.data() + all.size();
    const size_t i = in_table ? static_cast<size_t>(&s - all.data()) : all.size();
    if (!in_table) slot_of_[i] = -1;
    int32_t& slot = slot_of_[i];
    if (slot < 0) {
      slot = static_cast<int32_t>(schema_facts_.size());
      SchemaFacts& f = schema_facts_.emplace_back();
      for (const ParamSchema& p : s.inputs) f.inputs.push_back(facts_of(s, p));
      for (const ParamSchema& p : s.outputs) f.outputs.push_back(facts_of(s, p));
    }
    return schema_facts_[static_cast<size_t>(slot)];
  }

  std::vector<int32_t> slot_of_;  // per schema of all_schemas(): index into schema_facts_
  std::deque<SchemaFacts> schema_facts_;

  // Whether the node's argument types have already passed this schema's check: the verdict
  // depends only on the schema and the element type at each argument position (a name appears
  // in messages only), so a model's nodes of one op and types are checked once. A
  // direct-mapped cache of verdicts that found nothing (a collision only costs a recheck).
  struct CleanKey {
    const OpSchema* schema = nullptr;
    uint64_t types = 0;
  };
  static constexpr size_t kMaxKeyedArgs = 8;  // 6 bits per argument, 8 for the two counts
  std::array<CleanKey, 256> clean_{};

  // The cache key of a node: its argument count and types; nullopt when it has too many.
  static std::optional<uint64_t> type_key(const Node& n, const ElementTypes& types,
                                          const ValueTable& values, const GraphSlot& slot) {
    const size_t in = n.input_count(), out = n.output_count();
    if (in + out > kMaxKeyedArgs) return std::nullopt;
    uint64_t key = (in << 4) | out;
    auto add = [&key](int32_t e) {
      if (e < 0 || e >= 64) e = 0;  // not a checked type: skipped like an unknown one
      key = (key << 6) | static_cast<uint64_t>(e);
    };
    for (size_t i = 0; i < in; ++i) {
      add(n.input_ids()[i] == kNoNameId ? 0 : types.elem_type(values.input(slot, n, i)));
    }
    for (size_t i = 0; i < out; ++i) {
      add(n.output_ids()[i] == kNoNameId ? 0 : types.elem_type(values.output(slot, n, i)));
    }
    return key;
  }

  CleanKey* clean_slot(const OpSchema& s, uint64_t key) {
    uint64_t h = (key ^ reinterpret_cast<uintptr_t>(&s)) * 0x9E3779B97F4A7C15ull;
    return &clean_[(h >> 56) % clean_.size()];
  }

  void check(const Node& n, const OpSchema& s, const ElementTypes& types, const GraphSlot& slot,
             RuleContext& ctx) {
    const ValueTable& values = types.values();
    const std::optional<uint64_t> key = type_key(n, types, values, slot);
    CleanKey* cached = key ? clean_slot(s, *key) : nullptr;
    if (cached != nullptr && cached->schema == &s && cached->types == *key) return;
    const SchemaFacts& sf = facts(s);
    std::vector<std::string> problems;
    // Type parameter -> the first argument bound to it. A schema has a handful of parameters:
    // a small array, no allocation per node, and left uninitialised (only the first
    // bound_count entries are read): zeroing 16 entries cost more than the whole check.
    struct Bound {
      const ParamSchema* param;
      Binding binding;
    };
    Bound bound[16];  // NOLINT(cppcoreguidelines-pro-type-member-init)
    size_t bound_count = 0;
    auto find_bound = [&](const ParamSchema& p) -> const Binding* {
      for (size_t k = 0; k < bound_count; ++k) {
        if (bound[k].param->type == p.type) return &bound[k].binding;
      }
      return nullptr;
    };
    auto visit = [&](const ValueNames& args, bool inputs, std::span<const ParamSchema> ps,
                     const char* what) {
      const std::span<const NameId> ids = args.ids();  // no name lookups until one is shown
      for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] == kNoNameId) continue;  // an omitted optional argument
        const ParamSchema* p = param_for(ps, i);
        if (p == nullptr) return;  // arity is opset-invalid-arity's business
        const int32_t elem =
            types.elem_type(inputs ? values.input(slot, n, i) : values.output(slot, n, i));
        if (elem == 0) continue;
        // An output whose type the inputs bound repeats what the inputs' check says.
        if (!inputs) {
          const Binding* b = find_bound(*p);
          if (b != nullptr && b->type == elem) continue;
        }
        const std::optional<int32_t> t = elem;
        if (elem < 0 || elem >= 64 || *tensor_type_string(elem) == '\0') continue;
        const std::vector<ParamFacts>& pf = inputs ? sf.inputs : sf.outputs;
        const ParamFacts& f = pf[static_cast<size_t>(p - ps.data())];
        if (!f.checked) continue;  // other kinds (seq, map) are not tracked
        if ((f.allowed >> elem) & 1u) {
          // allowed
        } else if (f.constraint == nullptr) {
          // A concrete type ("tensor(int64)").
          problems.push_back(fmt::format("{} '{}' is {}, but {} '{}' of {}-{} must be {}", what,
                                         args[i], data_type_name(*t), what, p->name, n.op_type(),
                                         s.since_version, p->type.substr(7, p->type.size() - 8)));
          continue;
        } else {
          problems.push_back(
              fmt::format("{} '{}' is {}, which {}-{} does not allow for {} "
                          "(allowed: {})",
                          what, args[i], data_type_name(*t), n.op_type(), s.since_version, p->type,
                          allowed_text(*f.constraint)));
          continue;
        }
        if (f.constraint == nullptr) continue;
        // Heterogeneous variadics (Loop, Scan, ...) bind the parameter per argument.
        if (p->option == ParamOption::Variadic && !p->homogeneous) continue;
        const Binding* first = find_bound(*p);
        if (first == nullptr) {
          if (bound_count < std::size(bound))
            bound[bound_count++] = {p, Binding{*t, args[i].data(), args[i].size()}};
        } else if (first->type != *t) {
          problems.push_back(fmt::format("{} '{}' is {} but '{}' is {}; both bind {} of {}-{}",
                                         what, args[i], data_type_name(*t), first->value(),
                                         data_type_name(first->type), p->type, n.op_type(),
                                         s.since_version));
        }
      }
    };
    visit(n.inputs(), true, s.inputs, "input");
    visit(n.outputs(), false, s.outputs, "output");
    if (problems.empty()) {
      if (cached != nullptr) *cached = CleanKey{&s, *key};
      return;
    }
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
