// Dim pins (include/onnxlint/dim_pins.h): the registry's constraint rules read over the
// provenance analysis's dims, and each equality between a fixed size and a dim computed from
// one input dim solved for that input dim.
//
// The solver needs no algebra of its own: a dim of the analysis is an interned expression over
// input dims (provenance_internal.h, SymExpr), which it evaluates at chosen sizes of the one
// input dim it depends on. When the expression is non-decreasing in that dim (checked on its
// structure: sums, products of non-negative factors, division by a positive number, min/max)
// and passes the required size, the sizes solving it form one interval, found by bisection.
#include <fmt/format.h>
#include <onnxlint/dim_pins.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "analysis/ops/constraint_context.h"
#include "analysis/ops/registry.h"
#include "analysis/provenance_internal.h"
#include "util/checked_math.h"
#include "util/name_map.h"

namespace onnxlint {
namespace {

using Impl = Provenance::Impl;

// Sizes tried for the input dim: [1, kLargest]. A dim of a valid input is at least 1 (a
// zero-size input is a different program: empty tensors), and 2^40 passes any fixed size an
// export writes while keeping products of a few such dims inside int64.
constexpr int64_t kLargest = int64_t{1} << 40;

// The input dims a side depends on: at most kMaxNames, none dropped from a capped set.
constexpr size_t kMaxNames = 4;
struct Sizes {
  std::vector<uint32_t> names;  // input dim name ids
  std::vector<int64_t> values;  // the size tried for each
  std::optional<int64_t> of(uint32_t name) const {
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return values[i];
    }
    return std::nullopt;
  }
};

// The value of `s` at the sizes given; nullopt when it depends on another dim, is opaque, or
// overflows. An expression renders with at most kMaxExprLeaves leaves (else it is opaque), so
// the recursion visits at most 2 * 64 nodes.
std::optional<int64_t> evaluate(const Impl& a, const Sym& s, const Sizes& at) {
  if (s.kind == Sym::kFixed) return s.v;
  if (s.kind != Sym::kSymbolic) return std::nullopt;
  if (s.v == 0) {
    const std::vector<uint32_t>& set = a.sets[s.set];
    return set.size() == 1 ? at.of(set[0]) : std::nullopt;
  }
  const SymExpr& e = a.exprs[static_cast<size_t>(s.v)];
  if (e.opaque || e.op == SymOp::kF) return std::nullopt;
  auto x = evaluate(a, e.a, at);
  if (!x) return std::nullopt;
  auto y = evaluate(a, e.b, at);
  if (!y) return std::nullopt;
  return fixed_arith(e.op, *x, *y);
}

// True when `s` never decreases as any of its input dims grows (from 1): proven on its
// structure. `ones` holds every dim at 1, where a non-decreasing factor is smallest.
bool non_decreasing(const Impl& a, const Sym& s, const Sizes& ones) {
  if (s.kind == Sym::kFixed) return true;
  if (s.kind != Sym::kSymbolic) return false;
  if (s.v == 0) return true;
  const SymExpr& e = a.exprs[static_cast<size_t>(s.v)];
  if (e.opaque) return false;
  const bool nd_a = non_decreasing(a, e.a, ones), nd_b = non_decreasing(a, e.b, ones);
  auto at_least_zero = [&](const Sym& x) {
    auto v = evaluate(a, x, ones);
    return v && *v >= 0;
  };
  switch (e.op) {
    case SymOp::kAdd:
    case SymOp::kMax:
    case SymOp::kMin:
      return nd_a && nd_b;
    case SymOp::kSub:
      return nd_a && e.b.is_fixed();
    case SymOp::kMul:
      return nd_a && nd_b && at_least_zero(e.a) && at_least_zero(e.b);
    case SymOp::kDiv:
    case SymOp::kCeilDiv:
      return nd_a && e.b.is_fixed() && e.b.v > 0;
    default:  // kMod, kF
      return false;
  }
}

// A side of an equality: a product of dims and numbers.
struct Side {
  std::vector<Sym> factors;
  std::vector<ops::DimRef> refs;
};

// The sizes n in [1, kLargest] with f(n) == target, for f non-decreasing: one interval, or
// nullopt when none (or when f cannot be evaluated somewhere it is needed).
struct Interval {
  int64_t first, last;
};
// Both searches run on sides whose value at 1 was computed: past that, the only way f has no
// value is overflow, i.e. a value above any target.

// The largest n in [from, kLargest] with f(n) <= target, for f non-decreasing and
// f(from) <= target.
template <class F>
int64_t last_at_most_from(F f, int64_t from, int64_t target) {
  int64_t lo = from, hi = kLargest;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    auto v = f(mid);
    if (v && *v <= target) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// The largest n in [1, kLargest] with f(n) <= target, or nullopt when f(1) is above it.
template <class F>
std::optional<int64_t> last_at_most(F f, int64_t target) {
  auto low = f(1);
  if (!low || *low > target) return std::nullopt;
  return last_at_most_from(f, 1, target);
}

// The sizes n with f(n) == target: one interval, as f never decreases.
template <class F>
std::optional<Interval> solve(F f, int64_t target) {
  // First n with f(n) >= target.
  int64_t lo = 1, hi = kLargest;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    auto v = f(mid);
    if (!v || *v >= target) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  auto at = f(lo);
  if (!at || *at != target) return std::nullopt;
  return Interval{lo, last_at_most_from(f, lo, target)};
}

class PinContext final : public ops::ConstraintContext {
 public:
  PinContext(const Impl& a, int64_t opset, std::vector<DimPin>& out)
      : a_(a), opset_(opset), out_(out) {}
  void set_opset(int64_t opset) { opset_ = opset; }
  // One context serves every node (its id vector keeps its capacity).
  void reset(const GraphSlot& s, const Node& n) {
    n_ = &n;
    ids_.resize(n.input_count());
    for (size_t k = 0; k < ids_.size(); ++k) ids_[k] = a_.table.input(s, n, k);
  }

  const Node& node() const override { return *n_; }
  int64_t opset() const override { return opset_; }
  std::optional<size_t> rank(size_t k) const override {
    if (k >= ids_.size() || ids_[k] == kNoValue) return std::nullopt;
    const int32_t r = a_.n_of(a_.dims[ids_[k]]);
    if (r < 0) return std::nullopt;
    return static_cast<size_t>(r);
  }
  std::optional<std::vector<int64_t>> ints(size_t k) const override {
    if (k >= ids_.size() || ids_[k] == kNoValue) return std::nullopt;
    const ArenaRef r = a_.svec[ids_[k]];
    if (a_.n_of(r) < 0) return std::nullopt;
    std::vector<int64_t> out;
    for (const Sym& s : a_.view(r)) {
      if (!s.is_fixed()) return std::nullopt;
      out.push_back(s.v);
    }
    return out;
  }

  void require(std::span<const ops::DimRef> lhs, std::span<const ops::DimRef> rhs,
               ops::Relation rel, std::string_view what) override {
    // Most equalities hold between two fixed sizes or two copies of one dim: decided without
    // building anything. A pin needs exactly one side with a dim computed from input dims.
    const int l = symbolic_factors(lhs), r = symbolic_factors(rhs);
    if (l < 0 || r < 0 || (l == 0) == (r == 0)) return;
    auto ls = side(lhs), rs = side(rhs);
    if (!ls || !rs) return;
    if (l > 0) {
      pin(*ls, *rs, rel, what);
    } else {
      pin(*rs, *ls, rel, what);
    }
  }

 private:
  const Impl& a_;
  const Node* n_ = nullptr;
  int64_t opset_;
  std::vector<DimPin>& out_;
  std::vector<uint32_t> ids_;

  std::optional<Sym> sym(const ops::DimRef& d) const {
    if (d.input < 0) return Sym::fixed(d.value);
    const auto k = static_cast<size_t>(d.input);
    auto r = rank(k);
    if (!r || d.axis < 0 || static_cast<size_t>(d.axis) >= *r) return std::nullopt;
    return a_.view(a_.dims[ids_[k]])[static_cast<size_t>(d.axis)];
  }
  // How many factors are dims computed from input dims; -1 when one is unknown or data.
  int symbolic_factors(std::span<const ops::DimRef> refs) const {
    int count = 0;
    for (const ops::DimRef& d : refs) {
      if (d.input < 0) continue;
      const auto k = static_cast<size_t>(d.input);
      if (k >= ids_.size() || ids_[k] == kNoValue) return -1;
      const std::span<const Sym> dims = a_.view(a_.dims[ids_[k]]);
      if (d.axis < 0 || static_cast<size_t>(d.axis) >= dims.size()) return -1;
      const Sym& x = dims[static_cast<size_t>(d.axis)];
      if (x.kind == Sym::kUnknown || x.kind == Sym::kData) return -1;
      count += x.kind == Sym::kSymbolic ? 1 : 0;
    }
    return count;
  }
  std::optional<Side> side(std::span<const ops::DimRef> refs) const {
    Side s;
    for (const ops::DimRef& d : refs) {
      auto x = sym(d);
      if (!x || x->kind == Sym::kUnknown || x->kind == Sym::kData) return std::nullopt;
      s.factors.push_back(*x);
      s.refs.push_back(d);
    }
    return s;
  }

  struct Solution {
    std::vector<int64_t> at_most;
    std::optional<Interval> hit, one;
  };
  struct SolveKey {
    std::vector<Sym> factors;
    int64_t required;
    ops::Relation rel;
    bool operator<(const SolveKey& o) const {
      if (required != o.required) return required < o.required;
      if (rel != o.rel) return rel < o.rel;
      if (factors.size() != o.factors.size()) return factors.size() < o.factors.size();
      for (size_t i = 0; i < factors.size(); ++i) {
        const Sym &x = factors[i], &y = o.factors[i];
        if (x.kind != y.kind) return x.kind < y.kind;
        if (x.v != y.v) return x.v < y.v;
        if (x.set != y.set) return x.set < y.set;
      }
      return false;
    }
  };
  static constexpr uint32_t kPinsPerDims = 8;
  std::map<std::vector<uint32_t>, uint32_t> pins_per_dims_;
  std::map<SolveKey, std::optional<Solution>> solved_;

  // The sizes of the dims in `at` that make the product of `dyn`'s factors equal `required`
  // (or 1 with or_one); nullopt when that proves nothing (an expression that is not
  // non-decreasing, stops growing below the size, or has no solution).
  std::optional<Solution> solve_side(const Side& dyn, const Sizes& at, int64_t required,
                                     bool or_one) const {
    for (const Sym& s : dyn.factors) {
      if (!non_decreasing(a_, s, at)) return std::nullopt;
      auto low = evaluate(a_, s, at);
      if (!low || *low < 0) return std::nullopt;  // a product never decreases without them
    }
    auto f = [&](const Sizes& sizes) -> std::optional<int64_t> {
      CheckedInt p = 1;
      for (const Sym& s : dyn.factors) {
        auto v = evaluate(a_, s, sizes);
        if (!v) return std::nullopt;
        p = checked_mul(p, *v);
        if (!p) return std::nullopt;
      }
      return p;
    };
    // Each dim alone, the others at 1 (where the side is smallest): it must grow past the
    // required size (min(N, 64) = 64 holds for every N >= 64), and the largest size that stays
    // at or under it bounds that dim for any sizes of the others.
    Solution sol;
    for (size_t i = 0; i < at.names.size(); ++i) {
      auto alone = [&](int64_t n) {
        Sizes x = at;
        x.values[i] = n;
        return f(x);
      };
      auto top = alone(kLargest);
      if (top && *top <= required) return std::nullopt;
      auto bound = last_at_most(alone, required);
      if (!bound) return std::nullopt;  // no size works: a broken model, not a frozen size
      sol.at_most.push_back(*bound);
    }
    // Every dim at the same size: the sizes that work that way (all of them for one dim).
    auto diagonal = [&](int64_t n) {
      Sizes x = at;
      std::fill(x.values.begin(), x.values.end(), n);
      return f(x);
    };
    sol.hit = solve(diagonal, required);
    if (or_one) sol.one = solve(diagonal, 1);
    if (!sol.hit && at.names.size() == 1) return std::nullopt;  // a broken model
    return sol;
  }

  // `dyn` depends on one input dim, `fixed` is a number: record the pin. False when the two
  // sides are not of that form (the caller then tries them the other way round).
  bool pin(const Side& dyn, const Side& fixed, ops::Relation rel, std::string_view what) {
    CheckedInt required = 1;
    for (const Sym& s : fixed.factors) {
      if (!s.is_fixed()) return false;
      required = checked_mul(required, s.v);
    }
    if (!required || *required < 0) return false;
    Sizes at;                              // the input dims the dynamic side depends on
    const ops::DimRef* carrier = nullptr;  // the dynamic factor read from an input
    for (size_t i = 0; i < dyn.factors.size(); ++i) {
      const Sym& s = dyn.factors[i];
      if (s.is_fixed()) {
        if (s.v < 0) return false;
        continue;
      }
      if (s.kind != Sym::kSymbolic) return false;
      for (uint32_t name : a_.sets[s.set]) {
        if (name == kMoreNames) return false;
        if (!at.of(name)) {
          if (at.names.size() == kMaxNames) return false;
          at.names.push_back(name);
          at.values.push_back(1);
        }
      }
      if (carrier == nullptr) carrier = &dyn.refs[i];
    }
    if (at.names.empty() || carrier == nullptr) return false;
    // At most kPinsPerDims pins per set of dims (the first met): a report needs one finding
    // and a few notes per set, and a model of many copies of one equality stays linear.
    std::vector<uint32_t> key_names = at.names;
    std::sort(key_names.begin(), key_names.end());
    uint32_t& count = pins_per_dims_[key_names];
    if (count >= kPinsPerDims) return true;
    const bool or_one = rel == ops::Relation::EqualOrOne && at.names.size() == 1;
    if (rel == ops::Relation::EqualOrOne && *required == 1) return true;  // 1 broadcasts
    // One solution per (expression, size, relation): exporters repeat equalities (every layer
    // adds the same table), and solving costs a few hundred evaluations.
    SolveKey key{dyn.factors, *required, rel};
    auto memo = solved_.find(key);
    if (memo == solved_.end()) {
      memo = solved_.emplace(std::move(key), solve_side(dyn, at, *required, or_one)).first;
    }
    if (!memo->second) return true;
    const Solution& sol = *memo->second;
    std::vector<int64_t> at_most = sol.at_most;
    std::optional<Interval> hit = sol.hit, one = sol.one;
    ++count;
    DimPin p;
    p.node = n_;
    p.what = what;
    p.input = static_cast<size_t>(carrier->input);
    p.axis = static_cast<size_t>(carrier->axis);
    p.operand = ids_[p.input];
    for (const ops::DimRef& d : fixed.refs) {
      if (d.input >= 0) {
        p.fixed_operand = ids_[static_cast<size_t>(d.input)];
        p.fixed_axis = static_cast<size_t>(d.axis);
        break;
      }
    }
    for (uint32_t name : at.names) p.dim_names.push_back(a_.names[name]);
    p.at_most = std::move(at_most);
    CheckedInt scale = 1;
    for (const Sym& s : dyn.factors) {
      if (s.is_fixed()) {
        scale = checked_mul(scale, s.v);
      } else {
        if (!p.expr.empty()) p.expr += '*';
        p.expr += a_.render_sym(s);
      }
    }
    if (!scale) return true;
    if (*scale != 1) p.expr = fmt::format("{}*{}", *scale, p.expr);
    p.required = *required;
    p.or_one = or_one;
    if (hit) {
      p.first = hit->first;
      p.last = hit->last;
    }
    if (one) {
      p.first_one = one->first;
      p.last_one = one->last;
    }
    out_.push_back(std::move(p));
    return true;
  }
};

// False for an If branch (at any depth) that may not run at every size: the If's condition is
// not a proven constant, or it is and selects the other branch. An equality inside such a branch
// only holds when the branch runs (`if x.size(2) == 64:` in scripted code may be the guard), so
// it proves nothing about the model.
bool runs_whenever_its_graph_does(const Impl& a, const Graph& g) {
  for (const Graph* at = &g; at != nullptr && at->kind() == Graph::Kind::Subgraph;
       at = at->parent()) {
    const Node* owner = at->owner();
    if (owner == nullptr || !owner->in_default_domain() || owner->op_type() != "If") continue;
    const uint32_t cond = a.table.input(*owner, 0);
    if (cond == kNoValue || a.n_of(a.svec[cond]) != 1) return false;
    const Sym c = a.view(a.svec[cond])[0];
    if (!c.is_fixed()) return false;
    const bool then_branch = at->owner_attribute() == "then_branch";
    if ((c.v != 0) != then_branch) return false;  // the branch that never runs
  }
  return true;
}

// The shape transfer of a node's op at its opset (None outside the default domain).
ops::DimRule dim_rule_of(const Provenance& p, const Node& n) {
  if (!n.in_default_domain()) return ops::DimRule::None;
  const ops::OpEntry* e = ops::find_entry("", n.op_type(), p.opset(n));
  return e == nullptr ? ops::DimRule::None : e->dim_rule;
}

// Ops whose outputs take every dim from an input at the same position from the right.
bool copies_dims(ops::DimRule r) {
  using ops::DimRule;
  switch (r) {
    case DimRule::Unary:
    case DimRule::Passthru:
    case DimRule::Neg:
    case DimRule::Broadcast:
    case DimRule::Arith:
    case DimRule::Compare:
    case DimRule::Logic:
    case DimRule::Where:
      return true;
    default:
      return false;
  }
}

// Index `axis` of a rank-`rank` output within a vector of `len` aligned to the right.
std::optional<size_t> aligned(size_t axis, size_t rank, size_t len) {
  if (len > rank || axis < rank - len) return std::nullopt;
  return axis - (rank - len);
}

// True for a Reshape with a constant target whose inferred (-1) dim absorbs a constant ratio:
// the fixed sizes the input loses differ from the numbers the target writes. `x.view(2, -1)`
// of [N, 16] writes 2 where 16 is lost, so 8*N holds a size from the example; `[0, 16, -1]` of
// [N, 16, h, w] or `[-1, 16]` of [N, 4, 4] only regroups dims.
bool folds_constant(const Provenance& p, const Node& n) {
  const Impl& a = p.internals();
  auto target = p.argument_ints(n, 1, "shape", 5);
  const ValueId in = p.input(n, 0);
  if (!target || in == kNoValue) return false;
  const bool allowzero = n.attr_int("allowzero").value_or(0) != 0;
  const std::span<const Sym> dims = a.view(a.dims[in]);
  CheckedInt lost = 1, written = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const bool copied = i < target->size() && (*target)[i] == 0 && !allowzero;
    if (!copied && dims[i].is_fixed()) lost = checked_mul(lost, dims[i].v);
  }
  for (int64_t t : *target) {
    if (t > 0 || (t == 0 && allowzero)) written = checked_mul(written, t);
  }
  return !lost || !written || *lost != *written;
}

// Where the symbolic dim `axis` of `v` was formed by a Reshape with a constant target: back
// through the producers while one of their inputs has that very dim (an interned expression
// is the same dim wherever it appears).
const Node* folder_of(const Provenance& p, ValueId v, size_t axis) {
  const Impl& a = p.internals();
  if (v == kNoValue || axis >= a.view(a.dims[v]).size()) return nullptr;
  const Sym s = a.view(a.dims[v])[axis];
  if (s.kind != Sym::kSymbolic || s.v == 0) return nullptr;  // an input dim itself
  for (int step = 0; step < 4096 && v != kNoValue; ++step) {
    const Node* n = a.producer_of(v);
    if (n == nullptr) return nullptr;
    ValueId next = kNoValue;
    for (size_t k = 0; k < n->input_count() && next == kNoValue; ++k) {
      const ValueId in = p.input(*n, k);
      if (in == kNoValue) continue;
      for (const Sym& d : a.view(a.dims[in])) {
        if (d == s) {
          next = in;
          break;
        }
      }
    }
    if (next != kNoValue) {
      v = next;
      continue;
    }
    if (dim_rule_of(p, *n) != ops::DimRule::Reshape) return nullptr;
    return folds_constant(p, *n) ? n : nullptr;
  }
  return nullptr;
}

}  // namespace

