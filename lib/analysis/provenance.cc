// The provenance pass: construction, the forward dataflow over every graph, control flow and
// model-local functions. Beside it: the lattice and dim algebra (dim_algebra.cc), the
// per-op transfers (provenance_dims.cc), reason chains (provenance_reasons.cc) and the public
// queries (provenance_queries.cc).
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/provenance.h>

#include <algorithm>

#include "analysis/provenance_internal.h"
#include "util/checked_math.h"

namespace onnxlint {

namespace {

const Graph* graph_attr(const Node& n, std::string_view name) {
  const Attribute* a = n.attribute(name);
  return a != nullptr ? a->g : nullptr;
}

bool has_subgraphs(const Node& n) {
  for (const Attribute& a : n.attributes()) {
    if (a.g != nullptr || !a.graphs.empty()) return true;
  }
  return false;
}

// Accumulates the join of candidate facts: the highest level wins; at equal levels the first
// candidate keeps the back-pointer, so shape links (added first) win over value links and the
// origin stays upstream. Input-dim names are unioned.
struct Acc {
  Provenance::Impl& a;
  Fact f{};
  bool any = false;

  explicit Acc(Provenance::Impl& impl) : a(impl) { f.level = kStatic; }
  // `here` != kNoNode: the class arises at this node (a value setting a shape, a Shape op...).
  void take(const Fact& src, uint32_t src_id, bool via_value, uint32_t here = kNoNode) {
    if (!any || src.level > f.level) {
      f.level = src.level;
      f.pred = src_id;
      f.via_value = via_value ? 1 : 0;
      f.origin = here != kNoNode ? here : src.origin;
      any = true;
    }
    if ((src.level == kDims || src.level == kUnknownLevel) && src.dims != 0) {
      f.dims = a.join_sets(f.dims, src.dims);
    }
    f.from_shape |= src.from_shape;
  }
  void raise(uint8_t level, uint32_t here) {
    if (!any || level > f.level) {
      f.level = level;
      f.pred = kNoValue;
      f.via_value = 0;
      f.origin = here;
      any = true;
    }
  }
  Fact done() {
    if (f.level == kStatic || f.level == kData) f.dims = 0;
    return f;
  }
};

Fact link(const Fact& src, uint32_t src_id, bool via_value) {
  Fact f = src;
  f.pred = src_id;
  f.via_value = via_value ? 1 : 0;
  return f;
}

Fact static_fact() {
  Fact f;
  f.level = kStatic;
  return f;
}

bool same_class(const Fact& a, const Fact& b) { return a.level == b.level && a.dims == b.dims; }

// Sets a class from the per-dimension view when every dim (or element) is known: static when
// all are fixed, input-dim-dependent with the exact names when some are symbolic, data-dependent
// when some are set by data. This is what keeps one dynamic dim from tainting its neighbours:
// `Shape(t)[1]` of `t[K, 1]` is constant even though K comes from NonZero. A vector with an
// unknown entry leaves the class as the op-level rules made it.
void refine(Provenance::Impl& a, Fact& f, ArenaRef r) {
  if (a.n_of(r) < 0) return;
  uint32_t set = 0;
  uint8_t level = kStatic;
  uint32_t data_origin = kNoNode;
  for (const Sym& s : a.view(r)) {
    if (s.kind == Sym::kUnknown) return;
    if (s.kind == Sym::kSymbolic) {
      set = a.join_sets(set, s.set);
      level = std::max<uint8_t>(level, kDims);
    } else if (s.kind == Sym::kData) {
      level = kData;
      if (data_origin == kNoNode) data_origin = s.set;
    }
  }
  if (level == kData) {
    if (f.level != kData) {
      // Raised by a dim the op-level rules did not see: its origin is where the data arose.
      f.pred = kNoValue;
      f.via_value = 0;
      f.origin = data_origin;
    }
    f.level = kData;
    f.dims = 0;
    return;
  }
  f.dims = set;
  f.level = level;
}

constexpr size_t kMaxFunctionInstances = 16;
constexpr int kMaxLoopPasses = 3;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Construction and ids

Provenance::Impl::Impl(const Model& m, AnalysisCache& cache)
    : model(m),
      index(cache.get<GraphIndex>()),
      cache(cache),
      table(cache.get<ValueTable>()),
      slots(table.slots()) {
  sets.emplace_back();
  set_ids.emplace(std::vector<uint32_t>{}, 0);
  const uint32_t next = table.size();
  const uint32_t next_node = table.node_count();
  node_total = next_node;
  sem_of_node.assign(node_total, nullptr);
  default_domain_sem.assign(m.op_kinds().size(), nullptr);
  model_opset_of_op.reserve(m.op_kinds().size());
  for (const OpKind& op : m.op_kinds()) {
    // A missing import is reported by opset rules; assume a current opset meanwhile.
    model_opset_of_op.push_back(m.opset_for(op.domain).value_or(1000));
  }
  shape.assign(next, Fact{});
  value.assign(next, Fact{});
  dims.assign(next, ArenaRef{});
  svec.assign(next, ArenaRef{});

  // The value range of each root graph and its subgraphs, in one pass (not one per function).
  std::vector<uint32_t> root_end(slots.size(), 0);
  for (const GraphSlot& s : slots) root_end[s.root_slot] = std::max(root_end[s.root_slot], s.end);
  for (const auto& f : model.functions()) {
    const GraphSlot* body = table.slot(f->body());
    if (body == nullptr) continue;
    FnState st;
    st.fn = f;
    st.begin = body->base;
    st.end = std::max(st.begin, root_end[static_cast<size_t>(body - slots.data())]);
    functions.try_emplace({f->domain(), f->name()}, std::move(st));
  }

  // Graphs are numbered in pre-order: a graph's subtree ends where its last descendant does.
  // Children come after their parent, so one backward sweep settles every subtree.
  subtree_end.assign(slots.size(), 0);
  for (size_t i = slots.size(); i-- > 0;) {
    subtree_end[i] = std::max(subtree_end[i], slots[i].end);
    const Graph* parent = slots[i].graph->parent();
    const GraphSlot* ps = parent != nullptr ? table.slot(*parent) : nullptr;
    if (ps != nullptr) {
      uint32_t& up = subtree_end[static_cast<size_t>(ps - slots.data())];
      up = std::max(up, subtree_end[i]);
    }
  }

  // Loop bodies may be re-run (carried classes) and function bodies run once per call
  // signature; nested loops must not multiply that without bound on a hostile file. The
  // budget is a multiple of what analysing every node once costs.
  uint64_t once = 0;
  for (const GraphSlot& s : slots) {
    for (const Node& n : s.graph->nodes()) once += node_cost(n);
  }
  budget = kWorkPerNode * once + kWorkConstant;
  set_main_inputs();
  run_graph(model.graph());
  finish_functions();
}

// ---------------------------------------------------------------------------------------------
// The pass

int64_t Provenance::Impl::function_opset_of(const Node& n, const GraphSlot& s) const {
  for (const OpsetImport& imp : s.function->opset_imports()) {
    if (normalize_domain(imp.domain) == n.domain()) return imp.version;
  }
  return model_opset_of_op[n.op_id()];
}

int64_t Provenance::Impl::opset_of(const Node& n) const { return opset_of(n, slot(*n.graph())); }

// Nodes of the default domain outside functions all see the model's opset: their semantics
// depend on the op alone, so the pass looks each op up once (default_domain_sem).
bool Provenance::Impl::by_op_alone(const Node& n, const GraphSlot& s) {
  return s.function == nullptr && n.domain().empty();
}

const OpSemantics& Provenance::Impl::lookup_semantics(const Node& n) const {
  const OpSemantics* found = find_op_semantics(n.domain(), n.op_type(), opset_of(n));
  return found != nullptr ? *found : unknown_op_semantics();
}

const OpSemantics& Provenance::Impl::node_semantics(const Node& n, const GraphSlot& s) {
  if (!by_op_alone(n, s)) return lookup_semantics(n);
  const OpSemantics*& known = default_domain_sem[n.op_id()];
  if (known == nullptr) known = &lookup_semantics(n);
  return *known;
}

const OpSemantics& Provenance::Impl::semantics_of(const Node& n) const {
  const GraphSlot* gs = table.slot(*n.graph());
  if (gs != nullptr) {
    const uint32_t id = gs->node_base + n.index();
    if (id < sem_of_node.size() && sem_of_node[id] != nullptr) return *sem_of_node[id];
  }
  if (gs != nullptr && by_op_alone(n, *gs)) {
    if (const OpSemantics* known = default_domain_sem[n.op_id()]) return *known;
  }
  return lookup_semantics(n);
}

const Function* Provenance::Impl::function_for(const Node& n) const {
  if (functions.empty()) return nullptr;
  auto it = functions.find({n.domain(), n.op_type()});
  return it == functions.end() ? nullptr : it->second.fn;
}

void Provenance::Impl::set_main_inputs() {
  const Graph& g = model.graph();
  const GraphSlot& s = slot(g);
  for (size_t k = 0; k < g.inputs().size(); ++k) {
    const ValueInfo& in = g.inputs()[k];
    uint32_t id = s.base + static_cast<uint32_t>(k);
    const ValueDef* d = s.info->local(in.name_id);
    if (d != nullptr && d->kind() == ValueDef::Kind::Input && d->input() == &in &&
        d->tensor() != nullptr) {
      // An initializer listed as an input: its default value and dims.
      std::vector<Sym> ds;
      for (int64_t x : d->tensor()->dims) ds.push_back(Sym::fixed(x));
      shape[id] = static_fact();
      dims[id] = push(ds);
      value[id] = static_fact();
      svec[id] = const_svec(*d->tensor());
      continue;
    }
    // Declared dims as facts; an unnamed dynamic dim is named after its position, so it can
    // still be reported. `what` is "shape" for the tensor, "elem" for a sequence's elements.
    uint32_t set = 0;
    auto declared = [&](std::span<const Dim> decl, std::string_view what) {
      std::vector<Sym> ds;
      for (size_t i = 0; i < decl.size(); ++i) {
        const Dim& dim = decl[i];
        if (dim.kind == Dim::Kind::Value && dim.value >= 0) {
          ds.push_back(Sym::fixed(dim.value));
          continue;
        }
        std::string name = dim.kind == Dim::Kind::Param && !dim.param.empty()
                               ? std::string(dim.param)
                               : fmt::format("{}.{}[{}]", in.name, what, i);
        uint32_t one = single_set(name_id(name));
        ds.push_back(Sym::symbolic(one));
        set = join_sets(set, one);
      }
      return push(ds);
    };
    Fact sf;
    if (in.type.elem_has_shape) {
      // The elements of a sequence (or the value of an optional) the caller passes.
      set_seq_elem(id, declared(in.type.elem_dims, "elem"));
      if (in.type.kind == TypeInfo::Kind::Optional) {
        // Present or not is the caller's choice: a length of 0 or 1 set by data.
        set_seq_len(id, Sym::data(kNoNode, 1));
      }
      set = 0;
    }
    if (in.type.has_shape) {
      dims[id] = declared(in.type.dims, "shape");
      sf.level = set != 0 ? kDims : kStatic;
      sf.dims = set;
    } else {
      sf.level = kDims;
      sf.dims = single_set(name_id(fmt::format("{}.shape", in.name)));
    }
    shape[id] = sf;
    Fact vf;
    vf.level = kData;
    value[id] = vf;
  }
}

void Provenance::Impl::set_constants(const GraphSlot& s) {
  const Graph& g = *s.graph;
  uint32_t id = s.base + static_cast<uint32_t>(g.inputs().size());
  std::vector<Sym> ds;
  for (const TensorData& t : g.initializers()) {
    ds.clear();
    for (int64_t x : t.dims) ds.push_back(Sym::fixed(x));
    shape[id] = static_fact();
    value[id] = static_fact();
    dims[id] = push(ds);
    svec[id] = const_svec(t);
    ++id;
  }
  for (const SparseTensorData& t : g.sparse_initializers()) {
    ds.clear();
    for (int64_t x : t.dims) ds.push_back(Sym::fixed(x));
    shape[id] = static_fact();
    value[id] = static_fact();
    dims[id] = push(ds);
    svec[id] = ArenaRef{};
    ++id;
  }
}

bool Provenance::Impl::join_carried(uint32_t formal, uint32_t initial, uint32_t body_out,
                                    uint8_t& varies, std::optional<ArenaRef> initial_dims) {
  Acc sh(*this);
  sh.take(shape[initial], initial, false);
  sh.take(shape[body_out], body_out, false);
  const Fact sf = sh.done();
  bool v = false;
  const ArenaRef d = merge(initial_dims.value_or(dims[initial]), dims[body_out], v);
  if (v) varies = 1;
  Acc va(*this);
  va.take(value[initial], initial, true);
  va.take(value[body_out], body_out, true);
  const Fact vf = va.done();
  const bool changed =
      !same_class(sf, shape[formal]) || !same_class(vf, value[formal]) || !same(d, dims[formal]);
  shape[formal] = sf;
  value[formal] = vf;
  dims[formal] = d;
  svec[formal] = same(svec[initial], svec[body_out]) ? svec[initial] : ArenaRef{};
  // A sequence whose length is not provably the same after the body grows or shrinks.
  auto li = seq_len_of(initial), lo = seq_len_of(body_out), lf = seq_len_of(formal);
  std::optional<Sym> len;
  if (li && lo && *li == *lo) {
    len = li;
  } else if (li || lo) {
    varies = 1;
  }
  set_seq_len(formal, len);
  // Element dims: the join of what enters and what the body makes; an empty sequence on entry
  // has no elements to disagree with.
  const ArenaRef ei = seq_elem_of(initial), eo = seq_elem_of(body_out), ef = seq_elem_of(formal);
  bool elem_differ = false;
  ArenaRef elem =
      li && li->is_fixed() && li->v == 0 && n_of(ei) < 0 ? eo : merge(ei, eo, elem_differ);
  set_seq_elem(formal, elem);
  return changed || !same(elem, ef) || (len.has_value() != lf.has_value()) ||
         (len && !(*len == *lf));
}

void Provenance::Impl::run_graph(const Graph& g) {
  const GraphSlot& s = slot(g);
  set_constants(s);
  if (s.info->topo_order) {
    for (uint32_t i : *s.info->topo_order) transfer(g.nodes()[i], s);
    return;
  }
  // A cycle: walk in file order; values read before they are computed stay unknown.
  for (uint32_t v = s.outs_base; v < s.end; ++v) {
    shape[v] = Fact{};
    value[v] = Fact{};
    dims[v] = ArenaRef{};
    svec[v] = ArenaRef{};
  }
  for (const Node& n : g.nodes()) transfer(n, s);
}

uint64_t Provenance::Impl::node_cost(const Node& n) {
  uint64_t cost = 1 + n.inputs().size() + n.outputs().size();
  for (const Attribute& a : n.attributes()) {
    cost += 1 + a.ints.size() + a.floats.size() + a.strings.size() +
            (a.t != nullptr ? a.t->dims.size() : 0);
  }
  return cost;
}

void Provenance::Impl::forget_subtree(const Graph& g) {
  const GraphSlot& s = slot(g);
  const uint32_t end = subtree_end[static_cast<size_t>(&s - slots.data())];
  for (uint32_t v = s.base; v < end; ++v) {
    shape[v] = value[v] = Fact{};
    dims[v] = svec[v] = ArenaRef{};
    if (!seq_len.empty()) seq_len.erase(v);
    if (!seq_elem.empty()) seq_elem.erase(v);
  }
}

void Provenance::Impl::transfer(const Node& n, const GraphSlot& s) {
  work += node_cost(n);
  uint32_t small[16];
  std::vector<uint32_t> big;
  uint32_t* buf = small;
  if (n.inputs().size() > 16) {
    big.resize(n.inputs().size());
    buf = big.data();
  }
  for (size_t i = 0; i < n.inputs().size(); ++i) {
    const ValueDef* d = s.info->input_def(n, i);
    buf[i] = d == nullptr ? kNoValue : id_of(*d);
  }
  std::span<const uint32_t> ins(buf, n.inputs().size());

  if (!functions.empty()) {
    auto it = functions.find({n.domain(), n.op_type()});
    if (it != functions.end()) {
      call_function(n, s, it->second, ins);
      return;
    }
  }
  const OpSemantics& sem = node_semantics(n, s);
  if (const uint32_t id = s.node_base + n.index(); id < sem_of_node.size()) sem_of_node[id] = &sem;
  if (sem.shape == ShapeBehavior::ControlFlow && n.in_default_domain()) {
    if (n.op_type() == "If" && graph_attr(n, "then_branch") && graph_attr(n, "else_branch")) {
      do_if(n, s, ins);
    } else if (n.op_type() == "Loop" && graph_attr(n, "body")) {
      do_loop(n, s, ins);
    } else if (n.op_type() == "Scan" && graph_attr(n, "body")) {
      do_scan(n, s, ins);
    } else {
      do_other_subgraphs(n, s, sem, ins);
    }
  } else if (has_subgraphs(n)) {
    do_other_subgraphs(n, s, sem, ins);
  } else {
    generic(n, s, sem, ins);
  }
}

void Provenance::Impl::generic(const Node& n, const GraphSlot& s, const OpSemantics& sem,
                               std::span<const uint32_t> ins) {
  infer(n, s, sem, ins, opset_of(n, s));
  const uint32_t here = s.node_base + n.index();
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;

    Acc sh(*this);
    if (sem.input_shapes) {
      for (size_t i = 0; i < ins.size(); ++i) {
        if (ins[i] != kNoValue) sh.take(shape[ins[i]], ins[i], false);
      }
    }
    if (sem.affects_output(k)) {
      for (size_t i = 0; i < ins.size(); ++i) {
        if (sem.reads_value(i) && ins[i] != kNoValue) sh.take(value[ins[i]], ins[i], true, here);
      }
    }
    // A name defined nowhere (reported by graph-undefined-value): nothing is known about it.
    for (size_t i = 0; i < ins.size(); ++i) {
      if (ins[i] == kNoValue && n.input_ids()[i] != kNoNameId) sh.raise(kUnknownLevel, here);
    }
    if (sem.shape == ShapeBehavior::Unknown) sh.raise(kUnknownLevel, here);
    Fact sf = sh.done();
    refine(*this, sf, dims[id]);
    shape[id] = sf;

    Acc va(*this);
    switch (sem.value) {
      case ValueBehavior::Propagate:
      case ValueBehavior::Unknown:
        for (size_t i = 0; i < ins.size(); ++i) {
          if (ins[i] != kNoValue) va.take(value[ins[i]], ins[i], true);
        }
        if (sem.value == ValueBehavior::Unknown) va.raise(kUnknownLevel, here);
        break;
      case ValueBehavior::FromShape:
        if (!ins.empty() && ins[0] != kNoValue) va.take(shape[ins[0]], ins[0], false, here);
        va.f.origin = here;
        va.f.from_shape = 1;
        break;
      case ValueBehavior::Constant:
        break;
      case ValueBehavior::Random:
        va.raise(kData, here);
        break;
    }
    for (size_t i = 0; i < ins.size(); ++i) {
      if (ins[i] == kNoValue && n.input_ids()[i] != kNoNameId) va.raise(kUnknownLevel, here);
    }
    Fact vf = va.done();
    refine(*this, vf, svec[id]);
    value[id] = vf;
  }
}

void Provenance::Impl::do_if(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins) {
  const Graph& then_g = *graph_attr(n, "then_branch");
  const Graph& else_g = *graph_attr(n, "else_branch");
  run_graph(then_g);
  run_graph(else_g);
  const GraphSlot& ts = slot(then_g);
  const GraphSlot& es = slot(else_g);
  const uint32_t here = s.node_base + n.index();
  const uint32_t cond = ins.empty() ? kNoValue : ins[0];
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;
    uint32_t t = k < then_g.outputs().size() ? resolve(ts, then_g.outputs()[k].name) : kNoValue;
    uint32_t e = k < else_g.outputs().size() ? resolve(es, else_g.outputs()[k].name) : kNoValue;
    Acc sh(*this);
    if (t != kNoValue) sh.take(shape[t], t, false);
    if (e != kNoValue) sh.take(shape[e], e, false);
    bool varies = false;
    ArenaRef d = (t != kNoValue && e != kNoValue) ? merge(dims[t], dims[e], varies) : ArenaRef{};
    // Branches of different shapes: the output shape is whichever the condition picks.
    if (varies && cond != kNoValue) sh.take(value[cond], cond, true, here);
    if (t == kNoValue || e == kNoValue) sh.raise(kUnknownLevel, here);
    Fact sf = sh.done();
    refine(*this, sf, d);
    shape[id] = sf;
    dims[id] = d;
    std::optional<Sym> lt, le;
    if (t != kNoValue) lt = seq_len_of(t);
    if (e != kNoValue) le = seq_len_of(e);
    set_seq_len(id, lt && le && *lt == *le ? lt : std::nullopt);
    if (t != kNoValue && e != kNoValue) {
      bool differ = false;  // elements of different dims: those dims are unknown
      set_seq_elem(id, merge(seq_elem_of(t), seq_elem_of(e), differ));
    } else {
      seq_elem.erase(id);
    }

    Acc va(*this);
    if (t != kNoValue) va.take(value[t], t, true);
    if (e != kNoValue) va.take(value[e], e, true);
    if (cond != kNoValue) va.take(value[cond], cond, true, here);
    if (t == kNoValue || e == kNoValue) va.raise(kUnknownLevel, here);
    Fact vf = va.done();
    ArenaRef sv = (t != kNoValue && e != kNoValue && same(svec[t], svec[e])) ? svec[t] : ArenaRef{};
    refine(*this, vf, sv);
    value[id] = vf;
    svec[id] = sv;
  }
}

