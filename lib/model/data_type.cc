#include <onnxlint/data_type.h>

#include <iterator>

namespace onnxlint {

namespace {

struct TypeFacts {
  std::string_view name;
  uint32_t bits;  // 0: no fixed width (undefined, string)
};

// Indexed by the DataType number.
constexpr TypeFacts kTypes[] = {
    {"undefined", 0},      {"float", 32},       {"uint8", 8},          {"int8", 8},
    {"uint16", 16},        {"int16", 16},       {"int32", 32},         {"int64", 64},
    {"string", 0},         {"bool", 8},         {"float16", 16},       {"double", 64},
    {"uint32", 32},        {"uint64", 64},      {"complex64", 64},     {"complex128", 128},
    {"bfloat16", 16},      {"float8e4m3fn", 8}, {"float8e4m3fnuz", 8}, {"float8e5m2", 8},
    {"float8e5m2fnuz", 8}, {"uint4", 4},        {"int4", 4},           {"float4e2m1", 4},
    {"float8e8m0", 8},     {"uint2", 2},        {"int2", 2},
};
static_assert(std::size(kTypes) == static_cast<size_t>(DataType::Int2) + 1);

const TypeFacts* facts(int32_t data_type) {
  if (data_type < 0 || static_cast<size_t>(data_type) >= std::size(kTypes)) return nullptr;
  return &kTypes[data_type];
}

}  // namespace

std::string_view data_type_name(int32_t data_type) {
  const TypeFacts* f = facts(data_type);
  return f == nullptr ? std::string_view{} : f->name;
}

std::optional<uint32_t> data_type_bits(int32_t data_type) {
  const TypeFacts* f = facts(data_type);
  if (f == nullptr || f->bits == 0) return std::nullopt;
  return f->bits;
}

}  // namespace onnxlint
