// Read-only view of an ONNX model, built by the loader straight from the file's bytes.
//
// Strings are std::string_view into the model's byte buffer (the memory map), so a view is only
// valid while its Model is alive. Tensor payloads are never copied: a TensorData records where
// the payload lies in the file (`payload`), and `Model::read_*` decode small tensors on demand.
#pragma once

#include <onnxlint/data_type.h>
#include <onnxlint/export.h>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

class Arena;
class Graph;
class Node;

/// Dense id of a value name within one graph (see Graph::name_id); kNoNameId for "".
using NameId = uint32_t;
inline constexpr NameId kNoNameId = UINT32_MAX;
class Function;
class Model;

/// A byte range inside the model file (64-bit: files over 2 GiB are supported).
struct ByteSpan {
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// An operator as nodes name it: Model::op_kinds() lists each one the model uses.
struct OpKind {
  std::string_view domain;  ///< canonical: "" for the default ONNX domain
  std::string_view op_type;
  uint32_t id = 0;  ///< Node::op_id() of its nodes: its index in Model::op_kinds()
};

struct StringPair {
  std::string_view key;
  std::string_view value;
};

/// One dimension of a tensor shape: a fixed size, a symbolic name, or unknown.
struct Dim {
  enum class Kind : uint8_t { Value, Param, Unknown };
  Kind kind = Kind::Unknown;
  int64_t value = 0;       // when kind == Value
  std::string_view param;  // when kind == Param
  bool is_static() const { return kind == Kind::Value; }
};

/// What a ValueInfoProto says about a value's type. Only tensor types carry a shape.
struct TypeInfo {
  enum class Kind : uint8_t { None, Tensor, SparseTensor, Sequence, Map, Optional, Other };
  Kind kind = Kind::None;
  int32_t elem_type = 0;  // TensorProto.DataType of the (innermost) tensor, 0 if unknown
  bool has_shape = false;
  /// Sequence, Optional and Map: the wrapping levels from the outside in (`wrappers` of them;
  /// the kind of level k, for k < 8, in bits 2k..2k+1 of `wrapper_kinds`: 0 sequence,
  /// 1 optional, 2 map), and what is innermost: 1 a tensor, 2 a sparse tensor, 0 other.
  uint8_t wrappers = 0;
  uint8_t inner_kind = 0;
  uint16_t wrapper_kinds = 0;
  std::span<const Dim> dims;
  /// A sequence of tensors or an optional tensor that states the shape of its element
  /// tensors: `elem_dims`. `has_shape` stays false: a sequence has no shape.
  bool elem_has_shape = false;
  std::span<const Dim> elem_dims;
  /// True when a tensor type has a shape with every dim fixed.
  bool is_static_shape() const;
};

struct ValueInfo {
  std::string_view name;
  TypeInfo type;
  std::span<const StringPair> metadata_props;  // IR >= 10
  uint64_t offset = 0;                         // byte offset of the ValueInfoProto
  /// Id of `name` in its graph (Graph::name_id); kNoNameId when unnamed, or for a value_info
  /// entry naming a value the graph does not otherwise mention.
  NameId name_id = kNoNameId;
};

/// A TensorProto seen through its wire bytes: metadata decoded, payload only located.
struct TensorData {
  enum class Storage : uint8_t { Empty, Raw, Typed, External };
  std::string_view name;
  std::span<const int64_t> dims;
  /// Raw: the raw_data bytes. Typed: the bytes of the typed field (packed) or of all its
  /// occurrences (first to last, unpacked). External: empty.
  ByteSpan payload;
  uint64_t typed_count = 0;                   // number of elements found in the typed field(s)
  std::span<const StringPair> external_data;  // key/value entries (location, offset, length...)
  uint64_t offset = 0;                        // byte offset of the TensorProto field tag
  ByteSpan message;                           // the TensorProto message bytes (headers + payload)
  int32_t data_type = 0;
  int typed_field = 0;  // protobuf field number of the typed data (4 float_data, 7 int64...)
  /// A graph initializer's id in its graph (Graph::name_id); kNoNameId for other tensors.
  NameId name_id = kNoNameId;
  Storage storage = Storage::Empty;
  bool typed_packed = true;  // typed field stored packed (length-delimited)

