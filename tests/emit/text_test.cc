// The human text output: anchors, related places, collapsed infos and target findings, note/help
// lines printed once per rule, --quiet keeping target verdicts, the concise and per-file styles,
// and --min-severity (hide_below).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>

#include <sstream>

#include "support/findings.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> lines(const Report& r, TextOptions opts = {}) {
  Linter linter(builtin_registry(), LintOptions{});
  std::stringstream out;
  emit_text(r, linter, opts, out);
  std::vector<std::string> v;
  for (std::string line; std::getline(out, line);) v.push_back(line);
  return v;
}

Report one_file(std::vector<Diagnostic> diags) {
  Report r;
  r.files.resize(1);
  r.files[0].path = "m.onnx";
  r.files[0].diagnostics = std::move(diags);
  return r;
}

TEST(TextOutput, TorchNamesHaveOneSeparatorAndOffsetsAppearOnce) {
  Diagnostic d = finding("shape-data-dependent", Severity::Warning, "m", {.node = "/rpn/NonZero"});
  d.location.op_type = "NonZero";
  Diagnostic u = finding("model-unreadable", Severity::Error, "cannot read (at byte 7)");
  u.location.graph_path.clear();
  u.location.byte_offset = 7;
  EXPECT_THAT(lines(one_file({d, u})),
              ElementsAre("m.onnx: main/rpn/NonZero (NonZero): warning: m [shape-data-dependent]",
                          "m.onnx: error: cannot read (at byte 7) [model-unreadable]",
                          "1 file checked: 1 error, 1 warning, 0 info"));
}

TEST(TextOutput, RelatedPlacesNamedThenCounted) {
  Diagnostic d =
      finding("target-unsupported-op", Severity::Warning, "5 Shape nodes", {.node = "Shape_0"});
  d.target = "onnxruntime-nnapi";
  for (int i = 1; i < 5; ++i) {
    Location l = d.location;
    l.node_name = "Shape_" + std::to_string(i);
    d.related.push_back({l, ""});
  }
  d.related[0].message = "first";
  auto out = lines(one_file({d}));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1],
            "    also: main/Shape_1 (first), main/Shape_2, main/Shape_3 and 1 more (--format json "
            "lists all)");
}

TEST(TextOutput, ManyInfosOfARuleCollapseUnlessAskedFor) {
  std::vector<Diagnostic> diags;
  for (int i = 0; i < 6; ++i) {
    diags.push_back(
        finding("shape-input-dependent", Severity::Info, "i", {.node = "R" + std::to_string(i)}));
  }
  diags.push_back(finding("shape-foldable", Severity::Info, "fold", {.node = "S"}));
  auto out = lines(one_file(diags));
  EXPECT_THAT(out, ElementsAre("m.onnx: main/S: info: fold [shape-foldable]",
                               HasSubstr("m.onnx: info: 6 findings: "),
                               "1 file checked: 0 errors, 0 warnings, 7 info"));
  EXPECT_THAT(out[1], HasSubstr("[shape-input-dependent] (-v lists them)"));
  TextOptions all;
  all.show_infos = true;
  EXPECT_EQ(lines(one_file(diags), all).size(), 8u);
  // Five are shown one by one.
  diags.erase(diags.begin());
  EXPECT_EQ(lines(one_file(diags)).size(), 7u);
}

TEST(TextOutput, OnALargeModelInfosOfARuleCollapseFromTwo) {
  std::vector<Diagnostic> diags;
  for (int i = 0; i < 2; ++i) {
    diags.push_back(finding("flow-constant-condition", Severity::Info, "c",
                            {.node = "If" + std::to_string(i)}));
  }
  diags.push_back(finding("shape-foldable", Severity::Info, "fold", {.node = "S"}));
  Report r = one_file(diags);
  r.files[0].model.emplace();
  r.files[0].model->nodes = kLargeModelNodes - 1;
  EXPECT_EQ(lines(r).size(), 4u);  // a small model: each shown
  r.files[0].model->nodes = kLargeModelNodes;
  auto out = lines(r);
  EXPECT_THAT(out, ElementsAre("m.onnx: main/S: info: fold [shape-foldable]",
                               HasSubstr("m.onnx: info: 2 findings: "),
                               "1 file checked: 0 errors, 0 warnings, 3 info"));
  TextOptions all;
  all.show_infos = true;
  EXPECT_EQ(lines(r, all).size(), 4u);
}

