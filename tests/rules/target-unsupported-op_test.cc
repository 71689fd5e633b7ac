// target-unsupported-op: per target (all 15), version semantics, nesting, local functions,
// folding/inlining on ONNX Runtime, and the fallback estimate (report section "targets").
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/linter.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>

#include <set>

#include "rules/target/fallback.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::Contains;

using ::testing::Not;

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "target-unsupported-op";

LintOptions for_targets(std::vector<std::string> targets) {
  LintOptions o;
  o.targets = std::move(targets);
  return o;
}

// The report section of target-unsupported-op for `bytes`.
nlohmann::json section(const std::string& bytes, std::vector<std::string> targets,
                       std::vector<std::string>* text = nullptr) {
  LintOptions o = for_targets(std::move(targets));
  o.select = {kRule};
  Linter linter(builtin_registry(), o);
  FileReport r = linter.lint_bytes("test.onnx", bytes);
  for (const ReportSection& s : r.sections) {
    if (s.name == "targets") {
      if (text != nullptr) {
        text->clear();  // the verdict lines the text outputs print (verdicts.h)
        for (const TargetVerdict& v : target_verdicts(r)) text->push_back(verdict_line(v));
      }
      return s.data;
    }
  }
  return nullptr;
}

// One node `op` reading graph input x.
ModelBuilder single(const std::string& op, int64_t opset, const std::string& domain = "",
                    int64_t domain_opset = 1) {
  ModelBuilder m(opset);
  if (!domain.empty()) m.opset(domain, domain_opset);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node(op, {"x"}, {"y"}, "n", domain);
  return m;
}

struct TargetCase {
  const char* target;
  const char* op;  // unsupported on the target
  int64_t opset;
  const char* domain;
  int64_t domain_opset;
  const char* why;  // expected end of the message
};

// Every target: Relu at opset 17 runs; `op` does not, for the reason given.
const TargetCase kCases[] = {
    {"onnx-mlir-cpu", "Det", 17, "", 0, "its operator documentation lists Det as not supported"},
    {"onnx-mlir-nnpa", "Abs", 17, "", 0, "Abs is not in its operator list"},
    {"onnx2tf", "LabelEncoder", 17, "ai.onnx.ml", 2, "it supports no ai.onnx.ml operators"},
    {"onnx2tf-flatbuffer-direct", "Multinomial", 17, "", 0,
     "Multinomial is not in its operator list"},
    {"onnxruntime-coreml-mlprogram", "Abs", 17, "", 0, "Abs is not in its operator list"},
    {"onnxruntime-coreml-neuralnetwork", "Abs", 17, "", 0, "Abs is not in its operator list"},
    {"onnxruntime-cpu", "Upsample", 10, "", 0,
     "it has Upsample kernels only for since-version 7-9, and at ai.onnx opset 10 the node is "
     "Upsample-10"},
    {"onnxruntime-cuda", "Acos", 17, "", 0, "Acos is not in its operator list"},
    {"onnxruntime-dml", "Det", 17, "", 0, "Det is not in its operator list"},
    {"onnxruntime-nnapi", "Acos", 17, "", 0, "Acos is not in its operator list"},
    {"onnxruntime-qnn", "Acosh", 17, "", 0, "Acosh is not in its operator list"},
    {"onnxruntime-webgpu-jsep", "And", 17, "", 0, "And is not in its operator list"},
    {"onnxruntime-webnn", "Acos", 17, "", 0, "Acos is not in its operator list"},
    {"openvino", "Det", 17, "", 0, "its operator documentation lists Det as not supported"},
    {"tensorrt", "BitShift", 17, "", 0,
     "its operator documentation lists BitShift as not supported"},
};

// One case per runtime (the newest table of each); tests/tables/target_versions_test.cc has
// the older releases.
TEST(TargetUnsupportedOp, CasesCoverEveryTarget) {
  std::set<std::string_view> ids;
  for (const TargetCase& c : kCases) ids.insert(c.target);
  size_t families = 0;
  for (const TargetInfo& t : all_targets()) {
    if (t.id != t.family) continue;
    ++families;
    EXPECT_TRUE(ids.count(t.id)) << t.id;
  }
  EXPECT_EQ(ids.size(), families);
}

TEST(TargetUnsupportedOp, EveryTargetRunsRelu) {
  for (const TargetCase& c : kCases) {
    ModelBuilder m = single("Relu", 17);
    EXPECT_THAT(findings(kRule, m.bytes(), for_targets({c.target})), IsEmpty()) << c.target;
    nlohmann::json s = section(m.bytes(), {c.target});
    ASSERT_EQ(s.size(), 1u) << c.target;
    EXPECT_EQ(s[0]["verdict"], "ok") << c.target;
    EXPECT_EQ(s[0]["supported_nodes"], 1) << c.target;
  }
}