  /// Product of dims (1 for a scalar); nullopt on overflow or negative dims.
  std::optional<uint64_t> element_count() const;
  /// element_count × element size, for fixed-size element types; nullopt otherwise (and when
  /// the product does not fit in 64 bits).
  std::optional<uint64_t> expected_bytes() const;
  std::string_view external_value(std::string_view key) const;
};

/// Whether `bytes` bytes are exactly `count` elements of `width` bytes. Every check of a
/// payload against a count goes through it: it divides, because `count * width` wraps for a
/// count the file chooses (2^62 floats times 4 is 0 in 64 bits, the size of an empty payload).
constexpr bool holds_exactly(uint64_t bytes, uint64_t count, uint64_t width) {
  return width != 0 && bytes % width == 0 && bytes / width == count;
}

struct SparseTensorData {
  TensorData values;
  TensorData indices;
  std::span<const int64_t> dims;
  uint64_t offset = 0;
};

/// An attribute's type (the model's, and the operator tables'). Values equal onnx
/// AttributeProto.AttributeType.
enum class AttrType : uint8_t {
  Undefined = 0,
  Float = 1,
  Int = 2,
  String = 3,
  Tensor = 4,
  Graph = 5,
  Floats = 6,
  Ints = 7,
  Strings = 8,
  Tensors = 9,
  Graphs = 10,
  SparseTensor = 11,
  SparseTensors = 12,
  TypeProto = 13,
  TypeProtos = 14,
};

/// AttributeProto: scalars decoded, graphs turned into Graph views, tensors left as spans.
struct Attribute {
  using Type = AttrType;
  std::string_view name;
  std::string_view ref_attr_name;  // function attribute reference
  Type type = Type::Undefined;     // declared type (or inferred from the field set if absent)
  bool type_declared = false;
  float f = 0;
  int64_t i = 0;
  std::string_view s;
  std::span<const float> floats;
  std::span<const int64_t> ints;
  std::span<const std::string_view> strings;
  const TensorData* t = nullptr;
  std::span<const TensorData* const> tensors;
  const Graph* g = nullptr;
  std::span<const Graph* const> graphs;
  std::optional<TypeInfo> tp;
  uint64_t offset = 0;
};

/// The rarely present parts of a NodeProto (IR >= 10), kept out of line: most nodes have none.
struct NodeExtras {
  std::string_view overload;
  std::span<const StringPair> metadata_props;
};

class NameIndex;  // the engine's name table (not part of the API)
namespace detail {
class ModelBuilder;  // the loader: the only writer of a model view
}  // namespace detail

/// A node's input or output names: a random-access range of std::string_view ("" = an omitted
/// optional value). Names are read from the graph's name table by id, so the range yields
/// names by value. The range and its iterators are small values (no reference to the range
/// object itself): both stay valid while the Model is alive.
class ValueNames {
 public:
  ValueNames() = default;

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  /// The name ids (Graph::name_id) in order; kNoNameId for an omitted value.
  std::span<const NameId> ids() const { return {ids_, count_}; }
  /// The k-th name; k < size().
  std::string_view operator[](size_t k) const { return name_of(graph_, ids_[k]); }
  std::string_view front() const { return (*this)[0]; }
  std::string_view back() const { return (*this)[count_ - 1]; }

  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // yields values, not references
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using reference = std::string_view;
    using pointer = void;
    iterator() = default;
    std::string_view operator*() const { return name_of(graph_, ids_[k_]); }
    std::string_view operator[](difference_type d) const { return name_of(graph_, ids_[k_ + d]); }
    iterator& operator++() {
      ++k_;
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      ++k_;
      return t;
    }
    iterator& operator--() {
      --k_;
      return *this;
    }
    iterator operator--(int) {
      iterator t = *this;
      --k_;
      return t;
    }
    iterator& operator+=(difference_type d) {
      k_ += d;
      return *this;
    }
    iterator& operator-=(difference_type d) {
      k_ -= d;
      return *this;
    }
    friend iterator operator+(iterator it, difference_type d) { return it += d; }
    friend iterator operator+(difference_type d, iterator it) { return it += d; }
    friend iterator operator-(iterator it, difference_type d) { return it -= d; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.k_) - static_cast<difference_type>(b.k_);
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.k_ == b.k_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.k_ <=> b.k_; }

