// Shape/value provenance: why a shape is dynamic, and where it became so.
//
// One forward pass over every graph (in topological order, into If/Loop/Scan bodies and through
// model-local functions) gives each value two facts:
//  - a shape class: static, input-dim-dependent (with the names of the input dims it depends
//    on), data-dependent (set by tensor values computed at run time), or unknown;
//  - a value class: constant, shape-derived (computed only from Shape/Size outputs and
//    constants, with the dims it reads), data, or unknown.
// Each fact records the node where its class arose (the origin) and the value it came through
// (a back-pointer), so a reason chain is materialized only when a rule reports it.
//
// Alongside the classes the pass keeps a light per-dimension view (fixed size, symbolic, or
// unknown) for common ops, and the elements of small integer vectors (shape arithmetic such as
// Shape→Gather→Concat), which makes the dim names precise and lets foldable shape computations
// be recognised. It is not full shape inference: ops it does not model leave dims unknown and
// fall back to the class-level rules of the op semantics table.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// Ordered from most to least static; joining two classes takes the larger.
enum class ShapeClass : uint8_t { Static = 0, InputDim = 1, Unknown = 2, DataDependent = 3 };
enum class ValueClass : uint8_t { Constant = 0, ShapeDerived = 1, Unknown = 2, Data = 3 };

/// "static", "input-dim-dependent", "unknown", "data-dependent".
std::string_view shape_class_name(ShapeClass c);
/// "constant", "shape-derived", "unknown", "data".
std::string_view value_class_name(ValueClass c);

// ---------------------------------------------------------------------------------------------
// Per-op semantics: facts about each ONNX op, written in the project (lib/analysis/op_semantics.cc)

/// How an op's output shapes arise.
enum class ShapeBehavior : uint8_t {
  FromInputShapes,  ///< from input shapes and attributes only (Relu, MatMul, Conv, ...)
  FromValues,       ///< the values of `value_inputs` set output shapes (Reshape `shape`, ...)
  DataDependent,    ///< by its nature the op's output shape follows input values (NonZero, ...)
  ShapeToValue,     ///< outputs an input's shape as a value (Shape, Size, SequenceLength)
  Static,           ///< shape fixed by attributes (Constant, RandomNormal, SequenceEmpty)
  ControlFlow,      ///< follows its subgraphs (If, Loop, Scan, SequenceMap)
  Unknown,          ///< no facts known: the conservative default
};

/// How an op's output values relate to its inputs.
enum class ValueBehavior : uint8_t {
  Propagate,  ///< computed from the input values (constant in, constant out)
  FromShape,  ///< computed from input shapes, not values (Shape, Size, EyeLike)
  Constant,   ///< fixed by attributes (Constant)
  Random,     ///< random at run time (RandomNormal, Bernoulli, Multinomial)
  Unknown,    ///< no facts known
};

struct OpSemantics {
  std::string_view domain;  ///< "" for ai.onnx
  std::string_view op;
  int since_version = 1;  ///< first opset of `domain` this entry describes
  ShapeBehavior shape = ShapeBehavior::FromInputShapes;
  ValueBehavior value = ValueBehavior::Propagate;
  uint32_t value_inputs = 0;        ///< bit i: the VALUE of input i sets output shapes
  uint32_t affected_outputs = ~0u;  ///< bit k: output k's shape is set by `value_inputs`
  bool input_shapes = true;         ///< input shapes contribute to output shapes

  bool reads_value(size_t input) const { return input < 32 && ((value_inputs >> input) & 1u); }
  bool affects_output(size_t output) const {
    return output >= 32 || ((affected_outputs >> output) & 1u);
  }
};

/// Every entry, sorted by (domain, op, since_version).
std::span<const OpSemantics> op_semantics_table();
/// The entry in force for `op` of `domain` ("ai.onnx" accepted) at `opset` (largest
/// since_version <= opset; the oldest entry if the opset predates it). nullptr if the op is not
/// in the table.
const OpSemantics* find_op_semantics(std::string_view domain, std::string_view op, int64_t opset);
/// The conservative default for ops not in the table (custom ops): output shapes follow every
/// input shape and are otherwise `unknown`; output values follow every input and are
/// otherwise `unknown`. Nothing is assumed about which input values set shapes.
const OpSemantics& unknown_op_semantics();

// ---------------------------------------------------------------------------------------------
// The analysis

/// One node of a symbolic dim's expression (DimFact::terms): the dim algebra of the analysis,
/// exactly as it computed the dim. Operands are indices of earlier terms of the same vector.
struct DimTerm {
  enum class Op : uint8_t {
    Input,     ///< a dim a graph input declares symbolic: `name`
    Constant,  ///< `value`
    Add,
    Sub,
    Mul,
    Div,      ///< integer division truncating toward zero, as ONNX Div on int64 (floor for sizes)
    CeilDiv,  ///< ceil(lhs / rhs), as convolution and pooling with ceil_mode compute sizes
    Mod,      ///< the remainder taking the divisor's sign, as ONNX Mod with fmod=0
    Min,
    Max,
    /// A function of `DimFact::names` the analysis does not spell out (`f(N, H)`): an
    /// expression of more than 64 terms, or one computed by an op it only knows to depend on
    /// them. Nothing is known of its value.
    Opaque,
  };
  Op op = Op::Opaque;
  int64_t value = 0;      ///< Constant
  std::string_view name;  ///< Input
  uint32_t lhs = 0;       ///< binary ops: the index of the left operand
  uint32_t rhs = 0;       ///< binary ops: the index of the right operand
};