void Provenance::Impl::iterate_body(const Node& n, const Graph& body,
                                    std::span<const uint32_t> carried, std::vector<uint8_t>& varies,
                                    const std::function<bool()>& join) {
  // The budget is checked before every run of the body, not only after a pass: a body nested
  // in others runs once per pass of each enclosing loop, so runs multiply with the nesting.
  bool cut = false;
  for (int pass = 0; pass < kMaxLoopPasses; ++pass) {
    if (over_budget()) {
      cut = true;
      break;
    }
    run_graph(body);
    if (!join()) return;  // stable
  }
  // Not stable after the passes allowed: what is carried is not followed any further (dims
  // and elements unknown, so nothing in the body is claimed fixed from them), and the body is
  // run once more on that. Over budget it is not: every value of the body (and of the graphs
  // in it) is unknown instead, which is what a run would at best leave uncertain.
  auto forget = [&] {
    for (size_t k = 0; k < carried.size(); ++k) {
      if (carried[k] == kNoValue) continue;
      dims[carried[k]] = svec[carried[k]] = ArenaRef{};
      seq_len.erase(carried[k]);
      seq_elem.erase(carried[k]);
      varies[k] = 1;
    }
  };
  forget();
  if (cut || over_budget()) {
    record_cut(node_id(n));
    forget_subtree(body);
  } else {
    run_graph(body);
  }
  join();
  forget();
}