   private:
    friend class ValueNames;
    iterator(const Graph* graph, const NameId* ids, size_t k) : graph_(graph), ids_(ids), k_(k) {}
    const Graph* graph_ = nullptr;
    const NameId* ids_ = nullptr;
    size_t k_ = 0;
  };
  iterator begin() const { return iterator(graph_, ids_, 0); }
  iterator end() const { return iterator(graph_, ids_, count_); }

 private:
  friend class Node;
  static inline std::string_view name_of(const Graph* graph, NameId id);
  ValueNames(const Graph* graph, const NameId* ids, uint32_t count)
      : graph_(graph), ids_(ids), count_(count) {}
  const Graph* graph_ = nullptr;
  const NameId* ids_ = nullptr;
  uint32_t count_ = 0;
};

/// A NodeProto. Read through its accessors; the loader is its only writer.
class Node {
 public:
  std::string_view name() const { return name_; }
  std::string_view op_type() const { return op_type_; }
  /// The operator set domain, canonical: "" for the default ONNX domain (written "" or
  /// "ai.onnx" in the file), else as written ("com.microsoft", "ai.onnx.ml", ...).
  std::string_view domain() const { return domain_; }
  /// True for an operator of the default ONNX domain.
  bool in_default_domain() const { return domain_.empty(); }

  /// Input (resp. output) names in order; "" = an omitted optional value.
  ValueNames inputs() const { return ValueNames(graph_, ids_, input_count_); }
  ValueNames outputs() const { return ValueNames(graph_, ids_ + input_count_, output_count_); }
  size_t input_count() const { return input_count_; }
  size_t output_count() const { return output_count_; }
  /// Input (resp. output) k, or "" when it is omitted or k is past the end.
  std::string_view input(size_t k) const {
    return k < input_count_ ? inputs()[k] : std::string_view();
  }
  std::string_view output(size_t k) const {
    return k < output_count_ ? outputs()[k] : std::string_view();
  }
  /// Graph::name_id of the inputs (resp. outputs), kNoNameId for "".
  std::span<const NameId> input_ids() const { return {ids_, input_count_}; }
  std::span<const NameId> output_ids() const { return {ids_ + input_count_, output_count_}; }

  std::span<const Attribute> attributes() const { return attributes_; }
  const Attribute* attribute(std::string_view attr_name) const;
  std::optional<int64_t> attr_int(std::string_view attr_name) const;
  std::optional<std::string_view> attr_string(std::string_view attr_name) const;
  /// Subgraph attributes (If branches, Loop/Scan bodies), in attribute order.
  std::vector<const Graph*> subgraphs() const;

  /// The graph holding this node, and the node's position in graph()->nodes().
  const Graph* graph() const { return graph_; }
  uint32_t index() const { return index_; }
  /// Byte offset of the NodeProto in the file.
  uint64_t offset() const { return offset_; }
  /// The node's (domain, op_type) as a dense id, equal for every node of the model that names
  /// the same pair: an index into Model::op_kinds(). Analyses keep per-op facts in a vector
  /// indexed by it, so that an op is resolved once per model rather than hashed per node.
  uint32_t op_id() const { return op_id_; }
  /// IR >= 10: the function overload this node calls, and its metadata_props.
  std::string_view overload() const { return extras_ ? extras_->overload : std::string_view(); }
  std::span<const StringPair> metadata_props() const {
    return extras_ ? extras_->metadata_props : std::span<const StringPair>();
  }
  /// The name used in graph paths and messages: the node name, or "<op_type>#<index>".
  std::string display_name() const;

 private:
  friend class detail::ModelBuilder;
  std::string_view name_;
  std::string_view op_type_;
  std::string_view domain_;
  std::span<const Attribute> attributes_;
  const Graph* graph_ = nullptr;
  const NameId* ids_ = nullptr;  // input ids, then output ids
  const NodeExtras* extras_ = nullptr;
  uint64_t offset_ = 0;
  uint32_t index_ = 0;
  uint32_t input_count_ = 0;
  uint32_t output_count_ = 0;
  uint32_t op_id_ = 0;  // fills the padding after output_count_: Node stays 112 bytes
};

/// A node as messages name it: "Reshape 'Reshape_12'" for a named node, "Reshape#12" (its
/// display_name) for an unnamed one.
std::string node_label(const Node& n);

