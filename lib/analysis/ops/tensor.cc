// Shape and tensor manipulation: reshaping, slicing, gathering and scattering, padding,
// shape-to-value ops (Shape, Size), data-dependent selections (NonZero, Compress, Unique,
// TopK) and the generators (Constant, ConstantOfShape, EyeLike, Range, OneHot).
#include <onnxlint/data_type.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "analysis/ops/constraint_context.h"
#include "analysis/ops/dim_rule.h"
#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"
#include "util/checked_math.h"

namespace onnxlint::ops {
namespace {

// Concat: every input has the same dims except along `axis`.
void concat_constraints(ConstraintContext& ctx) {
  std::optional<size_t> first;  // the first input of known rank
  for (size_t k = 0; k < ctx.input_count(); ++k) {
    auto r = ctx.rank(k);
    if (!r) continue;
    if (!first) {
      first = k;
      continue;
    }
    const auto rank = static_cast<int64_t>(*r);
    if (ctx.rank(*first) != *r) return;  // an invalid model: no dims to compare
    int64_t axis = ctx.attr_int("axis").value_or(ctx.opset() < 4 ? 1 : 0);
    if (axis < 0) axis += rank;
    for (int64_t j = 0; j < rank; ++j) {
      if (j == axis) continue;
      auto a = ctx.dim(*first, j), b = ctx.dim(k, j);
      if (a && b)
        ctx.require(*b, *a, Relation::Equal, "joins inputs whose other dims must be equal");
    }
  }
}

// Reshape without -1: the target's element count is the input's. A 0 entry copies the input
// dim at its position (unless allowzero), which cancels on both sides.
void reshape_constraints(ConstraintContext& ctx) {
  std::optional<std::vector<int64_t>> target;
  if (ctx.opset() >= 5) {
    target = ctx.ints(1);
  } else if (const Attribute* a = ctx.node().attribute("shape")) {
    target.emplace(a->ints.begin(), a->ints.end());
  }
  auto in = ctx.dims(0);
  if (!target || !in) return;
  const bool allowzero = ctx.attr_int("allowzero").value_or(0) != 0;
  std::vector<DimRef> lhs, rhs;
  std::vector<bool> copied(in->size(), false);
  for (size_t i = 0; i < target->size(); ++i) {
    const int64_t t = (*target)[i];
    if (t < 0) return;  // -1: inferred, the count says nothing
    if (t == 0 && !allowzero) {
      if (i >= in->size()) return;
      copied[i] = true;
    } else {
      rhs.push_back(DimRef::number(t));
    }
  }
  for (size_t i = 0; i < in->size(); ++i) {
    if (!copied[i]) lhs.push_back((*in)[i]);
  }
  ctx.require(lhs, rhs, Relation::Equal,
              "has a constant target shape, whose element count must match its input's");
}

// Expand: the input and the target shape broadcast (either is 1, or they are equal).
void expand_constraints(ConstraintContext& ctx) {
  auto shape = ctx.ints(1);
  auto r = ctx.rank(0);
  if (!shape || !r) return;
  for (size_t j = 1; j <= std::min(*r, shape->size()); ++j) {
    const int64_t t = (*shape)[shape->size() - j];
    auto d = ctx.dim(0, -static_cast<int64_t>(j));
    if (d && t > 1)
      ctx.require(*d, DimRef::number(t), Relation::EqualOrOne,
                  "expands its input to a constant shape");
  }
}

// Split with sizes (the `split` attribute before opset 13, input 1 after): they add up to the
// dim along `axis`.
void split_constraints(ConstraintContext& ctx) {
  std::optional<std::vector<int64_t>> sizes;
  if (ctx.opset() < 13) {
    if (const Attribute* a = ctx.node().attribute("split"))
      sizes.emplace(a->ints.begin(), a->ints.end());
  } else if (ctx.has_input(1)) {
    sizes = ctx.ints(1);
  }
  auto d = ctx.dim(0, ctx.attr_int("axis").value_or(0));
  if (!sizes || !d || sizes->empty()) return;
  CheckedInt total = 0;
  for (int64_t x : *sizes) {
    total = x < 0 ? std::nullopt : checked_add(total, x);
    if (!total) return;
  }
  ctx.require(*d, DimRef::number(*total), Relation::Equal,
              "cuts its input into constant sizes that must add up to it");
}

// Constant: the payload's type (`value` tensor, value_float(s), value_int(s), value_string(s)).
// A sparse_value's dense type is not followed.
void constant_type(TypeContext& ctx) {
  if (const Attribute* a = ctx.attribute("value"); a != nullptr && a->t != nullptr) {
    ctx.set_tensor(0, a->t->data_type);
    return;
  }
  constexpr struct {
    std::string_view attr;
    DataType type;
  } kScalarForms[] = {
      {"value_float", DataType::Float},   {"value_floats", DataType::Float},
      {"value_int", DataType::Int64},     {"value_ints", DataType::Int64},
      {"value_string", DataType::String}, {"value_strings", DataType::String},
  };
  for (const auto& f : kScalarForms) {
    if (ctx.attribute(f.attr) != nullptr) {
      ctx.set_tensor(0, static_cast<int64_t>(f.type));
      return;
    }
  }
}

// ConstantOfShape: the type of the `value` tensor; float when `value` is absent.
void constant_of_shape_type(TypeContext& ctx) {
  if (const Attribute* a = ctx.attribute("value"); a != nullptr) {
    if (a->t != nullptr) ctx.set_tensor(0, a->t->data_type);
    return;
  }
  if (!ctx.attr_listed("value")) ctx.set_tensor(0, static_cast<int64_t>(DataType::Float));
}

// EyeLike: `dtype`, else the input's type.
void eye_like_type(TypeContext& ctx) { type_from_dtype_attr(ctx, "dtype", -1); }

constexpr OpEntry kOps[] = {
    onnx("CenterCropPad", 18).values_set_shape(in(1)),  // shape
    onnx("Col2Im", 18).values_set_shape(in(1, 2)),      // image_shape, block_shape
    // Output rows are the true entries of `condition`.
    onnx("Compress", 9).dims(DimRule::Compress).data_dependent(in(1)),
    onnx("Concat", 1).dims(DimRule::Concat).constrains(concat_constraints),
    onnx("Constant", 1)
        .dims(DimRule::Constant)
        .static_shape()
        .value(ValueBehavior::Constant)
        .type_rule(constant_type),
    onnx("ConstantOfShape", 9)
        .dims(DimRule::ConstantOfShape)
        .values_set_shape(in(0))  // input
        .no_input_shapes()
        .type_rule(constant_of_shape_type),
    onnx("DepthToSpace", 1).dims(DimRule::DepthToSpace),
    onnx("Expand", 8)
        .dims(DimRule::Expand)
        .values_set_shape(in(1))
        .constrains(expand_constraints),  // shape
    onnx("EyeLike", 9)
        .dims(DimRule::Unary)
        .value(ValueBehavior::FromShape)
        .type_rule(eye_like_type),
    onnx("Flatten", 1).dims(DimRule::Flatten), onnx("Gather", 1).dims(DimRule::Gather),
    onnx("GatherElements", 1).dims(DimRule::GatherElements),
    onnx("GatherND", 1).dims(DimRule::GatherND),
    onnx("NonZero", 9).dims(DimRule::NonZero).data_dependent(in(0)),
    onnx("OneHot", 9).dims(DimRule::OneHot).values_set_shape(in(1)),  // depth
    onnx("Pad", 1).dims(DimRule::Pad),                                // pads attribute
    onnx("Pad", 11).dims(DimRule::Pad).values_set_shape(in(1)),       // pads
    onnx("Pad", 18).dims(DimRule::Pad).values_set_shape(in(1, 3)),    // pads, axes
    onnx("Range", 11).dims(DimRule::Range).values_set_shape(in(0, 1, 2)).no_input_shapes(),
    onnx("Reshape", 1).dims(DimRule::Reshape).constrains(reshape_constraints),  // shape attribute
    onnx("Reshape", 5)
        .dims(DimRule::Reshape)
        .values_set_shape(in(1))
        .constrains(reshape_constraints),  // shape
    onnx("ReverseSequence", 1).dims(DimRule::Unary), onnx("Scatter", 1).dims(DimRule::Unary),
    onnx("ScatterElements", 1).dims(DimRule::Unary), onnx("ScatterND", 1).dims(DimRule::Unary),
    onnx("Shape", 1).dims(DimRule::Shape).shape_to_value(),
    onnx("Size", 1).dims(DimRule::Size).shape_to_value(),
    onnx("Slice", 1).dims(DimRule::Slice),  // starts/ends/axes attributes
    onnx("Slice", 10)
        .dims(DimRule::Slice)
        .values_set_shape(in(1, 2, 3) | in(4)),  // starts, ends, axes, steps
    onnx("SpaceToDepth", 1).dims(DimRule::SpaceToDepth),
    onnx("Split", 1).dims(DimRule::Split).values_set_shape(in(1)),        // optional split input
    onnx("Split", 2).dims(DimRule::Split).constrains(split_constraints),  // split attribute
    onnx("Split", 13)
        .dims(DimRule::Split)
        .values_set_shape(in(1))
        .constrains(split_constraints),  // split
    onnx("Squeeze", 1).dims(DimRule::Squeeze),
    onnx("Squeeze", 13).dims(DimRule::Squeeze).values_set_shape(in(1)),  // axes
    onnx("TensorScatter", 1),
    onnx("Tile", 1).dims(DimRule::Tile).values_set_shape(in(1, 2)),  // tiles, axis
    onnx("Tile", 6).dims(DimRule::Tile).values_set_shape(in(1)),     // repeats
    onnx("TopK", 1).dims(DimRule::TopK),                             // k attribute
    onnx("TopK", 10).dims(DimRule::TopK).values_set_shape(in(1)),    // K
    onnx("Transpose", 1).dims(DimRule::Transpose), onnx("Trilu", 1).dims(DimRule::Unary),
    // Y, indices and counts have one entry per distinct value; inverse_indices has X's size.
    onnx("Unique", 11).dims(DimRule::Unique).data_dependent(in(0)).only_outputs(in(0, 1, 3)),
    onnx("Unsqueeze", 1).dims(DimRule::Unsqueeze),
    onnx("Unsqueeze", 13).dims(DimRule::Unsqueeze).values_set_shape(in(1)),  // axes
};

}  // namespace

std::span<const OpEntry> tensor_ops() { return kOps; }

}  // namespace onnxlint::ops