void Provenance::Impl::do_loop(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins) {
  const Graph& body = *graph_attr(n, "body");
  const GraphSlot& bs = slot(body);
  const uint32_t here = s.node_base + n.index();
  const size_t nc = n.inputs().size() > 2 ? n.inputs().size() - 2 : 0;
  const uint32_t M = !ins.empty() ? ins[0] : kNoValue;
  const uint32_t C = ins.size() > 1 ? ins[1] : kNoValue;
  auto formal = [&](size_t k) {
    return k < body.inputs().size() ? bs.base + static_cast<uint32_t>(k) : kNoValue;
  };
  auto body_out = [&](size_t k) {
    return k < body.outputs().size() ? resolve(bs, body.outputs()[k].name) : kNoValue;
  };
  // The iteration counter varies per iteration but is not runtime data: it carries the trip
  // count's class. The condition starts as the initial condition.
  if (uint32_t it = formal(0); it != kNoValue) {
    shape[it] = static_fact();
    dims[it] = push({});
    value[it] = M != kNoValue ? link(value[M], M, true) : static_fact();
    svec[it] = ArenaRef{};
  }
  if (uint32_t c = formal(1); c != kNoValue) {
    shape[c] = static_fact();
    dims[c] = push({});
    value[c] = C != kNoValue ? link(value[C], C, true) : static_fact();
    svec[c] = C != kNoValue ? svec[C] : ArenaRef{};
  }
  for (size_t k = 0; k < nc; ++k) {
    uint32_t f = formal(2 + k), a = ins[2 + k];
    if (f == kNoValue) continue;
    if (a == kNoValue) {
      shape[f] = Fact{};
      value[f] = Fact{};
      dims[f] = svec[f] = ArenaRef{};
      continue;
    }
    shape[f] = link(shape[a], a, false);
    value[f] = link(value[a], a, true);
    dims[f] = dims[a];
    svec[f] = svec[a];
  }

  // Loop-carried values take the join of their initial value and the body's result; the body
  // is re-run while that changes (the lattice is shallow, so this stops quickly).
  std::vector<uint8_t> varies(nc, 0);
  uint32_t cond_out = kNoValue;
  std::vector<uint32_t> carried(nc);
  for (size_t k = 0; k < nc; ++k) carried[k] = formal(2 + k);
  iterate_body(n, body, carried, varies, [&] {
    bool changed = false;
    cond_out = body_out(0);
    if (uint32_t c = formal(1); c != kNoValue && cond_out != kNoValue) {
      Acc va(*this);
      if (C != kNoValue) va.take(value[C], C, true);
      va.take(value[cond_out], cond_out, true);
      Fact vf = va.done();
      if (!same_class(vf, value[c])) changed = true;
      value[c] = vf;
      // The condition read in later passes is the body's: known only when it is the same.
      if (C == kNoValue || !same(svec[C], svec[cond_out])) {
        if (n_of(svec[c]) >= 0) changed = true;
        svec[c] = ArenaRef{};
      }
    }
    for (size_t k = 0; k < nc; ++k) {
      uint32_t f = formal(2 + k), o = body_out(1 + k), a = ins[2 + k];
      if (f == kNoValue || o == kNoValue || a == kNoValue) continue;
      if (join_carried(f, a, o, varies[k])) changed = true;
    }
    return changed;
  });

  // The trip count: M, the initial condition and the body's condition together.
  Acc trip(*this);
  if (M != kNoValue) trip.take(value[M], M, true);
  if (C != kNoValue) trip.take(value[C], C, true);
  if (cond_out != kNoValue) trip.take(value[cond_out], cond_out, true);
  const Fact tf = trip.done();
  const uint32_t tsrc = tf.pred;
  // The number of iterations as a dim, when it is known (M fixed or symbolic, no data exit).
  // Exactly M iterations only when neither condition can stop the loop early: each is absent
  // or proven true (a condition that is false, or not known, may end it after any pass).
  auto always_true = [&](uint32_t c) {
    if (c == kNoValue) return true;
    auto e = view(svec[c]);
    return e.size() == 1 && e[0].is_fixed() && e[0].v != 0;
  };
  Sym length = Sym::unknown();
  if (M != kNoValue && always_true(C) && (cond_out == kNoValue || always_true(cond_out))) {
    auto m = view(svec[M]);
    if (m.size() == 1 && (m[0].is_fixed() || m[0].kind == Sym::kSymbolic)) length = m[0];
  }

  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;
    if (k < nc) {
      uint32_t f = formal(2 + k);
      if (f == kNoValue) {
        shape[id] = value[id] = Fact{};
        dims[id] = svec[id] = ArenaRef{};
        continue;
      }
      Acc sh(*this);
      sh.take(shape[f], f, false);
      // A carried value whose shape changes per iteration ends with a shape set by the count.
      if (varies[k] && tsrc != kNoValue) sh.take(value[tsrc], tsrc, true, here);
      Fact sf = sh.done();
      ArenaRef d = varies[k] ? ArenaRef{} : dims[f];
      refine(*this, sf, d);
      shape[id] = sf;
      dims[id] = d;
      set_seq_len(id, varies[k] ? std::nullopt : seq_len_of(f));
      set_seq_elem(id, seq_elem_of(f));
      Acc va(*this);
      va.take(value[f], f, true);
      if (tsrc != kNoValue) va.take(value[tsrc], tsrc, true, here);
      Fact vf = va.done();
      ArenaRef sv = tf.level == kStatic ? svec[f] : ArenaRef{};
      refine(*this, vf, sv);
      value[id] = vf;
      svec[id] = sv;
    } else {
      // Scan outputs stack one slice per iteration: their length is the trip count.
      uint32_t o = body_out(1 + k);
      Acc sh(*this);
      if (o != kNoValue) sh.take(shape[o], o, false);
      if (tsrc != kNoValue) sh.take(value[tsrc], tsrc, true, here);
      if (o == kNoValue) sh.raise(kUnknownLevel, here);
      Fact sf = sh.done();
      ArenaRef d;
      if (o != kNoValue && n_of(dims[o]) >= 0 && length.kind != Sym::kUnknown) {
        std::vector<Sym> ds{length};
        auto inner = view(dims[o]);
        ds.insert(ds.end(), inner.begin(), inner.end());
        d = push(ds);
      }
      refine(*this, sf, d);
      shape[id] = sf;
      dims[id] = d;
      Acc va(*this);
      if (o != kNoValue) va.take(value[o], o, true);
      if (tsrc != kNoValue) va.take(value[tsrc], tsrc, true, here);
      if (o == kNoValue) va.raise(kUnknownLevel, here);
      value[id] = va.done();
      svec[id] = ArenaRef{};
    }
  }
}

