#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "export-training-mode";

// Dropout in training mode (constant true), Dropout with a runtime flag, BatchNormalization with
// running-statistics outputs.
ModelBuilder training_export() {
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {1, 2, 2, 2}).input("flag", kBool, {});
  m.graph().output("a").output("b").output("c");
  m.graph().initializer(make_tensor_bool("train", true));
  m.graph().initializer(make_tensor_f32("ratio", {}, {0.5f}));
  for (const char* p : {"s", "bias", "mean", "var"}) {
    m.graph().initializer(make_tensor_f32(p, {2}, {1.0f, 1.0f}));
  }
  m.graph().node("Dropout", {"x", "ratio", "train"}, {"a"}, "drop_const");
  m.graph().node("Dropout", {"x", "ratio", "flag"}, {"b"}, "drop_flag");
  m.graph().node("BatchNormalization", {"x", "s", "bias", "mean", "var"},
                 {"c", "running_mean", "running_var"}, "bn");
  return m;
}

TEST(ExportTrainingMode, DropoutAndBatchNormalization) {
  EXPECT_THAT(findings(kRule, training_export().bytes()),
              ElementsAre("export-training-mode main/bn", "export-training-mode main/drop_const",
                          "export-training-mode main/drop_flag"));
  auto d = diagnostics(kRule, training_export().bytes());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_THAT(d[0].message, HasSubstr("training_mode input 'train' is constant true"));
  EXPECT_THAT(d[1].message, HasSubstr("training_mode input 'flag' that is not a constant"));
  EXPECT_THAT(d[2].message, HasSubstr("outputs running statistics ('running_mean', "
                                      "'running_var')"));
  EXPECT_THAT(d[2].help, HasSubstr("model.eval()"));
}

// torch's BatchNorm with track_running_stats=False, exported from a model in eval mode: torch
// computes the batch mean and variance (ReduceMean) and passes them in. model.eval() cannot
// change that, so the finding says what the layer is, as a warning, with help that fits.
TEST(ExportTrainingMode, BatchNormWithoutRunningStatsIsNotTrainMode) {
  for (bool training_attr : {false, true}) {
    ModelBuilder m(15, 8);
    m.graph().input("x", kFloat, {2, 2, 2, 2}).output("c");
    for (const char* p : {"s", "bias"}) {
      m.graph().initializer(make_tensor_f32(p, {2}, {1.0f, 1.0f}));
    }
    m.graph().node("ReduceMean", {"x"}, {"mean"}, "mean_of_batch");
    m.graph().node("ReduceMean", {"x"}, {"var"}, "var_of_batch");
    auto& bn = m.graph().node("BatchNormalization", {"x", "s", "bias", "mean", "var"},
                              {"c", "rm", "rv"}, "bn");
    if (training_attr) attr_int(bn, "training_mode", 1);
    auto d = diagnostics(kRule, m.bytes());
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::Warning);
    EXPECT_THAT(d[0].message, HasSubstr("normalizes with statistics of the batch"));
    EXPECT_THAT(d[0].notes, ElementsAre(HasSubstr("track_running_stats=False")));
    EXPECT_THAT(d[0].help, HasSubstr("track_running_stats=True"));
    EXPECT_THAT(d[0].help, ::testing::Not(HasSubstr("model.eval()")));
  }
}

