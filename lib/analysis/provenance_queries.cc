// The public queries of the provenance analysis (include/onnxlint/provenance.h): classes,
// dims and elements as DimFacts, reason chains, usage counts, where the analysis was cut short.
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/provenance.h>

#include <algorithm>

#include "analysis/provenance_internal.h"
#include "util/checked_math.h"

namespace onnxlint {
// ---------------------------------------------------------------------------------------------
// Public API

Provenance::Provenance(const Model& model, AnalysisCache& cache)
    : impl_(std::make_unique<Impl>(model, cache)) {}

Provenance::~Provenance() = default;

ValueId Provenance::find(const Graph& g, std::string_view name) const {
  return impl_->table.find(g, name);
}

ValueId Provenance::input(const Node& n, size_t k) const {
  const GraphSlot* gs = impl_->table.slot(*n.graph());
  if (gs == nullptr) return kNoValue;
  const ValueDef* d = gs->info->input_def(n, k);
  return d == nullptr ? kNoValue : impl_->id_of(*d);
}

ValueId Provenance::output(const Node& n, size_t k) const { return impl_->table.output(n, k); }

const Graph* Provenance::graph_of(ValueId v) const {
  const GraphSlot* s = impl_->slot_of_value(v);
  return s != nullptr ? s->graph : nullptr;
}

std::string_view Provenance::name_of(ValueId v) const { return impl_->name(v); }

const Node* Provenance::producer(ValueId v) const { return impl_->producer_of(v); }

ShapeClass Provenance::shape_class(ValueId v) const {
  if (v >= impl_->shape.size()) return ShapeClass::Unknown;
  return static_cast<ShapeClass>(impl_->shape[v].level);
}

ValueClass Provenance::value_class(ValueId v) const {
  if (v >= impl_->value.size()) return ValueClass::Unknown;
  return static_cast<ValueClass>(impl_->value[v].level);
}

std::vector<std::string_view> Provenance::shape_dims(ValueId v) const {
  if (v >= impl_->shape.size()) return {};
  return impl_->set_names(impl_->shape[v].dims);
}

std::vector<std::string_view> Provenance::value_dims(ValueId v) const {
  if (v >= impl_->value.size()) return {};
  return impl_->set_names(impl_->value[v].dims);
}

const Node* Provenance::shape_origin(ValueId v) const {
  if (v >= impl_->shape.size()) return nullptr;
  const Fact& f = impl_->shape[v];
  if (f.level == kStatic || f.origin == kNoNode) return nullptr;
  return impl_->node_at(f.origin);
}

const Node* Provenance::value_origin(ValueId v) const {
  if (v >= impl_->value.size()) return nullptr;
  const Fact& f = impl_->value[v];
  if (f.level == kStatic || f.origin == kNoNode) return nullptr;
  return impl_->node_at(f.origin);
}

bool Provenance::from_shape(ValueId v) const {
  return v < impl_->value.size() && impl_->value[v].from_shape != 0;
}

namespace {
std::optional<std::vector<DimFact>> facts_of(const Provenance::Impl& a, ArenaRef r) {
  if (a.n_of(r) < 0) return std::nullopt;
  std::vector<DimFact> out;
  for (const Sym& s : a.view(r)) {
    DimFact d;
    if (s.kind == Sym::kFixed) {
      d.kind = DimFact::Kind::Fixed;
      d.value = s.v;
    } else if (s.kind == Sym::kSymbolic) {
      d.kind = DimFact::Kind::Symbolic;
      d.names = a.set_names(s.set);
      d.expr = a.render_sym(s);
      a.append_terms(s, d.terms);
    } else if (s.kind == Sym::kData) {
      d.kind = DimFact::Kind::Data;
      d.bound = s.v;
      d.origin = s.set == kNoNode ? nullptr : a.node_at(s.set);
      if (d.origin != nullptr) d.expr = d.origin->display_name();
    }
    if (s.kind == Sym::kData || s.kind == Sym::kUnknown) d.at_least = s.lo;
    out.push_back(std::move(d));
  }
  return out;
}
}  // namespace

std::optional<int64_t> evaluate_dim(
    const DimFact& dim, const std::function<std::optional<int64_t>(std::string_view)>& size_of) {
  if (dim.kind == DimFact::Kind::Fixed) return dim.value;
  if (dim.kind != DimFact::Kind::Symbolic || dim.terms.empty()) return std::nullopt;
  // Operands precede their users: one pass from the leaves computes every term.
  std::vector<std::optional<int64_t>> at(dim.terms.size());
  for (size_t i = 0; i < dim.terms.size(); ++i) {
    const DimTerm& t = dim.terms[i];
    auto operand = [&](uint32_t k) { return k < i ? at[k] : std::nullopt; };
    // The engine's operation of each DimTerm::Op (kF: not a binary operation).
    static constexpr SymOp kOps[] = {SymOp::kF,   SymOp::kF,   SymOp::kAdd,     SymOp::kSub,
                                     SymOp::kMul, SymOp::kDiv, SymOp::kCeilDiv, SymOp::kMod,
                                     SymOp::kMin, SymOp::kMax, SymOp::kF};
    if (t.op == DimTerm::Op::Input) {
      at[i] = size_of(t.name);
      continue;
    }
    if (t.op == DimTerm::Op::Constant) {
      at[i] = t.value;
      continue;
    }
    const auto index = static_cast<size_t>(t.op);
    const SymOp op = index < std::size(kOps) ? kOps[index] : SymOp::kF;
    if (op == SymOp::kF) continue;
    auto x = operand(t.lhs), y = operand(t.rhs);
    if (x && y) at[i] = fixed_arith(op, *x, *y);
  }
  return at.back();
}

std::optional<std::vector<DimFact>> Provenance::dims(ValueId v) const {
  if (v >= impl_->dims.size()) return std::nullopt;
  return facts_of(*impl_, impl_->dims[v]);
}

std::optional<std::vector<DimFact>> Provenance::elements(ValueId v) const {
  if (v >= impl_->svec.size()) return std::nullopt;
  return facts_of(*impl_, impl_->svec[v]);
}

std::optional<std::vector<int64_t>> Provenance::static_dims(ValueId v) const {
  if (v == kNoValue || v >= impl_->dims.size()) return std::nullopt;
  const StatedType stated = impl_->table.stated(v);
  const ArenaRef r = impl_->dims[v];
  std::vector<int64_t> out;
  if (impl_->n_of(r) < 0) {
    if (!stated.has_shape()) return std::nullopt;
    for (const Dim& d : stated.dims()) out.push_back(d.is_static() ? d.value : -1);
    return out;
  }
  const std::span<const Sym> dims = impl_->view(r);
  const bool declared = stated.has_shape() && stated.rank() == dims.size();
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t size = dims[i].is_fixed() ? dims[i].v : -1;
    if (dims[i].kind == Sym::kUnknown && declared) {
      const Dim d = stated.dim(i);
      if (d.is_static()) size = d.value;
    }
    out.push_back(size);
  }
  return out;
}

