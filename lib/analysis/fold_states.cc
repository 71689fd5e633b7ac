// Fold states (include/onnxlint/fold_states.h): one pass over every graph, outer graphs first.
#include <onnxlint/fold_states.h>
#include <onnxlint/provenance.h>

#include "analysis/ops/registry.h"
#include "util/name_map.h"

namespace onnxlint {

// ---------------------------------------------------------------------------------------------
// Fold states

FoldStates::FoldStates(const Model& model, AnalysisCache& cache)
    : values_(cache.get<ValueTable>()) {
  const ValueTable& values = values_;
  const Provenance& prov = cache.get<Provenance>();
  std::vector<uint8_t>& fold_ = states_;
  fold_.assign(values.size(), static_cast<uint8_t>(FoldState::Runtime));
  auto state = [&](ValueId v) {
    return v == kNoValue ? FoldState::Runtime : static_cast<FoldState>(fold_[v]);
  };
  auto set = [&](ValueId v, FoldState st) {
    if (v != kNoValue) fold_[v] = static_cast<uint8_t>(st);
  };
  // Ops whose output differs between runs even with constant inputs (the op registry's
  // random ops), asked once per op type.
  NameMap<bool> random_ops;
  auto is_random = [&](std::string_view op) {
    if (const bool* known = random_ops.find(op)) return *known;
    const bool r = ops::is_random_op(op);
    random_ops.try_emplace(op, r);
    return r;
  };
  // Slots list a graph before its subgraphs, so outer values are decided first.
  for (const GraphSlot& s : values.slots()) {
    const Graph& g = *s.graph;
    // Formal inputs of a function body: whatever the caller passes. Other inputs: runtime.
    if (g.kind() == Graph::Kind::Function) {
      for (uint32_t k = 0; k < g.inputs().size(); ++k) set(s.base + k, FoldState::Unknown);
    }
    const uint32_t init_base = s.base + static_cast<uint32_t>(g.inputs().size());
    for (uint32_t k = 0; k < g.initializers().size(); ++k) {
      const ValueDef* d = s.info->local(g.initializers()[k].name_id);
      const bool overridden = d != nullptr && d->kind() == ValueDef::Kind::Input;
      set(init_base + k, overridden ? FoldState::Runtime : FoldState::Constant);
    }
    auto visit = [&](const Node& n) {
      FoldState st = FoldState::Runtime;
      if (n.in_default_domain() && model.find_function(n.domain(), n.op_type()) == nullptr) {
        if (n.op_type() == "Constant") {
          st = FoldState::Constant;
        } else if ((n.op_type() == "Shape" || n.op_type() == "Size") && !n.inputs().empty()) {
          // Static shapes fold even when the values do not.
          const ValueId in = values.input(s, n, 0);
          if (in != kNoValue &&
              (prov.shape_class(in) == ShapeClass::Static || values.stated(in).is_static_shape())) {
            st = FoldState::Constant;
          } else {
            st = n.inputs()[0].empty() ? FoldState::Constant : state(in);
          }
        } else if (!is_random(n.op_type()) && n.subgraphs().empty() && !n.inputs().empty()) {
          st = FoldState::Constant;
          for (size_t k = 0; k < n.inputs().size(); ++k) {
            if (n.inputs()[k].empty()) continue;  // an omitted optional input
            const FoldState in = state(values.input(s, n, k));
            if (in == FoldState::Runtime) {
              st = FoldState::Runtime;
              break;
            }
            if (in == FoldState::Unknown) st = FoldState::Unknown;
          }
        }
      }
      for (size_t k = 0; k < n.outputs().size(); ++k) set(values.output(s, n, k), st);
    };
    if (s.info->topo_order) {
      for (uint32_t i : *s.info->topo_order) visit(g.nodes()[i]);
    } else {
      for (const Node& n : g.nodes()) visit(n);
    }
  }
}

}  // namespace onnxlint