TEST(TargetUnsupportedOp, EveryTargetRejectsItsUnsupportedOp) {
  for (const TargetCase& c : kCases) {
    ModelBuilder m = single(c.op, c.opset, c.domain, c.domain_opset);
    EXPECT_THAT(findings(kRule, m.bytes(), for_targets({c.target})),
                ElementsAre(std::string(kRule) + " main/n @" + c.target))
        << c.target;
    auto diags = diagnostics(kRule, m.bytes(), for_targets({c.target}));
    ASSERT_EQ(diags.size(), 1u);
    const TargetInfo* t = find_target(c.target);
    // Severity by consequence: a runtime that runs the node elsewhere gets a warning, one
    // whose parser or session fails an error.
    EXPECT_EQ(diags[0].severity, t->cpu_fallback ? Severity::Warning : Severity::Error) << c.target;
    EXPECT_EQ(diags[0].target, c.target);
    EXPECT_THAT(diags[0].message, HasSubstr(std::string(t->display_name)));
    EXPECT_THAT(diags[0].message, HasSubstr(std::string(": ") + c.why)) << diags[0].message;
    EXPECT_FALSE(diags[0].help.empty());
    nlohmann::json s = section(m.bytes(), {c.target});
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0]["unsupported_nodes"], 1) << c.target;
    // A single unsupported node: nothing runs on the target.
    EXPECT_EQ(s[0]["verdict"], "unsupported") << c.target;
    EXPECT_EQ(s[0]["partitions"], 0) << c.target;
  }
}

TEST(TargetUnsupportedOp, AliasesResolveAndSeveralTargetsReportTogether) {
  // Bernoulli: listed unsupported by TensorRT and OpenVINO; ORT CPU expands its function body.
  ModelBuilder m = single("Bernoulli", 17);
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"trt", "ort-cpu", "openvino"})),
              ElementsAre("target-unsupported-op main/n @openvino",
                          "target-unsupported-op main/n @tensorrt"));
}

TEST(TargetUnsupportedOp, SilentWithoutTargets) {
  ModelBuilder m = single("BitShift", 17);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  EXPECT_TRUE(section(m.bytes(), {}).is_null());
}

TEST(TargetUnsupportedOp, CustomDomainNeedsAPlugin) {
  ModelBuilder m = single("MyOp", 17, "com.example", 1);
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_THAT(diags[0].message, HasSubstr("it has no built-in operators in domain 'com.example'"));
  EXPECT_THAT(diags[0].help, HasSubstr("plugin"));
}

