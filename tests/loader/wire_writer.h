// Writes protobuf wire bytes by hand, for models that protobuf itself cannot produce: files
// over 2 GiB (a header plus a length varint, the payload left as a sparse hole) and hostile
// inputs (bad varints, huge declared lengths).
#pragma once

#include <fcntl.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace onnxlint::testing::wire_writer {

inline std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

/// Tag of a length-delimited field.
inline std::string len_tag(uint32_t field) { return varint((uint64_t{field} << 3) | 2); }

/// A whole length-delimited field.
inline std::string len_field(uint32_t field, const std::string& payload) {
  return len_tag(field) + varint(payload.size()) + payload;
}

struct SparseModel {
  std::string path;
  uint64_t payload_offset = 0;  // where the initializer's raw_data starts
  uint64_t payload_size = 0;
  uint64_t file_size = 0;
};

/// The bytes before the payload of a model whose last bytes are the raw_data of float
/// initializer "W" with `payload_bytes` bytes (dims {payload_bytes / 4}), consumed by
/// Add(x, W) -> y.
inline std::string sparse_model_header(uint64_t payload_bytes) {
  onnx::ModelProto head;
  head.set_ir_version(8);
  head.set_producer_name("onnxlint-tests");
  head.set_producer_version("1");
  auto* imp = head.add_opset_import();
  imp->set_domain("");
  imp->set_version(17);

  onnx::GraphProto graph;
  graph.set_name("big");
  auto* node = graph.add_node();
  node->set_op_type("Add");
  node->set_name("add");
  node->add_input("x");
  node->add_input("W");
  node->add_output("y");
  graph.add_input()->set_name("x");
  graph.add_output()->set_name("y");

  onnx::TensorProto tensor;
  tensor.add_dims(static_cast<int64_t>(payload_bytes / 4));
  tensor.set_data_type(onnx::TensorProto::FLOAT);
  tensor.set_name("W");

  const std::string tensor_head = tensor.SerializeAsString() + len_tag(9) + varint(payload_bytes);
  const uint64_t tensor_len = tensor_head.size() + payload_bytes;
  const std::string init_head = len_tag(5) + varint(tensor_len) + tensor_head;
  const std::string graph_prefix = graph.SerializeAsString();
  const uint64_t graph_len = graph_prefix.size() + init_head.size() + payload_bytes;
  return head.SerializeAsString() + len_tag(7) + varint(graph_len) + graph_prefix + init_head;
}

/// Writes that model: only the header is written, ftruncate extends the file, so the payload
/// is a hole on disk (no disk space, and reading it would be visible as resident pages).
inline SparseModel write_sparse_model(const std::string& path, uint64_t payload_bytes) {
  const std::string header = sparse_model_header(payload_bytes);
  SparseModel out;
  out.path = path;
  out.payload_offset = header.size();
  out.payload_size = payload_bytes;
  out.file_size = header.size() + payload_bytes;

  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + path);
  bool ok = ::write(fd, header.data(), header.size()) == static_cast<ssize_t>(header.size()) &&
            ::ftruncate(fd, static_cast<off_t>(out.file_size)) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot write " + path);
  return out;
}

/// The payload size that makes the whole file exactly `file_size` bytes.
inline uint64_t payload_for_file_size(uint64_t file_size) {
  uint64_t payload = file_size;
  for (int i = 0; i < 8; ++i) payload = file_size - sparse_model_header(payload).size();
  if (sparse_model_header(payload).size() + payload != file_size) {
    throw std::runtime_error("no payload size gives that file size");
  }
  return payload;
}

}  // namespace onnxlint::testing::wire_writer
