// export-training-mode: a model exported in training mode: Dropout whose training_mode input is
// true or not constant, BatchNormalization with training_mode=1 or running-statistics outputs,
// training_info, and the training ops of ai.onnx.preview.training.
#include <fmt/format.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/value_table.h>

#include <optional>

#include "rules/advice.h"
#include "rules/categories.h"
#include "rules/opset/op_resolution.h"

namespace onnxlint::rules {
namespace {

class TrainingMode final : public RuleBase<TrainingMode> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "export-training-mode",
        .category = "export",
        .severity = Severity::Error,
        .summary =
            "Model exported in training mode (Dropout, BatchNormalization, training ops "
            "or training_info)",
        .fixable = true,
    };
    return k;
  }

  void on_model(const Model& m, RuleContext& ctx) override {
    if (m.training_info_count() == 0) return;
    Location where = ctx.at_model();
    where.byte_offset = m.training_info_offset();
    Diagnostic& d = ctx.report(
        where, fmt::format("the model carries training_info ({} entr{}): it was saved for "
                           "on-device training, not for inference",
                           m.training_info_count(), m.training_info_count() == 1 ? "y" : "ies"));
    d.help =
        "export the inference graph (model.eval(), torch.onnx.export without "
        "training-artifact generation), or strip training_info before deployment";
  }

  void on_graph(const Graph& g, RuleContext& ctx) override {
    if (!has_training_ops(ctx.model())) return;
    const auto* ops = &ctx.get<OpResolutionIndex>();
    for (const Node& n : g.nodes()) {
      const OpResolution& r = ops->of(n);
      if (r.domain == "ai.onnx.preview.training") {
        Diagnostic& d = ctx.report(
            ctx.at_node(n), fmt::format("{} is a training operator (ai.onnx.preview.training): "
                                        "the graph updates weights or computes gradients",
                                        node_label(n)));
        d.help =
            "export the inference graph of the model (model.eval()) and keep optimizer "
            "steps out of the ONNX file";
        continue;
      }
      if (!r.domain.empty()) continue;
      if (n.op_type() == "Dropout") dropout(n, ctx);
      if (n.op_type() == "BatchNormalization") batch_norm(n, ctx);
    }
  }

 private:
  // Whether the model uses an op this rule looks at: asked once per model, over its ops.
  bool has_training_ops(const Model& m) {
    if (!has_training_ops_) {
      has_training_ops_ = false;
      for (const OpKind& k : m.op_kinds()) {
        if (normalize_domain(k.domain) == "ai.onnx.preview.training" ||
            (k.domain.empty() && (k.op_type == "Dropout" || k.op_type == "BatchNormalization"))) {
          has_training_ops_ = true;
        }
      }
    }
    return *has_training_ops_;
  }
  std::optional<bool> has_training_ops_;

  static void dropout(const Node& n, RuleContext& ctx) {
    // Dropout-12 on: input 2 is training_mode (false when omitted), input 1 the ratio (0.5 when
    // omitted).
    if (n.inputs().size() < 3 || n.inputs()[2].empty()) return;
    std::string_view name = n.inputs()[2];
    const ValueTable& values = ctx.get<ValueTable>();
    std::optional<bool> value;
    if (auto flag = values.constant_ints(values.input(n, 2), 1); flag && flag->size() == 1) {
      value = (*flag)[0] != 0;
    }
    if (value && !*value) return;
    // Ratio 0 keeps every element, so the node computes its input in either mode: torch's
    // F.dropout(x, p=0.0) without training=self.training exports this way (torchvision 0.14's
    // Swin attention). Only runtimes that take inference-mode Dropout alone are affected.
    const auto ratio = values.constant_floats(values.input(n, 1), 1);
    const bool keeps_all = ratio && ratio->size() == 1 && (*ratio)[0] == 0.0;
    const std::string flag_state =
        value ? fmt::format("its training_mode input '{}' is constant true", name)
              : fmt::format("its training_mode input '{}' is not a constant", name);
    if (keeps_all) {
      Diagnostic& d = ctx.report(
          Severity::Warning, ctx.at_node(n),
          fmt::format("{} has ratio 0 and {}: it passes its input through in either mode, but "
                      "runtimes that run only inference-mode Dropout (TensorRT, OpenVINO) refuse "
                      "it",
                      node_label(n), flag_state));
      d.help =
          "pass training=self.training to F.dropout (its default is training=True, whatever "
          "model.eval() says), or use nn.Dropout; with p=0 the call can be removed";
      ctx.fix(d, FixSafety::Safe,
              "drop the training_mode input: with ratio 0 Dropout passes its input through "
              "either way")
          .set_node_input(n, 2, "");
      return;
    }
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        value ? fmt::format("{} runs in training mode: {}, so it drops activations at inference",
                            node_label(n), flag_state)
              : fmt::format("{} has a training_mode input '{}' that is not a constant: it drops "
                            "activations whenever that value is true",
                            node_label(n), name));
    d.help = std::string(advice::kEvalMode);
    // An omitted training_mode is false: Dropout passes its input through, as in eval mode.
    ctx.fix(d, FixSafety::Unsafe,
            "drop the training_mode input, so Dropout passes its input through")
        .set_node_input(n, 2, "");
  }

  // The mean and var inputs are computed by nodes of the graph (not initializers, constants or
  // graph inputs).
  static bool computed_statistics(const Node& n, RuleContext& ctx) {
    if (n.inputs().size() < 5) return false;
    const GraphInfo& info = ctx.get<GraphIndex>().info(*n.graph());
    for (size_t i : {size_t{3}, size_t{4}}) {
      if (n.inputs()[i].empty()) return false;
      const ValueTable& values = ctx.get<ValueTable>();
      if (values.constant(values.input(n, i))) return false;
      const ValueDef* def = info.local(n.inputs()[i]);
      if (def == nullptr || def->kind() != ValueDef::Kind::Node) return false;
    }
    return true;
  }

  static void batch_norm(const Node& n, RuleContext& ctx) {
    std::vector<std::string> stats;
    for (size_t i = 1; i < n.outputs().size(); ++i) {
      if (!n.outputs()[i].empty()) stats.push_back(fmt::format("'{}'", n.outputs()[i]));
    }
    const bool attr = n.attr_int("training_mode").value_or(0) != 0;
    if (stats.empty() && !attr) return;
    std::string list;
    for (const std::string& s : stats) list += (list.empty() ? "" : ", ") + s;
    if (computed_statistics(n, ctx)) {
      // torch's BatchNorm with track_running_stats=False: it has no running statistics, so it
      // normalizes with batch statistics in eval mode too (torch computes them with ReduceMean
      // and passes them as mean/var). model.eval() changes nothing; the model does what the
      // module does, so this is a design choice to confirm, not an export mistake.
      Diagnostic& d = ctx.report(
          Severity::Warning, ctx.at_node(n),
          fmt::format("{} normalizes with statistics of the batch it is given: its mean and "
                      "variance inputs ('{}', '{}') are computed in the graph, not running "
                      "statistics",
                      node_label(n), n.inputs()[3], n.inputs()[4]));
      d.notes.push_back(
          "this is how torch exports BatchNorm built with track_running_stats=False, in eval "
          "mode too: each result depends on the other samples in the batch");
      d.help =
          "if per-sample results are wanted, build the layer with track_running_stats=True (and "
          "train its running statistics) or use InstanceNorm/GroupNorm/LayerNorm; if batch "
          "statistics are intended, suppress this finding for the node";
      return;
    }
    Diagnostic& d = ctx.report(
        ctx.at_node(n),
        attr ? fmt::format("{} has training_mode=1: it normalizes with batch statistics and "
                           "updates running statistics at inference",
                           node_label(n))
             : fmt::format("{} outputs running statistics ({}): it was exported in training "
                           "mode and normalizes with batch statistics",
                           node_label(n), list));
    if (attr && !stats.empty()) {
      d.notes.push_back(fmt::format("it also outputs running statistics ({})", list));
    }
    d.help = std::string(advice::kEvalMode);
    // The inference form: training_mode=0 and Y alone, normalizing with the running statistics
    // (mean, var inputs) as model.eval() exports it. Not when a node reads the statistics.
    const GraphInfo& info = ctx.get<GraphIndex>().info(*n.graph());
    for (size_t i = 1; i < n.outputs().size(); ++i) {
      if (!n.outputs()[i].empty() && !info.uses_of(n.outputs()[i]).empty()) return;
    }
    FixBuilder fix = ctx.fix(d, FixSafety::Unsafe,
                             "normalize with the running statistics, as model.eval() exports it "
                             "(training_mode=0, the statistics outputs removed)");
    if (attr) fix.set_int_attribute(n, "training_mode", 0);
    if (n.outputs().size() > 1) fix.truncate_outputs(n, 1);
  }
};

}  // namespace

void add_export_training_mode(RuleRegistry& registry) { registry.add<TrainingMode>(); }

}  // namespace onnxlint::rules
