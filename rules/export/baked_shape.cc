// export-baked-shape: a constant computed from the example input at export time pins a dim the
// model declares dynamic. Tracing turns every Python int read from a size (`int(x.shape[0])`,
// `x.view(2, -1)`, `range(x.shape[1])`, split sizes computed in Python) into a constant; the
// export succeeds, and the model fails or silently computes the wrong thing at every other size.
//
// Only proven contradictions are reported. The rule follows each dim as an exact expression
// (a positive rational times a product of *free* dims, i.e. dims a main-graph input declares
// symbolic) through the common ops, because the analysis's symbolic facts mean "derives from"
// (min(N, 5) after a Slice is symbolic too) and cannot prove that a dim takes every size. A
// finding needs an op that requires such an exact dim to equal a fixed size: a constant
// Reshape/Expand/Split argument, a broadcast or MatMul/Gemm/Concat against a fixed-size
// operand, a graph output declared with the input's dim name. Traced loops over a dynamic axis
// are recognised by Gather/Slice pieces at constant positions 0..k-1 of an exact free axis that
// are combined again.
#include <fmt/format.h>
#include <onnxlint/dim_pins.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "rules/categories.h"
#include "rules/shape/provenance_text.h"
#include "util/checked_math.h"

namespace onnxlint::rules {
namespace {

using namespace prov;  // NOLINT(google-build-using-namespace)

// A dimension: Exact = num/den * (product of the free dims in `names`), a fixed size when
// `names` is 0; Opaque = depends on input dims but not exactly followed; Unknown.
struct Expr {
  enum Kind : uint8_t { Unknown, Opaque, Exact };
  Kind kind = Unknown;
  int64_t num = 0, den = 1;
  uint32_t names = 0;           // interned sorted multiset of free dim names (0: none)
  const Node* lit = nullptr;    // fixed: the node whose constant argument wrote this size
  const Node* mixed = nullptr;  // free: the Reshape whose -1 folded free dims with other sizes
  bool fixed() const { return kind == Exact && names == 0 && den == 1; }
  bool free() const { return kind == Exact && names != 0; }
  bool same(const Expr& o) const {
    return kind == Exact && o.kind == Exact && num == o.num && den == o.den && names == o.names;
  }
  static Expr fixed_at(int64_t v, const Node* lit = nullptr) {
    Expr e;
    e.kind = Exact;
    e.num = v;
    e.lit = lit;
    return e;
  }
  static Expr opaque() {
    Expr e;
    e.kind = Opaque;
    return e;
  }
};
using Dims = std::vector<Expr>;

// Gather/Slice pieces of one (tensor, axis): a traced loop when positions 0..k-1 are all read
// and the pieces meet again.
struct Run {
  ValueId data = kNoValue;
  int64_t axis = 0;
  Expr dim;
  uint64_t positions = 0;  // bit i: position i read (positions >= 64 make the run unusable)
  bool too_far = false;
  std::vector<const Node*> pieces;
  const Node* combined = nullptr;  // first node where two pieces meet
};

struct Tag {
  uint32_t run = 0;  // Run index + 1
  uint64_t bits = 0;
};

constexpr int64_t kOpenEnd = std::numeric_limits<int32_t>::max();

// Bounds on what the tracker keeps, so that no input makes its work or memory grow faster than
// the graph: a product of more free dims than this is opaque (`s = Mul(s, s)` repeated doubles
// the factors each time), and a value of higher rank is unknown (ranks can be computed from
// attributes). Real exports stay far below both.
constexpr size_t kMaxFreeFactors = 16;
constexpr size_t kMaxTrackedRank = 64;

// Overflow-checked int64 arithmetic: false on overflow, never UB. (A local copy until the
// engine's lib/util/checked_math.h exists; then this should call it.)
// Checked access to dims and axes. Every transfer function reads an operand's dims and its
// axis arguments through these, so that a rank other than the one the op expects (rank 0, a
// mismatched operand, an axis out of range) gives "unknown" or the fallback, never an index
// outside the vector.

// axis in [-rank, rank) as an index, or nullopt.
std::optional<size_t> axis_index(int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) return std::nullopt;
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}
// A split point in [-rank, rank] (Flatten's axis) as an index, or nullopt.
std::optional<size_t> cut_index(int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis > r) return std::nullopt;
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

class BakedShape final : public RuleBase<BakedShape> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-baked-shape",
        .category = "export",
        .severity = Severity::Error,
        .summary = "Size from the export example frozen into a model that declares the dim dynamic",
        .options =
            {{"min-length", 3,
              "fewest loop iterations (Gather/Slice pieces) reported as a loop unrolled over "
              "a dynamic axis, unless another finding shows that size"}},
    };
    return k;
  }
  explicit BakedShape(const RuleOptionsView& opts)
      : min_length_(std::max<int64_t>(2, opts.get<int64_t>("min-length"))) {}

  void on_model(const Model& m, RuleContext& ctx) override {
    p_ = &ctx.get<Provenance>();
    ctx_model_ = &m;
    index_ = &ctx.get<GraphIndex>();
    sets_.assign(1, {});
    for (const ValueInfo& vi : m.graph().inputs()) {
      ValueId v = p_->find(m.graph(), vi.name);
      if (v == kNoValue || p_->producer(v) != nullptr) continue;
      main_inputs_.insert(v);
      if (auto ds = p_->dims(v)) {
        for (const DimFact& d : *ds) active_ |= d.kind == DimFact::Kind::Symbolic;
      }
    }
    // Free dims come only from the main graph's inputs: a static model has nothing to report.
    ctx_ = &ctx;
    if (!active_ || m.functions().empty()) return;
    // Calls per function, so a body trusts its formals' sizes only when every call was seen.
    for (const Graph* g : m.all_graphs()) {
      for (const Node& n : g->nodes()) {
        if (const Function* f = p_->called_function(n)) ++calls_[f].total;
      }
    }
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    if (!active_) return;
    const GraphInfo& gi = index_->info(g);
    runs_.clear();  // a traced loop lies within one graph
    run_of_.clear();
    tags_.clear();
    if (gi.topo_order) {
      for (uint32_t i : *gi.topo_order) visit(g.nodes()[i], ctx);
    } else {
      return;  // a cycle: graph-unsorted-nodes says so, and no order makes sizes meaningful
    }
    report_loops(ctx);
    if (g.kind() == Graph::Kind::Main) check_declared_outputs(g, ctx);
  }

  void on_model_end(const Model&, RuleContext& ctx) override {
    if (!active_) return;
    report_pins(ctx);
    report_slices(ctx);
  }

 private:
  const Provenance* p_ = nullptr;
  const GraphIndex* index_ = nullptr;
  bool active_ = false;       // some main-graph input has a symbolic dim
  const int64_t min_length_;  // the min-length option, at least 2
  const Model* ctx_model_ = nullptr;
  RuleContext* ctx_ = nullptr;  // for constants: a Resize reads its scales

  // Interned names and multisets of them.
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::map<std::string, std::string> name_input_;  // free dim -> the input declaring it
  std::vector<std::vector<uint32_t>> sets_{{}};
  std::map<std::vector<uint32_t>, uint32_t> set_ids_;

  std::unordered_set<ValueId> main_inputs_;
  // Dims per value, interned: most values of a graph share a handful of shapes, so each value
  // keeps a 4-byte reference (0: not computed yet, 1: rank not known, else span index + 2).
  std::vector<uint32_t> ref_;
  // The same for the elements of small integer vectors (shape arithmetic): Shape(x) holds the
  // dims of x, so x.view(x.size(0), -1) keeps the exact batch.
  std::unordered_map<ValueId, uint32_t> eref_;        // few values are shape vectors
  std::vector<std::pair<uint32_t, uint32_t>> spans_;  // offset and length in arena_
  std::vector<Expr> arena_;
  std::unordered_map<uint64_t, uint32_t> interned_;  // content hash -> span index
  std::unordered_map<ValueId, Tag> tags_;
  std::vector<Run> runs_;
  std::map<std::pair<ValueId, int64_t>, uint32_t> run_of_;

  struct Calls {
    size_t total = 0, seen = 0;
    std::vector<std::optional<Dims>> formals;
    std::vector<bool> conflict;
  };
  std::map<const Function*, Calls> calls_;

  // One finding per (free dims, value): later contradictions of the same size are notes.
  struct Reported {
    Diagnostic* d;
    const Node* node;
  };
  std::map<std::pair<uint32_t, int64_t>, Reported> reported_;
  // Sizes the model is shown to have been exported with, for Slice ends: name -> size.
  std::map<uint32_t, int64_t> learned_;
  struct SliceEnd {
    const Node* node;
    uint32_t names;
    int64_t end;
    ValueId data;
    int64_t axis;
  };
  std::vector<SliceEnd> slice_ends_;

  // ------------------------------------------------------------------------- names and exprs

  uint32_t intern(std::vector<uint32_t> s) {
    std::sort(s.begin(), s.end());
    if (s.empty()) return 0;
    auto [it, fresh] = set_ids_.emplace(s, static_cast<uint32_t>(sets_.size()));
    if (fresh) sets_.push_back(std::move(s));
    return it->second;
  }
  uint32_t single(std::string_view name) {
    auto [it, fresh] = name_ids_.emplace(std::string(name), static_cast<uint32_t>(names_.size()));
    if (fresh) names_.emplace_back(name);
    return intern({it->second});
  }
  std::string names_text(uint32_t set) const {
    std::string out;
    for (uint32_t id : sets_[set]) {
      if (!out.empty()) out += "*";
      out += names_[id];
    }
    return out;
  }
  std::string quoted_names(uint32_t set) const {
    return sets_[set].size() == 1 ? fmt::format("'{}'", names_text(set)) : names_text(set);
  }

  static void normalize(Expr& e) {
    if (e.kind != Expr::Exact) return;
    if (e.den <= 0 || e.num <= 0) {
      e = e.num == 0 && e.names == 0 ? Expr::fixed_at(0, e.lit) : Expr{};
      return;
    }
    int64_t g = std::gcd(e.num, e.den);
    e.num /= g;
    e.den /= g;
  }

  Expr mul(const Expr& a, const Expr& b) {
    if (a.kind == Expr::Unknown || b.kind == Expr::Unknown) return {};
    if (a.kind == Expr::Opaque || b.kind == Expr::Opaque) {
      return (a.fixed() && a.num == 0) || (b.fixed() && b.num == 0) ? Expr::fixed_at(0)
                                                                    : Expr::opaque();
    }
    // A product of many free dims says nothing a finding could use, and would grow without
    // bound on `s = Mul(s, s)` chains: past the cap it is opaque.
    if (sets_[a.names].size() + sets_[b.names].size() > kMaxFreeFactors) return Expr::opaque();
    const CheckedInt num = checked_mul(a.num, b.num), den = checked_mul(a.den, b.den);
    if (!num || !den) return Expr::opaque();
    Expr e;
    e.kind = Expr::Exact;
    e.num = *num;
    e.den = *den;
    std::vector<uint32_t> s = sets_[a.names];
    s.insert(s.end(), sets_[b.names].begin(), sets_[b.names].end());
    e.names = intern(std::move(s));
    normalize(e);
    return e;
  }
  // a / b, exact only when b's free dims all cancel against a's.
  Expr div(const Expr& a, const Expr& b) {
    if (a.kind == Expr::Unknown || b.kind == Expr::Unknown) return {};
    if (a.kind == Expr::Opaque || b.kind == Expr::Opaque || b.num == 0) return Expr::opaque();
    std::vector<uint32_t> s = sets_[a.names];
    for (uint32_t id : sets_[b.names]) {
      auto it = std::find(s.begin(), s.end(), id);
      if (it == s.end()) return Expr::opaque();
      s.erase(it);
    }
    const CheckedInt num = checked_mul(a.num, b.den), den = checked_mul(a.den, b.num);
    if (!num || !den) return Expr::opaque();
    Expr e;
    e.kind = Expr::Exact;
    e.num = *num;
    e.den = *den;
    e.names = intern(std::move(s));
    normalize(e);
    if (e.names == 0 && e.den != 1) return Expr{};  // not an integer: an invalid model
    return e;
  }
  Expr product(std::span<const Expr> es) {
    Expr acc = Expr::fixed_at(1);
    for (const Expr& e : es) acc = mul(acc, e);
    return acc;
  }

  std::string text(const Expr& e) const {
    if (e.kind != Expr::Exact) return "?";
    if (e.names == 0) return fmt::format("{}", e.num);
    std::string s = names_text(e.names);
    if (e.num != 1) s = fmt::format("{}*{}", e.num, s);
    if (e.den != 1) s = fmt::format("{}/{}", s, e.den);
    return s;
  }
  // 'seq' for a plain input dim, else the expression (8*batch).
  std::string quoted(const Expr& e) const {
    return e.free() && e.num == 1 && e.den == 1 ? quoted_names(e.names) : text(e);
  }
  std::string text(const Dims& d) const {
    std::string out = "[";
    for (size_t i = 0; i < d.size(); ++i) out += (i ? ", " : "") + text(d[i]);
    return out + "]";
  }
  static std::string ints_text(std::span<const int64_t> v) {
    return fmt::format("[{}]", fmt::join(v, ", "));
  }

  // ------------------------------------------------------------------------- value facts

  bool is_main_input(ValueId v) const { return main_inputs_.count(v) > 0; }

  // Dims from the analysis: fixed sizes are kept, symbolic ones are not exact.
  std::optional<Dims> from_analysis(ValueId v) {
    auto ds = p_->dims(v);
    if (!ds) return std::nullopt;
    Dims out;
    for (const DimFact& d : *ds) {
      if (d.kind == DimFact::Kind::Fixed) {
        out.push_back(Expr::fixed_at(d.value));
      } else {
        out.push_back(d.kind == DimFact::Kind::Symbolic ? Expr::opaque() : Expr{});
      }
    }
    return out;
  }

  std::optional<Dims> seed(ValueId v) {
    if (is_main_input(v)) {
      auto ds = p_->dims(v);
      if (!ds) return std::nullopt;
      Dims out;
      for (const DimFact& d : *ds) {
        if (d.kind == DimFact::Kind::Fixed) {
          out.push_back(Expr::fixed_at(d.value));
        } else if (d.kind == DimFact::Kind::Symbolic && d.names.size() == 1) {
          Expr e = Expr::fixed_at(1);
          e.names = single(d.names[0]);
          out.push_back(e);
          name_input_.emplace(std::string(d.names[0]), std::string(p_->name_of(v)));
        } else {
          out.push_back(Expr{});
        }
      }
      return out;
    }
    // A function body's formal: exact when every call passes the same sizes.
    const Graph* g = p_->graph_of(v);
    if (g != nullptr && g->kind() == Graph::Kind::Function && g->function() != nullptr &&
        p_->producer(v) == nullptr) {
      auto it = calls_.find(g->function());
      if (it != calls_.end() && it->second.seen == it->second.total) {
        std::string_view name = p_->name_of(v);
        for (size_t k = 0; k < g->inputs().size() && k < it->second.formals.size(); ++k) {
          if (g->inputs()[k].name == name && !it->second.conflict[k] && it->second.formals[k]) {
            return it->second.formals[k];
          }
        }
      }
    }
    return from_analysis(v);
  }

  std::optional<Dims> get(ValueId v) {
    if (v == kNoValue) return std::nullopt;
    if (v >= ref_.size() || ref_[v] == 0) store(v, seed(v));
    return load(ref_[v]);  // as stored: a rank past the cap reads back as unknown
  }
  std::optional<Dims> load(uint32_t ref) const {
    if (ref == 1) return std::nullopt;
    const auto [off, len] = spans_[ref - 2];
    return Dims(arena_.begin() + off, arena_.begin() + off + len);
  }
  static bool same_expr(const Expr& a, const Expr& b) {
    return a.kind == b.kind && a.num == b.num && a.den == b.den && a.names == b.names &&
           a.lit == b.lit && a.mixed == b.mixed;
  }
  void store(ValueId v, const std::optional<Dims>& d) {
    if (v >= ref_.size()) ref_.resize(v + 1, 0);  // geometric capacity growth
    ref_[v] = intern_dims(d);
  }
  // The reference of a dims vector: 1 for none, else its interned span index + 2.
  uint32_t intern_dims(const std::optional<Dims>& d) {
    if (!d || d->size() > kMaxTrackedRank) return 1;  // ranks past the cap are not followed
    uint64_t h = d->size();
    for (const Expr& e : *d) {
      for (uint64_t x : {uint64_t(e.kind), uint64_t(e.num), uint64_t(e.den), uint64_t(e.names),
                         uint64_t(reinterpret_cast<uintptr_t>(e.lit)),
                         uint64_t(reinterpret_cast<uintptr_t>(e.mixed))}) {
        h = (h ^ x) * 0x100000001b3ull;
      }
    }
    auto [it, fresh] = interned_.emplace(h, static_cast<uint32_t>(spans_.size()));
    if (!fresh) {
      const auto [off, len] = spans_[it->second];
      if (len == d->size() && std::equal(d->begin(), d->end(), arena_.begin() + off, same_expr)) {
        return it->second + 2;
      }
    }
    // New (or a hash collision, which only costs a copy).
    spans_.emplace_back(static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(d->size()));
    arena_.insert(arena_.end(), d->begin(), d->end());
    return static_cast<uint32_t>(spans_.size() - 1) + 2;
  }
  // Input and output value ids of the node being visited, looked up once per node.
  ValueId input(const Node& n, size_t k) {
    if (&n != io_node_) load_io(n);
    return k < io_in_.size() ? io_in_[k] : kNoValue;
  }
  ValueId output(const Node& n, size_t k) {
    if (&n != io_node_) load_io(n);
    return k < io_out_.size() ? io_out_[k] : kNoValue;
  }
  void load_io(const Node& n) {
    io_node_ = &n;
    io_in_.resize(n.inputs().size());
    for (size_t k = 0; k < io_in_.size(); ++k) io_in_[k] = p_->input(n, k);
    io_out_.resize(n.outputs().size());
    for (size_t k = 0; k < io_out_.size(); ++k) io_out_[k] = p_->output(n, k);
  }
  const Node* io_node_ = nullptr;
  std::vector<ValueId> io_in_, io_out_;

  std::optional<Dims> in(const Node& n, size_t k) { return get(input(n, k)); }
  void set(const Node& n, size_t k, Dims d) {
    ValueId v = output(n, k);
    if (v == kNoValue) return;
    // Most outputs have the dims of an input (Add(x, bias), Relu, ...): share its span.
    for (size_t i = 0; i < n.inputs().size(); ++i) {
      ValueId u = input(n, i);
      if (u == kNoValue || u >= ref_.size() || ref_[u] < 2) continue;
      const auto [off, len] = spans_[ref_[u] - 2];
      if (len == d.size() && std::equal(d.begin(), d.end(), arena_.begin() + off, same_expr)) {
        if (v >= ref_.size()) ref_.resize(v + 1, 0);
        ref_[v] = ref_[u];
        return;
      }
    }
    store(v, d);
  }
  // The elements of a small integer vector: the analysis's known values, else those followed
  // here (shape arithmetic, with exact dims; Where/Equal/ConstantOfShape on constants).
  std::optional<Dims> elems_of(ValueId v) {
    if (v == kNoValue) return std::nullopt;
    if (auto it = eref_.find(v); it != eref_.end()) return load(it->second);
    if (auto k = p_->known_ints(v)) {
      Dims out;
      for (int64_t x : *k) out.push_back(Expr::fixed_at(x));
      return out;
    }
    return std::nullopt;
  }
  std::optional<Dims> elems(const Node& n, size_t k) {
    if (k >= n.inputs().size() || n.inputs()[k].empty()) return std::nullopt;
    return elems_of(input(n, k));
  }
  std::optional<std::vector<int64_t>> ints(const Node& n, size_t k) {
    auto e = elems(n, k);
    if (!e) return std::nullopt;
    std::vector<int64_t> out;
    for (const Expr& x : *e) {
      if (x.kind != Expr::Exact || x.names != 0 || x.den != 1) return std::nullopt;
      out.push_back(x.num);
    }
    return out;
  }
  void set_elems(const Node& n, size_t k, const Dims& e) {
    ValueId v = output(n, k);
    if (v != kNoValue && e.size() <= 16) eref_[v] = intern_dims(e);
  }

  // Elements of the outputs of shape arithmetic. Exact dims stay exact through Shape, Gather,
  // Concat, Slice, Unsqueeze, Mul and Div; fixed elements are folded by every op listed.
  // False when a value's dims show it is no small vector (most tensors): no elements to follow.
  bool maybe_vector(ValueId v) const {
    if (v == kNoValue || v >= ref_.size() || ref_[v] < 2) return true;
    const auto [off, len] = spans_[ref_[v] - 2];
    return len == 0 || (len == 1 && arena_[off].fixed() && arena_[off].num <= 16);
  }

  void visit_elems(const Node& n) {
    const std::string_view op = n.op_type();
    if (op != "Shape" && op != "ConstantOfShape" && op != "Concat" &&
        !maybe_vector(input(n, op == "Where" ? 1 : 0))) {
      return;
    }
    if (op == "Shape") {
      auto d = in(n, 0);
      if (!d) return;
      const int64_t r = static_cast<int64_t>(d->size());
      int64_t st = n.attr_int("start").value_or(0), en = n.attr_int("end").value_or(r);
      if (st < 0) st += r;
      if (en < 0) en += r;
      st = std::clamp<int64_t>(st, 0, r);
      en = std::clamp<int64_t>(en, st, r);
      Dims out(d->begin() + st, d->begin() + en);
      for (Expr& e : out) e.lit = nullptr;  // read from the tensor, not written by a constant
      return set_elems(n, 0, out);
    }
    if (op == "Identity" || op == "Cast" || op == "Unsqueeze" || op == "Squeeze" ||
        op == "Reshape" || op == "Flatten") {
      if (auto e = elems(n, 0)) set_elems(n, 0, *e);
      return;
    }
    if (op == "Gather") {
      auto e = elems(n, 0);
      auto idx = ints(n, 1);
      if (!e || !idx || n.attr_int("axis").value_or(0) != 0) return;
      Dims out;
      const int64_t len = static_cast<int64_t>(e->size());
      for (int64_t i : *idx) {
        if (i < 0) i += len;
        if (i < 0 || i >= len) return;
        out.push_back((*e)[i]);
      }
      return set_elems(n, 0, out);
    }
    if (op == "Concat") {
      if (n.attr_int("axis").value_or(0) != 0 && n.attr_int("axis").value_or(0) != -1) return;
      Dims out;
      for (size_t k = 0; k < n.inputs().size(); ++k) {
        auto e = elems(n, k);
        if (!e) return;
        out.insert(out.end(), e->begin(), e->end());
      }
      return set_elems(n, 0, out);
    }
    if (op == "Slice" && p_->opset(n) >= 10) {
      auto e = elems(n, 0);
      auto st = ints(n, 1), en = ints(n, 2);
      if (!e || !st || !en || st->size() != 1 || en->size() != 1) return;
      if (n.inputs().size() > 4 && !n.inputs()[4].empty()) {
        auto step = ints(n, 4);
        if (!step || step->size() != 1 || (*step)[0] != 1) return;
      }
      const int64_t len = static_cast<int64_t>(e->size());
      int64_t a = std::clamp<int64_t>((*st)[0], -len, len),
              b = std::clamp<int64_t>((*en)[0], -len, len);
      if (a < 0) a += len;
      if (b < 0) b += len;
      if (b < a) b = a;
      return set_elems(n, 0, Dims(e->begin() + a, e->begin() + b));
    }
    if (op == "ConstantOfShape") {
      auto shape = ints(n, 0);
      if (!shape || shape->size() > 1) return;
      const int64_t count = shape->empty() ? 1 : (*shape)[0];
      if (count < 0 || count > 16) return;
      int64_t fill = 0;
      if (const Attribute* a = n.attribute("value"); a != nullptr && a->t != nullptr) {
        auto v = ctx_model_->read_ints(*a->t, 1);
        if (!v || v->size() != 1) return;
        fill = (*v)[0];
      }
      return set_elems(n, 0, Dims(count, Expr::fixed_at(fill)));
    }
    const bool arith = op == "Mul" || op == "Div" || op == "Add" || op == "Sub";
    if (arith || op == "Equal" || op == "Where") {
      const size_t first = op == "Where" ? 1 : 0;
      auto a = elems(n, first), b = elems(n, first + 1);
      std::optional<Dims> c;
      if (op == "Where") c = elems(n, 0);
      if (!a || !b || (op == "Where" && !c)) return;
      size_t len = std::max(a->size(), b->size());
      if (c) len = std::max(len, c->size());
      auto at = [&](const Dims& v, size_t i) -> const Expr* {
        return v.size() == 1 ? &v[0] : v.size() == len ? &v[i] : nullptr;
      };
      Dims out;
      for (size_t i = 0; i < len; ++i) {
        const Expr *x = at(*a, i), *y = at(*b, i);
        if (x == nullptr || y == nullptr) return;
        if (op == "Where") {
          const Expr* cond = at(*c, i);
          if (cond == nullptr || !cond->fixed()) return;
          out.push_back(cond->num != 0 ? *x : *y);
        } else if (op == "Equal") {
          if (!x->fixed() || !y->fixed()) return;
          out.push_back(Expr::fixed_at(x->num == y->num ? 1 : 0));
        } else {
          out.push_back(elem_arith(op, *x, *y));
        }
      }
      return set_elems(n, 0, out);
    }
  }

  Expr elem_arith(std::string_view op, const Expr& x, const Expr& y) {
    if (x.fixed() && y.fixed()) {
      CheckedInt r;
      if (op == "Mul") {
        r = checked_mul(x.num, y.num);
      } else if (op == "Add") {
        r = checked_add(x.num, y.num);
      } else if (op == "Sub") {
        r = checked_sub(x.num, y.num);
      } else {
        r = checked_floor_div(x.num, y.num);
      }
      return r ? Expr::fixed_at(*r) : Expr{};
    }
    // Exact products of dims stay exact; a division must come out whole to be a dim.
    if (op == "Mul") return mul(x, y);
    if (op == "Div" && x.kind == Expr::Exact && y.fixed() && y.num > 0) {
      Expr q = div(x, y);
      if (q.kind == Expr::Exact && q.den == 1) return q;
    }
    if ((op == "Add" || op == "Sub") && y.fixed() && y.num == 0) return x;
    return x.kind == Expr::Unknown || y.kind == Expr::Unknown ? Expr{} : Expr::opaque();
  }
  static std::optional<std::vector<int64_t>> attr_ints(const Node& n, std::string_view name) {
    const Attribute* a = n.attribute(name);
    if (a == nullptr) return std::nullopt;
    return std::vector<int64_t>(a->ints.begin(), a->ints.end());
  }
  bool combined_piece(ValueId v) const {
    auto it = tags_.find(v);
    return it != tags_.end() && std::popcount(it->second.bits) >= 2;
  }

  void fallback(const Node& n) {
    for (size_t k = 0; k < n.outputs().size(); ++k) {
      ValueId v = output(n, k);
      if (v != kNoValue) store(v, from_analysis(v));
    }
  }

  // ------------------------------------------------------------------------- findings

  // A free dim required to equal a fixed size. `or_one`: broadcasting also accepts 1.
  struct Force {
    const Node* at;             // the node whose semantics require the equality
    Expr free;                  // exact, with free dims
    ValueId free_value;         // the operand carrying it
    int64_t need;               // the fixed size it must equal
    const Node* lit = nullptr;  // where that fixed size was written, if a constant argument
    ValueId fixed_value = kNoValue;
    bool or_one = false;
    // How `at` requires it, for the message: formatted only when a finding is written (most
    // calls repeat a size already reported, or pin nothing).
    std::function<std::string()> what;
    bool silent = false;  // other sizes give wrong results rather than a run-time failure
  };

  // The value of the free dims' product forced by free == need, or nullopt.
  std::optional<int64_t> forced_value(const Expr& free, int64_t need) const {
    const CheckedInt x = checked_mul(need, free.den);
    if (!x || *x % free.num != 0) return std::nullopt;
    if (*x / free.num < 1) return std::nullopt;
    return *x / free.num;
  }

  std::string dim_phrase(uint32_t set) const {
    if (sets_[set].size() == 1) {
      const std::string& n = names_[sets_[set][0]];
      auto it = name_input_.find(n);
      if (it != name_input_.end() && n.find(".shape") == std::string::npos) {
        return fmt::format("dim '{}' of input '{}'", n, it->second);
      }
      return fmt::format("input dim '{}'", n);
    }
    std::vector<std::string_view> parts;
    for (uint32_t id : sets_[set]) parts.push_back(names_[id]);
    return fmt::format("the product of input dims {}", quoted_list(parts));
  }

  static std::string help_for(std::string_view op) {
    std::string base =
        "read sizes inside the traced code with `x.shape[i]` / `x.size(i)` and keep them as "
        "tensors (torch.onnx traces them as Shape ops) instead of turning them into Python ints "
        "(`int(...)`, numpy, `len()`, literals equal to the example's size); use -1 in "
        "`view`/`reshape` for the dynamic dim; or, if the size is meant to be fixed, export "
        "without dynamic_axes for it";
    if (op == "Split") {
      return "pass `torch.split` a chunk size (`torch.split(x, k, dim)`), or slice with bounds "
             "computed from `x.shape[i]` inside the traced code, so the sizes come from the "
             "input rather than from the example; or export with a fixed size on purpose";
    }
    if (op == "Loop") {
      return "vectorise the loop (one op over the whole axis: batched matmul, einsum, "
             "broadcasting, cumsum), or move it into a `torch.jit.script` function so it exports "
             "as an ONNX Loop whose trip count comes from the input; or export with a fixed size "
             "for that axis on purpose";
    }
    return base;
  }

  void force(const Force& f, RuleContext& ctx) {
    if (!f.free.free() || f.need < 0 || (f.or_one && f.need == 1)) return;
    if (f.fixed_value != kNoValue && combined_piece(f.fixed_value)) return;  // a loop's result
    auto val = forced_value(f.free, f.need);
    if (!val) return;
    const uint32_t set = f.free.names;
    const Node* where = f.at;
    if (f.free.mixed != nullptr && f.free.mixed != f.at) {
      where = f.free.mixed;
    } else if (f.lit != nullptr && f.lit != f.at) {
      where = f.lit;
    }
    auto key = std::make_pair(set, *val);
    if (auto it = reported_.find(key); it != reported_.end()) {
      // Usually a consequence of the first one; say where else the size is assumed.
      if (it->second.node != where && it->second.node != f.at && it->second.d->notes.size() < 4) {
        it->second.d->notes.push_back(
            fmt::format("{} also needs {} = {}", node_label(*f.at), quoted_names(set), *val));
      }
      return;
    }
    const std::string value_text =
        f.free.num == 1 && f.free.den == 1
            ? fmt::format("{} is {}", quoted_names(set), *val)
            : fmt::format("{} is {}, i.e. {} is {}", text(f.free), f.need, quoted_names(set), *val);
    const std::string or_one = f.or_one ? " (or 1)" : "";
    const std::string fails =
        f.silent ? fmt::format(
                       "the size seen at export was baked in, and at any other size of "
                       "{} the output silently has the wrong shape",
                       quoted_names(set))
                 : fmt::format(
                       "the size seen at export was baked in, and any other size of {} "
                       "fails at run time",
                       quoted_names(set));
    std::string msg;
    if (where == f.free.mixed) {
      auto shape = reshape_target(*where);
      msg = fmt::format(
          "{} has the constant shape {}, which folds {} into the dim {}; {} needs that dim to be "
          "{}, so the model only runs when {}{}: {}",
          node_label(*where), shape ? text(*shape) : std::string("?"), dim_phrase(set),
          text(f.free), node_label(*f.at), f.need, value_text, or_one, fails);
    } else if (where == f.lit) {
      // Name the operand when it is not the input itself ("... of input 'x' (as '/h')").
      std::string via;
      if (f.free_value != kNoValue && !is_main_input(f.free_value)) {
        via = fmt::format(" (in '{}')", p_->name_of(f.free_value));
      }
      msg = fmt::format(
          "{} writes the constant size {}, and {} needs {}{} to match it: the model only runs "
          "when {}{}; {}",
          node_label(*where), f.need, node_label(*f.at), dim_phrase(set), via, value_text, or_one,
          fails);
    } else {
      msg = fmt::format("{} {}, which only holds when {}{}: {}", node_label(*f.at), f.what(),
                        value_text, or_one, fails);
    }
    Diagnostic& d = ctx.report(ctx.at_node(*where), std::move(msg));
    d.key = fmt::format("{}={}", names_text(set), *val);
    if (sets_[set].size() == 1) {
      d.notes.push_back(fmt::format("{} is declared dynamic", dim_phrase(set)));
    } else {
      std::vector<std::string_view> parts;
      for (uint32_t id : sets_[set]) parts.push_back(names_[id]);
      d.notes.push_back(fmt::format("{} are declared dynamic", dims_phrase(parts)));
    }
    d.help = help_for(where->op_type());
    reported_.emplace(key, Reported{&d, where});
    if (sets_[set].size() == 1) learned_.emplace(sets_[set][0], *val);
  }

  // Equalities the registry's ops require that pin an input dim (include/onnxlint/dim_pins.h):
  // they reach dims this rule's own transfers do not follow exactly (through Conv, Pool, Pad,
  // Resize, an RNN's state, a weight). A dim already reported above is not reported again.
  void report_pins(RuleContext& ctx) {
    std::unordered_set<std::string_view> done;
    for (const auto& [key, r] : reported_) {
      for (uint32_t id : sets_[key.first]) done.insert(names_[id]);
    }
    // The input declaring each dim name, for the notes (the first one met).
    std::map<std::string_view, std::string_view> declared_by;
    for (const ValueInfo& vi : ctx_model_->graph().inputs()) {
      const ValueId v = p_->find(ctx_model_->graph(), vi.name);
      if (!is_main_input(v)) continue;
      if (auto ds = p_->dims(v)) {
        for (const DimFact& f : *ds) {
          if (f.kind == DimFact::Kind::Symbolic && f.names.size() == 1) {
            declared_by.emplace(f.names[0], p_->name_of(v));
          }
        }
      }
    }
    // One finding per set of dims pinned; the other nodes that pin them are notes.
    struct First {
      Diagnostic* d;
      const Node* node;
    };
    std::map<std::vector<std::string_view>, First> pinned;
    for (const DimPin& pin : ctx.get<DimPins>().pins()) {
      if (std::any_of(pin.dim_names.begin(), pin.dim_names.end(),
                      [&](std::string_view n) { return done.count(n) > 0; })) {
        continue;
      }
      if (pin.fixed_operand != kNoValue && combined_piece(pin.fixed_operand)) continue;
      std::vector<std::string_view> quoted;
      for (std::string_view n : pin.dim_names) quoted.push_back(n);
      const std::string names = quoted_list(quoted);
      const std::string runs = runs_text(pin);
      if (auto it = pinned.find(pin.dim_names); it != pinned.end()) {
        if (it->second.d->notes.size() < 4 && pin.node != it->second.node) {
          it->second.d->notes.push_back(
              fmt::format("{} also needs {}", node_label(*pin.node), runs));
        }
        continue;
      }
      const std::string against = pin.fixed_operand == kNoValue
                                      ? fmt::format("its constant size {}", pin.required)
                                      : fmt::format("dim {} of '{}', which is {}", pin.fixed_axis,
                                                    p_->name_of(pin.fixed_operand), pin.required);
      const bool plain = pin.dim_names.size() == 1 && pin.expr == pin.dim_names[0];
      const std::string expr = plain ? names : fmt::format("{}, from {},", pin.expr, names);
      Diagnostic& d = ctx.report(
          ctx.at_node(*pin.node),
          fmt::format("{} {}: dim {} of '{}' is {} and must equal {}{}, so the model only runs "
                      "when {}: the size seen at export was baked in, and other sizes of {} "
                      "fail at run time",
                      node_label(*pin.node), pin.what, pin.axis, p_->name_of(pin.operand), expr,
                      against, pin.or_one ? " (or be 1)" : "", runs, names));
      d.key = fmt::format("{}={}", fmt::join(pin.dim_names, "*"), pin.required);
      for (std::string_view n : pin.dim_names) {
        auto input = declared_by.find(n);
        d.notes.push_back(
            input != declared_by.end()
                ? fmt::format("dim '{}' of input '{}' is declared dynamic", n, input->second)
                : fmt::format("input dim '{}' is declared dynamic", n));
      }
      d.help = help_for(pin.node->op_type());
      pinned.emplace(pin.dim_names, First{&d, pin.node});
    }
  }
  // "'H' is 63 to 64 (or 1 to 2)"; with several dims, their bounds and the sizes that work
  // when they are equal: "'H' is at most 64 and 'W' at most 64 ('H' = 'W' = 63 to 64 works)".
  static std::string runs_text(const DimPin& pin) {
    if (pin.dim_names.size() == 1) {
      std::string out =
          fmt::format("'{}' is {}", pin.dim_names[0], sizes_text(pin.first, pin.last));
      if (pin.or_one && pin.first_one <= pin.last_one) {
        out += fmt::format(" (or {})", sizes_text(pin.first_one, pin.last_one));
      }
      return out;
    }
    std::vector<std::string> bounds;
    for (size_t i = 0; i < pin.dim_names.size() && i < pin.at_most.size(); ++i) {
      bounds.push_back(fmt::format("'{}' is at most {}", pin.dim_names[i], pin.at_most[i]));
    }
    std::string out = fmt::format("{}", fmt::join(bounds, " and "));
    if (pin.first <= pin.last) {
      out += fmt::format(" ({} = {} works)", fmt::format("'{}'", fmt::join(pin.dim_names, "' = '")),
                         sizes_text(pin.first, pin.last));
    }
    return out;
  }
  static std::string sizes_text(int64_t first, int64_t last) {
    return first == last ? fmt::format("{}", first) : fmt::format("{} to {}", first, last);
  }

  // ------------------------------------------------------------------------- the pass

  void visit(const Node& n, RuleContext& ctx) {
    propagate_tags(n);
    if (n.in_default_domain()) visit_elems(n);
    const bool std_domain = n.in_default_domain();
    if (!calls_.empty()) {
      if (const Function* f = p_->called_function(n)) {
        record_call(n, *f);
        fallback(n);
        return;
      }
    }
    if (!std_domain) {
      fallback(n);
      return;
    }
    for (const Attribute& a : n.attributes()) {
      if (!a.ref_attr_name.empty()) {  // a function attribute: not known here
        fallback(n);
        return;
      }
    }
    const std::string_view op = n.op_type();
    if (is_unary(op)) {
      if (auto d = in(n, 0)) {
        set(n, 0, *d);
        if (op == "Dropout" && n.outputs().size() > 1) set(n, 1, *d);
      } else {
        fallback(n);
      }
    } else if (is_broadcast(op)) {
      broadcast_op(n, ctx);
    } else if (op == "MatMul") {
      matmul(n, ctx);
    } else if (op == "Gemm") {
      gemm(n, ctx);
    } else if (op == "Transpose") {
      transpose(n);
    } else if (op == "Unsqueeze" || op == "Squeeze") {
      squeeze(n, op == "Unsqueeze");
    } else if (op == "Flatten") {
      flatten(n);
    } else if (op == "Reshape") {
      reshape(n, ctx);
    } else if (op == "Expand") {
      expand(n, ctx);
    } else if (op == "Concat") {
      concat(n, ctx);
    } else if (op == "Gather") {
      gather(n);
    } else if (op == "Slice") {
      slice(n);
    } else if (op == "Split") {
      split(n, ctx);
    } else if (op == "Tile") {
      tile(n);
    } else if (op == "ConstantOfShape") {
      constant_of_shape(n);
    } else if (op == "Resize") {
      resize(n, ctx);
    } else if (op == "Conv" || op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
      conv(n, op == "Conv");
    } else if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool") {
      // [N, C, 1, 1, ...]
      auto d = in(n, 0);
      if (!d || d->size() < 2) return fallback(n);
      for (size_t i = 2; i < d->size(); ++i) (*d)[i] = Expr::fixed_at(1);
      set(n, 0, std::move(*d));
    } else if (op.starts_with("Reduce")) {
      reduce(n);
    } else {
      fallback(n);
    }
  }

  // Op names from one space-separated list.
  static std::unordered_set<std::string_view> op_set(std::string_view list) {
    std::unordered_set<std::string_view> out;
    while (!list.empty()) {
      size_t sp = list.find(' ');
      if (sp != 0) out.insert(list.substr(0, sp));
      if (sp == std::string_view::npos) break;
      list.remove_prefix(sp + 1);
    }
    return out;
  }
  // Output 0 has the dims of input 0.
  static bool is_unary(std::string_view op) {
    static const auto k = op_set(
        "Abs Acos Acosh Asin Asinh Atan Atanh Ceil Celu Clip Cos Cosh CumSum Elu Erf Exp Floor "
        "Gelu HardSigmoid HardSwish Hardmax IsInf IsNaN LeakyRelu Log LogSoftmax LpNormalization "
        "LRN MeanVarianceNormalization Mish Not Reciprocal Relu Round Selu Shrink Sigmoid Sign "
        "Sin Sinh Softmax Softplus Softsign Sqrt Tan Tanh ThresholdedRelu Trilu Dropout "
        "BatchNormalization InstanceNormalization LayerNormalization GroupNormalization Identity "
        "Cast CastLike Neg QuantizeLinear DequantizeLinear");
    return k.count(op) > 0;
  }
  // Multidirectional broadcasting of every input.
  static bool is_broadcast(std::string_view op) {
    static const auto k = op_set(
        "Add Sub Mul Div Pow Mod Max Min Mean Sum And Or Xor Equal Greater Less Where "
        "GreaterOrEqual LessOrEqual PRelu BitShift");
    return k.count(op) > 0;
  }

  void propagate_tags(const Node& n) {
    Tag t;
    for (size_t k = 0; k < n.inputs().size(); ++k) {
      ValueId v = input(n, k);
      if (v == kNoValue) continue;
      auto it = tags_.find(v);
      if (it == tags_.end()) continue;
      if (t.run == 0) t.run = it->second.run;
      if (it->second.run == t.run) t.bits |= it->second.bits;
    }
    if (t.run == 0) return;
    if (std::popcount(t.bits) >= 2 && runs_.size() >= t.run) {
      Run& r = runs_[t.run - 1];
      if (r.combined == nullptr) r.combined = &n;
    }
    for (size_t k = 0; k < n.outputs().size(); ++k) {
      ValueId v = output(n, k);
      if (v != kNoValue) tags_[v] = t;
    }
  }

  // A Gather/Slice reading one constant position of an axis whose size is an exact free dim.
  void piece(const Node& n, ValueId data, int64_t axis, const Expr& dim, int64_t pos) {
    if (!dim.free() || pos < 0) return;
    // Shape vectors are unpacked, not looped over (a dynamic tensor's shape is shape-derived).
    const ValueClass vc = p_->value_class(data);
    if (vc == ValueClass::ShapeDerived || (vc == ValueClass::Constant && p_->from_shape(data))) {
      return;
    }
    auto [it, fresh] = run_of_.emplace(std::make_pair(data, axis), 0);
    if (fresh) {
      runs_.push_back(Run{data, axis, dim});
      it->second = static_cast<uint32_t>(runs_.size());
    }
    Run& r = runs_[it->second - 1];
    if (pos >= 64) {
      r.too_far = true;
      return;
    }
    r.positions |= uint64_t{1} << pos;
    r.pieces.push_back(&n);
    ValueId out = output(n, 0);
    // A piece read again by another piece of the same run is not a new loop iteration.
    if (out != kNoValue) tags_[out] = Tag{it->second, uint64_t{1} << pos};
  }

  void report_loops(RuleContext& ctx) {
    for (const Run& r : runs_) {
      if (r.too_far || r.combined == nullptr || r.pieces.size() < 2) continue;
      const int k = std::popcount(r.positions);
      if (k < 2 || r.positions != (k == 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1)) continue;
      // Two or three leading positions can be meant (first and second token); a shorter run
      // counts when another finding shows the axis had exactly that size at export.
      const bool plain_dim = sets_[r.dim.names].size() == 1 && r.dim.num == 1 && r.dim.den == 1;
      auto seen = plain_dim ? learned_.find(sets_[r.dim.names][0]) : learned_.end();
      if (k < min_length_ && !(seen != learned_.end() && seen->second == k)) continue;
      const Node* first = r.pieces.front();
      for (const Node* x : r.pieces) {
        if (x->index() < first->index()) first = x;
      }
      const bool plain = r.dim.num == 1 && r.dim.den == 1;
      const std::string dim = quoted(r.dim);
      Diagnostic& d = ctx.report(
          ctx.at_node_value(*first, p_->name_of(r.data)),
          fmt::format(
              "'{}' is read at positions 0..{} of axis {} by {} {} nodes that {} combines again, "
              "but that axis has the dynamic size {}: a Python loop over it was unrolled by "
              "tracing for a size of {}; at any other size the model silently ignores the "
              "positions after {} (or fails when there are fewer)",
              p_->name_of(r.data), k - 1, r.axis, r.pieces.size(), first->op_type(),
              node_label(*r.combined), dim, k, k - 1));
      d.key = fmt::format("axis{}", r.axis);
      d.notes.push_back(fmt::format("the size of that axis is {}{}", plain ? "" : dim + ", from ",
                                    dim_phrase(r.dim.names)));
      d.help = help_for("Loop");
      if (sets_[r.dim.names].size() == 1 && r.dim.num == 1 && r.dim.den == 1) {
        learned_.emplace(sets_[r.dim.names][0], k);
      }
    }
  }

  // Broadcasting one axis: `ops` are the operands' sizes (with their values) at that axis.
  Expr join_broadcast(const Node& n, const std::vector<std::pair<Expr, ValueId>>& ops,
                      RuleContext& ctx) {
    const std::pair<Expr, ValueId>* fixed = nullptr;
    for (const auto& o : ops) {
      if (o.first.fixed() && o.first.num != 1) {
        fixed = &o;
        break;
      }
    }
    if (fixed != nullptr) {
      for (const auto& o : ops) {
        if (o.first.free()) {
          force(
              Force{&n, o.first, o.second, fixed->first.num, fixed->first.lit, fixed->second, true,
                    [&] {
                      return fmt::format(
                          "broadcasts '{}' against '{}', which has the size {} where '{}' "
                          "has {}",
                          p_->name_of(o.second), p_->name_of(fixed->second), fixed->first.num,
                          p_->name_of(o.second), quoted(o.first));
                    }},
              ctx);
        }
      }
      return fixed->first;
    }
    const Expr* any = nullptr;
    bool unknown = false, opaque = false;
    for (const auto& o : ops) {
      if (o.first.fixed() && o.first.num == 1) continue;
      if (o.first.kind == Expr::Unknown) unknown = true;
      if (o.first.kind == Expr::Opaque) opaque = true;
      if (any == nullptr) {
        any = &o.first;
      } else if (!any->same(o.first)) {
        opaque = true;
      }
    }
    if (any == nullptr) return Expr::fixed_at(1);
    if (unknown) return Expr{};
    if (opaque) return Expr::opaque();
    return *any;
  }

  void broadcast_op(const Node& n, RuleContext& ctx) {
    std::vector<std::pair<Dims, ValueId>> operands;
    size_t rank = 0;
    for (size_t k = 0; k < n.inputs().size(); ++k) {
      if (n.inputs()[k].empty()) continue;
      auto d = in(n, k);
      if (!d) return fallback(n);
      rank = std::max(rank, d->size());
      operands.emplace_back(std::move(*d), input(n, k));
    }
    Dims out(rank);
    for (size_t j = 0; j < rank; ++j) {  // j: axis of the output
      std::vector<std::pair<Expr, ValueId>> ops;
      for (const auto& [d, v] : operands) {
        size_t shift = rank - d.size();
        if (j >= shift) ops.emplace_back(d[j - shift], v);
      }
      out[j] = join_broadcast(n, ops, ctx);
    }
    set(n, 0, std::move(out));
  }

  void matmul(const Node& n, RuleContext& ctx) {
    auto x = in(n, 0), y = in(n, 1);
    // Rank-0 operands are invalid; 1-D ones are promoted to matrices ([K] -> [1, K] / [K, 1]),
    // so from here on both have rank 2 or more.
    if (!x || !y || x->empty() || y->empty()) return fallback(n);
    const bool xv = x->size() == 1, yv = y->size() == 1;
    if (xv) x->insert(x->begin(), Expr::fixed_at(1));
    if (yv) y->push_back(Expr::fixed_at(1));
    k_check(n, (*x)[x->size() - 1], input(n, 0), (*y)[y->size() - 2], input(n, 1), ctx);
    Dims bx(x->begin(), x->end() - 2), by(y->begin(), y->end() - 2);
    const size_t r = std::max(bx.size(), by.size());
    Dims out;
    for (size_t j = 0; j < r; ++j) {
      std::vector<std::pair<Expr, ValueId>> ops;
      if (j >= r - bx.size()) ops.emplace_back(bx[j - (r - bx.size())], input(n, 0));
      if (j >= r - by.size()) ops.emplace_back(by[j - (r - by.size())], input(n, 1));
      out.push_back(join_broadcast(n, ops, ctx));
    }
    if (!xv) out.push_back((*x)[x->size() - 2]);
    if (!yv) out.push_back(y->back());
    set(n, 0, std::move(out));
  }

  // The contracted dims of a matrix product must be equal.
  void k_check(const Node& n, const Expr& a, ValueId va, const Expr& b, ValueId vb,
               RuleContext& ctx) {
    auto what = [&] {
      return fmt::format("multiplies '{}' by '{}', whose inner dims must be equal", p_->name_of(va),
                         p_->name_of(vb));
    };
    if (a.free() && b.fixed()) force(Force{&n, a, va, b.num, b.lit, vb, false, what}, ctx);
    if (b.free() && a.fixed()) force(Force{&n, b, vb, a.num, a.lit, va, false, what}, ctx);
  }

  void gemm(const Node& n, RuleContext& ctx) {
    auto a = in(n, 0), b = in(n, 1);
    if (!a || !b || a->size() != 2 || b->size() != 2) return fallback(n);
    const bool ta = n.attr_int("transA").value_or(0) != 0;
    const bool tb = n.attr_int("transB").value_or(0) != 0;
    k_check(n, (*a)[ta ? 0 : 1], input(n, 0), (*b)[tb ? 1 : 0], input(n, 1), ctx);
    set(n, 0, Dims{(*a)[ta ? 1 : 0], (*b)[tb ? 0 : 1]});
  }

  void transpose(const Node& n) {
    auto d = in(n, 0);
    if (!d) return fallback(n);
    Dims out;
    if (const Attribute* perm = n.attribute("perm")) {
      if (perm->ints.size() != d->size()) return fallback(n);
      for (int64_t ax : perm->ints) {
        auto i = axis_index(ax, d->size());
        if (!i) return fallback(n);
        out.push_back((*d)[*i]);
      }
    } else {
      out.assign(d->rbegin(), d->rend());
    }
    set(n, 0, std::move(out));
  }

  std::optional<std::vector<int64_t>> axes_of(const Node& n, size_t input, int64_t since) {
    if (p_->opset(n) < since) return attr_ints(n, "axes");
    return ints(n, input);
  }

  void squeeze(const Node& n, bool unsqueeze) {
    auto d = in(n, 0);
    auto axes = axes_of(n, 1, 13);
    if (!d || !axes || axes->size() > kMaxTrackedRank) return fallback(n);
    // Unsqueeze's axes index the output, Squeeze's the input.
    const size_t r = d->size() + (unsqueeze ? axes->size() : 0);
    std::vector<bool> mark(r, false);
    for (int64_t ax : *axes) {
      auto i = axis_index(ax, r);
      if (!i || mark[*i]) return fallback(n);
      mark[*i] = true;
    }
    Dims out;
    size_t j = 0;  // the next input dim an Unsqueeze keeps
    for (size_t i = 0; i < r; ++i) {
      if (unsqueeze) {
        if (mark[i]) {
          out.push_back(Expr::fixed_at(1));
        } else if (j < d->size()) {  // always: the marks are distinct, r - |axes| dims left
          out.push_back((*d)[j++]);
        } else {
          return fallback(n);
        }
      } else if (!mark[i]) {
        out.push_back((*d)[i]);
      }
    }
    set(n, 0, std::move(out));
  }

  void flatten(const Node& n) {
    auto d = in(n, 0);
    if (!d) return fallback(n);
    auto axis = cut_index(n.attr_int("axis").value_or(1), d->size());
    if (!axis) return fallback(n);
    std::span<const Expr> all(*d);
    set(n, 0, Dims{product(all.subspan(0, *axis)), product(all.subspan(*axis))});
  }

  // The target shape of a Reshape: fixed entries, or exact dims read with Shape (x.size(0)).
  std::optional<Dims> reshape_target(const Node& n) {
    if (p_->opset(n) >= 5) return elems(n, 1);
    auto a = attr_ints(n, "shape");
    if (!a) return std::nullopt;
    Dims out;
    for (int64_t x : *a) out.push_back(Expr::fixed_at(x));
    return out;
  }

  void reshape(const Node& n, RuleContext& ctx) {
    auto d = in(n, 0);
    auto shape = reshape_target(n);
    if (!d || !shape || shape->size() > kMaxTrackedRank) return fallback(n);
    const bool allowzero = n.attr_int("allowzero").value_or(0) != 0;
    Dims out;
    // A 0 entry copies the input dim at the same position, so it marks position i of both the
    // input and the output; the two ranks differ (a scalar reshaped to [1], [N] to [0, 1, 1]),
    // so positions past the input's rank are never copied and every read is checked against
    // the rank of the vector it reads.
    std::vector<bool> copied(std::max(d->size(), shape->size()), false);
    std::optional<size_t> infer_at;
    bool constant = true, vague = false;  // every entry a literal; some entry not exact
    for (size_t i = 0; i < shape->size(); ++i) {
      const Expr& t = (*shape)[i];
      if (!t.fixed()) {
        constant = false;
        vague |= !t.free();
        Expr e = t;
        e.lit = e.mixed = nullptr;
        out.push_back(e);
      } else if (t.num == 0 && !allowzero) {
        if (i >= d->size()) return fallback(n);  // copies a dim the input does not have
        copied[i] = true;
        out.push_back((*d)[i]);
      } else if (t.num == -1) {
        if (infer_at) return fallback(n);
        infer_at = i;
        out.push_back(Expr{});
      } else if (t.num < 0) {
        return fallback(n);
      } else {
        out.push_back(Expr::fixed_at(t.num, &n));
      }
    }
    // Copied dims cancel on both sides of the element count.
    Dims lhs, rhs;
    for (size_t i = 0; i < d->size(); ++i) {
      if (!copied[i]) lhs.push_back((*d)[i]);
    }
    for (size_t i = 0; i < out.size(); ++i) {
      if (!copied[i] && i != infer_at) rhs.push_back(out[i]);
    }
    const Expr l = product(lhs), r = product(rhs);
    if (!infer_at) {
      if (constant && l.free() && r.fixed()) {
        force(Force{&n, l, input(n, 0), r.num, nullptr, kNoValue, false,
                    [&] {
                      return fmt::format(
                          "has the constant shape {} ({} elements) for its input '{}' {}",
                          text(*shape), r.num, p_->name_of(input(n, 0)), text(*d));
                    }},
              ctx);
      }
    } else if (vague) {
      out[*infer_at] = Expr::opaque();
    } else {
      Expr e = div(l, r);
      if (e.free()) {
        bool same_as_input = false;
        for (const Expr& x : *d) {
          if (x.same(e)) {
            same_as_input = true;
            e.mixed = x.mixed;
          }
        }
        // Only a literal entry can have pushed the dynamic dim into the inferred one.
        if (!same_as_input && constant) e.mixed = &n;
      }
      out[*infer_at] = e;
    }
    set(n, 0, std::move(out));
  }

  void expand(const Node& n, RuleContext& ctx) {
    auto d = in(n, 0);
    auto shape = ints(n, 1);
    if (!d || !shape || shape->size() > kMaxTrackedRank) return fallback(n);
    const size_t r = std::max(d->size(), shape->size());
    Dims out(r);
    for (size_t j = 0; j < r; ++j) {
      const bool has_d = j >= r - d->size(), has_t = j >= r - shape->size();
      const Expr x = has_d ? (*d)[j - (r - d->size())] : Expr::fixed_at(1);
      const int64_t t = has_t ? (*shape)[j - (r - shape->size())] : 1;
      if (t < 0) return fallback(n);  // an invalid shape: no size to follow
      if (t == 1) {
        out[j] = x;
        continue;
      }
      if (x.free() && t > 1) {
        force(Force{&n, x, input(n, 0), t, nullptr, kNoValue, true,
                    [&] {
                      return fmt::format("expands '{}' {} to the constant shape {}",
                                         p_->name_of(input(n, 0)), text(*d), ints_text(*shape));
                    }},
              ctx);
      }
      out[j] = Expr::fixed_at(t, &n);
    }
    set(n, 0, std::move(out));
  }

  void concat(const Node& n, RuleContext& ctx) {
    std::vector<std::pair<Dims, ValueId>> ins;
    for (size_t k = 0; k < n.inputs().size(); ++k) {
      if (n.inputs()[k].empty()) continue;
      auto d = in(n, k);
      if (!d || (!ins.empty() && d->size() != ins.front().first.size())) return fallback(n);
      ins.emplace_back(std::move(*d), input(n, k));
    }
    if (ins.empty()) return fallback(n);
    const size_t r = ins.front().first.size();  // every input has this rank (checked above)
    auto axis_at = axis_index(n.attr_int("axis").value_or(0), r);
    if (!axis_at) return fallback(n);
    const size_t axis = *axis_at;
    Dims out(r);
    for (size_t j = 0; j < r; ++j) {
      if (j == axis) {
        // The sum: exact when every part is fixed or all share the same free dims.
        Expr acc = ins.front().first[j];
        for (size_t k = 1; k < ins.size() && acc.kind == Expr::Exact; ++k) {
          const Expr& x = ins[k].first[j];
          if (x.kind != Expr::Exact || x.names != acc.names) {
            acc = x.kind == Expr::Unknown ? Expr{} : Expr::opaque();
            break;
          }
          const CheckedInt num =
              checked_add(checked_mul(acc.num, x.den), checked_mul(x.num, acc.den));
          const CheckedInt den = checked_mul(acc.den, x.den);
          if (!num || !den) {
            acc = Expr::opaque();
            break;
          }
          acc.num = *num;
          acc.den = *den;
          acc.lit = nullptr;
          acc.mixed = nullptr;
          normalize(acc);
        }
        out[j] = acc;
        continue;
      }
      // Other axes must be equal: a free dim against a fixed size is pinned.
      std::optional<std::pair<Expr, ValueId>> fixed;
      for (const auto& [d, v] : ins) {
        if (d[j].fixed()) {
          fixed.emplace(d[j], v);
          break;
        }
      }
      if (fixed) {
        for (const auto& operand : ins) {
          // Not a structured binding: a lambda may not capture one before C++20's P1091 (clang 14).
          const Dims& d = operand.first;
          const ValueId v = operand.second;
          if (d[j].free()) {
            force(Force{&n, d[j], v, fixed->first.num, fixed->first.lit, fixed->second, false,
                        [&] {
                          return fmt::format(
                              "joins '{}' {} with '{}' along axis {}, and its other dims "
                              "must be equal",
                              p_->name_of(v), text(d), p_->name_of(fixed->second), axis);
                        }},
                  ctx);
          }
        }
        out[j] = fixed->first;
        continue;
      }
      out[j] = ins.front().first[j];
      for (const auto& [d, v] : ins) {
        if (!d[j].same(out[j])) out[j] = d[j].kind == Expr::Unknown ? Expr{} : Expr::opaque();
      }
    }
    set(n, 0, std::move(out));
  }

  void gather(const Node& n) {
    auto d = in(n, 0);
    auto idx = in(n, 1);
    if (!d || !idx) return fallback(n);
    auto axis = axis_index(n.attr_int("axis").value_or(0), d->size());
    if (!axis) return fallback(n);  // also a rank-0 data input: no axis to gather along
    const Expr dim = (*d)[*axis];
    const auto at = static_cast<std::ptrdiff_t>(*axis);
    Dims out(d->begin(), d->begin() + at);
    out.insert(out.end(), idx->begin(), idx->end());
    out.insert(out.end(), d->begin() + at + 1, d->end());
    set(n, 0, std::move(out));
    if (auto v = ints(n, 1); v && v->size() == 1 && idx->size() <= 1) {
      piece(n, input(n, 0), static_cast<int64_t>(*axis), dim, (*v)[0]);
    }
  }

  void slice(const Node& n) {
    auto d = in(n, 0);
    if (!d) return fallback(n);
    std::optional<std::vector<int64_t>> starts, ends, axes, steps;
    if (p_->opset(n) < 10) {
      starts = attr_ints(n, "starts");
      ends = attr_ints(n, "ends");
      axes = attr_ints(n, "axes");
    } else {
      starts = ints(n, 1);
      ends = ints(n, 2);
      if (n.inputs().size() > 3 && !n.inputs()[3].empty() && !(axes = ints(n, 3)))
        return fallback(n);
      if (n.inputs().size() > 4 && !n.inputs()[4].empty() && !(steps = ints(n, 4))) {
        return fallback(n);
      }
    }
    if (!starts || !ends || starts->size() != ends->size()) return fallback(n);
    const size_t m = starts->size();
    if (!axes) {
      axes.emplace();
      for (size_t i = 0; i < m; ++i) axes->push_back(static_cast<int64_t>(i));
    }
    if (!steps) steps = std::vector<int64_t>(m, 1);
    if (axes->size() != m || steps->size() != m) return fallback(n);
    Dims out = *d;
    for (size_t j = 0; j < m; ++j) {
      auto ax_at = axis_index((*axes)[j], d->size());
      if (!ax_at) return fallback(n);
      const size_t ax = *ax_at;
      const int64_t st = (*starts)[j], en = (*ends)[j], step = (*steps)[j];
      const Expr& x = (*d)[ax];
      if (st == 0 && en >= kOpenEnd && step == 1) continue;  // x[:, 0:]
      if (m == 1 && step == 1 && st >= 0 && st < kOpenEnd && en == st + 1)
        piece(n, input(n, 0), static_cast<int64_t>(ax), x, st);
      if (m == 1 && step == 1 && st == 0 && en > 0 && en < kOpenEnd && x.free() && x.num == 1 &&
          x.den == 1 && sets_[x.names].size() == 1) {
        slice_ends_.push_back(SliceEnd{&n, x.names, en, input(n, 0), static_cast<int64_t>(ax)});
      }
      if (x.fixed() && x.num >= 0 && step != 0 && step != std::numeric_limits<int64_t>::min()) {
        // Bounds are clamped to [-1, dim] before any arithmetic, so nothing overflows.
        const int64_t dim = x.num;
        int64_t s = std::clamp<int64_t>(st, -dim - 1, dim),
                e = std::clamp<int64_t>(en, -dim - 1, dim);
        if (s < 0) s += dim;
        if (e < 0) e += dim;
        int64_t len = 0;
        if (step > 0) {
          s = std::clamp<int64_t>(s, 0, dim);
          e = std::clamp<int64_t>(e, 0, dim);
          len = e > s ? 1 + (e - s - 1) / step : 0;
        } else if (dim > 0) {
          s = std::clamp<int64_t>(s, 0, dim - 1);
          e = std::clamp<int64_t>(e, -1, dim - 1);
          len = s > e ? 1 + (s - e - 1) / (-step) : 0;
        }
        out[ax] = Expr::fixed_at(len);
      } else {
        // min(N, end) - start and the like: follows N, but not exactly.
        out[ax] = x.kind == Expr::Unknown ? Expr{} : Expr::opaque();
      }
    }
    set(n, 0, std::move(out));
  }

  void split(const Node& n, RuleContext& ctx) {
    auto d = in(n, 0);
    if (!d) return fallback(n);
    auto axis_at = axis_index(n.attr_int("axis").value_or(0), d->size());
    if (!axis_at) return fallback(n);
    const size_t axis = *axis_at;
    std::optional<std::vector<int64_t>> sizes;
    const int64_t opset = p_->opset(n);
    if (opset < 13) {
      sizes = attr_ints(n, "split");
    } else if (n.inputs().size() > 1 && !n.inputs()[1].empty()) {
      sizes = ints(n, 1);
      if (!sizes) return fallback(n);
    }
    const size_t m = n.outputs().size();
    const Expr dim = (*d)[axis];
    if (sizes) {
      if (sizes->size() != m) return fallback(n);
      CheckedInt total = 0;
      for (int64_t s : *sizes) {
        total = s < 0 ? std::nullopt : checked_add(total, s);
        if (!total) return fallback(n);
      }
      if (dim.free()) {
        force(Force{&n, dim, input(n, 0), *total, nullptr, kNoValue, false,
                    [&] {
                      return fmt::format(
                          "cuts axis {} of '{}' {} into the constant sizes {} ({} in all)", axis,
                          p_->name_of(input(n, 0)), text(*d), ints_text(*sizes), *total);
                    }},
              ctx);
      }
      for (size_t k = 0; k < m; ++k) {
        Dims out = *d;
        out[axis] = Expr::fixed_at((*sizes)[k], &n);
        set(n, k, std::move(out));
      }
      return;
    }
    if (n.attr_int("num_outputs")) return fallback(n);
    for (size_t k = 0; k < m; ++k) {
      Dims out = *d;
      out[axis] = div(dim, Expr::fixed_at(static_cast<int64_t>(m)));
      set(n, k, std::move(out));
    }
  }

  void tile(const Node& n) {
    auto d = in(n, 0);
    auto reps = ints(n, 1);
    if (!d || !reps || reps->size() != d->size()) return fallback(n);
    Dims out;
    for (size_t i = 0; i < d->size(); ++i) {
      Expr e = mul((*d)[i], Expr::fixed_at((*reps)[i]));
      if (e.fixed() && (*reps)[i] != 1) e.lit = &n;
      if ((*reps)[i] == 1) e = (*d)[i];
      out.push_back(e);
    }
    set(n, 0, std::move(out));
  }

  void constant_of_shape(const Node& n) {
    auto shape = ints(n, 0);
    if (!shape) return fallback(n);
    Dims out;
    for (int64_t s : *shape) out.push_back(s >= 0 ? Expr::fixed_at(s, &n) : Expr{});
    set(n, 0, std::move(out));
  }

  // Resize to constant sizes: the batch and channel axes (0 and 1) of an image are never
  // meant to be resampled, so a constant size there over a dynamic dim is a baked size. A
  // constant spatial size can be on purpose (resize to 224x224) and is not reported.
  void resize(const Node& n, RuleContext& ctx) {
    auto d = in(n, 0);
    auto sizes = p_->opset(n) >= 11 ? ints(n, 3) : std::nullopt;
    if (!d || n.attribute("axes") != nullptr) return fallback(n);
    if (!sizes) {
      // Scales: an axis scaled by 1 (batch, channels) keeps its size exactly.
      ValueId out0 = output(n, 0);
      auto base = out0 == kNoValue ? std::nullopt : from_analysis(out0);
      auto scales = scales_of(n);
      if (!base || !scales || base->size() != d->size() || scales->size() != d->size()) {
        return fallback(n);
      }
      for (size_t i = 0; i < d->size(); ++i) {
        if ((*scales)[i] == 1.0) (*base)[i] = (*d)[i];
      }
      return set(n, 0, std::move(*base));
    }
    if (sizes->size() != d->size() ||
        std::any_of(sizes->begin(), sizes->end(), [](int64_t s) { return s < 0; })) {
      return fallback(n);
    }
    Dims out;
    for (size_t i = 0; i < d->size(); ++i) {
      const Expr& x = (*d)[i];
      if (i < 2 && d->size() >= 3 && x.free() && x.num == 1 && x.den == 1) {
        resize_finding(n, i, x, (*sizes)[i], *sizes, ctx);
      }
      out.push_back(Expr::fixed_at((*sizes)[i], &n));
    }
    set(n, 0, std::move(out));
  }

  // Resize's constant scales (input 2 from opset 11, else 1), or nullopt.
  std::optional<std::vector<double>> scales_of(const Node& n) {
    const size_t k = p_->opset(n) >= 11 ? 2 : 1;
    if (k >= n.inputs().size() || n.inputs()[k].empty()) return std::nullopt;
    const ValueTable& values = ctx_->get<ValueTable>();
    const auto c = values.constant(values.input(n, k));
    if (!c || c->overridable || c->tensor == nullptr) return std::nullopt;
    return ctx_model_->read_floats(*c->tensor, 16);
  }

  void resize_finding(const Node& n, size_t axis, const Expr& x, int64_t size,
                      const std::vector<int64_t>& sizes, RuleContext& ctx) {
    auto key = std::make_pair(x.names, size);
    if (reported_.count(key)) return;
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        fmt::format("{} has the constant sizes {}: axis {} of '{}' ({}) is resized to {} whatever "
                    "its size, which interpolates across {} and silently gives wrong results for "
                    "any {} other than {}",
                    node_label(n), ints_text(sizes), axis, p_->name_of(input(n, 0)),
                    dim_phrase(x.names), size, axis == 0 ? "samples" : "channels",
                    quoted_names(x.names), size));
    d.key = fmt::format("{}={}", names_text(x.names), size);
    d.help =
        "give `F.interpolate` a `scale_factor`, or compute `size` from `x.shape[2:]` inside the "
        "traced code; the sizes of the batch and channel axes must come from `x.shape[:2]` "
        "(tracing does this when sizes are not turned into Python ints)";
    reported_.emplace(key, Reported{&d, &n});
  }

  void conv(const Node& n, bool is_conv) {
    auto d = in(n, 0);
    ValueId out0 = output(n, 0);
    auto base = out0 == kNoValue ? std::nullopt : from_analysis(out0);
    if (!d || d->size() < 3 || !base || base->size() != d->size()) return fallback(n);
    (*base)[0] = (*d)[0];
    if (!is_conv) (*base)[1] = (*d)[1];
    set(n, 0, std::move(*base));
    if (n.outputs().size() > 1) fallback_output(n, 1);
  }
  void fallback_output(const Node& n, size_t k) {
    ValueId v = output(n, k);
    if (v != kNoValue) store(v, from_analysis(v));
  }

  void reduce(const Node& n) {
    auto d = in(n, 0);
    if (!d) return fallback(n);
    const size_t r = d->size();
    const bool keep = n.attr_int("keepdims").value_or(1) != 0;
    const int64_t since = n.op_type() == "ReduceSum" ? 13 : 18;
    std::optional<std::vector<int64_t>> axes;
    if (p_->opset(n) < since) {
      axes = attr_ints(n, "axes");
      if (!axes) axes.emplace();
    } else if (n.inputs().size() > 1 && !n.inputs()[1].empty()) {
      axes = ints(n, 1);
      if (!axes) return fallback(n);
    } else {
      axes.emplace();
    }
    std::vector<bool> red(r, axes->empty());  // no axes: all of them (a scalar stays a scalar)
    if (axes->empty() && n.attr_int("noop_with_empty_axes").value_or(0) != 0) {
      return set(n, 0, *d);
    }
    for (int64_t ax : *axes) {
      auto i = axis_index(ax, r);
      if (!i) return fallback(n);
      red[*i] = true;
    }
    Dims out;
    for (size_t i = 0; i < r; ++i) {
      if (!red[i]) {
        out.push_back((*d)[i]);
      } else if (keep) {
        out.push_back(Expr::fixed_at(1));
      }
    }
    set(n, 0, std::move(out));
  }

  void record_call(const Node& n, const Function& f) {
    Calls& c = calls_[&f];
    ++c.seen;
    if (c.formals.size() < n.inputs().size()) {
      c.formals.resize(n.inputs().size());
      c.conflict.resize(n.inputs().size(), false);
    }
    for (size_t k = 0; k < n.inputs().size(); ++k) {
      auto d = in(n, k);
      if (!d) {
        c.conflict[k] = true;
        continue;
      }
      for (Expr& e : *d) e.lit = e.mixed = nullptr;  // attribution stays in the caller
      if (c.seen == 1) {
        c.formals[k] = std::move(d);
      } else if (!c.formals[k] || c.formals[k]->size() != d->size()) {
        c.conflict[k] = true;
      } else {
        for (size_t i = 0; i < d->size(); ++i) {
          const Expr &a = (*c.formals[k])[i], &b = (*d)[i];
          if (!(a.same(b) || (a.kind == b.kind && a.kind != Expr::Exact))) c.conflict[k] = true;
        }
      }
    }
  }

  // A graph output declared with a dim name of an input, but proven to have a fixed size.
  void check_declared_outputs(const Graph& g, RuleContext& ctx) {
    for (const ValueInfo& vi : g.outputs()) {
      if (!vi.type.has_shape) continue;
      ValueId v = p_->find(g, vi.name);
      auto d = get(v);
      if (!d || d->size() != vi.type.dims.size() || combined_piece(v)) continue;
      for (size_t i = 0; i < d->size(); ++i) {
        const Dim& decl = vi.type.dims[i];
        const Expr& e = (*d)[i];
        if (decl.kind != Dim::Kind::Param || !e.fixed() || e.lit == nullptr) continue;
        auto it = name_ids_.find(std::string(decl.param));
        if (it == name_ids_.end()) continue;
        Expr free = Expr::fixed_at(1);
        free.names = intern({it->second});
        force(Force{e.lit, free, kNoValue, e.num, nullptr, kNoValue, false,
                    [&] {
                      return fmt::format(
                          "writes the constant size {} into dim {} of output '{}', which "
                          "the model declares as '{}'",
                          e.num, i, vi.name, decl.param);
                    },
                    true},
              ctx);
      }
    }
  }

  // x[:, :T] where T is the size the model is shown elsewhere to have been exported with.
  void report_slices(RuleContext& ctx) {
    for (const SliceEnd& s : slice_ends_) {
      const uint32_t name = sets_[s.names][0];
      auto it = learned_.find(name);
      if (it == learned_.end() || it->second != s.end) continue;
      Diagnostic& d = ctx.report(
          ctx.at_node(*s.node),
          fmt::format("{} keeps positions 0..{} of axis {} of '{}', whose size {} is dynamic; {} "
                      "is the size the model was exported with (see the other finding for {}), so "
                      "the end was read from the example: longer inputs are silently cut to {}",
                      node_label(*s.node), s.end - 1, s.axis, p_->name_of(s.data),
                      quoted_names(s.names), s.end, quoted_names(s.names), s.end));
      d.key = fmt::format("slice:{}={}", names_text(s.names), s.end);
      d.help = help_for("Slice");
    }
  }
};

}  // namespace

void add_export_baked_shape(RuleRegistry& registry) { registry.add<BakedShape>(); }

}  // namespace onnxlint::rules
