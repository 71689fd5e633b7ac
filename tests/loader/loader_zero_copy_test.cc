// The loader records where payloads are and never copies or touches them: spans point at the
// right bytes, small integer tensors decode lazily, and a 2.5 GiB payload in a sparse file is
// skipped without faulting in its pages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/loader.h>
#include <onnxlint/registry.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ranges>

#include "loader/external_model.h"
#include "loader/temp_dir.h"
#include "loader/wire_writer.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using wire_writer::len_field;
using wire_writer::varint;

// Resident pages of [p, p + size) in the page cache, for a file mapping.
size_t resident_pages(const std::byte* p, uint64_t size) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  auto begin = reinterpret_cast<uintptr_t>(p) / page * page;
  auto end = (reinterpret_cast<uintptr_t>(p) + size + page - 1) / page * page;
  std::vector<unsigned char> vec((end - begin) / page);
  if (::mincore(reinterpret_cast<void*>(begin), end - begin, vec.data()) != 0) return SIZE_MAX;
  size_t n = 0;
  for (unsigned char v : vec) n += v & 1;
  return n;
}

TEST(LoaderZeroCopy, SparseFileOverTwoGiBLoadsWithoutTouchingThePayload) {
  TempDir dir;
  const uint64_t payload = 2560ull << 20;
  auto big = wire_writer::write_sparse_model(dir.str("big.onnx"), payload);

  auto start = std::chrono::steady_clock::now();
  LoadResult r = load_model(big.path);
  ASSERT_TRUE(r.model) << r.error->message << " at " << r.error->offset;
  const Model& m = *r.model;
  EXPECT_EQ(m.file_size(), big.file_size);
  ASSERT_EQ(m.graph().initializers().size(), 1u);
  const TensorData& w = m.graph().initializers()[0];
  EXPECT_EQ(w.name, "W");
  EXPECT_EQ(w.storage, TensorData::Storage::Raw);
  EXPECT_EQ(w.payload.offset, big.payload_offset);
  EXPECT_EQ(w.payload.size, payload);
  EXPECT_THAT(w.dims, ElementsAre(static_cast<int64_t>(payload / 4)));
  EXPECT_EQ(w.expected_bytes(), payload);
  // The span is inside the mapping, not a copy.
  auto span = m.span_bytes(w.payload);
  EXPECT_EQ(span.data(), m.bytes().data() + big.payload_offset);
  EXPECT_EQ(span.size(), payload);

  // Lint with every rule: the file is over the protobuf limit, and nothing else breaks.
  LintOptions all;
  Linter linter(builtin_registry(), all);
  FileReport report = linter.lint_model(m);
  auto elapsed = std::chrono::steady_clock::now() - start;
  bool too_large = false;
  for (const Diagnostic& d : report.diagnostics) {
    EXPECT_NE(d.rule_id, "internal-error") << d.message;
    EXPECT_NE(d.rule_id, "data-size-mismatch") << d.message;
    too_large |= d.rule_id == "model-too-large";
  }
  EXPECT_TRUE(too_large);
  // Reading 2.5 GiB would take seconds even from a hole; walking headers takes microseconds.
  // The bound is loose (sanitizer builds, a busy machine): the residency check is the real one.
  EXPECT_LT(std::chrono::duration_cast<std::chrono::seconds>(elapsed).count(), 20);
  // No payload page was faulted in: at most the pages shared with the header.
  size_t resident = resident_pages(span.data(), span.size());
  EXPECT_LE(resident, 32u) << "of " << payload / 4096 << " payload pages";
}

std::string raw_bytes_of(const std::vector<int64_t>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 8);
}

// y = Reshape(x, shape) with `shape` an int64 initializer in raw_data.
std::string reshape_model(const std::vector<int64_t>& shape_values) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  onnx::TensorProto t;
  t.set_name("shape");
  t.set_data_type(onnx::TensorProto::INT64);
  t.add_dims(static_cast<int64_t>(shape_values.size()));
  t.set_raw_data(raw_bytes_of(shape_values));
  m.graph().initializer(t);
  m.graph().node("Reshape", {"x", "shape"}, {"y"});
  return m.bytes();
}