void Provenance::Impl::do_scan(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins) {
  const Graph& body = *graph_attr(n, "body");
  const GraphSlot& bs = slot(body);
  const int64_t opset = opset_of(n, s);
  const size_t off = opset < 9 ? 1 : 0;  // Scan-8 starts with sequence_lens
  const size_t total = ins.size() > off ? ins.size() - off : 0;
  const size_t num_scan = std::min(
      total, static_cast<size_t>(std::max<int64_t>(0, n.attr_int("num_scan_inputs").value_or(0))));
  const size_t ns = total - num_scan;
  const Attribute* in_axes = n.attribute("scan_input_axes");
  const Attribute* out_axes = n.attribute("scan_output_axes");
  auto formal = [&](size_t k) {
    return k < body.inputs().size() ? bs.base + static_cast<uint32_t>(k) : kNoValue;
  };
  auto body_out = [&](size_t k) {
    return k < body.outputs().size() ? resolve(bs, body.outputs()[k].name) : kNoValue;
  };
  auto axis_of = [&](const Attribute* a, size_t j, int64_t rank) -> int64_t {
    int64_t ax = (a != nullptr && j < a->ints.size()) ? a->ints[j] : 0;
    if (ax < 0) ax += rank;
    return ax;
  };

  for (size_t k = 0; k < ns + num_scan; ++k) {
    uint32_t f = formal(k), a = ins[off + k];
    if (f == kNoValue) continue;
    if (a == kNoValue) {
      shape[f] = value[f] = Fact{};
      dims[f] = svec[f] = ArenaRef{};
      continue;
    }
    shape[f] = link(shape[a], a, false);
    value[f] = link(value[a], a, true);
    svec[f] = k < ns ? svec[a] : ArenaRef{};
    dims[f] = ArenaRef{};
    if (opset < 9) {
      // Scan-8: every input has a leading batch axis, and scan inputs the sequence axis next.
      dims[f] = drop_leading(dims[a], k < ns ? 1 : 2);
    } else if (k < ns) {
      dims[f] = dims[a];
    } else if (n_of(dims[a]) > 0) {
      // A slice: the scanned axis removed.
      auto ds = view(dims[a]);
      int64_t ax = axis_of(in_axes, k - ns, static_cast<int64_t>(ds.size()));
      if (ax >= 0 && ax < static_cast<int64_t>(ds.size())) {
        std::vector<Sym> slice(ds.begin(), ds.end());
        slice.erase(slice.begin() + ax);
        dims[f] = push(slice);
      }
    }
  }

  std::vector<uint8_t> varies(ns, 0);
  std::vector<uint32_t> carried(ns);
  for (size_t k = 0; k < ns; ++k) carried[k] = formal(k);
  iterate_body(n, body, carried, varies, [&] {
    bool changed = false;
    for (size_t k = 0; k < ns; ++k) {
      uint32_t f = formal(k), o = body_out(k), a = ins[off + k];
      if (f == kNoValue || o == kNoValue || a == kNoValue) continue;
      std::optional<ArenaRef> initial;
      if (opset < 9) initial = drop_leading(dims[a], 1);
      if (join_carried(f, a, o, varies[k], initial)) changed = true;
    }
    return changed;
  });

  // The scan length: the scanned axis of the first scan input (Scan-8: axis 1, after the
  // batch axis, which every output gets back in front).
  Sym batch = Sym::unknown();
  if (opset < 9 && ns + num_scan > 0 && ins[off] != kNoValue && n_of(dims[ins[off]]) > 0) {
    batch = view(dims[ins[off]])[0];
  }
  const uint32_t first_scan = num_scan > 0 ? ins[off + ns] : kNoValue;
  Sym length = Sym::unknown();
  if (first_scan != kNoValue && n_of(dims[first_scan]) > 0) {
    auto ds = view(dims[first_scan]);
    int64_t ax = opset < 9 ? 1 : axis_of(in_axes, 0, static_cast<int64_t>(ds.size()));
    if (ax >= 0 && ax < static_cast<int64_t>(ds.size())) length = ds[ax];
  }
  // Scan-8 outputs: the batch axis in front of what the body computes (unknown batch: none).
  auto with_batch = [&](ArenaRef d) {
    if (opset >= 9 || n_of(d) < 0) return d;
    if (batch.kind == Sym::kUnknown) return ArenaRef{};
    auto inner = view(d);
    std::vector<Sym> ds{batch};
    ds.insert(ds.end(), inner.begin(), inner.end());
    return push(ds);
  };
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;
    uint32_t o = body_out(k);
    if (k < ns) {
      uint32_t f = formal(k);
      if (f == kNoValue) {
        shape[id] = value[id] = Fact{};
        dims[id] = svec[id] = ArenaRef{};
        continue;
      }
      shape[id] = link(shape[f], f, false);
      value[id] = link(value[f], f, true);
      dims[id] = varies[k] ? ArenaRef{} : with_batch(dims[f]);
      svec[id] = opset < 9 ? ArenaRef{} : svec[f];
      continue;
    }
    Acc sh(*this);
    if (o != kNoValue) sh.take(shape[o], o, false);
    if (first_scan != kNoValue) sh.take(shape[first_scan], first_scan, false);
    if (o == kNoValue) sh.raise(kUnknownLevel, s.node_base + n.index());
    Fact sf = sh.done();
    ArenaRef d;
    if (o != kNoValue && n_of(dims[o]) >= 0 && length.kind != Sym::kUnknown) {
      auto inner = view(dims[o]);
      std::vector<Sym> ds(inner.begin(), inner.end());
      int64_t ax = opset < 9 ? 0 : axis_of(out_axes, k - ns, static_cast<int64_t>(ds.size()) + 1);
      if (ax >= 0 && ax <= static_cast<int64_t>(ds.size())) {
        ds.insert(ds.begin() + ax, length);
        d = with_batch(push(ds));
      }
    }
    refine(*this, sf, d);
    shape[id] = sf;
    dims[id] = d;
    value[id] = o != kNoValue ? link(value[o], o, true) : Fact{};
    svec[id] = ArenaRef{};
  }
}

