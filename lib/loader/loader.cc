// Builds the Model view by walking the protobuf wire format of ModelProto and its graphs.
//
// Why not ModelProto::ParseFromArray: it copies every payload (1 GiB of weights = 1 GiB more
// memory and seconds of work), and protobuf refuses messages over 2 GiB. Walking the wire
// format ourselves records where payloads are and skips over them without touching their
// pages. Small, self-contained messages (TypeProto) are handed to ONNX's generated classes.
#include <fcntl.h>
#include <google/protobuf/arena.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/loader.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <new>

#include "loader/wire.h"
#include "util/arena.h"
#include "util/name_map.h"

namespace onnxlint {

// A name as it appears in a graph path ("main/<node>:<attribute>"). Paths are copied into
// every subgraph below, so a hostile 1 MB node name over a thousand subgraphs would cost
// gigabytes: a long name is shortened to its start plus a hash of the whole name, which keeps
// paths distinct and stable.
std::string graph_path_component(std::string_view name) {
  constexpr size_t kMax = 256, kKeep = 200;
  if (name.size() <= kMax) return std::string(name);
  size_t keep = kKeep;
  while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a: fixed, so paths are the same in every run
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(h));
  return std::string(name.substr(0, keep)) + "...#" + hex;
}

std::string subgraph_path(std::string_view owner_path, std::string_view node_display_name,
                          std::string_view attribute) {
  const std::string node = graph_path_component(node_display_name);
  return std::string(owner_path) + (node.starts_with('/') ? "" : "/") + node + ":" +
         graph_path_component(attribute);
}

namespace {

using wire::Field;
using wire::Reader;

class MappedBuffer final : public Model::Buffer {
 public:
  MappedBuffer(void* addr, size_t size) : addr_(addr), size_(size) {}
  ~MappedBuffer() override {
    if (addr_ != nullptr) munmap(addr_, size_);
  }
  std::span<const std::byte> bytes() const override {
    return {static_cast<const std::byte*>(addr_), size_};
  }

 private:
  void* addr_;
  size_t size_;
};

class OwnedBuffer final : public Model::Buffer {
 public:
  explicit OwnedBuffer(std::string data) : data_(std::move(data)) {}
  std::span<const std::byte> bytes() const override {
    return {reinterpret_cast<const std::byte*>(data_.data()), data_.size()};
  }

