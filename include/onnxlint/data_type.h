// Element types of tensors: ONNX's TensorProto.DataType, its names and bit widths.
//
// The model view keeps element types as the int32_t the file holds (TensorData::data_type,
// TypeInfo::elem_type), since a file may hold any number; DataType names the known ones, and
// compares with those integers directly (`t.data_type == DataType::Float16`).
#pragma once

#include <onnxlint/export.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ONNXLINT_API onnxlint {

/// TensorProto.DataType, every value up to IR version 13 (onnx/onnx.proto).
enum class DataType : int32_t {
  Undefined = 0,
  Float = 1,
  Uint8 = 2,
  Int8 = 3,
  Uint16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  Uint32 = 12,
  Uint64 = 13,
  Complex64 = 14,
  Complex128 = 15,
  Bfloat16 = 16,
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  Uint4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  Uint2 = 25,
  Int2 = 26,
};

/// A stored type number (int32_t fields, int64_t attribute values such as Cast's `to`) is that
/// type. Only these two widths compare, so no value is narrowed on the way.
constexpr bool operator==(int32_t stored, DataType t) { return stored == static_cast<int32_t>(t); }
constexpr bool operator==(int64_t stored, DataType t) { return stored == static_cast<int64_t>(t); }

namespace detail {
struct DataTypeFacts {
  std::string_view name;
  uint32_t bits;  // 0: no fixed width (undefined, string)
};
// Indexed by the DataType number (onnx.proto at v1.22.0).
inline constexpr DataTypeFacts kDataTypes[] = {
    {"undefined", 0},      {"float", 32},       {"uint8", 8},          {"int8", 8},
    {"uint16", 16},        {"int16", 16},       {"int32", 32},         {"int64", 64},
    {"string", 0},         {"bool", 8},         {"float16", 16},       {"double", 64},
    {"uint32", 32},        {"uint64", 64},      {"complex64", 64},     {"complex128", 128},
    {"bfloat16", 16},      {"float8e4m3fn", 8}, {"float8e4m3fnuz", 8}, {"float8e5m2", 8},
    {"float8e5m2fnuz", 8}, {"uint4", 4},        {"int4", 4},           {"float4e2m1", 4},
    {"float8e8m0", 8},     {"uint2", 2},        {"int2", 2},
};
static_assert(sizeof(kDataTypes) / sizeof(kDataTypes[0]) ==
              static_cast<size_t>(DataType::Int2) + 1);
}  // namespace detail

/// Lower-case name as ONNX writes it inside type strings: "float", "int64", "float8e4m3fn",
/// "int4", "float4e2m1", "int2"; "undefined" for 0; "" for numbers ONNX does not define.
constexpr std::string_view data_type_name(int32_t data_type) {
  if (data_type < 0 || data_type > static_cast<int32_t>(DataType::Int2)) return {};
  return detail::kDataTypes[data_type].name;
}
constexpr std::string_view data_type_name(DataType t) {
  return data_type_name(static_cast<int32_t>(t));
}

/// Bits per element: float 32, bool 8, int4 4, complex64 64. nullopt for string, undefined and
/// unknown numbers.
constexpr std::optional<uint32_t> data_type_bits(int32_t data_type) {
  if (data_type <= 0 || data_type > static_cast<int32_t>(DataType::Int2)) return std::nullopt;
  const uint32_t bits = detail::kDataTypes[data_type].bits;
  return bits == 0 ? std::nullopt : std::optional<uint32_t>(bits);
}
constexpr std::optional<uint32_t> data_type_bits(DataType t) {
  return data_type_bits(static_cast<int32_t>(t));
}

}  // namespace onnxlint
