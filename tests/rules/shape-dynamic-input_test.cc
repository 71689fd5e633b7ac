#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"
#include "tests/rules/shape_flow_models.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "shape-dynamic-input";

ModelBuilder mixed_inputs() {
  ModelBuilder m(13, 3);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("batch"), 16});
  g.input("y", kFloat, {2, int64_t{-1}});
  g.input("z", kFloat, {}, false);
  g.input("w", kFloat, {2, 16});
  g.input("bias", kFloat, {16});  // an initializer listed as an input (IR 3): not fed
  g.initializer(make_tensor_f32("bias", {16}, std::vector<float>(16, 0.f)));
  g.output("o", kFloat, {}, false);
  g.node("Add", {"x", "bias"}, {"a"}, "Add_0");
  g.node("Add", {"y", "w"}, {"b"}, "Add_1");
  g.node("Sum", {"a", "b", "z"}, {"o"}, "Sum_2");
  return m;
}

TEST(ShapeDynamicInput, ReportsEachDynamicInputNamingItsDims) {
  ModelBuilder m = mixed_inputs();
  EXPECT_THAT(findings(kRule, m.bytes()),
              ElementsAre("shape-dynamic-input main:'x'", "shape-dynamic-input main:'y'",
                          "shape-dynamic-input main:'z'"));
  auto diags = diagnostics(kRule, m.bytes());
  ASSERT_EQ(diags.size(), 3u);
  EXPECT_EQ(diags[0].message, "input 'x' [batch, 16] has dynamic dim: 0 'batch'");
  EXPECT_THAT(
      diags[0].notes,
      ElementsAre("the shapes of 2 of 3 nodes depend on 'batch'",
                  "to fix the size at deployment without re-exporting: ONNX Runtime "
                  "`SessionOptions.add_free_dimension_override_by_name(\"batch\", <size>)` or "
                  "`python -m onnxruntime.tools.make_dynamic_shape_fixed --dim_param batch "
                  "--dim_value <size> model.onnx model.fixed.onnx`; TensorRT `trtexec "
                  "--minShapes=x:<min_batch>x16 --optShapes=x:<opt_batch>x16 "
                  "--maxShapes=x:<max_batch>x16`"));
  EXPECT_THAT(diags[0].help, HasSubstr("allow-dims"));
  EXPECT_EQ(diags[1].message, "input 'y' [2, ?] has dynamic dim: 1 (unknown size)");
  // Nothing depends on y's unnamed dim: said so, not "0 of 3 nodes have shapes that ...".
  // An unnamed dim is fixed by input shape, not by name.
  EXPECT_THAT(diags[1].notes,
              ElementsAre("no node's output shape depends on 'y.shape[1]' (values computed from "
                          "it, such as a loop's trip count, are not counted)",
                          "to fix the size at deployment without re-exporting: ONNX Runtime "
                          "`python -m onnxruntime.tools.make_dynamic_shape_fixed --input_name y "
                          "--input_shape 2,<size> model.onnx model.fixed.onnx`; TensorRT `trtexec "
                          "--minShapes=y:2x<min_size> --optShapes=y:2x<opt_size> "
                          "--maxShapes=y:2x<max_size>`"));
  EXPECT_THAT(diags[1].help, HasSubstr("name each dim"));
  EXPECT_EQ(diags[2].message, "input 'z' has no declared shape");
  // A dim the exporter was told to name is intent (info); an unnamed dim or a missing shape
  // may be an accident of the export (warning).
  EXPECT_EQ(diags[0].severity, Severity::Info);
  EXPECT_EQ(diags[1].severity, Severity::Warning);
  EXPECT_EQ(diags[2].severity, Severity::Warning);
}

TEST(ShapeDynamicInput, ExporterInventedNamesAreWarningsAndNotEchoed) {
  ModelBuilder m(13, 8);
  auto& g = m.graph();
  g.input("a", kFloat, {std::string("unk__12"), 4});
  g.input("b", kFloat, {std::string("Ifx_dim_0"), std::string("seq")});
  g.input("c", kFloat, {std::string("batch"), std::string("seq_len")});
  g.output("o", kFloat, {}, false);
  g.node("Sum", {"a", "b", "c"}, {"o"}, "Sum_0");
  auto diags = diagnostics(kRule, m.bytes());
  ASSERT_EQ(diags.size(), 3u);
  EXPECT_EQ(diags[0].message, "input 'a' [?, 4] has dynamic dim: 0 (unnamed)");
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  EXPECT_THAT(diags[0].notes[0], HasSubstr("'a.shape[0]'"));
  EXPECT_EQ(diags[1].message, "input 'b' [?, seq] has dynamic dims: 0 (unnamed), 1 'seq'");
  EXPECT_EQ(diags[1].severity, Severity::Warning);
  EXPECT_EQ(diags[2].message,
            "input 'c' [batch, seq_len] has dynamic dims: 0 'batch', 1 'seq_len'");
  EXPECT_EQ(diags[2].severity, Severity::Info);
}

