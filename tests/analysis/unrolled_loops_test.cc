// UnrolledLoops (include/onnxlint/unrolled_loops.h): the runs of single-position Gather/Slice
// pieces that export-unrolled-loop and export-baked-shape both read. Each test asserts the exact
// runs of a tiny model.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/unrolled_loops.h>

#include <string>
#include <vector>

#include "analysis/analysed.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// x [B, T, 8]; Gather at `positions` of axis `axis`; the pieces stacked by a Concat when
// `combine` (through an Unsqueeze each).
ModelBuilder pieces(const std::vector<int64_t>& positions, bool combine = true, int64_t axis = 1) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("T"), 8});
  g.initializer(make_tensor_i64("ax", {1}, {1}));
  std::vector<std::string> outs;
  for (size_t k = 0; k < positions.size(); ++k) {
    const std::string i = std::to_string(k);
    g.initializer(make_tensor_i64("idx" + i, {}, {positions[k]}));
    attr_int(g.node("Gather", {"x", "idx" + i}, {"p" + i}, "piece_" + i), "axis", axis);
    g.node("Unsqueeze", {"p" + i, "ax"}, {"u" + i}, "unsq_" + i);
    outs.push_back("u" + i);
    if (!combine) g.output("u" + i, kFloat, {}, false);
  }
  if (combine) {
    attr_int(g.node("Concat", outs, {"y"}, "stack"), "axis", 1);
    g.output("y", kFloat, {}, false);
  }
  return m;
}

struct Runs {
  AnalysedModel a;
  const UnrolledLoops* loops = nullptr;
};
Runs runs_of(const std::string& bytes) {
  Runs out{analyse_as(bytes), nullptr};
  out.loops = &out.a.cache->get<UnrolledLoops>();
  return out;
}

std::vector<std::string> piece_names(const UnrolledRun& r) {
  std::vector<std::string> out;
  for (const UnrolledPiece& p : r.pieces) out.emplace_back(p.node->name());
  return out;
}

TEST(UnrolledLoops, PiecesCombinedAgain) {
  const Runs r = runs_of(pieces({2, 0, 1}).bytes());
  ASSERT_EQ(r.loops->runs().size(), 1u);
  const UnrolledRun& run = r.loops->runs()[0];
  EXPECT_EQ(r.a.p->name_of(run.data), "x");
  EXPECT_EQ(run.axis, 1);
  EXPECT_THAT(piece_names(run), ElementsAre("piece_0", "piece_1", "piece_2"));
  ASSERT_NE(run.combined, nullptr);
  EXPECT_EQ(run.combined->name(), "stack");
  EXPECT_EQ(run.leading_length, 3);
  const Provenance& p = *r.a.p;
  EXPECT_TRUE(r.loops->combines_pieces(p.find(r.a.model->graph(), "y")));
  EXPECT_FALSE(r.loops->combines_pieces(p.find(r.a.model->graph(), "u0")));
}

TEST(UnrolledLoops, NeverCombinedHolesAndNegativePositions) {
  const Runs apart = runs_of(pieces({0, 1, 2}, false).bytes());
  ASSERT_EQ(apart.loops->runs().size(), 1u);
  EXPECT_EQ(apart.loops->runs()[0].combined, nullptr);
  EXPECT_EQ(apart.loops->runs()[0].leading_length, 3);
  // A hole: positions 0, 2, 3 are not 0..k-1.
  const Runs hole = runs_of(pieces({0, 2, 3}).bytes());
  ASSERT_EQ(hole.loops->runs().size(), 1u);
  EXPECT_EQ(hole.loops->runs()[0].leading_length, 0);
  // First and last token: -1 stays as written (its position depends on the size).
  const Runs ends = runs_of(pieces({0, -1}).bytes());
  ASSERT_EQ(ends.loops->runs().size(), 1u);
  EXPECT_EQ(ends.loops->runs()[0].leading_length, 1);
  EXPECT_EQ(ends.loops->runs()[0].pieces[1].index, -1);
  // One piece is no run.
  EXPECT_THAT(runs_of(pieces({0}).bytes()).loops->runs(), IsEmpty());
}

TEST(UnrolledLoops, NegativeAxisResolvedWithTheRank) {
  const Runs r = runs_of(pieces({0, 1, 2}, true, -2).bytes());
  ASSERT_EQ(r.loops->runs().size(), 1u);
  EXPECT_EQ(r.loops->runs()[0].axis, 1);
}