DimPins::DimPins(const Model& model, AnalysisCache& cache) {
  provenance_ = &cache.get<Provenance>();
  const Provenance& p = *provenance_;
  const Impl& a = p.internals();
  // Outside function bodies every default-domain node has the model's opset, so each op's
  // constraint rule is looked up once.
  const int64_t opset = model.opset_for("").value_or(1000);
  NameMap<ops::ConstraintRule> rules;
  // A local function's body holds the dims every call agrees on; its equalities hold when a
  // call always runs (from a graph that runs whenever the model does, at any depth).
  std::unordered_set<const Function*> called;
  for (bool grew = true; grew;) {
    grew = false;
    for (const GraphSlot& s : a.slots) {
      if (s.function != nullptr && called.count(s.function) == 0) continue;
      if (!runs_whenever_its_graph_does(a, *s.graph)) continue;
      for (const Node& n : s.graph->nodes()) {
        if (const Function* f = p.called_function(n)) grew |= called.insert(f).second;
      }
    }
  }
  PinContext ctx(a, opset, pins_);
  for (const GraphSlot& s : a.slots) {
    if (s.function != nullptr && called.count(s.function) == 0) continue;
    if (!runs_whenever_its_graph_does(a, *s.graph)) continue;
    for (const Node& n : s.graph->nodes()) {
      if (!n.in_default_domain()) continue;
      const ops::ConstraintRule* rule = nullptr;
      ops::ConstraintRule body_rule = nullptr;
      if (s.function == nullptr) {
        rule = rules.find(n.op_type());
        if (rule == nullptr) {
          const ops::OpEntry* e = ops::find_entry("", n.op_type(), opset);
          rule = rules.try_emplace(n.op_type(), e == nullptr ? nullptr : e->constraints).first;
        }
        ctx.set_opset(opset);
      } else {  // a body has its function's opset
        const int64_t at = p.opset(n);
        const ops::OpEntry* e = ops::find_entry("", n.op_type(), at);
        body_rule = e == nullptr ? nullptr : e->constraints;
        rule = &body_rule;
        ctx.set_opset(at);
      }
      if (*rule == nullptr) continue;
      ctx.reset(s, n);
      const size_t before = pins_.size();
      (*rule)(ctx);
      for (size_t i = before; i < pins_.size(); ++i) {
        DimPin& pin = pins_[i];
        pin.folded_by = folder_of(p, pin.operand, pin.axis);
        if (pin.fixed_operand != kNoValue) {
          pin.written_by = writer_of(pin.fixed_operand, pin.fixed_axis);
        }
      }
    }
  }
}

}  // namespace onnxlint

