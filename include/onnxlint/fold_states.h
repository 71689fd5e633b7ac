// Fold states: whether a constant-folding pass (the runtime's own, or onnx-simplifier's) turns
// each value into a weight. An analysis of its own, built on the value table and the provenance
// analysis, so that neither of those two asks the other for anything.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/export.h>
#include <onnxlint/model.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// Computed from initializers that no graph input overrides, Constant nodes, deterministic
/// standard ops over those, and Shape/Size of a value whose shape is static.
enum class FoldState : uint8_t {
  Constant,
  /// Depends on a graph input, a subgraph input (loop counter, carried value), a random op,
  /// a subgraph result or a custom op.
  Runtime,
  /// Depends on a model-local function's formal input: constant or not per call site (ORT
  /// inlines local functions before it assigns nodes).
  Unknown,
};

class FoldStates {
 public:
  FoldStates(const Model& model, AnalysisCache& cache);
  FoldStates(const FoldStates&) = delete;
  FoldStates& operator=(const FoldStates&) = delete;

  /// kNoValue and undefined names are Runtime.
  FoldState state(ValueId v) const {
    return v < states_.size() ? static_cast<FoldState>(states_[v]) : FoldState::Runtime;
  }
  /// The state of output `k` of a node, and of what a name refers to in a graph.
  FoldState output_state(const Node& n, size_t k) const { return state(values_.output(n, k)); }
  FoldState state_of(const Graph& g, std::string_view name) const {
    return state(values_.find(g, name));
  }

 private:
  const ValueTable& values_;
  std::vector<uint8_t> states_;  // FoldState per value id
};

}  // namespace onnxlint
