// Per-dimension facts for the provenance pass: output dims (fixed, symbolic, unknown) and the
// elements of small integer vectors for the common ops of exported models. Anything not
// modelled here leaves the output dims unknown, and the class-level rules decide alone; a fact
// given here is exact for a valid model, because it lowers classes (input-dim-dependent to
// static) and names the dims a shape depends on.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "analysis/ops/registry.h"
#include "analysis/provenance_internal.h"
#include "util/checked_math.h"

namespace onnxlint {

namespace {

using K = ops::DimRule;  // the registry entry names the transfer (OpEntry::dims)

const std::span<const int64_t>* ints_attr(const Node& n, std::string_view name) {
  const Attribute* a = n.attribute(name);
  if (a == nullptr || a->type != Attribute::Type::Ints) return nullptr;
  return &a->ints;
}

/// A dim computed from fixed numbers: fixed when the arithmetic did not overflow (see
/// util/checked_math.h), else unknown, never a wrapped number.
Sym fixed_or_unknown(CheckedInt v) { return v ? Sym::fixed(*v) : Sym::unknown(); }

// The inference of one node.
struct Infer {
  Provenance::Impl& a;
  const Node& n;
  const GraphSlot& s;
  std::span<const uint32_t> ins;
  int64_t opset;

  uint32_t in(size_t i) const { return i < ins.size() ? ins[i] : kNoValue; }
  bool has(size_t i) const { return in(i) != kNoValue; }
  // Dims of input i; nullopt when the rank is unknown (or the input is absent).
  std::optional<std::vector<Sym>> dims(size_t i) const {
    uint32_t v = in(i);
    if (v == kNoValue || a.n_of(a.dims[v]) < 0) return std::nullopt;
    auto d = a.view(a.dims[v]);
    return std::vector<Sym>(d.begin(), d.end());
  }
  std::optional<std::vector<Sym>> elems(size_t i) const {
    uint32_t v = in(i);
    if (v == kNoValue) return std::nullopt;
    if (a.n_of(a.svec[v]) < 0) {
      // Contents not followed, but computed from runtime data and of known small length (a
      // Slice start from ArgMax, a Reshape target from a graph input): every element is data,
      // so the dims it sets are data and the others stay known.
      if (a.value[v].level != kData) return std::nullopt;
      auto d = a.view(a.dims[v]);
      if (a.n_of(a.dims[v]) < 0 || d.size() > 1) return std::nullopt;
      int64_t len = d.empty() ? 1 : (d[0].is_fixed() ? d[0].v : -1);
      if (len < 0 || len > static_cast<int64_t>(Provenance::Impl::kMaxSvec)) return std::nullopt;
      return std::vector<Sym>(static_cast<size_t>(len), Sym::data(a.value[v].origin));
    }
    auto d = a.view(a.svec[v]);
    return std::vector<Sym>(d.begin(), d.end());
  }
  /// The elements of input i, or, when they are not followed but the input is a 1-D vector of
  /// known length, that many unknown elements: the rank of what it shapes is still known.
  std::optional<std::vector<Sym>> elems_or_length(size_t i) const {
    if (auto e = elems(i)) return e;
    auto d = dims(i);
    if (!d || d->size() != 1 || !(*d)[0].is_fixed() || (*d)[0].v < 0 || (*d)[0].v > 64) {
      return std::nullopt;
    }
    return std::vector<Sym>(static_cast<size_t>((*d)[0].v), Sym::unknown());
  }
  // Fixed integer elements of input i.
  std::optional<std::vector<int64_t>> ints(size_t i) const {
    auto e = elems(i);
    if (!e) return std::nullopt;
    std::vector<int64_t> out;
    for (const Sym& x : *e) {
      if (!x.is_fixed()) return std::nullopt;
      out.push_back(x.v);
    }
    return out;
  }
  int64_t attr(std::string_view name, int64_t fallback) const {
    return n.attr_int(name).value_or(fallback);
  }
  void set_dims(size_t k, const std::vector<Sym>& d) {
    uint32_t id = a.out_id(s, n, k);
    if (id == kNoValue) return;
    // Most outputs have the dims of an input (Add(x, bias), Relu...): share its range.
    for (uint32_t v : ins) {
      if (v == kNoValue || a.n_of(a.dims[v]) != static_cast<int32_t>(d.size())) continue;
      auto have = a.view(a.dims[v]);
      if (std::equal(have.begin(), have.end(), d.begin())) {
        a.dims[id] = a.dims[v];
        return;
      }
    }
    a.dims[id] = a.push(d);
  }
  void set_elems(size_t k, const std::vector<Sym>& e) {
    if (e.size() > Provenance::Impl::kMaxSvec) return;
    uint32_t id = a.out_id(s, n, k);
    if (id != kNoValue) a.svec[id] = a.push(e);
  }
  /// A small integer tensor of any rank whose dims are all fixed and whose elements (row-major)
  /// are followed: its dims and elements. torch builds F.pad's `pads` as a [rank, 2] matrix
  /// that it reverses (Slice with step -1) and transposes before flattening it.
  struct SmallTensor {
    std::vector<int64_t> dims;
    std::vector<Sym> elems;
  };
  std::optional<SmallTensor> small_tensor(size_t i) const {
    const uint32_t v = in(i);
    if (v == kNoValue || a.n_of(a.svec[v]) < 0) return std::nullopt;
    auto d = dims(i);
    if (!d) return std::nullopt;
    SmallTensor t;
    int64_t count = 1;
    for (const Sym& x : *d) {
      if (!x.is_fixed() || x.v < 0 || x.v > static_cast<int64_t>(Provenance::Impl::kMaxSvec)) {
        return std::nullopt;
      }
      t.dims.push_back(x.v);
      count *= x.v;  // at most kMaxSvec^rank, and the elements bound it below
      if (count > static_cast<int64_t>(Provenance::Impl::kMaxSvec)) return std::nullopt;
    }
    auto e = a.view(a.svec[v]);
    if (static_cast<int64_t>(e.size()) != count) return std::nullopt;
    t.elems.assign(e.begin(), e.end());
    return t;
  }
  /// The elements of `t` read at every combination of positions, row-major over the output:
  /// output axis i walks `positions[i]` along source axis `source[i]` (Slice keeps each axis
  /// and some of its positions; Transpose permutes the axes and keeps every position).
  static std::vector<Sym> gather_positions(const SmallTensor& t,
                                           const std::vector<std::vector<int64_t>>& positions,
                                           const std::vector<size_t>& source) {
    std::vector<int64_t> stride(t.dims.size(), 1);  // row-major strides of the source
    for (size_t i = t.dims.size() - 1; i > 0; --i) stride[i - 1] = stride[i] * t.dims[i];
    std::vector<Sym> out;
    for (const auto& p : positions) {
      if (p.empty()) return out;
    }
    std::vector<size_t> at(positions.size(), 0);  // odometer over the output
    while (true) {
      int64_t flat = 0;
      for (size_t i = 0; i < at.size(); ++i) flat += positions[i][at[i]] * stride[source[i]];
      out.push_back(t.elems[static_cast<size_t>(flat)]);
      size_t i = at.size();
      while (i > 0 && ++at[i - 1] == positions[i - 1].size()) at[--i] = 0;
      if (i == 0) return out;
    }
  }
  Sym derive(const Sym& x, const Sym& y, SymOp op = SymOp::kF) { return a.derive(x, y, op); }
  /// max(x, 0), or x itself when x is an input dim (never negative).
  Sym at_least_zero(const Sym& x) { return derive(x, Sym::fixed(0), SymOp::kMax); }
  /// The length of x[s:e:k] along a symbolic dim `dim` for fixed bounds, as an exact
  /// expression: ONNX adds the dim to negative bounds and clamps them to [0, N] (k > 0) or
  /// [-1, N-1] (k < 0). The forms exporters write are closed: x[-5:] is min(N, 5), x[1:] is
  /// max(N-1, 0), x[:e] is min(N, e), x[::2] is ceil(N/2), x.flip(1) is N. nullopt otherwise.
  std::optional<Sym> symbolic_slice_len(const Sym& dim, const Sym& st, const Sym& en, int64_t k) {
    // A bound this far out lies past any real dim ("to the end", torch's INT64_MAX or -MAX).
    constexpr int64_t kFar = std::numeric_limits<int32_t>::max();
    // x[:e] with e computed from dims and never negative (torch.chunk: (N+1)/2): min(N, e).
    if (dim.kind == Sym::kSymbolic && st.is_fixed() && (st.v == 0 || st.v <= -kFar) && k == 1 &&
        en.kind == Sym::kSymbolic && a.never_negative(en)) {
      return derive(dim, en, SymOp::kMin);
    }
    // x[s:] with s computed from dims, never negative (a cache's past length): max(N-s, 0);
    // x[-m:] with m such a dim (the last m positions): min(N, m).
    if (dim.kind == Sym::kSymbolic && st.kind == Sym::kSymbolic && en.is_fixed() && en.v >= kFar &&
        k == 1) {
      if (a.never_negative(st)) {
        return derive(derive(dim, st, SymOp::kSub), Sym::fixed(0), SymOp::kMax);
      }
      if (auto m = a.negated(st); m && a.never_negative(*m)) return derive(dim, *m, SymOp::kMin);
      return std::nullopt;
    }
    if (dim.kind != Sym::kSymbolic || !st.is_fixed() || !en.is_fixed() || k == 0 || k <= -kFar ||
        k >= kFar) {
      return std::nullopt;
    }
    const int64_t s = st.v, e = en.v;
    const Sym num_k = Sym::fixed(k > 0 ? k : -k);
    auto divide = [&](const Sym& x) {
      return k == 1 || k == -1 ? x : derive(x, num_k, SymOp::kCeilDiv);
    };
    if (k > 0) {
      const bool to_end = e >= kFar;
      if (s <= -kFar || s == 0) {
        if (to_end) return divide(dim);                                      // x[::k]
        if (e >= 0) return divide(derive(dim, Sym::fixed(e), SymOp::kMin));  // x[:e:k]
        if (e > -kFar) {                                                     // x[:-c:k]
          return divide(
              derive(derive(dim, Sym::fixed(e), SymOp::kAdd), Sym::fixed(0), SymOp::kMax));
        }
        return std::nullopt;
      }
      if (to_end && s < 0 && k == 1) return derive(dim, Sym::fixed(-s), SymOp::kMin);  // x[-c:]
      if (to_end && s > 0 && s < kFar) {                                               // x[s::k]
        return divide(derive(derive(dim, Sym::fixed(-s), SymOp::kAdd), Sym::fixed(0), SymOp::kMax));
      }
      return std::nullopt;
    }
    // k < 0: from the last element (start -1 or past the end) to before the first.
    if ((s == -1 || s >= kFar) && e <= -kFar) return divide(dim);  // x.flip(axis), x[::-k]
    return std::nullopt;
  }