TEST(LoaderZeroCopy, PayloadSpanPointsAtTheRawBytes) {
  std::vector<int64_t> values{1, -2, 300};
  const std::string bytes = reshape_model(values);

  // From a file (memory-mapped).
  TempDir dir;
  LoadResult r = load_model(dir.write("m.onnx", bytes));
  ASSERT_TRUE(r.model);
  const TensorData& shape = r.model->graph().initializers()[0];
  ASSERT_EQ(shape.storage, TensorData::Storage::Raw);
  EXPECT_EQ(bytes.substr(shape.payload.offset, shape.payload.size), raw_bytes_of(values));
  auto span = r.model->span_bytes(shape.payload);
  EXPECT_EQ(span.data(), r.model->bytes().data() + shape.payload.offset);
  EXPECT_EQ(r.model->read_ints(shape), values);
  // The whole TensorProto message span and the field offset are recorded too.
  EXPECT_EQ(static_cast<uint8_t>(bytes[shape.offset]), 0x2a);  // GraphProto.initializer tag
  EXPECT_LT(shape.message.offset, shape.payload.offset);
  EXPECT_GE(shape.message.offset + shape.message.size, shape.payload.offset + shape.payload.size);
  // Out-of-range spans give nothing rather than reading past the buffer.
  EXPECT_TRUE(r.model->span_bytes(ByteSpan{bytes.size() - 1, 2}).empty());
  EXPECT_TRUE(r.model->span_bytes(ByteSpan{~uint64_t{0}, 2}).empty());
}

// load_model_from_view (and so Linter::lint_bytes, the Python buffers) borrows the caller's
// bytes: the model view points into them; load_model_from_bytes keeps a copy.
TEST(LoaderZeroCopy, ViewBorrowsTheCallersBytes) {
  std::vector<int64_t> values{4, -1};
  const std::string bytes = reshape_model(values);
  const auto view = std::as_bytes(std::span<const char>(bytes.data(), bytes.size()));

  LoadResult r = load_model_from_view("m.onnx", view, "models");
  ASSERT_TRUE(r.model);
  EXPECT_EQ(r.model->bytes().data(), view.data());
  EXPECT_EQ(r.model->bytes().size(), bytes.size());
  EXPECT_EQ(r.model->path(), "m.onnx");
  EXPECT_EQ(r.model->directory(), "models");
  const TensorData& shape = r.model->graph().initializers()[0];
  EXPECT_EQ(r.model->span_bytes(shape.payload).data(), view.data() + shape.payload.offset);
  EXPECT_EQ(r.model->read_ints(shape), values);

  LoadResult copied = load_model_from_bytes("m.onnx", bytes);
  ASSERT_TRUE(copied.model);
  EXPECT_NE(copied.model->bytes().data(), view.data());

  LoadResult empty = load_model_from_view("e.onnx", {}, ".");
  EXPECT_FALSE(empty.model);
  ASSERT_TRUE(empty.error);
  EXPECT_EQ(empty.error->message, "file is empty");
}

// Linter::lint_bytes resolves external data in the folder it is given, by default the folder of
// the name (the working folder for "-", as for stdin).
TEST(LoaderZeroCopy, LintBytesResolvesExternalDataInTheGivenFolder) {
  TempDir dir;
  dir.write("w.bin", std::string(16, '\0'));
  const std::string bytes =
      model_with_initializer(external_tensor("W", {4}, "w.bin", "0", "16")).bytes();
  LintOptions options;
  options.select = {"data-external-missing"};
  Linter linter(builtin_registry(), options);
  auto rules = [](const FileReport& r) {
    std::vector<std::string> out;
    for (const Diagnostic& d : r.diagnostics) out.push_back(d.rule_id);
    return out;
  };
  EXPECT_THAT(rules(linter.lint_bytes("-", bytes)), ElementsAre("data-external-missing"));
  EXPECT_THAT(rules(linter.lint_bytes("-", bytes, dir.str())), ::testing::IsEmpty());
  EXPECT_THAT(rules(linter.lint_bytes(dir.str("m.onnx"), bytes)), ::testing::IsEmpty());
  EXPECT_THAT(rules(linter.lint_bytes(dir.str("m.onnx"), bytes, "/nonexistent-folder")),
              ElementsAre("data-external-missing"));
}