TEST(UnrolledLoops, SlicePiecesOfWidthOneAndWiderSlices) {
  // x[:, i:i+1] for i in 0..2, plus x[:, 0:2] (a crop, not a position) on the same axis.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("T"), 8});
  g.initializer(make_tensor_i64("ax", {1}, {1}));
  std::vector<std::string> outs;
  for (int k = 0; k < 3; ++k) {
    const std::string i = std::to_string(k);
    g.initializer(make_tensor_i64("st" + i, {1}, {k}));
    g.initializer(make_tensor_i64("en" + i, {1}, {k + 1}));
    g.node("Slice", {"x", "st" + i, "en" + i, "ax"}, {"p" + i}, "piece_" + i);
    outs.push_back("p" + i);
  }
  g.initializer(make_tensor_i64("two", {1}, {2}));
  g.node("Slice", {"x", "st0", "two", "ax"}, {"crop"}, "crop");
  g.node("Add", {"p0", "p1"}, {"s01"}, "add_1");
  g.node("Add", {"s01", "p2"}, {"y"}, "add_2");
  g.output("y", kFloat, {}, false).output("crop", kFloat, {}, false);
  const Runs r = runs_of(m.bytes());
  ASSERT_EQ(r.loops->runs().size(), 1u);
  const UnrolledRun& run = r.loops->runs()[0];
  EXPECT_THAT(piece_names(run), ElementsAre("piece_0", "piece_1", "piece_2", "crop"));
  EXPECT_EQ(run.leading_length, 3);  // the crop reads two positions: not one of them
  ASSERT_NE(run.combined, nullptr);
  EXPECT_EQ(run.combined->name(), "add_1");
}

TEST(UnrolledLoops, UnpackingAShapeVectorIsNoRun) {
  // b, t, d = x.shape: Gather at 0, 1, 2 of Shape(x), combined in a Concat.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("T"), 8});
  g.node("Shape", {"x"}, {"s"}, "shape");
  g.initializer(make_tensor_i64("ax", {1}, {0}));
  std::vector<std::string> outs;
  for (int k = 0; k < 3; ++k) {
    const std::string i = std::to_string(k);
    g.initializer(make_tensor_i64("idx" + i, {}, {k}));
    g.node("Gather", {"s", "idx" + i}, {"d" + i});
    g.node("Unsqueeze", {"d" + i, "ax"}, {"u" + i});
    outs.push_back("u" + i);
  }
  attr_int(g.node("Concat", outs, {"y"}), "axis", 0);
  g.output("y", kInt64, {}, false);
  EXPECT_THAT(runs_of(m.bytes()).loops->runs(), IsEmpty());
}

TEST(UnrolledLoops, SingleAxisSliceReadsBothForms) {
  // Slice-1 (attributes) and Slice-10 (inputs); several axes, a step of 2, or a runtime end
  // are not single-axis slices.
  ModelBuilder old(9);
  auto& g = old.graph();
  g.input("x", kFloat, {4, 8}).output("y", kFloat, {}, false).output("z", kFloat, {}, false);
  auto& a = g.node("Slice", {"x"}, {"y"}, "a");
  attr_ints(a, "starts", {1});
  attr_ints(a, "ends", {3});
  attr_ints(a, "axes", {-1});
  auto& b = g.node("Slice", {"x"}, {"z"}, "b");
  attr_ints(b, "starts", {0, 0});
  attr_ints(b, "ends", {1, 1});
  const AnalysedModel o = analyse_as(old.bytes());
  const auto sa = single_axis_slice(*o.p, o.model->graph().nodes()[0]);
  ASSERT_TRUE(sa.has_value());
  EXPECT_EQ(sa->axis, -1);
  EXPECT_EQ(sa->start, 1);
  EXPECT_EQ(sa->end, 3);
  EXPECT_FALSE(single_axis_slice(*o.p, o.model->graph().nodes()[1]));

  ModelBuilder m(13);
  auto& h = m.graph();
  h.input("x", kFloat, {4, 8}).input("e", kInt64, {1});
  h.initializer(make_tensor_i64("st", {1}, {2}));
  h.initializer(make_tensor_i64("en", {1}, {5}));
  h.initializer(make_tensor_i64("ax", {1}, {1}));
  h.initializer(make_tensor_i64("two", {1}, {2}));
  h.node("Slice", {"x", "st", "en", "ax"}, {"p"}, "p");
  h.node("Slice", {"x", "st", "en", "ax", "two"}, {"q"}, "q");
  h.node("Slice", {"x", "st", "e", "ax"}, {"r"}, "r");
  h.node("Relu", {"x"}, {"s"}, "s");
  for (const char* o2 : {"p", "q", "r", "s"}) h.output(o2, kFloat, {}, false);
  const AnalysedModel n = analyse_as(m.bytes());
  const auto& nodes = n.model->graph().nodes();
  const auto sp = single_axis_slice(*n.p, nodes[0]);
  ASSERT_TRUE(sp.has_value());
  EXPECT_EQ(sp->axis, 1);
  EXPECT_EQ(sp->start, 2);
  EXPECT_EQ(sp->end, 5);
  EXPECT_FALSE(single_axis_slice(*n.p, nodes[1]));  // step 2
  EXPECT_FALSE(single_axis_slice(*n.p, nodes[2]));  // end computed at run time
  EXPECT_FALSE(single_axis_slice(*n.p, nodes[3]));  // not a Slice
}

}  // namespace
}  // namespace onnxlint::testing
