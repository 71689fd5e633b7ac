#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/verdicts.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "target-unsupported-type";

LintOptions for_targets(std::vector<std::string> targets) {
  LintOptions o;
  o.targets = std::move(targets);
  return o;
}

// The target summary (section "targets") with only target-unsupported-op selected: the verdict
// applies the type check whether or not target-unsupported-type runs. `text`: its lines.
nlohmann::json summary(const std::string& bytes, const char* target,
                       std::vector<std::string>* text = nullptr) {
  LintOptions o = for_targets({target});
  o.select = {"target-unsupported-op"};
  Linter linter(builtin_registry(), o);
  FileReport r = linter.lint_bytes("test.onnx", bytes);
  for (const ReportSection& s : r.sections) {
    if (s.name != "targets") continue;
    if (text != nullptr) {
      text->clear();  // the verdict lines the text outputs print (verdicts.h)
      for (const TargetVerdict& v : target_verdicts(r)) text->push_back(verdict_line(v));
    }
    return s.data.at(0);
  }
  return nullptr;
}

// Pad on ORT CUDA: its kernel's T is bool/double/float/float16. `pads` is a fixed int64 input
// and must never be checked against T.
ModelBuilder pad(int32_t data_type) {
  ModelBuilder m(17);
  m.graph().input("x", data_type, {1, 4}).output("y", data_type, {1, 6});
  m.graph().initializer(make_tensor_i64("pads", {4}, {0, 1, 0, 1}));
  m.graph().node("Pad", {"x", "pads"}, {"y"}, "pad");
  return m;
}

TEST(TargetUnsupportedType, OrtKernelTypeParameter) {
  auto diags = diagnostics(kRule, pad(kInt64).bytes(), for_targets({"ort-cuda"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].location.node_name, "pad");
  EXPECT_EQ(diags[0].target, "onnxruntime-cuda");
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  EXPECT_EQ(
      diags[0].message,
      "pad (Pad) uses 'x', 'y' as int64, which ONNX Runtime CUDA EP (main, 1.25 dev) does not "
      "support for Pad-13");
  EXPECT_EQ(diags[0].key, "T:int64");
  ASSERT_EQ(diags[0].notes.size(), 1u);
  EXPECT_EQ(diags[0].notes[0],
            "its Pad kernel for since-version 13-17 accepts T = bool, double, float, float16");
  // The CUDA EP hands the node to the CPU: a warning, and the node is not the EP's.
  const nlohmann::json s = summary(pad(kInt64).bytes(), "ort-cuda");
  EXPECT_EQ(s["supported_nodes"], 0);
  EXPECT_EQ(s["unsupported_nodes"], 1);
  EXPECT_EQ(s["unsupported_type_nodes"], 1);
  EXPECT_EQ(s["unsupported_ops"], nlohmann::json::array());
  EXPECT_EQ(summary(pad(kFloat).bytes(), "ort-cuda")["verdict"], "ok");
}

TEST(TargetUnsupportedType, NearMissSupportedTypeAndFixedTypeInputs) {
  EXPECT_THAT(findings(kRule, pad(kFloat).bytes(), for_targets({"ort-cuda"})), IsEmpty());
  // ORT CPU's Pad takes int64.
  EXPECT_THAT(findings(kRule, pad(kInt64).bytes(), for_targets({"ort-cpu"})), IsEmpty());
  // No target, or a target without type data: nothing.
  EXPECT_THAT(findings(kRule, pad(kInt64).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, pad(kInt64).bytes(), for_targets({"nnapi", "openvino"})), IsEmpty());
}

ModelBuilder nonzero(int32_t data_type) {
  ModelBuilder m(17);
  m.graph().input("x", data_type, {4}).output("y", kInt64, {1, "n"});
  m.graph().node("NonZero", {"x"}, {"y"}, "nz");
  return m;
}

// TensorRT lists one type set per op: the types of its main data input.
TEST(TargetUnsupportedType, TensorRtMainInputTypes) {
  auto diags = diagnostics(kRule, nonzero(kInt32).bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(
      diags[0].message,
      "nz (NonZero) reads 'x' as int32, which TensorRT 10.15 does not support for NonZero-13");
  EXPECT_EQ(diags[0].notes[0], "its NonZero accepts float, float16");
  // TensorRT's parser fails on the node: an error, and the verdict is not "ok".
  EXPECT_EQ(diags[0].severity, Severity::Error);
  std::vector<std::string> text;
  const nlohmann::json s = summary(nonzero(kInt32).bytes(), "tensorrt", &text);
  EXPECT_EQ(s["verdict"], "unsupported");
  EXPECT_EQ(s["unsupported_type_nodes"], 1);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text[0],
            "tensorrt (TensorRT 10.15): unsupported: 0/1 nodes supported, 0 supported partitions; "
            "1 node with unsupported element types");
  EXPECT_EQ(summary(nonzero(kFloat16).bytes(), "tensorrt")["verdict"], "ok");
  EXPECT_THAT(findings(kRule, nonzero(kFloat16).bytes(), for_targets({"tensorrt"})), IsEmpty());
  // The parser casts DOUBLE down to FLOAT (table global note).
  EXPECT_THAT(findings(kRule, nonzero(kDouble).bytes(), for_targets({"tensorrt"})), IsEmpty());
}

// Element types known from Cast's `to` and from Constant values.
TEST(TargetUnsupportedType, TypesFromCastAndConstant) {
  ModelBuilder m(17);
  m.graph()
      .input("x", kFloat, {4})
      .output("y", kUint8, {4})
      .output("z", onnx::TensorProto::INT16, {4});
  attr_int(m.graph().node("Cast", {"x"}, {"c"}, "cast"), "to", kUint8);
  m.graph().node("Relu", {"c"}, {"y"}, "relu_u8");
  attr_tensor(m.graph().node("Constant", {}, {"k"}, "const"), "value",
              make_tensor_raw("k", onnx::TensorProto::INT16, {4}, 8));
  m.graph().node("Neg", {"x"}, {"t"}, "neg");  // t: type not stated anywhere
  m.graph().node("Max", {"t", "k"}, {"z"}, "max_i16");
  // ORT CPU's Relu-14 kernel: T = double, float, int32, int8; Max-13 has no int16.
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cpu"})),
              ElementsAre("target-unsupported-type main/max_i16 @onnxruntime-cpu",
                          "target-unsupported-type main/relu_u8 @onnxruntime-cpu"));
}