/// One dimension (or one element of an integer vector) as far as the analysis knows it.
/// Nothing is Fixed unless proven for every run of the model; what the analysis does not
/// follow is Unknown.
struct DimFact {
  enum class Kind : uint8_t {
    Fixed,     ///< the same number for every input: `value`
    Symbolic,  ///< a function of graph-input dims only: `names`, rendered in `expr`
    Data,      ///< set by tensor values computed at run time; `bound` when one is known
    Unknown,   ///< not followed by the analysis
  };
  Kind kind = Kind::Unknown;
  int64_t value = 0;  ///< Fixed: the size (or element value)
  /// Symbolic: the input dims it derives from (as Provenance::shape_dims: at most 64, then
  /// "…").
  std::vector<std::string_view> names;
  /// Symbolic: "N", "N+1", or "f(N, H)" for a function the analysis does not spell out (an
  /// expression of more than 64 terms is one too); Data: its origin node.
  std::string expr;
  /// Symbolic: the same expression as a tree of terms, the root last (`expr` is its rendering).
  std::vector<DimTerm> terms;
  int64_t bound = -1;            ///< Data: a static upper bound, -1 if none is known
  const Node* origin = nullptr;  ///< Data: the node where the value arose
  /// Data and Unknown: a proven lower bound, 0 when none is known (a tensor carried through
  /// a loop that starts with one row and only grows has at least 1).
  int64_t at_least = 0;
};

/// The value of a Fixed or Symbolic dim when each input dim has the size `size_of` gives
/// (nullopt for a name it does not know): what the dim is at those input sizes. nullopt for
/// Data and Unknown dims, an Opaque term, a missing size, division by zero or int64 overflow.
std::optional<int64_t> evaluate_dim(
    const DimFact& dim, const std::function<std::optional<int64_t>(std::string_view)>& size_of);

/// One step of a reason chain, from the value a rule asked about back towards the origin.
struct ReasonStep {
  ValueId value = kNoValue;
  const Graph* graph = nullptr;
  std::string_view name;
  const Node* producer = nullptr;  ///< nullptr: graph/subgraph/function input or initializer
  bool via_value = false;          ///< this step follows the value (true) or the shape (false)
};

class Provenance {
 public:
  Provenance(const Model& model, AnalysisCache& cache);
  ~Provenance();
  Provenance(const Provenance&) = delete;
  Provenance& operator=(const Provenance&) = delete;

  /// The value a name refers to in graph `g` (lexical scope), or kNoValue.
  ValueId find(const Graph& g, std::string_view name) const;
  /// The value input `k` of a node reads (lexical scope), or kNoValue if absent, empty or
  /// undefined. Same as find(*n.graph, n.inputs[k]), without hashing the name.
  ValueId input(const Node& n, size_t k) const;
  /// Output `k` of a node, or kNoValue if absent/empty.
  ValueId output(const Node& n, size_t k) const;
  /// Graph and name of a value.
  const Graph* graph_of(ValueId v) const;
  std::string_view name_of(ValueId v) const;
  /// The node producing a value (nullptr for inputs and initializers).
  const Node* producer(ValueId v) const;

  ShapeClass shape_class(ValueId v) const;
  ValueClass value_class(ValueId v) const;
  /// Input dim names the shape (resp. value) depends on, sorted; empty unless input-dim-
  /// dependent/shape-derived (or unknown with some known dims). At most 64 names are kept per
  /// value (the first met); a list that lost some ends with "…" (docs/security.md,
  /// "Resource limits"). The views point into the analysis' interned names: one name is one
  /// storage for the analysis' lifetime, so its address identifies it.
  std::vector<std::string_view> shape_dims(ValueId v) const;
  std::vector<std::string_view> value_dims(ValueId v) const;
  /// The node where the class arose: e.g. NonZero for its outputs and everything downstream;
  /// a Reshape whose shape is computed. nullptr when the class comes from a graph input, or
  /// for static/constant values.
  const Node* shape_origin(ValueId v) const;
  const Node* value_origin(ValueId v) const;
  /// True when the value was computed from a Shape/Size/SequenceLength output.
  bool from_shape(ValueId v) const;

