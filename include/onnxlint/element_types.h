// Element-type inference: the type of every value of every graph, inferred as ONNX's own
// inference does, in one linear pass (requested as `cache.get<ElementTypes>()`).
//
// For each node the op registry's entry decides (lib/analysis/ops/): the op schema's type
// constraints resolved from the inputs (a type parameter bound by an input that carries it, a
// constraint that allows exactly one type, a concrete type string), or the op's own rule where
// the output type comes from attributes or other inputs (Cast `to`, Constant, ConstantOfShape
// `value`, RandomNormal `dtype`, QuantizeLinear's zero point, the sequence and optional ops).
// If, Loop, Scan and SequenceMap are followed into their bodies (formal inputs typed from the
// node's inputs) and take their outputs from the bodies' outputs; calls of model-local
// functions are inferred through the body. Graph inputs, initializers and Constant payloads are
// facts. Declarations (value_info, graph outputs, subgraph formal inputs) only add what
// inference cannot know; a declaration that contradicts what inference proves is kept aside
// (stale_declarations()) and never used. Unknown stays unknown: nothing is guessed.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A value's type as far as it is known: a tensor (or sparse tensor) of an element type, a
/// sequence of tensors, an optional tensor or an optional sequence of tensors. `elem` 0 means
/// the kind is known and the element type is not. Two bytes.
struct ValueType {
  enum class Kind : uint8_t {
    Unknown = 0,
    Tensor,
    SparseTensor,
    Sequence,          ///< seq(tensor(elem))
    Optional,          ///< optional(tensor(elem))
    OptionalSequence,  ///< optional(seq(tensor(elem)))
    Other,             ///< a map, nested sequences, ...: known to exist, not followed
  };
  Kind kind = Kind::Unknown;
  uint8_t elem = 0;  ///< TensorProto.DataType of the (element) tensor; 0 unknown

  static ValueType tensor(int64_t data_type);  ///< Unknown if data_type is not a known type
  bool known() const { return kind != Kind::Unknown; }
  bool is_tensor() const { return kind == Kind::Tensor; }
  /// The element type of a tensor (dense or sparse) value; 0 otherwise or when unknown.
  int32_t tensor_elem() const {
    return kind == Kind::Tensor || kind == Kind::SparseTensor ? elem : 0;
  }
  /// The same kind and element wrapped or unwrapped one level.
  ValueType as_sequence() const;    ///< tensor(e) -> seq(tensor(e)); others Unknown
  ValueType sequence_elem() const;  ///< seq(tensor(e)) -> tensor(e); others Unknown
  ValueType as_optional() const;    ///< tensor(e) -> optional(tensor(e)), seq -> optional(seq)
  ValueType optional_elem() const;  ///< optional(x) -> x; others Unknown
  friend bool operator==(const ValueType&, const ValueType&) = default;
};

/// "tensor(float)", "seq(tensor(int64))", "optional(tensor(?))", "?" for Unknown.
std::string value_type_text(ValueType t);
/// The type a schema type string names ("tensor(float)", "seq(tensor(int64))",
/// "optional(seq(tensor(bool)))"); Other for maps and deeper nestings; Unknown if unparsable.
ValueType parse_value_type(std::string_view type_string);
/// The type a declaration (ValueInfoProto) states; Unknown when it states none.
ValueType declared_value_type(const TypeInfo& t);

/// A declaration whose element type contradicts what inference proves.
struct StaleDeclaration {
  ValueId value = kNoValue;
  const Graph* graph = nullptr;
  const TypeInfo* declared = nullptr;  ///< the value_info / graph output / subgraph input
  ValueType declared_type;
  ValueType inferred_type;
  bool graph_output = false;  ///< the declaration is the graph's output list (else value_info
                              ///< or a subgraph's formal input)
  bool formal_input = false;  ///< a subgraph's formal input (Loop/Scan body input)
};

class ElementTypes {
 public:
  ElementTypes(const Model& model, AnalysisCache& cache);
  ElementTypes(const ElementTypes&) = delete;
  ElementTypes& operator=(const ElementTypes&) = delete;

  /// The type of a value: inferred, else declared; Unknown for kNoValue.
  ValueType type(ValueId v) const { return v < types_.size() ? types_[v] : ValueType{}; }
  /// The TensorProto.DataType of a tensor value, 0 when unknown (or not a tensor).
  int32_t elem_type(ValueId v) const { return type(v).tensor_elem(); }
  /// The same for input `k` / output `k` of a node (0 when absent).
  int32_t input_elem(const Node& n, size_t k) const { return elem_type(values_.input(n, k)); }
  int32_t output_elem(const Node& n, size_t k) const { return elem_type(values_.output(n, k)); }
  /// True when the type comes from inference (or a graph input, initializer or Constant), false
  /// when only a declaration gave it or it is unknown.
  bool inferred(ValueId v) const {
    return v < from_decl_.size() && !from_decl_[v] && type(v).known();
  }

  /// Declarations contradicting inference, in graph walk order (function bodies included;
  /// there inference knows only what holds for every call).
  std::span<const StaleDeclaration> stale_declarations() const { return stale_; }

  const ValueTable& values() const { return values_; }

  struct Pass;  // the inference pass (lib/analysis/element_types.cc)

 private:
  friend struct Pass;
  const ValueTable& values_;
  std::vector<ValueType> types_;
  std::vector<bool> from_decl_;
  std::vector<StaleDeclaration> stale_;
};

}  // namespace onnxlint