namespace onnxlint {

const Node* DimPins::writer_of(ValueId v, size_t axis) const {
  using ops::DimRule;
  const Provenance& p = *provenance_;
  const Impl& a = p.internals();
  for (int step = 0; step < 4096 && v != kNoValue; ++step) {
    const std::span<const Sym> dims = a.view(a.dims[v]);
    if (axis >= dims.size() || !dims[axis].is_fixed()) return nullptr;
    const int64_t c = dims[axis].v;
    const size_t rank = dims.size();
    const Node* n = a.producer_of(v);
    if (n == nullptr) return nullptr;
    const DimRule rule = dim_rule_of(p, *n);
    // Follow input k at the position aligned with `axis` when it has the same size there.
    auto follow = [&](size_t k) -> bool {
      const ValueId in = p.input(*n, k);
      if (in == kNoValue) return false;
      const std::span<const Sym> d = a.view(a.dims[in]);
      auto at = aligned(axis, rank, d.size());
      if (!at || !d[*at].is_fixed() || d[*at].v != c) return false;
      v = in;
      axis = *at;
      return true;
    };
    switch (rule) {
      case DimRule::ConstantOfShape:
        return n;
      case DimRule::Reshape: {
        auto target = p.argument_ints(*n, 1, "shape", 5);
        if (!target || target->size() != rank) return nullptr;
        if ((*target)[axis] == c) return n;
        if ((*target)[axis] == 0 && follow(0)) continue;  // 0 copies the input's dim
        return nullptr;
      }
      case DimRule::Expand: {
        if (follow(0)) continue;
        auto shape = p.argument_ints(*n, 1);
        auto at = shape ? aligned(axis, rank, shape->size()) : std::nullopt;
        return at && (*shape)[*at] == c ? n : nullptr;
      }
      case DimRule::Tile: {
        auto reps = p.argument_ints(*n, 1);
        if (reps && axis < reps->size() && (*reps)[axis] > 1) return n;
        if (follow(0)) continue;
        return nullptr;
      }
      case DimRule::Resize:
      case DimRule::Upsample: {
        auto sizes = p.argument_ints(*n, 3, "", 11);
        return sizes && axis < sizes->size() && (*sizes)[axis] == c ? n : nullptr;
      }
      case DimRule::Split: {
        auto sizes = p.argument_ints(*n, 1, "split", 13);
        const ValueId in = p.input(*n, 0);
        if (in == kNoValue) return nullptr;
        const auto in_rank = static_cast<int64_t>(a.view(a.dims[in]).size());
        int64_t split_axis = n->attr_int("axis").value_or(0);
        if (split_axis < 0) split_axis += in_rank;
        if (static_cast<int64_t>(axis) != split_axis) {
          if (follow(0)) continue;
          return nullptr;
        }
        for (size_t k = 0; sizes && k < n->outputs().size() && k < sizes->size(); ++k) {
          if (p.output(*n, k) == v && (*sizes)[k] == c) return n;
        }
        return nullptr;
      }
      default:
        break;
    }
    if (!copies_dims(rule)) return nullptr;
    bool followed = false;
    for (size_t k = 0; k < n->input_count() && !followed; ++k) followed = follow(k);
    if (!followed) return nullptr;
  }
  return nullptr;
}

}  // namespace onnxlint
