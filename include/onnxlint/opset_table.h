// Embedded ONNX operator and version tables (ONNX 1.22.0), compiled into the binary.
//
// The data lives in flat, sorted, constant arrays generated at build time by
// tools/gen_opset_table.py from rules/tables/onnx-operators.json and onnx-versions.json, so
// nothing is parsed at start-up and every lookup is a binary search. All string_views point at
// static storage and stay valid for the whole program.
//
// Domains: the default domain is spelled "" in the tables; every function that takes a domain
// also accepts "ai.onnx" (see normalize_domain, model.h).
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/model.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// The AttributeProto.AttributeType enum name: "INT", "FLOATS", "SPARSE_TENSOR", ...
/// ("UNDEFINED" for Undefined and out-of-range values).
std::string_view attr_type_name(AttrType type);

/// One attribute of a schema version.
struct AttributeSchema {
  std::string_view name;
  AttrType type;
  bool required;
  bool has_default;
  /// The default as text, empty when has_default is false. INT: decimal ("-1"). FLOAT: the
  /// shortest decimal that reads back as the same float32 ("0.01", "1e-05", "3.4028235e+38").
  /// STRING: the string itself, unquoted ("NOTSET"). Lists: a JSON array ("[0, 2, 3]",
  /// "[\"Tanh\", \"Tanh\"]").
  std::string_view default_text;
};

/// FormalParameter option.
enum class ParamOption : uint8_t { Single, Optional, Variadic };

/// One formal input or output of a schema version.
struct ParamSchema {
  std::string_view name;
  ParamOption option;
  /// A type-parameter name ("T", a key of the type constraints) or a concrete type string
  /// ("tensor(int64)", "seq(tensor(float))", "map(string, float)").
  std::string_view type;
  /// Minimum number of actual arguments: 1 for Single, 0 for Optional, the schema's value for
  /// Variadic.
  int min_arity;
  /// Variadic only: all arguments must share one type. True for non-variadic parameters.
  bool homogeneous;
};

/// A type parameter and the type strings it may bind to, in schema order.
struct TypeConstraint {
  std::string_view param;
  std::span<const std::string_view> allowed;
  /// True if `type_string` (e.g. "tensor(float)") is one of the allowed types.
  bool allows(std::string_view type_string) const;
};

/// Sentinel for an unbounded input/output count (variadic), as in onnx OpSchema.
constexpr int kUnboundedArity = 2147483647;

/// One version of one operator's schema.
///
/// Deprecated entries (Upsample-10, Scatter-11, GroupNormalization-18, ai.onnx.ml
/// TreeEnsembleClassifier-5 / TreeEnsembleRegressor-5) have no published signature: their
/// spans are empty and their arities are 0. Check `deprecated` before checking a signature.
struct OpSchema {
  std::string_view domain;  // "" for ai.onnx
  std::string_view name;
  int since_version;
  int until_version;  // last opset this version applies to (next since - 1, or domain max)
  bool deprecated;    // the op is removed from this opset on; the onnx checker rejects it
  bool experimental;  // support_level EXPERIMENTAL
  bool has_function;  // has a static function body
  bool has_context_dependent_function;
  int min_input;
  int max_input;  // kUnboundedArity when variadic
  int min_output;
  int max_output;                               // kUnboundedArity when variadic
  std::span<const AttributeSchema> attributes;  // sorted by name
  std::span<const ParamSchema> inputs;          // formal order
  std::span<const ParamSchema> outputs;         // formal order
  std::span<const TypeConstraint> type_constraints;

  /// Binary search by name; nullptr if the schema has no such attribute.
  const AttributeSchema* find_attribute(std::string_view attr_name) const;
  /// The constraint for a type parameter ("T"); nullptr if none.
  const TypeConstraint* find_constraint(std::string_view param) const;
  /// True if an argument of type `type_string` ("tensor(float)") may bind to parameter `p`:
  /// p's concrete type equals it, or p's type parameter allows it.
  bool param_accepts(const ParamSchema& p, std::string_view type_string) const;
};

/// A registered ONNX domain: "", ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training,
/// ai.onnx.training.
struct DomainInfo {
  std::string_view domain;  // key as in NodeProto.domain ("" for the default domain)
  std::string_view name;    // display name ("ai.onnx" for "")
  int min_opset;
  int max_opset;
};

/// The domain ("ai.onnx" accepted), or nullptr if it is not an ONNX domain.
const DomainInfo* find_domain(std::string_view domain);
/// True for "", ai.onnx and the other domains of find_domain.
bool is_standard_domain(std::string_view domain);
/// All registered domains, sorted by key.
std::span<const DomainInfo> all_domains();

