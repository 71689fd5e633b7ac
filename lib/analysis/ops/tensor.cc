// Shape and tensor manipulation: reshaping, slicing, gathering and scattering, padding,
// shape-to-value ops (Shape, Size), data-dependent selections (NonZero, Compress, Unique,
// TopK) and the generators (Constant, ConstantOfShape, EyeLike, Range, OneHot).
#include <onnxlint/data_type.h>

#include "analysis/ops/registry.h"
#include "analysis/ops/type_context.h"

namespace onnxlint::ops {
namespace {

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
    onnx("Compress", 9).data_dependent(in(1)), onnx("Concat", 1),
    onnx("Constant", 1).static_shape().value(ValueBehavior::Constant).type_rule(constant_type),
    onnx("ConstantOfShape", 9)
        .values_set_shape(in(0))  // input
        .no_input_shapes()
        .type_rule(constant_of_shape_type),
    onnx("DepthToSpace", 1), onnx("Expand", 8).values_set_shape(in(1)),  // shape
    onnx("EyeLike", 9).value(ValueBehavior::FromShape).type_rule(eye_like_type), onnx("Flatten", 1),
    onnx("Gather", 1), onnx("GatherElements", 1), onnx("GatherND", 1),
    onnx("NonZero", 9).data_dependent(in(0)), onnx("OneHot", 9).values_set_shape(in(1)),  // depth
    onnx("Pad", 1),                              // pads attribute
    onnx("Pad", 11).values_set_shape(in(1)),     // pads
    onnx("Pad", 18).values_set_shape(in(1, 3)),  // pads, axes
    onnx("Range", 11).values_set_shape(in(0, 1, 2)).no_input_shapes(),
    onnx("Reshape", 1),                          // shape attribute
    onnx("Reshape", 5).values_set_shape(in(1)),  // shape
    onnx("ReverseSequence", 1), onnx("Scatter", 1), onnx("ScatterElements", 1),
    onnx("ScatterND", 1), onnx("Shape", 1).shape_to_value(), onnx("Size", 1).shape_to_value(),
    onnx("Slice", 1),                                         // starts/ends/axes attributes
    onnx("Slice", 10).values_set_shape(in(1, 2, 3) | in(4)),  // starts, ends, axes, steps
    onnx("SpaceToDepth", 1), onnx("Split", 1).values_set_shape(in(1)),     // optional split input
    onnx("Split", 2),                                                      // split attribute
    onnx("Split", 13).values_set_shape(in(1)),                             // split
    onnx("Squeeze", 1), onnx("Squeeze", 13).values_set_shape(in(1)),       // axes
    onnx("TensorScatter", 1), onnx("Tile", 1).values_set_shape(in(1, 2)),  // tiles, axis
    onnx("Tile", 6).values_set_shape(in(1)),                               // repeats
    onnx("TopK", 1),                                                       // k attribute
    onnx("TopK", 10).values_set_shape(in(1)),                              // K
    onnx("Transpose", 1), onnx("Trilu", 1),
    // Y, indices and counts have one entry per distinct value; inverse_indices has X's size.
    onnx("Unique", 11).data_dependent(in(0)).only_outputs(in(0, 1, 3)), onnx("Unsqueeze", 1),
    onnx("Unsqueeze", 13).values_set_shape(in(1)),  // axes
};

}  // namespace

std::span<const OpEntry> tensor_ops() { return kOps; }

}  // namespace onnxlint::ops
