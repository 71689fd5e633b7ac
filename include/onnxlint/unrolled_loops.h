// Unrolled loops: the trace of a Python loop over a tensor axis. Tracing runs
// `for i in range(x.shape[1]): ... x[:, i] ...` once per position of the example input and
// records one Gather (or one-wide Slice) per position, each reading a single constant position
// of the same axis of the same tensor; the pieces usually meet again (Concat, Stack, an Add
// chain). This analysis finds those runs once for every rule: `export-unrolled-loop` reports a
// run over an axis of static size, `export-baked-shape` one over an axis the model declares
// dynamic (the trace froze the loop to the example's size).
//
// Unpacking a shape vector (`b, s, d = x.shape`) reads a Shape output position by position and
// is not a run.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>
#include <onnxlint/provenance.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// One Gather/Slice reading a single constant position of an axis.
struct UnrolledPiece {
  const Node* node = nullptr;
  int64_t index = 0;           ///< the position as written (may be negative: from the end)
  std::optional<int64_t> end;  ///< Slice: its end as written (x[:, i:i+1], x[:, -1:])
};

/// The pieces of one (tensor, axis) in one graph.
struct UnrolledRun {
  const Graph* graph = nullptr;
  ValueId data = kNoValue;            ///< the tensor read piece by piece
  int64_t axis = 0;                   ///< >= 0 (a negative axis is resolved with the rank)
  std::vector<UnrolledPiece> pieces;  ///< in node order
  /// The first node (in topological order) whose inputs carry two or more pieces (directly or
  /// through other ops): where the iterations are combined again; nullptr when never.
  const Node* combined = nullptr;
  /// The positions 0..k-1 read by pieces of width one (Gather, or Slice with end = start + 1,
  /// without normalising negative positions): k when every one of them is read and no other
  /// non-negative position is, else 0. Positions past 63 make it 0.
  int64_t leading_length = 0;
};

/// A Slice of one axis, step 1, whose start, end and axis are known for every run (attributes
/// before opset 10, inputs from it), as written: a negative axis or position is not resolved.
struct AxisSlice {
  int64_t axis = 0;
  int64_t start = 0;
  int64_t end = 0;
};
/// nullopt for any other node, or when an argument is not known or not of one element.
std::optional<AxisSlice> single_axis_slice(const Provenance& p, const Node& n);

class UnrolledLoops {
 public:
  UnrolledLoops(const Model& model, AnalysisCache& cache);
  UnrolledLoops(const UnrolledLoops&) = delete;
  UnrolledLoops& operator=(const UnrolledLoops&) = delete;

  /// Every (tensor, axis) read at two or more single constant positions, graph by graph.
  std::span<const UnrolledRun> runs() const { return runs_; }
  /// True for a value computed from two or more pieces of one run: a loop's combined result,
  /// whose size is the loop's length rather than a size frozen on its own.
  bool combines_pieces(ValueId v) const { return combined_values_.count(v) > 0; }

 private:
  std::vector<UnrolledRun> runs_;
  std::unordered_set<ValueId> combined_values_;
};

}  // namespace onnxlint
