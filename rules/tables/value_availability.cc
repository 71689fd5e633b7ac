// Hand-curated value-level availability: attribute values that an op accepts only from a later
// opset than the op itself. Attribute-level changes are in the generated schema table; entries
// with value "*" repeat a few of them here only to give rules a precise message and source.
//
// Every entry was checked against the ONNX 1.22.0 changelog (docs/Changelog.md): value lists
// from the attribute descriptions, and for "*" entries the schema table itself (the attribute
// is absent from the previous schema version; tests/tables/opset_table_test.cc re-checks it).
// Keep the array sorted by (domain, op, attribute, value); the test enforces it.
#include <span>
#include <string_view>

#include "onnxlint/opset_table.h"

namespace onnxlint {
namespace {

using namespace std::string_view_literals;

constexpr ValueAvailability kValueAvailability[] = {
    // GridSample-20 renamed the modes (bilinear -> linear, bicubic -> cubic) and made linear the
    // default; GridSample-16 knows only bilinear, nearest and bicubic.
    {""sv, "GridSample"sv, "mode"sv, "cubic"sv, 20,
     "Changelog.md#GridSample-20 (mode 'cubic' replaces 'bicubic')"sv},
    {""sv, "GridSample"sv, "mode"sv, "linear"sv, 20,
     "Changelog.md#GridSample-20 (mode 'linear' replaces 'bilinear')"sv},
    {""sv, "Pad"sv, "mode"sv, "wrap"sv, 19, "Changelog.md#Pad-19 (mode 'wrap' added)"sv},
    // Reduce*-18 moved `axes` to an input and added noop_with_empty_axes (ReduceSum did so at 13).
    {""sv, "ReduceL1"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceL1-18 (attribute added)"sv},
    {""sv, "ReduceL2"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceL2-18 (attribute added)"sv},
    {""sv, "ReduceLogSum"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceLogSum-18 (attribute added)"sv},
    {""sv, "ReduceLogSumExp"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceLogSumExp-18 (attribute added)"sv},
    {""sv, "ReduceMax"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceMax-18 (attribute added)"sv},
    {""sv, "ReduceMean"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceMean-18 (attribute added)"sv},
    {""sv, "ReduceMin"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceMin-18 (attribute added)"sv},
    {""sv, "ReduceProd"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceProd-18 (attribute added)"sv},
    {""sv, "ReduceSum"sv, "noop_with_empty_axes"sv, "*"sv, 13,
     "Changelog.md#ReduceSum-13 (attribute added)"sv},
    {""sv, "ReduceSumSquare"sv, "noop_with_empty_axes"sv, "*"sv, 18,
     "Changelog.md#ReduceSumSquare-18 (attribute added)"sv},
    {""sv, "Resize"sv, "antialias"sv, "*"sv, 18, "Changelog.md#Resize-18 (attribute added)"sv},
    {""sv, "Resize"sv, "axes"sv, "*"sv, 18, "Changelog.md#Resize-18 (attribute added)"sv},
    {""sv, "Resize"sv, "coordinate_transformation_mode"sv, "half_pixel_symmetric"sv, 19,
     "Changelog.md#Resize-19 (coordinate_transformation_mode 'half_pixel_symmetric' added)"sv},
    {""sv, "Resize"sv, "keep_aspect_ratio_policy"sv, "*"sv, 18,
     "Changelog.md#Resize-18 (attribute added)"sv},
    // Resize-10 has only nearest and linear.
    {""sv, "Resize"sv, "mode"sv, "cubic"sv, 11, "Changelog.md#Resize-11 (mode 'cubic' added)"sv},
    // ScatterElements/ScatterND: reduction arrived at 16 with none/add/mul; max/min at 18.
    {""sv, "ScatterElements"sv, "reduction"sv, "*"sv, 16,
     "Changelog.md#ScatterElements-16 (attribute added)"sv},
    {""sv, "ScatterElements"sv, "reduction"sv, "add"sv, 16,
     "Changelog.md#ScatterElements-16 (reduction 'add' added)"sv},
    {""sv, "ScatterElements"sv, "reduction"sv, "max"sv, 18,
     "Changelog.md#ScatterElements-18 (reduction 'max' added)"sv},
    {""sv, "ScatterElements"sv, "reduction"sv, "min"sv, 18,
     "Changelog.md#ScatterElements-18 (reduction 'min' added)"sv},
    {""sv, "ScatterElements"sv, "reduction"sv, "mul"sv, 16,
     "Changelog.md#ScatterElements-16 (reduction 'mul' added)"sv},
    {""sv, "ScatterND"sv, "reduction"sv, "*"sv, 16,
     "Changelog.md#ScatterND-16 (attribute added)"sv},
    {""sv, "ScatterND"sv, "reduction"sv, "add"sv, 16,
     "Changelog.md#ScatterND-16 (reduction 'add' added)"sv},
    {""sv, "ScatterND"sv, "reduction"sv, "max"sv, 18,
     "Changelog.md#ScatterND-18 (reduction 'max' added)"sv},
    {""sv, "ScatterND"sv, "reduction"sv, "min"sv, 18,
     "Changelog.md#ScatterND-18 (reduction 'min' added)"sv},
    {""sv, "ScatterND"sv, "reduction"sv, "mul"sv, 16,
     "Changelog.md#ScatterND-16 (reduction 'mul' added)"sv},
};

}  // namespace

std::span<const ValueAvailability> value_availability_table() { return kValueAvailability; }

const ValueAvailability* find_value_availability(std::string_view domain, std::string_view op,
                                                 std::string_view attribute,
                                                 std::string_view value) {
  domain = normalize_domain(domain);
  const ValueAvailability* any = nullptr;
  // A few dozen rows: a linear scan is simpler than a sorted search and just as fast here.
  for (const ValueAvailability& e : kValueAvailability) {
    if (e.domain != domain || e.op != op || e.attribute != attribute) continue;
    if (e.value == value) return &e;
    if (e.value == "*") any = &e;
  }
  return any;
}

}  // namespace onnxlint