  // Product of dims: fixed when all are fixed, else derived from the symbolic ones.
  Sym product(std::span<const Sym> ds) {
    int64_t p = 1;
    Sym sym = Sym::fixed(1);
    bool fixed = true;
    for (const Sym& d : ds) {
      if (d.kind == Sym::kUnknown) return Sym::unknown();
      if (d.is_fixed()) {
        auto q = fixed_arith(SymOp::kMul, p, d.v);
        if (!q) return Sym::unknown();
        p = *q;
      } else {
        fixed = false;
        sym = sym.is_fixed() ? d : derive(sym, d, SymOp::kMul);
      }
    }
    if (fixed) return Sym::fixed(p);
    return p == 1 ? sym : derive(Sym::fixed(p), sym, SymOp::kMul);
  }

  Sym broadcast(const Sym& x, const Sym& y) {
    if (x.is_fixed() && x.v == 1) return y;
    if (y.is_fixed() && y.v == 1) return x;
    if (x == y) return x;
    if (x.is_fixed() && y.is_fixed()) return Sym::unknown();  // invalid model
    if (x.is_fixed()) return x;  // the other side must equal it (or be 1)
    if (y.is_fixed()) return y;
    if (x.kind == Sym::kUnknown || y.kind == Sym::kUnknown) return Sym::unknown();
    return derive(x, y);
  }

  std::optional<std::vector<Sym>> broadcast_all(std::span<const size_t> which) {
    std::vector<Sym> out;
    for (size_t i : which) {
      if (!has(i)) continue;
      auto d = dims(i);
      if (!d) return std::nullopt;
      if (d->size() > out.size()) out.insert(out.begin(), d->size() - out.size(), Sym::fixed(1));
      size_t shift = out.size() - d->size();
      for (size_t j = 0; j < d->size(); ++j) out[shift + j] = broadcast(out[shift + j], (*d)[j]);
    }
    return out;
  }

