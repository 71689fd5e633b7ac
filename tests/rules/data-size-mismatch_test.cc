#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-size-mismatch";
constexpr int32_t kInt4 = 22;  // TensorProto.INT4 (newer than Debian's ONNX 1.12 headers)

ModelBuilder with_initializer(const onnx::TensorProto& t) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(t);
  m.graph().node("Add", {"x", t.name()}, {"y"});
  return m;
}

std::string message_for(const onnx::TensorProto& t) {
  auto d = diagnostics(kRule, with_initializer(t).bytes());
  EXPECT_EQ(d.size(), 1u);
  return d.empty() ? "" : d[0].message;
}

TEST(DataSizeMismatch, RawDataTooShort) {
  auto t = make_tensor_raw("W", kFloat, {2, 2}, 12);
  EXPECT_THAT(findings(kRule, with_initializer(t).bytes()),
              ElementsAre("data-size-mismatch main:'W'"));
  EXPECT_EQ(message_for(t), "tensor 'W' (float[2,2]) has 12 bytes of raw_data but needs 16");
  auto d = diagnostics(kRule, with_initializer(t).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].location.byte_offset.has_value());
  EXPECT_EQ(d[0].severity, Severity::Error);
}

TEST(DataSizeMismatch, RawDataTooLong) {
  EXPECT_EQ(message_for(make_tensor_raw("W", kInt64, {3}, 32)),
            "tensor 'W' (int64[3]) has 32 bytes of raw_data but needs 24");
}

TEST(DataSizeMismatch, TypedFieldWrongCount) {
  EXPECT_EQ(message_for(make_tensor_i64("S", {3}, {1, 2})),
            "tensor 'S' (int64[3]) holds 2 values but needs 3");
}

TEST(DataSizeMismatch, NoDataAtAll) {
  onnx::TensorProto t;
  t.set_name("E");
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(2);
  EXPECT_EQ(message_for(t), "tensor 'E' (float[2]) has no data but its dims need 2 elements");
}

TEST(DataSizeMismatch, NegativeDims) {
  auto t = make_tensor_raw("N", kFloat, {-1, 4}, 16);
  EXPECT_EQ(message_for(t), "tensor 'N' (float[-1,4]) has negative or overflowing dims");
}

TEST(DataSizeMismatch, ConstantNodeAttribute) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  auto& c = m.graph().node("Constant", {}, {"k"}, "const");
  attr_tensor(c, "value", make_tensor_raw("", kFloat, {4}, 8));
  m.graph().node("Add", {"x", "k"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("data-size-mismatch main/const"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.attribute, "value");
}

TEST(DataSizeMismatch, SparseInitializerParts) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  auto* sparse = m.graph().proto().add_sparse_initializer();
  *sparse->mutable_values() = make_tensor_raw("S", kFloat, {2}, 4);  // needs 8
  *sparse->mutable_indices() = make_tensor_i64("S_idx", {2}, {0, 3});
  sparse->add_dims(10);
  m.graph().node("Add", {"x", "S"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("data-size-mismatch main:'S'"));
}

// Correct payloads of every storage kind, including packed sub-byte and complex types.
TEST(DataSizeMismatch, NearMissCorrectPayloads) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_raw("raw", kFloat, {2, 3}, 24));
  m.graph().initializer(make_tensor_i64("typed", {3}, {1, 2, 3}));
  m.graph().initializer(make_tensor_raw("empty", kFloat, {0, 5}, 0));
  m.graph().initializer(make_tensor_raw("scalar", kDouble, {}, 8));
  m.graph().initializer(make_tensor_raw("int4_raw", kInt4, {3}, 2));
  onnx::TensorProto int4_typed;
  int4_typed.set_name("int4_typed");
  int4_typed.set_data_type(kInt4);
  int4_typed.add_dims(3);
  int4_typed.add_int32_data(0x21);
  int4_typed.add_int32_data(0x03);
  m.graph().initializer(int4_typed);
  onnx::TensorProto complex;
  complex.set_name("complex");
  complex.set_data_type(onnx::TensorProto::COMPLEX64);
  complex.add_dims(2);
  for (float f : {1.0f, 0.0f, 2.0f, 0.5f}) complex.add_float_data(f);
  m.graph().initializer(complex);
  onnx::TensorProto strings;
  strings.set_name("strings");
  strings.set_data_type(onnx::TensorProto::STRING);
  strings.add_dims(2);
  strings.add_string_data("a");
  strings.add_string_data("bc");
  m.graph().initializer(strings);
  onnx::TensorProto external;
  external.set_name("external");
  external.set_data_type(onnx::TensorProto::FLOAT);
  external.add_dims(1000);
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* kv = external.add_external_data();
  kv->set_key("location");
  kv->set_value("w.bin");
  m.graph().initializer(external);
  m.graph().node("Relu", {"x"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(DataSizeMismatch, NestedInLoopBody) {
  auto m = with_initializer(make_tensor_raw("W", kFloat, {4}, 12));
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("data-size-mismatch ") + kNestedPath + ":'W'"));
}

TEST(DataSizeMismatch, NestedInIfBranch) {
  auto m = with_initializer(make_tensor_raw("W", kFloat, {4}, 12));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("data-size-mismatch ") + kNestedIfPath + ":'W'"));
}

}  // namespace
}  // namespace onnxlint::testing
