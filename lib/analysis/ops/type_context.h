// What an op's element-type rule sees: the node, its inputs' types and its attributes, through
// checked helpers (absent optional inputs, variadic inputs, attributes referring to a
// function's attribute), and where it writes its outputs' types. The inference pass
// (lib/analysis/element_types.cc) implements it.
#pragma once

#include <onnxlint/element_types.h>
#include <onnxlint/model.h>
#include <onnxlint/opset_table.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace onnxlint::ops {

class TypeContext {
 public:
  virtual ~TypeContext() = default;

  virtual const Node& node() const = 0;
  /// The schema in force at the node's opset; nullptr if none (then only the rule decides).
  virtual const OpSchema* schema() const = 0;
  /// Opset of the node's domain where it sits.
  virtual int64_t opset() const = 0;

  /// Number of inputs the node lists (omitted optional ones included).
  size_t input_count() const { return node().input_count(); }
  /// True when input k is given (listed and not "").
  bool has_input(size_t k) const { return !node().input(k).empty(); }
  /// The type of input k; Unknown when absent or not known.
  virtual ValueType input(size_t k) const = 0;
  size_t output_count() const { return node().output_count(); }

  /// The attribute, with a reference to a function attribute resolved at the call being
  /// inferred; nullptr when absent or unresolved.
  virtual const Attribute* attribute(std::string_view name) const = 0;
  /// An int attribute's value; nullopt when absent, unresolved or not an int.
  std::optional<int64_t> attr_int(std::string_view name) const {
    const Attribute* a = attribute(name);
    if (a == nullptr || a->type != Attribute::Type::Int) return std::nullopt;
    return a->i;
  }
  /// True when the attribute is listed on the node at all (even as an unresolved reference):
  /// its default does not apply then.
  bool attr_listed(std::string_view name) const { return node().attribute(name) != nullptr; }

  /// Output k's type (ignored when k is past the node's outputs).
  virtual void set(size_t k, ValueType t) = 0;
  /// Output k is a tensor of `data_type`, when it names a known type (Unknown otherwise).
  void set_tensor(size_t k, int64_t data_type) { set(k, ValueType::tensor(data_type)); }
  /// The schema's rule for every output no rule set: a type parameter bound by an input, a
  /// constraint allowing one type, or a concrete type string.
  virtual void from_schema() = 0;
};

// Rules shared by several families.
/// Output 0 is a tensor of the `attr` attribute's type; when it is absent, `fallback` (a
/// DataType number, or -1: the type of input 0's tensor).
void type_from_dtype_attr(TypeContext& ctx, std::string_view attr, int64_t fallback);

}  // namespace onnxlint::ops
