// Control flow: the analyses follow the subgraphs (Loop trip count, Scan axes, If branches,
// SequenceMap's body). Their outputs' types come from the bodies' outputs: the inference pass
// types the bodies' formal inputs from the node's inputs and walks into them
// (lib/analysis/element_types.cc), so the entries need no type rule.
#include "analysis/ops/registry.h"

namespace onnxlint::ops {
namespace {

constexpr OpEntry kOps[] = {
    onnx("If", 1).control_flow(),
    onnx("Loop", 1).control_flow(),
    onnx("Scan", 8).control_flow(),
    onnx("SequenceMap", 17).control_flow(),
};

}  // namespace

std::span<const OpEntry> control_flow_ops() { return kOps; }

}  // namespace onnxlint::ops