void Provenance::Impl::do_other_subgraphs(const Node& n, const GraphSlot& s, const OpSemantics& sem,
                                          std::span<const uint32_t> ins) {
  // Unmodelled ops with subgraphs (SequenceMap, custom ops): each formal input gets the join
  // of the node's inputs, and outputs join the subgraphs' outputs with the op's own rule.
  Acc js(*this), jv(*this);
  for (uint32_t a : ins) {
    if (a == kNoValue) continue;
    js.take(shape[a], a, false);
    jv.take(value[a], a, true);
  }
  const Fact fs = js.done(), fv = jv.done();
  std::vector<const Graph*> subs;
  for (const Attribute& a : n.attributes()) {
    if (a.g != nullptr) subs.push_back(a.g);
    for (const Graph* g : a.graphs) subs.push_back(g);
  }
  // SequenceMap runs its body once per element: a body input is an element of the sequence
  // input (the dims its elements share, where followed) or the tensor input itself.
  const bool seq_map = n.in_default_domain() && n.op_type() == "SequenceMap" && subs.size() == 1;
  auto is_sequence = [&](uint32_t a) { return seq_len.count(a) != 0 || seq_elem.count(a) != 0; };
  for (const Graph* sg : subs) {
    const GraphSlot& ss = slot(*sg);
    for (size_t k = 0; k < sg->inputs().size(); ++k) {
      uint32_t f = ss.base + static_cast<uint32_t>(k);
      shape[f] = fs;
      value[f] = fv;
      dims[f] = svec[f] = ArenaRef{};
      const uint32_t a = k < ins.size() ? ins[k] : kNoValue;
      if (!seq_map || a == kNoValue) continue;
      if (k == 0 || is_sequence(a)) {
        dims[f] = seq_elem_of(a);
      } else {
        dims[f] = dims[a];
      }
    }
    run_graph(*sg);
  }
  generic(n, s, sem, ins);
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;
    Acc sh(*this), va(*this);
    sh.f = shape[id];
    sh.any = true;
    va.f = value[id];
    va.any = true;
    bool joined = false;
    for (const Graph* sg : subs) {
      if (k >= sg->outputs().size()) continue;
      uint32_t o = resolve(slot(*sg), sg->outputs()[k].name);
      if (o == kNoValue) continue;
      sh.take(shape[o], o, false);
      va.take(value[o], o, true);
      joined = true;
    }
    if (!joined) continue;
    shape[id] = sh.done();
    value[id] = va.done();
    dims[id] = svec[id] = ArenaRef{};
    if (seq_map && k < subs[0]->outputs().size()) {
      // One output element per element of the first input, shaped as the body makes it.
      const uint32_t o = resolve(slot(*subs[0]), subs[0]->outputs()[k].name);
      set_seq_len(id, ins.empty() || ins[0] == kNoValue ? std::nullopt : seq_len_of(ins[0]));
      set_seq_elem(id, o == kNoValue ? ArenaRef{} : dims[o]);
    }
  }
}

