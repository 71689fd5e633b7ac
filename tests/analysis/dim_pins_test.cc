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

// ---- Where the sizes come from ---------------------------------------------------------------

// x [N, 16] * ones, with `ones` written by `writer` (through a Cast) and N met there.
ModelBuilder written_then_mul(const std::string& writer) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  if (writer == "ConstantOfShape") {
    g.initializer(make_tensor_i64("size", {2}, {2, 16}));
    g.node("ConstantOfShape", {"size"}, {"raw"}, "write");
  } else if (writer == "Expand") {
    g.initializer(make_tensor_f32("row", {1, 16}, std::vector<float>(16, 0.f)));
    g.initializer(make_tensor_i64("shape", {2}, {2, 16}));
    g.node("Expand", {"row", "shape"}, {"raw"}, "write");
  } else if (writer == "Tile") {
    g.initializer(make_tensor_f32("row", {1, 16}, std::vector<float>(16, 0.f)));
    g.initializer(make_tensor_i64("reps", {2}, {2, 1}));
    g.node("Tile", {"row", "reps"}, {"raw"}, "write");
  } else {  // a weight: nothing writes the size
    g.initializer(make_tensor_f32("raw", {2, 16}, std::vector<float>(32, 0.f)));
  }
  attr_int(g.node("Cast", {"raw"}, {"ones"}, "cast"), "to", kFloat);
  g.node("Mul", {"x", "ones"}, {"y"}, "mul");
  return m;
}

TEST(DimPins, TheNodeThatWroteTheFixedSizeIsFoundBackThroughCopies) {
  for (const std::string writer : {"ConstantOfShape", "Expand", "Tile"}) {
    const auto pinned = pins_of(written_then_mul(writer).bytes());
    ASSERT_EQ(pinned.pins.size(), 1u) << writer;
    const DimPin& p = pinned.pins[0];
    EXPECT_EQ(p.node->name(), "mul") << writer;
    ASSERT_NE(p.written_by, nullptr) << writer;
    EXPECT_EQ(p.written_by->name(), "write") << writer;
    EXPECT_EQ(p.folded_by, nullptr) << writer;
    EXPECT_EQ(p.required, 2) << writer;
  }
  // A weight's dim: pinned, but nothing wrote it.
  const auto weight = pins_of(written_then_mul("weight").bytes());
  ASSERT_EQ(weight.pins.size(), 1u);
  EXPECT_EQ(weight.pins[0].written_by, nullptr);
}

// x [N, 16] -> Reshape(target) -> Gemm with a weight of `in_features` inputs.
ModelBuilder reshape_then_gemm(const std::vector<int64_t>& target, int64_t in_features,
                               std::vector<DimSpec> x = {std::string("N"), 16}) {
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, x).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("shape", {static_cast<int64_t>(target.size())}, target));
  g.initializer(make_tensor_f32("w", {4, in_features},
                                std::vector<float>(static_cast<size_t>(4 * in_features))));
  g.node("Reshape", {"x", "shape"}, {"flat"}, "view");
  attr_int(g.node("Gemm", {"flat", "w"}, {"y"}, "fc"), "transB", 1);
  return m;
}

TEST(DimPins, AReshapeWhoseInferredDimAbsorbsAConstantRatioFoldedTheDim) {
  // view(2, -1): 16 is lost and 2 written, so dim 1 is 8*N.
  const auto folded = pins_of(reshape_then_gemm({2, -1}, 16).bytes());
  ASSERT_EQ(folded.pins.size(), 1u);
  ASSERT_NE(folded.pins[0].folded_by, nullptr);
  EXPECT_EQ(folded.pins[0].folded_by->name(), "view");
  EXPECT_EQ(folded.pins[0].expr, "8*N");
  EXPECT_EQ(folded.pins[0].first, 2);
  EXPECT_EQ(folded.pins[0].last, 2);
  // [0, 16, -1] of [N, 16, H, 1] only regroups dims: H stays what it is, and the Gemm's weight
  // is what pins it.
  const auto regroup = pins_of(
      reshape_then_gemm({0, 16, -1}, 4, {std::string("N"), 16, std::string("H"), 1}).bytes());
  for (const DimPin& p : regroup.pins) EXPECT_EQ(p.folded_by, nullptr) << p.expr;
}