TEST(LoaderZeroCopy, NodeValueNamesReadTheGraphNameTable) {
  ModelBuilder m;
  m.graph().input("x").input("w").output("y");
  // An omitted optional input and output, a repeated input, and an outer name in a subgraph.
  m.graph().node("Dropout", {"x", "", "w", "x"}, {"y", ""}, "drop");
  const std::string bytes = m.bytes();
  LoadResult r = load_model_from_bytes("m.onnx", bytes);
  ASSERT_TRUE(r.model);
  const Graph& g = r.model->graph();
  const Node& n = g.nodes()[0];

  ASSERT_EQ(n.inputs().size(), 4u);
  EXPECT_EQ(n.inputs()[0], "x");
  EXPECT_EQ(n.inputs()[1], "");
  EXPECT_EQ(n.inputs().back(), "x");
  EXPECT_THAT(std::vector<std::string_view>(n.inputs().begin(), n.inputs().end()),
              ElementsAre("x", "", "w", "x"));
  EXPECT_THAT(std::vector<std::string_view>(n.outputs().begin(), n.outputs().end()),
              ElementsAre("y", ""));
  EXPECT_FALSE(n.outputs().empty());
  // Ids are the graph's; the omitted values have none; both mentions of "x" share one id.
  EXPECT_THAT(n.input_ids(),
              ElementsAre(g.name_id("x"), kNoNameId, g.name_id("w"), g.name_id("x")));
  EXPECT_THAT(n.output_ids(), ElementsAre(g.name_id("y"), kNoNameId));
  // A name is a view into the file (its first mention), not a copy.
  const auto* file = reinterpret_cast<const char*>(r.model->bytes().data());
  EXPECT_GE(n.inputs()[2].data(), file);
  EXPECT_LT(n.inputs()[2].data(), file + bytes.size());
  // The range works with the standard algorithms and iterator arithmetic.
  EXPECT_EQ(std::count(n.inputs().begin(), n.inputs().end(), "x"), 2);
  EXPECT_EQ(n.inputs().end() - n.inputs().begin(), 4);
  EXPECT_EQ(*(n.inputs().begin() + 2), "w");
  EXPECT_EQ(n.inputs().begin()[3], "x");
  static_assert(std::ranges::random_access_range<ValueNames>);
  // A default-constructed range is empty.
  ValueNames none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
  EXPECT_TRUE(none.ids().empty());
}

// A TensorProto written by hand: name "t", data_type, dims, then `payload_fields`.
std::string tensor_model(int32_t data_type, const std::vector<int64_t>& dims,
                         const std::string& payload_fields) {
  std::string tensor = len_field(8, "t") + "\x10" + varint(static_cast<uint64_t>(data_type));
  for (int64_t d : dims) tensor += "\x08" + varint(static_cast<uint64_t>(d));  // unpacked dims
  tensor += payload_fields;
  std::string node =
      len_field(1, "x") + len_field(1, "t") + len_field(2, "y") + len_field(4, "Add");
  std::string graph = len_field(1, node) + len_field(5, tensor) + len_field(11, len_field(1, "x")) +
                      len_field(12, len_field(1, "y"));
  return std::string("\x08\x08", 2) + len_field(7, graph) +
         len_field(8, std::string("\x10\x11", 2));
}

std::optional<std::vector<int64_t>> ints_of(const std::string& model_bytes,
                                            size_t max_elements = 4096) {
  LoadResult r = load_model_from_bytes("t.onnx", model_bytes);
  EXPECT_TRUE(r.model) << (r.error ? r.error->message : "");
  if (!r.model) return std::nullopt;
  return r.model->read_ints(r.model->graph().initializers()[0], max_elements);
}

std::optional<std::vector<double>> floats_of(const std::string& model_bytes) {
  LoadResult r = load_model_from_bytes("t.onnx", model_bytes);
  EXPECT_TRUE(r.model) << (r.error ? r.error->message : "");
  if (!r.model) return std::nullopt;
  return r.model->read_floats(r.model->graph().initializers()[0]);
}

constexpr int32_t kI8 = 3, kU8 = 2, kI16 = 5, kI32 = 6, kI64 = 7, kBoolT = 9, kF16 = 10, kF64 = 11,
                  kU64 = 13, kBf16 = 16, kF32 = 1;

