// The statically checkable restrictions of the target tables' notes, as data: which target, op,
// check and the note text each one encodes. target-restriction evaluates them; docs/targets.md
// lists the note fragments left out (tests/rules/target-restriction_test.cc keeps the two in
// sync with the tables).
#pragma once

#include <onnxlint/rule.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "rules/target/target_common.h"

namespace onnxlint::rules::target {

enum class Check : uint8_t {
  /// `args` (inputs), when present, are computed only from constants.
  ConstInput,
  /// `args` (optional inputs) are absent.
  NoInput,
  /// `args` (optional outputs) are absent.
  NoOutput,
  /// At most values[0] outputs.
  MaxOutputs,
  /// At least values[0] inputs.
  MinInputs,
  /// Attribute args[0] (its schema default when absent) is one of `values`; for a list
  /// attribute every element is. Numbers compare numerically.
  AttrIn,
  /// Attribute args[0] (or its default) is none of `values`.
  AttrNotIn,
  /// Attributes `args` are not set.
  AttrAbsent,
  /// Every element of the ints attribute args[0], when set, equals values[0].
  AttrAllEqual,
  /// Known rank of `args` (inputs) is one of `values`.
  RankIn,
  /// Known rank of `args` is at most values[0].
  RankAtMost,
  /// Known rank of `args` is at least values[0].
  RankAtLeast,
  /// A known shape of `args` (inputs or outputs; "*" = every input) has only fixed dims.
  StaticShape,
  /// Known element type of `args` (inputs or outputs; "*" = all) is one of `values`.
  TypeIn,
  /// Known element type of `args` ("*" = all inputs and outputs) is none of `values`.
  TypeNotIn,
  /// Input args[0], when present, is constant and every element equals values[0].
  ConstAllEqual,
  /// Elements of constant input args[0] are >= values[0].
  ConstMin,
  /// Elements of constant input args[0] are < values[0].
  ConstBelow,
  /// No element of constant input args[0] equals values[0].
  ConstNotValue,
  /// Constant input args[0] is one integer <= values[0] (e.g. NNPA Pow's exponent).
  ConstIntScalarAtMost,
  /// A known shape of `args` holds exactly one element (per-tensor, not per-axis).
  Scalar,
  /// All inputs with known shapes have the same shape (no broadcasting).
  SameShapes,
  /// direction=bidirectional: the first values[0] activations equal the next values[0].
  BidiActivationsMatch,
  /// Attribute `pads`: begin pads equal end pads per axis.
  PadsSymmetric,
  /// Constant `pads` input is zero on all but the last values[0] axes.
  PadsLastDims,
  /// Attribute args[0] (or its default) names the input's last axis.
  AxisIsLast,
  /// If: each then/else output pair with known shapes has the same rank.
  IfBranchRanks,
  /// Input args[0] is constant unless its known element type is values[0].
  ConstUnlessType,
  /// Input args[0] is constant unless attribute args[1] (or its default) equals values[0].
  ConstUnlessAttr,
  /// The axes are given (an `axes` input or attribute): reducing over "all axes" by default is
  /// not supported.
  AxesGiven,
};

struct Restriction {
  std::string_view target;  // target id
  std::string_view domain;  // "" = ai.onnx
  std::string_view op;
  Check check;
  /// Inputs/outputs by formal name (schema at the node's opset) or "#N" for position N
  /// (contrib ops, which have no embedded schema); attribute names for attribute checks.
  std::vector<std::string_view> args;
  std::vector<std::string_view> values;
  /// The exact fragment of the op's table note (TargetOp::notes, split at "; ") encoded here.
  std::string_view note;
  /// Only when attribute when_attr (or its default) equals when_value ("*" = when it is set).
  std::string_view when_attr = {};
  std::string_view when_value = {};
  /// Breaking it makes the target refuse the node (it runs elsewhere, or the conversion fails);
  /// false where the target takes the node anyway (TensorRT ignores a Random* op's seed).
  bool fails_node = true;
  /// Also checked on every older release's table of the runtime (`target`@1.18, ...), each of
  /// which carries the note: set only where every release is known to enforce it (the ONNX
  /// Runtime oracle of each release, tests/ort).
  bool every_release = false;
};

/// Whether `r` is checked on target `t`: its own table, or any release of its runtime when
/// the restriction holds for every release.
bool applies_to(const Restriction& r, const TargetInfo& t);

/// Every encoded restriction, grouped by target and op.
const std::vector<Restriction>& restriction_table();

std::string_view to_string(Check check);

/// A restriction, or a target-wide limit (max_rank, max_dim), that a node breaks on one target:
/// the finding (message, target, key, notes and help filled) and whether the target refuses the
/// node for it.
struct BrokenRestriction {
  Diagnostic diagnostic;
  bool fails_node = true;
};

/// Every encoded restriction of `t` for the node's op, and every target-wide limit, that `n`
/// breaks (target-restriction reports them; the fallback estimate counts a node with one that
/// fails it as unsupported). Empty when the target does not run the node itself or its op is not
/// supported (`nc` from check_node): restrictions only matter once the op runs.
std::vector<BrokenRestriction> broken_restrictions(const TargetInfo& t, const Node& n,
                                                   const NodeCheck& nc, RuleContext& ctx);

}  // namespace onnxlint::rules::target
