// onnxlint-bench-gen: writes the synthetic ONNX models of the benchmark (docs/performance.md).
//
//   onnxlint-bench-gen weights OUT.onnx [--matrices 64] [--dim 2048] [--dynamic]
//       A chain of MatMuls, each with a dim×dim float weight stored as raw_data
//       (64 × 2048×2048 × 4 bytes = 1 GiB of embedded weights).
//   onnxlint-bench-gen chain OUT.onnx --nodes N [--dynamic]
//       A chain of exactly N nodes built from a repeating block that looks like exporter
//       output: Add/Mul with per-block weights, Relu, Reshape with int64 shape initializers,
//       Transpose, Sigmoid and a gating Mul. With --dynamic the batch dim is symbolic and each
//       block computes its Reshape target at runtime (Shape→Gather→Unsqueeze→Concat), the
//       pattern PyTorch emits for dynamic_axes.
//   onnxlint-bench-gen chain OUT.onnx --nodes N --plain
//       N Relu nodes in a line, named as PyTorch names them (/layers.7/Relu), no weights: the
//       lighter chain whose peer figures match the design's reference (DESIGN §9).
//
// The file is streamed: the graph is emitted twice, once to measure its length (protobuf
// needs it before the graph's bytes) and once to write it, so memory stays flat however large
// the model is. Small messages (nodes, value infos, tensor headers) are serialized with ONNX's
// generated classes; raw_data payloads are written straight to the file. The output is
// deterministic: the same arguments give the same bytes.
#include <onnx/onnx_pb.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr int64_t kIrVersion = 8;
constexpr int64_t kOpset = 17;
constexpr int64_t kChannels = 64;  // width of the chain's activations: [batch, 64]

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "onnxlint-bench-gen: %s\n", message.c_str());
  std::exit(2);
}

// Counts bytes (sizing pass, no file) or writes them through a large stdio buffer.
class Sink {
 public:
  explicit Sink(std::FILE* f) : file_(f) {}
  uint64_t size() const { return size_; }
  bool counting() const { return file_ == nullptr; }

  void bytes(const void* p, size_t n) {
    size_ += n;
    if (file_ != nullptr && n > 0 && std::fwrite(p, 1, n, file_) != n) {
      die(std::string("write failed: ") + std::strerror(errno));
    }
  }
  void varint(uint64_t v) {
    uint8_t buf[10];
    size_t n = 0;
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      buf[n++] = static_cast<uint8_t>(b | (v ? 0x80 : 0));
    } while (v);
    bytes(buf, n);
  }
  void len_header(uint32_t field, uint64_t len) {
    varint((uint64_t{field} << 3) | 2);
    varint(len);
  }
  void string_field(uint32_t field, std::string_view s) {
    len_header(field, s.size());
    bytes(s.data(), s.size());
  }
  void varint_field(uint32_t field, uint64_t v) {
    varint(uint64_t{field} << 3);
    varint(v);
  }
  // A small sub-message, serialized by protobuf.
  void message(uint32_t field, const google::protobuf::MessageLite& m) {
    const size_t n = m.ByteSizeLong();
    len_header(field, n);
    if (counting()) {
      size_ += n;
      return;
    }
    scratch_.clear();
    m.AppendToString(&scratch_);
    bytes(scratch_.data(), scratch_.size());
  }
  // A large payload of `n` bytes: counted in the sizing pass, produced by `fill` otherwise.
  template <class Fill>
  void payload(uint64_t n, Fill&& fill) {
    if (counting()) {
      size_ += n;
      return;
    }
    const uint64_t before = size_;
    fill(*this);
    if (size_ - before != n) die("internal error: payload size mismatch");
  }

 private:
  std::FILE* file_;
  uint64_t size_ = 0;
  std::string scratch_;
};

uint64_t varint_size(uint64_t v) {
  uint64_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

// Deterministic weights (xorshift64*), small floats like a trained layer's.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
  float next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    const uint64_t r = state_ * 0x2545F4914F6CDD1Dull;
    return (static_cast<float>(r >> 40) / 16777216.0f - 0.5f) * 0.1f;  // [-0.05, 0.05)
  }

 private:
  uint64_t state_;
};

