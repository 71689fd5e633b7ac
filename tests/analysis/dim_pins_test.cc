// DimPins (include/onnxlint/dim_pins.h): the registry's constraint rules solved over the
// analysis's dims. Each test asserts the exact pins of a tiny model, or that there are none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/dim_pins.h>

#include <span>
#include <string>
#include <vector>

#include "analysis/analysed.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The pins of a model, kept with the model and analyses they point into.
struct Pinned {
  AnalysedModel a;
  std::span<const DimPin> pins;
};
Pinned pins_of(const std::string& bytes) {
  Pinned out{analyse_as(bytes), {}};
  out.pins = out.a.cache->get<DimPins>().pins();
  return out;
}

// x [1, 1, H, W] -> `convs` stride-2 convolutions (kernel 3, pad 1) along H -> + table rows.
ModelBuilder convs_then_table(int convs, int64_t rows, bool w_too = false) {
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 1, std::string("H"), w_too ? DimSpec(std::string("W")) : DimSpec(4)})
      .output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("w", {1, 1, 3, 3}, std::vector<float>(9, 0.f)));
  g.initializer(
      make_tensor_f32("table", {1, 1, rows, w_too ? rows : 1},
                      std::vector<float>(static_cast<size_t>(rows * (w_too ? rows : 1)))));
  std::string prev = "x";
  for (int k = 0; k < convs; ++k) {
    const std::string out = "c" + std::to_string(k);
    auto& c = g.node("Conv", {prev, "w"}, {out}, "conv" + std::to_string(k));
    attr_ints(c, "strides", {2, w_too ? 2 : 1});
    attr_ints(c, "pads", {1, 1, 1, 1});
    attr_ints(c, "kernel_shape", {3, 3});
    prev = out;
  }
  g.node("Add", {prev, "table"}, {"y"}, "add");
  return m;
}

TEST(DimPins, OneDimSolvedToItsInterval) {
  const auto pinned = pins_of(convs_then_table(1, 32).bytes());
  const auto& pins = pinned.pins;
  ASSERT_EQ(pins.size(), 1u);
  const DimPin& p = pins[0];
  EXPECT_EQ(p.node->name(), "add");
  EXPECT_THAT(p.dim_names, ElementsAre("H"));
  EXPECT_EQ(p.expr, "(H-1)/2+1");
  EXPECT_EQ(p.required, 32);
  EXPECT_TRUE(p.or_one);
  EXPECT_EQ(p.first, 63);
  EXPECT_EQ(p.last, 64);
  EXPECT_EQ(p.first_one, 1);  // (H-1)/2+1 is 1 for H = 1, 2
  EXPECT_EQ(p.last_one, 2);
  EXPECT_THAT(p.at_most, ElementsAre(64));
  EXPECT_EQ(p.input, 0u);
  EXPECT_EQ(p.axis, 2u);
  EXPECT_EQ(p.fixed_axis, 2u);
}

TEST(DimPins, TwoDimsGetBoundsAndTheSizesThatWorkWhenEqual) {
  const auto pinned = pins_of(convs_then_table(1, 8, true).bytes());
  const auto& pins = pinned.pins;
  // Axis 2 pins H alone and axis 3 W alone (each dim of the table meets one of them).
  ASSERT_EQ(pins.size(), 2u);
  EXPECT_THAT(pins[0].dim_names, ElementsAre("W"));
  EXPECT_EQ(pins[0].first, 15);
  EXPECT_EQ(pins[0].last, 16);
  EXPECT_THAT(pins[1].dim_names, ElementsAre("H"));
}

TEST(DimPins, AProductOfTwoDimsIsBoundedPerDim) {
  // Flatten of [1, 1, (H-1)/2+1, (W-1)/2+1] against a [16, 4] weight: the product must be 16.
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 1, std::string("H"), std::string("W")}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("w", {1, 1, 3, 3}, std::vector<float>(9, 0.f)));
  g.initializer(make_tensor_f32("fc", {16, 4}, std::vector<float>(64, 0.f)));
  auto& c = g.node("Conv", {"x", "w"}, {"c"}, "conv");
  attr_ints(c, "strides", {2, 2});
  attr_ints(c, "pads", {1, 1, 1, 1});
  attr_ints(c, "kernel_shape", {3, 3});
  g.node("Flatten", {"c"}, {"f"}, "flatten");
  g.node("MatMul", {"f", "fc"}, {"y"}, "matmul");
  const auto pinned = pins_of(m.bytes());
  const auto& pins = pinned.pins;
  ASSERT_EQ(pins.size(), 1u);
  EXPECT_THAT(pins[0].dim_names, ::testing::UnorderedElementsAre("H", "W"));
  EXPECT_EQ(pins[0].required, 16);
  EXPECT_FALSE(pins[0].or_one);
  EXPECT_THAT(pins[0].at_most, ElementsAre(32, 32));  // the other dim at its smallest, 1
  EXPECT_EQ(pins[0].first, 7);                        // H = W = 7 or 8: 4 * 4
  EXPECT_EQ(pins[0].last, 8);
}

TEST(DimPins, NothingIsProvenWhereTheExpressionStopsGrowingOrHasNoSolution) {
  // A table of one row broadcasts against anything.
  EXPECT_THAT(pins_of(convs_then_table(1, 1).bytes()).pins, IsEmpty());
  // min(seq, 4) = 4 holds for every seq >= 4.
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("seq"), 2}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("st", {1}, {0}));
  g.initializer(make_tensor_i64("en", {1}, {4}));
  g.initializer(make_tensor_f32("table", {4, 2}, std::vector<float>(8, 0.f)));
  g.node("Slice", {"x", "st", "en"}, {"s"}, "slice");
  g.node("Add", {"s", "table"}, {"y"}, "add");
  EXPECT_THAT(pins_of(m.bytes()).pins, IsEmpty());
}

TEST(DimPins, RepeatedEqualitiesKeepAtMostEightPinsPerSetOfDims) {
  ModelBuilder m = convs_then_table(1, 32);
  auto& g = m.graph();
  for (int k = 0; k < 20; ++k) {
    g.node("Add", {"c0", "table"}, {"z" + std::to_string(k)}, "again" + std::to_string(k));
    g.output("z" + std::to_string(k), kFloat, {}, false);
  }
  const auto pinned = pins_of(m.bytes());
  const auto& pins = pinned.pins;
  ASSERT_EQ(pins.size(), 8u);
  for (const DimPin& p : pins) {
    EXPECT_EQ(p.first, 63);
    EXPECT_EQ(p.last, 64);
  }
}

TEST(DimPins, DeepExpressionsStayExact) {
  // Five stride-2 convolutions, each ceil(x/2): 32 rows for H = 993 to 1024.
  const auto pinned = pins_of(convs_then_table(5, 32).bytes());
  const auto& pins = pinned.pins;
  ASSERT_EQ(pins.size(), 1u);
  EXPECT_EQ(pins[0].first, 993);
  EXPECT_EQ(pins[0].last, 1024);
}

}  // namespace
}  // namespace onnxlint::testing
