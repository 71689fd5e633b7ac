// Runtime versions of a target: `--target tensorrt@8.6` (docs/targets.md, "Runtime versions").
// The expectations are the release documents' own statements, read from the tables
// (rules/tables/targets/tensorrt@*.json, made by tools/extract_tensorrt_ops.py).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/targets.h>

#include <string>
#include <vector>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string id_of(std::string_view name) {
  const TargetInfo* t = find_target(name);
  return t == nullptr ? "<none>" : std::string(t->id);
}

LintOptions for_target(std::string target) {
  LintOptions o;
  o.targets = {std::move(target)};
  return o;
}

OpVerdict verdict(std::string_view target, std::string_view op, int since, int opset) {
  const TargetInfo* t = find_target(target);
  if (t == nullptr) {
    ADD_FAILURE() << "no target " << target;
    return OpVerdict::Unknown;
  }
  return check_op(*t, "", op, since, opset).verdict;
}

TEST(TargetVersions, NamesSelectOneRelease) {
  EXPECT_EQ(id_of("tensorrt@8.6"), "tensorrt@8.6");
  EXPECT_EQ(id_of("trt@8.6"), "tensorrt@8.6");  // every alias takes the version
  EXPECT_EQ(id_of("tensorrt@10.1"), "tensorrt@10.1");
  // The newest table is its family's id, and its own release names it too.
  EXPECT_EQ(id_of("tensorrt"), "tensorrt");
  EXPECT_EQ(id_of("tensorrt@10.15"), "tensorrt");
  // Leading numbers: the newest release within them.
  EXPECT_EQ(id_of("tensorrt@10"), "tensorrt");
  EXPECT_EQ(id_of("tensorrt@8"), "tensorrt@8.6");
  EXPECT_EQ(id_of("trt@8"), "tensorrt@8.6");
  // Near misses.
  EXPECT_EQ(id_of("tensorrt@9"), "<none>");
  EXPECT_EQ(id_of("tensorrt@8.6.1"), "<none>");
  EXPECT_EQ(id_of("tensorrt@1"), "<none>");  // not a prefix of "10.x": numbers, not text
  EXPECT_EQ(id_of("tensorrt@10."), "<none>");
  EXPECT_EQ(id_of("tensorrt@"), "<none>");
  EXPECT_EQ(id_of("@8.6"), "<none>");
  EXPECT_EQ(id_of("nosuch@8.6"), "<none>");
  EXPECT_EQ(id_of("openvino@2024.6"), "<none>");  // no table of that release
  EXPECT_EQ(id_of("nnapi@1.0"), "<none>");        // one table, no versions
}

TEST(TargetVersions, FamilyAndVersionOfEveryTable) {
  std::vector<std::string> releases;
  for (const TargetInfo* t : target_versions("tensorrt")) {
    releases.emplace_back(t->version);
    EXPECT_EQ(t->family, "tensorrt");
    EXPECT_EQ(t->display_name, "TensorRT " + std::string(t->version));
    EXPECT_EQ(t->runtime_version, "TensorRT " + std::string(t->version));
    EXPECT_EQ(t->source_repo, "onnx/onnx-tensorrt");
    EXPECT_EQ(t->source_path, "docs/operators.md");
    // The runtime's facts are inherited from the family's entry (TensorRT's MAX_DIMS).
    EXPECT_EQ(t->max_rank, 8) << t->id;
    EXPECT_FALSE(t->cpu_fallback) << t->id;
  }
  EXPECT_THAT(releases, ElementsAre("8.5", "8.6", "10.0", "10.1", "10.15"));
  for (const TargetInfo& t : all_targets()) {
    if (t.id == t.family) continue;
    EXPECT_TRUE(t.aliases.empty()) << t.id;  // named through the family's aliases
    EXPECT_EQ(std::string(t.id), std::string(t.family) + "@" + std::string(t.version));
  }
  // Source commits: the release branches of onnx/onnx-tensorrt.
  EXPECT_THAT(std::string(find_target("tensorrt@8.6")->source_version),
              HasSubstr("ee0b139bc68567a89618c1d84dcd461cc144aad4 (branch 8.6-GA)"));
  EXPECT_THAT(std::string(find_target("tensorrt@8.5")->source_version),
              HasSubstr("fdeeaca87ad2eef316aafb016e1822502f383eea (branch 8.5-GA)"));
}

