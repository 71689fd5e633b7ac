// Lookups over the generated operator tables (opset_table_data.cc) and the element-type table.
#include "onnxlint/opset_table.h"

#include <onnxlint/data_type.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "config/text_util.h"
#include "util/name_map.h"

namespace onnxlint {
namespace {

using namespace std::string_view_literals;

// Orders schemas by (domain, name) only, so equal_range yields all versions of one op.
struct OpKeyLess {
  using Key = std::pair<std::string_view, std::string_view>;
  static Key key(const OpSchema& s) { return {s.domain, s.name}; }
  bool operator()(const OpSchema& a, const Key& b) const { return key(a) < b; }
  bool operator()(const Key& a, const OpSchema& b) const { return a < key(b); }
};

// TensorProto.DataType facts, indexed by the enum value (onnx.proto at v1.22.0).
// (Names and bit widths: data_type.h.)
struct ElementType {
  const char* tensor_type;  // const char* so callers can hand it to C APIs
  int min_ir;               // IR version whose onnx.proto introduced the type
};

// IR introductions come from the comments of onnx.proto's Version enum: BFLOAT16 in IR 4,
// FLOAT8* in IR 9, UINT4/INT4 in IR 10, FLOAT4E2M1 in IR 11, FLOAT8E8M0 in IR 12, UINT2/INT2
// in IR 13. Older types are reported as 3, the IR of ONNX 1.0 (the oldest release).
constexpr ElementType kElementTypes[] = {
    {"", 0},  // 0 UNDEFINED
    {"tensor(float)", 3},
    {"tensor(uint8)", 3},
    {"tensor(int8)", 3},
    {"tensor(uint16)", 3},
    {"tensor(int16)", 3},
    {"tensor(int32)", 3},
    {"tensor(int64)", 3},
    {"tensor(string)", 3},
    {"tensor(bool)", 3},
    {"tensor(float16)", 3},
    {"tensor(double)", 3},
    {"tensor(uint32)", 3},
    {"tensor(uint64)", 3},
    {"tensor(complex64)", 3},
    {"tensor(complex128)", 3},
    {"tensor(bfloat16)", 4},
    {"tensor(float8e4m3fn)", 9},
    {"tensor(float8e4m3fnuz)", 9},
    {"tensor(float8e5m2)", 9},
    {"tensor(float8e5m2fnuz)", 9},
    {"tensor(uint4)", 10},
    {"tensor(int4)", 10},
    {"tensor(float4e2m1)", 11},
    {"tensor(float8e8m0)", 12},
    {"tensor(uint2)", 13},
    {"tensor(int2)", 13},
};

const ElementType* element_type(int32_t data_type) {
  if (data_type <= 0 || static_cast<size_t>(data_type) >= std::size(kElementTypes)) {
    return nullptr;
  }
  return &kElementTypes[data_type];
}

// The first release (oldest first) whose max opset for the domain reaches `opset`.
const OnnxRelease* first_release(std::string_view domain, int64_t opset) {
  domain = normalize_domain(domain);
  int OnnxRelease::*column = nullptr;
  if (domain.empty()) {
    column = &OnnxRelease::ai_onnx;
  } else if (domain == "ai.onnx.ml") {
    column = &OnnxRelease::ai_onnx_ml;
  } else if (domain == "ai.onnx.training") {
    column = &OnnxRelease::ai_onnx_training;
  } else {
    return nullptr;  // preview domains are not in the release table
  }
  if (opset < 1) return nullptr;
  for (const OnnxRelease& r : onnx_releases()) {
    if (r.*column >= opset) return &r;
  }
  return nullptr;
}

}  // namespace

std::string_view attr_type_name(AttrType type) {
  static constexpr std::string_view kNames[] = {
      "UNDEFINED"sv,      "FLOAT"sv,      "INT"sv,         "STRING"sv,
      "TENSOR"sv,         "GRAPH"sv,      "FLOATS"sv,      "INTS"sv,
      "STRINGS"sv,        "TENSORS"sv,    "GRAPHS"sv,      "SPARSE_TENSOR"sv,
      "SPARSE_TENSORS"sv, "TYPE_PROTO"sv, "TYPE_PROTOS"sv,
  };
  const auto i = static_cast<size_t>(type);
  return i < std::size(kNames) ? kNames[i] : kNames[0];
}

bool TypeConstraint::allows(std::string_view type_string) const {
  return std::find(allowed.begin(), allowed.end(), type_string) != allowed.end();
}

const AttributeSchema* OpSchema::find_attribute(std::string_view attr_name) const {
  const auto it =
      std::lower_bound(attributes.begin(), attributes.end(), attr_name,
                       [](const AttributeSchema& a, std::string_view n) { return a.name < n; });
  return it != attributes.end() && it->name == attr_name ? &*it : nullptr;
}

const TypeConstraint* OpSchema::find_constraint(std::string_view param) const {
  for (const TypeConstraint& c : type_constraints) {
    if (c.param == param) return &c;
  }
  return nullptr;
}

bool OpSchema::param_accepts(const ParamSchema& p, std::string_view type_string) const {
  if (const TypeConstraint* c = find_constraint(p.type)) return c->allows(type_string);
  return p.type == type_string;
}

const DomainInfo* find_domain(std::string_view domain) {
  domain = normalize_domain(domain);
  const auto domains = all_domains();
  const auto it =
      std::lower_bound(domains.begin(), domains.end(), domain,
                       [](const DomainInfo& d, std::string_view key) { return d.domain < key; });
  return it != domains.end() && it->domain == domain ? &*it : nullptr;
}

bool is_standard_domain(std::string_view domain) {
  // The default domain (nearly every node, asked per node by several rules) without the search.
  return domain.empty() || find_domain(domain) != nullptr;
}

std::span<const OpSchema> op_versions(std::string_view domain, std::string_view op) {
  const auto schemas = all_schemas();
  domain = normalize_domain(domain);
  if (domain.empty()) {
    // Rules ask for the schema of nearly every node, and a binary search of the whole table
    // compares strings of scattered entries: the default domain gets a hash index, built on
    // first use from the compiled table (a few hundred entries, microseconds).
    static const NameMap<std::span<const OpSchema>> default_domain = [&] {
      NameMap<std::span<const OpSchema>> index;
      for (size_t i = 0; i < schemas.size();) {
        if (!schemas[i].domain.empty()) {
          ++i;
          continue;
        }
        size_t j = i;
        while (j < schemas.size() && schemas[j].domain.empty() &&
               schemas[j].name == schemas[i].name) {
          ++j;
        }
        index.try_emplace(schemas[i].name, schemas.subspan(i, j - i));
        i = j;
      }
      return index;
    }();
    const std::span<const OpSchema>* versions = default_domain.find(op);
    return versions != nullptr ? *versions : std::span<const OpSchema>{};
  }
  const auto [lo, hi] =
      std::equal_range(schemas.begin(), schemas.end(), OpKeyLess::Key{domain, op}, OpKeyLess{});
  return {lo, hi};
}

const OpSchema* resolve_schema(std::string_view domain, std::string_view op, int64_t opset) {
  const auto versions = op_versions(domain, op);
  // First version introduced after `opset`; the one before it is in force.
  const auto it =
      std::upper_bound(versions.begin(), versions.end(), opset,
                       [](int64_t v, const OpSchema& s) { return v < s.since_version; });
  return it == versions.begin() ? nullptr : &*(it - 1);
}

std::optional<int> first_version(std::string_view domain, std::string_view op) {
  const auto versions = op_versions(domain, op);
  if (versions.empty()) return std::nullopt;
  return versions.front().since_version;
}

std::vector<std::string_view> all_op_names(std::string_view domain) {
  domain = normalize_domain(domain);
  const auto schemas = all_schemas();
  // The domain's schemas are one contiguous run of the sorted table.
  const auto lo =
      std::lower_bound(schemas.begin(), schemas.end(), domain,
                       [](const OpSchema& s, std::string_view d) { return s.domain < d; });
  std::vector<std::string_view> names;
  for (auto it = lo; it != schemas.end() && it->domain == domain; ++it) {
    if (names.empty() || names.back() != it->name) names.push_back(it->name);
  }
  return names;
}

std::vector<std::string_view> closest_op_names(std::string_view domain, std::string_view op,
                                               size_t max_results) {
  // Allow roughly one edit per three characters (at least two), so "Conv2d" finds "Conv" and
  // "Relu6" finds "Relu"; very short names get one edit so they do not match everything.
  const size_t max_distance = op.size() <= 3 ? 1 : std::max<size_t>(2, op.size() / 3);
  std::vector<std::pair<size_t, std::string_view>> scored;
  for (std::string_view name : all_op_names(domain)) {
    if (name == op) continue;
    // Abbreviations ("BatchNorm", "LayerNorm") are far in edits but are prefixes: rank them
    // like a one-edit typo.
    const bool abbreviation = op.size() >= 4 && name.size() > op.size() && name.starts_with(op);
    // The distance is at least the difference in length: a long (hostile) op name is ruled
    // out without the quadratic edit-distance work.
    const size_t gap = name.size() > op.size() ? name.size() - op.size() : op.size() - name.size();
    if (!abbreviation && gap > max_distance) continue;
    size_t d = abbreviation ? 1 : edit_distance(op, name, /*ignore_case=*/true);
    if (abbreviation) d = std::min(d, edit_distance(op, name, /*ignore_case=*/true));
    if (d <= max_distance) scored.emplace_back(d, name);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string_view> out;
  for (size_t i = 0; i < scored.size() && i < max_results; ++i) out.push_back(scored[i].second);
  return out;
}

std::vector<std::string_view> domains_defining(std::string_view op) {
  std::vector<std::string_view> out;
  for (const DomainInfo& d : all_domains()) {
    if (!op_versions(d.domain, op).empty()) out.push_back(d.domain);
  }
  return out;
}

std::optional<int> min_ir_version_for_opset(std::string_view domain, int64_t opset) {
  const OnnxRelease* r = first_release(domain, opset);
  if (r == nullptr) return std::nullopt;
  return r->ir_version;
}

std::string_view first_release_for_opset(std::string_view domain, int64_t opset) {
  const OnnxRelease* r = first_release(domain, opset);
  return r == nullptr ? std::string_view{} : r->release;
}

std::optional<int32_t> element_type_from_name(std::string_view name) {
  if (name.starts_with("tensor(") && name.ends_with(")")) {
    name = name.substr(7, name.size() - 8);
  }
  if (name.empty()) return std::nullopt;
  for (int32_t i = 1; static_cast<size_t>(i) < std::size(kElementTypes); ++i) {
    if (data_type_name(i) == name) return i;
  }
  return std::nullopt;
}

int min_ir_version_for_element_type(int32_t data_type) {
  const ElementType* t = element_type(data_type);
  return t == nullptr ? 0 : t->min_ir;
}

const char* tensor_type_string(int32_t data_type) {
  const ElementType* t = element_type(data_type);
  return t == nullptr ? "" : t->tensor_type;
}

}  // namespace onnxlint