TEST(ShapeDynamicInput, AllowDimsSilencesNamedDimsOnly) {
  ModelBuilder m(13, 8);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("batch"), std::string("seq_len")});
  g.input("y", kFloat, {std::string("batch"), int64_t{-1}});
  g.input("u", kFloat, {std::string("unk__3"), 2});
  g.output("o", kFloat, {}, false);
  g.node("Sum", {"x", "y", "u"}, {"o"}, "Sum_0");
  LintOptions o;
  o.rule_options[kRule]["allow-dims"] = std::vector<std::string>{"batch", "seq*", "unk__*"};
  auto diags = diagnostics(kRule, m.bytes(), o);
  // x: every dim allowed. y: the unnamed dim stays. u: invented names are not "named".
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].message, "input 'u' [?, 2] has dynamic dim: 0 (unnamed)");
  EXPECT_EQ(diags[1].message, "input 'y' [batch, ?] has dynamic dim: 1 (unknown size)");
  EXPECT_EQ(diags[1].severity, Severity::Warning);
  // The summary still lists every dynamic dim.
  LintOptions sel = o;
  sel.select = {kRule};
  FileReport r = Linter(builtin_registry(), sel).lint_bytes("t.onnx", m.bytes());
  ASSERT_EQ(r.sections.size(), 1u);
  EXPECT_EQ(r.sections[0].text[0], "input 'x' [batch, seq_len]: dynamic 0 'batch', 1 'seq_len'");
}

// The done-means check of issue 15: a torch export with `dynamic_axes={"x": {0: "batch"}}`
// passes `--fail-on warning` with no configuration.
TEST(ShapeDynamicInput, DynamicBatchTorchExportHasNoWarning) {
  LintOptions o;
  Linter linter(builtin_registry(), o);
  FileReport r = linter.lint_file(data_path("corpus/torch_mlp_dynamic_batch_op13.onnx"));
  Report report;
  report.files.push_back(r);
  EXPECT_EQ(report.count_at_least(Severity::Warning), 0u);
  EXPECT_EQ(exit_code(report, Severity::Warning), 0);
}

TEST(ShapeDynamicInput, NearMissStaticInputsAndInitializerInputs) {
  ModelBuilder m = shape_flow::dynamic_reshape(int64_t{2});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(ShapeDynamicInput, RuntimeFixForSeveralNamedDimsNamesThemOnce) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {std::string("N"), 3, std::string("H"), std::string("W")});
  m.graph().output("y", kFloat, {std::string("N"), 3, std::string("H"), std::string("W")});
  m.graph().node("Relu", {"x"}, {"y"});
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].notes.back(),
            "to fix the size at deployment without re-exporting: ONNX Runtime "
            "`SessionOptions.add_free_dimension_override_by_name(<dim>, <size>)` for 'N', 'H', "
            "'W' or `python -m onnxruntime.tools.make_dynamic_shape_fixed --dim_param N "
            "--dim_value <size> model.onnx model.fixed.onnx` (once per dim); TensorRT `trtexec "
            "--minShapes=x:<min_N>x3x<min_H>x<min_W> --optShapes=x:<opt_N>x3x<opt_H>x<opt_W> "
            "--maxShapes=x:<max_N>x3x<max_H>x<max_W>`");
}

TEST(ShapeDynamicInput, DimsThatNodesDependOnShareOneNote) {
  // One line for the dims in use ("..., 2 on 'seq', 1 on 'k'"), not one per dim: the
  // dynamic_shapes section already has a line per dim.
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("batch"), std::string("seq"), std::string("k")});
  g.output("y", kFloat, {}, false);
  g.node("Relu", {"x"}, {"r"}, "Relu_0");
  g.constant_i64("axes", {2}, {1});
  attr_int(g.node("ReduceSum", {"r", "axes"}, {"y"}, "ReduceSum_1"), "keepdims", 0);
  auto diags = diagnostics(kRule, m.bytes());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].notes.at(0),
            "the shapes of 2 of 3 nodes depend on 'batch', 2 on 'seq', 1 on 'k'");
}

TEST(ShapeDynamicInput, NestedModelStillReportsTheMainInputWithBodyUsage) {
  ModelBuilder m = shape_flow::dynamic_reshape();
  std::string bytes = nest_in_loop(m.proto());
  EXPECT_THAT(findings(kRule, bytes), ElementsAre("shape-dynamic-input main:'x'"));
  auto diags = diagnostics(kRule, bytes);
  ASSERT_EQ(diags.size(), 1u);
  // Relu and Reshape in the body, and the nest Loop stacking their result.
  EXPECT_EQ(diags[0].notes.at(0), "the shapes of 3 of 11 nodes depend on 'batch'");
}