std::optional<std::vector<int64_t>> Provenance::proven_dims(ValueId v) const {
  if (v == kNoValue || v >= impl_->dims.size()) return std::nullopt;
  const ArenaRef r = impl_->dims[v];
  if (impl_->n_of(r) < 0) return std::nullopt;
  std::vector<int64_t> out;
  for (const Sym& s : impl_->view(r)) {
    if (!s.is_fixed() || s.v < 0) return std::nullopt;
    out.push_back(s.v);
  }
  return out;
}

std::optional<std::vector<int64_t>> Provenance::argument_ints(const Node& n, size_t k,
                                                              std::string_view attr,
                                                              int64_t since) const {
  if (opset(n) < since) {
    const Attribute* a = n.attribute(attr);
    if (a == nullptr) return std::nullopt;
    return std::vector<int64_t>(a->ints.begin(), a->ints.end());
  }
  if (k >= n.input_count() || n.input(k).empty()) return std::nullopt;
  const ValueId v = input(n, k);
  return v == kNoValue ? std::nullopt : known_ints(v);
}

std::optional<std::vector<int64_t>> Provenance::known_ints(ValueId v) const {
  if (v >= impl_->svec.size() || impl_->n_of(impl_->svec[v]) < 0) return std::nullopt;
  if (impl_->value[v].level != kStatic) return std::nullopt;
  std::vector<int64_t> out;
  for (const Sym& s : impl_->view(impl_->svec[v])) {
    if (!s.is_fixed()) return std::nullopt;
    out.push_back(s.v);
  }
  return out;
}

