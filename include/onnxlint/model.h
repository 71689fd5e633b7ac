// Read-only view of an ONNX model, built by the loader straight from the file's bytes.
//
// Strings are std::string_view into the model's byte buffer (the memory map), so a view is only
// valid while its Model is alive. Tensor payloads are never copied: a TensorData records where
// the payload lies in the file (`payload`), and `Model::read_*` decode small tensors on demand.
#pragma once

#include <onnxlint/arena.h>
#include <onnxlint/data_type.h>
#include <onnxlint/export.h>
#include <onnxlint/name_map.h>

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

struct Graph;
struct Node;

/// Dense id of a value name within one graph (see Graph::name_ids); kNoNameId for "".
using NameId = uint32_t;
inline constexpr NameId kNoNameId = UINT32_MAX;
struct Function;
class Model;

/// A byte range inside the model file (64-bit: files over 2 GiB are supported).
struct ByteSpan {
  uint64_t offset = 0;
  uint64_t size = 0;
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
  /// Id of `name` in its graph's name_ids; kNoNameId when unnamed, or for a value_info
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
  /// A graph initializer's id in its graph's name_ids; kNoNameId for other tensors.
  NameId name_id = kNoNameId;
  Storage storage = Storage::Empty;
  bool typed_packed = true;  // typed field stored packed (length-delimited)

  /// Product of dims (1 for a scalar); nullopt on overflow or negative dims.
  std::optional<uint64_t> element_count() const;
  /// element_count × element size, for fixed-size element types; nullopt otherwise.
  std::optional<uint64_t> expected_bytes() const;
  std::string_view external_value(std::string_view key) const;
};

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

/// How the loader lays out a node's value names in the model's arena: this header, then the
/// graph->name_ids of the inputs followed by those of the outputs (kNoNameId for "").
struct NodeIo {
  const Graph* graph = nullptr;
  uint32_t input_count = 0;
  uint32_t output_count = 0;
  const NameId* ids() const { return reinterpret_cast<const NameId*>(this + 1); }
  NameId* ids() { return reinterpret_cast<NameId*>(this + 1); }
};

/// A node's input or output names: a random-access range of std::string_view ("" = omitted
/// optional value). The names are not stored per node but read from the graph's name table by
/// id, so the range is 8 bytes and yields names by value (no std::span of them exists).
class ValueNames {
 public:
  ValueNames() = default;
  ValueNames(const NodeIo* io, bool outputs)
      : bits_(reinterpret_cast<uintptr_t>(io) | static_cast<uintptr_t>(outputs)) {}

  size_t size() const {
    const NodeIo* h = io();
    return h == nullptr ? 0 : (is_outputs() ? h->output_count : h->input_count);
  }
  bool empty() const { return size() == 0; }
  /// The name ids (Graph::name_ids) in order.
  std::span<const NameId> ids() const {
    const NodeIo* h = io();
    if (h == nullptr) return {};
    return is_outputs() ? std::span<const NameId>(h->ids() + h->input_count, h->output_count)
                        : std::span<const NameId>(h->ids(), h->input_count);
  }
  inline std::string_view operator[](size_t k) const;
  std::string_view front() const { return (*this)[0]; }
  std::string_view back() const { return (*this)[size() - 1]; }

  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // yields values, not references
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using reference = std::string_view;
    using pointer = void;
    iterator() = default;
    iterator(const ValueNames* names, size_t k) : names_(names), k_(k) {}
    std::string_view operator*() const { return (*names_)[k_]; }
    std::string_view operator[](difference_type d) const { return (*names_)[k_ + d]; }
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
    const ValueNames* names_ = nullptr;
    size_t k_ = 0;
  };
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(this, size()); }

 private:
  const NodeIo* io() const { return reinterpret_cast<const NodeIo*>(bits_ & ~uintptr_t{1}); }
  bool is_outputs() const { return (bits_ & 1) != 0; }
  uintptr_t bits_ = 0;  // the NodeIo, with bit 0 set for the outputs
};

struct Node {
  std::string_view name;
  std::string_view op_type;
  std::string_view domain;  // as written ("" and "ai.onnx": default domain)
  ValueNames inputs;        // "" = omitted optional input
  ValueNames outputs;       // "" = omitted optional output
  std::span<const Attribute> attributes;
  const Graph* graph = nullptr;  // the graph holding this node
  uint64_t offset = 0;           // byte offset of the NodeProto
  uint32_t index = 0;            // position in graph->nodes
  /// Set by the loader when the node has an overload or metadata_props; else nullptr.
  const NodeExtras* extras = nullptr;

  /// graph->name_ids of the inputs (resp. outputs), kNoNameId for "".
  std::span<const NameId> input_ids() const { return inputs.ids(); }
  std::span<const NameId> output_ids() const { return outputs.ids(); }
  std::string_view overload() const { return extras ? extras->overload : std::string_view(); }
  std::span<const StringPair> metadata_props() const {
    return extras ? extras->metadata_props : std::span<const StringPair>();
  }