  /// Output 0 gets the multidirectional broadcast of every input's dims.
  void set_broadcast_dims() {
    std::vector<size_t> all(ins.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    if (auto d = broadcast_all(all)) set_dims(0, *d);
  }
  /// The elements of every input for element-wise shape arithmetic, and in `len` the length
  /// they broadcast to (scalars repeat). Empty when an input's elements are not known or the
  /// lengths do not broadcast.
  std::vector<std::vector<Sym>> broadcast_elems(size_t& len) const {
    std::vector<std::vector<Sym>> es;
    len = 1;
    for (size_t i = 0; i < ins.size(); ++i) {
      auto e = elems(i);
      if (!e || e->empty()) return {};
      if (e->size() != 1) {
        if (len != 1 && len != e->size()) return {};
        len = e->size();
      }
      es.push_back(std::move(*e));
    }
    return es;
  }

  static bool norm_axis(int64_t& ax, int64_t rank) {
    if (ax < 0) ax += rank;
    return ax >= 0 && ax < rank;
  }

  void run(K kind);
  void unary();
  void arith();
  void matmul();
  void gemm();
  void transpose();
  void unsqueeze();
  void squeeze();
  void flatten();
  void reshape();
  void expand();
  void tile();
  void concat();
  void gather();
  void slice();
  void split();
  void shape_op();
  void size_op();
  void constant();
  void constant_of_shape();
  void range();
  void conv(bool pool);
  void global_pool();
  void reduce(bool arg);
  void rnn();
  void topk();
  void one_hot();
  void pad();
  void resize(bool upsample);
  std::optional<std::vector<double>> floats_of(size_t i);
  void elementwise(std::string_view op);
  void where();
  void non_zero();
  void compress();
  void unique();
  void nms();
  void sequence(K kind);
  void split_to_sequence();
  void concat_from_sequence();
  void dft();
  void optional(K kind);
  /// The elements of a Cast's (or CastLike's) output: the input's, when the target type holds
  /// them unchanged (integers in range; bool as 0/1); none for floating-point targets, where
  /// later arithmetic is not integer arithmetic, and for CastLike, whose type is not known here.
  ArenaRef cast_elems() {
    if (n.op_type() != "Cast" || !has(0)) return ArenaRef{};
    auto e = elems(0);
    if (!e || a.n_of(a.svec[in(0)]) < 0) return ArenaRef{};
    const int64_t to = attr("to", 0);
    int64_t lo = 0, hi = 0;
    if (to < 0 || to > INT32_MAX) return ArenaRef{};
    switch (static_cast<DataType>(to)) {
      case DataType::Uint8:
        lo = 0, hi = 255;
        break;
      case DataType::Int8:
        lo = -128, hi = 127;
        break;
      case DataType::Uint16:
        lo = 0, hi = 65535;
        break;
      case DataType::Int16:
        lo = -32768, hi = 32767;
        break;
      case DataType::Int32:
        lo = INT32_MIN, hi = INT32_MAX;
        break;
      case DataType::Int64:
        lo = INT64_MIN, hi = INT64_MAX;
        break;
      case DataType::Uint32:
        lo = 0, hi = UINT32_MAX;
        break;
      case DataType::Uint64:
        lo = 0, hi = INT64_MAX;
        break;
      case DataType::Bool:
        break;
      default:
        return ArenaRef{};
    }
    for (Sym& x : *e) {
      if (!x.is_fixed()) {
        if (to == DataType::Bool && x.kind != Sym::kData) x = Sym::unknown();  // a bool is no dim
        continue;
      }
      if (to == DataType::Bool) {
        x = Sym::fixed(x.v != 0 ? 1 : 0);
      } else if (x.v < lo || x.v > hi) {
        x = Sym::unknown();
      }
    }
    return a.push(*e);
  }
  void gather_nd();
  void space_depth(bool to_space);
  void conv_transpose();
  void max_unpool();
  uint32_t here() const { return s.node_base + n.index(); }
  /// True when the value of input i is the same for every run (constant class): the count of a
  /// NonZero over it is then a fixed number, even if not one the analysis knows.
  bool constant_value(size_t i) const { return has(i) && a.value[in(i)].level == kStatic; }
  /// A dim set by the values of `inputs`: data unless they are all constant, then unknown (a
  /// fixed number the analysis does not compute).
  Sym count_of(std::initializer_list<size_t> inputs, int64_t bound) const {
    for (size_t i : inputs) {
      if (has(i) && !constant_value(i)) return Sym::data(here(), bound);
    }
    return Sym::unknown();
  }
  /// Number of elements of input i when every dim is fixed, else -1.
  int64_t fixed_numel(size_t i) const {
    auto d = dims(i);
    if (!d) return -1;
    CheckedInt p = 1;
    for (const Sym& x : *d) {
      if (!x.is_fixed() || x.v < 0) return -1;
      p = checked_mul(p, CheckedInt(x.v));
    }
    return p.value_or(-1);
  }
};

void Infer::run(K kind) {
  switch (kind) {
    case K::Unary:
      unary();
      break;
    case K::Passthru:
      // Same dims and elements: share the input's arena ranges. A Cast keeps the elements only
      // where it keeps their values (see cast_elems).
      if (uint32_t id = a.out_id(s, n, 0); id != kNoValue && has(0)) {
        a.dims[id] = a.dims[in(0)];
        a.svec[id] = n.op_type() == "Identity" ? a.svec[in(0)] : cast_elems();
        a.set_seq_len(id, a.seq_len_of(in(0)));
        a.set_seq_elem(id, a.seq_elem_of(in(0)));
      }
      break;
    case K::Neg:
      unary();
      if (auto e = elems(0)) {
        // Every element changes sign: a symbolic one becomes 0-x (it used to stay x, a wrong
        // fact), a data element keeps its origin but not its upper bound, an unknown one loses
        // its lower bound.
        for (Sym& x : *e) {
          if (x.is_fixed() || x.kind == Sym::kSymbolic) {
            x = derive(Sym::fixed(0), x, SymOp::kSub);
          } else if (x.kind == Sym::kData) {
            x = Sym::data(x.set);
          } else {
            x = Sym::unknown();
          }
        }
        set_elems(0, *e);
      }
      break;
    case K::Broadcast: {
      set_broadcast_dims();
      break;
    }
    case K::Arith:
      arith();
      break;
    case K::MatMul:
      matmul();
      break;
    case K::Gemm:
      gemm();
      break;
    case K::Transpose:
      transpose();
      break;
    case K::Unsqueeze:
      unsqueeze();
      break;
    case K::Squeeze:
      squeeze();
      break;
    case K::Flatten:
      flatten();
      break;
    case K::Reshape:
      reshape();
      break;
    case K::Expand:
      expand();
      break;
    case K::Tile:
      tile();
      break;
    case K::Concat:
      concat();
      break;
    case K::Gather:
      gather();
      break;
    case K::GatherElements:
      if (auto d = dims(1)) set_dims(0, *d);
      break;
    case K::Slice:
      slice();
      break;
    case K::Split:
      split();
      break;
    case K::Shape:
      shape_op();
      break;
    case K::Size:
      size_op();
      break;
    case K::Constant:
      constant();
      break;
    case K::ConstantOfShape:
      constant_of_shape();
      break;
    case K::Range:
      range();
      break;
    case K::Conv:
      conv(false);
      break;
    case K::Pool:
      conv(true);
      break;
    case K::GlobalPool:
      global_pool();
      break;
    case K::Reduce:
      reduce(false);
      break;
    case K::ArgReduce:
      reduce(true);
      break;
    case K::Rnn:
      rnn();
      break;
    case K::TopK:
      topk();
      break;
    case K::OneHot:
      one_hot();
      break;
    case K::Pad:
      pad();
      break;
    case K::Resize:
      resize(false);
      break;
    case K::Upsample:
      resize(true);
      break;
    case K::Compare:
    case K::Logic: {
      set_broadcast_dims();
      elementwise(n.op_type());
      break;
    }
    case K::Where:
      where();
      break;
    case K::NonZero:
      non_zero();
      break;
    case K::Compress:
      compress();
      break;
    case K::Unique:
      unique();
      break;
    case K::Nms:
      nms();
      break;
    case K::SequenceEmpty:
    case K::SequenceConstruct:
    case K::SequenceInsert:
    case K::SequenceErase:
    case K::SequenceLength:
    case K::SequenceAt:
    case K::ConcatFromSequence:
      sequence(kind);
      break;
    case K::Dft:
      dft();
      break;
    case K::Optional:
    case K::OptionalGetElement:
    case K::OptionalHasElement:
      optional(kind);
      break;
    case K::TfIdf: {
      auto d = dims(0);
      const auto* idx = ints_attr(n, "ngram_indexes");
      if (!d || idx == nullptr || idx->empty() || d->empty() || d->size() > 2) return;
      const Sym width =
          fixed_or_unknown(checked_add(*std::max_element(idx->begin(), idx->end()), 1));
      set_dims(0, d->size() == 1 ? std::vector<Sym>{width} : std::vector<Sym>{(*d)[0], width});
      break;
    }
    case K::StringNormalizer: {
      auto d = dims(0);
      if (!d || d->empty()) return;
      // Stopwords drop elements: the last dim is then only known at run time.
      const Attribute* stop = n.attribute("stopwords");
      std::vector<Sym> out = *d;
      if (stop != nullptr && !stop->strings.empty()) {
        out.back() = count_of({0}, out.back().is_fixed() ? out.back().v : -1);
      }
      set_dims(0, out);
      break;
    }
    case K::SplitToSequence:
      split_to_sequence();
      break;
    case K::GatherND:
      gather_nd();
      break;
    case K::DepthToSpace:
    case K::SpaceToDepth:
      space_depth(kind == K::DepthToSpace);
      break;
    case K::BatchNorm:
      unary();
      // Training mode (opset 14+: running mean and var; older: mean, var, saved mean/var).
      if (auto d = dims(0); d && d->size() >= 2) {
        for (size_t k = 1; k < n.outputs().size(); ++k) set_dims(k, {(*d)[1]});
      }
      break;
    case K::LayerNorm:
      unary();
      if (auto d = dims(0); d && n.outputs().size() > 1) {
        int64_t axis = attr("axis", -1);
        if (!norm_axis(axis, static_cast<int64_t>(d->size()))) return;
        std::vector<Sym> reduced = *d;
        for (size_t i = static_cast<size_t>(axis); i < reduced.size(); ++i) {
          reduced[i] = Sym::fixed(1);
        }
        for (size_t k = 1; k < n.outputs().size(); ++k) set_dims(k, reduced);
      }
      break;
    case K::Loss: {
      const std::string_view reduction = n.attr_string("reduction").value_or("mean");
      if (reduction == "none") {
        if (auto t = dims(1)) set_dims(0, *t);
      } else {
        set_dims(0, {});
      }
      if (n.outputs().size() > 1) {
        if (auto d = dims(0)) set_dims(1, *d);
      }
      break;
    }
    case K::ConvTranspose:
      conv_transpose();
      break;
    case K::GridSample: {
      auto x = dims(0), g = dims(1);
      if (!x || !g || x->size() < 3 || g->size() != x->size()) return;
      std::vector<Sym> out{(*x)[0], (*x)[1]};
      out.insert(out.end(), g->begin() + 1, g->end() - 1);
      set_dims(0, out);
      break;
    }
    case K::RoiAlign: {
      auto x = dims(0), rois = dims(1);
      if (!x || !rois || x->size() != 4 || rois->size() != 2) return;
      set_dims(0, {(*rois)[0], (*x)[1], Sym::fixed(attr("output_height", 1)),
                   Sym::fixed(attr("output_width", 1))});
      break;
    }
    case K::Det:
      if (auto d = dims(0); d && d->size() >= 2) {
        set_dims(0, std::vector<Sym>(d->begin(), d->end() - 2));
      }
      break;
    case K::DynamicQuantize:
      unary();
      for (size_t k = 1; k < n.outputs().size(); ++k) set_dims(k, {});
      break;
    case K::MaxUnpool:
      max_unpool();
      break;
    case K::None:
      break;
  }
}

void Infer::conv_transpose() {
  auto x = dims(0), w = dims(1);
  if (!x || !w || x->size() < 3 || w->size() != x->size()) return;
  const size_t sp = x->size() - 2;
  std::vector<int64_t> kernel;
  if (const auto* ks = ints_attr(n, "kernel_shape")) {
    kernel.assign(ks->begin(), ks->end());
  } else {
    for (size_t i = 2; i < w->size(); ++i) {
      if (!(*w)[i].is_fixed()) return;
      kernel.push_back((*w)[i].v);
    }
  }
  if (kernel.size() != sp) return;
  const int64_t group = attr("group", 1);
  std::vector<Sym> out{(*x)[0], derive((*w)[1], Sym::fixed(group), SymOp::kMul)};
  if (const auto* os = ints_attr(n, "output_shape")) {
    if (os->size() != sp) return;
    for (int64_t v : *os) out.push_back(Sym::fixed(v));
    set_dims(0, out);
    return;
  }
  const auto* strides = ints_attr(n, "strides");
  const auto* dil = ints_attr(n, "dilations");
  const auto* pads = ints_attr(n, "pads");
  const auto* opad = ints_attr(n, "output_padding");
  const std::string_view auto_pad = n.attr_string("auto_pad").value_or("NOTSET");
  for (size_t i = 0; i < sp; ++i) {
    const int64_t stride = strides && i < strides->size() ? (*strides)[i] : 1;
    const int64_t dl = dil && i < dil->size() ? (*dil)[i] : 1;
    const int64_t op = opad && i < opad->size() ? (*opad)[i] : 0;
    if (stride <= 0 || dl <= 0) return;
    const Sym& in = (*x)[2 + i];
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out.push_back(derive(in, Sym::fixed(stride), SymOp::kMul));
      continue;
    }
    const CheckedInt pb = auto_pad != "VALID" && pads && pads->size() == 2 * sp
                              ? checked_add((*pads)[i], (*pads)[i + sp])
                              : CheckedInt(0);
    // stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pads
    const CheckedInt tail = checked_sub(
        checked_sub(checked_add(checked_add(op, checked_mul(checked_sub(kernel[i], 1), dl)), 1),
                    pb),
        stride);
    out.push_back(
        tail ? derive(derive(in, Sym::fixed(stride), SymOp::kMul), Sym::fixed(*tail), SymOp::kAdd)
             : Sym::unknown());
  }
  set_dims(0, out);
}

void Infer::max_unpool() {
  auto x = dims(0);
  if (!x || x->size() < 3) return;
  if (has(2)) {
    if (auto e = elems(2); e && e->size() == x->size()) set_dims(0, *e);
    return;
  }
  const size_t sp = x->size() - 2;
  const auto* ks = ints_attr(n, "kernel_shape");
  if (ks == nullptr || ks->size() != sp) return;
  const auto* strides = ints_attr(n, "strides");
  const auto* pads = ints_attr(n, "pads");
  std::vector<Sym> out{(*x)[0], (*x)[1]};
  for (size_t i = 0; i < sp; ++i) {
    const int64_t stride = strides && i < strides->size() ? (*strides)[i] : 1;
    const CheckedInt pb =
        pads && pads->size() == 2 * sp ? checked_add((*pads)[i], (*pads)[i + sp]) : CheckedInt(0);
    // (in - 1) * stride + kernel - pads
    const CheckedInt tail = checked_sub(checked_sub((*ks)[i], pb), stride);
    out.push_back(tail ? derive(derive((*x)[2 + i], Sym::fixed(stride), SymOp::kMul),
                                Sym::fixed(*tail), SymOp::kAdd)
                       : Sym::unknown());
  }
  set_dims(0, out);
}

void Infer::gather_nd() {
  // indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:]
  auto d = dims(0), idx = dims(1);
  if (!d || !idx || idx->empty() || !idx->back().is_fixed()) return;
  const int64_t b = attr("batch_dims", 0), last = idx->back().v;
  const int64_t r = static_cast<int64_t>(d->size());
  if (b < 0 || last < 0 || last > r || b > r - last) return;
  std::vector<Sym> out(idx->begin(), idx->end() - 1);
  out.insert(out.end(), d->begin() + b + last, d->end());
  set_dims(0, out);
}

void Infer::space_depth(bool to_space) {
  auto d = dims(0);
  auto bs = n.attr_int("blocksize");
  if (!d || d->size() != 4 || !bs || *bs <= 0) return;
  const Sym b = Sym::fixed(*bs), b2 = fixed_or_unknown(checked_mul(*bs, *bs));
  if (to_space) {
    set_dims(0, {(*d)[0], derive((*d)[1], b2, SymOp::kDiv), derive((*d)[2], b, SymOp::kMul),
                 derive((*d)[3], b, SymOp::kMul)});
  } else {
    set_dims(0, {(*d)[0], derive((*d)[1], b2, SymOp::kMul), derive((*d)[2], b, SymOp::kDiv),
                 derive((*d)[3], b, SymOp::kDiv)});
  }
}

// Comparisons and logic on small integer vectors: only fixed elements are compared. Two
// symbolic or data elements are never assumed equal (in a loop body the same name can hold
// values of different iterations), so the result is unknown there.
void Infer::elementwise(std::string_view op) {
  size_t len = 1;
  std::vector<std::vector<Sym>> es = broadcast_elems(len);
  if (es.empty() || (op == "Not") != (es.size() == 1)) return;
  std::vector<Sym> out(len);
  for (size_t j = 0; j < len; ++j) {
    const Sym& x = es[0][es[0].size() == 1 ? 0 : j];
    if (op == "Not") {
      out[j] = x.is_fixed()           ? Sym::fixed(x.v == 0 ? 1 : 0)
               : x.kind == Sym::kData ? Sym::data(x.set)
                                      : Sym::unknown();
      continue;
    }
    const Sym& y = es[1][es[1].size() == 1 ? 0 : j];
    if (!x.is_fixed() || !y.is_fixed()) {
      out[j] = derive(x, y);
      if (out[j].kind == Sym::kSymbolic) out[j] = Sym::unknown();  // a bool is no dim
      continue;
    }
    const int64_t p = x.v, q = y.v;
    bool r = false;
    if (op == "Equal") {
      r = p == q;
    } else if (op == "Greater") {
      r = p > q;
    } else if (op == "GreaterOrEqual") {
      r = p >= q;
    } else if (op == "Less") {
      r = p < q;
    } else if (op == "LessOrEqual") {
      r = p <= q;
    } else if (op == "And") {
      r = p != 0 && q != 0;
    } else if (op == "Or") {
      r = p != 0 || q != 0;
    } else {
      r = (p != 0) != (q != 0);
    }
    out[j] = Sym::fixed(r ? 1 : 0);
  }
  set_elems(0, out);
}

void Infer::where() {
  set_broadcast_dims();
  auto c = elems(0), x = elems(1), y = elems(2);
  if (!c || !x || !y) return;
  size_t len = std::max({c->size(), x->size(), y->size()});
  for (const auto* e : {&*c, &*x, &*y}) {
    if (e->size() != 1 && e->size() != len) return;
  }
  std::vector<Sym> out(len);
  for (size_t j = 0; j < len; ++j) {
    const Sym& cj = (*c)[c->size() == 1 ? 0 : j];
    const Sym& xj = (*x)[x->size() == 1 ? 0 : j];
    const Sym& yj = (*y)[y->size() == 1 ? 0 : j];
    if (cj.is_fixed()) {
      out[j] = cj.v != 0 ? xj : yj;
    } else if (xj == yj && xj.kind != Sym::kData) {
      out[j] = xj;
    } else {
      out[j] = derive(cj, derive(xj, yj));
    }
  }
  set_elems(0, out);
}

// Ops whose output length is set by the values of their input. The dim is data, bounded by
// what the input can hold at most.
void Infer::non_zero() {
  auto d = dims(0);
  if (!d) return;
  Sym count = count_of({0}, fixed_numel(0));
  if (auto v = ints(0); v && constant_value(0)) {
    count = Sym::fixed(static_cast<int64_t>(
        std::count_if(v->begin(), v->end(), [](int64_t x) { return x != 0; })));
  }
  set_dims(0, {Sym::fixed(static_cast<int64_t>(d->size())), count});
}

void Infer::compress() {
  auto d = dims(0);
  auto c = dims(1);
  int64_t cond_len = c && c->size() == 1 && (*c)[0].is_fixed() ? (*c)[0].v : -1;
  if (auto axis = n.attr_int("axis")) {
    if (!d) return;
    int64_t ax = *axis;
    if (!norm_axis(ax, static_cast<int64_t>(d->size()))) return;
    std::vector<Sym> out = *d;
    int64_t bound = (*d)[ax].is_fixed() ? (*d)[ax].v : -1;
    if (cond_len >= 0 && (bound < 0 || cond_len < bound)) bound = cond_len;
    out[ax] = count_of({1}, bound);
    set_dims(0, out);
    return;
  }
  int64_t bound = fixed_numel(0);
  if (cond_len >= 0 && (bound < 0 || cond_len < bound)) bound = cond_len;
  set_dims(0, {count_of({1}, bound)});
}

void Infer::unique() {
  auto d = dims(0);
  if (!d) return;
  const int64_t numel = fixed_numel(0);
  auto axis = n.attr_int("axis");
  if (!axis) {
    const Sym count = count_of({0}, numel);
    set_dims(0, {count});
    set_dims(1, {count});
    Sym all = product(*d);
    set_dims(2, {all});
    set_dims(3, {count});
    return;
  }
  int64_t ax = *axis;
  if (!norm_axis(ax, static_cast<int64_t>(d->size()))) return;
  const Sym count = count_of({0}, (*d)[ax].is_fixed() ? (*d)[ax].v : -1);
  std::vector<Sym> y = *d;
  y[ax] = count;
  set_dims(0, y);
  set_dims(1, {count});
  set_dims(2, {(*d)[ax]});
  set_dims(3, {count});
}

void Infer::nms() {
  // selected_indices [num_selected, 3]; at most batch * classes * max_output_boxes_per_class.
  int64_t bound = -1;
  auto boxes = dims(0), scores = dims(1);
  auto max_out = elems(2);
  if (boxes && scores && boxes->size() == 3 && scores->size() == 3 && (*scores)[0].is_fixed() &&
      (*scores)[1].is_fixed()) {
    if (!has(2)) {
      bound = 0;
    } else if (max_out && max_out->size() == 1 && (*max_out)[0].is_fixed()) {
      const int64_t m = std::max<int64_t>(0, (*max_out)[0].v);
      const CheckedInt all = checked_mul(checked_mul((*scores)[0].v, (*scores)[1].v), m);
      if (all && *all >= 0) bound = *all;
    }
  }
  set_dims(0, {count_of({0, 1, 2, 3, 4}, bound), Sym::fixed(3)});
}

// Sequences: their length is kept apart from dims (Impl::seq_len), so that a loop that grows a
// sequence is seen to vary and SequenceLength reads a proven length or none.
void Infer::sequence(K kind) {
  const uint32_t out = a.out_id(s, n, 0);
  if (out == kNoValue) return;
  switch (kind) {
    case K::SequenceEmpty:
      a.set_seq_len(out, Sym::fixed(0));
      break;
    case K::SequenceConstruct: {
      a.set_seq_len(out, Sym::fixed(static_cast<int64_t>(ins.size())));
      ArenaRef elem = has(0) ? a.dims[in(0)] : ArenaRef{};
      for (size_t i = 1; i < ins.size(); ++i) {
        bool differ = false;
        elem = has(i) ? a.merge(elem, a.dims[in(i)], differ) : ArenaRef{};
      }
      a.set_seq_elem(out, elem);
      break;
    }
    case K::SequenceInsert:
    case K::SequenceErase: {
      auto l = has(0) ? a.seq_len_of(in(0)) : std::nullopt;
      if (l) {
        a.set_seq_len(out, derive(*l, Sym::fixed(kind == K::SequenceInsert ? 1 : -1), SymOp::kAdd));
      }
      ArenaRef elem = has(0) ? a.seq_elem_of(in(0)) : ArenaRef{};
      if (kind == K::SequenceInsert) {
        const ArenaRef x = has(1) ? a.dims[in(1)] : ArenaRef{};
        bool differ = false;
        // Into an empty sequence: its only element; else the dims all elements share.
        elem = l && l->is_fixed() && l->v == 0 ? x : a.merge(elem, x, differ);
      }
      a.set_seq_elem(out, elem);
      break;
    }
    case K::SequenceAt:
      if (has(0)) {
        if (uint32_t id = a.out_id(s, n, 0); id != kNoValue) a.dims[id] = a.seq_elem_of(in(0));
      }
      break;
    case K::ConcatFromSequence:
      concat_from_sequence();
      break;
    case K::SequenceLength:
      set_dims(0, {});
      if (auto l = has(0) ? a.seq_len_of(in(0)) : std::nullopt) set_elems(0, {*l});
      break;
    default:
      break;
  }
}

void Infer::concat_from_sequence() {
  const uint32_t out = a.out_id(s, n, 0);
  if (out == kNoValue || !has(0)) return;
  auto elem_ref = a.seq_elem_of(in(0));
  auto len = a.seq_len_of(in(0));
  if (a.n_of(elem_ref) < 0 || !len) return;
  auto ev = a.view(elem_ref);
  std::vector<Sym> elem(ev.begin(), ev.end());
  const bool new_axis = attr("new_axis", 0) != 0;
  int64_t ax = attr("axis", 0);
  const int64_t r = static_cast<int64_t>(elem.size()) + (new_axis ? 1 : 0);
  if (!norm_axis(ax, r)) return;
  if (new_axis) {
    elem.insert(elem.begin() + ax, *len);
  } else {
    // Elements may differ along the axis (that dim is unknown then); equal ones add up.
    elem[ax] = derive(*len, elem[ax], SymOp::kMul);
  }
  set_dims(0, elem);
}

// An optional is followed as a sequence of length 0 (empty) or 1 whose element is the value,
// so If branches and loop passes join it like one.
void Infer::optional(K kind) {
  const uint32_t out = a.out_id(s, n, 0);
  if (out == kNoValue) return;
  const uint32_t x = has(0) ? in(0) : kNoValue;
  const bool is_optional = x != kNoValue && a.seq_len_of(x).has_value();
  switch (kind) {
    case K::Optional:
      a.set_seq_len(out, Sym::fixed(x != kNoValue ? 1 : 0));
      a.set_seq_elem(out, x != kNoValue ? a.dims[x] : ArenaRef{});
      break;
    case K::OptionalGetElement:
      if (x == kNoValue) return;
      // Of an optional the analysis followed; anything else (a graph input of optional or
      // sequence type, a plain tensor at opset 18) stays unknown.
      if (is_optional) a.dims[out] = a.seq_elem_of(x);
      break;
    case K::OptionalHasElement: {
      set_dims(0, {});
      if (x == kNoValue) {
        set_elems(0, {Sym::fixed(0)});
      } else if (auto l = a.seq_len_of(x); l && l->is_fixed()) {
        set_elems(0, {Sym::fixed(l->v != 0 ? 1 : 0)});
      }
      break;
    }
    default:
      break;
  }
}

void Infer::dft() {
  auto d = dims(0);
  if (!d || d->size() < 2) return;
  const int64_t r = static_cast<int64_t>(d->size());
  int64_t axis = 1;
  if (opset >= 20) {
    axis = -2;
    if (has(2)) {
      auto v = ints(2);
      if (!v || v->size() != 1) return;
      axis = (*v)[0];
    }
  } else {
    axis = attr("axis", 1);
  }
  // The last dim holds the real/imaginary parts: it is not a signal axis.
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r - 1) return;
  std::vector<Sym> out = *d;
  out.back() = Sym::fixed(2);
  Sym n_len = out[axis];
  if (has(1)) {
    auto l = elems(1);
    if (!l || l->size() != 1) {
      out[axis] = Sym::unknown();
      set_dims(0, out);
      return;
    }
    n_len = (*l)[0];
  }
  const bool onesided = attr("onesided", 0) != 0 && attr("inverse", 0) == 0;
  out[axis] = onesided
                  ? derive(derive(n_len, Sym::fixed(2), SymOp::kDiv), Sym::fixed(1), SymOp::kAdd)
                  : n_len;
  set_dims(0, out);
}

void Infer::split_to_sequence() {
  const uint32_t out = a.out_id(s, n, 0);
  auto d = dims(0);
  if (out == kNoValue || !d) return;
  int64_t ax = attr("axis", 0);
  if (!norm_axis(ax, static_cast<int64_t>(d->size()))) return;
  const Sym& dim = (*d)[ax];
  if (!has(1)) {
    a.set_seq_len(out, dim);  // one element per index along the axis
    std::vector<Sym> elem = *d;
    if (attr("keepdims", 1) != 0) {
      elem[ax] = Sym::fixed(1);
    } else {
      elem.erase(elem.begin() + ax);
    }
    a.set_seq_elem(out, a.push(elem));
    return;
  }
  auto split_dims = dims(1);
  if (!split_dims) return;
  if (split_dims->size() == 1) {
    a.set_seq_len(out, (*split_dims)[0]);  // one element per listed size
    return;
  }
  auto chunk = ints(1);
  if (split_dims->empty() && chunk && chunk->size() == 1 && (*chunk)[0] > 0) {
    a.set_seq_len(out, derive(dim, Sym::fixed((*chunk)[0]), SymOp::kCeilDiv));
  }
}

void Infer::unary() {
  if (!has(0)) return;
  // Same dims as input 0: share its arena range (no copy). Dropout's mask too.
  const ArenaRef d = a.dims[in(0)];
  for (size_t k = 0; k < (n.op_type() == "Dropout" ? n.outputs().size() : 1); ++k) {
    if (uint32_t id = a.out_id(s, n, k); id != kNoValue) a.dims[id] = d;
  }
}

void Infer::arith() {
  set_broadcast_dims();
  // Shape arithmetic: element-wise on small vectors (scalars broadcast).
  size_t len = 1;
  std::vector<std::vector<Sym>> es = broadcast_elems(len);
  if (es.empty()) return;
  std::string_view op = n.op_type();
  std::vector<Sym> out(len);
  for (size_t j = 0; j < len; ++j) {
    Sym acc = es[0][es[0].size() == 1 ? 0 : j];
    for (size_t i = 1; i < es.size(); ++i) {
      const Sym& y = es[i][es[i].size() == 1 ? 0 : j];
      static const std::unordered_map<std::string_view, SymOp> ops = {
          {"Add", SymOp::kAdd}, {"Sub", SymOp::kSub}, {"Mul", SymOp::kMul}, {"Div", SymOp::kDiv},
          {"Mod", SymOp::kMod}, {"Max", SymOp::kMax}, {"Min", SymOp::kMin}};
      if (op == "Mod" && attr("fmod", 0) != 0) {
        // fmod: the remainder takes the dividend's sign (C's %).
        auto r = acc.is_fixed() && y.is_fixed() ? checked_fmod(acc.v, y.v) : std::nullopt;
        acc = r ? Sym::fixed(*r) : derive(acc, y, SymOp::kF);
        continue;
      }
      auto it = ops.find(op);
      acc = derive(acc, y, it == ops.end() ? SymOp::kF : it->second);
    }
    out[j] = acc;
  }
  set_elems(0, out);
}

void Infer::matmul() {
  size_t bi = n.op_type() == "QLinearMatMul" ? 3 : 1;
  auto x = dims(0), y = dims(bi);
  if (!x || !y || x->empty() || y->empty()) return;
  bool xv = x->size() == 1, yv = y->size() == 1;
  if (xv) x->insert(x->begin(), Sym::fixed(1));
  if (yv) y->push_back(Sym::fixed(1));
  std::vector<Sym> bx(x->begin(), x->end() - 2), by(y->begin(), y->end() - 2);
  if (bx.size() < by.size()) bx.insert(bx.begin(), by.size() - bx.size(), Sym::fixed(1));
  if (by.size() < bx.size()) by.insert(by.begin(), bx.size() - by.size(), Sym::fixed(1));
  std::vector<Sym> out;
  for (size_t i = 0; i < bx.size(); ++i) out.push_back(broadcast(bx[i], by[i]));
  if (!xv) out.push_back((*x)[x->size() - 2]);
  if (!yv) out.push_back(y->back());
  set_dims(0, out);
}

void Infer::gemm() {
  auto x = dims(0), y = dims(1);
  if (!x || !y || x->size() != 2 || y->size() != 2) return;
  Sym m = attr("transA", 0) ? (*x)[1] : (*x)[0];
  Sym nn = attr("transB", 0) ? (*y)[0] : (*y)[1];
  set_dims(0, {m, nn});
}

void Infer::transpose() {
  auto d = dims(0);
  if (!d) return;
  const int64_t r = static_cast<int64_t>(d->size());
  std::vector<Sym> out;
  if (const auto* perm = ints_attr(n, "perm")) {
    if (static_cast<int64_t>(perm->size()) != r) return;
    for (int64_t p : *perm) {
      if (!norm_axis(p, r)) return;
      out.push_back((*d)[p]);
    }
  } else {
    out.assign(d->rbegin(), d->rend());
  }
  set_dims(0, out);
  // The elements of a small integer matrix, permuted (F.pad's pads, see small_tensor).
  auto t = small_tensor(0);
  if (!t || t->dims.size() < 2) return;
  std::vector<size_t> perm;
  if (const auto* p = ints_attr(n, "perm")) {
    for (int64_t x : *p) {
      if (!norm_axis(x, r)) return;
      perm.push_back(static_cast<size_t>(x));
    }
  } else {
    for (size_t i = t->dims.size(); i > 0; --i) perm.push_back(i - 1);
  }
  std::vector<bool> seen(t->dims.size(), false);
  for (size_t p : perm) {
    if (p >= seen.size() || seen[p]) return;  // not a permutation: an invalid model
    seen[p] = true;
  }
  if (perm.size() != t->dims.size()) return;
  std::vector<std::vector<int64_t>> every(perm.size());  // every position of each source axis
  for (size_t i = 0; i < perm.size(); ++i) {
    for (int64_t x = 0; x < t->dims[perm[i]]; ++x) every[i].push_back(x);
  }
  set_elems(0, gather_positions(*t, every, perm));
}

void Infer::unsqueeze() {
  std::optional<std::vector<int64_t>> axes;
  if (opset < 13) {
    if (const auto* at = ints_attr(n, "axes")) axes.emplace(at->begin(), at->end());
  } else {
    axes = ints(1);
  }
  auto e = elems(0);
  if (e) set_elems(0, *e);
  auto d = dims(0);
  if (!d || !axes || d->size() + axes->size() > kMaxRank) return;  // rank past the limit
  const int64_t r = static_cast<int64_t>(d->size() + axes->size());
  std::vector<bool> ones(r, false);
  for (int64_t ax : *axes) {
    if (!norm_axis(ax, r) || ones[ax]) return;
    ones[ax] = true;
  }
  std::vector<Sym> out;
  size_t j = 0;
  for (int64_t i = 0; i < r; ++i) out.push_back(ones[i] ? Sym::fixed(1) : (*d)[j++]);
  set_dims(0, out);
}

void Infer::squeeze() {
  std::optional<std::vector<int64_t>> axes;
  if (opset < 13) {
    if (const auto* at = ints_attr(n, "axes")) axes.emplace(at->begin(), at->end());
  } else if (has(1)) {
    axes = ints(1);
    if (!axes) {
      if (auto e = elems(0)) set_elems(0, *e);
      return;
    }
  }
  if (auto e = elems(0)) set_elems(0, *e);
  auto d = dims(0);
  if (!d) return;
  const int64_t r = static_cast<int64_t>(d->size());
  std::vector<bool> drop(r, false);
  if (axes) {
    for (int64_t ax : *axes) {
      if (!norm_axis(ax, r)) return;
      drop[ax] = true;
    }
  } else {
    // Without axes every dim of size 1 goes: only known when every dim is fixed.
    for (int64_t i = 0; i < r; ++i) {
      if (!(*d)[i].is_fixed()) return;
      drop[i] = (*d)[i].v == 1;
    }
  }
  std::vector<Sym> out;
  for (int64_t i = 0; i < r; ++i) {
    if (!drop[i]) out.push_back((*d)[i]);
  }
  set_dims(0, out);
}

void Infer::flatten() {
  if (auto e = elems(0)) set_elems(0, *e);
  auto d = dims(0);
  if (!d) return;
  const int64_t r = static_cast<int64_t>(d->size());
  int64_t axis = attr("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) return;
  std::span<const Sym> all(*d);
  set_dims(0, {product(all.subspan(0, axis)), product(all.subspan(axis))});
}

void Infer::reshape() {
  if (auto e = elems(0)) set_elems(0, *e);
  std::optional<std::vector<Sym>> target;
  if (opset < 5) {
    if (const auto* at = ints_attr(n, "shape")) {
      if (at->size() > kMaxRank) return;  // a rank past the loader's limit: unknown
      target.emplace();
      for (int64_t v : *at) target->push_back(Sym::fixed(v));
    }
  } else {
    target = elems_or_length(1);
  }
  if (!target) return;
  auto d = dims(0);
  const bool allowzero = attr("allowzero", 0) != 0;
  std::vector<Sym> out;
  int infer_at = -1;
  for (size_t i = 0; i < target->size(); ++i) {
    const Sym& t = (*target)[i];
    if (t.is_fixed() && t.v == 0 && !allowzero) {
      if (!d || i >= d->size()) return;
      out.push_back((*d)[i]);
    } else if (t.is_fixed() && t.v == -1) {
      if (infer_at >= 0) return;
      infer_at = static_cast<int>(i);
      out.push_back(Sym::unknown());
    } else if (t.is_fixed() && t.v < -1) {
      return;
    } else {
      out.push_back(t);
    }
  }
  if (infer_at >= 0) {
    // total(input) / product(others): fixed when everything is, else derived from the
    // symbolic dims involved.
    if (!d) {
      set_dims(0, out);  // rank known, that dim unknown
      return;
    }
    // total(input) / product(others), after cancelling the dims both sides share and the
    // common part of their fixed factors: [N, 16, A, B] to [N, 16, -1] gives A*B, not
    // 16*N*A*B/(16*N), so that the dim stays an expression later ops can solve.
    std::vector<Sym> num(d->begin(), d->end()), den;
    for (size_t i = 0; i < out.size(); ++i) {
      if (static_cast<int>(i) == infer_at) continue;
      auto same = std::find(num.begin(), num.end(), out[i]);
      if (same != num.end() && !out[i].is_fixed()) {
        num.erase(same);
      } else {
        den.push_back(out[i]);
      }
    }
    CheckedInt fn = 1, fd = 1;
    auto split_fixed = [](std::vector<Sym>& v, CheckedInt& f) {
      std::vector<Sym> rest;
      for (const Sym& x : v) {
        if (x.is_fixed()) {
          f = checked_mul(f, x.v);
        } else {
          rest.push_back(x);
        }
      }
      v = std::move(rest);
    };
    split_fixed(num, fn);
    split_fixed(den, fd);
    if (fn && fd && *fd > 0 && *fn % *fd == 0) {
      num.push_back(Sym::fixed(*fn / *fd));
    } else {
      num.push_back(fn ? Sym::fixed(*fn) : Sym::unknown());
      den.push_back(fd ? Sym::fixed(*fd) : Sym::unknown());
    }
    Sym total = product(num);
    Sym rest = product(den);
    if (total.is_fixed() && rest.is_fixed()) {
      out[infer_at] = fixed_or_unknown(checked_div(total.v, rest.v));
    } else {
      out[infer_at] = derive(total, rest, SymOp::kDiv);
    }
  }
  set_dims(0, out);
}

void Infer::expand() {
  auto d = dims(0);
  auto t = elems(1);
  if (!t) {
    // A target not known element by element, of known length: its entries are unknown, but
    // a dim of the input other than 1 survives broadcasting.
    auto len = dims(1);
    if (len && len->size() == 1 && (*len)[0].is_fixed() && (*len)[0].v >= 0 && (*len)[0].v <= 64) {
      t.emplace(static_cast<size_t>((*len)[0].v), Sym::unknown());
    }
  }
  if (!d || !t) return;
  std::vector<Sym> out = *t;
  if (d->size() > out.size()) out.insert(out.begin(), d->size() - out.size(), Sym::fixed(1));
  size_t shift = out.size() - d->size();
  for (size_t j = 0; j < d->size(); ++j) out[shift + j] = broadcast(out[shift + j], (*d)[j]);
  set_dims(0, out);
}

void Infer::tile() {
  if (opset < 6) return;
  auto d = dims(0);
  auto r = elems_or_length(1);
  if (!d || !r || r->size() != d->size()) return;
  std::vector<Sym> out;
  for (size_t i = 0; i < d->size(); ++i) {
    const Sym &x = (*d)[i], &y = (*r)[i];
    if (x.is_fixed() && y.is_fixed()) {
      out.push_back(fixed_or_unknown(checked_mul(x.v, y.v)));  // Tile([2^62], [4]): unknown
    } else if (y.is_fixed() && y.v == 1) {
      out.push_back(x);
    } else {
      out.push_back(derive(x, y, SymOp::kMul));
    }
  }
  set_dims(0, out);
}

void Infer::concat() {
  int64_t axis = attr("axis", 0);
  // Small integer vectors: concatenation of the elements (shape vectors along axis 0).
  {
    std::vector<Sym> out;
    bool ok = true;
    for (size_t i = 0; i < ins.size() && ok; ++i) {
      if (!has(i)) continue;
      auto e = elems(i);
      auto d = dims(i);
      if (!e || (d && d->size() > 1)) ok = false;
      if (ok) out.insert(out.end(), e->begin(), e->end());
    }
    if (ok && (axis == 0 || axis == -1)) set_elems(0, out);
  }
  std::vector<Sym> out;
  bool first = true;
  int64_t r = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (!has(i)) continue;
    auto d = dims(i);
    if (!d) return;
    if (first) {
      out = *d;
      r = static_cast<int64_t>(out.size());
      if (!norm_axis(axis, r)) return;
      first = false;
      continue;
    }
    if (static_cast<int64_t>(d->size()) != r) return;
    for (int64_t j = 0; j < r; ++j) {
      const Sym &x = out[j], &y = (*d)[j];
      if (j == axis) {
        out[j] = derive(x, y, SymOp::kAdd);
      } else if (!(x == y)) {
        out[j] = x.is_fixed() ? x : y.is_fixed() ? y : derive(x, y);
      }
    }
  }
  if (!first) set_dims(0, out);
}

void Infer::gather() {
  int64_t axis = attr("axis", 0);
  auto d = dims(0);
  auto idx = dims(1);
  if (d && idx) {
    int64_t r = static_cast<int64_t>(d->size());
    if (norm_axis(axis, r)) {
      std::vector<Sym> out(d->begin(), d->begin() + axis);
      out.insert(out.end(), idx->begin(), idx->end());
      out.insert(out.end(), d->begin() + axis + 1, d->end());
      set_dims(0, out);
    }
  }
  // Picking elements of a shape vector: Gather(Shape(x), 0).
  auto e = elems(0);
  auto which = ints(1);
  if (e && which && (!d || d->size() == 1)) {
    std::vector<Sym> out;
    const int64_t len = static_cast<int64_t>(e->size());
    for (int64_t w : *which) {
      if (w < 0) w += len;
      if (w < 0 || w >= len) return;
      out.push_back((*e)[w]);
    }
    set_elems(0, out);
  }
}

namespace {
// ONNX Slice length along one axis with everything fixed; -1 when not defined (a step of 0,
// a negative dim: an invalid model).
int64_t slice_len(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (step == 0 || dim < 0) return -1;
  if (dim == 0) return 0;
  // A negative index counts from the end: start + dim cannot overflow (start < 0 <= dim).
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  CheckedInt len;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    len = checked_ceil_div(checked_sub(end, start), CheckedInt(step));
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    // A step of INT64_MIN has no negation: every slice with it has at most one element.
    len = step == std::numeric_limits<int64_t>::min()
              ? CheckedInt(start > end ? 1 : 0)
              : checked_ceil_div(checked_sub(start, end), checked_neg(step));
  }
  return len ? std::max<int64_t>(0, *len) : -1;
}
}  // namespace

