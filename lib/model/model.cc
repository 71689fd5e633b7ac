#include <onnxlint/model.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "loader/wire.h"
#include "util/arena.h"
#include "util/name_map.h"

namespace onnxlint {

namespace {

double half_to_double(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), -24);
  } else if (exp == 31) {
    v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else {
    v = std::ldexp(static_cast<double>(mant | 0x400), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

double bf16_to_double(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <class T>
T load_le(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;  // ONNX raw_data is little-endian, as is every platform we build for
}

// Visits every value of the tensor's typed field, packed or not, as raw 64-bit words.
template <class F>
bool for_each_typed(const Model& m, const TensorData& t, F&& f) {
  wire::Reader r(m.bytes(), t.message.offset, t.message.offset + t.message.size);
  while (!r.done()) {
    wire::Field g = r.next();
    if (static_cast<int>(g.number) != t.typed_field) continue;
    if (g.type == wire::kLen) {
      if (t.typed_field == 4) {
        for (uint64_t i = 0; i + 4 <= g.size; i += 4) {
          f(load_le<uint32_t>(m.bytes().data() + g.data + i));
        }
      } else if (t.typed_field == 10) {
        for (uint64_t i = 0; i + 8 <= g.size; i += 8) {
          f(load_le<uint64_t>(m.bytes().data() + g.data + i));
        }
      } else if (t.typed_field == 6) {
        return false;
      } else {
        wire::Reader pr(m.bytes(), g.data, g.data + g.size);
        while (!pr.done()) f(pr.varint());
      }
    } else {
      f(g.varint);
    }
  }
  return true;
}

}  // namespace

bool TypeInfo::is_static_shape() const {
  if (kind != Kind::Tensor && kind != Kind::SparseTensor) return false;
  if (!has_shape) return false;
  for (const Dim& d : dims) {
    if (!d.is_static()) return false;
  }
  return true;
}

std::optional<uint64_t> TensorData::element_count() const {
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d != 0 && n > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d)) {
      return std::nullopt;
    }
    n *= static_cast<uint64_t>(d);
  }
  return n;
}

std::optional<uint64_t> TensorData::expected_bytes() const {
  auto bits = data_type_bits(data_type);
  auto n = element_count();
  if (!bits || !n) return std::nullopt;
  // n * bits + 7 must fit: checked by division, so no count can wrap it.
  if (*n > (std::numeric_limits<uint64_t>::max() - 7) / *bits) return std::nullopt;
  return (*n * *bits + 7) / 8;
}

std::string_view TensorData::external_value(std::string_view key) const {
  for (const auto& kv : external_data) {
    if (kv.key == key) return kv.value;
  }
  return {};
}

const Attribute* Node::attribute(std::string_view attr_name) const {
  for (const Attribute& a : attributes()) {
    if (a.name == attr_name) return &a;
  }
  return nullptr;
}

std::optional<int64_t> Node::attr_int(std::string_view attr_name) const {
  const Attribute* a = attribute(attr_name);
  if (a == nullptr || a->type != Attribute::Type::Int) return std::nullopt;
  return a->i;
}

std::optional<std::string_view> Node::attr_string(std::string_view attr_name) const {
  const Attribute* a = attribute(attr_name);
  if (a == nullptr || a->type != Attribute::Type::String) return std::nullopt;
  return a->s;
}

std::string node_label(const Node& n) {
  if (n.name().empty()) return n.display_name();
  std::string out(n.op_type());
  out += " '";
  out += n.name();
  out += '\'';
  return out;
}

std::string Node::display_name() const {
  if (!name().empty()) return std::string(name());
  return std::string(op_type()) + "#" + std::to_string(index());
}

std::vector<const Graph*> Node::subgraphs() const {
  std::vector<const Graph*> out;
  for (const Attribute& a : attributes()) {
    if (a.g != nullptr) out.push_back(a.g);
    for (const Graph* g : a.graphs) out.push_back(g);
  }
  return out;
}