TEST(DimPins, WriterOfAnOutputDim) {
  // y = x.view(2, -1): dim 0 of y is written by the Reshape; dim 1 is computed.
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("shape", {2}, {2, -1}));
  g.node("Reshape", {"x", "shape"}, {"y"}, "view");
  const AnalysedModel a = analyse_as(m.bytes());
  const DimPins& pins = a.cache->get<DimPins>();
  const Provenance& p = a.cache->get<Provenance>();
  const ValueId y = p.find(a.model->graph(), "y");
  ASSERT_NE(pins.writer_of(y, 0), nullptr);
  EXPECT_EQ(pins.writer_of(y, 0)->name(), "view");
  EXPECT_EQ(pins.writer_of(y, 1), nullptr);
  EXPECT_EQ(pins.writer_of(y, 7), nullptr);         // no such dim
  EXPECT_EQ(pins.writer_of(kNoValue, 0), nullptr);  // no such value
}

// A local function `Flat` reshaping its input to [2, 8, 2], called with x [N, 16]; a second
// call with z [M, 16] when `second_call`; the call inside an If branch on a runtime condition
// when `guarded`.
ModelBuilder function_reshape(bool second_call, bool guarded) {
  ModelBuilder m(14);
  m.opset("local", 1);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  if (guarded) {
    g.input("c", kBool, {});
    auto& branch = g.node("If", {"c"}, {"y"}, "if");
    onnx::GraphProto then_g, else_g;
    then_g.set_name("then");
    else_g.set_name("else");
    auto* call = then_g.add_node();
    call->set_op_type("Flat");
    call->set_domain("local");
    call->add_input("x");
    call->add_output("t");
    then_g.add_output()->set_name("t");
    auto* id = else_g.add_node();
    id->set_op_type("Identity");
    id->add_input("x");
    id->add_output("e");
    else_g.add_output()->set_name("e");
    attr_graph(branch, "then_branch", then_g);
    attr_graph(branch, "else_branch", else_g);
  } else {
    g.node("Flat", {"x"}, {"y"}, "call", "local");
  }
  if (second_call) {
    g.input("z", kFloat, {std::string("M"), 16}).output("w", kFloat, {}, false);
    g.node("Flat", {"z"}, {"w"}, "call2", "local");
  }
  onnx::FunctionProto* fn = m.proto().add_functions();
  fn->set_name("Flat");
  fn->set_domain("local");
  auto* imp = fn->add_opset_import();
  imp->set_domain("");
  imp->set_version(14);
  fn->add_input("a");
  fn->add_output("b");
  auto* c = fn->add_node();
  c->set_op_type("Constant");
  c->add_output("s");
  attr_tensor(*c, "value", make_tensor_i64("", {3}, {2, 8, 2}));
  auto* r = fn->add_node();
  r->set_op_type("Reshape");
  r->set_name("reshape");
  r->add_input("a");
  r->add_input("s");
  r->add_output("b");
  return m;
}

TEST(DimPins, FunctionBodiesCalledWhereTheyAlwaysRun) {
  const auto called = pins_of(function_reshape(false, false).bytes());
  ASSERT_EQ(called.pins.size(), 1u);
  EXPECT_EQ(called.pins[0].node->name(), "reshape");
  EXPECT_THAT(called.pins[0].dim_names, ElementsAre("N"));
  EXPECT_EQ(called.pins[0].required, 32);
  // Two calls with different dims: the body's dim is not one expression for every call.
  EXPECT_THAT(pins_of(function_reshape(true, false).bytes()).pins, IsEmpty());
  // Called only in a branch taken at run time: it may run only at some sizes.
  EXPECT_THAT(pins_of(function_reshape(false, true).bytes()).pins, IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
