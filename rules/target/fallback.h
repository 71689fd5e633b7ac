// The per-target fallback estimate that target-unsupported-op adds to the report (section
// "targets"): node counts, unsupported op types, supported partitions and a verdict.
#pragma once

#include <onnxlint/graph_index.h>
#include <onnxlint/model.h>
#include <onnxlint/targets.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace onnxlint::rules::target {

/// How a node takes part in the partitioning.
enum class NodeState : uint8_t {
  Supported,
  Unsupported,
  /// Not in the graph the runtime partitions (folded into an initializer at load time).
  Removed,
};

/// Number of groups of supported nodes in `g` that a runtime would take as separate
/// partitions, counted the way ONNX Runtime's mobile usability checker
/// (tools/python/util/mobile_helpers/usability_checker.py, check_partitioning) replicates
/// partitioning_utils.cc CreateSupportedPartitionNodeGroups: a topological walk that grows one
/// group of supported nodes at a time; an unsupported node that consumes the current group's
/// output is deferred until the group is closed, so every supported node it feeds starts a new
/// group. `state[i]` says whether node i of `g` can run on the target. Edges are
/// producer -> consumer links inside `g`, including values a node's subgraphs read.
size_t count_supported_partitions(const Graph& g, const GraphIndex& index,
                                  const std::vector<NodeState>& state);

struct FallbackEstimate {
  const TargetInfo* target = nullptr;
  /// Operator nodes (all graphs; calls to local functions not counted):
  /// nodes = supported + unsupported + folded.
  uint64_t nodes = 0;
  uint64_t supported = 0;  // the target runs them (expanded ones included)
  uint64_t unsupported = 0;
  /// Counted in `unsupported`: nodes with dynamic input shapes on a target that requires static
  /// shapes (their op is supported).
  uint64_t dynamic_shape_nodes = 0;
  /// Counted in `unsupported`: nodes whose op is supported but not with their element types
  /// (target-unsupported-type's check).
  uint64_t type_nodes = 0;
  /// Counted in `unsupported`: nodes whose op and types are supported but that break a
  /// restriction the target refuses them for (target-restriction's check).
  uint64_t restriction_nodes = 0;
  uint64_t folded = 0;
  /// Counted in `supported`: expanded into their ONNX function bodies (ops not checked).
  uint64_t expanded = 0;  // counted in `supported`: folded into initializers by the runtime
  std::map<std::string, uint64_t> unsupported_ops;  // op label ("Conv", "com.microsoft:X")
  uint64_t partitions = 0;                          // supported partitions of the main graph
  uint64_t main_nodes = 0;                          // nodes of the main graph
  bool opset_out_of_range = false;                  // an imported opset outside the bounds
  bool ir_out_of_range = false;                     // ir_version above the target's maximum

  /// "ok": every node supported and the model's opsets/IR accepted.
  /// "partial": some nodes unsupported, but the target runs them elsewhere (cpu_fallback) and
  ///   takes at least one node.
  /// "unsupported": the opset/IR is out of range, or no node is supported, or some node is
  ///   unsupported on a target without fallback (the conversion/session fails).
  std::string verdict() const;
  /// The "targets" report section's entry (verdicts.h reads it; verdict_line renders it).
  nlohmann::json to_json() const;
};

}  // namespace onnxlint::rules::target
