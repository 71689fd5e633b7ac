// The model-wide value table: one id per value of every graph (graph inputs, initializers,
// sparse initializers, node outputs; main graph, subgraphs and function bodies), and the facts
// the model *states* about each value, in flat per-value columns:
//  - what it is: an initializer, a Constant node's attribute (ConstantInfo);
//  - its element type and shape as stated (StatedType): what the value holds (an initializer's or
//    Constant's tensor, Cast's `to`) before what a declaration says (graph input, graph output,
//    value_info);
//  - whether a runtime's constant folding turns it into a weight (FoldState).
// Every rule asks here (and Provenance, built on the same ids, for what the graph computes):
// there is one precedence and one notion of scope. Names resolve lexically, as GraphInfo does.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/model.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// Identifies a value (graph input, initializer, node output, subgraph/function formal input)
/// across all graphs of one model.
using ValueId = uint32_t;
inline constexpr ValueId kNoValue = 0xffffffffu;

/// The id range of one graph: its inputs, then initializers, then sparse initializers, then the
/// outputs of its nodes in node order.
struct GraphSlot {
  const Graph* graph = nullptr;
  const GraphInfo* info = nullptr;
  uint32_t base = 0;                   // first value id
  uint32_t outs_base = 0;              // first node-output id
  std::vector<uint32_t> out_off;       // per node: offset of its first output from outs_base
  uint32_t end = 0;                    // one past the last value id of this graph
  uint32_t node_base = 0;              // global id of node 0
  const Function* function = nullptr;  // root function when inside a function body
  uint32_t root_slot = 0;              // slot of the root graph (main or function body)
};

/// A constant a value refers to: an initializer (not overridable by a graph input) or a
/// Constant node, whose payload rules read lazily.
struct ConstantInfo {
  const TensorData* tensor = nullptr;    // initializer or Constant's `value`
  const Attribute* attribute = nullptr;  // Constant's value_int(s)/value_float(s)/...
  const Node* node = nullptr;            // the Constant node, if any
  bool overridable = false;              // initializer also listed as a graph input
};

/// What the model states about a value's element type and shape. Dims are read from the
/// source on request: nothing is copied.
struct StatedType {
  int32_t elem_type = 0;               ///< TensorProto.DataType, 0 if not stated
  const TypeInfo* declared = nullptr;  ///< graph input/output or value_info, if any
  const TensorData* tensor = nullptr;  ///< the tensor the value holds, if any
  int64_t attribute_length = -2;       ///< Constant value_*: -1 scalar, n for n elements
  const Node* producer = nullptr;      ///< the node computing the value, if any
  uint32_t output_index = 0;           ///< which output of `producer` it is
  bool has_shape() const;              ///< a rank is stated
  size_t rank() const;                 ///< 0 unless has_shape()
  Dim dim(size_t i) const;             ///< i < rank()
  std::vector<Dim> dims() const;       ///< every dim (empty unless has_shape())
  bool is_static_shape() const;        ///< has_shape() and every dim fixed
};

class ValueTable {
 public:
  ValueTable(const Model& model, AnalysisCache& cache);
  ValueTable(const ValueTable&) = delete;
  ValueTable& operator=(const ValueTable&) = delete;

  /// Number of value ids (all graphs).
  uint32_t size() const { return size_; }
  /// Number of nodes (all graphs); global node ids are 0..node_count().
  uint32_t node_count() const { return node_total_; }

