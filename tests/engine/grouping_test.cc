// group_by_cause(): findings of one cause repeated over copied structure become one finding;
// findings of different causes never merge. Hand-made findings here; the rules that state a
// cause are tested on models in tests/engine/grouping_model_test.cc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/diagnostic.h>

#include <algorithm>
#include <random>

#include "support/findings.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;

// A finding of `rule` at node `name` (index `index`) with a cause, as a rule would report one
// copy of an unrolled loop.
Diagnostic copy_at(const std::string& name, uint32_t index, const std::string& cause = "c",
                   const std::string& rule = "shape-data-dependent") {
  Diagnostic d = finding(rule, Severity::Warning, "NonZero '" + name + "' has a shape",
                         {.node = name, .node_index = index, .op_type = "NonZero"});
  d.cause = cause;
  d.help = "h";
  return d;
}

std::vector<std::string> anchors(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds)
    out.push_back(d.location.anchor() + " x" + std::to_string(d.count));
  return out;
}

std::vector<std::string> related(const Diagnostic& d) {
  std::vector<std::string> out;
  for (const RelatedLocation& r : d.related) {
    out.push_back(r.location.anchor() + (r.message.empty() ? "" : " (" + r.message + ")"));
  }
  return out;
}

TEST(GroupByCause, NumberedCopiesBecomeOneFindingWithEverySiteRelated) {
  std::vector<Diagnostic> ds = {copy_at("/NonZero", 3), copy_at("/NonZero_1", 9),
                                copy_at("/NonZero_2", 15)};
  ds[0].related.push_back({ds[0].location, "graph output"});
  ds[0].related[0].location.node_name.clear();
  ds[0].related[0].location.node_index.reset();
  ds[0].related[0].location.value_name = "boxes";
  ds[2].related.push_back({ds[0].related[0].location, "graph output"});  // reached twice
  ds[2].related.back().location.value_name = "scores";
  ds[0].notes = {"the chain of the first copy"};
  group_by_cause(ds);
  ASSERT_THAT(anchors(ds), ElementsAre("main/NonZero x3"));
  const Diagnostic& d = ds[0];
  EXPECT_EQ(d.message, "NonZero '/NonZero' has a shape (and the same at 2 other nodes)");
  EXPECT_THAT(d.notes, ElementsAre("the chain of the first copy"));
  // Its own related places, then the other sites, then what those reach.
  EXPECT_THAT(related(d),
              ElementsAre("main:'boxes' (graph output)", "main/NonZero_1 (same cause)",
                          "main/NonZero_2 (same cause)", "main:'scores' (graph output)"));
  EXPECT_EQ(d.help, "h");
}

TEST(GroupByCause, OneOtherPlaceIsSingular) {
  std::vector<Diagnostic> ds = {copy_at("/NonZero", 3), copy_at("/NonZero_1", 9)};
  group_by_cause(ds);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].message, "NonZero '/NonZero' has a shape (and the same at 1 other node)");
}

TEST(GroupByCause, TheFirstCopyIsTheLowestNumberedAndKeepsItsFingerprint) {
  // The fingerprint of the merged finding is that of its first copy alone, however many copies
  // follow and in whatever order the rule reported them: a baseline that accepted the model
  // with one copy accepts it with ninety.
  const std::string alone = copy_at("/roi_heads/Gather", 40).fingerprint();
  for (int copies : {2, 3, 10, 90}) {
    std::vector<Diagnostic> ds = {copy_at("/roi_heads/Gather", 40)};
    for (int i = 1; i < copies; ++i) {
      ds.push_back(copy_at("/roi_heads/Gather_" + std::to_string(i * 3), 40 + 7 * i));
    }
    std::shuffle(ds.begin(), ds.end(), std::mt19937(copies));
    group_by_cause(ds);
    ASSERT_EQ(ds.size(), 1u) << copies;
    EXPECT_EQ(ds[0].location.anchor(), "main/roi_heads/Gather");
    EXPECT_EQ(ds[0].fingerprint(), alone) << copies;
    EXPECT_EQ(ds[0].count, static_cast<uint32_t>(copies));
    EXPECT_EQ(ds[0].related.size(), static_cast<size_t>(copies - 1));
  }
}

TEST(GroupByCause, BodiesOfNumberedNodesAreComparedNumberAware) {
  // `main/If_9:then_branch` comes before `main/If_12:then_branch` (not as strings).
  std::vector<Diagnostic> ds;
  for (int k : {12, 100, 9}) {
    Diagnostic d = copy_at("Reshape_" + std::to_string(k + 1), 0);
    d.location.graph_path = "main/If_" + std::to_string(k) + ":then_branch";
    ds.push_back(d);
  }
  group_by_cause(ds);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].location.anchor(), "main/If_9:then_branch/Reshape_10");
  EXPECT_THAT(related(ds[0]), ElementsAre("main/If_12:then_branch/Reshape_13 (same cause)",
                                          "main/If_100:then_branch/Reshape_101 (same cause)"));
}