// ORT tables: the since-version the node resolves to at the model's opset must have a kernel.
TEST(TargetUnsupportedOp, OpSinceVersionSemantics) {
  // ORT CPU has Upsample kernels for since-versions 7-9 only.
  EXPECT_THAT(findings(kRule, single("Upsample", 9).bytes(), for_targets({"ort-cpu"})), IsEmpty());
  EXPECT_THAT(findings(kRule, single("Upsample", 10).bytes(), for_targets({"ort-cpu"})),
              ElementsAre("target-unsupported-op main/n @onnxruntime-cpu"));
  // Opset 11 still resolves to Upsample-10: the since-version, not the opset, decides.
  auto diags = diagnostics(kRule, single("Upsample", 11).bytes(), for_targets({"ort-cpu"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_THAT(diags[0].message, HasSubstr("at ai.onnx opset 11 the node is Upsample-10"));
}

// TensorRT / OpenVINO / onnx-mlir tables: the model's opset itself must be in the op's range.
TEST(TargetUnsupportedOp, ModelOpsetSemantics) {
  // onnx-mlir CPU supports ArgMin for model opsets 13-22 only (ArgMin-13 is its schema at both
  // 13 and 17; at 12 the model imports an opset the op's row does not cover).
  EXPECT_THAT(findings(kRule, single("ArgMin", 13).bytes(), for_targets({"onnx-mlir"})), IsEmpty());
  EXPECT_THAT(findings(kRule, single("ArgMin", 17).bytes(), for_targets({"onnx-mlir"})), IsEmpty());
  auto diags = diagnostics(kRule, single("ArgMin", 12).bytes(), for_targets({"onnx-mlir"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_THAT(diags[0].message, HasSubstr("it supports ArgMin only at opset 13-22, and the model "
                                          "imports ai.onnx 12"));
  EXPECT_THAT(diags[0].help, HasSubstr("opset_version"));
}

// An opset outside the target-wide bounds is target-opset-range's single finding; the estimate
// still counts the nodes as unsupported.
TEST(TargetUnsupportedOp, TargetWideOpsetBoundIsLeftToOpsetRange) {
  ModelBuilder m = single("Relu", 25);
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"tensorrt"})), IsEmpty());
  nlohmann::json s = section(m.bytes(), {"tensorrt"});
  EXPECT_EQ(s[0]["verdict"], "unsupported");
  EXPECT_EQ(s[0]["opset_supported"], false);
  EXPECT_EQ(s[0]["unsupported_nodes"], 1);
  // An op missing from the table is still reported.
  EXPECT_THAT(findings(kRule, single("BitShift", 25).bytes(), for_targets({"tensorrt"})),
              ElementsAre("target-unsupported-op main/n @tensorrt"));
}

TEST(TargetUnsupportedOp, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = single("BitShift", 17);
  // TensorRT runs Loop, If and Identity, so only the nested node is reported.
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto()), for_targets({"tensorrt"})),
              ElementsAre(std::string("target-unsupported-op ") + kNestedPath + "/n @tensorrt"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto()), for_targets({"tensorrt"})),
              ElementsAre(std::string("target-unsupported-op ") + kNestedIfPath + "/n @tensorrt"));
  // NNAPI has no Loop: the Loop node is reported too, and the Acos in its body.
  ModelBuilder a = single("Acos", 17);
  EXPECT_THAT(
      findings(kRule, nest_in_loop(a.proto()), for_targets({"nnapi"})),
      ElementsAre("target-unsupported-op main/nest @onnxruntime-nnapi",
                  std::string("target-unsupported-op ") + kNestedPath + "/n @onnxruntime-nnapi"));
}

// A model-local function: the calling node is not an op of any runtime; its body's nodes are
// checked with the function's own opset imports.
ModelBuilder with_function(const std::string& body_op, int64_t function_opset) {
  ModelBuilder m(17);
  m.opset("local", 1);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node("Fn", {"x"}, {"y"}, "call", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Fn");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(function_opset);
  auto* n = f->add_node();
  n->set_op_type(body_op);
  n->set_name("inner");
  n->add_input("a");
  n->add_output("b");
  return m;
}

TEST(TargetUnsupportedOp, LocalFunctionBodyIsCheckedNotTheCall) {
  EXPECT_THAT(findings(kRule, with_function("Relu", 17).bytes(), for_targets({"tensorrt"})),
              IsEmpty());
  EXPECT_THAT(findings(kRule, with_function("BitShift", 17).bytes(), for_targets({"tensorrt"})),
              ElementsAre("target-unsupported-op fn:local::Fn/inner @tensorrt"));
  // The body uses the function's opset import (10), not the model's (17).
  EXPECT_THAT(findings(kRule, with_function("Upsample", 10).bytes(), for_targets({"ort-cpu"})),
              ElementsAre("target-unsupported-op fn:local::Fn/inner @onnxruntime-cpu"));
  EXPECT_THAT(findings(kRule, with_function("Upsample", 9).bytes(), for_targets({"ort-cpu"})),
              IsEmpty());
  // The call node's partition follows its body.
  nlohmann::json s = section(with_function("BitShift", 17).bytes(), {"tensorrt"});
  EXPECT_EQ(s[0]["nodes"], 1);  // the body's node; the call is not counted
  EXPECT_EQ(s[0]["partitions"], 0);
}

// ONNX Runtime loads Constant nodes as initializers and folds constant-only nodes; the NNAPI
// table lists neither Constant nor Shape.
TEST(TargetUnsupportedOp, OnnxRuntimeFoldsConstants) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {2, 4}).output("y", kFloat, {8});
  m.graph().constant_i64("c", {8}, {1});
  m.graph().node("Shape", {"c"}, {"s"}, "shape_of_const");
  m.graph().node("Reshape", {"x", "c"}, {"y"}, "reshape");
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"nnapi"})), IsEmpty());
  nlohmann::json s = section(m.bytes(), {"nnapi"});
  EXPECT_EQ(s[0]["folded_nodes"], 2);     // Constant and Shape
  EXPECT_EQ(s[0]["supported_nodes"], 1);  // Reshape
  EXPECT_EQ(s[0]["verdict"], "ok");
  // A Shape of a runtime value is not folded.
  ModelBuilder d(17);
  d.graph().input("x", kFloat, {"n", 4}).output("y", kInt64, {2});
  d.graph().node("Shape", {"x"}, {"y"}, "shape_of_input");
  EXPECT_THAT(findings(kRule, d.bytes(), for_targets({"nnapi"})),
              ElementsAre("target-unsupported-op main/shape_of_input @onnxruntime-nnapi"));
  // TensorRT does not fold: its table lists Constant itself.
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"tensorrt"})), IsEmpty());
  EXPECT_EQ(section(m.bytes(), {"tensorrt"})[0]["folded_nodes"], 0);
}