// ORT's CPU EP runs a float16 node that has no float16 kernel on the float kernel, with Casts
// inserted around it (InsertCastTransformer); ORT 1.30 loads such models (tests/ort). Where the
// kernel has no float either, float16 stays unsupported; other EPs are unaffected.
TEST(TargetUnsupportedType, OrtCpuRunsFloat16OnItsFloatKernel) {
  auto add = [](int32_t type) {
    ModelBuilder m(17);
    m.graph().input("x", type, {4}).output("y", type, {4});
    m.graph().node("Add", {"x", "x"}, {"y"}, "add");  // Add-14: float, no float16
    return m;
  };
  EXPECT_THAT(findings(kRule, add(kFloat16).bytes(), for_targets({"ort-cpu"})), IsEmpty());
  EXPECT_EQ(summary(add(kFloat16).bytes(), "ort-cpu")["verdict"], "ok");
  // bfloat16 is not cast.
  EXPECT_THAT(findings(kRule, add(onnx::TensorProto::BFLOAT16).bytes(), for_targets({"ort-cpu"})),
              ElementsAre("target-unsupported-type main/add @onnxruntime-cpu"));
  // BitwiseNot-18: integers only, so neither float16 nor float.
  ModelBuilder n(18);
  n.graph().input("x", kFloat16, {4}).output("y", kFloat16, {4});
  n.graph().node("BitwiseNot", {"x"}, {"y"}, "not");
  EXPECT_THAT(findings(kRule, n.bytes(), for_targets({"ort-cpu"})),
              ElementsAre("target-unsupported-type main/not @onnxruntime-cpu"));
  // ORT CUDA's Pad kernel (T = bool, double, float, float16) is not concerned; its int64 still
  // is not accepted.
  EXPECT_THAT(findings(kRule, pad(kFloat16).bytes(), for_targets({"ort-cuda"})), IsEmpty());
}

// Values whose type nothing proves are not guessed; a declaration adds what inference cannot
// know (a custom op's output type).
TEST(TargetUnsupportedType, UnknownTypesAreSilent) {
  ModelBuilder m(17);
  m.opset("custom.domain", 1);
  m.graph().input("x", kFloat, {4}).output("y", kFloat, {4});
  m.graph().node("Mystery", {"x"}, {"t"}, "mystery", "custom.domain");
  m.graph().node("Neg", {"t"}, {"u"}, "neg");
  m.graph().node("Relu", {"u"}, {"y"}, "relu");
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cpu", "tensorrt"})), IsEmpty());
  // value_info makes it known, and inference carries it on (Neg's output, Relu's input).
  m.graph().value_info("t", kUint8, {4});
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cpu"})),
              ElementsAre("target-unsupported-type main/neg @onnxruntime-cpu",
                          "target-unsupported-type main/relu @onnxruntime-cpu"));
}

// A declaration never overrides what inference proves: the verdict is the same with and
// without value_info (here a stale one; graph-stale-value-info reports it).
TEST(TargetUnsupportedType, DeclarationsDoNotOverrideInference) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {4}).output("y", kFloat, {4});
  m.graph().node("Neg", {"x"}, {"t"}, "neg");
  m.graph().node("Relu", {"t"}, {"y"}, "relu");
  m.graph().value_info("t", kUint8, {4});
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cpu", "tensorrt"})), IsEmpty());
  // A raw export's bool NonZero (no value_info at all) is known from Greater's schema.
  ModelBuilder nz(13);
  nz.graph().input("x", kFloat, {4}).output("y", kInt64, {1, -1});
  nz.graph().node("Greater", {"x", "x"}, {"mask"}, "greater");
  nz.graph().node("NonZero", {"mask"}, {"y"}, "nonzero");
  EXPECT_THAT(findings(kRule, nz.bytes(), for_targets({"tensorrt"})),
              ElementsAre("target-unsupported-type main/nonzero @tensorrt"));
}

// Unsupported ops are target-unsupported-op's business.
TEST(TargetUnsupportedType, UnsupportedOpsAreNotTypeChecked) {
  ModelBuilder m(17);
  m.graph().input("x", kInt64, {4}).output("y", kInt64, {4});
  m.graph().node("Acos", {"x"}, {"y"}, "acos");
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cuda"})), IsEmpty());
}

TEST(TargetUnsupportedType, NestedInLoopBody) {
  // The body reads the outer int64 input x.
  EXPECT_THAT(findings(kRule, nest_in_loop(pad(kInt64).proto()), for_targets({"ort-cuda"})),
              ElementsAre(std::string("target-unsupported-type ") + kNestedPath +
                          "/pad @onnxruntime-cuda"));
  EXPECT_THAT(findings(kRule, nest_in_if(pad(kInt64).proto()), for_targets({"ort-cuda"})),
              ElementsAre(std::string("target-unsupported-type ") + kNestedIfPath +
                          "/pad @onnxruntime-cuda"));
}

}  // namespace
}  // namespace onnxlint::testing
