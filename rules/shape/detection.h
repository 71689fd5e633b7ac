// Object-detection post-processing as exporters trace it: the score threshold, per-class top-k
// and non-maximum suppression that torchvision's detectors run inside `forward`
// (`postprocess_detections`, the RPN's `filter_proposals`, `batched_nms`), which tracing
// unrolls once per class. Code the user did not write: the shape rules and the target rules
// recognise it here and give the fix for the construct instead of advice about tensor code.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/model.h>
#include <onnxlint/provenance.h>

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace onnxlint::rules::prov {

/// Which part of a detector a data-dependent shape belongs to.
enum class DetectionPart : uint8_t {
  None,       ///< not recognised as detection post-processing
  Output,     ///< the final boxes: threshold, top-k and NMS before the outputs (SSD, RetinaNet)
  Proposals,  ///< a two-stage detector's RPN proposals and the RoI heads that run on them
};

/// Whether `name` carries a scope that torchvision's detectors give their post-processing
/// (torch names a node after the modules it runs in: `/roi_heads/...`, `/rpn/...`), or the
/// name of one of their functions.
inline DetectionPart detection_scope(std::string_view name) {
  if (name.find("/rpn/") != std::string_view::npos ||
      name.find("/roi_heads/") != std::string_view::npos) {
    return DetectionPart::Proposals;
  }
  for (std::string_view hint :
       {"postprocess", "batched_nms", "/anchor_generator/", "filter_proposals"}) {
    if (name.find(hint) != std::string_view::npos) return DetectionPart::Output;
  }
  return DetectionPart::None;
}

/// The nodes whose results a NonMaxSuppression reads, directly or through other nodes (into
/// and out of If/Loop bodies), and the nodes holding an NMS in a body; and whether the model is
/// a two-stage detector (nodes in torchvision's `/rpn/` or `/roi_heads/` scopes). Computed once
/// per model (`ctx.get<NmsFeeders>()`), linear in the model.
class NmsFeeders {
 public:
  NmsFeeders(const Model& model, AnalysisCache& cache) {
    std::vector<const Node*> work;
    for (const Graph* g : model.all_graphs()) {
      for (const Node& n : g->nodes()) {
        if (n.in_default_domain() && n.op_type() == "NonMaxSuppression") work.push_back(&n);
        if (!two_stage_ && detection_scope(n.name()) == DetectionPart::Proposals) {
          two_stage_ = true;
        }
      }
    }
    if (work.empty()) return;
    const Provenance& p = cache.get<Provenance>();
    auto add = [&](const Node* n) {
      if (n != nullptr && nodes_.insert(n).second) work.push_back(n);
    };
    std::vector<const Node*> nms = work;
    work.clear();
    for (const Node* n : nms) {
      add(n);
      for (const Graph* g = n->graph(); g != nullptr && g->owner() != nullptr; g = g->parent()) {
        add(g->owner());  // an If branch or Loop body that runs the NMS
      }
    }
    while (!work.empty()) {
      const Node* n = work.back();
      work.pop_back();
      for (size_t k = 0; k < n->inputs().size(); ++k) {
        const ValueId v = p.input(*n, k);
        if (v != kNoValue) add(p.producer(v));
      }
      for (const Graph* body : n->subgraphs()) {  // what a body returns comes from its nodes
        for (const ValueInfo& out : body->outputs()) {
          const ValueId v = p.find(*body, out.name);
          if (v != kNoValue) add(p.producer(v));
        }
      }
    }
  }

  bool feeds(const Node& n) const { return nodes_.count(&n) != 0; }
  bool two_stage() const { return two_stage_; }

 private:
  std::unordered_set<const Node*> nodes_;
  bool two_stage_ = false;
};

/// Steps of a reason chain looked at to recognise a detector: longer than a note shows, since
/// the post-processing scope may be some way back.
inline constexpr size_t kDetectionChainSteps = 64;

/// The detector part a data-dependent shape at `n` belongs to: from the names of `n`, of its
/// graph and of the nodes along the value chain of `cause` (kNoValue: none), and from whether
/// its results reach a NonMaxSuppression. In a two-stage detector every part is the proposals'.
inline DetectionPart detection_part(const Node& n, const Provenance& p, const NmsFeeders& feeders,
                                    ValueId cause = kNoValue) {
  DetectionPart part = detection_scope(n.name());
  if (part == DetectionPart::None && n.graph() != nullptr) {
    part = detection_scope(n.graph()->path());
  }
  if (part == DetectionPart::None && cause != kNoValue) {
    for (const ReasonStep& st : p.value_reason(cause, kDetectionChainSteps)) {
      if (st.producer == nullptr) continue;
      part = detection_scope(st.producer->name());
      if (part != DetectionPart::None) break;
    }
  }
  if (part == DetectionPart::None && feeders.feeds(n)) part = DetectionPart::Output;
  if (part != DetectionPart::None && feeders.two_stage()) part = DetectionPart::Proposals;
  return part;
}

/// The fix for a data-dependent shape that a detector's post-processing makes, in exporter
/// terms: the model code is the library's, so the choices are where the post-processing runs.
/// `otherwise`: the rule's own help, for a cause that is not a detector's (DetectionPart::None).
inline std::string detection_help(DetectionPart part, std::string otherwise) {
  if (part == DetectionPart::None) return otherwise;
  if (part == DetectionPart::Proposals) {
    return "the two-stage detector's own post-processing (torchvision's RPN "
           "`filter_proposals`, `batched_nms`, `postprocess_detections`), not code to rewrite: "
           "deploy on a target "
           "that runs data-dependent shapes (ONNX Runtime CPU/CUDA, TensorRT 8.5+), or split "
           "the model: export `model.backbone` with `model.rpn.head`, filter proposals and run "
           "NMS outside (or TensorRT's EfficientNMS plugin), and export the RoI heads for a "
           "fixed number of proposals";
  }
  return "the detector's own post-processing (torchvision's `postprocess_detections`/"
         "`batched_nms`, unrolled per class by tracing), not code to rewrite: export without it "
         "(a module returning the raw boxes and logits of `model.backbone` and `model.head`; "
         "decode and NMS outside), use the runtime's NMS (ONNX `NonMaxSuppression` with a fixed "
         "`max_output_boxes_per_class`, TensorRT's EfficientNMS), or deploy on a target that "
         "runs data-dependent shapes (ONNX Runtime CPU/CUDA, TensorRT 8.5+)";
}

}  // namespace onnxlint::rules::prov