/// A graph: the main graph, a subgraph held by a node attribute, or a function body. Read
/// through its accessors; the loader is its only writer.
class Graph {
 public:
  enum class Kind : uint8_t { Main, Subgraph, Function };

  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  Kind kind() const { return kind_; }
  std::string_view name() const { return name_; }
  /// "main", "main/Loop_7:body", "fn:domain::Name", ...
  const std::string& path() const { return path_; }
  std::span<const Node> nodes() const { return nodes_; }
  std::span<const ValueInfo> inputs() const { return inputs_; }  // function bodies: names only
  std::span<const ValueInfo> outputs() const { return outputs_; }
  std::span<const ValueInfo> value_info() const { return value_info_; }
  std::span<const TensorData> initializers() const { return initializers_; }
  std::span<const SparseTensorData> sparse_initializers() const { return sparse_initializers_; }

  /// Every value name this graph's nodes, inputs, outputs and initializers mention is numbered
  /// densely (0 .. name_count() - 1, in order of first mention): analyses index flat arrays by
  /// these ids instead of hashing names. Names defined in an enclosing graph get a local id
  /// too. (Not Provenance's ValueId, which numbers values across the whole model.)
  /// The id of a value name, or kNoNameId if the graph never mentions it.
  NameId name_id(std::string_view value_name) const;
  /// The name with this id ("" for kNoNameId or an id out of range).
  std::string_view value_name(NameId id) const {
    return id < value_names_.size() ? value_names_[id] : std::string_view();
  }
  size_t name_count() const { return value_names_.size(); }

  const Graph* parent() const { return parent_; }  // enclosing graph of a subgraph
  const Node* owner() const { return owner_; }     // node holding a subgraph
  std::string_view owner_attribute() const { return owner_attribute_; }  // e.g. "body"
  const Function* function() const { return function_; }                 // for function bodies
  uint64_t offset() const { return offset_; }
  int depth() const { return depth_; }  // nesting depth (main = 0)

 private:
  friend class detail::ModelBuilder;
  friend class Model;
  Kind kind_ = Kind::Main;
  std::string_view name_;
  std::string path_;
  // The lists live in the Model's arena.
  std::span<const Node> nodes_;
  std::span<const ValueInfo> inputs_;
  std::span<const ValueInfo> outputs_;
  std::span<const ValueInfo> value_info_;
  std::span<const TensorData> initializers_;
  std::span<const SparseTensorData> sparse_initializers_;
  std::unique_ptr<NameIndex> names_;
  std::span<const std::string_view> value_names_;  // names_'s keys by id, once loading is done
  const Graph* parent_ = nullptr;
  const Node* owner_ = nullptr;
  std::string_view owner_attribute_;
  const Function* function_ = nullptr;
  uint64_t offset_ = 0;
  int depth_ = 0;
};

inline std::string_view ValueNames::name_of(const Graph* graph, NameId id) {
  return id == kNoNameId ? std::string_view() : graph->value_name(id);
}

/// True for the default ONNX domain as a file may write it: "" or "ai.onnx". (Node::domain()
/// is canonical already: test Node::in_default_domain().)
inline bool is_default_domain(std::string_view domain) {
  return domain.empty() || domain == "ai.onnx";
}
/// The default domain as "" ("ai.onnx" -> ""); any other domain unchanged.
inline std::string_view normalize_domain(std::string_view domain) {
  return domain == "ai.onnx" ? std::string_view() : domain;
}
/// A domain as reports name it: "ai.onnx" for the default domain, else the domain itself.
inline std::string_view domain_display_name(std::string_view domain) {
  return domain.empty() ? std::string_view("ai.onnx") : domain;
}

struct OpsetImport {
  std::string_view domain;  // as written
  int64_t version = 0;
};

/// A model-local function (FunctionProto). Its body is body() (Kind::Function).
class Function {
 public:
  std::string_view name() const { return name_; }
  std::string_view domain() const { return domain_; }
  std::string_view overload() const { return overload_; }
  /// Attribute names (`attribute` and `attribute_proto`).
  std::span<const std::string_view> attributes() const { return attributes_; }
  std::span<const OpsetImport> opset_imports() const { return opset_imports_; }
  const Graph& body() const { return body_; }
  uint64_t offset() const { return offset_; }

 private:
  friend class detail::ModelBuilder;
  std::string_view name_;
  std::string_view domain_;
  std::string_view overload_;
  std::vector<std::string_view> attributes_;
  std::vector<OpsetImport> opset_imports_;
  Graph body_;
  uint64_t offset_ = 0;
};

