// target-dynamic-shape: a graph input with a dynamic shape, on a selected target that requires
// (or strongly prefers) static shapes.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <onnxlint/escape.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "rules/categories.h"
#include "rules/shape/detection.h"
#include "rules/shape/provenance_text.h"
#include "rules/target/target_common.h"

namespace onnxlint::rules {
namespace {

std::string_view fact_source(const TargetInfo& t, std::string_view fact) {
  for (const FactSource& f : t.extra_fact_sources) {
    if (f.fact == fact) return f.source;
  }
  return {};
}

// "N, 3, H, W" with '?' for unknown dims and names an exporter made up.
std::string dims_text(std::span<const Dim> dims) {
  std::string s;
  for (const Dim& d : dims) {
    if (!s.empty()) s += ", ";
    s += prov::shape_dim_text(d);
  }
  return s;
}

// The nodes (any graph, in model order) with an output whose shape depends on some dims:
// a count and the first few, for the note.
struct Readers {
  static constexpr size_t kShown = 5;
  std::vector<const Node*> shown;
  size_t count = 0;
  bool count_is_lower_bound = false;  // the work budget ran out before the count was exact
};

// Which nodes each input dim reaches, indexed in one pass over the model: per dim name the
// ordinals of the nodes reached, ascending. Asking for an input's dims merges their lists, so
// one input costs what its lists hold, not a walk of every node (a model with 10^4 dynamic
// inputs was inputs x nodes). The merges share one budget proportional to the index; past it
// a count is a lower bound.
class ReadersIndex {
 public:
  ReadersIndex(const Model& model, const Provenance& prov) {
    // Keyed first by where the name is stored: shape_dims views the analysis' interned names,
    // so a name met at every node is hashed once, not once per node (a 64 KB dim name on 3 200
    // outputs was 200 MB of hashing).
    std::unordered_map<const char*, uint32_t> slot_of;
    std::vector<std::pair<std::string_view, std::vector<uint32_t>>> slots;
    for (const Graph* g : model.all_graphs()) {
      for (const Node& n : g->nodes()) {
        const auto ordinal = static_cast<uint32_t>(nodes_.size());
        nodes_.push_back(&n);
        for (size_t k = 0; k < n.outputs().size(); ++k) {
          const ValueId v = prov.output(n, k);
          if (v == kNoValue || prov.shape_class(v) != ShapeClass::InputDim) continue;
          for (std::string_view name : prov.shape_dims(v)) {
            auto [it, fresh] = slot_of.try_emplace(name.data(), slots.size());
            if (fresh) slots.emplace_back(name, std::vector<uint32_t>{});
            std::vector<uint32_t>& list = slots[it->second].second;
            // Outputs of one node may name a dim twice; keep each node once.
            if (list.empty() || list.back() != ordinal) list.push_back(ordinal);
            ++entries_;
          }
        }
      }
    }
    // One address, one name (Provenance::shape_dims): the slots are the names.
    for (auto& [name, list] : slots) by_dim_.emplace(std::string(name), std::move(list));
    budget_ = 8 * entries_ + 100'000;
  }

  Readers of(const std::vector<std::string>& dims) {
    std::vector<const std::vector<uint32_t>*> lists;
    for (const std::string& d : dims) {
      auto it = by_dim_.find(d);
      if (it != by_dim_.end()) lists.push_back(&it->second);
    }
    Readers r;
    if (lists.size() == 1) return take(*lists.front(), r);
    size_t total = 0;
    for (const auto* l : lists) total += l->size();
    if (total > budget_) {
      // Too much merging left: the longest list alone is a lower bound of the count.
      const auto* longest = *std::max_element(
          lists.begin(), lists.end(), [](auto* a, auto* b) { return a->size() < b->size(); });
      take(*longest, r);
      r.count_is_lower_bound = lists.size() > 1;
      return r;
    }
    budget_ -= total;
    merged_.clear();
    for (const auto* l : lists) merged_.insert(merged_.end(), l->begin(), l->end());
    std::sort(merged_.begin(), merged_.end());
    merged_.erase(std::unique(merged_.begin(), merged_.end()), merged_.end());
    return take(merged_, r);
  }