// The length of a step-1 slice with fixed bounds of a dim that is not fixed but is at least
// lower(): x[-k:] has k elements when the dim has at least k; x[a:b] (0 <= a <= b) has b-a
// when it has at least b. Else nullopt.
std::optional<int64_t> len_from_lower_bound(const Sym& dim, const Sym& st, const Sym& en,
                                            int64_t step) {
  if (dim.is_fixed() || !st.is_fixed() || !en.is_fixed() || step != 1) return std::nullopt;
  const int64_t lower = dim.lower();
  if (lower <= 0) return std::nullopt;
  if (st.v < 0 && en.v >= std::numeric_limits<int32_t>::max() && st.v >= -lower) return -st.v;
  if (st.v >= 0 && en.v >= st.v && en.v <= lower) return checked_sub(en.v, st.v);
  return std::nullopt;
}

// The indices ONNX's Slice keeps along an axis of size `dim` (step != 0, not INT64_MIN):
// bounds are clamped as the operator defines, before any arithmetic, so nothing overflows.
std::vector<int64_t> slice_indices(int64_t dim, int64_t start, int64_t end, int64_t step) {
  std::vector<int64_t> out;
  auto bound = [&](int64_t x, int64_t lo, int64_t hi) {
    x = std::clamp<int64_t>(x, -dim - 1, dim);
    if (x < 0) x += dim;
    return std::clamp<int64_t>(x, lo, hi);
  };
  if (step > 0) {
    for (int64_t i = bound(start, 0, dim), e = bound(end, 0, dim); i < e; i += step) {
      out.push_back(i);
    }
  } else if (dim > 0) {
    for (int64_t i = bound(start, 0, dim - 1), e = bound(end, -1, dim - 1); i > e; i += step) {
      out.push_back(i);
    }
  }
  return out;
}

