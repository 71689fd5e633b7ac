// What an op's constraint rule sees and says: the equalities a valid run of the node requires
// among its inputs' dims (broadcast operands, the inner dims of a matrix product, Concat's
// other axes, a Reshape's element count, an RNN's state against its batch). The rule reads
// dims only through the checked helpers below (absent optional inputs, unknown ranks, rank 0,
// axes out of range all give nullopt), and states each equality with `require`. The pin solver
// (lib/analysis/dim_pins.cc) implements it: it turns an equality between a dim computed from
// one dynamic input dim and a fixed size into the few sizes that dim can have.
#pragma once

#include <onnxlint/model.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace onnxlint::ops {

/// One factor of a side of an equality: dim `axis` of input `input`, or the number `value`
/// (input < 0).
struct DimRef {
  int32_t input = -1;
  int32_t axis = 0;
  int64_t value = 0;
  static DimRef number(int64_t v) { return DimRef{-1, 0, v}; }
};

enum class Relation : uint8_t {
  Equal,      ///< the two sides are equal
  EqualOrOne  ///< broadcasting: equal, or one side is 1
};

class ConstraintContext {
 public:
  virtual ~ConstraintContext() = default;

  virtual const Node& node() const = 0;
  /// Opset of the node's domain where it sits.
  virtual int64_t opset() const = 0;
  /// True when input k is given (listed and not "").
  bool has_input(size_t k) const { return !node().input(k).empty(); }
  size_t input_count() const { return node().input_count(); }
  /// The rank of input k; nullopt when it is absent or its rank is not known.
  virtual std::optional<size_t> rank(size_t k) const = 0;
  /// Dim `axis` of input k (negative: from the end); nullopt when the input is absent, its rank
  /// is unknown or the axis is out of range.
  std::optional<DimRef> dim(size_t k, int64_t axis) const {
    auto r = rank(k);
    if (!r) return std::nullopt;
    const auto n = static_cast<int64_t>(*r);
    if (axis < -n || axis >= n) return std::nullopt;
    return DimRef{static_cast<int32_t>(k), static_cast<int32_t>(axis < 0 ? axis + n : axis), 0};
  }
  /// Every dim of input k, or nullopt.
  std::optional<std::vector<DimRef>> dims(size_t k) const {
    auto r = rank(k);
    if (!r) return std::nullopt;
    std::vector<DimRef> out;
    for (size_t i = 0; i < *r; ++i) {
      out.push_back(DimRef{static_cast<int32_t>(k), static_cast<int32_t>(i), 0});
    }
    return out;
  }
  /// The elements of input k when they are known integers for every run (a constant, or shape
  /// arithmetic on fixed dims); nullopt otherwise.
  virtual std::optional<std::vector<int64_t>> ints(size_t k) const = 0;
  /// An int attribute's value; nullopt when absent or not an int.
  std::optional<int64_t> attr_int(std::string_view name) const { return node().attr_int(name); }

  /// A valid run needs product(lhs) `rel` product(rhs). `what` says which semantics of the op
  /// require it, as a phrase completing "<node> ...": a static string.
  virtual void require(std::span<const DimRef> lhs, std::span<const DimRef> rhs, Relation rel,
                       std::string_view what) = 0;
  void require(DimRef lhs, DimRef rhs, Relation rel, std::string_view what) {
    require(std::span<const DimRef>(&lhs, 1), std::span<const DimRef>(&rhs, 1), rel, what);
  }
};

// Rules shared by several families.
/// Multidirectional broadcasting of the given inputs (every listed input when `inputs` is 0):
/// at each output axis, the operands' dims are equal or 1.
void broadcast_constraints(ConstraintContext& ctx, uint32_t inputs = 0);

}  // namespace onnxlint::ops