// ORT inlines a node without a kernel whose schema has a function body (HardSwish-14 on ORT
// CPU); other runtimes report it.
TEST(TargetUnsupportedOp, OnnxRuntimeInlinesFunctionOps) {
  ModelBuilder m = single("HardSwish", 17);
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cpu"})), IsEmpty());
  EXPECT_EQ(section(m.bytes(), {"ort-cpu"})[0]["expanded_nodes"], 1);
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"nnpa"})),
              ElementsAre("target-unsupported-op main/n @onnx-mlir-nnpa"));
}

// NonMaxSuppression is registered by ORT CPU but missing from OperatorKernels.md (extra_ops).
TEST(TargetUnsupportedOp, OrtCpuRunsNonMaxSuppression) {
  ModelBuilder m = single("NonMaxSuppression", 17);
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"ort-cpu", "ort-cuda"})), IsEmpty());
}

// Partitions, counted as ORT's usability checker does.
// One finding per cause: per target, the nodes of one op type that fail for one reason are one
// finding at the first node, with the others as related locations (all of them, for JSON).
TEST(TargetUnsupportedOp, NodesOfOneOpAndReasonAreOneFinding) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node("Acos", {"x"}, {"a"}, "u1");
  m.graph().node("Relu", {"a"}, {"b"}, "r1");
  m.graph().node("Acos", {"b"}, {"c"}, "u2");
  m.graph().node("Asin", {"c"}, {"d"}, "s1");
  m.graph().node("Acos", {"d"}, {"y"}, "u3");
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"nnapi", "tensorrt"}));
  std::vector<std::string> got;
  for (const Diagnostic& d : diags) {
    std::string related;
    for (const RelatedLocation& r : d.related) related += " " + r.location.node_name;
    got.push_back(d.location.node_name + " @" + d.target + ":" + related);
  }
  EXPECT_THAT(got, ElementsAre("u1 @onnxruntime-nnapi: u2 u3", "s1 @onnxruntime-nnapi:"));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].message,
            "3 Acos nodes cannot run on ONNX Runtime NNAPI EP (main): Acos is not in its "
            "operator list");
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  EXPECT_THAT(diags[0].notes, ElementsAre(HasSubstr("splits the graph")));
  EXPECT_THAT(diags[1].message, HasSubstr("s1 (Asin) cannot run on"));
}

TEST(TargetUnsupportedOp, FallbackEstimateCountsPartitions) {
  // Relu -> Acos -> Relu -> Acos -> Relu on NNAPI: three supported groups around two gaps.
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node("Relu", {"x"}, {"a"}, "r1");
  m.graph().node("Acos", {"a"}, {"b"}, "u1");
  m.graph().node("Relu", {"b"}, {"c"}, "r2");
  m.graph().node("Acos", {"c"}, {"d"}, "u2");
  m.graph().node("Relu", {"d"}, {"y"}, "r3");
  std::vector<std::string> text;
  nlohmann::json s = section(m.bytes(), {"nnapi", "tensorrt"}, &text);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0]["target"], "onnxruntime-nnapi");
  EXPECT_EQ(s[0]["nodes"], 5);
  EXPECT_EQ(s[0]["supported_nodes"], 3);
  EXPECT_EQ(s[0]["unsupported_nodes"], 2);
  EXPECT_EQ(s[0]["partitions"], 3);
  EXPECT_EQ(s[0]["verdict"], "partial");
  EXPECT_EQ(s[0]["unsupported_ops"], nlohmann::json::parse(R"([{"op":"Acos","count":2}])"));
  EXPECT_EQ(s[1]["target"], "tensorrt");
  EXPECT_EQ(s[1]["partitions"], 1);
  EXPECT_EQ(s[1]["verdict"], "ok");
  // One verdict line per target; the text outputs name each table's source once per run.
  ASSERT_EQ(text.size(), 2u);
  EXPECT_EQ(text[0],
            "onnxruntime-nnapi (ONNX Runtime NNAPI EP (main)): partial: 3/5 nodes supported, 3 "
            "supported partitions; unsupported: Acos x2; unsupported nodes fall back to the CPU");
  EXPECT_EQ(text[1], "tensorrt (TensorRT 10.15): ok: 5/5 nodes supported, 1 supported partition");
  LintOptions o = for_targets({"nnapi"});
  o.select = {kRule};
  const std::vector<TargetVerdict> v =
      target_verdicts(Linter(builtin_registry(), o).lint_bytes("test.onnx", m.bytes()));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(table_source_line(v[0]),
            "onnxruntime-nnapi support table: microsoft/onnxruntime "
            "tools/ci_build/github/android/nnapi_supported_ops.md @ 9adf238ebb27");
  EXPECT_EQ(s[0]["source"]["path"], "tools/ci_build/github/android/nnapi_supported_ops.md");
  // TensorRT has no fallback: one unsupported node makes the model unsupported.
  EXPECT_EQ(section(single("BitShift", 17).bytes(), {"tensorrt"})[0]["verdict"], "unsupported");
}