  /// The value a name refers to in graph `g` (lexical scope), or kNoValue.
  ValueId find(const Graph& g, std::string_view name) const;
  /// The value input `k` of a node reads (lexical scope), or kNoValue if absent, empty or
  /// undefined. Same as find(*n.graph, n.inputs[k]), without hashing the name.
  ValueId input(const Node& n, size_t k) const;
  /// The same, with the slot of n's graph already known (no lookup).
  ValueId input(const GraphSlot& s, const Node& n, size_t k) const {
    const ValueDef* d = s.info->input_def(n, k);
    if (d == nullptr) return kNoValue;
    // Inline for the common case, a value a node of the same graph makes.
    if (d->kind() == ValueDef::Kind::Node && d->graph() == s.graph) {
      return node_output_id(s, *d->node(), d->output_index());
    }
    return id_in(&s, *d);
  }
  /// Output `k` of a node, or kNoValue if absent/empty.
  ValueId output(const Node& n, size_t k) const;
  /// The same, with the slot of n's graph already known (no lookup).
  ValueId output(const GraphSlot& s, const Node& n, size_t k) const {
    if (k >= n.output_count() || n.output_ids()[k] == kNoNameId) return kNoValue;
    return node_output_id(s, n, k);
  }
  /// The global id of a node (0..node_count()), and the node of a global id (nullptr if none).
  uint32_t node_id(const Node& n) const;
  const Node* node_at(uint32_t id) const;
  /// The id of a definition found by GraphIndex.
  ValueId id_of(const ValueDef& d) const;
  const Graph* graph_of(ValueId v) const;
  std::string_view name_of(ValueId v) const;
  /// The node producing a value (nullptr for inputs and initializers).
  const Node* producer(ValueId v) const;

  /// The constant a value is (initializer or Constant node), or nullopt. An initializer that a
  /// graph input overrides is reported with `overridable` set.
  std::optional<ConstantInfo> constant(ValueId v) const;
  /// The elements of a small integer constant (at most `max_elements`), or nullopt (not a
  /// constant, overridable, not integer, or larger).
  std::optional<std::vector<int64_t>> constant_ints(ValueId v, size_t max_elements = 4096) const;
  /// The same for a floating-point constant (float, double, float16, bfloat16; a Constant's
  /// value_float(s)), or nullopt.
  std::optional<std::vector<double>> constant_floats(ValueId v, size_t max_elements = 4096) const;

  /// What the model states about the value (see StatedType for the precedence).
  StatedType stated(ValueId v) const;
  /// The same for input `k` / output `k` of a node, without looking the producer up.
  StatedType stated_input(const Node& n, size_t k) const;
  StatedType stated_output(const Node& n, size_t k) const;
  /// stated(v).elem_type: what the model states, not what inference proves. Rules read
  /// element types from ElementTypes (element_types.h), which infers them as ONNX does.
  int32_t elem_type(ValueId v) const { return stated(v).elem_type; }

  /// The declaration (graph output or value_info entry of the value's graph) of a node output
  /// or initializer; `info` is nullptr when there is none. Graph inputs are not declarations
  /// here: they state what a graph receives.
  struct Declaration {
    const ValueInfo* info = nullptr;
    bool graph_output = false;  ///< from the graph's output list (else value_info)
  };
  Declaration declaration(ValueId v) const;
  /// True when declaration(v) has an entry (inline: most values have none).
  bool has_declaration(ValueId v) const { return v < decl_.size() && decl_[v] != 0; }

  // Fold states (whether constant folding turns a value into a weight) are an analysis of their
  // own: include/onnxlint/fold_states.h.

  /// Id ranges, for the analyses built on this table (Provenance).
  const std::vector<GraphSlot>& slots() const { return slots_; }
  const GraphSlot* slot(const Graph& g) const;
  const GraphSlot* slot_of_value(ValueId v) const;

 private:
  // The id of output k of node n of slot s's graph (outputs are numbered node by node).
  static ValueId node_output_id(const GraphSlot& s, const Node& n, size_t k) {
    return s.outs_base + s.out_off[n.index()] + static_cast<uint32_t>(k);
  }
  ValueId id_in(const GraphSlot* hint, const ValueDef& d) const;  // hint: d.graph's slot, maybe
  // `n`: the producer when the caller knows it (output `output_index`), else nullptr.
  StatedType stated_in(ValueId v, const GraphSlot* s, const Node* n, uint32_t output_index) const;
  const Model& model_;
  std::vector<GraphSlot> slots_;
  std::unordered_map<const Graph*, uint32_t> slot_index_;
  uint32_t size_ = 0, node_total_ = 0;
  // decl_[v]: where a node output's or initializer's declared type is: 0 none, else
  // (kind << 30) | index with kind 1 = graph output, 2 = value_info of the value's graph.
  std::vector<uint32_t> decl_;
  std::vector<const Node*> producers_;  // per value id: the node whose output it is, or nullptr
};

}  // namespace onnxlint
