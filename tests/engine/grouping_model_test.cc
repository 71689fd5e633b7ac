// One finding per cause on models: the per-class copies of an unrolled post-processing loop
// (torchvision's `postprocess_detections` traced over N classes) are one shape-data-dependent
// finding whose count is N, with every copy a related location; copies of a different shape
// stay apart; the fingerprint (and so a baseline) does not change as copies are added; and the
// help of detection post-processing is not the advice about tensor code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/baseline.h>
#include <onnxlint/registry.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// torch's name for the k-th node of an op in one scope: "/NonZero", "/NonZero_1", ...
std::string torch_name(const std::string& scope, const std::string& op, int k) {
  return scope + "/" + op + (k == 0 ? "" : "_" + std::to_string(k));
}

struct PerClass {
  int copies = 3;
  std::string scope;  // "" (top level, as SSD's) or "/roi_heads"
  bool nms = false;   // the per-class results feed a NonMaxSuppression
  int odd_copy = -1;  // this copy has an Abs in its chain: another cause
  int first = 0;      // the first copy's number (1: copy 0 was removed)
};

// scores [8, C] -> per class c: Gather(scores, c, axis 1) -> Greater(thr) -> NonZero, the
// copies concatenated into one output (and, with `nms`, their count bounding an NMS).
ModelBuilder per_class_model(const PerClass& p) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("scores", kFloat, {8, 91});
  g.initializer(make_tensor_f32("thr", {}, {0.5f}));
  std::vector<std::string> parts;
  for (int c = p.first; c < p.copies; ++c) {
    const std::string k = std::to_string(c);
    g.constant_i64("idx" + k, {c + 1}, {});
    g.node("Gather", {"scores", "idx" + k}, {"s" + k}, torch_name(p.scope, "Gather", c));
    std::string s = "s" + k;
    if (c == p.odd_copy) {
      g.node("Abs", {s}, {"a" + k}, torch_name(p.scope, "Abs", 0));
      s = "a" + k;
    }
    g.node("Greater", {s, "thr"}, {"m" + k}, torch_name(p.scope, "Greater", c));
    g.node("NonZero", {"m" + k}, {"nz" + k}, torch_name(p.scope, "NonZero", c));
    parts.push_back("nz" + k);
  }
  auto& cat = g.node("Concat", parts, {"keep"}, torch_name(p.scope, "Concat", 0));
  attr_int(cat, "axis", 1);
  g.output("keep", kInt64, {}, false);
  if (p.nms) {
    g.input("boxes", kFloat, {1, 8, 4}).input("nms_scores", kFloat, {1, 1, 8});
    g.node("Shape", {"keep"}, {"keep_shape"}, torch_name(p.scope, "Shape", 0));
    g.constant_i64("one", {1}, {1});
    g.constant_i64("two", {2}, {1});
    g.node("Slice", {"keep_shape", "one", "two"}, {"max_out"}, torch_name(p.scope, "Slice", 0));
    g.node("NonMaxSuppression", {"boxes", "nms_scores", "max_out"}, {"selected"},
           torch_name(p.scope, "NonMaxSuppression", 0));
    g.output("selected", kInt64, {}, false);
  }
  return m;
}

constexpr const char* kRule = "shape-data-dependent";

std::vector<std::string> related_anchors(const Diagnostic& d) {
  std::vector<std::string> out;
  for (const RelatedLocation& r : d.related) {
    out.push_back(r.location.anchor() + (r.message.empty() ? "" : " (" + r.message + ")"));
  }
  return out;
}

TEST(GroupByCauseModels, PerClassCopiesAreOneFindingWithEveryCopyRelated) {
  const std::string bytes = per_class_model({.copies = 4}).bytes();
  EXPECT_THAT(findings(kRule, bytes), ElementsAre("shape-data-dependent main/NonZero"));
  auto d = diagnostics(kRule, bytes);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].count, 4u);
  EXPECT_EQ(d[0].message,
            "NonZero '/NonZero' has an output shape set by the runtime values of its input 'X' "
            "('m0') (and the same at 3 other nodes)");
  // The graph output the first copy reaches (its own related place), then the other copies.
  EXPECT_THAT(related_anchors(d[0]),
              ElementsAre("main:'keep' (graph output)", "main/NonZero_1 (same cause)",
                          "main/NonZero_2 (same cause)", "main/NonZero_3 (same cause)"));
  // The first copy's own chain: the others' say the same with other names.
  EXPECT_EQ(d[0].notes[0], "'m0' comes from /Greater \u2190 /Gather \u2190 input 'scores'");
  // Without a detector's marks, the advice about tensor code stays.
  EXPECT_THAT(d[0].help, HasSubstr("torch.where(mask, x, fill)"));
}