std::vector<ReasonStep> Provenance::reason(ValueId v, bool via_value, size_t max_steps) const {
  std::vector<ReasonStep> out = impl_->walk(v, via_value, max_steps);
  for (ReasonStep& s : out) {
    s.name = name_of(s.value);
    s.producer = producer(s.value);
  }
  return out;
}

std::vector<ReasonStep> Provenance::shape_reason(ValueId v, size_t max_steps) const {
  return reason(v, false, max_steps);
}

std::vector<ReasonStep> Provenance::value_reason(ValueId v, size_t max_steps) const {
  return reason(v, true, max_steps);
}

std::string Provenance::explain_shape(ValueId v) const {
  if (v >= impl_->shape.size()) return {};
  return impl_->render(v, false);
}

std::string Provenance::explain_value(ValueId v) const {
  if (v >= impl_->value.size()) return {};
  return impl_->render(v, true);
}

const OpSemantics& Provenance::semantics(const Node& n) const { return impl_->semantics_of(n); }

const Function* Provenance::called_function(const Node& n) const { return impl_->function_for(n); }

int64_t Provenance::opset(const Node& n) const { return impl_->opset_of(n); }

bool Provenance::is_shape_origin(const Node& n, ShapeClass c) const {
  const GraphSlot* gs = impl_->table.slot(*n.graph());
  if (gs == nullptr) return false;
  const GraphSlot& s = *gs;
  const uint32_t here = s.node_base + n.index();
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = impl_->out_id(s, n, k);
    if (id == kNoValue) continue;
    const Fact& f = impl_->shape[id];
    if (f.level == static_cast<uint8_t>(c) && f.origin == here) return true;
  }
  return false;
}

std::vector<Provenance::DimUsage> Provenance::dim_usage() const {
  const Impl& a = *impl_;
  if (a.names.empty()) return {};  // no symbolic dim anywhere: nothing to count
  std::vector<size_t> counts(a.names.size(), 0);
  std::vector<uint32_t> seen;
  for (const GraphSlot& s : a.slots) {
    for (const Node& n : s.graph->nodes()) {
      seen.clear();
      for (size_t k = 0; k < n.outputs().size(); ++k) {
        uint32_t id = a.out_id(s, n, k);
        if (id == kNoValue || a.shape[id].level != kDims) continue;
        for (uint32_t d : a.sets[a.shape[id].dims]) {
          if (d != kMoreNames) seen.push_back(d);  // the marker is not a name
        }
      }
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      for (uint32_t d : seen) ++counts[d];
    }
  }
  std::vector<DimUsage> out;
  for (size_t i = 0; i < a.names.size(); ++i) out.push_back({a.names[i], counts[i]});
  std::sort(out.begin(), out.end(),
            [](const DimUsage& x, const DimUsage& y) { return x.name < y.name; });
  return out;
}

// Both counted in one walk over the node-output values, on the first question (a few rules
// ask, each once): outputs are numbered in node order, so the origins come out in walk order,
// and only the rare data-dependent values cost more than a byte compare.
void Provenance::Impl::summarize_data() const {
  if (data_summarized) return;
  data_summarized = true;
  for (const GraphSlot& s : slots) {
    const Node* last = nullptr;
    for (uint32_t v = s.outs_base; v < s.end; ++v) {
      if (shape[v].level != kData) continue;
      const Node* n = table.producer(v);
      if (n == nullptr) continue;
      if (n != last) {
        ++data_nodes;
        last = n;
      }
      const bool origin = shape[v].origin == s.node_base + n->index();
      if (origin && (data_origins.empty() || data_origins.back() != n)) data_origins.push_back(n);
    }
  }
}

size_t Provenance::data_dependent_nodes() const {
  impl_->summarize_data();
  return impl_->data_nodes;
}

const std::vector<const Node*>& Provenance::data_dependent_origins() const {
  impl_->summarize_data();
  return impl_->data_origins;
}

size_t Provenance::node_count() const { return impl_->node_total; }

std::optional<Provenance::CutShort> Provenance::cut_short() const {
  if (impl_->cut_count == 0) return std::nullopt;
  return CutShort{impl_->node_at(impl_->cut_node), impl_->cut_count, impl_->work, impl_->budget};
}

}  // namespace onnxlint