void Infer::slice() {
  std::vector<Sym> starts, ends;
  std::optional<std::vector<int64_t>> axes, steps;
  if (opset < 10) {
    const auto* st = ints_attr(n, "starts");
    const auto* en = ints_attr(n, "ends");
    if (st == nullptr || en == nullptr) return;
    for (int64_t v : *st) starts.push_back(Sym::fixed(v));
    for (int64_t v : *en) ends.push_back(Sym::fixed(v));
    if (const auto* ax = ints_attr(n, "axes")) axes.emplace(ax->begin(), ax->end());
  } else {
    auto st = elems(1), en = elems(2);
    if (!st || !en) return;
    starts = *st;
    ends = *en;
    if (has(3)) {
      axes = ints(3);
      if (!axes) return;
    }
    if (has(4)) {
      steps = ints(4);
      if (!steps) return;
    }
  }
  if (starts.size() != ends.size()) return;
  if (!axes) {
    axes.emplace();
    for (size_t i = 0; i < starts.size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (!steps) steps = std::vector<int64_t>(starts.size(), 1);
  if (axes->size() != starts.size() || steps->size() != starts.size()) return;

  auto compute = [&](std::vector<Sym>& ds, bool elements) -> bool {
    const int64_t r = static_cast<int64_t>(ds.size());
    std::vector<Sym> out = ds;
    for (size_t j = 0; j < axes->size(); ++j) {
      int64_t ax = (*axes)[j];
      if (!norm_axis(ax, r)) return false;
      const Sym &dim = ds[ax], &st = starts[j], &en = ends[j];
      const int64_t step = (*steps)[j];
      if (dim.is_fixed() && st.is_fixed() && en.is_fixed()) {
        int64_t len = slice_len(dim.v, st.v, en.v, step);
        if (len < 0) return false;
        out[ax] = Sym::fixed(len);
      } else if (st.is_fixed() && st.v == 0 && en.is_fixed() &&
                 en.v >= std::numeric_limits<int32_t>::max() && step == 1) {
        out[ax] = dim;  // x[0:]
      } else if (auto len = len_from_lower_bound(dim, st, en, step)) {
        out[ax] = Sym::fixed(*len);  // x[-k:] or x[a:b] of a dim known to be long enough
      } else if (auto exact = symbolic_slice_len(dim, st, en, step); exact && !elements) {
        out[ax] = *exact;  // min(N, 5), max(N-1, 0), ceil(N/2), ...
      } else if (elements) {
        return false;
      } else {
        out[ax] = derive(derive(dim, st), en);
      }
    }
    ds = std::move(out);
    return true;
  };
  if (auto d = dims(0); d && compute(*d, false)) set_dims(0, *d);
  if (auto t = small_tensor(0); t && t->dims.size() > 1) {
    // A small integer matrix with fixed bounds: the indices kept along each axis.
    std::vector<std::vector<int64_t>> keep(t->dims.size());
    for (size_t i = 0; i < t->dims.size(); ++i) {
      for (int64_t x = 0; x < t->dims[i]; ++x) keep[i].push_back(x);
    }
    for (size_t j = 0; j < axes->size(); ++j) {
      int64_t ax = (*axes)[j];
      if (!norm_axis(ax, static_cast<int64_t>(t->dims.size())) || !starts[j].is_fixed() ||
          !ends[j].is_fixed() || (*steps)[j] == 0 ||
          (*steps)[j] == std::numeric_limits<int64_t>::min()) {
        return;
      }
      keep[ax] = slice_indices(t->dims[ax], starts[j].v, ends[j].v, (*steps)[j]);
    }
    std::vector<size_t> same_axes(t->dims.size());
    for (size_t i = 0; i < same_axes.size(); ++i) same_axes[i] = i;
    return set_elems(0, gather_positions(*t, keep, same_axes));
  }
  // Slicing a 1-D shape vector with fixed bounds.
  auto e = elems(0);
  if (e && axes->size() == 1) {
    int64_t ax = (*axes)[0];
    if ((ax == 0 || ax == -1) && starts[0].is_fixed() && ends[0].is_fixed()) {
      const int64_t len = static_cast<int64_t>(e->size());
      int64_t st = starts[0].v, en = ends[0].v, step = (*steps)[0];
      if (step == 1) {
        if (st < 0) st += len;
        if (en < 0) en += len;
        st = std::clamp<int64_t>(st, 0, len);
        en = std::clamp<int64_t>(en, 0, len);
        std::vector<Sym> out;
        for (int64_t i = st; i < en; ++i) out.push_back((*e)[i]);
        set_elems(0, out);
      }
    }
  }
}

void Infer::split() {
  auto d = dims(0);
  if (!d) return;
  const int64_t r = static_cast<int64_t>(d->size());
  int64_t axis = attr("axis", 0);
  if (!norm_axis(axis, r)) return;
  const size_t m = n.outputs().size();
  std::optional<std::vector<int64_t>> sizes;
  if (opset < 13) {
    if (const auto* at = ints_attr(n, "split")) sizes.emplace(at->begin(), at->end());
    if (opset < 2 && has(1)) sizes = ints(1);
  } else if (has(1)) {
    sizes = ints(1);
    if (!sizes) return;
  }
  const Sym dim = (*d)[axis];
  for (size_t k = 0; k < m; ++k) {
    std::vector<Sym> out = *d;
    if (sizes) {
      if (sizes->size() != m) return;
      out[axis] = Sym::fixed((*sizes)[k]);
    } else if (dim.is_fixed()) {
      const int64_t parts = static_cast<int64_t>(m);
      if (n.attr_int("num_outputs")) {
        const CheckedInt chunk = checked_ceil_div(dim.v, parts);
        const CheckedInt left =
            checked_sub(CheckedInt(dim.v), checked_mul(chunk, static_cast<int64_t>(k)));
        out[axis] = chunk && left && *chunk >= 0 ? Sym::fixed(std::clamp<int64_t>(*left, 0, *chunk))
                                                 : Sym::unknown();
      } else {
        if (checked_mod(dim.v, parts) != int64_t{0}) return;
        out[axis] = fixed_or_unknown(checked_div(dim.v, parts));
      }
    } else if (n.attr_int("num_outputs")) {
      out[axis] = derive(dim, Sym::fixed(static_cast<int64_t>(m)), SymOp::kF);  // uneven chunks
    } else {
      out[axis] = derive(dim, Sym::fixed(static_cast<int64_t>(m)), SymOp::kDiv);
    }
    set_dims(k, out);
  }
}

void Infer::shape_op() {
  auto d = dims(0);
  if (!d) {
    set_dims(0, {Sym::unknown()});
    return;
  }
  const int64_t r = static_cast<int64_t>(d->size());
  int64_t start = attr("start", 0), end = attr("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  const int64_t len = std::max<int64_t>(0, end - start);
  set_dims(0, {Sym::fixed(len)});
  set_elems(0, std::vector<Sym>(d->begin() + start, d->begin() + start + len));
}

void Infer::size_op() {
  set_dims(0, {});
  if (auto d = dims(0)) set_elems(0, {product(*d)});
}

void Infer::constant() {
  for (const Attribute& at : n.attributes()) {
    if (at.name == "value" && at.t != nullptr) {
      std::vector<Sym> ds;
      for (int64_t x : at.t->dims) ds.push_back(Sym::fixed(x));
      set_dims(0, ds);
      uint32_t id = a.out_id(s, n, 0);
      if (id != kNoValue) a.svec[id] = a.const_svec(*at.t);
    } else if (at.name == "value_int") {
      set_dims(0, {});
      set_elems(0, {Sym::fixed(at.i)});
    } else if (at.name == "value_ints") {
      set_dims(0, {Sym::fixed(static_cast<int64_t>(at.ints.size()))});
      std::vector<Sym> e;
      for (int64_t v : at.ints) e.push_back(Sym::fixed(v));
      set_elems(0, e);
    } else if (at.name == "value_float" || at.name == "value_string") {
      set_dims(0, {});
    } else if (at.name == "value_floats") {
      set_dims(0, {Sym::fixed(static_cast<int64_t>(at.floats.size()))});
    } else if (at.name == "value_strings") {
      set_dims(0, {Sym::fixed(static_cast<int64_t>(at.strings.size()))});
    }
  }
}

void Infer::constant_of_shape() {
  auto e = elems_or_length(0);
  if (!e) return;
  set_dims(0, *e);
  // The elements of a small integer fill (torch's F.pad pads its `pads` with zeros this way);
  // without `value` the fill is float 0, whose elements are not followed.
  int64_t count = 1;
  for (const Sym& x : *e) {
    if (!x.is_fixed() || x.v < 0 || x.v > static_cast<int64_t>(Provenance::Impl::kMaxSvec)) {
      return;
    }
    count *= x.v;
    if (count > static_cast<int64_t>(Provenance::Impl::kMaxSvec)) return;
  }
  for (const Attribute& at : n.attributes()) {
    if (at.name != "value" || at.t == nullptr) continue;
    const ArenaRef fill = a.const_svec(*at.t);
    if (a.n_of(fill) != 1) return;
    set_elems(0, std::vector<Sym>(static_cast<size_t>(count), a.view(fill)[0]));
  }
}

void Infer::range() {
  auto st = elems(0), li = elems(1), de = elems(2);
  if (!st || !li || !de || st->size() != 1 || li->size() != 1 || de->size() != 1) {
    set_dims(0, {Sym::unknown()});
    return;
  }
  const Sym &x = (*st)[0], &y = (*li)[0], &z = (*de)[0];
  if (x.is_fixed() && y.is_fixed() && z.is_fixed()) {
    // max(ceil((limit - start) / delta), 0); Range(0, INT64_MIN, -1) has 2^63 elements, which
    // no int64 holds: unknown, as is a delta of 0 (an invalid model).
    const CheckedInt len = checked_ceil_div(checked_sub(y.v, x.v), CheckedInt(z.v));
    if (!len) {
      set_dims(0, {Sym::unknown()});
      return;
    }
    const int64_t count = std::max<int64_t>(0, *len);
    set_dims(0, {Sym::fixed(count)});
    if (count <= static_cast<int64_t>(Provenance::Impl::kMaxSvec)) {
      std::vector<Sym> out;
      for (int64_t i = 0; i < count; ++i) {
        out.push_back(fixed_or_unknown(checked_add(CheckedInt(x.v), checked_mul(i, z.v))));
      }
      set_elems(0, out);
    }
    return;
  }
  // A fixed start and step over a symbolic limit (torch.arange(x.size(1))): the count
  // max(ceil((limit - start) / step), 0) as an expression.
  if (x.is_fixed() && z.is_fixed() && y.kind == Sym::kSymbolic && z.v != 0 &&
      z.v > std::numeric_limits<int64_t>::min() && x.v > std::numeric_limits<int32_t>::min() &&
      x.v < std::numeric_limits<int32_t>::max()) {
    Sym span = z.v > 0 ? derive(y, Sym::fixed(-x.v), SymOp::kAdd)
                       : derive(Sym::fixed(x.v), y, SymOp::kSub);
    const int64_t step = z.v > 0 ? z.v : -z.v;
    if (step != 1) span = derive(span, Sym::fixed(step), SymOp::kCeilDiv);
    set_dims(0, {at_least_zero(span)});
    return;
  }
  set_dims(0, {derive(derive(x, y), z)});
}

void Infer::conv(bool pool) {
  auto x = dims(0);
  if (!x || x->size() < 3) return;
  const size_t sp = x->size() - 2;
  std::vector<int64_t> kernel;
  Sym channels = (*x)[1];
  if (const auto* ks = ints_attr(n, "kernel_shape")) kernel.assign(ks->begin(), ks->end());
  if (!pool) {
    size_t wi = n.op_type() == "QLinearConv" ? 3 : 1;
    auto w = dims(wi);
    if (!w || w->size() != x->size()) return;
    channels = (*w)[0];
    if (kernel.empty()) {
      for (size_t i = 2; i < w->size(); ++i) {
        if (!(*w)[i].is_fixed()) return;
        kernel.push_back((*w)[i].v);
      }
    }
  }
  if (kernel.size() != sp) return;
  const auto* strides = ints_attr(n, "strides");
  const auto* dil = ints_attr(n, "dilations");
  const auto* pads = ints_attr(n, "pads");
  const std::string_view auto_pad = n.attr_string("auto_pad").value_or("NOTSET");
  const bool ceil_mode = pool && attr("ceil_mode", 0) != 0;
  std::vector<Sym> out{(*x)[0], channels};
  for (size_t i = 0; i < sp; ++i) {
    const Sym& in = (*x)[2 + i];
    int64_t stride = strides && i < strides->size() ? (*strides)[i] : 1;
    int64_t dl = dil && i < dil->size() ? (*dil)[i] : 1;
    if (stride <= 0 || dl <= 0) return;
    // The effective kernel, dilation * (kernel - 1) + 1; an overflow anywhere below leaves
    // the dim unknown.
    const CheckedInt ek = checked_add(checked_mul(CheckedInt(dl), checked_sub(kernel[i], 1)), 1);
    const bool has_pads = pads && pads->size() == 2 * sp;
    if (!in.is_fixed()) {
      // The same formula on a symbolic size: (H + pads - ek) / stride + 1.
      const Sym st = Sym::fixed(stride);
      if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        out.push_back(derive(in, st, SymOp::kCeilDiv));
      } else if (ceil_mode) {
        out.push_back(in.kind == Sym::kData ? Sym::data(in.set) : Sym::unknown());
      } else {
        const CheckedInt pb = auto_pad != "VALID" && has_pads
                                  ? checked_add((*pads)[i], (*pads)[i + sp])
                                  : CheckedInt(0);
        const CheckedInt shift = checked_sub(pb, ek);  // pads - ek
        if (!shift) {
          out.push_back(Sym::unknown());
          continue;
        }
        const Sym num = *shift == 0 ? in : derive(in, Sym::fixed(*shift), SymOp::kAdd);
        const Sym q = stride == 1 ? num : derive(num, st, SymOp::kDiv);
        out.push_back(stride == 1 && *shift == -1 ? in : derive(q, Sym::fixed(1), SymOp::kAdd));
      }
      continue;
    }
    CheckedInt o;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      o = checked_ceil_div(in.v, stride);
    } else if (auto_pad == "VALID") {
      o = checked_add(checked_floor_div(checked_sub(CheckedInt(in.v), ek), stride), 1);
    } else {
      const CheckedInt pb = has_pads ? checked_add((*pads)[i], (*pads)[i + sp]) : CheckedInt(0);
      const CheckedInt num = checked_sub(checked_add(CheckedInt(in.v), pb), ek);
      o = checked_add(ceil_mode ? checked_ceil_div(num, stride) : checked_floor_div(num, stride),
                      1);
      // A last window starting inside the right padding is dropped (ceil_mode).
      if (ceil_mode && o) {
        const CheckedInt last_start = checked_mul(checked_sub(o, 1), stride);
        const CheckedInt right_edge = checked_add(in.v, has_pads ? (*pads)[i] : 0);
        if (!last_start || !right_edge) {
          o.reset();
        } else if (*last_start >= *right_edge) {
          o = checked_sub(o, 1);
        }
      }
    }
    if (!o) {
      out.push_back(Sym::unknown());
      continue;
    }
    if (*o < 0) return;
    out.push_back(Sym::fixed(*o));
  }
  set_dims(0, out);
  if (pool && n.outputs().size() > 1) set_dims(1, out);
}

void Infer::global_pool() {
  auto x = dims(0);
  if (!x || x->size() < 2) return;
  std::vector<Sym> out{(*x)[0], (*x)[1]};
  out.resize(x->size(), Sym::fixed(1));
  set_dims(0, out);
}

void Infer::reduce(bool arg) {
  auto d = dims(0);
  if (!d) return;
  const int64_t r = static_cast<int64_t>(d->size());
  const bool keep = attr("keepdims", 1) != 0;
  std::vector<int64_t> axes;
  if (arg) {
    axes.push_back(attr("axis", 0));
  } else {
    const int64_t input_since = n.op_type() == "ReduceSum" ? 13 : 18;
    if (opset < input_since) {
      if (const auto* at = ints_attr(n, "axes")) axes.assign(at->begin(), at->end());
    } else if (has(1)) {
      auto v = ints(1);
      if (!v) return;
      axes = *v;
    }
    if (axes.empty() && attr("noop_with_empty_axes", 0) != 0) {
      set_dims(0, *d);
      return;
    }
    if (axes.empty()) {
      for (int64_t i = 0; i < r; ++i) axes.push_back(i);
    }
  }
  std::vector<bool> red(r, false);
  for (int64_t ax : axes) {
    if (!norm_axis(ax, r)) return;
    red[ax] = true;
  }
  std::vector<Sym> out;
  for (int64_t i = 0; i < r; ++i) {
    if (!red[i]) {
      out.push_back((*d)[i]);
    } else if (keep) {
      out.push_back(Sym::fixed(1));
    }
  }
  set_dims(0, out);
  // The one element of a reduction over every axis of a shape vector: torchvision's
  // `min(k, x.size(0))` is ReduceMin(Concat([k], Shape(x)[0:1])), i.e. min(N, k).
  if (arg || std::find(red.begin(), red.end(), false) != red.end()) return;
  const std::string_view op = n.op_type();
  const SymOp fold = op == "ReduceMin"    ? SymOp::kMin
                     : op == "ReduceMax"  ? SymOp::kMax
                     : op == "ReduceSum"  ? SymOp::kAdd
                     : op == "ReduceProd" ? SymOp::kMul
                                          : SymOp::kF;
  auto e = elems(0);
  if (fold == SymOp::kF || !e || e->empty()) return;
  Sym acc = (*e)[0];
  for (size_t i = 1; i < e->size(); ++i) acc = derive(acc, (*e)[i], fold);
  set_elems(0, {acc});
}

void Infer::rnn() {
  auto x = dims(0);
  auto hidden = n.attr_int("hidden_size");
  if (!x || x->size() != 3 || !hidden) return;
  const bool batch_first = attr("layout", 0) != 0;
  const std::string_view dir = n.attr_string("direction").value_or("forward");
  const Sym nd = Sym::fixed(dir == "bidirectional" ? 2 : 1);
  const Sym seq = batch_first ? (*x)[1] : (*x)[0];
  const Sym batch = batch_first ? (*x)[0] : (*x)[1];
  const Sym h = Sym::fixed(*hidden);
  if (batch_first) {
    set_dims(0, {batch, seq, nd, h});
    for (size_t k = 1; k < n.outputs().size(); ++k) set_dims(k, {batch, nd, h});
  } else {
    set_dims(0, {seq, nd, batch, h});
    for (size_t k = 1; k < n.outputs().size(); ++k) set_dims(k, {nd, batch, h});
  }
}

void Infer::topk() {
  auto d = dims(0);
  if (!d) return;
  Sym k = Sym::unknown();
  if (opset < 10) {
    if (auto v = n.attr_int("k")) k = Sym::fixed(*v);
  } else if (auto e = elems(1); e && e->size() == 1) {
    k = (*e)[0];
  }
  int64_t axis = attr("axis", -1);
  if (!norm_axis(axis, static_cast<int64_t>(d->size()))) return;
  std::vector<Sym> out = *d;
  out[axis] = k;
  for (size_t j = 0; j < n.outputs().size(); ++j) set_dims(j, out);
}

void Infer::one_hot() {
  auto d = dims(0);
  if (!d) return;
  auto depth = elems(1);
  const int64_t r = static_cast<int64_t>(d->size()) + 1;
  int64_t axis = attr("axis", -1);
  if (!norm_axis(axis, r)) return;
  std::vector<Sym> out = *d;
  out.insert(out.begin() + axis, depth && depth->size() == 1 ? (*depth)[0] : Sym::unknown());
  set_dims(0, out);
}

void Infer::pad() {
  auto d = dims(0);
  if (!d) return;
  const int64_t r = static_cast<int64_t>(d->size());
  std::vector<Sym> pads;
  if (opset < 11) {
    const auto* at = ints_attr(n, opset < 2 ? "paddings" : "pads");
    if (at == nullptr) return;
    for (int64_t v : *at) pads.push_back(Sym::fixed(v));
  } else {
    auto e = elems_or_length(1);
    if (!e) return;
    pads = *e;
  }
  std::vector<int64_t> axes;
  if (opset >= 18 && has(3)) {
    auto v = ints(3);
    if (!v) return;
    axes = *v;
  } else {
    for (int64_t i = 0; i < r; ++i) axes.push_back(i);
  }
  const size_t na = axes.size();
  if (pads.size() != 2 * na) return;
  std::vector<Sym> out = *d;
  for (size_t j = 0; j < na; ++j) {
    int64_t ax = axes[j];
    if (!norm_axis(ax, r)) return;
    const Sym &b = pads[j], &e = pads[j + na], &x = out[ax];
    if (x.is_fixed() && b.is_fixed() && e.is_fixed()) {
      out[ax] = fixed_or_unknown(checked_add(checked_add(x.v, b.v), CheckedInt(e.v)));
    } else {
      out[ax] = derive(derive(x, b, SymOp::kAdd), e, SymOp::kAdd);
    }
  }
  set_dims(0, out);
}

std::optional<std::vector<double>> Infer::floats_of(size_t i) {
  if (i >= n.inputs().size() || n.inputs()[i].empty()) return std::nullopt;
  const auto c = a.table.constant(in(i));
  if (!c || c->overridable || c->tensor == nullptr) return std::nullopt;
  return a.model.read_floats(*c->tensor, 64);
}

void Infer::resize(bool upsample) {
  auto d = dims(0);
  if (!d) return;
  if (!upsample && opset >= 18 && n.attribute("axes") != nullptr) return;
  const size_t r = d->size();
  // Resize-11+: sizes (input 3) wins when given.
  if (!upsample && opset >= 11 && has(3)) {
    if (auto e = elems_or_length(3); e && e->size() == r) set_dims(0, *e);
    return;
  }
  std::optional<std::vector<double>> scales;
  if (upsample && opset < 9) {
    if (const Attribute* at = n.attribute("scales")) {
      scales.emplace(at->floats.begin(), at->floats.end());
    }
  } else {
    scales = floats_of(upsample || opset < 11 ? 1 : 2);
  }
  if (!scales) {
    // Scales computed at run time: the rank is the input's, the sizes are not known.
    const size_t si = upsample || opset < 11 ? 1 : 2;
    if (auto len = elems_or_length(si); len && len->size() == r) {
      set_dims(0, std::vector<Sym>(r, Sym::unknown()));
    }
    return;
  }
  if (scales->size() != r) return;
  std::vector<Sym> out;
  for (size_t i = 0; i < r; ++i) {
    const Sym& x = (*d)[i];
    double sc = (*scales)[i];
    // A hostile scale (NaN, inf, 1e300) must not reach an undefined conversion: unknown.
    if (x.is_fixed()) {
      out.push_back(
          fixed_or_unknown(checked_from_double(std::floor(static_cast<double>(x.v) * sc))));
    } else if (sc == 1.0) {
      out.push_back(x);
    } else if (auto k = checked_from_double(sc); k && sc > 1.0 && sc == std::floor(sc)) {
      out.push_back(derive(x, Sym::fixed(*k), SymOp::kMul));
    } else if (auto d = checked_from_double(1.0 / sc);
               d && sc > 0.0 && sc < 1.0 && 1.0 / sc == std::floor(1.0 / sc)) {
      out.push_back(derive(x, Sym::fixed(*d), SymOp::kDiv));
    } else {
      out.push_back(Sym::unknown());
    }
  }
  set_dims(0, out);
}

}  // namespace