// GraphProto.initializer with raw_data: header via protobuf, then field 9 streamed.
template <class Fill>
void raw_initializer(Sink& out, const std::string& name, int32_t data_type,
                     const std::vector<int64_t>& dims, uint64_t payload_bytes, Fill&& fill) {
  onnx::TensorProto header;  // dims(1), data_type(2), name(8): raw_data(9) follows in order
  for (int64_t d : dims) header.add_dims(d);
  header.set_data_type(data_type);
  header.set_name(name);
  const uint64_t header_size = header.ByteSizeLong();
  out.len_header(5, header_size + 1 + varint_size(payload_bytes) + payload_bytes);
  if (out.counting()) {
    out.payload(header_size, [](Sink&) {});
  } else {
    std::string h;
    header.AppendToString(&h);
    out.bytes(h.data(), h.size());
  }
  out.len_header(9, payload_bytes);
  out.payload(payload_bytes, fill);
}

void float_initializer(Sink& out, const std::string& name, const std::vector<int64_t>& dims,
                       uint64_t seed) {
  uint64_t count = 1;
  for (int64_t d : dims) count *= static_cast<uint64_t>(d);
  raw_initializer(out, name, onnx::TensorProto::FLOAT, dims, count * 4, [&](Sink& s) {
    Rng rng(seed);
    constexpr uint64_t kChunk = 1 << 18;  // floats per write (1 MiB)
    static std::vector<float> buf(kChunk);
    for (uint64_t done = 0; done < count;) {
      const uint64_t n = std::min(kChunk, count - done);
      for (uint64_t i = 0; i < n; ++i) buf[i] = rng.next();
      s.bytes(buf.data(), n * 4);
      done += n;
    }
  });
}

void int64_initializer(Sink& out, const std::string& name, const std::vector<int64_t>& dims,
                       const std::vector<int64_t>& values) {
  raw_initializer(out, name, onnx::TensorProto::INT64, dims, values.size() * 8,
                  [&](Sink& s) { s.bytes(values.data(), values.size() * 8); });
}

// A tensor(float) ValueInfoProto; a dim is the symbolic batch when `batch` is non-empty.
onnx::ValueInfoProto value_info(const std::string& name, const std::string& batch,
                                const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto* tensor = v.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto::FLOAT);
  auto* shape = tensor->mutable_shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    auto* d = shape->add_dim();
    if (i == 0 && !batch.empty()) {
      d->set_dim_param(batch);
    } else {
      d->set_dim_value(dims[i]);
    }
  }
  return v;
}

struct NodeSpec {
  std::string op;
  std::string name;
  std::vector<std::string> inputs;
  std::string output;
  std::vector<int64_t> ints;  // the `perm` or `axis` attribute, if any
  const char* ints_attr = nullptr;
  bool scalar_int = false;  // `axis` is a scalar int attribute
};

void emit_node(Sink& out, const NodeSpec& spec) {
  onnx::NodeProto n;
  for (const auto& in : spec.inputs) n.add_input(in);
  n.add_output(spec.output);
  n.set_name(spec.name);
  n.set_op_type(spec.op);
  if (spec.ints_attr != nullptr) {
    auto* a = n.add_attribute();
    a->set_name(spec.ints_attr);
    if (spec.scalar_int) {
      a->set_type(onnx::AttributeProto::INT);
      a->set_i(spec.ints.at(0));
    } else {
      a->set_type(onnx::AttributeProto::INTS);
      for (int64_t v : spec.ints) a->add_ints(v);
    }
  }
  out.message(1, n);  // GraphProto.node
}

struct Options {
  std::string kind;
  std::string out;
  uint64_t nodes = 200'000;
  int64_t matrices = 64;
  int64_t dim = 2048;
  bool dynamic = false;
  bool plain = false;  // chain: Relu nodes only
};

std::string batch_param(const Options& o) { return o.dynamic ? "batch" : ""; }

// ---- weights: input -> MatMul(W0) -> ... -> MatMul(W63) -> output -----------------------

std::string matmul_output(const Options& o, int64_t i) {
  return i + 1 == o.matrices ? "output" : "/layers." + std::to_string(i) + "/MatMul_output_0";
}

void weights_graph(Sink& out, const Options& o) {
  for (int64_t i = 0; i < o.matrices; ++i) {
    NodeSpec n;
    n.op = "MatMul";
    n.name = "/layers." + std::to_string(i) + "/MatMul";
    n.inputs = {i == 0 ? "input" : matmul_output(o, i - 1),
                "layers." + std::to_string(i) + ".weight"};
    n.output = matmul_output(o, i);
    emit_node(out, n);
  }
  out.string_field(2, "bench_weights");
  for (int64_t i = 0; i < o.matrices; ++i) {
    float_initializer(out, "layers." + std::to_string(i) + ".weight", {o.dim, o.dim},
                      static_cast<uint64_t>(i));
  }
  out.message(11, value_info("input", batch_param(o), {1, o.dim}));
  out.message(12, value_info("output", batch_param(o), {1, o.dim}));
  for (int64_t i = 0; i + 1 < o.matrices; ++i) {
    out.message(13, value_info(matmul_output(o, i), batch_param(o), {1, o.dim}));
  }
}