/// Every schema version, sorted by (domain, name, since_version).
std::span<const OpSchema> all_schemas();
/// All versions of one op, ascending since_version; empty if the op is unknown in the domain.
std::span<const OpSchema> op_versions(std::string_view domain, std::string_view op);
/// The schema in force at `opset` (largest since_version <= opset), as
/// OpSchemaRegistry::Schema does. nullptr if the op is unknown or newer than `opset`.
/// The result may be deprecated.
const OpSchema* resolve_schema(std::string_view domain, std::string_view op, int64_t opset);
/// The opset that introduced the op, or nullopt if unknown.
std::optional<int> first_version(std::string_view domain, std::string_view op);
/// Names of all ops of a domain, sorted.
std::vector<std::string_view> all_op_names(std::string_view domain);
/// Up to `max_results` op names of the domain close to `op`, for "unknown op, did you mean ..."
/// messages: case-insensitive edit distance (at most max(2, len/3); 1 for names of 3 characters
/// or fewer), with names that `op` abbreviates ("BatchNorm") counted as one edit. Closest first,
/// then alphabetical. Never contains `op` itself; empty if nothing is close.
std::vector<std::string_view> closest_op_names(std::string_view domain, std::string_view op,
                                               size_t max_results = 3);
/// The standard domains (keys, sorted) that define `op`, e.g. {"ai.onnx.ml"} for
/// "LabelEncoder"; helps diagnose an op used with the wrong domain.
std::vector<std::string_view> domains_defining(std::string_view op);

/// The ONNX release the operator tables were extracted from ("1.22.0").
std::string_view onnx_data_version();

/// One row of the ONNX release table (docs/Versioning.md).
struct OnnxRelease {
  std::string_view release;  // "1.14.0"
  int ir_version;
  int ai_onnx;           // max ai.onnx opset of the release
  int ai_onnx_ml;        // 0 if the domain did not exist yet
  int ai_onnx_training;  // 0 if the domain did not exist yet
};

/// All releases, oldest first.
std::span<const OnnxRelease> onnx_releases();
/// The newest IR version known to the tables (13).
int max_known_ir_version();
/// The IR version of the first release that shipped `opset` of `domain` (ai.onnx, ai.onnx.ml
/// or ai.onnx.training). nullopt for other domains and for opsets no release has shipped.
std::optional<int> min_ir_version_for_opset(std::string_view domain, int64_t opset);
/// Name of that first release ("1.8.0"), or "" if none.
std::string_view first_release_for_opset(std::string_view domain, int64_t opset);

// Element types: TensorProto.DataType numbers (names and bit widths: data_type.h).

/// The data type with this name ("float" or "tensor(float)"), or nullopt.
std::optional<int32_t> element_type_from_name(std::string_view name);
/// The IR version that introduced the type: bfloat16 4; float8 (17-20) 9; uint4/int4 10;
/// float4e2m1 11; float8e8m0 12; uint2/int2 13; other known types 3 (the IR of ONNX 1.0, the
/// oldest release). 0 if the type is unknown.
int min_ir_version_for_element_type(int32_t data_type);
/// "tensor(float)" etc., matching the type strings of the schemas; "" (never nullptr) if the
/// type is unknown.
const char* tensor_type_string(int32_t data_type);

/// Value-level availability: attribute *values* (or attributes) that arrived later than the op.
/// Attributes missing from an older schema version are already visible in the schema table
/// (find_attribute returns nullptr); this curated table adds values inside an existing
/// attribute, and a few attributes worth a precise message.
struct ValueAvailability {
  std::string_view domain;  // "" for ai.onnx
  std::string_view op;
  std::string_view attribute;
  /// The string value, the decimal for ints, or "*" meaning "the attribute present at all".
  std::string_view value;
  int since_opset;          // first opset of `domain` that accepts it
  std::string_view source;  // spec section, e.g. "Changelog.md#Pad-19 (mode 'wrap' added)"
};

/// The whole table, sorted by (domain, op, attribute, value).
std::span<const ValueAvailability> value_availability_table();
/// The entry for this exact value, else the "*" entry of the attribute, else nullptr. The
/// caller reports when entry->since_opset > the model's opset for the domain.
const ValueAvailability* find_value_availability(std::string_view domain, std::string_view op,
                                                 std::string_view attribute,
                                                 std::string_view value);

}  // namespace onnxlint