TEST(GroupByCause, SiblingScopesNumberedAlikeMerge) {
  std::vector<Diagnostic> ds = {copy_at("/layers.0/attn/NonZero", 5),
                                copy_at("/layers.1/attn/NonZero", 50),
                                copy_at("/layers.11/attn/NonZero_3", 500)};
  group_by_cause(ds);
  EXPECT_THAT(anchors(ds), ElementsAre("main/layers.0/attn/NonZero x3"));
}

TEST(GroupByCause, DifferentCausesNeverMerge) {
  Diagnostic base = copy_at("/NonZero", 3);
  auto variant = [&](auto change) {
    Diagnostic d = copy_at("/NonZero_1", 9);
    change(d);
    return d;
  };
  std::vector<Diagnostic> ds = {
      base,
      variant([](Diagnostic& d) { d.rule_id = "flow-data-dependent-if"; }),
      variant([](Diagnostic& d) { d.severity = Severity::Error; }),
      variant([](Diagnostic& d) { d.target = "tensorrt"; }),
      variant([](Diagnostic& d) { d.key = "N=3"; }),
      variant([](Diagnostic& d) { d.cause = "v:Greater<v:Abs<in"; }),  // another chain shape
      variant([](Diagnostic& d) { d.help = "another fix"; }),
      variant([](Diagnostic& d) { d.location.op_type = "Compress"; }),
      variant([](Diagnostic& d) { d.location.node_name = "/backbone/NonZero_1"; }),  // elsewhere
      variant([](Diagnostic& d) { d.location.graph_path = "main/Loop_2:body"; }),
      variant([](Diagnostic& d) { d.cause.clear(); }),  // a rule that states no cause
  };
  const size_t n = ds.size();
  group_by_cause(ds);
  EXPECT_EQ(ds.size(), n);
  for (const Diagnostic& d : ds) {
    EXPECT_EQ(d.count, 1u);
    EXPECT_TRUE(d.related.empty());
  }
}

TEST(GroupByCause, KeysThatEncodeValuesAreComparedAsTheyAre) {
  // One pinned size per key: "N=3" and "N=5" are two facts, not copies of one.
  std::vector<Diagnostic> ds = {copy_at("/Reshape", 1), copy_at("/Reshape_1", 2),
                                copy_at("/Reshape_2", 3)};
  ds[0].key = "N=3";
  ds[1].key = "N=5";
  ds[2].key = "N=3";
  group_by_cause(ds);
  EXPECT_THAT(anchors(ds), ElementsAre("main/Reshape x2", "main/Reshape_1 x1"));
}

TEST(GroupByCause, FindingsWithoutACauseAndOtherFilesStayAsTheyAre) {
  std::vector<Diagnostic> ds = {copy_at("/NonZero", 1, ""), copy_at("/NonZero_1", 2, "")};
  Diagnostic other = copy_at("/NonZero_2", 3);
  other.location.file = "b.onnx";
  ds.push_back(other);
  ds.push_back(copy_at("/NonZero_3", 4));
  group_by_cause(ds);
  EXPECT_THAT(anchors(ds), ElementsAre("main/NonZero x1", "main/NonZero_1 x1", "main/NonZero_2 x1",
                                       "main/NonZero_3 x1"));
}

TEST(GroupByCause, CountsAddUpWhenAMergedFindingIsMergedAgain) {
  std::vector<Diagnostic> ds = {copy_at("/NonZero", 1), copy_at("/NonZero_1", 2)};
  group_by_cause(ds);
  ds.push_back(copy_at("/NonZero_2", 3));
  ds.back().count = 4;  // a rule that grouped four places itself
  group_by_cause(ds);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].count, 6u);
  EXPECT_EQ(ds[0].message, "NonZero '/NonZero' has a shape (and the same at 5 other nodes)");
}

TEST(GroupByCause, ManyFindingsInLinearTime) {
  // 20 000 copies of one cause and 20 000 findings of distinct causes: one pass with a hash
  // per finding (a quadratic merge would take minutes here).
  std::vector<Diagnostic> ds;
  ds.reserve(40000);
  for (uint32_t i = 0; i < 20000; ++i) {
    ds.push_back(copy_at("/NonZero_" + std::to_string(i), i));
    ds.push_back(copy_at("/Reshape_" + std::to_string(i), 20000 + i, "cause " + std::to_string(i)));
  }
  group_by_cause(ds);
  EXPECT_EQ(ds.size(), 20001u);
  EXPECT_EQ(ds[0].count, 20000u);
  EXPECT_EQ(ds[0].related.size(), 19999u);
}

}  // namespace
}  // namespace onnxlint::testing