/// The whole model. Owns the byte buffer every view points into, and the view.
class Model {
 public:
  class Buffer {
   public:
    virtual ~Buffer() = default;
    virtual std::span<const std::byte> bytes() const = 0;
  };

  Model(std::string path, std::unique_ptr<Buffer> buffer);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  /// Path as given by the user ("-" for stdin). `directory` is where external data is resolved.
  const std::string& path() const { return path_; }
  const std::string& directory() const { return directory_; }
  void set_directory(std::string dir) { directory_ = std::move(dir); }
  std::span<const std::byte> bytes() const { return buffer_->bytes(); }
  uint64_t file_size() const { return bytes().size(); }

  int64_t ir_version() const { return ir_version_; }
  bool has_ir_version() const { return has_ir_version_; }
  std::span<const OpsetImport> opset_imports() const { return opset_imports_; }
  std::string_view producer_name() const { return producer_name_; }
  std::string_view producer_version() const { return producer_version_; }
  std::string_view domain() const { return domain_; }
  int64_t model_version() const { return model_version_; }
  std::string_view doc_string() const { return doc_string_; }
  std::span<const StringPair> metadata_props() const { return metadata_props_; }
  const Graph& graph() const { return graph_; }
  /// Model-local functions in file order.
  std::span<const Function* const> functions() const { return functions_in_order_; }
  /// ModelProto.training_info: how many, and the byte offset of the first.
  uint32_t training_info_count() const { return training_info_count_; }
  uint64_t training_info_offset() const { return training_info_offset_; }
  /// Deepest chain of function calls an analysis follows (LoadLimits::max_call_depth); walks
  /// treat deeper calls as opaque ops, so that a hostile chain cannot exhaust the stack.
  int max_call_depth() const { return max_call_depth_; }

  /// The opset imported for a domain ("" and "ai.onnx" are the same); nullopt if none.
  std::optional<int64_t> opset_for(std::string_view domain) const;
  /// Model-local function with this (domain, name), or nullptr (the first one in file order
  /// if several share it). O(log functions): analyses call it per node.
  const Function* find_function(std::string_view domain, std::string_view name) const;
  /// Every graph of the model in walk order: main graph and its subgraphs (pre-order), then
  /// each function body and its subgraphs.
  const std::vector<const Graph*>& all_graphs() const { return all_graphs_; }
  /// Each distinct (domain, op_type) its nodes name, in order of first appearance; Node::op_id()
  /// indexes it. Domains are canonical as Node::domain() gives them.
  std::span<const OpKind> op_kinds() const { return op_kinds_; }

  /// Decodes a tensor's payload as integers (int8..int64, uint*, bool). Refuses (nullopt)
  /// external data, non-integer types, and tensors with more than `max_elements` elements, so
  /// rules can read small shape tensors without touching large payloads.
  std::optional<std::vector<int64_t>> read_ints(const TensorData& t,
                                                size_t max_elements = 4096) const;
  /// Same for floating point types (float, double, float16, bfloat16).
  std::optional<std::vector<double>> read_floats(const TensorData& t,
                                                 size_t max_elements = 4096) const;
  /// The raw bytes of a span of this model's buffer (empty if out of range).
  std::span<const std::byte> span_bytes(ByteSpan s) const;

 private:
  friend class detail::ModelBuilder;
  void finalize();  // indexes functions and graphs once the loader is done

  std::string path_;
  std::string directory_;
  std::unique_ptr<Buffer> buffer_;
  int64_t ir_version_ = 0;
  bool has_ir_version_ = false;
  std::vector<OpsetImport> opset_imports_;
  std::string_view producer_name_;
  std::string_view producer_version_;
  std::string_view domain_;
  int64_t model_version_ = 0;
  std::string_view doc_string_;
  std::vector<StringPair> metadata_props_;
  Graph graph_;
  std::vector<std::unique_ptr<Function>> functions_;
  uint32_t training_info_count_ = 0;
  uint64_t training_info_offset_ = 0;
  int max_call_depth_ = 32;
  // The view's storage: nodes, tensor headers and every list in one arena; subgraphs.
  std::unique_ptr<Arena> arena_;
  std::vector<std::unique_ptr<Graph>> owned_graphs_;
  std::vector<const Graph*> all_graphs_;
  std::vector<OpKind> op_kinds_;
  std::vector<const Function*> functions_in_order_;
  std::vector<const Function*> functions_by_key_;  // sorted by (domain, name), then file order
};

}  // namespace onnxlint