// ---- chain: N nodes of repeating exporter-like blocks ------------------------------------

uint64_t block_size(const Options& o) { return o.dynamic ? 12 : 8; }

struct ChainLayout {
  uint64_t blocks;
  uint64_t tail;  // Relu nodes after the last block, so the node count is exact
};

ChainLayout chain_layout(const Options& o) {
  return {o.nodes / block_size(o), o.nodes % block_size(o)};
}

std::string block_prefix(uint64_t k) { return "/blocks." + std::to_string(k) + "/"; }

std::string block_output(uint64_t k) { return block_prefix(k) + "Mul_1_output_0"; }

std::string tail_output(uint64_t i) { return "/tail/Relu_" + std::to_string(i) + "_output_0"; }

std::string plain_output(uint64_t i) { return "/layers." + std::to_string(i) + "/Relu_output_0"; }

std::string chain_last_output(const Options& o) {
  if (o.plain) return o.nodes > 0 ? plain_output(o.nodes - 1) : "input";
  const ChainLayout l = chain_layout(o);
  if (l.tail > 0) return tail_output(l.tail - 1);
  if (l.blocks > 0) return block_output(l.blocks - 1);
  return "input";
}

void chain_block_nodes(Sink& out, const Options& o, uint64_t k, const std::string& x) {
  const std::string p = block_prefix(k);
  const std::string w = "blocks." + std::to_string(k) + ".";
  auto node = [&](std::string op, std::string local, std::vector<std::string> inputs) {
    NodeSpec n;
    n.op = std::move(op);
    n.name = p + local;
    n.inputs = std::move(inputs);
    n.output = p + local + "_output_0";
    return n;
  };
  emit_node(out, node("Add", "Add", {x, w + "bias"}));
  emit_node(out, node("Relu", "Relu", {p + "Add_output_0"}));
  emit_node(out, node("Mul", "Mul", {p + "Relu_output_0", w + "scale"}));
  const std::string mul = p + "Mul_output_0";
  std::string reshape_shape = p + "Constant_output_0";  // static: [-1, 8, 8]
  std::string flat_shape = p + "Constant_1_output_0";   // static: [-1, 64]
  if (o.dynamic) {
    emit_node(out, node("Shape", "Shape", {mul}));
    NodeSpec gather = node("Gather", "Gather", {p + "Shape_output_0", p + "Constant_output_0"});
    gather.ints_attr = "axis";
    gather.ints = {0};
    gather.scalar_int = true;
    emit_node(out, gather);
    emit_node(out,
              node("Unsqueeze", "Unsqueeze", {p + "Gather_output_0", p + "Constant_1_output_0"}));
    NodeSpec concat =
        node("Concat", "Concat", {p + "Unsqueeze_output_0", p + "Constant_2_output_0"});
    concat.ints_attr = "axis";
    concat.ints = {0};
    concat.scalar_int = true;
    emit_node(out, concat);
    reshape_shape = p + "Concat_output_0";
    flat_shape = p + "Constant_3_output_0";
  }
  emit_node(out, node("Reshape", "Reshape", {mul, reshape_shape}));
  NodeSpec transpose = node("Transpose", "Transpose", {p + "Reshape_output_0"});
  transpose.ints_attr = "perm";
  transpose.ints = {0, 2, 1};
  emit_node(out, transpose);
  emit_node(out, node("Reshape", "Reshape_1", {p + "Transpose_output_0", flat_shape}));
  emit_node(out, node("Sigmoid", "Sigmoid", {p + "Reshape_1_output_0"}));
  emit_node(out, node("Mul", "Mul_1", {p + "Sigmoid_output_0", mul}));
}

void chain_block_initializers(Sink& out, const Options& o, uint64_t k) {
  const std::string p = block_prefix(k);
  const std::string w = "blocks." + std::to_string(k) + ".";
  float_initializer(out, w + "bias", {kChannels}, 2 * k);
  float_initializer(out, w + "scale", {kChannels}, 2 * k + 1);
  if (o.dynamic) {
    int64_initializer(out, p + "Constant_output_0", {}, {0});        // Gather index
    int64_initializer(out, p + "Constant_1_output_0", {1}, {0});     // Unsqueeze axes
    int64_initializer(out, p + "Constant_2_output_0", {2}, {8, 8});  // Concat tail
    int64_initializer(out, p + "Constant_3_output_0", {2}, {-1, kChannels});
  } else {
    int64_initializer(out, p + "Constant_output_0", {3}, {-1, 8, 8});
    int64_initializer(out, p + "Constant_1_output_0", {2}, {-1, kChannels});
  }
}

