// The provenance analysis's lattice and dim algebra: interned input-dim names and sets of them,
// the arena of interned dim vectors, integer arithmetic as ONNX computes it, interned symbolic
// expressions with their canonical forms and identities (derive), their rendering, and the
// join of two dim vectors. The dataflow pass (provenance.cc) and the per-op transfers
// (provenance_dims.cc) build on it; DimPins (dim_pins.cc) evaluates its expressions.
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/provenance.h>

#include <algorithm>

#include "analysis/provenance_internal.h"
#include "util/checked_math.h"

namespace onnxlint {
// ---------------------------------------------------------------------------------------------
// Interned dim names and sets

uint32_t Provenance::Impl::name_id(const std::string& name) {
  auto [it, inserted] = name_ids.try_emplace(name, static_cast<uint32_t>(names.size()));
  if (inserted) names.push_back(name);
  return it->second;
}

uint32_t Provenance::Impl::intern_set(std::vector<uint32_t> v) {
  auto [it, inserted] = set_ids.try_emplace(v, static_cast<uint32_t>(sets.size()));
  if (inserted) sets.push_back(std::move(v));
  return it->second;
}

uint32_t Provenance::Impl::single_set(uint32_t name) { return intern_set({name}); }

uint32_t Provenance::Impl::join_sets(uint32_t x, uint32_t y) {
  if (x == y || y == 0) return x;
  if (x == 0) return y;
  if (x > y) std::swap(x, y);
  uint64_t key = (uint64_t{x} << 32) | y;
  if (auto it = join_cache.find(key); it != join_cache.end()) return it->second;
  // Sorted ids, and the marker (the largest id) last when either side lost names. At most
  // kMaxSetNames names are kept, the first met: a Concat of 50 000 inputs, each with a dim of
  // its own, must not build sets of 1, 2, ..., 50 000 names.
  std::vector<uint32_t> u;
  u.reserve(std::min(sets[x].size() + sets[y].size(), kMaxSetNames + 1));
  auto xi = sets[x].begin(), yi = sets[y].begin();
  const auto xe = sets[x].end(), ye = sets[y].end();
  bool more = false;
  while ((xi != xe || yi != ye) && u.size() < kMaxSetNames) {
    uint32_t next;
    if (yi == ye || (xi != xe && *xi < *yi)) {
      next = *xi++;
    } else if (xi == xe || *yi < *xi) {
      next = *yi++;
    } else {
      next = *xi++;
      ++yi;
    }
    if (next == kMoreNames) {
      more = true;
      break;
    }
    u.push_back(next);
  }
  if (more || xi != xe || yi != ye) u.push_back(kMoreNames);
  const uint32_t id = intern_set(std::move(u));
  join_cache.emplace(key, id);
  return id;
}

std::vector<std::string_view> Provenance::Impl::set_names(uint32_t set) const {
  std::vector<std::string_view> out;
  bool more = false;
  for (uint32_t id : sets[set]) {
    if (id == kMoreNames) {
      more = true;
    } else {
      out.push_back(names[id]);
    }
  }
  std::sort(out.begin(), out.end());
  if (more) out.push_back(kMoreNamesText);
  return out;
}

// "f(H, W)": an expression shown as a function of the input dims it reads, each name capped.
std::string Provenance::Impl::render_f(uint32_t set) const {
  std::vector<std::string> shown;
  for (std::string_view name : set_names(set)) shown.push_back(capped(name));
  return fmt::format("f({})", fmt::join(shown, ", "));
}

// ---------------------------------------------------------------------------------------------
// Arena of dims / small integer vectors

ArenaRef Provenance::Impl::push(std::span<const Sym> syms) {
  // Dims of a rank above the loader's limit (an Unsqueeze of 100 000 axes) are not followed:
  // the rank is unknown. Integer vectors are shorter than this anyway (kMaxSvec).
  if (syms.size() > kMaxRank) return ArenaRef{};
  // Reuse an identical vector (every field equal, not just Sym::operator==).
  auto identical = [](const Sym& a, const Sym& b) {
    return a.v == b.v && a.set == b.set && a.kind == b.kind && a.lo == b.lo;
  };
  uint64_t h = 0x9E3779B97F4A7C15ull * (syms.size() + 1);
  for (const Sym& s : syms) {
    h = (h ^ static_cast<uint64_t>(s.v)) * 0x100000001B3ull;
    h = (h ^ (uint64_t{s.lo} << 40 | uint64_t{s.set} << 8 | s.kind)) * 0x100000001B3ull;
  }
  h = seeded_mix(h);
  auto [it, added] = interned.try_emplace(h);
  if (!added) {
    std::span<const Sym> old = view(it->second);
    if (std::equal(old.begin(), old.end(), syms.begin(), syms.end(), identical)) return it->second;
  }
  ArenaRef r{static_cast<uint32_t>(spans.size())};
  spans.push_back(
      ArenaSpan{static_cast<uint32_t>(arena.size()), static_cast<int32_t>(syms.size())});
  arena.insert(arena.end(), syms.begin(), syms.end());
  if (added) it->second = r;  // on a hash collision the first vector keeps the slot
  return r;
}

bool Provenance::Impl::same(ArenaRef x, ArenaRef y) const {
  if (x.id == y.id) return true;
  if (n_of(x) != n_of(y)) return false;
  if (n_of(x) < 0) return true;
  auto a = view(x), b = view(y);
  return std::equal(a.begin(), a.end(), b.begin());
}

namespace {
uint64_t sym_key(const Sym& s) {
  return (static_cast<uint64_t>(s.v) * 0x9E3779B97F4A7C15ull) ^ (uint64_t{s.set} << 8 | s.kind);
}

}  // namespace

// Integer arithmetic as ONNX computes it (Div truncates, Mod takes the divisor's sign), with no
// answer where it would overflow or divide by zero: a hostile model must not make the analysis
// claim a number, nor make it run into undefined behaviour.
std::optional<int64_t> fixed_arith(SymOp op, int64_t p, int64_t q) {
  switch (op) {
    case SymOp::kAdd:
      return checked_add(p, q);
    case SymOp::kSub:
      return checked_sub(p, q);
    case SymOp::kMul:
      return checked_mul(p, q);
    case SymOp::kDiv:
      return checked_div(p, q);
    case SymOp::kCeilDiv:
      return checked_ceil_div(p, q);
    case SymOp::kMod:
      return checked_mod(p, q);
    case SymOp::kMax:
      return std::max(p, q);
    case SymOp::kMin:
      return std::min(p, q);
    case SymOp::kF:
      break;
  }
  return std::nullopt;
}

bool Provenance::Impl::never_negative(const Sym& s) const {
  if (s.is_fixed()) return s.v >= 0;
  if (s.kind != Sym::kSymbolic) return false;
  if (s.v == 0) return true;
  const SymExpr& e = exprs[static_cast<size_t>(s.v)];  // operands are older: recursion ends
  if (e.opaque) return false;
  switch (e.op) {
    case SymOp::kAdd:
    case SymOp::kMul:
    case SymOp::kMin:
    case SymOp::kMax:
      return never_negative(e.a) && never_negative(e.b);
    case SymOp::kDiv:
    case SymOp::kCeilDiv:
      return never_negative(e.a) && e.b.is_fixed() && e.b.v > 0;
    default:
      return false;
  }
}

std::optional<Sym> Provenance::Impl::negated(const Sym& s) const {
  if (s.kind != Sym::kSymbolic || s.v == 0) return std::nullopt;
  const SymExpr& e = exprs[static_cast<size_t>(s.v)];
  if (e.opaque) return std::nullopt;
  if (e.op == SymOp::kSub && e.a.is_fixed() && e.a.v == 0) return e.b;
  if (e.op == SymOp::kMul && e.b.is_fixed() && e.b.v == -1) return e.a;
  return std::nullopt;
}

Sym Provenance::Impl::derive(const Sym& x, const Sym& y, SymOp op) {
  if (x.kind == Sym::kUnknown || y.kind == Sym::kUnknown) {
    // Lower bounds survive sums and products of operands that are both at least 1 (a bound
    // of 0 claims nothing: an element may be negative).
    const int64_t a = x.lower(), b = y.lower();
    if (a >= 1 && b >= 1 && (op == SymOp::kAdd || op == SymOp::kMul)) {
      if (auto bound = fixed_arith(op, a, b)) return Sym::at_least(*bound);
    }
    return Sym::unknown();
  }
  // A value computed from data is data; the origin that comes first stays.
  if (x.kind == Sym::kData) return Sym::data(x.set);
  if (y.kind == Sym::kData) return Sym::data(y.set);
  if (x.is_fixed() && y.is_fixed()) {
    auto r = fixed_arith(op, x.v, y.v);
    return r ? Sym::fixed(*r) : Sym::unknown();
  }
  uint32_t set =
      join_sets(x.kind == Sym::kSymbolic ? x.set : 0, y.kind == Sym::kSymbolic ? y.set : 0);
  if (set == 0) return Sym::unknown();
  Sym a = x, b = y;
  const bool commutative = op == SymOp::kF || op == SymOp::kAdd || op == SymOp::kMul ||
                           op == SymOp::kMax || op == SymOp::kMin;
  // Canonical form: a constant operand of a commutative op goes right (x+1, 2*x), and
  // constants fold into it: (x+1)+2 = x+3, 2*(3*x) = 6*x, (6*x)/3 = 2*x, x*1 = x, x+0 = x.
  if (commutative && a.is_fixed()) std::swap(a, b);
  if (commutative && !b.is_fixed() && sym_key(b) < sym_key(a)) std::swap(a, b);
  if (b.is_fixed()) {
    if ((op == SymOp::kAdd || op == SymOp::kSub) && b.v == 0) return a;
    if ((op == SymOp::kMul || op == SymOp::kDiv || op == SymOp::kCeilDiv) && b.v == 1) return a;
    if (op == SymOp::kSub) {
      auto neg = fixed_arith(SymOp::kSub, 0, b.v);
      return neg ? derive(a, Sym::fixed(*neg), SymOp::kAdd) : Sym::unknown();
    }
    const SymExpr* inner =
        a.kind == Sym::kSymbolic && a.v != 0 ? &exprs[static_cast<size_t>(a.v)] : nullptr;
    if (inner != nullptr && inner->b.is_fixed() && !inner->a.is_fixed()) {
      const Sym base = inner->a;
      const int64_t c = inner->b.v;
      if ((op == SymOp::kAdd || op == SymOp::kMul) && inner->op == op) {
        auto folded = fixed_arith(op, c, b.v);
        return folded ? derive(base, Sym::fixed(*folded), op) : Sym::unknown();
      }
      if (op == SymOp::kDiv && inner->op == SymOp::kMul && b.v > 0 &&
          checked_mod(c, b.v) == int64_t{0}) {
        if (auto q = checked_div(c, b.v)) return derive(base, Sym::fixed(*q), SymOp::kMul);
      }
    }
  }
  // Identities exporters' shape arithmetic meets: min(x, x) = max(x, x) = x, (p + q) - p = q,
  // and max(x, 0) = x for x never negative.
  if ((op == SymOp::kMin || op == SymOp::kMax) && a == b && a.v == b.v) return a;
  if (op == SymOp::kMax && b.is_fixed() && b.v == 0 && never_negative(a)) return a;
  // min(x, x+q) = x and max(x, x+q) = x+q for q never negative (min(seq, seq+past)).
  if ((op == SymOp::kMin || op == SymOp::kMax) && a.kind == Sym::kSymbolic &&
      b.kind == Sym::kSymbolic) {
    auto grows = [&](const Sym& x, const Sym& sum) {  // sum = x + q, q >= 0
      if (sum.v == 0) return false;
      const SymExpr& e = exprs[static_cast<size_t>(sum.v)];
      if (e.op != SymOp::kAdd || e.opaque) return false;
      return (e.a == x && e.a.v == x.v && never_negative(e.b)) ||
             (e.b == x && e.b.v == x.v && never_negative(e.a));
    };
    if (grows(a, b)) return op == SymOp::kMin ? a : b;
    if (grows(b, a)) return op == SymOp::kMin ? b : a;
    // min(x, q) = q and max(x, q) = x for x never negative and q = x/c or (x+k)/c, c >= 1,
    // 0 <= k < c, rounded down or up: q <= x then (x[:, :h // 2] slices h to min(h, h/2),
    // torch.chunk's first piece to min(h, (h+1)/2)).
    auto divides = [&](const Sym& x, const Sym& quotient) {
      if (quotient.v == 0 || !never_negative(x)) return false;
      const SymExpr& e = exprs[static_cast<size_t>(quotient.v)];
      if ((e.op != SymOp::kDiv && e.op != SymOp::kCeilDiv) || e.opaque || !e.b.is_fixed() ||
          e.b.v < 1) {
        return false;
      }
      if (e.a == x && e.a.v == x.v) return true;
      if (e.op != SymOp::kDiv || e.a.kind != Sym::kSymbolic || e.a.v == 0) return false;
      const SymExpr& sum = exprs[static_cast<size_t>(e.a.v)];  // x + k, 0 <= k < c
      return sum.op == SymOp::kAdd && !sum.opaque && sum.a == x && sum.a.v == x.v &&
             sum.b.is_fixed() && sum.b.v >= 0 && sum.b.v < e.b.v;
    };
    if (divides(a, b)) return op == SymOp::kMin ? b : a;
    if (divides(b, a)) return op == SymOp::kMin ? a : b;
  }
  if (op == SymOp::kSub && a.kind == Sym::kSymbolic && a.v != 0 && !b.is_fixed()) {
    const SymExpr& sum = exprs[static_cast<size_t>(a.v)];
    if (sum.op == SymOp::kAdd && !sum.opaque) {
      if (sum.b == b && sum.b.v == b.v) return sum.a;
      if (sum.a == b && sum.a.v == b.v) return sum.b;
    }
  }
  // min(x, c) + max(x-c, 0) = x for every x (x <= c: x + 0; x > c: c + x - c): torch.roll
  // and shifted windows concatenate the two slices x[-c:] and x[:-c].
  if (op == SymOp::kAdd && a.kind == Sym::kSymbolic && b.kind == Sym::kSymbolic && a.v != 0 &&
      b.v != 0) {
    auto split_of = [&](const Sym& lo, const Sym& hi) -> std::optional<Sym> {
      const SymExpr& m = exprs[static_cast<size_t>(lo.v)];
      const SymExpr& r = exprs[static_cast<size_t>(hi.v)];
      if (m.op != SymOp::kMin || !m.b.is_fixed() || r.op != SymOp::kMax || !r.b.is_fixed() ||
          r.b.v != 0 || r.a.kind != Sym::kSymbolic || r.a.v == 0) {
        return std::nullopt;
      }
      const SymExpr& diff = exprs[static_cast<size_t>(r.a.v)];
      auto neg = fixed_arith(SymOp::kSub, 0, m.b.v);
      if (diff.op != SymOp::kAdd || !diff.b.is_fixed() || !neg || diff.b.v != *neg ||
          !(diff.a == m.a) || diff.a.v != m.a.v) {
        return std::nullopt;
      }
      return m.a;
    };
    if (auto x = split_of(a, b)) return *x;
    if (auto x = split_of(b, a)) return *x;
  }
  uint64_t h =
      seeded_mix((sym_key(a) * 31 + sym_key(b)) * 0x100000001B3ull + static_cast<uint8_t>(op));
  for (;; ++h) {  // open addressing over the 64-bit key space on a (rare) collision
    auto [it, added] = expr_ids.try_emplace(h, static_cast<uint32_t>(exprs.size()));
    if (added) {
      // Sizes add up (s = Add(s, s) doubles them): past kMaxExprLeaves the expression is
      // opaque, and so is everything computed from it, which keeps every rendering (and the
      // renderer's recursion) within kMaxExprLeaves leaves.
      SymExpr e{op, a, b};
      const uint64_t leaves = uint64_t{leaves_of(a)} + leaves_of(b);
      e.opaque = opaque(a) || opaque(b) || leaves > kMaxExprLeaves;
      e.leaves = op == SymOp::kF || e.opaque ? 1 : static_cast<uint32_t>(leaves);
      exprs.push_back(e);
      break;
    }
    const SymExpr& e = exprs[it->second];
    if (e.op == op && e.a == a && e.b == b && e.a.v == a.v && e.b.v == b.v) break;
  }
  return Sym{static_cast<int64_t>(expr_ids[h]), set, Sym::kSymbolic};
}

namespace {
// Binding strength of an operator in rendered expressions: a child binding less tightly than
// its parent is parenthesised.
int precedence(SymOp op) {
  switch (op) {
    case SymOp::kAdd:
    case SymOp::kSub:
      return 1;
    case SymOp::kMul:
    case SymOp::kDiv:
    case SymOp::kMod:
      return 2;
    default:
      return 3;  // function-call forms: max(..), ceil(..), f(..)
  }
}
}  // namespace

std::string Provenance::Impl::render_sym(const Sym& s) const {
  switch (s.kind) {
    case Sym::kFixed:
      return std::to_string(s.v);
    case Sym::kUnknown:
      return "?";
    case Sym::kData:
      return "data";
    case Sym::kSymbolic:
      break;
  }
  if (s.v == 0) {
    const auto& members = sets[s.set];
    // A dim name is echoed by every expression naming it: capped (escape.h), or a 100 KB name
    // costs 100 KB per finding, note and output before any report caps it.
    return members.size() == 1 && members[0] != kMoreNames ? capped(names[members[0]]) : "?";
  }
  const SymExpr& e = exprs[static_cast<size_t>(s.v)];
  // An opaque expression renders as a function of its names, as kF does (below); the others
  // have at most kMaxExprLeaves leaves, which bounds this recursion.
  if (e.opaque) return render_f(s.set);
  const int prec = precedence(e.op);
  // `right`: the right operand of a non-associative operator (a-(b+c), a/(b*c)).
  auto operand = [&](const Sym& x, bool right) {
    std::string r = render_sym(x);
    if (x.kind != Sym::kSymbolic || x.v == 0) return r;
    const int child = precedence(exprs[static_cast<size_t>(x.v)].op);
    return child < prec || (right && child == prec) ? "(" + r + ")" : r;
  };
  switch (e.op) {
    case SymOp::kAdd:
      if (e.b.is_fixed() && e.b.v < 0) return operand(e.a, false) + "-" + std::to_string(-e.b.v);
      return operand(e.a, false) + "+" + operand(e.b, false);
    case SymOp::kSub:
      return operand(e.a, false) + "-" + operand(e.b, true);
    case SymOp::kMul:
      if (e.b.is_fixed()) return std::to_string(e.b.v) + "*" + operand(e.a, false);
      return operand(e.a, false) + "*" + operand(e.b, false);
    case SymOp::kDiv:
      return operand(e.a, false) + "/" + operand(e.b, true);
    case SymOp::kMod:
      return operand(e.a, false) + "%" + operand(e.b, true);
    case SymOp::kCeilDiv:
      return "ceil(" + render_sym(e.a) + "/" + render_sym(e.b) + ")";
    case SymOp::kMax:
      return "max(" + render_sym(e.a) + ", " + render_sym(e.b) + ")";
    case SymOp::kMin:
      return "min(" + render_sym(e.a) + ", " + render_sym(e.b) + ")";
    case SymOp::kF:
      break;
  }
  return render_f(s.set);
}

uint32_t Provenance::Impl::append_terms(const Sym& s, std::vector<DimTerm>& out) const {
  DimTerm t;
  if (s.kind == Sym::kFixed) {
    t.op = DimTerm::Op::Constant;
    t.value = s.v;
  } else if (s.kind == Sym::kSymbolic && s.v == 0) {
    const auto& members = sets[s.set];
    if (members.size() == 1 && members[0] != kMoreNames) {
      t.op = DimTerm::Op::Input;
      t.name = names[members[0]];
    }
  } else if (s.kind == Sym::kSymbolic) {
    // At most kMaxExprLeaves leaves (else opaque), which bounds this recursion as render_sym's.
    const SymExpr& e = exprs[static_cast<size_t>(s.v)];
    static constexpr DimTerm::Op kOps[] = {
        DimTerm::Op::Opaque, DimTerm::Op::Add, DimTerm::Op::Sub,
        DimTerm::Op::Mul,    DimTerm::Op::Div, DimTerm::Op::Mod,
        DimTerm::Op::Max,    DimTerm::Op::Min, DimTerm::Op::CeilDiv};
    if (!e.opaque && e.op != SymOp::kF) {
      t.op = kOps[static_cast<size_t>(e.op)];
      t.lhs = append_terms(e.a, out);
      t.rhs = append_terms(e.b, out);
    }
  }
  out.push_back(t);
  return static_cast<uint32_t>(out.size() - 1);
}

ArenaRef Provenance::Impl::merge(ArenaRef x, ArenaRef y, bool& varies) {
  const int32_t n = n_of(x);
  if (n < 0 || n_of(y) < 0) return ArenaRef{};
  if (n != n_of(y)) {
    varies = true;
    return ArenaRef{};
  }
  if (same(x, y)) return x;
  const std::span<const Sym> xs = view(x), ys = view(y);
  std::vector<Sym> out(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) {
    Sym p = xs[i], q = ys[i];
    if (p == q) {
      out[i] = p;
    } else {
      // Not provably the same dim: it may differ between branches or iterations. What both
      // are at least, it is at least.
      if (p.kind != Sym::kUnknown && q.kind != Sym::kUnknown) varies = true;
      out[i] = Sym::at_least(std::min(p.lower(), q.lower()));
    }
  }
  return push(out);
}

}  // namespace onnxlint