TEST(GroupByCauseModels, ACopyWithAnotherChainIsAnotherFinding) {
  const std::string bytes = per_class_model({.copies = 4, .odd_copy = 2}).bytes();
  EXPECT_THAT(findings(kRule, bytes), ElementsAre("shape-data-dependent main/NonZero",
                                                  "shape-data-dependent main/NonZero_2"));
  auto d = diagnostics(kRule, bytes);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].count, 3u);
  EXPECT_EQ(d[1].count, 1u);
  EXPECT_THAT(d[1].notes[0], HasSubstr("/Abs"));
  EXPECT_TRUE(d[1].related.empty());
}

// The rule's report on the per-class model, as a baseline sees it (path models/det.onnx).
Report lint_per_class(const PerClass& p) {
  LintOptions o;
  o.select = {kRule};
  Linter linter(builtin_registry(), o);
  Report r;
  r.files.push_back(linter.lint_bytes("models/det.onnx", per_class_model(p).bytes()));
  return r;
}

TEST(GroupByCauseModels, FingerprintAndBaselineHoldAsCopiesAreAdded) {
  auto lint = [](int copies) { return lint_per_class({.copies = copies}); };
  const Report one = lint(1);
  ASSERT_EQ(one.files[0].diagnostics.size(), 1u);
  const std::string fingerprint = one.files[0].diagnostics[0].fingerprint();
  for (int copies : {2, 3, 7}) {
    const Report r = lint(copies);
    ASSERT_EQ(r.files[0].diagnostics.size(), 1u) << copies;
    EXPECT_EQ(r.files[0].diagnostics[0].count, static_cast<uint32_t>(copies));
    EXPECT_EQ(r.files[0].diagnostics[0].fingerprint(), fingerprint) << copies;
  }
  // A baseline written when the model had two copies accepts it with seven, and the other
  // way round: the grouped finding is one accepted finding, not six new ones.
  for (auto [written, later] : {std::pair{2, 7}, std::pair{7, 2}, std::pair{1, 7}}) {
    Baseline b(std::filesystem::current_path());
    b.add(lint(written));
    Report r = lint(later);
    EXPECT_EQ(b.apply(r).fixed, 0u) << written << " -> " << later;
    EXPECT_TRUE(r.files[0].diagnostics.empty()) << written << " -> " << later;
    EXPECT_EQ(r.files[0].baselined, 1u);
  }
}

// Removing the first copy makes the second one the finding's first, with its own fingerprint:
// the baseline entry lists every copy's, so the group is still the accepted finding (and a
// baseline written after the removal accepts the model with the copy back).
TEST(GroupByCauseModels, BaselineHoldsWhenTheFirstCopyIsRemoved) {
  auto lint = [](int first) { return lint_per_class({.copies = 4, .first = first}); };
  const Report whole = lint(0), without_first = lint(1);
  ASSERT_EQ(whole.files[0].diagnostics.size(), 1u);
  ASSERT_EQ(without_first.files[0].diagnostics.size(), 1u);
  EXPECT_NE(whole.files[0].diagnostics[0].fingerprint(),
            without_first.files[0].diagnostics[0].fingerprint());
  for (auto [written, later] : {std::pair{0, 1}, std::pair{1, 0}}) {
    Baseline b(std::filesystem::current_path());
    b.add(lint(written));
    std::ostringstream text;
    b.write(text);
    EXPECT_NE(text.str().find("\"copies\""), std::string::npos);
    // Through the file format: the copies survive a write and a read.
    // Beside the models' folder, as `--write-baseline` puts it (paths are relative to it).
    const std::filesystem::path file =
        std::filesystem::current_path() / ("onnxlint-copies-" + std::to_string(written) + ".json");
    { std::ofstream(file) << text.str(); }
    Baseline read = Baseline::load(file);
    std::filesystem::remove(file);  // a test leaves nothing in the folder it runs in
    Report r = lint(later);
    EXPECT_EQ(read.apply(r).fixed, 0u) << written << " -> " << later;
    EXPECT_TRUE(r.files[0].diagnostics.empty()) << written << " -> " << later;
    EXPECT_EQ(r.files[0].baselined, 1u);
  }
}