void plain_chain_graph(Sink& out, const Options& o) {
  std::string x = "input";
  for (uint64_t i = 0; i < o.nodes; ++i) {
    NodeSpec n;
    n.op = "Relu";
    n.name = "/layers." + std::to_string(i) + "/Relu";
    n.inputs = {x};
    n.output = plain_output(i);
    emit_node(out, n);
    x = n.output;
  }
  out.string_field(2, "bench_chain");
  out.message(11, value_info("input", batch_param(o), {1, kChannels}));
  out.message(12, value_info(chain_last_output(o), batch_param(o), {1, kChannels}));
}

void chain_graph(Sink& out, const Options& o) {
  if (o.plain) {
    plain_chain_graph(out, o);
    return;
  }
  const ChainLayout l = chain_layout(o);
  std::string x = "input";
  for (uint64_t k = 0; k < l.blocks; ++k) {
    chain_block_nodes(out, o, k, x);
    x = block_output(k);
  }
  for (uint64_t i = 0; i < l.tail; ++i) {
    NodeSpec n;
    n.op = "Relu";
    n.name = "/tail/Relu_" + std::to_string(i);
    n.inputs = {x};
    n.output = tail_output(i);
    emit_node(out, n);
    x = n.output;
  }
  out.string_field(2, "bench_chain");
  for (uint64_t k = 0; k < l.blocks; ++k) chain_block_initializers(out, o, k);
  out.message(11, value_info("input", batch_param(o), {1, kChannels}));
  out.message(12, value_info(chain_last_output(o), batch_param(o), {1, kChannels}));
  // Exporters with shape inference on annotate intermediate values: one per block here.
  for (uint64_t k = 0; k < l.blocks; ++k) {
    if (block_output(k) == chain_last_output(o)) continue;
    out.message(13, value_info(block_output(k), batch_param(o), {1, kChannels}));
  }
}

void emit_graph(Sink& out, const Options& o) {
  if (o.kind == "weights") {
    weights_graph(out, o);
  } else {
    chain_graph(out, o);
  }
}

void write_model(const Options& o) {
  Sink sizer(nullptr);
  emit_graph(sizer, o);
  const uint64_t graph_size = sizer.size();

  std::FILE* f = std::fopen(o.out.c_str(), "wb");
  if (f == nullptr) die("cannot open " + o.out + ": " + std::strerror(errno));
  static char buffer[1 << 20];
  std::setvbuf(f, buffer, _IOFBF, sizeof(buffer));
  Sink out(f);
  // ModelProto in the field order PyTorch writes it.
  out.varint_field(1, kIrVersion);
  out.string_field(2, "onnxlint-bench");
  out.string_field(3, "1");
  out.len_header(7, graph_size);
  const uint64_t graph_start = out.size();
  emit_graph(out, o);
  if (out.size() - graph_start != graph_size) die("internal error: graph size mismatch");
  onnx::OperatorSetIdProto opset;
  opset.set_domain("");
  opset.set_version(kOpset);
  out.message(8, opset);
  if (std::fclose(f) != 0) die("cannot write " + o.out + ": " + std::strerror(errno));
  std::printf("%s: %" PRIu64 " bytes\n", o.out.c_str(), out.size());
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: onnxlint-bench-gen weights OUT.onnx [--matrices M] [--dim D] [--dynamic]\n"
               "       onnxlint-bench-gen chain OUT.onnx [--nodes N] [--dynamic] [--plain]\n");
  std::exit(2);
}

uint64_t parse_count(const char* s, uint64_t min, uint64_t max) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
    die(std::string("bad number '") + s + "'");
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  if (argc < 3) usage();
  Options o;
  o.kind = argv[1];
  o.out = argv[2];
  if (o.kind != "weights" && o.kind != "chain") usage();
  for (int i = 3; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (a == "--dynamic") {
      o.dynamic = true;
    } else if (a == "--plain" && o.kind == "chain") {
      o.plain = true;
    } else if (a == "--nodes" && o.kind == "chain") {
      o.nodes = parse_count(value(), 1, 100'000'000);
    } else if (a == "--matrices" && o.kind == "weights") {
      o.matrices = static_cast<int64_t>(parse_count(value(), 1, 100'000));
    } else if (a == "--dim" && o.kind == "weights") {
      o.dim = static_cast<int64_t>(parse_count(value(), 1, 65'536));
    } else {
      usage();
    }
  }
  write_model(o);
  return 0;
}
