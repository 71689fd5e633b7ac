// Internals of the provenance analysis shared by provenance.cc (the dataflow pass, control
// flow, functions, queries) and provenance_dims.cc (per-dimension facts for common ops).
#pragma once

#include <onnxlint/graph_index.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "util/name_map.h"

namespace onnxlint {

inline constexpr uint32_t kNoNode = 0xffffffffu;

// Resource limits of the analysis (docs/security.md, "Resource limits"). Each keeps the work
// and memory of one model proportional to its size; past a limit the fact concerned is
// unknown, never a wrong number.
/// Ranks above the loader's limit on dims per shape are unknown (a rank computed from an
/// attribute, such as Reshape-1's `shape` or Unsqueeze-1's `axes`, is not bounded otherwise).
inline constexpr size_t kMaxRank = LoadLimits{}.max_dims;
/// Input-dim names one set holds. A value that depends on more keeps the first ones (in the
/// order the names were met: the main graph's inputs first) and a marker that more exist.
inline constexpr size_t kMaxSetNames = 64;
/// The marker ending a set that lost names past kMaxSetNames; shown as kMoreNamesText.
inline constexpr uint32_t kMoreNames = 0xffffffffu;
inline constexpr std::string_view kMoreNamesText = "\u2026";
/// Leaves an expression renders with (N+N+1 has 3). A larger expression is kept (it is still
/// equal only to itself) but is opaque: it renders as f(names), and so does everything
/// computed from it. This bounds the text of a dim and the depth of the renderer's recursion.
inline constexpr uint32_t kMaxExprLeaves = 64;
/// Fixed-point work per model, in units of node cost (see Impl::node_cost): this many times
/// the cost of every node of the model once, plus a constant. Loop and Scan bodies are re-run
/// until their carried facts are stable, and nesting multiplies the runs; past the budget a
/// body is not run again: its values are unknown and the analysis records that it was cut
/// short, and where.
inline constexpr uint64_t kWorkPerNode = 4;
inline constexpr uint64_t kWorkConstant = 10000;

// Levels shared by shape and value classes: the two lattices are isomorphic (a constant value
// sets a static shape, a shape-derived value an input-dim-dependent one, data a data-dependent
// one), which lets a value flow into a shape without translation.
enum : uint8_t { kStatic = 0, kDims = 1, kUnknownLevel = 2, kData = 3 };

/// One class fact. `pred` is the back-pointer of the reason chain: the value the class came
/// through, read through its value fact (`via_value`) or its shape fact. 16 bytes.
struct Fact {
  uint32_t dims = 0;  // interned set of input-dim names (0 = empty)
  uint32_t pred = kNoValue;
  uint32_t origin = kNoNode;  // global node id where the class arose
  uint8_t level = kUnknownLevel;
  uint8_t via_value = 0;
  uint8_t from_shape = 0;  // value facts: computed from a Shape/Size output
  uint8_t pad = 0;
};

/// A dimension, or an element of a small integer vector. Nothing is kFixed unless it holds for
/// every run of the model; what is not followed is kUnknown.
struct Sym {
  enum Kind : uint8_t { kFixed = 0, kSymbolic = 1, kUnknown = 2, kData = 3 };
  int64_t v = 0;     // kFixed: the number; kData: a static upper bound, -1 if none;
                     // kSymbolic: expression id in Impl::exprs (0: the input dim itself)
  uint32_t set = 0;  // kSymbolic: interned set of input-dim names it derives from;
                     // kData: global id of the node where the value arose (kNoNode: unknown)
  uint8_t kind = kUnknown;
  // kUnknown/kData: a proven lower bound (0: none), e.g. a loop-carried dim that starts at 1
  // and only grows. It fits the padding; a larger bound is clamped (still a lower bound).
  uint16_t lo = 0;
  static Sym fixed(int64_t v) { return Sym{v, 0, kFixed}; }
  static Sym symbolic(uint32_t set) { return Sym{0, set, kSymbolic}; }
  static Sym unknown() { return Sym{}; }
  /// Set by tensor values at run time: the NonZero count, a Reshape target read from data.
  static Sym data(uint32_t origin, int64_t bound = -1) { return Sym{bound, origin, kData}; }
  /// Unknown, but at least `bound` (clamped to what `lo` holds).
  static Sym at_least(int64_t bound) {
    Sym s;
    s.lo = static_cast<uint16_t>(std::clamp<int64_t>(bound, 0, UINT16_MAX));
    return s;
  }
  bool is_fixed() const { return kind == kFixed; }
  /// A proven lower bound: the value itself when fixed (0 for negative numbers: no claim).
  int64_t lower() const {
    if (kind == kFixed) return std::clamp<int64_t>(v, 0, UINT16_MAX);
    return kind == kSymbolic ? 0 : lo;
  }
  bool operator==(const Sym& o) const {
    return kind == o.kind && lo == o.lo && (kind != kFixed || v == o.v) &&
           (kind != kSymbolic || (set == o.set && v == o.v)) && (kind != kData || set == o.set);
  }
};

// A vector of Syms in Provenance::Impl::arena, by the index of its span in Impl::spans
// (0: none, i.e. unknown). Vectors are interned, so there are few spans; each value keeps two
// 4-byte refs (its dims and its known elements) instead of two spans.
/// How a symbolic dim was computed from others: the operation of an expression node.
enum class SymOp : uint8_t { kF = 0, kAdd, kSub, kMul, kDiv, kMod, kMax, kMin, kCeilDiv };

/// `p op q` on fixed numbers as ONNX computes it (Div truncates toward zero, Mod takes the
/// divisor's sign); nullopt on overflow, division by zero, or for kF.
std::optional<int64_t> fixed_arith(SymOp op, int64_t p, int64_t q);

/// One interned expression: `op(a, b)`. Structurally equal expressions share an id, so
/// `N + 1` computed twice is the same dim while `N` and `N + 1` differ.
struct SymExpr {
  SymOp op = SymOp::kF;
  Sym a, b;
  uint32_t leaves = 1;  // leaves of the rendered tree (1 for kF and opaque expressions)
  bool opaque = false;  // over kMaxExprLeaves, or computed from an opaque expression
};

struct ArenaRef {
  uint32_t id = 0;
};

/// A 64-bit key mixed with the process's random seed (util/name_map.h). The keys of the
/// analysis's hash tables are computed from model numbers (dims, shape-tensor elements): with a
/// fixed mix a file could choose constants whose keys share one probe run or one bucket, and
/// turn every lookup linear in the model.
inline uint64_t seeded_mix(uint64_t x) {
  x ^= hash_seed();
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

/// Dim names come from the model: hashed with the seeded hash of util/name_map.h.
struct SeededNameHash {
  size_t operator()(const std::string& s) const { return hash_name(s); }
};

struct ArenaSpan {
  uint32_t off = 0;
  int32_t n = -1;  // -1: none
};

struct Provenance::Impl {
  Impl(const Model& model, AnalysisCache& cache);

  const Model& model;
  const GraphIndex& index;
  AnalysisCache& cache;

  const ValueTable& table;  // the value ids and what the model states about each value
  const std::vector<GraphSlot>& slots;
  uint32_t node_total = 0;  // nodes in all graphs (global ids 0..node_total)

  std::vector<Fact> shape, value;
  std::vector<ArenaRef> dims, svec;
  // The length of sequence values, where known. Kept apart from `dims`: a sequence of fixed
  // length can hold tensors of any shape, so its length says nothing about its shape class.
  std::unordered_map<uint32_t, Sym> seq_len;
  void set_seq_len(uint32_t v, std::optional<Sym> len) {
    if (len && len->kind != Sym::kUnknown) {
      seq_len[v] = *len;
    } else {
      seq_len.erase(v);
    }
  }
  // The dims every element of a sequence value has in common (unknown where they differ).
  std::unordered_map<uint32_t, ArenaRef> seq_elem;
  void set_seq_elem(uint32_t v, ArenaRef d) {
    if (n_of(d) >= 0) {
      seq_elem[v] = d;
    } else {
      seq_elem.erase(v);
    }
  }
  ArenaRef seq_elem_of(uint32_t v) const {
    auto it = seq_elem.find(v);
    return it == seq_elem.end() ? ArenaRef{} : it->second;
  }
  std::optional<Sym> seq_len_of(uint32_t v) const {
    auto it = seq_len.find(v);
    return it == seq_len.end() ? std::nullopt : std::optional<Sym>(it->second);
  }
  std::vector<Sym> arena;
  std::vector<ArenaSpan> spans{ArenaSpan{}};
  // Content hash -> the first copy of a Sym vector in `arena`. Most values of a graph share a
  // handful of shapes, so pushing each value's dims anew would grow the arena by the graph.
  std::unordered_map<uint64_t, ArenaRef> interned;

  // Interned dim names and sets of them.
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t, SeededNameHash> name_ids;
  // sets[0] = {}; sorted name ids, ending with kMoreNames when names past kMaxSetNames were
  // dropped
  std::vector<std::vector<uint32_t>> sets;
  std::map<std::vector<uint32_t>, uint32_t> set_ids;
  std::unordered_map<uint64_t, uint32_t> join_cache;

  // Model-local functions.
  struct Instance {
    std::vector<int64_t> key;
    std::vector<Fact> out_shape, out_value;
    std::vector<ArenaRef> out_dims, out_svec;
    std::vector<uint32_t> out_ids;
  };
  struct FnState {
    const Function* fn = nullptr;
    uint32_t begin = 0, end = 0;  // value ids of the body and its subgraphs
    std::vector<Instance> instances;
    std::vector<Fact> acc_shape, acc_value;
    std::vector<ArenaRef> acc_dims;
    bool busy = false;
  };
  std::map<std::pair<std::string_view, std::string_view>, FnState> functions;

  // --- ids: the value table's (one id space, one set of lookups)
  const GraphSlot& slot(const Graph& g) const { return *table.slot(g); }
  uint32_t id_of(const ValueDef& d) const { return table.id_of(d); }
  uint32_t resolve(const GraphSlot& s, std::string_view name) const {
    return table.find(*s.graph, name);
  }
  uint32_t out_id(const GraphSlot& s, const Node& n, size_t k) const {
    return table.output(s, n, k);
  }
  const GraphSlot* slot_of_value(uint32_t v) const { return table.slot_of_value(v); }
  std::string_view name(uint32_t v) const { return table.name_of(v); }
  const Node* producer_of(uint32_t v) const { return table.producer(v); }
  const Node* node_at(uint32_t id) const { return table.node_at(id); }  // by global node id
  uint32_t node_id(const Node& n) const { return slot(*n.graph()).node_base + n.index(); }
  /// The semantics of a node's op at its opset, remembered per op for the default domain.
  const OpSemantics& node_semantics(const Node& n, const GraphSlot& s);
  static bool by_op_alone(const Node& n, const GraphSlot& s);
  const OpSemantics& lookup_semantics(const Node& n) const;
  std::vector<const OpSemantics*> default_domain_sem;  // by Node::op_id; nullptr: not yet
  std::vector<int64_t> model_opset_of_op;  // by Node::op_id: the model's import of its domain
  /// data_dependent_nodes() and data_dependent_origins(), computed on the first question.
  void summarize_data() const;
  mutable bool data_summarized = false;
  mutable size_t data_nodes = 0;
  mutable std::vector<const Node*> data_origins;
  /// The semantics each node was analysed with, by global node id (nullptr: not reached), so
  /// that Provenance::semantics answers rules without looking the op up again.
  std::vector<const OpSemantics*> sem_of_node;

  // --- sets
  uint32_t name_id(const std::string& name);
  uint32_t single_set(uint32_t name);
  uint32_t join_sets(uint32_t a, uint32_t b);
  uint32_t intern_set(std::vector<uint32_t> names);
  /// The names of a set for display, sorted, with kMoreNamesText last when it lost some.
  std::vector<std::string_view> set_names(uint32_t set) const;
  std::string render_f(uint32_t set) const;

  // --- arena
  ArenaRef push(std::span<const Sym> syms);
  std::span<const Sym> view(ArenaRef r) const {
    const ArenaSpan& s = spans[r.id];
    return s.n < 0 ? std::span<const Sym>() : std::span<const Sym>(arena.data() + s.off, s.n);
  }
  /// The length of a vector, -1 for none.
  int32_t n_of(ArenaRef r) const { return spans[r.id].n; }
  bool same(ArenaRef a, ArenaRef b) const;
  /// Per-position merge of two dim vectors; `varies` is set when they definitely differ.
  ArenaRef merge(ArenaRef a, ArenaRef b, bool& varies);
  /// A dim computed by `op` from two others: fixed when both are and `op` is arithmetic, data
  /// when either is data, unknown when either is unknown, else a symbolic expression.
  Sym derive(const Sym& a, const Sym& b, SymOp op = SymOp::kF);
  std::vector<SymExpr> exprs{SymExpr{}};  // [0]: unused (id 0 means "the input dim itself")
  /// True when `s` is never negative: built from input dims and non-negative numbers by sums,
  /// products, division by a positive number, min and max.
  bool never_negative(const Sym& s) const;
  /// m when `s` is 0-m or -1*m (a negated dim, as a negative Slice start is computed), else
  /// nullopt.
  std::optional<Sym> negated(const Sym& s) const;
  std::unordered_map<uint64_t, uint32_t> expr_ids;
  /// "N", "N+1", "2*S", "H/2", "f(H, W)".
  std::string render_sym(const Sym& s) const;
  /// Appends the terms of a symbolic `s` to `out` (operands first) and returns the root's index.
  uint32_t append_terms(const Sym& s, std::vector<DimTerm>& out) const;
  /// Leaves the rendering of `s` has (an input dim, a number: 1).
  uint32_t leaves_of(const Sym& s) const {
    return s.kind == Sym::kSymbolic && s.v != 0 ? exprs[static_cast<size_t>(s.v)].leaves : 1;
  }
  bool opaque(const Sym& s) const {
    return s.kind == Sym::kSymbolic && s.v != 0 && exprs[static_cast<size_t>(s.v)].opaque;
  }

  // --- the pass
  // Work done so far (node costs of every transfer) and the cap for the model (kWorkPerNode).
  uint64_t work = 0, budget = 0;
  bool over_budget() const { return work > budget; }
  /// The cost of one transfer of `n`: its inputs, outputs and attribute elements, which is
  /// what the per-op inference may walk.
  static uint64_t node_cost(const Node& n);
  // Where the budget ran out: the first node (global id) whose subgraphs or function body
  // were not analysed (further) for it, and how many such cuts there were.
  uint32_t cut_node = kNoNode;
  uint64_t cut_count = 0;
  void record_cut(uint32_t node) {
    if (cut_node == kNoNode) cut_node = node;
    ++cut_count;
  }
  // Per slot: one past the last value id of the graph and all graphs nested in it (graphs
  // are numbered in pre-order, so a subtree is one range of value ids).
  std::vector<uint32_t> subtree_end;
  /// Every value of graph `g` and of the graphs nested in it becomes unknown: what a body
  /// that is not run (again) leaves behind.
  void forget_subtree(const Graph& g);
  int call_depth = 0;  // function calls being analysed (bounded by Model::max_call_depth)
  /// The opset of the node's domain: its function's import, else the model's (by op id).
  int64_t opset_of(const Node& n, const GraphSlot& s) const {  // s: the slot of n's graph
    return s.function == nullptr ? model_opset_of_op[n.op_id()] : function_opset_of(n, s);
  }
  int64_t function_opset_of(const Node& n, const GraphSlot& s) const;
  int64_t opset_of(const Node& n) const;
  const OpSemantics& semantics_of(const Node& n) const;
  const Function* function_for(const Node& n) const;
  void run_graph(const Graph& g);
  void set_main_inputs();
  void set_constants(const GraphSlot& s);
  void transfer(const Node& n, const GraphSlot& s);
  void generic(const Node& n, const GraphSlot& s, const OpSemantics& sem,
               std::span<const uint32_t> ins);
  void do_if(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins);
  /// One fixpoint step for a loop-carried value (Loop and Scan state): the body's formal
  /// input joins the initial value and the body's output. Sets `varies` when their dims
  /// definitely differ; returns whether the formal's facts changed.
  /// `initial_dims` replaces the initial value's dims (Scan-8 states lose their batch axis).
  bool join_carried(uint32_t formal, uint32_t initial, uint32_t body_out, uint8_t& varies,
                    std::optional<ArenaRef> initial_dims = std::nullopt);
  /// The dims without their first `count` entries (unknown when the rank is smaller).
  ArenaRef drop_leading(ArenaRef d, size_t count) {
    if (n_of(d) < static_cast<int32_t>(count)) return ArenaRef{};
    auto v = view(d);
    return push(std::vector<Sym>(v.begin() + static_cast<std::ptrdiff_t>(count), v.end()));
  }
  /// Runs the body of loop `n` until the carried values (`carried`, formal inputs of the body)
  /// are stable under `join`, which returns whether they changed. After kMaxLoopPasses,
  /// carried dims and elements become unknown and the body is run once more. Over budget
  /// (checked before every run) the body is not run: its values become unknown.
  void iterate_body(const Node& n, const Graph& body, std::span<const uint32_t> carried,
                    std::vector<uint8_t>& varies, const std::function<bool()>& join);
  void do_loop(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins);
  void do_scan(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins);
  void do_other_subgraphs(const Node& n, const GraphSlot& s, const OpSemantics& sem,
                          std::span<const uint32_t> ins);
  void call_function(const Node& n, const GraphSlot& s, FnState& st, std::span<const uint32_t> ins);
  void default_call(const Node& n, const GraphSlot& s, std::span<const uint32_t> ins);
  void finish_functions();

  /// Per-dimension facts and small integer vectors for the outputs of `n` (provenance_dims.cc).
  /// `sem` is the node's row of the op registry, whose entry names the transfer.
  void infer(const Node& n, const GraphSlot& s, const OpSemantics& sem,
             std::span<const uint32_t> ins, int64_t opset);
  /// Small integer constants (<= kMaxSvec elements) as Sym vectors.
  ArenaRef const_svec(const TensorData& t);
  static constexpr size_t kMaxSvec = 16;

  // --- rendering
  std::string describe_terminal(uint32_t v, bool via_value) const;
  std::string render(uint32_t v, bool via_value) const;
  std::vector<ReasonStep> walk(uint32_t v, bool via_value, size_t max_steps) const;
  std::vector<ReasonStep> walk_back_pointers(uint32_t v, bool via_value, size_t max_steps) const;
  std::optional<std::vector<ReasonStep>> walk_to_dims(uint32_t v, bool via_value,
                                                      size_t max_steps) const;
  /// Every name of set y is in set x (sets are sorted).
  bool set_includes(uint32_t x, uint32_t y) const;
};

}  // namespace onnxlint