 private:
  std::string data_;
};

// Bytes the caller owns (load_model_from_view): the model only points into them.
class BorrowedBuffer final : public Model::Buffer {
 public:
  explicit BorrowedBuffer(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::span<const std::byte> bytes() const override { return bytes_; }

 private:
  std::span<const std::byte> bytes_;
};

TypeInfo convert_type(const onnx::TypeProto& tp, const LoadLimits& limits, Arena& arena) {
  TypeInfo info;
  const onnx::TypeProto* cur = &tp;
  // Sequence/optional wrap an inner type: report the outer kind, the innermost element type.
  switch (tp.value_case()) {
    case onnx::TypeProto::kTensorType:
      info.kind = TypeInfo::Kind::Tensor;
      break;
    case onnx::TypeProto::kSparseTensorType:
      info.kind = TypeInfo::Kind::SparseTensor;
      break;
    case onnx::TypeProto::kSequenceType:
      info.kind = TypeInfo::Kind::Sequence;
      break;
    case onnx::TypeProto::kMapType:
      info.kind = TypeInfo::Kind::Map;
      break;
    case onnx::TypeProto::kOptionalType:
      info.kind = TypeInfo::Kind::Optional;
      break;
    case onnx::TypeProto::VALUE_NOT_SET:
      info.kind = TypeInfo::Kind::None;
      return info;
    default:
      info.kind = TypeInfo::Kind::Other;
      return info;
  }
  int wrappers = 0;  // sequence/optional/map levels around the innermost type
  for (int guard = 0; guard < 32; ++guard, ++wrappers) {
    unsigned level_kind = 0;
    if (cur->has_sequence_type()) {
      cur = &cur->sequence_type().elem_type();
    } else if (cur->has_optional_type()) {
      cur = &cur->optional_type().elem_type();
      level_kind = 1;
    } else if (cur->has_map_type()) {
      cur = &cur->map_type().value_type();
      level_kind = 2;
    } else {
      break;
    }
    if (wrappers < 8) info.wrapper_kinds |= static_cast<uint16_t>(level_kind << (2 * wrappers));
  }
  info.wrappers = static_cast<uint8_t>(wrappers);
  info.inner_kind = cur->has_tensor_type() ? 1 : cur->has_sparse_tensor_type() ? 2 : 0;
  const onnx::TensorShapeProto* shape = nullptr;
  if (cur->has_tensor_type()) {
    info.elem_type = cur->tensor_type().elem_type();
    if (cur->tensor_type().has_shape()) shape = &cur->tensor_type().shape();
  } else if (cur->has_sparse_tensor_type()) {
    info.elem_type = cur->sparse_tensor_type().elem_type();
    if (cur->sparse_tensor_type().has_shape()) shape = &cur->sparse_tensor_type().shape();
  }
  if (shape == nullptr) return info;
  size_t n = std::min<size_t>(shape->dim_size(), limits.max_dims);
  std::span<Dim> dims = arena.make_array<Dim>(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& d = shape->dim(static_cast<int>(i));
    Dim& dim = dims[i];
    if (d.has_dim_value()) {
      dim.kind = Dim::Kind::Value;
      dim.value = d.dim_value();
    } else if (d.has_dim_param() && !d.dim_param().empty()) {
      dim.kind = Dim::Kind::Param;
      dim.param = arena.copy_string(d.dim_param());  // the parsed proto is temporary
    }
  }
  // Only a tensor's own shape is "the value's shape"; the tensor directly inside a sequence
  // or an optional is the shape of its elements.
  if (info.kind == TypeInfo::Kind::Tensor || info.kind == TypeInfo::Kind::SparseTensor) {
    info.has_shape = true;
    info.dims = dims;
  } else if ((info.kind == TypeInfo::Kind::Sequence || info.kind == TypeInfo::Kind::Optional) &&
             wrappers == 1 && cur->has_tensor_type()) {
    info.elem_has_shape = true;
    info.elem_dims = dims;
  }
  return info;
}

}  // namespace

namespace detail {

// The loader's walk over the wire bytes: the one writer of a Model's view (a friend of Model,
// Graph, Node and Function).
class ModelBuilder {
 public:
  ModelBuilder(Model& model, const LoadLimits& limits)
      : model_(model),
        arena_(*model.arena_),
        bytes_(model.bytes()),
        limits_(limits),
        // Budgets proportional to the file (see LoadLimits): memory stays a bounded multiple.
        max_graphs_(std::min<uint64_t>(limits.max_graphs, 10'000 + bytes_.size() / 16)),
        max_path_bytes_(
            std::min<uint64_t>(limits.max_graph_path_bytes, (16u << 20) + 64 * bytes_.size())) {
    model_.max_call_depth_ = limits.max_call_depth;
    recent_ops_.fill(kNoOp);
  }

  // Once the walk is done: the model's indexes of functions and graphs.
  void finish() { model_.finalize(); }

  void walk_model() {
    Reader r(bytes_, 0, bytes_.size());
    // Every occurrence of the singular `graph` field: protobuf (and so every runtime) merges
    // them into one graph, so the nodes of all of them run.
    std::vector<Field> graph_parts;
    while (!r.done()) {
      Field f = r.next();
      switch (f.number) {
        case 1:
          expect(f, wire::kVarint, "ModelProto.ir_version");
          model_.ir_version_ = static_cast<int64_t>(f.varint);
          model_.has_ir_version_ = true;
          break;
        case 2:
          model_.producer_name_ = str(f, "ModelProto.producer_name");
          break;
        case 3:
          model_.producer_version_ = str(f, "ModelProto.producer_version");
          break;
        case 4:
          model_.domain_ = str(f, "ModelProto.domain");
          break;
        case 5:
          expect(f, wire::kVarint, "ModelProto.model_version");
          model_.model_version_ = static_cast<int64_t>(f.varint);
          break;
        case 6:
          model_.doc_string_ = str(f, "ModelProto.doc_string");
          break;
        case 7:
          expect(f, wire::kLen, "ModelProto.graph");
          graph_parts.push_back(f);
          break;
        case 8:
          model_.opset_imports_.push_back(opset_import(f));
          break;
        case 14:
          model_.metadata_props_.push_back(string_pair(f, "ModelProto.metadata_props"));
          break;
        case 20:
          expect(f, wire::kLen, "ModelProto.training_info");
          if (model_.training_info_count_++ == 0) model_.training_info_offset_ = f.tag_offset;
          break;
        case 25:
          walk_function(f);
          break;
        default:
          break;  // unknown fields are skipped, as protobuf does
      }
    }
    const bool saw_graph = !graph_parts.empty();
    if (!saw_graph && !model_.has_ir_version_ && model_.opset_imports_.empty()) {
      Reader::fail("no ModelProto fields found (not an ONNX model)", 0);
    }
    if (!saw_graph) Reader::fail("ModelProto has no graph", 0);
    walk_graph(graph_parts, model_.graph_, Graph::Kind::Main, "main", nullptr, nullptr, "", 0);
  }

 private:
  void expect(const Field& f, wire::WireType type, const char* what) {
    if (f.type != type) {
      Reader::fail(std::string(what) + " has wire type " + std::to_string(int(f.type)) +
                       ", expected " + std::to_string(int(type)) + " (not an ONNX model?)",
                   f.tag_offset);
    }
  }

  std::string_view str(const Field& f, const char* what) {
    expect(f, wire::kLen, what);
    return wire::as_string(bytes_, f);
  }

  OpsetImport opset_import(const Field& f) {
    expect(f, wire::kLen, "ModelProto.opset_import");
    OpsetImport imp;
    Reader r(bytes_, f.data, f.data + f.size);
    while (!r.done()) {
      Field g = r.next();
      if (g.number == 1) imp.domain = str(g, "OperatorSetIdProto.domain");
      if (g.number == 2) {
        expect(g, wire::kVarint, "OperatorSetIdProto.version");
        imp.version = static_cast<int64_t>(g.varint);
      }
    }
    return imp;
  }

  StringPair string_pair(const Field& f, const char* what) {
    expect(f, wire::kLen, what);
    StringPair p;
    Reader r(bytes_, f.data, f.data + f.size);
    while (!r.done()) {
      Field g = r.next();
      if (g.number == 1) p.key = str(g, "StringStringEntryProto.key");
      if (g.number == 2) p.value = str(g, "StringStringEntryProto.value");
    }
    return p;
  }

  // A singular TypeProto field given several times is what protobuf parses from the
  // concatenation of the occurrences (a merge): parse exactly that.
  TypeInfo type_proto(std::span<const Field> parts) {
    if (parts.size() == 1) return type_proto(parts[0]);
    std::string joined;
    for (const Field& f : parts) {
      expect(f, wire::kLen, "TypeProto");
      joined.append(wire::as_string(bytes_, f));
    }
    google::protobuf::Arena arena;
    auto* tp = google::protobuf::Arena::CreateMessage<onnx::TypeProto>(&arena);
    if (joined.size() > INT32_MAX ||
        !tp->ParseFromArray(joined.data(), static_cast<int>(joined.size()))) {
      Reader::fail("TypeProto could not be parsed", parts[0].tag_offset);
    }
    return convert_type(*tp, limits_, arena_);
  }

  TypeInfo type_proto(const Field& f) {
    expect(f, wire::kLen, "TypeProto");
    // An arena whose first block is on the stack: a typical TypeProto parses without malloc.
    alignas(16) char block[2048];
    google::protobuf::ArenaOptions options;
    options.initial_block = block;
    options.initial_block_size = sizeof(block);
    google::protobuf::Arena arena(options);
    auto* tp = google::protobuf::Arena::CreateMessage<onnx::TypeProto>(&arena);
    if (f.size > INT32_MAX ||
        !tp->ParseFromArray(reinterpret_cast<const char*>(bytes_.data()) + f.data,
                            static_cast<int>(f.size))) {
      Reader::fail("TypeProto could not be parsed", f.tag_offset);
    }
    return convert_type(*tp, limits_, arena_);
  }

  void value_info(const Field& f, ValueInfo& v) {
    expect(f, wire::kLen, "ValueInfoProto");
    v.offset = f.tag_offset;
    scratch_pairs_.clear();
    scratch_parts_.clear();
    Reader r(bytes_, f.data, f.data + f.size);
    while (!r.done()) {
      Field g = r.next();
      if (g.number == 1) v.name = str(g, "ValueInfoProto.name");
      if (g.number == 2) scratch_parts_.push_back(g);
      if (g.number == 4) scratch_pairs_.push_back(string_pair(g, "ValueInfoProto.metadata_props"));
    }
    if (!scratch_parts_.empty()) v.type = type_proto(scratch_parts_);
    v.metadata_props = arena_.copy(scratch_pairs_);
  }

  // Repeated int64 that may be packed (kLen) or not (kVarint).
  void int64s(const Field& f, std::vector<int64_t>& out, uint64_t limit, const char* what) {
    if (f.type == wire::kVarint) {
      out.push_back(static_cast<int64_t>(f.varint));
    } else {
      expect(f, wire::kLen, what);
      Reader r(bytes_, f.data, f.data + f.size);
      while (!r.done()) {
        if (out.size() >= limit) Reader::fail(std::string(what) + ": too many values", f.data);
        out.push_back(static_cast<int64_t>(r.varint()));
      }
    }
    if (out.size() > limit) Reader::fail(std::string(what) + ": too many values", f.tag_offset);
  }

  void tensor(const Field& f, TensorData& t) {
    expect(f, wire::kLen, "TensorProto");
    t.offset = f.tag_offset;
    t.message = ByteSpan{f.data, f.size};
    scratch_dims_.clear();
    scratch_external_.clear();
    Reader r(bytes_, f.data, f.data + f.size);
    bool external = false;
    while (!r.done()) {
      Field g = r.next();
      switch (g.number) {
        case 1:
          int64s(g, scratch_dims_, limits_.max_dims, "TensorProto.dims");
          break;
        case 2:
          expect(g, wire::kVarint, "TensorProto.data_type");
          t.data_type = static_cast<int32_t>(g.varint);
          break;
        case 8:
          t.name = str(g, "TensorProto.name");
          break;
        case 9:
          expect(g, wire::kLen, "TensorProto.raw_data");
          t.storage = TensorData::Storage::Raw;
          t.payload = ByteSpan{g.data, g.size};
          break;
        case 4:
        case 5:
        case 6:
        case 7:
        case 10:
        case 11:
          typed(g, t);
          break;
        case 13:
          scratch_external_.push_back(string_pair(g, "TensorProto.external_data"));
          break;
        case 14:
          expect(g, wire::kVarint, "TensorProto.data_location");
          external = g.varint == 1;
          break;
        default:
          break;
      }
    }
    if (external) t.storage = TensorData::Storage::External;
    t.dims = arena_.copy(scratch_dims_);
    t.external_data = arena_.copy(scratch_external_);
  }

  void typed(const Field& g, TensorData& t) {
    const bool first = t.typed_field == 0;
    if (first) {
      t.typed_field = static_cast<int>(g.number);
      t.payload = ByteSpan{g.data, g.size};
      if (t.storage == TensorData::Storage::Empty) t.storage = TensorData::Storage::Typed;
    } else {
      t.typed_packed = false;  // several occurrences: decoded by re-walking the message
    }
    if (g.number == 6) {  // string_data: one entry per element, never packed
      expect(g, wire::kLen, "TensorProto.string_data");
      t.typed_packed = false;
      t.typed_count += 1;
    } else if (g.type != wire::kLen) {
      t.typed_packed = false;
      t.typed_count += 1;
    } else if (g.number == 4) {
      t.typed_count += g.size / 4;
    } else if (g.number == 10) {
      t.typed_count += g.size / 8;
    } else {
      // Packed varints: count terminating bytes without decoding.
      const auto* p = reinterpret_cast<const uint8_t*>(bytes_.data()) + g.data;
      for (uint64_t i = 0; i < g.size; ++i) t.typed_count += (p[i] & 0x80) == 0;
    }
  }

  const TensorData* owned_tensor(const Field& f) {
    TensorData& t = arena_.make_array<TensorData>(1)[0];
    tensor(f, t);
    return &t;
  }

  void sparse_tensor(const Field& f, SparseTensorData& s) {
    expect(f, wire::kLen, "SparseTensorProto");
    s.offset = f.tag_offset;
    scratch_sparse_dims_.clear();
    bool values = false, indices = false;
    Reader r(bytes_, f.data, f.data + f.size);
    while (!r.done()) {
      Field g = r.next();
      if (g.number == 1) {
        if (std::exchange(values, true)) not_merged(g, "SparseTensorProto.values");
        tensor(g, s.values);
      }
      if (g.number == 2) {
        if (std::exchange(indices, true)) not_merged(g, "SparseTensorProto.indices");
        tensor(g, s.indices);
      }
      if (g.number == 3)
        int64s(g, scratch_sparse_dims_, limits_.max_dims, "SparseTensorProto.dims");
    }
    s.dims = arena_.copy(scratch_sparse_dims_);
  }

  void attribute(const Field& f, Attribute& a, const Node& node, const Graph& owner, int depth) {
    expect(f, wire::kLen, "AttributeProto");
    a.offset = f.tag_offset;
    // List values are gathered in scratch vectors and copied to the arena at their final size
    // (before subgraphs are walked: those reuse the scratch vectors).
    scratch_floats_.clear();
    scratch_ints_.clear();
    scratch_strings_.clear();
    scratch_tensors_.clear();
    Reader r(bytes_, f.data, f.data + f.size);
    // Graph attributes are walked after the name is known (their path includes it).
    std::vector<Field> graph_fields, g_parts, tp_parts;
    Attribute::Type inferred = Attribute::Type::Undefined;
    while (!r.done()) {
      Field g = r.next();
      switch (g.number) {
        case 1:
          a.name = str(g, "AttributeProto.name");
          break;
        case 21:
          a.ref_attr_name = str(g, "AttributeProto.ref_attr_name");
          break;
        case 20:
          expect(g, wire::kVarint, "AttributeProto.type");
          a.type = static_cast<Attribute::Type>(g.varint <= 14 ? g.varint : 0);
          a.type_declared = true;
          break;
        case 2: {
          expect(g, wire::kFixed32, "AttributeProto.f");
          uint32_t bits = static_cast<uint32_t>(g.varint);
          std::memcpy(&a.f, &bits, 4);
          inferred = Attribute::Type::Float;
          break;
        }
        case 3:
          expect(g, wire::kVarint, "AttributeProto.i");
          a.i = static_cast<int64_t>(g.varint);
          inferred = Attribute::Type::Int;
          break;
        case 4:
          a.s = str(g, "AttributeProto.s");
          inferred = Attribute::Type::String;
          break;
        case 5:
          if (a.t != nullptr) not_merged(g, "AttributeProto.t");
          a.t = owned_tensor(g);
          inferred = Attribute::Type::Tensor;
          break;
        case 6:
          expect(g, wire::kLen, "AttributeProto.g");
          g_parts.push_back(g);  // several occurrences merge into one graph, as in protobuf
          inferred = Attribute::Type::Graph;
          break;
        case 7:
          floats(g, scratch_floats_);
          inferred = Attribute::Type::Floats;
          break;
        case 8:
          int64s(g, scratch_ints_, limits_.max_attribute_elements, "AttributeProto.ints");
          inferred = Attribute::Type::Ints;
          break;
        case 9:
          if (scratch_strings_.size() >= limits_.max_attribute_elements) {
            Reader::fail("AttributeProto.strings: too many values", g.tag_offset);
          }
          scratch_strings_.push_back(str(g, "AttributeProto.strings"));
          inferred = Attribute::Type::Strings;
          break;
        case 10:
          scratch_tensors_.push_back(owned_tensor(g));
          inferred = Attribute::Type::Tensors;
          break;
        case 11:
          expect(g, wire::kLen, "AttributeProto.graphs");
          graph_fields.push_back(g);
          inferred = Attribute::Type::Graphs;
          break;
        case 14:
          expect(g, wire::kLen, "AttributeProto.tp");
          tp_parts.push_back(g);
          inferred = Attribute::Type::TypeProto;
          break;
        case 22:
          expect(g, wire::kLen, "AttributeProto.sparse_tensor");
          inferred = Attribute::Type::SparseTensor;
          break;
        case 23:
          expect(g, wire::kLen, "AttributeProto.sparse_tensors");
          inferred = Attribute::Type::SparseTensors;
          break;
        case 15:
          expect(g, wire::kLen, "AttributeProto.type_protos");
          inferred = Attribute::Type::TypeProtos;
          break;
        default:
          break;
      }
    }
    if (!a.type_declared) a.type = inferred;
    if (!tp_parts.empty()) a.tp = type_proto(tp_parts);
    a.floats = arena_.copy(scratch_floats_);
    a.ints = arena_.copy(scratch_ints_);
    a.strings = arena_.copy(scratch_strings_);
    a.tensors = arena_.copy(scratch_tensors_);
    if (graph_fields.empty() && g_parts.empty()) return;
    const std::string prefix = subgraph_path(owner.path_, node.display_name(), a.name);
    auto subgraph = [&](std::span<const Field> parts, std::string path) {
      if (++graph_count_ > max_graphs_) {
        Reader::fail("more than " + std::to_string(max_graphs_) + " graphs", parts[0].tag_offset);
      }
      path_bytes_ += path.size();
      if (path_bytes_ > max_path_bytes_) {
        Reader::fail("graph paths longer than " + std::to_string(max_path_bytes_) +
                         " bytes in all (too many nested subgraphs)",
                     parts[0].tag_offset);
      }
      auto sub = std::make_unique<Graph>();
      // Set before the walk: subgraphs nested inside this one inherit it from their owner.
      sub->function_ = owner.function_;
      walk_graph(parts, *sub, Graph::Kind::Subgraph, std::move(path), &owner, &node, a.name,
                 depth + 1);
      const Graph* made = sub.get();
      model_.owned_graphs_.push_back(std::move(sub));
      return made;
    };
    if (!g_parts.empty()) a.g = subgraph(g_parts, prefix);
    std::vector<const Graph*> graphs;
    for (size_t i = 0; i < graph_fields.size(); ++i) {
      graphs.push_back(
          subgraph(std::span(&graph_fields[i], 1), prefix + "[" + std::to_string(i) + "]"));
    }
    a.graphs = arena_.copy(graphs);
  }

  // Reports a second occurrence of a singular message field that protobuf would merge into
  // the first and that onnx-lint does not merge: the file is unreadable rather than half read.
  [[noreturn]] static void not_merged(const Field& g, const char* what) {
    Reader::fail(std::string(what) +
                     " appears more than once (protobuf merges the occurrences; onnx-lint does "
                     "not read such files)",
                 g.tag_offset);
  }

  void floats(const Field& g, std::vector<float>& out) {
    if (g.type == wire::kFixed32) {
      uint32_t bits = static_cast<uint32_t>(g.varint);
      float v;
      std::memcpy(&v, &bits, 4);
      out.push_back(v);
    } else {
      expect(g, wire::kLen, "AttributeProto.floats");
      if (g.size % 4 != 0) Reader::fail("packed floats length not a multiple of 4", g.data);
      if (out.size() + g.size / 4 > limits_.max_attribute_elements) {
        Reader::fail("AttributeProto.floats: too many values", g.tag_offset);
      }
      const auto* p = reinterpret_cast<const char*>(bytes_.data()) + g.data;
      for (uint64_t i = 0; i < g.size; i += 4) {
        float v;
        std::memcpy(&v, p + i, 4);
        out.push_back(v);
      }
    }
  }

  // Sets `*id` to the graph-local id of a value name (kNoNameId for ""). Ids are given in
  // order of first mention, but in batches: the name table of a big graph is far larger than
  // the cache, and NameIndex::insert_all overlaps the misses of a batch's probes. `*id` is
  // valid once flush_names() has run (at the latest at the end of the graph's walk).
  void intern(Graph& graph, std::string_view name, NameId* id) {
    *id = kNoNameId;
    if (name.empty()) return;
    if (&graph != pending_graph_) {
      flush_names();
      pending_graph_ = &graph;
    }
    pending_names_.push_back(PendingName{name, id});
    if (pending_names_.size() == kNameBatch) flush_names();
  }

  void flush_names() {
    if (pending_names_.empty()) return;
    pending_graph_->names_->insert_all(
        pending_names_.size(), [&](size_t i) { return pending_names_[i].name; },
        [&](size_t i, NameId id, bool) { *pending_names_[i].id = id; });
    pending_names_.clear();
  }

  // Node::op_id: one hash per node here, so that analyses index per-op facts by it. Domains
  // sharing an op type name (rare) chain through next_same_type_.
  uint32_t op_id(std::string_view domain, std::string_view op_type) {
    // A direct-mapped cache in front of the table, keyed by three bytes and the lengths: a
    // model uses a few dozen ops, so nearly every node hits it (a miss only costs the lookup).
    const size_t n = op_type.size();
    const auto* p = reinterpret_cast<const unsigned char*>(op_type.data());
    size_t mix = n * 131 + domain.size() * 31;
    if (n > 0) mix += p[0] * 7u + p[n - 1] * 13u + p[n / 2];
    const size_t slot = mix % recent_ops_.size();
    if (const uint32_t id = recent_ops_[slot]; id != kNoOp) {
      const OpKind& k = model_.op_kinds_[id];
      if (same_name(k.op_type, op_type) && k.domain == domain) return id;
    }
    const uint32_t id = op_id_slow(domain, op_type);
    recent_ops_[slot] = id;
    return id;
  }

  uint32_t op_id_slow(std::string_view domain, std::string_view op_type) {
    uint32_t* link = op_by_type_.try_emplace(op_type, kNoOp).first;
    while (*link != kNoOp) {
      if (model_.op_kinds_[*link].domain == domain) return *link;
      link = &next_same_type_[*link];
    }
    const auto id = static_cast<uint32_t>(model_.op_kinds_.size());
    *link = id;  // before the push_back below: `link` may point into next_same_type_
    model_.op_kinds_.push_back(OpKind{domain, op_type, id});
    next_same_type_.push_back(kNoOp);
    return id;
  }

  void walk_node(const Field& f, Node& node, Graph& graph, uint32_t index, int depth) {
    expect(f, wire::kLen, "NodeProto");
    if (++node_count_ > limits_.max_nodes) {
      Reader::fail("more than " + std::to_string(limits_.max_nodes) + " nodes", f.tag_offset);
    }
    node.graph_ = &graph;
    node.index_ = index;
    node.offset_ = f.tag_offset;
    // Attributes are walked after the other fields; remembering where the first one is
    // (rather than collecting them in a vector) saves an allocation per node.
    size_t attributes = 0;
    uint64_t first_attribute = 0;
    // Inputs and outputs are gathered in reused scratch vectors and copied once at their final
    // size: push_back on the node's own vectors would reallocate as they grow.
    scratch_inputs_.clear();
    scratch_outputs_.clear();
    scratch_pairs_.clear();
    std::string_view overload;
    Reader r(bytes_, f.data, f.data + f.size);
    while (!r.done()) {
      Field g = r.next();
      switch (g.number) {
        case 1:
          scratch_inputs_.push_back(str(g, "NodeProto.input"));
          break;
        case 2:
          scratch_outputs_.push_back(str(g, "NodeProto.output"));
          break;
        case 3:
          node.name_ = str(g, "NodeProto.name");
          break;
        case 4:
          node.op_type_ = str(g, "NodeProto.op_type");
          break;
        case 7:
          node.domain_ = str(g, "NodeProto.domain");
          // Canonical: rules test domain().empty() for the default domain.
          if (node.domain_ == "ai.onnx") node.domain_ = std::string_view();
          break;
        case 8:
          overload = str(g, "NodeProto.overload");
          break;
        case 5:
          expect(g, wire::kLen, "NodeProto.attribute");
          if (attributes++ == 0) first_attribute = g.tag_offset;
          break;
        case 9:
          scratch_pairs_.push_back(string_pair(g, "NodeProto.metadata_props"));
          break;
        default:
          break;
      }
    }
    node.op_id_ = op_id(node.domain_, node.op_type_);
    // The names themselves stay in the graph's name table: the node keeps their ids only.
    const size_t n_in = scratch_inputs_.size(), n_out = scratch_outputs_.size();
    if (n_in + n_out > UINT32_MAX) Reader::fail("NodeProto: too many inputs/outputs", f.tag_offset);
    std::span<NameId> ids = arena_.make_array<NameId>(n_in + n_out);
    for (size_t k = 0; k < n_in; ++k) intern(graph, scratch_inputs_[k], &ids[k]);
    for (size_t k = 0; k < n_out; ++k) intern(graph, scratch_outputs_[k], &ids[n_in + k]);
    node.ids_ = ids.data();
    node.input_count_ = static_cast<uint32_t>(n_in);
    node.output_count_ = static_cast<uint32_t>(n_out);
    if (!overload.empty() || !scratch_pairs_.empty()) {
      std::span<NodeExtras> extras = arena_.make_array<NodeExtras>(1);
      extras[0].overload = overload;
      extras[0].metadata_props = arena_.copy(scratch_pairs_);
      node.extras_ = extras.data();
    }
    // Attributes last: subgraph paths need the node's name and op type (and they may hold
    // subgraphs, whose nodes reuse the scratch vectors).
    if (attributes == 0) return;
    std::span<Attribute> attrs = arena_.make_array<Attribute>(attributes);
    node.attributes_ = attrs;
    size_t k = 0;
    for (Reader a(bytes_, first_attribute, f.data + f.size); !a.done();) {
      Field g = a.next();
      if (g.number == 5) attribute(g, attrs[k++], node, graph, depth);
    }
  }

  // `parts`: the occurrences of the graph field, walked as one graph (protobuf's merge of
  // a singular message field given several times: lists concatenate, the last name wins).
  void walk_graph(std::span<const Field> parts, Graph& graph, Graph::Kind kind, std::string path,
                  const Graph* parent, const Node* owner, std::string_view owner_attr, int depth) {
    const Field& f = parts[0];
    for (const Field& p : parts) expect(p, wire::kLen, "GraphProto");
    if (depth > limits_.max_graph_depth) {
      Reader::fail("subgraphs nested deeper than " + std::to_string(limits_.max_graph_depth),
                   f.tag_offset);
    }
    graph.kind_ = kind;
    graph.path_ = std::move(path);
    graph.parent_ = parent;
    graph.owner_ = owner;
    graph.owner_attribute_ = owner_attr;
    graph.offset_ = f.tag_offset;
    graph.depth_ = depth;
    // Count nodes first so `nodes` never reallocates: nodes hold pointers to each other's
    // graphs and subgraphs hold pointers to their owner node. The other lists are sized in
    // the same pass, so that large graphs do not pay for regrowth (time and peak memory).
    size_t node_fields = 0, initializers = 0, sparse = 0, inputs = 0, outputs = 0, infos = 0;
    for (const Field& part : parts) {
      Reader r(bytes_, part.data, part.data + part.size);
      while (!r.done()) {
        const uint32_t number = r.next().number;
        node_fields += number == 1;
        initializers += number == 5;
        sparse += number == 15;
        inputs += number == 11;
        outputs += number == 12;
        infos += number == 13;
      }
    }
    // Checked before reserving: a hostile count must not turn into a huge allocation.
    if (node_fields > limits_.max_nodes - std::min(node_count_, limits_.max_nodes)) {
      Reader::fail("more than " + std::to_string(limits_.max_nodes) + " nodes", f.tag_offset);
    }
    // Nodes are placed before they are walked: subgraphs point at their owner node.
    std::span<Node> nodes = arena_.make_array<Node>(node_fields);
    std::span<TensorData> inits = arena_.make_array<TensorData>(initializers);
    std::span<SparseTensorData> sparse_inits = arena_.make_array<SparseTensorData>(sparse);
    std::span<ValueInfo> ins = arena_.make_array<ValueInfo>(inputs);
    std::span<ValueInfo> outs = arena_.make_array<ValueInfo>(outputs);
    std::span<ValueInfo> vis = arena_.make_array<ValueInfo>(infos);
    graph.nodes_ = nodes;
    graph.initializers_ = inits;
    graph.sparse_initializers_ = sparse_inits;
    graph.inputs_ = ins;
    graph.outputs_ = outs;
    graph.value_info_ = vis;
    graph.names_->reserve(node_fields + initializers + sparse + inputs + outputs);
    size_t n = 0, i = 0, s = 0, in = 0, out = 0, vi = 0;
    for (const Field& part : parts) {
      Reader r(bytes_, part.data, part.data + part.size);
      while (!r.done()) {
        Field g = r.next();
        switch (g.number) {
          case 1:
            walk_node(g, nodes[n], graph, static_cast<uint32_t>(n), depth);
            ++n;
            break;
          case 2:
            graph.name_ = str(g, "GraphProto.name");
            break;
          case 5:
            tensor(g, inits[i]);
            intern(graph, inits[i].name, &inits[i].name_id);
            ++i;
            break;
          case 15:
            sparse_tensor(g, sparse_inits[s]);
            intern(graph, sparse_inits[s].values.name, &sparse_inits[s].values.name_id);
            ++s;
            break;
          case 11:
            value_info(g, ins[in]);
            intern(graph, ins[in].name, &ins[in].name_id);
            ++in;
            break;
          case 12:
            value_info(g, outs[out]);
            intern(graph, outs[out].name, &outs[out].name_id);
            ++out;
            break;
          case 13:
            value_info(g, vis[vi++]);
            break;
          default:
            break;
        }
      }
    }
    flush_names();
    // Last: value_info may come before the nodes that mention its names.
    for (ValueInfo& v : vis) v.name_id = graph.name_id(v.name);
    graph.value_names_ = std::span(graph.names_->begin(), graph.names_->end());
  }

  void walk_function(const Field& f) {
    expect(f, wire::kLen, "FunctionProto");
    auto fn = std::make_unique<Function>();
    fn->offset_ = f.tag_offset;
    Graph& body = fn->body_;
    body.kind_ = Graph::Kind::Function;
    body.function_ = fn.get();
    body.offset_ = f.tag_offset;
    std::vector<Field> nodes;
    std::vector<ValueInfo> inputs, outputs;
    std::vector<Field> value_infos;
    Reader r(bytes_, f.data, f.data + f.size);
    while (!r.done()) {
      Field g = r.next();
      switch (g.number) {
        case 1:
          fn->name_ = str(g, "FunctionProto.name");
          break;
        case 10:
          fn->domain_ = str(g, "FunctionProto.domain");
          break;
        case 13:
          fn->overload_ = str(g, "FunctionProto.overload");
          break;
        case 4:
          inputs.push_back(ValueInfo{str(g, "FunctionProto.input"), {}, {}, g.tag_offset});
          break;
        case 5:
          outputs.push_back(ValueInfo{str(g, "FunctionProto.output"), {}, {}, g.tag_offset});
          break;
        case 6:
          fn->attributes_.push_back(str(g, "FunctionProto.attribute"));
          break;
        case 11: {
          // attribute_proto: an attribute with a default value; only its name matters here.
          expect(g, wire::kLen, "FunctionProto.attribute_proto");
          Reader ar(bytes_, g.data, g.data + g.size);
          while (!ar.done()) {
            Field af = ar.next();
            if (af.number == 1) fn->attributes_.push_back(str(af, "AttributeProto.name"));
          }
          break;
        }
        case 7:
          expect(g, wire::kLen, "FunctionProto.node");
          nodes.push_back(g);
          break;
        case 9:
          fn->opset_imports_.push_back(opset_import(g));
          break;
        case 12:
          expect(g, wire::kLen, "FunctionProto.value_info");
          value_infos.push_back(g);
          break;
        default:
          break;
      }
    }
    body.path_ = "fn:" + graph_path_component(fn->domain_) + "::" + graph_path_component(fn->name_);
    if (!fn->overload_.empty()) body.path_ += ":" + graph_path_component(fn->overload_);
    if (++graph_count_ > max_graphs_) {
      Reader::fail("more than " + std::to_string(max_graphs_) + " graphs", f.tag_offset);
    }
    path_bytes_ += body.path_.size();
    body.name_ = fn->name_;
    if (nodes.size() > limits_.max_nodes - std::min(node_count_, limits_.max_nodes)) {
      Reader::fail("more than " + std::to_string(limits_.max_nodes) + " nodes", f.tag_offset);
    }
    for (ValueInfo& v : inputs) intern(body, v.name, &v.name_id);
    for (ValueInfo& v : outputs) intern(body, v.name, &v.name_id);
    flush_names();  // before the copies below
    body.inputs_ = arena_.copy(inputs);
    body.outputs_ = arena_.copy(outputs);
    std::span<ValueInfo> vis = arena_.make_array<ValueInfo>(value_infos.size());
    for (size_t i = 0; i < value_infos.size(); ++i) value_info(value_infos[i], vis[i]);
    body.value_info_ = vis;
    std::span<Node> body_nodes = arena_.make_array<Node>(nodes.size());
    body.nodes_ = body_nodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
      walk_node(nodes[i], body_nodes[i], body, static_cast<uint32_t>(i), 0);
    }
    flush_names();
    for (ValueInfo& v : vis) v.name_id = body.name_id(v.name);
    body.value_names_ = std::span(body.names_->begin(), body.names_->end());
    model_.functions_.push_back(std::move(fn));
  }

  Model& model_;
  Arena& arena_;
  std::span<const std::byte> bytes_;
  const LoadLimits& limits_;
  uint64_t node_count_ = 0;
  const uint64_t max_graphs_, max_path_bytes_;
  uint64_t graph_count_ = 0, path_bytes_ = 0;  // subgraphs, and the bytes of their paths
  // Reused buffers for lists whose length is known only after their message is read.
  std::vector<std::string_view> scratch_inputs_, scratch_outputs_, scratch_strings_;
  std::vector<StringPair> scratch_pairs_, scratch_external_;
  std::vector<int64_t> scratch_dims_, scratch_sparse_dims_, scratch_ints_;
  std::vector<float> scratch_floats_;
  std::vector<Field> scratch_parts_;  // occurrences of a singular message field
  std::vector<const TensorData*> scratch_tensors_;
  // Names waiting for their ids (see intern()), all of one graph.
  struct PendingName {
    std::string_view name;
    NameId* id;
  };
  static constexpr size_t kNameBatch = 1024;
  std::vector<PendingName> pending_names_;
  Graph* pending_graph_ = nullptr;
  // Node::op_id (see op_id()).
  static constexpr uint32_t kNoOp = UINT32_MAX;
  NameMap<uint32_t> op_by_type_;
  std::array<uint32_t, 64> recent_ops_;  // filled with kNoOp by the constructor
  std::vector<uint32_t> next_same_type_;
};

}  // namespace detail

namespace {

LoadResult build(std::unique_ptr<Model> model, const LoadLimits& limits) {
  LoadResult result;
  if (model->bytes().empty()) {
    result.error = LoadError{"file is empty", 0};
    return result;
  }
  try {
    detail::ModelBuilder builder(*model, limits);
    builder.walk_model();
    builder.finish();
    result.model = std::move(model);
  } catch (const wire::Failure& f) {
    result.error = LoadError{f.message, f.offset};
  } catch (const std::bad_alloc&) {
    result.error = LoadError{"out of memory while reading the model", 0};
  }
  return result;
}

std::string parent_directory(const std::string& path) {
  std::filesystem::path p(path);
  auto parent = p.parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace

LoadResult load_model(const std::string& path, const LoadLimits& limits) {
  if (path == "-") {
    struct stat st {};
    const bool regular = ::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
    // `onnx-lint - < model.onnx`: a file after all, mapped like one (no copy at all).
    if (regular && st.st_size > 0 && ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
      const size_t size = static_cast<size_t>(st.st_size);
      void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, STDIN_FILENO, 0);
      if (addr != MAP_FAILED) {
        ::madvise(addr, size, MADV_RANDOM);
        auto model = std::make_unique<Model>("-", std::make_unique<MappedBuffer>(addr, size));
        model->set_directory(".");
        return build(std::move(model), limits);
      }
    }
    // A pipe: read once, straight into the buffer the model keeps (no second copy).
    std::string data;
    if (regular && st.st_size > 0) {
      data.reserve(static_cast<size_t>(st.st_size) + (64 << 10));  // room to see the end
    }
    size_t used = 0;
    while (true) {
      if (data.size() - used < (64 << 10)) {
        // Past the capacity, resize grows geometrically.
        data.resize(std::max<size_t>(data.capacity(), used + (64 << 10)));
      }
      ssize_t got = ::read(STDIN_FILENO, data.data() + used, data.size() - used);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        LoadResult result;
        result.error = LoadError{std::string("cannot read stdin: ") + std::strerror(errno), 0};
        return result;
      }
      if (got == 0) break;
      used += static_cast<size_t>(got);
    }
    data.resize(used);
    auto model = std::make_unique<Model>("-", std::make_unique<OwnedBuffer>(std::move(data)));
    model->set_directory(".");
    return build(std::move(model), limits);
  }
  LoadResult result;
  // O_NONBLOCK: opening a FIFO (or a device) must not wait for a writer; anything but a
  // regular file is refused below, before a single byte is read.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    result.error = LoadError{std::string("cannot open: ") + std::strerror(errno), 0};
    return result;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    result.error = LoadError{"not a regular file", 0};
    return result;
  }
  size_t size = static_cast<size_t>(st.st_size);
  void* addr = nullptr;
  if (size > 0) {
    addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      result.error = LoadError{std::string("cannot map file: ") + std::strerror(err), 0};
      return result;
    }
    // Headers are read, payloads skipped: do not read ahead into weight pages.
    ::madvise(addr, size, MADV_RANDOM);
  }
  ::close(fd);
  auto model = std::make_unique<Model>(path, std::make_unique<MappedBuffer>(addr, size));
  model->set_directory(parent_directory(path));
  return build(std::move(model), limits);
}

LoadResult load_model_from_bytes(const std::string& name, std::string_view bytes,
                                 const LoadLimits& limits) {
  auto model = std::make_unique<Model>(name, std::make_unique<OwnedBuffer>(std::string(bytes)));
  model->set_directory(parent_directory(name));
  return build(std::move(model), limits);
}

LoadResult load_model_from_view(const std::string& name, std::span<const std::byte> bytes,
                                std::string directory, const LoadLimits& limits) {
  auto model = std::make_unique<Model>(name, std::make_unique<BorrowedBuffer>(bytes));
  model->set_directory(std::move(directory));
  return build(std::move(model), limits);
}

}  // namespace onnxlint