TEST(TextOutput, ManyTargetWarningsCollapsePerTargetButErrorsNever) {
  std::vector<Diagnostic> diags;
  for (int i = 0; i < 6; ++i) {
    Diagnostic w =
        finding("target-unsupported-op", Severity::Warning, "w", {.node = "N" + std::to_string(i)});
    w.target = "onnxruntime-nnapi";
    diags.push_back(w);
    Diagnostic e =
        finding("target-unsupported-op", Severity::Error, "e", {.node = "N" + std::to_string(i)});
    e.target = "tensorrt";
    diags.push_back(e);
  }
  auto out = lines(one_file(diags));
  ASSERT_EQ(out.size(), 8u);  // 6 errors, one count line, the summary
  EXPECT_THAT(out[6], HasSubstr("warning: [onnxruntime-nnapi] 6 findings: "));
  EXPECT_THAT(out[6], HasSubstr("(see the target summary; -v lists them)"));
}

TEST(TextOutput, NotesAndHelpPrintedOncePerRuleInAFile) {
  Diagnostic a = finding("flow-data-dependent-if", Severity::Warning, "a", {.node = "If_1"});
  a.notes = {"chain a", "same note"};
  a.help = "same help";
  Diagnostic b = finding("flow-data-dependent-if", Severity::Warning, "b", {.node = "If_2"});
  b.notes = {"chain b", "same note"};
  b.help = "same help";
  EXPECT_THAT(lines(one_file({a, b})),
              ElementsAre(HasSubstr("If_1"), "    note: chain a", "    note: same note",
                          "    help: same help", HasSubstr("If_2"), "    note: chain b",
                          "1 file checked: 0 errors, 2 warnings, 0 info"));
}

TEST(TextOutput, AHelpSeveralRulesGiveIsPrintedOncePerFile) {
  // A detector's post-processing is a data-dependent shape, an If and a Loop: one fix.
  Diagnostic a = finding("shape-data-dependent", Severity::Warning, "a", {.node = "NonZero"});
  a.help = "the detector's fix";
  Diagnostic b = finding("flow-data-dependent-if", Severity::Warning, "b", {.node = "If_1"});
  b.help = "the detector's fix";
  Diagnostic c = finding("flow-data-dependent-loop", Severity::Warning, "c", {.node = "Loop_2"});
  c.help = "another fix";
  EXPECT_THAT(lines(one_file({a, b, c})),
              ElementsAre(HasSubstr("NonZero"), "    help: the detector's fix", HasSubstr("If_1"),
                          HasSubstr("Loop_2"), "    help: another fix",
                          "1 file checked: 0 errors, 3 warnings, 0 info"));
}

TEST(TextOutput, OnALargeModelTargetFindingsCollapseFromTwoAndARulesWarningsAfterFive) {
  std::vector<Diagnostic> diags;
  for (int i = 0; i < 2; ++i) {
    Diagnostic w =
        finding("target-restriction", Severity::Warning, "r", {.node = "T" + std::to_string(i)});
    w.target = "onnxruntime-nnapi";
    diags.push_back(w);
  }
  for (int i = 0; i < 7; ++i) {
    diags.push_back(finding("shape-data-dependent", Severity::Warning, "d" + std::to_string(i),
                            {.node = "N" + std::to_string(i)}));
  }
  Report r = one_file(diags);
  r.files[0].model.emplace();
  r.files[0].model->nodes = kLargeModelNodes - 1;
  EXPECT_EQ(lines(r).size(), 10u);  // a small model: each shown
  r.files[0].model->nodes = kLargeModelNodes;
  auto out = lines(r);
  ASSERT_EQ(out.size(), 8u);
  for (int i = 0; i < 5; ++i) EXPECT_THAT(out[i], HasSubstr(": d" + std::to_string(i) + " ["));
  EXPECT_EQ(out[5],
            "m.onnx: warning: 2 more findings: Op whose output shape depends on runtime tensor "
            "values [shape-data-dependent] (-v lists them)");
  EXPECT_THAT(out[6], HasSubstr("warning: [onnxruntime-nnapi] 2 findings: "));
  EXPECT_EQ(out[7], "1 file checked: 0 errors, 9 warnings, 0 info");
  TextOptions all;
  all.show_infos = true;
  EXPECT_EQ(lines(r, all).size(), 10u);
}