  /// The dims the analysis knows (nullopt if not even the rank is known).
  std::optional<std::vector<DimFact>> dims(ValueId v) const;
  /// The static size of each dim (-1 where it has none): the analysis's proven dims, with the
  /// model's declaration (value_info, graph input or output) filling only what the analysis
  /// cannot know: every dim when it knows no rank, else the dims it leaves Unknown (when the
  /// declared rank agrees). A declaration never overrides a proven dim, so the answer does not
  /// change when `infer_shapes` adds value_info. nullopt when neither knows the rank.
  std::optional<std::vector<int64_t>> static_dims(ValueId v) const;
  /// The size of every dim when the analysis proves each one (Fixed, no declaration taken), as
  /// a fix writes it; nullopt when any dim, or the rank, is not proven.
  std::optional<std::vector<int64_t>> proven_dims(ValueId v) const;
  /// The elements of a small integer value known statically (initializer, Constant, or shape
  /// arithmetic on static dims), or nullopt.
  std::optional<std::vector<int64_t>> known_ints(ValueId v) const;
  /// The integers of an argument that became an input at opset `since` (Reshape's shape at 5,
  /// Split's split at 13, Slice's starts at 10): input `k` from `since` on (known_ints), the
  /// attribute `attr` before it; nullopt when absent or not known for every run.
  std::optional<std::vector<int64_t>> argument_ints(const Node& n, size_t k,
                                                    std::string_view attr = {},
                                                    int64_t since = 0) const;
  /// The elements of a small integer vector (at most 16) as far as they are known, whether
  /// fixed or not (`Shape(x)` of `x[N, 3]` is `[N, 3]`), or nullopt when not followed.
  std::optional<std::vector<DimFact>> elements(ValueId v) const;

  /// Reason chains (at most `max_steps` steps; the first step is `v` itself).
  std::vector<ReasonStep> shape_reason(ValueId v, size_t max_steps = 12) const;
  std::vector<ReasonStep> value_reason(ValueId v, size_t max_steps = 12) const;
  /// The chain rendered for a note, e.g.
  /// "Concat_9 ← Unsqueeze_8 ← Gather_7 ← Shape_5(x) ← input 'x' [batch, 16]".
  std::string explain_shape(ValueId v) const;
  std::string explain_value(ValueId v) const;

  /// Semantics used for a node (table entry at the node's opset, or the unknown default).
  const OpSemantics& semantics(const Node& n) const;
  /// The model-local function a node calls, or nullptr.
  const Function* called_function(const Node& n) const;
  /// Opset of the node's domain in force where it sits (function bodies use their imports);
  /// 0 if none is imported.
  int64_t opset(const Node& n) const;

  /// True if the shape class of some output of `n` is `c` and arose at `n` itself.
  bool is_shape_origin(const Node& n, ShapeClass c) const;

  /// How many nodes (all graphs) have an output whose shape depends on each input dim.
  struct DimUsage {
    std::string name;
    size_t nodes = 0;
  };
  std::vector<DimUsage> dim_usage() const;  ///< sorted by name
  /// Nodes (all graphs) with a data-dependent output shape.
  size_t data_dependent_nodes() const;
  /// Nodes where a data-dependent shape arises (shape origins), in walk order.
  const std::vector<const Node*>& data_dependent_origins() const;
  /// Total nodes analysed (all graphs).
  size_t node_count() const;

  /// Where the analysis stopped short of its fixed point. Loop and Scan bodies are re-run
  /// until what they carry is stable, and function bodies once per call signature; the work
  /// of that is bounded per model (a multiple of the model's size, docs/security.md "Resource
  /// limits"). Past the budget a body is not run again: its values, and what the node
  /// computes from them, are unknown rather than proven.
  struct CutShort {
    const Node* node = nullptr;  ///< the first Loop, Scan or function call left unanalysed
    uint64_t count = 0;          ///< how many bodies or calls were left unanalysed
    uint64_t work = 0;           ///< work done, in node-cost units
    uint64_t budget = 0;         ///< the model's budget, in the same units
  };
  /// nullopt when every body was analysed to its fixed point.
  std::optional<CutShort> cut_short() const;

  struct Impl;
  /// The analysis's own state, for the analyses built on it inside the library
  /// (lib/analysis/provenance_internal.h); not part of the public API.
  const Impl& internals() const { return *impl_; }

 private:
  std::vector<ReasonStep> reason(ValueId v, bool via_value, size_t max_steps) const;
  std::unique_ptr<Impl> impl_;
};

/// The ops of the default domain whose output dims the analysis computes (besides If, Loop and
/// Scan, followed through their bodies, and model-local functions), sorted. Outputs of every
/// other op have unknown dims: their shape classes come from the op semantics table alone.
std::vector<std::string_view> ops_with_dim_facts();

/// Every value of every graph with its dims and known elements, as one JSON document:
/// {"file", "graphs": [{"key", "path", "values": {name: {"dims", "elems"?}}}]}. A dim is a
/// number (fixed), a string (symbolic: its expression), {"data": origin, "max"?} or null
/// (unknown); `dims` is null when not even the rank is known. `key` names a graph by node
/// index and attribute ("main/3:body"), independent of node names. Used by the shape oracle
/// test (ONNX's own inference as the reference) and by `onnx-lint --dump-shapes`.
std::string dump_shape_facts(const Model& model, const Provenance& p);

}  // namespace onnxlint
