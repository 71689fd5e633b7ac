// Dim pins: input dims a model declares dynamic that its own ops only accept at a few sizes.
//
// Every op of the registry states the equalities a valid run needs among its input dims
// (lib/analysis/ops/constraint_context.h): broadcast operands are equal or 1, a matrix
// product's inner dims are equal, Concat's other axes are equal, a Reshape keeps the element
// count, an RNN's initial state has the input's batch, a Conv's weight has the input's
// channels. This analysis reads those equalities over the provenance analysis's dims. When one
// side is a fixed size and the other a dim computed from a few input dims by an exact
// expression that never decreases as they grow and passes that size (N, N+1, 2*N, N/2,
// ceil(N/32), 8*(H/2)*(W/2)), the input dims can only take the few sizes that solve it: a size
// frozen in at export, usually
// (`export-baked-shape` reports it). Only proven facts: an expression the analysis does not
// spell out, or one that stops growing (min(N, 5) = 5 holds for every N >= 5), pins nothing.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>
#include <onnxlint/provenance.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// One equality that pins an input dim.
struct DimPin {
  const Node* node = nullptr;  ///< the node whose semantics require the equality
  std::string_view what;       ///< how it requires it, completing "<node> ..." (static text)
  size_t input = 0;            ///< the node's input whose dim carries the dynamic side
  size_t axis = 0;             ///< that dim
  ValueId operand = kNoValue;  ///< that input's value
  /// The node's input holding the fixed side (kNoValue: a number of the op itself, such as a
  /// constant Reshape target or Split sizes), and its dim.
  ValueId fixed_operand = kNoValue;
  size_t fixed_axis = 0;
  /// The input dims the dynamic side is computed from (one, or a few: 8*(H/2)*(W/2)).
  std::vector<std::string_view> dim_names;
  /// Per dim of dim_names, the largest size at which some sizes of the others solve the
  /// equality: every larger size fails.
  std::vector<int64_t> at_most;
  std::string expr;      ///< the dynamic side as the analysis writes it: "N", "N/2+1"
  int64_t required = 0;  ///< the fixed size it must equal
  bool or_one = false;   ///< broadcasting: the dynamic side may also be 1
  /// The sizes of the dim that satisfy the equality, every dim of dim_names at that same size
  /// (first > last: none with equal sizes, e.g. when only H = 2 * W works)...
  int64_t first = 1, last = 0;
  /// ...and, with or_one, those that make the dynamic side 1 (empty when first_one > last_one).
  int64_t first_one = 1, last_one = 0;
  /// Where the dynamic side's expression was formed by a Reshape with a constant target
  /// (`x.view(2, -1)` folds N into 8*N): the node the size was baked into; nullptr otherwise.
  const Node* folded_by = nullptr;
  /// The node whose constant argument wrote the fixed side's size (DimPins::writer_of);
  /// nullptr for a weight's dim or a number of the op itself.
  const Node* written_by = nullptr;
};

class DimPins {
 public:
  DimPins(const Model& model, AnalysisCache& cache);
  DimPins(const DimPins&) = delete;
  DimPins& operator=(const DimPins&) = delete;

  /// The pins, in graph walk order (main graph, then subgraphs and the bodies of local
  /// functions called where they always run, whose dims the analysis keeps only where every
  /// call agrees; If branches whose condition is not a proven constant are not read, as they
  /// may run only at some sizes): at most 8 per set of
  /// input dims, the first met (a report needs one finding and a few notes per set; a model of many
  /// copies of one equality stays linear, docs/security.md "Resource limits").
  std::span<const DimPin> pins() const { return pins_; }

  /// The node whose constant argument wrote the fixed size at dim `axis` of `v`: a
  /// ConstantOfShape, an Expand/Reshape/Tile/Resize/Split whose shape, repeats or sizes
  /// argument holds it, found back through the ops that copy a dim unchanged (elementwise
  /// ops, Cast, Identity). nullptr when the dim is not fixed, or comes from a weight, a graph
  /// input or an op that computes it.
  const Node* writer_of(ValueId v, size_t axis) const;

 private:
  const Provenance* provenance_ = nullptr;
  std::vector<DimPin> pins_;
};

}  // namespace onnxlint