std::string le32(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
std::string le64(int64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

TEST(LoaderZeroCopy, ReadIntsRawData) {
  EXPECT_EQ(ints_of(tensor_model(kI64, {2}, len_field(9, le64(-5) + le64(1ll << 40)))),
            (std::vector<int64_t>{-5, 1ll << 40}));
  EXPECT_EQ(ints_of(tensor_model(kI32, {3}, len_field(9, le32(7) + le32(-1) + le32(0)))),
            (std::vector<int64_t>{7, -1, 0}));
  EXPECT_EQ(ints_of(tensor_model(kI8, {2}, len_field(9, "\xff\x05"))),
            (std::vector<int64_t>{-1, 5}));
  EXPECT_EQ(ints_of(tensor_model(kU8, {2}, len_field(9, "\xff\x05"))),
            (std::vector<int64_t>{255, 5}));
  EXPECT_EQ(ints_of(tensor_model(kBoolT, {2}, len_field(9, std::string("\x01\x00", 2)))),
            (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(ints_of(tensor_model(kI16, {1}, len_field(9, "\xfe\xff"))), (std::vector<int64_t>{-2}));
  // A scalar (no dims) is one element.
  EXPECT_EQ(ints_of(tensor_model(kI64, {}, len_field(9, le64(42)))), (std::vector<int64_t>{42}));
}

TEST(LoaderZeroCopy, ReadIntsTypedDataPackedAndUnpacked) {
  // int64_data (field 7), packed.
  EXPECT_EQ(ints_of(tensor_model(
                kI64, {3}, len_field(7, varint(1) + varint(~uint64_t{0}) + varint(1ull << 35)))),
            (std::vector<int64_t>{1, -1, 1ll << 35}));
  // int64_data unpacked: one varint field per element.
  EXPECT_EQ(ints_of(tensor_model(kI64, {2}, "\x38" + varint(9) + "\x38" + varint(~uint64_t{2}))),
            (std::vector<int64_t>{9, -3}));
  // int32_data (field 5) holds int32, int8, bool...: negative int32 are 10-byte varints.
  EXPECT_EQ(ints_of(tensor_model(kI32, {2}, len_field(5, varint(~uint64_t{0}) + varint(4)))),
            (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(ints_of(tensor_model(kI32, {2}, "\x28" + varint(3) + "\x28" + varint(~uint64_t{4}))),
            (std::vector<int64_t>{3, -5}));
  EXPECT_EQ(ints_of(tensor_model(kBoolT, {2}, len_field(5, varint(1) + varint(0)))),
            (std::vector<int64_t>{1, 0}));
  // Split packed runs: two packed fields are read first to last.
  EXPECT_EQ(ints_of(tensor_model(kI64, {3},
                                 len_field(7, varint(1) + varint(2)) + len_field(7, varint(3)))),
            (std::vector<int64_t>{1, 2, 3}));
  // uint64_data (field 11).
  EXPECT_EQ(ints_of(tensor_model(kU64, {1}, len_field(11, varint(77)))),
            (std::vector<int64_t>{77}));
  // Empty tensor.
  EXPECT_EQ(ints_of(tensor_model(kI64, {0}, "")), (std::vector<int64_t>{}));
}

TEST(LoaderZeroCopy, ReadIntsRefusesWhatItShouldNotRead) {
  // Over the element limit: nothing is decoded.
  EXPECT_EQ(ints_of(tensor_model(kI64, {3}, len_field(7, varint(1) + varint(2) + varint(3))), 2),
            std::nullopt);
  // Floating point.
  EXPECT_EQ(ints_of(tensor_model(kF32, {1}, len_field(9, le32(0)))), std::nullopt);
  // Payload size or count disagreeing with dims.
  EXPECT_EQ(ints_of(tensor_model(kI64, {2}, len_field(9, le64(1)))), std::nullopt);
  EXPECT_EQ(ints_of(tensor_model(kI64, {3}, len_field(7, varint(1)))), std::nullopt);
  // Negative dims.
  EXPECT_EQ(ints_of(tensor_model(kI64, {-1}, len_field(9, le64(1)))), std::nullopt);
  // External data is never read.
  std::string ext = len_field(13, len_field(1, "location") + len_field(2, "w.bin")) + "\x70\x01";
  EXPECT_EQ(ints_of(tensor_model(kI64, {1}, ext)), std::nullopt);
  // A malformed packed varint inside the payload is refused, not a crash.
  EXPECT_EQ(ints_of(tensor_model(kI64, {1}, len_field(7, "\xff"))), std::nullopt);
}

TEST(LoaderZeroCopy, ReadFloats) {
  float f[2] = {1.5f, -2.0f};
  EXPECT_EQ(
      floats_of(tensor_model(kF32, {2}, len_field(9, std::string(reinterpret_cast<char*>(f), 8)))),
      (std::vector<double>{1.5, -2.0}));
  double d = 0.25;
  EXPECT_EQ(
      floats_of(tensor_model(kF64, {1}, len_field(9, std::string(reinterpret_cast<char*>(&d), 8)))),
      (std::vector<double>{0.25}));
  // float16 1.0 = 0x3c00, -2.0 = 0xc000; bfloat16 1.0 = 0x3f80.
  EXPECT_EQ(floats_of(tensor_model(kF16, {2}, len_field(9, std::string("\x00\x3c\x00\xc0", 4)))),
            (std::vector<double>{1.0, -2.0}));
  EXPECT_EQ(floats_of(tensor_model(kBf16, {1}, len_field(9, std::string("\x80\x3f", 2)))),
            (std::vector<double>{1.0}));
  // float_data (field 4) packed, and float16 in int32_data.
  EXPECT_EQ(
      floats_of(tensor_model(kF32, {2}, len_field(4, std::string(reinterpret_cast<char*>(f), 8)))),
      (std::vector<double>{1.5, -2.0}));
  EXPECT_EQ(floats_of(tensor_model(kF16, {1}, len_field(5, varint(0x3c00)))),
            (std::vector<double>{1.0}));
  EXPECT_EQ(floats_of(tensor_model(kI64, {1}, len_field(9, le64(1)))), std::nullopt);
}

}  // namespace
}  // namespace onnxlint::testing