 private:
  Readers& take(const std::vector<uint32_t>& ordinals, Readers& r) const {
    r.count = ordinals.size();
    for (size_t i = 0; i < ordinals.size() && i < Readers::kShown; ++i)
      r.shown.push_back(nodes_[ordinals[i]]);
    return r;
  }

  std::vector<const Node*> nodes_;
  std::unordered_map<std::string, std::vector<uint32_t>> by_dim_;
  std::vector<uint32_t> merged_;
  size_t entries_ = 0;
  size_t budget_ = 0;
};

class DynamicShape final : public RuleBase<DynamicShape> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "target-dynamic-shape",
        .category = "target",
        .severity = Severity::Warning,
        .summary = "Dynamic input shape on a selected target that requires static shapes",
    };
    return k;
  }

  // The model's inputs decide its shapes: a runtime that compiles the graph ahead of time
  // (NNAPI, QNN) needs every one of them fixed.
  void on_model(const Model& model, RuleContext& ctx) override {
    std::vector<const TargetInfo*> targets;
    for (const TargetInfo* t : target::selected_targets(ctx)) {
      if (t->requires_static_shapes || t->prefers_static_shapes) targets.push_back(t);
    }
    if (targets.empty()) return;
    const Graph& g = model.graph();
    const GraphInfo& info = ctx.get<GraphIndex>().info(g);
    const Provenance& prov = ctx.get<Provenance>();
    std::optional<ReadersIndex> readers_index;  // built on the first dynamic input
    for (const ValueInfo& in : g.inputs()) {
      // An input with an initializer is an overridable weight with the initializer's shape.
      const ValueDef* def = info.local(in.name_id);
      if (def != nullptr && def->kind() == ValueDef::Kind::Input && def->tensor() != nullptr)
        continue;
      const TypeInfo& type = in.type;
      if (type.kind != TypeInfo::Kind::Tensor && type.kind != TypeInfo::Kind::None) continue;
      if (type.is_static_shape()) continue;
      std::string what;
      if (!type.has_shape) {
        what = "has no shape";
      } else {
        std::vector<std::string> dynamic;
        for (const Dim& d : type.dims) {
          if (prov::named_dim(d)) {
            dynamic.push_back(fmt::format("'{}'", capped(d.param)));
          } else if (!d.is_static()) {
            dynamic.push_back("an unnamed dim");
          }
        }
        what = fmt::format("has dynamic shape [{}] ({})", dims_text(type.dims),
                           fmt::join(dynamic, ", "));
      }
      // The nodes whose shapes the input's dynamic dims reach (provenance names an unnamed dim
      // "<input>.shape[i]", and a shapeless input "<input>.shape").
      std::vector<std::string> dim_names;
      if (type.has_shape) {
        for (size_t i = 0; i < type.dims.size(); ++i) {
          const Dim& d = type.dims[i];
          if (d.is_static()) continue;
          dim_names.push_back(d.kind == Dim::Kind::Param && !d.param.empty()
                                  ? std::string(d.param)
                                  : fmt::format("{}.shape[{}]", in.name, i));
        }
      } else {
        dim_names.push_back(fmt::format("{}.shape", in.name));
      }
      if (!readers_index) readers_index.emplace(model, prov);
      Readers readers = readers_index->of(dim_names);
      if (readers.count == 0) {
        for (const ValueUse& u : info.uses_of(in.name_id)) {
          if (u.node == nullptr) continue;
          if (readers.shown.size() < Readers::kShown) readers.shown.push_back(u.node);
          ++readers.count;
        }
      }
      for (const TargetInfo* t : targets) {
        const bool required = t->requires_static_shapes;
        Diagnostic& d = ctx.report(
            required ? Severity::Warning : Severity::Info, ctx.at_value(g, in.name),
            required ? fmt::format("graph input '{}' {}, but {} requires static shapes", in.name,
                                   what, t->display_name)
                     : fmt::format("graph input '{}' {}; {} runs dynamic shapes more slowly",
                                   in.name, what, t->display_name));
        d.target = std::string(t->id);
        // The input is one cause for every target that wants static shapes: one finding.
        d.restates = std::string(static_info().id);
        if (readers.count != 0) {
          std::string list;
          for (size_t i = 0; i < readers.shown.size(); ++i) {
            list += (i == 0 ? "" : ", ") + readers.shown[i]->display_name();
          }
          if (readers.count > readers.shown.size()) {
            list += fmt::format(" and {}{} more", readers.count_is_lower_bound ? "at least " : "",
                                readers.count - readers.shown.size());
          }
          d.notes.push_back(fmt::format(
              "{}{} node{} get{} {} shape from it: {}{}",
              readers.count_is_lower_bound ? "at least " : "", readers.count,
              readers.count == 1 ? "" : "s", readers.count == 1 ? "s" : "",
              readers.count == 1 ? "its" : "their", list,
              required ? "; nodes with dynamic shapes are not offloaded to the target" : ""));
        }
        if (auto src =
                fact_source(*t, required ? "requires_static_shapes" : "prefers_static_shapes");
            !src.empty()) {
          d.notes.push_back(fmt::format("source: {}", src));
        }
        d.help = fmt::format(
            "fix the shape: export without dynamic_axes for '{}', or pin the dims with python -m "
            "onnxruntime.tools.make_dynamic_shape_fixed --dim_param NAME --dim_value N",
            in.name);
      }
    }

    // Shapes set by tensor values stay dynamic even with every input fixed. One finding per
    // target: the cause is the target's need for static shapes, and the nodes where such
    // shapes arise are its places (the first is the location, the others related locations).
    const std::vector<const Node*>& origins = prov.data_dependent_origins();
    if (origins.empty()) return;
    std::map<std::string, size_t> ops;  // "NonZero" -> count, for the message
    for (const Node* n : origins) ++ops[std::string(n->op_type())];
    std::string op_list;
    for (const auto& [op, count] : ops) {
      op_list += fmt::format("{}{}{}", op_list.empty() ? "" : ", ", op,
                             count > 1 ? fmt::format(" x{}", count) : "");
    }
    const Node& first = *origins.front();
    std::string first_shape;
    for (size_t k = 0; k < first.outputs().size(); ++k) {
      const ValueId v = prov.output(first, k);
      if (v != kNoValue && prov.shape_class(v) == ShapeClass::DataDependent) {
        first_shape = "shape: " + prov.explain_shape(v);
        break;
      }
    }
    // The data-dependent shapes of a detector's own post-processing: its fix is where that
    // runs (shape-data-dependent gives the same help at each origin).
    const prov::DetectionPart detection =
        prov::detection_part(first, prov, ctx.get<prov::NmsFeeders>());
    for (const TargetInfo* t : targets) {
      const bool required = t->requires_static_shapes;
      const std::string what =
          origins.size() == 1
              ? fmt::format("{} ({}) gives its output a shape that depends on tensor values",
                            first.display_name(), first.op_type())
              : fmt::format("{} nodes ({}) give their outputs shapes that depend on tensor values",
                            origins.size(), op_list);
      Diagnostic& d = ctx.report(
          required ? Severity::Warning : Severity::Info, ctx.at_node(first),
          required ? fmt::format("{}, but {} requires static shapes", what, t->display_name)
                   : fmt::format("{}; {} runs dynamic shapes more slowly", what, t->display_name));
      d.target = std::string(t->id);
      d.key = "data-dependent";
      d.restates = std::string(static_info().id);
      if (!first_shape.empty()) d.notes.push_back(first_shape);
      for (size_t i = 1; i < origins.size(); ++i)
        d.related.push_back({ctx.at_node(*origins[i]), ""});
      d.count = static_cast<uint32_t>(origins.size());
      d.help = prov::detection_help(
          detection,
          "avoid value-dependent shapes on this target (e.g. masks with torch.where instead of "
          "boolean indexing or nonzero(), fixed-size top-k instead of filtering), or run this "
          "part elsewhere");
    }
  }
};

}  // namespace

void add_target_dynamic_shape(RuleRegistry& registry) { registry.add<DynamicShape>(); }

}  // namespace onnxlint::rules
