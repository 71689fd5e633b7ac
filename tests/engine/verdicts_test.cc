// Target verdicts (include/onnxlint/verdicts.h): the typed view of the "targets" section, its
// wording, the load errors that make a model unsupported everywhere, and requirements.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/onnxlint.h>
#include <onnxlint/report_section.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>

#include <nlohmann/json.hpp>

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

FileReport with_targets(const char* json) {
  FileReport f;
  f.path = "m.onnx";
  f.sections.push_back({"targets", nlohmann::json::parse(json), {}});
  return f;
}

TEST(Verdicts, ReadTypedFromTheSection) {
  const FileReport f = with_targets(R"([{"target": "tensorrt", "name": "TensorRT", "verdict": "ok",
      "nodes": 3, "supported_nodes": 3, "partitions": 1, "cpu_fallback": false,
      "source": {"repo": "onnx/onnx-tensorrt", "path": "docs/operators.md", "version": "10.15"}},
      {"target": "onnxruntime-nnapi", "name": "NNAPI", "verdict": "partial", "nodes": 3,
       "supported_nodes": 2, "unsupported_nodes": 1, "partitions": 2, "cpu_fallback": true,
       "unsupported_ops": [{"op": "Acos", "count": 1}]}])");
  const std::vector<TargetVerdict> v = target_verdicts(f);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].target, "tensorrt");
  EXPECT_EQ(v[0].support, Support::Full);
  EXPECT_EQ(verdict_line(v[0]),
            "tensorrt (TensorRT): ok: 3/3 nodes supported, 1 supported partition");
  EXPECT_EQ(verdict_reason(v[0]), "");
  EXPECT_EQ(table_source_line(v[0]),
            "tensorrt support table: onnx/onnx-tensorrt docs/operators.md @ 10.15");
  EXPECT_EQ(v[1].support, Support::Partial);
  EXPECT_EQ(verdict_line(v[1]),
            "onnxruntime-nnapi (NNAPI): partial: 2/3 nodes supported, 2 supported partitions; "
            "unsupported: Acos x1; unsupported nodes fall back to the CPU");
  EXPECT_EQ(verdict_reason(v[1]), "1 of 3 nodes unsupported: Acos x1");
  // Nothing to read: no verdicts, not an error.
  EXPECT_THAT(target_verdicts(FileReport{}), IsEmpty());
  EXPECT_THAT(target_verdicts(with_targets(R"({"not": "an array"})")), IsEmpty());
}

TEST(Verdicts, AnOpsetOutOfRangeIsTheCauseNotEveryOp) {
  // An opset-6 model on TensorRT: every node fails for that one reason; listing Abs, Add, ...
  // as unsupported ops would send the user after the wrong problem.
  const FileReport f = with_targets(R"([{"target": "tensorrt", "name": "TensorRT",
      "verdict": "unsupported", "supported_nodes": 0, "unsupported_nodes": 2,
      "unsupported_ops": [{"op": "Abs", "count": 1}, {"op": "Add", "count": 1}],
      "opset_supported": false}])");
  const TargetVerdict v = target_verdicts(f).at(0);
  EXPECT_THAT(verdict_line(v), Not(HasSubstr("Abs")));
  EXPECT_THAT(verdict_line(v), HasSubstr("the model's opset is outside what it accepts"));
  EXPECT_EQ(verdict_reason(v), "the model's opset is outside what it accepts");
}

TEST(Verdicts, LoadErrorsMakeEveryTargetUnsupported) {
  FileReport f = with_targets(R"([{"target": "onnxruntime-cpu", "name": "ORT CPU",
      "verdict": "ok", "supported_nodes": 1}, {"target": "tensorrt", "name": "TensorRT",
      "verdict": "partial", "supported_nodes": 1}])");
  Diagnostic schema;
  schema.rule_id = "opset-too-low";
  schema.severity = Severity::Error;
  schema.message = "GridSample is an ai.onnx operator from opset 16";
  Diagnostic style;
  style.rule_id = "graph-dead-node";  // not a load error
  style.message = "dead";
  f.diagnostics = {style};
  apply_load_errors(f, builtin_registry());
  EXPECT_EQ(target_verdicts(f).at(0).support, Support::Full);
  f.diagnostics.push_back(schema);
  apply_load_errors(f, builtin_registry());
  for (const TargetVerdict& v : target_verdicts(f)) {
    EXPECT_EQ(v.support, Support::Unsupported) << v.target;
    EXPECT_EQ(v.load_error_count, 1u);
    ASSERT_EQ(v.load_errors.size(), 1u);
    EXPECT_EQ(v.load_errors[0].first, "opset-too-low");
    EXPECT_THAT(verdict_reason(v), HasSubstr("the runtime rejects the model at load: "
                                             "opset-too-low: GridSample"));
  }
}

TEST(Verdicts, RequirementsParseAndCompare) {
  auto resolve = [](std::string_view t) -> std::optional<std::string> {
    return canonical_target(t);
  };
  EXPECT_EQ(parse_target_requirement("full", resolve).level, Support::Full);
  EXPECT_EQ(parse_target_requirement("ok", resolve).level, Support::Full);
  const TargetRequirement trt = parse_target_requirement("trt=partial", resolve);
  EXPECT_EQ(trt.target, "tensorrt");
  EXPECT_EQ(trt.level, Support::Partial);
  for (const char* bad : {"", "maybe", "unsupported", "nosuch=full", "tensorrt=", "=full"}) {
    EXPECT_THROW(parse_target_requirement(bad, resolve), ConfigError) << bad;
  }
  const FileReport f = with_targets(R"([{"target": "tensorrt", "name": "T", "verdict": "ok"},
      {"target": "onnxruntime-nnapi", "name": "N", "verdict": "partial",
       "supported_nodes": 1, "unsupported_nodes": 1}])");
  EXPECT_THAT(unmet_requirements(f, {{"", Support::Partial}}), IsEmpty());
  EXPECT_THAT(unmet_requirements(f, {{"tensorrt", Support::Full}}), IsEmpty());
  EXPECT_THAT(unmet_requirements(f, {{"", Support::Full}}),
              ElementsAre("onnxruntime-nnapi: partial, required full (1 of 2 nodes unsupported)"));
  // The most demanding requirement naming a target wins.
  EXPECT_THAT(unmet_requirements(f, {{"", Support::Partial}, {"onnxruntime-nnapi", Support::Full}}),
              ::testing::SizeIs(1));
  // A path error or an unreadable model has no verdicts to fail.
  FileReport unreadable = f;
  unreadable.status = FileReport::Status::Unreadable;
  EXPECT_THAT(unmet_requirements(unreadable, {{"", Support::Full}}), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
