// DataType, data_type_name and data_type_bits (include/onnxlint/data_type.h).
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/data_type.h>

#include <cctype>
#include <string>

namespace onnxlint {
namespace {

// The oracle: every type of the installed onnx.proto, named as ONNX names it in lower case.
TEST(DataType, AgreesWithOnnxProto) {
  const auto* e = onnx::TensorProto::DataType_descriptor();
  ASSERT_GT(e->value_count(), 16);
  for (int i = 0; i < e->value_count(); ++i) {
    const auto* v = e->value(i);
    std::string lower = v->name();
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(data_type_name(v->number()), lower) << v->number();
  }
  EXPECT_EQ(static_cast<int32_t>(DataType::Float), onnx::TensorProto::FLOAT);
  EXPECT_EQ(static_cast<int32_t>(DataType::Bfloat16), onnx::TensorProto::BFLOAT16);
}

// Types newer than Debian's onnx.proto, against onnx.proto at v1.22.0.
TEST(DataType, NamesTheNewerTypes) {
  EXPECT_EQ(data_type_name(DataType::Float8E4M3FN), "float8e4m3fn");
  EXPECT_EQ(data_type_name(18), "float8e4m3fnuz");
  EXPECT_EQ(data_type_name(19), "float8e5m2");
  EXPECT_EQ(data_type_name(20), "float8e5m2fnuz");
  EXPECT_EQ(data_type_name(DataType::Uint4), "uint4");
  EXPECT_EQ(data_type_name(22), "int4");
  EXPECT_EQ(data_type_name(23), "float4e2m1");
  EXPECT_EQ(data_type_name(24), "float8e8m0");
  EXPECT_EQ(data_type_name(25), "uint2");
  EXPECT_EQ(data_type_name(DataType::Int2), "int2");
  EXPECT_EQ(data_type_name(0), "undefined");
  EXPECT_EQ(data_type_name(27), "");
  EXPECT_EQ(data_type_name(-1), "");
}

TEST(DataType, Bits) {
  EXPECT_EQ(data_type_bits(DataType::Float), 32u);
  EXPECT_EQ(data_type_bits(DataType::Bool), 8u);
  EXPECT_EQ(data_type_bits(DataType::Double), 64u);
  EXPECT_EQ(data_type_bits(DataType::Complex128), 128u);
  EXPECT_EQ(data_type_bits(DataType::Uint4), 4u);
  EXPECT_EQ(data_type_bits(DataType::Float4E2M1), 4u);
  EXPECT_EQ(data_type_bits(DataType::Float8E8M0), 8u);
  EXPECT_EQ(data_type_bits(DataType::Uint2), 2u);
  EXPECT_EQ(data_type_bits(DataType::String), std::nullopt);
  EXPECT_EQ(data_type_bits(DataType::Undefined), std::nullopt);
  EXPECT_EQ(data_type_bits(100), std::nullopt);
  EXPECT_EQ(data_type_bits(-3), std::nullopt);
}

TEST(DataType, ComparesWithStoredNumbers) {
  const int32_t field = 10;
  const int64_t attribute = 10;
  EXPECT_TRUE(field == DataType::Float16);
  EXPECT_TRUE(DataType::Float16 == attribute);
  EXPECT_TRUE(field != DataType::Float);
  // An int64 attribute is not narrowed: 2^32 + 10 is no float16.
  EXPECT_FALSE((int64_t{1} << 32) + 10 == DataType::Float16);
}

}  // namespace
}  // namespace onnxlint
