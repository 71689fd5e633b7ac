// The op registry: the one home of every op's semantics. One entry per (domain, op,
// since-version), written in the family files beside this header (elementwise.cc,
// reduction.cc, tensor.cc, nn.cc, control_flow.cc, sequence.cc, quantization.cc, random.cc,
// ml.cc). An entry applies from its since_version until the next entry of the same op.
//
// An entry holds
//  - the op's class facts (OpSemantics, public in provenance.h): which inputs' values set the
//    output shapes, data-dependent outputs, shape-to-value ops, random ops;
//  - its element-type rule, where the op schema's type constraints do not decide the output
//    types by themselves (TypeContext::from_schema is the rule for every other op);
//  - its shape transfer (DimRule, implemented in lib/analysis/provenance_dims.cc);
//  - its constraint rule: the equalities among input dims a valid run requires (broadcast
//    operands, a matrix product's inner dims, ...), which pin a dim declared dynamic to the
//    size the export saw (lib/analysis/dim_pins.cc, export-baked-shape).
// Adding an op is one entry in one family file (docs/architecture.md, "Adding an op");
// tests/analysis/op_semantics_test.cc checks that every op of the embedded operator table has
// an entry and that every shape-argument input is marked.
//
// The family tables are constexpr arrays compiled in; the registry merges them once into one
// sorted table (a few hundred entries) and every lookup is a binary search.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/provenance.h>

#include <cstdint>
#include <span>
#include <string_view>

#include "analysis/ops/dim_rule.h"

namespace ONNXLINT_API onnxlint {
namespace ops {

class TypeContext;  // lib/analysis/ops/type_context.h
/// An op's element-type rule: sets the types of the node's outputs through `ctx`.
using TypeRule = void (*)(TypeContext& ctx);
class ConstraintContext;  // lib/analysis/ops/constraint_context.h
/// An op's constraint rule: states the equalities among input dims a valid run requires.
using ConstraintRule = void (*)(ConstraintContext& ctx);

/// Bit masks of input indices: in(1) = input 1, in(1, 2) = inputs 1 and 2.
constexpr uint32_t in(int a) { return 1u << a; }
constexpr uint32_t in(int a, int b) { return in(a) | in(b); }
constexpr uint32_t in(int a, int b, int c) { return in(a) | in(b) | in(c); }

struct OpEntry {
  OpSemantics sem;
  TypeRule types = nullptr;              ///< nullptr: the schema's type constraints decide
  ConstraintRule constraints = nullptr;  ///< nullptr: the op requires nothing among its dims
  DimRule dim_rule = DimRule::None;      ///< the per-dimension shape transfer (None: unknown)

  // Builders, so that a family table reads as a list of facts:
  //   onnx("Reshape", 5).values_set_shape(in(1))  // shape
  /// The values of `inputs` set the output shapes (affecting every output).
  constexpr OpEntry values_set_shape(uint32_t inputs) const {
    OpEntry e = *this;
    e.sem.shape = ShapeBehavior::FromValues;
    e.sem.value_inputs = inputs;
    return e;
  }
  /// By its nature the op's output shape follows the values of `inputs` (NonZero, Unique).
  constexpr OpEntry data_dependent(uint32_t inputs) const {
    OpEntry e = *this;
    e.sem.shape = ShapeBehavior::DataDependent;
    e.sem.value_inputs = inputs;
    return e;
  }
  /// Only the outputs in `outputs` have shapes set by the value inputs.
  constexpr OpEntry only_outputs(uint32_t outputs) const {
    OpEntry e = *this;
    e.sem.affected_outputs = outputs;
    return e;
  }
  /// Input shapes do not contribute to output shapes (ConstantOfShape, Range).
  constexpr OpEntry no_input_shapes() const {
    OpEntry e = *this;
    e.sem.input_shapes = false;
    return e;
  }
  /// Outputs an input's shape as a value (Shape, Size, SequenceLength).
  constexpr OpEntry shape_to_value() const {
    OpEntry e = *this;
    e.sem.shape = ShapeBehavior::ShapeToValue;
    e.sem.value = ValueBehavior::FromShape;
    e.sem.input_shapes = false;
    return e;
  }
  /// Output shape fixed by attributes (Constant, RandomNormal, SequenceEmpty).
  constexpr OpEntry static_shape() const {
    OpEntry e = *this;
    e.sem.shape = ShapeBehavior::Static;
    e.sem.input_shapes = false;
    return e;
  }
  constexpr OpEntry value(ValueBehavior v) const {
    OpEntry e = *this;
    e.sem.value = v;
    return e;
  }
  /// Follows its subgraphs (If, Loop, Scan, SequenceMap).
  constexpr OpEntry control_flow() const {
    OpEntry e = *this;
    e.sem.shape = ShapeBehavior::ControlFlow;
    return e;
  }
  constexpr OpEntry type_rule(TypeRule rule) const {
    OpEntry e = *this;
    e.types = rule;
    return e;
  }
  /// The output dims (and small integer elements) follow `rule`'s transfer
  /// (lib/analysis/provenance_dims.cc).
  constexpr OpEntry dims(DimRule rule) const {
    OpEntry e = *this;
    e.dim_rule = rule;
    return e;
  }
  constexpr OpEntry constrains(ConstraintRule rule) const {
    OpEntry e = *this;
    e.constraints = rule;
    return e;
  }
};

/// An entry of `domain` ("" for ai.onnx) whose outputs follow input shapes and values.
constexpr OpEntry entry(std::string_view domain, std::string_view op, int since) {
  OpEntry e;
  e.sem.domain = domain;
  e.sem.op = op;
  e.sem.since_version = since;
  return e;
}
constexpr OpEntry onnx(std::string_view op, int since) { return entry("", op, since); }
constexpr OpEntry ml(std::string_view op, int since) { return entry("ai.onnx.ml", op, since); }

// The family tables (each defined in its file).
std::span<const OpEntry> elementwise_ops();
std::span<const OpEntry> reduction_ops();
std::span<const OpEntry> tensor_ops();
std::span<const OpEntry> nn_ops();
std::span<const OpEntry> control_flow_ops();
std::span<const OpEntry> sequence_ops();
std::span<const OpEntry> quantization_ops();
std::span<const OpEntry> random_ops();
std::span<const OpEntry> ml_ops();  // ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training

/// The entry in force for `op` of `domain` ("ai.onnx" accepted) at `opset`, as
/// find_op_semantics; nullptr when the registry has no entry for the op.
const OpEntry* find_entry(std::string_view domain, std::string_view op, int64_t opset);

/// The entry a row of op_semantics_table() comes from (what find_op_semantics and
/// Provenance::semantics return); nullptr for a row from elsewhere (unknown_op_semantics()).
const OpEntry* entry_of(const OpSemantics& sem);

/// True when some version of the default-domain op gives random values at run time
/// (RandomNormal, Bernoulli, Multinomial, ...).
bool is_random_op(std::string_view op);

}  // namespace ops
}  // namespace onnxlint