// Two independent branches: an unsupported node that does not consume the open group does not
// split it (the checker's border rule).
TEST(TargetUnsupportedOp, UnsupportedSideBranchDoesNotSplitAGroup) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4}).output("z", kFloat, {1, 4});
  m.graph().node("Relu", {"x"}, {"a"}, "r1");
  m.graph().node("Acos", {"x"}, {"z"}, "side");
  m.graph().node("Relu", {"a"}, {"y"}, "r2");
  EXPECT_EQ(section(m.bytes(), {"nnapi"})[0]["partitions"], 1);
}

// A node with a subgraph is taken as a whole only when its body runs too.
TEST(TargetUnsupportedOp, ControlFlowNodeNeedsItsBody) {
  ModelBuilder m = single("BitShift", 17);
  nlohmann::json s = section(nest_in_loop(m.proto()), {"tensorrt"});
  EXPECT_EQ(s[0]["nodes"], 3);  // Loop, Identity, BitShift
  EXPECT_EQ(s[0]["unsupported_nodes"], 1);
  EXPECT_EQ(s[0]["partitions"], 0);  // the Loop is the main graph's only node
}

// Requires-static targets do not take nodes with dynamic inputs.
TEST(TargetUnsupportedOp, DynamicInputsCountAsUnsupportedOnNnapi) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {"batch", 4}).output("y", kFloat, {"batch", 4});
  m.graph().node("Relu", {"x"}, {"y"}, "r");
  EXPECT_THAT(findings(kRule, m.bytes(), for_targets({"nnapi"})), IsEmpty());
  nlohmann::json s = section(m.bytes(), {"nnapi", "tensorrt"});
  EXPECT_EQ(s[0]["dynamic_shape_nodes"], 1);
  EXPECT_EQ(s[0]["verdict"], "unsupported");
  EXPECT_EQ(s[1]["verdict"], "ok");
}

TEST(TargetUnsupportedOp, IrVersionAboveTheTargetMakesItUnsupported) {
  ModelBuilder m(17, 14);
  m.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 4});
  m.graph().node("Relu", {"x"}, {"y"}, "r");
  nlohmann::json s = section(m.bytes(), {"ort-cpu"});
  EXPECT_EQ(s[0]["ir_version_supported"], false);
  EXPECT_EQ(s[0]["verdict"], "unsupported");
}

// A contrib op on a target outside ONNX Runtime: the note names the cause the producer shows.
TEST(TargetUnsupportedOp, ContribOpNoteFitsTheProducer) {
  auto model = [](const std::string& producer) {
    ModelBuilder m(17);
    m.producer(producer, "1.0");
    m.opset("com.microsoft", 1);
    auto& g = m.graph();
    g.input("x", kFloat, {1, 8}).output("y", kFloat, {1, 8});
    g.node("Gelu", {"x"}, {"y"}, "gelu", "com.microsoft");
    return m;
  };
  const auto torch = diagnostics(kRule, model("pytorch").bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(torch.size(), 1u);
  EXPECT_THAT(torch[0].notes, Contains(HasSubstr("custom symbolic")));
  EXPECT_THAT(torch[0].notes, Not(Contains(HasSubstr("optimizer or quantizer"))));
  const auto ort =
      diagnostics(kRule, model("onnxruntime.transformers").bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(ort.size(), 1u);
  EXPECT_THAT(ort[0].notes, Contains(HasSubstr("ONNX Runtime's optimizer or quantizer")));
}

}  // namespace
}  // namespace onnxlint::testing