FileReport lint(const std::string& bytes) {
  LintOptions o;
  o.select = {kRule};
  Linter linter(builtin_registry(), o);
  return linter.lint_bytes("t.onnx", bytes);
}

// y's unnamed dim broadcasts against w's 16, so nothing depends on it: the counts come from the
// per-dimension facts, not from mere reachability.
TEST(ShapeDynamicInput, WritesTheDynamicShapeSummarySection) {
  FileReport r = lint(mixed_inputs().bytes());
  ASSERT_EQ(r.sections.size(), 1u);
  const ReportSection& s = r.sections[0];
  EXPECT_EQ(s.name, "dynamic_shapes");
  EXPECT_EQ(s.data["nodes"], 3);
  ASSERT_EQ(s.data["inputs"].size(), 4u);  // bias is not a fed input
  EXPECT_EQ(s.data["inputs"][0]["name"], "x");
  EXPECT_EQ(s.data["inputs"][0]["shape"], nlohmann::json::parse(R"(["batch", 16])"));
  EXPECT_EQ(s.data["inputs"][0]["dynamic"], true);
  EXPECT_EQ(s.data["inputs"][1]["shape"], nlohmann::json::parse(R"([2, null])"));
  EXPECT_EQ(s.data["inputs"][2]["shape"], nullptr);
  EXPECT_EQ(s.data["inputs"][2]["has_shape"], false);
  EXPECT_EQ(s.data["inputs"][3]["dynamic"], false);
  EXPECT_EQ(s.data["dims"], nlohmann::json::parse(R"([
    {"name": "batch", "inputs": ["x"], "nodes": 2},
    {"name": "y.shape[1]", "inputs": ["y"], "nodes": 0},
    {"name": "z.shape", "inputs": ["z"], "nodes": 1}])"));
  EXPECT_EQ(s.data["data_dependent"]["nodes"], 0);
  EXPECT_EQ(s.data["fixes"], nlohmann::json::parse(R"({
    "onnxruntime_free_dimension_overrides": ["batch"],
    "make_dynamic_shape_fixed": [
      "python -m onnxruntime.tools.make_dynamic_shape_fixed --dim_param batch --dim_value <size> model.onnx model.fixed.onnx",
      "python -m onnxruntime.tools.make_dynamic_shape_fixed --input_name y --input_shape 2,<size> model.onnx model.fixed.onnx"],
    "trtexec": {"minShapes": "x:<min_batch>x16,y:2x<min_size>", "optShapes": "x:<opt_batch>x16,y:2x<opt_size>",
                "maxShapes": "x:<max_batch>x16,y:2x<max_size>"}})"));
  EXPECT_THAT(
      s.text,
      ElementsAre("input 'x' [batch, 16]: dynamic 0 'batch'",
                  "input 'y' [2, ?]: dynamic 1 (unknown size)", "input 'z': no declared shape",
                  // Several dims: their node counts on one line.
                  "nodes of 3 whose shapes depend on each dim: 'batch' 2, 'y.shape[1]' "
                  "0, 'z.shape' 1"));
}

TEST(ShapeDynamicInput, SummaryOfAStaticModelWithDataDependentShapes) {
  FileReport r = lint(shape_flow::nonzero_model().bytes());
  ASSERT_EQ(r.sections.size(), 1u);
  const ReportSection& s = r.sections[0];
  EXPECT_EQ(s.data["dims"], nlohmann::json::array());
  EXPECT_EQ(s.data["data_dependent"]["nodes"], 3);
  EXPECT_EQ(s.data["data_dependent"]["origins"],
            nlohmann::json::parse(R"([{"node": "main/NonZero_2", "op_type": "NonZero"}])"));
  // The output as the analysis computes it, with the bound of its data-set dim.
  EXPECT_THAT(s.text,
              ElementsAre("output 'y' = [k] (k \u2264 20, set by NonZero 'NonZero_2')",
                          "data-dependent shapes: 3 of 4 nodes, arising at main/NonZero_2"));
  EXPECT_EQ(s.data["outputs"], nlohmann::json::parse(R"([{"name": "y", "class": "data-dependent",
      "shape": [{"data": "NonZero_2", "max": 20}]}])"));
}

TEST(ShapeDynamicInput, SummaryOfAFullyStaticModelHasNoText) {
  FileReport r = lint(shape_flow::dynamic_reshape(int64_t{2}).bytes());
  ASSERT_EQ(r.sections.size(), 1u);
  EXPECT_THAT(r.sections[0].text, IsEmpty());
  EXPECT_EQ(r.sections[0].data["inputs"][0]["dynamic"], false);
}

}  // namespace
}  // namespace onnxlint::testing