Report with_sections() {
  Report r = one_file({finding("graph-dead-node", Severity::Warning, "dead", {.node = "n"})});
  r.files[0].sections.push_back({"dynamic_shapes", nullptr, {"dim 'batch': 1 of 1 nodes"}});
  r.files[0].sections.push_back(
      {"targets",
       nlohmann::json::parse(R"([{"target": "tensorrt", "name": "TensorRT", "verdict": "ok",
         "supported_nodes": 1, "partitions": 1,
         "source": {"repo": "onnx/onnx-tensorrt", "path": "docs/operators.md", "version": "10.15"}},
         {"target": "onnxruntime-nnapi", "name": "NNAPI", "verdict": "partial",
         "supported_nodes": 1, "unsupported_nodes": 1, "partitions": 1,
         "unsupported_ops": [{"op": "Acos", "count": 1}],
         "source": {"repo": "microsoft/onnxruntime", "path": "nnapi.md", "version": "1.2"}}])"),
       {}});
  return r;
}

TEST(TextOutput, FullFormShowsEveryVerdictAndEachTableSourceOnce) {
  Report r = with_sections();
  r.files.push_back(r.files[0]);
  r.files[1].path = "n.onnx";
  for (Diagnostic& d : r.files[1].diagnostics) d.location.file = "n.onnx";
  EXPECT_THAT(lines(r),
              ElementsAre("m.onnx: main/n: warning: dead [graph-dead-node]", "m.onnx: targets:",
                          "  tensorrt (TensorRT): ok: 1/1 nodes supported, 1 supported partition",
                          "  onnxruntime-nnapi (NNAPI): partial: 1/2 nodes supported, 1 supported "
                          "partition; unsupported: Acos x1",
                          "m.onnx: dynamic_shapes:", "  dim 'batch': 1 of 1 nodes",
                          "n.onnx: main/n: warning: dead [graph-dead-node]", "n.onnx: targets:",
                          "  tensorrt (TensorRT): ok: 1/1 nodes supported, 1 supported partition",
                          "  onnxruntime-nnapi (NNAPI): partial: 1/2 nodes supported, 1 supported "
                          "partition; unsupported: Acos x1",
                          "n.onnx: dynamic_shapes:", "  dim 'batch': 1 of 1 nodes",
                          "onnxruntime-nnapi support table: microsoft/onnxruntime nnapi.md @ 1.2",
                          "tensorrt support table: onnx/onnx-tensorrt docs/operators.md @ 10.15",
                          "2 files checked: 0 errors, 2 warnings, 0 info"));
}

TEST(TextOutput, QuietKeepsFindingsAndVerdictsThatAreNotOk) {
  TextOptions q;
  q.quiet = true;
  EXPECT_THAT(lines(with_sections(), q),
              ElementsAre("m.onnx: main/n: warning: dead [graph-dead-node]", "m.onnx: targets:",
                          "  onnxruntime-nnapi (NNAPI): partial: 1/2 nodes supported, 1 "
                          "supported partition; unsupported: Acos x1"));
  // -v shows every verdict.
  q.show_infos = true;
  EXPECT_THAT(lines(with_sections(), q), ::testing::SizeIs(4));
  // A clean file with only ok verdicts prints nothing at all.
  Report clean = with_sections();
  clean.files[0].diagnostics.clear();
  clean.files[0].sections[1].data.erase(1);
  q.show_infos = false;
  EXPECT_THAT(lines(clean, q), ::testing::IsEmpty());
  // --min-severity above info is a quiet form too: no other sections, only verdicts not ok.
  TextOptions shown;
  shown.min_severity = Severity::Warning;
  EXPECT_THAT(lines(clean, shown), ElementsAre("1 file checked: 0 errors, 0 warnings, 0 info"));
}

TEST(TextOutput, UnmetRequirementsFailAndShowInEveryStyle) {
  Report r = with_sections();
  EXPECT_EQ(decide_verdicts(r, Severity::Error, {TargetRequirement{"", Support::Full}}), 1);
  EXPECT_TRUE(r.files[0].failed);
  EXPECT_THAT(r.run.required_targets, ElementsAre(TargetRequirement{"", Support::Full}));
  TextOptions q;
  q.quiet = true;
  EXPECT_THAT(lines(r, q),
              ::testing::Contains("m.onnx: error: required target verdict not met: "
                                  "onnxruntime-nnapi: partial, required full (1 of 2 nodes "
                                  "unsupported: Acos x1)"));
  // partial is met by partial and ok; a requirement on one target ignores the others.
  Report p = with_sections();
  EXPECT_EQ(decide_verdicts(p, Severity::Error, {TargetRequirement{"", Support::Partial}}), 0);
  Report t = with_sections();
  EXPECT_EQ(decide_verdicts(t, Severity::Error, {TargetRequirement{"tensorrt", Support::Full}}), 0);
  EXPECT_FALSE(t.files[0].failed);
}