  const Attribute* attribute(std::string_view attr_name) const;
  std::optional<int64_t> attr_int(std::string_view attr_name) const;
  std::optional<std::string_view> attr_string(std::string_view attr_name) const;
  /// The name used in graph paths and messages: the node name, or "<op_type>#<index>".
  std::string display_name() const;
  /// Subgraph attributes (If branches, Loop/Scan bodies), in attribute order.
  std::vector<const Graph*> subgraphs() const;
};

/// A node as messages name it: "Reshape 'Reshape_12'" for a named node, "Reshape#12" (its
/// display_name) for an unnamed one.
std::string node_label(const Node& n);

/// A graph: the main graph, a subgraph held by a node attribute, or a function body.
struct Graph {
  enum class Kind : uint8_t { Main, Subgraph, Function };
  Kind kind = Kind::Main;
  std::string_view name;
  std::string path;  // "main", "main/Loop_7:body", "fn:domain::Name", ...
  // The lists live in the Model's arena (see Model::arena).
  std::span<const Node> nodes;
  std::span<const ValueInfo> inputs;  // function bodies: names only (type kind None)
  std::span<const ValueInfo> outputs;
  std::span<const ValueInfo> value_info;
  std::span<const TensorData> initializers;
  std::span<const SparseTensorData> sparse_initializers;
  /// Every value name this graph's nodes, inputs, outputs and initializers mention, numbered
  /// densely in order of first mention: analyses index flat arrays by these ids instead of
  /// hashing names. Names defined in an enclosing graph get a local id too. (Not to be
  /// confused with Provenance's ValueId, which numbers values across the whole model.)
  NameIndex name_ids;
  /// The id of a value name in this graph, or kNoNameId if the graph never mentions it.
  NameId name_id(std::string_view value_name) const {
    static_assert(NameIndex::kNone == kNoNameId);
    return name_ids.find(value_name);
  }
  std::string_view value_name(NameId id) const { return name_ids.key(id); }
  size_t name_count() const { return name_ids.size(); }
  const Graph* parent = nullptr;       // enclosing graph for subgraphs
  const Node* owner = nullptr;         // node holding this subgraph
  std::string_view owner_attribute;    // attribute name, e.g. "body"
  const Function* function = nullptr;  // for function bodies
  uint64_t offset = 0;
  int depth = 0;  // nesting depth (main = 0)
};

inline std::string_view ValueNames::operator[](size_t k) const {
  const NodeIo* h = io();
  const NameId id = h->ids()[is_outputs() ? h->input_count + k : k];
  return id == kNoNameId ? std::string_view() : h->graph->value_name(id);
}

struct OpsetImport {
  std::string_view domain;
  int64_t version = 0;
};

/// A model-local function (FunctionProto). Its body is `body` (Kind::Function).
struct Function {
  std::string_view name;
  std::string_view domain;
  std::string_view overload;
  std::vector<std::string_view> attributes;  // attribute names (attribute / attribute_proto)
  std::vector<OpsetImport> opset_imports;
  Graph body;
  uint64_t offset = 0;
};

/// The whole model. Owns the byte buffer every view points into.
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

  int64_t ir_version = 0;
  bool has_ir_version = false;
  std::vector<OpsetImport> opset_imports;
  std::string_view producer_name;
  std::string_view producer_version;
  std::string_view domain;
  int64_t model_version = 0;
  std::string_view doc_string;
  std::vector<StringPair> metadata_props;
  Graph graph;
  std::vector<std::unique_ptr<Function>> functions;
  uint32_t training_info_count = 0;
  uint64_t training_info_offset = 0;
  /// Deepest chain of function calls an analysis follows (LoadLimits::max_call_depth); walks
  /// treat deeper calls as opaque ops, so that a hostile chain cannot exhaust the stack.
  int max_call_depth = 32;

  /// The opset imported for a domain ("" and "ai.onnx" are the same); nullopt if none.
  std::optional<int64_t> opset_for(std::string_view domain) const;
  /// Model-local function with this (domain, name), or nullptr (the first one in file order
  /// if several share it). O(log functions): analyses call it per node.
  const Function* find_function(std::string_view domain, std::string_view name) const;
  /// Every graph of the model in walk order: main graph and its subgraphs (pre-order), then
  /// each function body and its subgraphs.
  const std::vector<const Graph*>& all_graphs() const { return all_graphs_; }

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

  // Storage for views created by the loader; not part of the reading API.
  std::vector<std::unique_ptr<Graph>> owned_graphs;
  /// Nodes, tensor headers and every list of the view; released in one piece with the Model.
  Arena arena;
  void finalize();  // computes all_graphs(); called by the loader

 private:
  std::string path_;
  std::string directory_;
  std::unique_ptr<Buffer> buffer_;
  std::vector<const Graph*> all_graphs_;
  std::vector<const Function*> functions_by_key_;  // sorted by (domain, name), then file order
};

}  // namespace onnxlint