Graph::Graph() : names_(std::make_unique<NameIndex>()) {}
Graph::~Graph() = default;

NameId Graph::name_id(std::string_view value_name) const {
  static_assert(NameIndex::kNone == kNoNameId);
  return names_->find(value_name);
}

Model::Model(std::string path, std::unique_ptr<Buffer> buffer)
    : path_(std::move(path)), buffer_(std::move(buffer)), arena_(std::make_unique<Arena>()) {}

Model::~Model() = default;

std::optional<int64_t> Model::opset_for(std::string_view d) const {
  d = normalize_domain(d);
  for (const OpsetImport& imp : opset_imports_) {
    if (normalize_domain(imp.domain) == d) return imp.version;
  }
  return std::nullopt;
}

const Function* Model::find_function(std::string_view d, std::string_view name) const {
  auto it = std::lower_bound(
      functions_by_key_.begin(), functions_by_key_.end(), std::pair(d, name),
      [](const Function* f, const auto& key) { return std::pair(f->domain(), f->name()) < key; });
  if (it == functions_by_key_.end() || (*it)->domain() != d || (*it)->name() != name) {
    return nullptr;
  }
  return *it;
}

uint64_t random_hash_seed() {
  std::random_device rd;
  return (uint64_t{rd()} << 32 | rd()) | 1;
}

void Model::finalize() {
  functions_in_order_.clear();
  for (const auto& f : functions_) functions_in_order_.push_back(f.get());
  functions_by_key_ = functions_in_order_;
  std::stable_sort(functions_by_key_.begin(), functions_by_key_.end(),
                   [](const Function* a, const Function* b) {
                     return std::pair(a->domain(), a->name()) < std::pair(b->domain(), b->name());
                   });
  all_graphs_.clear();
  // Iterative pre-order walk: deep nesting must not exhaust the stack.
  std::vector<const Graph*> stack;
  auto walk = [&](const Graph* root) {
    stack.push_back(root);
    while (!stack.empty()) {
      const Graph* g = stack.back();
      stack.pop_back();
      all_graphs_.push_back(g);
      std::vector<const Graph*> children;
      for (const Node& n : g->nodes()) {
        for (const Attribute& a : n.attributes()) {  // as subgraphs(), without a vector per node
          if (a.g != nullptr) children.push_back(a.g);
          for (const Graph* s : a.graphs) children.push_back(s);
        }
      }
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
    }
  };
  walk(&graph_);
  for (const auto& f : functions_) walk(&f->body());
}

std::span<const std::byte> Model::span_bytes(ByteSpan s) const {
  auto all = bytes();
  if (s.offset > all.size() || s.size > all.size() - s.offset) return {};
  return all.subspan(s.offset, s.size);
}