TEST(TargetVersions, UnknownReleaseListsTheKnownOnes) {
  try {
    resolve_targets({"tensorrt@8.0"});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown version '8.0' of target 'tensorrt'; its tables: 8.5, 8.6, 10.0, 10.1, "
                 "10.15");
  }
  try {
    resolve_targets({"nnapi@1.0"});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown version '1.0' of target 'onnxruntime-nnapi'; it has one table, "
                 "without versions");
  }
  // One table named twice is checked once.
  EXPECT_THAT(resolve_targets({"trt@10", "tensorrt@10.15", "tensorrt"}), ElementsAre("tensorrt"));
  EXPECT_THAT(resolve_targets({"tensorrt@8.6", "tensorrt"}),
              ElementsAre("tensorrt@8.6", "tensorrt"));
  EXPECT_THAT(target_names_for_help(), HasSubstr("tensorrt (trt; @8.5|8.6|10.0|10.1|10.15)"));
}

// Ops each release adds, as its document lists them (8.5 lists IsInf and LayerNormalization as
// not supported; 8.6 supports them).
TEST(TargetVersions, OpsAddedByARelease) {
  EXPECT_EQ(verdict("tensorrt@8.5", "LayerNormalization", 17, 17), OpVerdict::ListedUnsupported);
  EXPECT_EQ(verdict("tensorrt@8.6", "LayerNormalization", 17, 17), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@8.5", "IsInf", 10, 17), OpVerdict::ListedUnsupported);
  EXPECT_EQ(verdict("tensorrt@8.6", "IsInf", 10, 17), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@8.6", "Mish", 18, 17), OpVerdict::Unsupported);
  EXPECT_EQ(verdict("tensorrt@10.0", "Mish", 18, 18), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@10.0", "DeformConv", 19, 19), OpVerdict::Unsupported);
  EXPECT_EQ(verdict("tensorrt@10.1", "DeformConv", 19, 19), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@10.1", "RMSNormalization", 23, 20), OpVerdict::Unsupported);
  EXPECT_EQ(verdict("tensorrt", "RMSNormalization", 23, 23), OpVerdict::Supported);
}

// Opset ranges: 8.x states only "up to Opset 17"; 10.0 "opset 9 to opset 20", so a model at
// opset 8 that 8.6 takes is outside 10.x's range (what 10.x removed).
TEST(TargetVersions, OpsetRangesPerRelease) {
  EXPECT_EQ(verdict("tensorrt@8.6", "Relu", 14, 17), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@8.6", "Relu", 14, 18), OpVerdict::VersionOutOfRange);
  EXPECT_EQ(verdict("tensorrt@10.0", "Relu", 14, 18), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@10.1", "Relu", 14, 21), OpVerdict::VersionOutOfRange);
  EXPECT_EQ(verdict("tensorrt", "Relu", 14, 21), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@8.6", "Relu", 6, 8), OpVerdict::Supported);
  EXPECT_EQ(verdict("tensorrt@10.0", "Relu", 6, 8), OpVerdict::VersionOutOfRange);
  EXPECT_EQ(verdict("tensorrt", "Relu", 6, 8), OpVerdict::VersionOutOfRange);
}

// ONNX Runtime's CPU EP per release (OperatorKernels.md at the release tags,
// tools/extract_ort_kernels.py): since-version semantics, so a kernel range is what is checked.
TEST(TargetVersions, OnnxRuntimeReleases) {
  EXPECT_EQ(id_of("ort@1.18"), "onnxruntime-cpu@1.18");
  EXPECT_EQ(id_of("ort-cpu@1.16"), "onnxruntime-cpu@1.16.3");  // the newest 1.16.x
  EXPECT_EQ(id_of("onnxruntime-cpu@1.16.0"), "onnxruntime-cpu@1.16.0");
  EXPECT_EQ(id_of("ort@1.30"), "onnxruntime-cpu");
  EXPECT_EQ(id_of("ort@1.25"), "<none>");
  // Gelu-20 has a CPU kernel from 1.18 on.
  EXPECT_EQ(verdict("ort@1.17", "Gelu", 20, 20), OpVerdict::Unsupported);
  EXPECT_EQ(verdict("ort@1.18", "Gelu", 20, 20), OpVerdict::Supported);
  // 1.16.2 added com.microsoft MatMulNBits.
  const TargetInfo* v160 = find_target("ort@1.16.0");
  const TargetInfo* v163 = find_target("ort@1.16.3");
  ASSERT_NE(v160, nullptr);
  ASSERT_NE(v163, nullptr);
  EXPECT_EQ(check_op(*v160, "com.microsoft", "MatMulNBits", 1, 1).verdict, OpVerdict::Unsupported);
  EXPECT_EQ(check_op(*v163, "com.microsoft", "MatMulNBits", 1, 1).verdict, OpVerdict::Supported);
  // The newest opset each release's kernels reach: 1.20 stops at 21, 1.21 has opset-22 kernels.
  EXPECT_EQ(target_max_opset(*find_target("ort@1.20"), ""), 21);
  EXPECT_EQ(target_max_opset(*find_target("ort@1.21"), ""), 22);
  EXPECT_EQ(verdict("ort@1.20", "Relu", 14, 22), OpVerdict::VersionOutOfRange);
  EXPECT_EQ(verdict("ort@1.21", "Relu", 14, 22), OpVerdict::Supported);
  // NonMaxSuppression is registered without type constraints, so OperatorKernels.md leaves it
  // out; extra_facts.json adds it to every release (its registration at each table's commit).
  EXPECT_EQ(verdict("ort@1.16.0", "NonMaxSuppression", 11, 11), OpVerdict::Supported);
  EXPECT_EQ(verdict("ort@1.24", "NonMaxSuppression", 11, 24), OpVerdict::Supported);
  // Runtime-wide facts come from the family; per-release ones are each release's own: the
  // IR_VERSION of the ONNX it bundles (ORT's own oracle of each release loads that IR version
  // and refuses the next, tests/ort).
  EXPECT_TRUE(find_target("ort@1.18")->constant_folding);
  EXPECT_TRUE(find_target("ort@1.18")->inlines_functions);
  EXPECT_EQ(find_target("ort@1.16.0")->max_ir_version, 9);
  EXPECT_EQ(find_target("ort@1.17")->max_ir_version, 9);
  EXPECT_EQ(find_target("ort@1.18")->max_ir_version, 10);
  EXPECT_EQ(find_target("ort@1.22")->max_ir_version, 10);
  EXPECT_EQ(find_target("ort@1.23")->max_ir_version, 11);
  EXPECT_EQ(find_target("ort@1.24")->max_ir_version, 13);
  EXPECT_EQ(find_target("ort")->max_ir_version, 13);
  for (const TargetInfo* release : target_versions("onnxruntime-cpu")) {
    EXPECT_GT(release->max_ir_version, 0) << release->id;
  }
  EXPECT_EQ(find_target("ort@1.18")->display_name, "ONNX Runtime CPU EP 1.18");
}

// OpenVINO 2023.3's ONNX frontend, from its translator registrations (ops_bridge.cpp at the
// commit releases/2023/3 was cut from; tools/extract_openvino_ops.py). The newest table has no
// release number (master), so only the older release is named by version.
TEST(TargetVersions, OpenVinoRelease) {
  EXPECT_EQ(id_of("ov@2023.3"), "openvino@2023.3");
  EXPECT_EQ(id_of("openvino@2023"), "openvino@2023.3");
  const TargetInfo* v = find_target("ov@2023.3");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->display_name, "OpenVINO 2023.3 ONNX frontend");
  EXPECT_EQ(find_target("openvino")->version, "");
  // Gelu (opset 20) has a translator on master, none in 2023.3 (its bundled ONNX 1.15 defines
  // Gelu-20, so the table lists it as not converted).
  EXPECT_EQ(check_op(*v, "", "Gelu", 20, 20).verdict, OpVerdict::ListedUnsupported);
  EXPECT_EQ(verdict("openvino", "Gelu", 20, 20), OpVerdict::Supported);
  EXPECT_EQ(check_op(*v, "", "Relu", 14, 17).verdict, OpVerdict::Supported);
}

// Whole lints: the findings name the release's table.
TEST(TargetVersions, LintFindingsPerRelease) {
  // LayerNormalization at opset 17: not in TensorRT 8.5, in 8.6 and 10.x.
  ModelBuilder ln(17);
  ln.graph().input("x", kFloat, {2, 4}).output("y", kFloat, {2, 4});
  ln.graph().initializer(make_tensor_f32("scale", {4}, {1, 1, 1, 1}));
  ln.graph().node("LayerNormalization", {"x", "scale"}, {"y"}, "ln");
  const std::string bytes = ln.bytes();
  EXPECT_THAT(findings("target-unsupported-op", bytes, for_target("tensorrt@8.5")),
              ElementsAre("target-unsupported-op main/ln @tensorrt@8.5"));
  const auto d = diagnostics("target-unsupported-op", bytes, for_target("trt@8.5"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].target, "tensorrt@8.5");
  EXPECT_THAT(d[0].message, HasSubstr("TensorRT 8.5"));
  EXPECT_THAT(findings("target-unsupported-op", bytes, for_target("tensorrt@8.6")), IsEmpty());
  EXPECT_THAT(findings("target-unsupported-op", bytes, for_target("tensorrt")), IsEmpty());

  // Opset 18: beyond 8.6's range, within 10.0's.
  ModelBuilder relu18(18);
  relu18.graph().input("x", kFloat, {2}).output("y", kFloat, {2});
  relu18.graph().node("Relu", {"x"}, {"y"}, "relu");
  EXPECT_THAT(findings("target-opset-range", relu18.bytes(), for_target("tensorrt@8.6")),
              ElementsAre("target-opset-range  @tensorrt@8.6"));
  EXPECT_THAT(findings("target-opset-range", relu18.bytes(), for_target("tensorrt@10.0")),
              IsEmpty());
  // An IR 10 export (opset 21) on ONNX Runtime 1.17 (bundled ONNX 1.15: IR 9) and 1.18 (IR 10).
  ModelBuilder ir10(21, 10);
  ir10.graph().input("x", kFloat, {4}).output("y", kFloat, {4});
  ir10.graph().node("Relu", {"x"}, {"y"}, "relu");
  const auto old_ort = diagnostics("target-opset-range", ir10.bytes(), for_target("ort@1.17"));
  ASSERT_FALSE(old_ort.empty());
  EXPECT_EQ(old_ort[0].message,
            "the model's IR version 10 is newer than ONNX Runtime CPU EP 1.17 accepts (at most 9)");
  EXPECT_THAT(findings("target-opset-range", ir10.bytes(), for_target("ort@1.18")), IsEmpty());

  // An int8 Relu: 8.6 lists INT8 for Relu, 10.x treats INT8 as a quantized type only.
  ModelBuilder relu8(13);
  relu8.graph().input("x", kInt8, {2}).output("y", kInt8, {2});
  relu8.graph().node("Relu", {"x"}, {"y"}, "relu");
  EXPECT_THAT(findings("target-unsupported-type", relu8.bytes(), for_target("tensorrt@8.6")),
              IsEmpty());
  EXPECT_THAT(findings("target-unsupported-type", relu8.bytes(), for_target("tensorrt@10.0")),
              ElementsAre("target-unsupported-type main/relu @tensorrt@10.0"));
  EXPECT_THAT(findings("target-unsupported-type", relu8.bytes(), for_target("tensorrt")),
              ElementsAre("target-unsupported-type main/relu @tensorrt"));
}

}  // namespace
}  // namespace onnxlint::testing