TEST(GroupByCauseModels, DetectionPostprocessingGetsTheHelpForThatConstruct) {
  // The per-class copies feed a NonMaxSuppression: torchvision's post-processing, unrolled.
  auto d = diagnostics(kRule, per_class_model({.copies = 3, .nms = true}).bytes());
  ASSERT_GE(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/NonZero");
  EXPECT_EQ(d[0].count, 3u);
  EXPECT_THAT(d[0].help, AllOf(HasSubstr("post-processing"), HasSubstr("NonMaxSuppression"),
                               HasSubstr("EfficientNMS"), HasSubstr("model.backbone"),
                               Not(HasSubstr("torch.where")), Not(HasSubstr("Compress"))));
  // Not the generic help of any op: the help is chosen by the cause, not by the op.
  EXPECT_NE(d[0].help.find("data-dependent shapes"), std::string::npos);

  // torchvision's two-stage scopes name the construct even without an NMS in sight.
  auto roi = diagnostics(kRule, per_class_model({.copies = 2, .scope = "/roi_heads"}).bytes());
  ASSERT_EQ(roi.size(), 1u);
  EXPECT_EQ(roi[0].location.anchor(), "main/roi_heads/NonZero");
  EXPECT_THAT(roi[0].help, AllOf(HasSubstr("two-stage"), HasSubstr("model.rpn.head"),
                                 Not(HasSubstr("torch.where"))));
}

TEST(GroupByCauseModels, TheGroupedFindingTravelsThroughAnIsolatedWorker) {
  // Crash isolation sends the report over a pipe: the count and the cause go with it.
  LintOptions o;
  o.select = {kRule};
  o.isolate = true;
  Linter linter(builtin_registry(), o);
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/grouping_isolated.onnx";
  {
    std::ofstream out(path, std::ios::binary);
    out << per_class_model({.copies = 5}).bytes();
  }
  Report r = linter.lint_paths({path});
  ASSERT_EQ(r.files.size(), 1u);
  ASSERT_EQ(r.files[0].diagnostics.size(), 1u);
  EXPECT_EQ(r.files[0].diagnostics[0].count, 5u);
  EXPECT_FALSE(r.files[0].diagnostics[0].cause.empty());
  EXPECT_EQ(r.files[0].diagnostics[0].related.size(), 5u);  // the graph output and 4 copies
}

// Two Ifs branching on per-class conditions of the same shape, with equal branches: one
// flow-data-dependent-if finding; an If whose branches differ is another.
ModelBuilder per_class_ifs(bool different_branches) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("scores", kFloat, {8, 91});
  g.initializer(make_tensor_f32("zero", {}, {0.f}));
  for (int c = 0; c < 3; ++c) {
    const std::string k = std::to_string(c);
    g.constant_i64("idx" + k, {c + 1}, {});
    g.node("Gather", {"scores", "idx" + k}, {"s" + k}, torch_name("", "Gather", c));
    g.node("ReduceSum", {"s" + k}, {"t" + k}, torch_name("", "ReduceSum", c));
    g.node("Greater", {"t" + k, "zero"}, {"cond" + k}, torch_name("", "Greater", c));
    onnx::GraphProto then_g, else_g;
    GraphBuilder t(&then_g), e(&else_g);
    t.output("ty" + k, kFloat, {}, false);
    t.node("Neg", {"s" + k}, {"ty" + k}, "Neg_t" + k);
    e.output("ey" + k, kFloat, {}, false);
    e.node(different_branches && c == 2 ? "Relu" : "Abs", {"s" + k}, {"ey" + k}, "Abs_e" + k);
    auto& n = g.node("If", {"cond" + k}, {"y" + k}, "If_" + std::to_string(10 + c));
    attr_graph(n, "then_branch", then_g);
    attr_graph(n, "else_branch", else_g);
    g.output("y" + k, kFloat, {}, false);
  }
  return m;
}

TEST(GroupByCauseModels, IfsOfTheSameShapeAreOneFindingAndOtherBranchesAnother) {
  EXPECT_THAT(findings("flow-data-dependent-if", per_class_ifs(false).bytes()),
              ElementsAre("flow-data-dependent-if main/If_10"));
  auto d = diagnostics("flow-data-dependent-if", per_class_ifs(false).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].count, 3u);
  EXPECT_THAT(related_anchors(d[0]),
              ElementsAre("main/If_11 (same cause)", "main/If_12 (same cause)"));
  EXPECT_THAT(
      findings("flow-data-dependent-if", per_class_ifs(true).bytes()),
      ElementsAre("flow-data-dependent-if main/If_10", "flow-data-dependent-if main/If_12"));
}

}  // namespace
}  // namespace onnxlint::testing