std::optional<std::vector<int64_t>> Model::read_ints(const TensorData& t,
                                                     size_t max_elements) const {
  auto n = t.element_count();
  if (!n || *n > max_elements) return std::nullopt;
  std::vector<int64_t> out;
  if (t.storage == TensorData::Storage::Raw) {
    size_t width = 0;
    switch (static_cast<DataType>(t.data_type)) {
      case DataType::Int8:
      case DataType::Uint8:
      case DataType::Bool:
        width = 1;
        break;
      case DataType::Int16:
      case DataType::Uint16:
        width = 2;
        break;
      case DataType::Int32:
      case DataType::Uint32:
        width = 4;
        break;
      case DataType::Int64:
      case DataType::Uint64:
        width = 8;
        break;
      default:
        return std::nullopt;
    }
    auto bytes = span_bytes(t.payload);
    if (!holds_exactly(bytes.size(), *n, width)) return std::nullopt;
    out.reserve(*n);  // now known to be backed by the payload's bytes
    for (size_t i = 0; i < *n; ++i) {
      const std::byte* p = bytes.data() + i * width;
      switch (static_cast<DataType>(t.data_type)) {
        case DataType::Int8:
          out.push_back(load_le<int8_t>(p));
          break;
        case DataType::Uint8:
        case DataType::Bool:
          out.push_back(load_le<uint8_t>(p));
          break;
        case DataType::Int16:
          out.push_back(load_le<int16_t>(p));
          break;
        case DataType::Uint16:
          out.push_back(load_le<uint16_t>(p));
          break;
        case DataType::Int32:
          out.push_back(load_le<int32_t>(p));
          break;
        case DataType::Uint32:
          out.push_back(load_le<uint32_t>(p));
          break;
        default:
          out.push_back(load_le<int64_t>(p));
          break;
      }
    }
    return out;
  }
  if (t.storage == TensorData::Storage::Typed) {
    const bool int32_field = t.typed_field == 5, int64_field = t.typed_field == 7,
               uint64_field = t.typed_field == 11;
    if (!int32_field && !int64_field && !uint64_field) return std::nullopt;
    if (t.typed_count != *n) return std::nullopt;
    out.reserve(*n);  // typed_count entries were counted in the file
    try {
      for_each_typed(*this, t, [&](uint64_t v) {
        if (int32_field) {
          out.push_back(static_cast<int32_t>(v));
        } else {
          out.push_back(static_cast<int64_t>(v));
        }
      });
    } catch (const wire::Failure&) {
      return std::nullopt;
    }
    if (out.size() != *n) return std::nullopt;
    return out;
  }
  if (t.storage == TensorData::Storage::Empty && *n == 0) return out;
  return std::nullopt;
}

std::optional<std::vector<double>> Model::read_floats(const TensorData& t,
                                                      size_t max_elements) const {
  auto n = t.element_count();
  if (!n || *n > max_elements) return std::nullopt;
  std::vector<double> out;
  if (t.storage == TensorData::Storage::Raw) {
    size_t width = t.data_type == DataType::Double                                           ? 8
                   : t.data_type == DataType::Float                                          ? 4
                   : (t.data_type == DataType::Float16 || t.data_type == DataType::Bfloat16) ? 2
                                                                                             : 0;
    if (width == 0) return std::nullopt;
    auto bytes = span_bytes(t.payload);
    if (!holds_exactly(bytes.size(), *n, width)) return std::nullopt;
    out.reserve(*n);  // now known to be backed by the payload's bytes
    for (size_t i = 0; i < *n; ++i) {
      const std::byte* p = bytes.data() + i * width;
      if (t.data_type == DataType::Double) out.push_back(load_le<double>(p));
      if (t.data_type == DataType::Float) out.push_back(load_le<float>(p));
      if (t.data_type == DataType::Float16) out.push_back(half_to_double(load_le<uint16_t>(p)));
      if (t.data_type == DataType::Bfloat16) out.push_back(bf16_to_double(load_le<uint16_t>(p)));
    }
    return out;
  }
  if (t.storage == TensorData::Storage::Typed) {
    if (t.typed_count != *n) return std::nullopt;
    out.reserve(*n);  // typed_count entries were counted in the file
    try {
      for_each_typed(*this, t, [&](uint64_t v) {
        if (t.typed_field == 4) {
          out.push_back(std::bit_cast<float>(static_cast<uint32_t>(v)));
        } else if (t.typed_field == 10) {
          out.push_back(std::bit_cast<double>(v));
        } else if (t.typed_field == 5 && t.data_type == DataType::Float16) {
          out.push_back(half_to_double(static_cast<uint16_t>(v)));
        } else if (t.typed_field == 5 && t.data_type == DataType::Bfloat16) {
          out.push_back(bf16_to_double(static_cast<uint16_t>(v)));
        }
      });
    } catch (const wire::Failure&) {
      return std::nullopt;
    }
    if (out.size() != *n) return std::nullopt;
    return out;
  }
  return std::nullopt;
}

}  // namespace onnxlint