TEST(TextOutput, ConciseIsOneLinePerFinding) {
  Report r = with_sections();
  r.files[0].diagnostics[0].notes = {"n"};
  r.files[0].diagnostics[0].help = "h";
  TextOptions c;
  c.style = TextStyle::Concise;
  EXPECT_THAT(lines(r, c),
              ElementsAre("m.onnx: main/n: warning: dead [graph-dead-node]", "m.onnx: targets:",
                          "  onnxruntime-nnapi (NNAPI): partial: 1/2 nodes supported, 1 "
                          "supported partition; unsupported: Acos x1",
                          "onnxruntime-nnapi support table: microsoft/onnxruntime nnapi.md @ 1.2",
                          "1 file checked: 0 errors, 1 warning, 0 info"));
}

TEST(TextOutput, SummaryStyleIsOneLinePerFile) {
  Report r = with_sections();
  r.files.resize(3);
  r.files[1].path = "ok.onnx";
  r.files[2].path = "lfs.onnx";
  r.files[2].status = FileReport::Status::Unreadable;
  Diagnostic u = finding("model-unreadable", Severity::Error, "cannot read the model: LFS");
  u.location.file = "lfs.onnx";
  r.files[2].diagnostics = {u};
  TextOptions s;
  s.style = TextStyle::Files;
  EXPECT_THAT(lines(r, s),
              ElementsAre("m.onnx: 0 errors, 1 warning, 0 info; tensorrt ok; onnxruntime-nnapi "
                          "partial",
                          "ok.onnx: ok", "lfs.onnx: unreadable: cannot read the model: LFS",
                          "3 files checked: 1 error, 1 warning, 0 info, 1 unreadable"));
}

TEST(TextOutput, MinSeverityHidesAndCounts) {
  Report r = one_file({finding("graph-dead-node", Severity::Warning, "w", {.node = "a"}),
                       finding("shape-foldable", Severity::Info, "i", {.node = "b"}),
                       finding("graph-undefined-value", Severity::Error, "e", {.node = "c"})});
  EXPECT_EQ(exit_code(r, Severity::Warning), 1);
  hide_below(r, Severity::Error);
  EXPECT_EQ(r.files[0].hidden, 2u);
  EXPECT_THAT(lines(r), ElementsAre("m.onnx: main/c: error: e [graph-undefined-value]",
                                    "1 file checked: 1 error, 0 warnings, 0 info, 2 below "
                                    "--min-severity not shown"));
}

TEST(TextOutput, ATargetRulesCountsOnSeveralTargetsShareOneLine) {
  // A large model: a target rule's warnings collapse per target; the counts of one rule and
  // severity on two targets are one line, those of another severity their own.
  std::vector<Diagnostic> diags;
  for (const char* target : {"onnxruntime-nnapi", "onnxruntime-coreml-mlprogram"}) {
    for (int i = 0; i < (std::string_view(target) == "onnxruntime-nnapi" ? 3 : 2); ++i) {
      Diagnostic d = finding("target-unsupported-op", Severity::Warning, "cannot run",
                             {.node = "n" + std::to_string(i)});
      d.target = target;
      diags.push_back(d);
    }
  }
  Report r = one_file(diags);
  r.files[0].model = ModelSummary{};
  r.files[0].model->nodes = kLargeModelNodes;
  const auto out = lines(r);
  EXPECT_THAT(out, ::testing::Contains(
                       "m.onnx: warning: 5 findings on onnxruntime-coreml-mlprogram (2), "
                       "onnxruntime-nnapi (3): Operator, at the model's opset, that a selected "
                       "target runtime does not support [target-unsupported-op] (see the target "
                       "summary; -v lists them)"));
  EXPECT_EQ(out.size(), 2u) << ::testing::PrintToString(out);  // that line and the summary
}

}  // namespace
}  // namespace onnxlint::testing