void Provenance::Impl::default_call(const Node& n, const GraphSlot& s,
                                    std::span<const uint32_t> ins) {
  const uint32_t here = s.node_base + n.index();
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;
    Acc sh(*this), va(*this);
    for (uint32_t a : ins) {
      if (a == kNoValue) continue;
      sh.take(shape[a], a, false);
      va.take(value[a], a, true);
    }
    sh.raise(kUnknownLevel, here);
    va.raise(kUnknownLevel, here);
    shape[id] = sh.done();
    value[id] = va.done();
    dims[id] = svec[id] = ArenaRef{};
  }
}

void Provenance::Impl::call_function(const Node& n, const GraphSlot& s, FnState& st,
                                     std::span<const uint32_t> ins) {
  const Graph& body = st.fn->body();
  const GraphSlot& bs = slot(body);
  // Recursion, or a chain of calls deeper than the limit (the walk recurses per call).
  if (st.busy || call_depth >= model.max_call_depth()) {
    default_call(n, s, ins);
    return;
  }
  // Instances are keyed by everything the body can observe of its inputs.
  std::vector<int64_t> key;
  for (size_t k = 0; k < body.inputs().size(); ++k) {
    uint32_t a = k < ins.size() ? ins[k] : kNoValue;
    if (a == kNoValue) {
      key.push_back(-1);
      continue;
    }
    key.insert(key.end(), {shape[a].level, shape[a].dims, value[a].level, value[a].dims});
    for (ArenaRef r : {dims[a], svec[a]}) {
      key.push_back(n_of(r));
      for (const Sym& x : view(r)) key.insert(key.end(), {x.kind, x.v, x.set});
    }
  }
  const Instance* inst = nullptr;
  for (const Instance& i : st.instances) {
    if (i.key == key) inst = &i;
  }
  if (inst == nullptr) {
    if (st.instances.size() >= kMaxFunctionInstances || over_budget()) {
      if (over_budget()) record_cut(node_id(n));
      default_call(n, s, ins);
      return;
    }
    st.busy = true;
    for (size_t k = 0; k < body.inputs().size(); ++k) {
      uint32_t f = bs.base + static_cast<uint32_t>(k);
      uint32_t a = k < ins.size() ? ins[k] : kNoValue;
      if (a == kNoValue) {
        shape[f] = value[f] = static_fact();
        dims[f] = svec[f] = ArenaRef{};
        continue;
      }
      shape[f] = link(shape[a], a, false);
      value[f] = link(value[a], a, true);
      dims[f] = dims[a];
      svec[f] = svec[a];
    }
    ++call_depth;
    run_graph(body);
    --call_depth;
    // Facts inside the body: the join over every instance (what rules see).
    const size_t len = st.end - st.begin;
    if (st.acc_shape.empty()) {
      st.acc_shape.assign(shape.begin() + st.begin, shape.begin() + st.end);
      st.acc_value.assign(value.begin() + st.begin, value.begin() + st.end);
      st.acc_dims.assign(dims.begin() + st.begin, dims.begin() + st.end);
    } else {
      for (size_t i = 0; i < len; ++i) {
        for (auto [acc, cur] : {std::pair{&st.acc_shape[i], &shape[st.begin + i]},
                                std::pair{&st.acc_value[i], &value[st.begin + i]}}) {
          if (cur->level > acc->level) {
            *acc = *cur;
          } else if (cur->level == acc->level && cur->level != kStatic && cur->level != kData) {
            acc->dims = join_sets(acc->dims, cur->dims);
          }
        }
        if (!same(st.acc_dims[i], dims[st.begin + i])) st.acc_dims[i] = ArenaRef{};
      }
    }
    Instance made;
    made.key = std::move(key);
    for (size_t j = 0; j < body.outputs().size(); ++j) {
      uint32_t o = resolve(bs, body.outputs()[j].name);
      made.out_ids.push_back(o);
      made.out_shape.push_back(o != kNoValue ? shape[o] : Fact{});
      made.out_value.push_back(o != kNoValue ? value[o] : Fact{});
      made.out_dims.push_back(o != kNoValue ? dims[o] : ArenaRef{});
      made.out_svec.push_back(o != kNoValue ? svec[o] : ArenaRef{});
    }
    st.instances.push_back(std::move(made));
    inst = &st.instances.back();
    st.busy = false;
  }
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id == kNoValue) continue;
    if (k >= inst->out_ids.size() || inst->out_ids[k] == kNoValue) {
      shape[id] = value[id] = Fact{};
      dims[id] = svec[id] = ArenaRef{};
      continue;
    }
    shape[id] = link(inst->out_shape[k], inst->out_ids[k], false);
    value[id] = link(inst->out_value[k], inst->out_ids[k], true);
    dims[id] = inst->out_dims[k];
    svec[id] = inst->out_svec[k];
  }
}

void Provenance::Impl::finish_functions() {
  // Functions nothing calls: analysed once with inputs of unknown class.
  for (auto& [key, st] : functions) {
    if (!st.instances.empty() || !st.acc_shape.empty()) continue;
    const Graph& body = st.fn->body();
    const GraphSlot& bs = slot(body);
    for (size_t k = 0; k < body.inputs().size(); ++k) {
      uint32_t f = bs.base + static_cast<uint32_t>(k);
      shape[f] = value[f] = Fact{};
      dims[f] = svec[f] = ArenaRef{};
    }
    st.busy = true;
    run_graph(body);
    st.busy = false;
  }
  for (auto& [key, st] : functions) {
    if (st.acc_shape.empty()) continue;
    std::copy(st.acc_shape.begin(), st.acc_shape.end(), shape.begin() + st.begin);
    std::copy(st.acc_value.begin(), st.acc_value.end(), value.begin() + st.begin);
    std::copy(st.acc_dims.begin(), st.acc_dims.end(), dims.begin() + st.begin);
  }
}

}  // namespace onnxlint