std::vector<std::string_view> ops_with_dim_facts() {
  std::vector<std::string_view> out;
  for (const OpSemantics& sem : op_semantics_table()) {
    const ops::OpEntry* e = ops::entry_of(sem);
    if (sem.domain.empty() && e != nullptr && e->dim_rule != K::None) out.push_back(sem.op);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ArenaRef Provenance::Impl::const_svec(const TensorData& t) {
  auto count = t.element_count();
  if (!count || *count > kMaxSvec || t.dims.size() > 1) return ArenaRef{};
  auto v = model.read_ints(t, kMaxSvec);
  if (!v) return ArenaRef{};
  std::vector<Sym> e;
  for (int64_t x : *v) e.push_back(Sym::fixed(x));
  return push(e);
}

void Provenance::Impl::infer(const Node& n, const GraphSlot& s, const OpSemantics& sem,
                             std::span<const uint32_t> ins, int64_t opset) {
  for (size_t k = 0; k < n.outputs().size(); ++k) {
    uint32_t id = out_id(s, n, k);
    if (id != kNoValue) {
      dims[id] = svec[id] = ArenaRef{};
      if (!seq_len.empty()) seq_len.erase(id);
      if (!seq_elem.empty()) seq_elem.erase(id);
    }
  }
  if (n.domain() == "ai.onnx.preview.training") {
    // Optimizer updates (inputs R, T, X1..n, G1..n, then one or two states per tensor; outputs
    // the new X and states): each output has the dims of the input it updates.
    const size_t groups = n.op_type() == "Adam"                                     ? 3
                          : (n.op_type() == "Adagrad" || n.op_type() == "Momentum") ? 2
                                                                                    : 0;
    if (groups == 0 || n.outputs().size() % groups != 0) return;
    const size_t count = n.outputs().size() / groups;
    if (ins.size() != 2 + (groups + 1) * count) return;
    for (size_t j = 0; j < n.outputs().size(); ++j) {
      const uint32_t from = ins[j < count ? 2 + j : 2 + count + j];
      if (uint32_t id = out_id(s, n, j); id != kNoValue && from != kNoValue) dims[id] = dims[from];
    }
    return;
  }
  if (!n.in_default_domain()) return;
  // Inside a function body an attribute may refer to the caller's: not known here.
  for (const Attribute& at : n.attributes()) {
    if (!at.ref_attr_name.empty()) return;
  }
  const ops::OpEntry* entry = ops::entry_of(sem);
  if (entry == nullptr || entry->dim_rule == K::None) return;
  Infer inf{*this, n, s, ins, opset};
  inf.run(entry->dim_rule);
}

}  // namespace onnxlint