TEST(ExportTrainingMode, NearMissInferenceForms) {
  ModelBuilder m(15, 8);
  m.graph().input("x", kFloat, {1, 2, 2, 2}).output("a").output("b").output("c");
  m.graph().initializer(make_tensor_bool("eval", false));
  for (const char* p : {"s", "bias", "mean", "var"}) {
    m.graph().initializer(make_tensor_f32(p, {2}, {1.0f, 1.0f}));
  }
  m.graph().node("Dropout", {"x", "", "eval"}, {"a"}, "drop_false");
  m.graph().node("Dropout", {"x"}, {"b", "mask"}, "drop_plain");
  attr_int(
      m.graph().node("BatchNormalization", {"x", "s", "bias", "mean", "var"}, {"c", "", ""}, "bn"),
      "training_mode", 0);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// Ratio 0 keeps every element: in training mode too the node passes its input through, so the
// finding is a warning about runtimes that refuse training-mode Dropout (torchvision 0.14's Swin
// calls F.dropout(attn, p=0.0), whose default is training=True). A ratio that drops anything,
// or the default ratio 0.5 of an omitted input, stays an error.
TEST(ExportTrainingMode, RatioZeroIsAWarningAboutRuntimesNotAboutResults) {
  ModelBuilder m(17, 8);
  m.graph().input("x", kFloat, {1, 4}).input("flag", kBool, {}).input("r", kFloat, {});
  m.graph().output("a").output("b").output("c").output("d").output("e");
  m.graph().initializer(make_tensor_bool("train", true));
  m.graph().initializer(make_tensor_f32("zero", {}, {0.0f}));
  m.graph().initializer(make_tensor_f32("small", {}, {0.1f}));
  // torch's form: the ratio and the flag from Constant nodes.
  attr_tensor(m.graph().node("Constant", {}, {"zero_c"}, "zero_const"), "value",
              make_tensor_f32("", {}, {0.0f}));
  m.graph().node("Dropout", {"x", "zero", "train"}, {"a", "mask"}, "drop_zero");
  m.graph().node("Dropout", {"x", "zero_c", "flag"}, {"b"}, "drop_zero_flag");
  m.graph().node("Dropout", {"x", "small", "train"}, {"c"}, "drop_small");
  m.graph().node("Dropout", {"x", "", "train"}, {"d"}, "drop_default_ratio");
  m.graph().node("Dropout", {"x", "r", "train"}, {"e"}, "drop_ratio_not_constant");
  m.graph().output("mask");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 5u);
  std::map<std::string, const Diagnostic*> by_node;
  for (const Diagnostic& x : d) by_node[x.location.node_name] = &x;
  ASSERT_EQ(by_node.size(), 5u);
  for (const char* node : {"drop_zero", "drop_zero_flag"}) {
    const Diagnostic& w = *by_node.at(node);
    EXPECT_EQ(w.severity, Severity::Warning) << node;
    EXPECT_THAT(w.message, HasSubstr("has ratio 0 and its training_mode input"));
    EXPECT_THAT(w.message, HasSubstr("passes its input through in either mode"));
    EXPECT_THAT(w.message, HasSubstr("(TensorRT, OpenVINO) refuse it"));
    EXPECT_THAT(w.help, HasSubstr("training=self.training"));
    EXPECT_EQ(w.fix, FixSafety::Safe);
  }
  EXPECT_THAT(by_node.at("drop_zero")->message, HasSubstr("'train' is constant true"));
  EXPECT_THAT(by_node.at("drop_zero_flag")->message, HasSubstr("'flag' is not a constant"));
  for (const char* node : {"drop_small", "drop_default_ratio", "drop_ratio_not_constant"}) {
    const Diagnostic& e = *by_node.at(node);
    EXPECT_EQ(e.severity, Severity::Error) << node;
    EXPECT_THAT(e.message, HasSubstr("so it drops activations at inference")) << node;
    EXPECT_EQ(e.fix, FixSafety::Unsafe) << node;
  }
}

TEST(ExportTrainingMode, TrainingAttributeOpsAndTrainingInfo) {
  ModelBuilder m(15, 8);
  m.opset("ai.onnx.preview.training", 1);
  m.graph().input("x", kFloat, {1, 2, 2, 2}).input("r").input("t", kInt64, {}).input("g");
  m.graph().input("h").output("c").output("w");
  for (const char* p : {"s", "bias", "mean", "var"}) {
    m.graph().initializer(make_tensor_f32(p, {2}, {1.0f, 1.0f}));
  }
  attr_int(m.graph().node("BatchNormalization", {"x", "s", "bias", "mean", "var"}, {"c"}, "bn"),
           "training_mode", 1);
  m.graph().node("Adagrad", {"r", "t", "x", "g", "h"}, {"w", "h2"}, "opt",
                 "ai.onnx.preview.training");
  m.proto().add_training_info();
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("export-training-mode ", "export-training-mode main/bn",
                          "export-training-mode main/opt"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_THAT(d[0].message, HasSubstr("training_info (1 entry)"));
  EXPECT_THAT(d[1].message, HasSubstr("has training_mode=1"));
  EXPECT_THAT(d[2].message, HasSubstr("Adagrad 'opt' is a training operator"));
}

TEST(ExportTrainingMode, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = training_export();
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/bn",
                          std::string(kRule) + " " + kNestedPath + "/drop_const",
                          std::string(kRule) + " " + kNestedPath + "/drop_flag"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/bn",
                          std::string(kRule) + " " + kNestedIfPath + "/drop_const",
                          std::string(kRule) + " " + kNestedIfPath + "/drop_flag"));
}

}  // namespace
}  // namespace onnxlint::testing
