// Per-dimension facts: one dynamic dim does not taint its neighbours, shape vectors are
// followed element by element, sequences carry a length, data-set dims carry bounds, and
// symbolic dims are expressions. Each test is one pattern seen in real exports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "analysis/analysed.h"
#include "rules/shape_flow_models.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using Facts = AnalysedModel;

Facts analyse(const std::string& bytes) { return analyse_as<Facts>(bytes); }

// boxes[n, 5] -> mask -> NonZero -> GatherND: kept[K, 5] with K set by data.
void masked_rows(GraphBuilder& g) {
  g.input("boxes", kFloat, {std::string("n"), 5});
  g.initializer(make_tensor_f32("half", {}, {0.5f}));
  g.constant_i64("col", {4}, {});
  attr_int(g.node("Gather", {"boxes", "col"}, {"score"}, "Gather_score"), "axis", 1);
  g.node("Greater", {"score", "half"}, {"mask"}, "Greater_mask");
  g.node("NonZero", {"mask"}, {"nz"}, "NonZero_mask");
  attr_ints(g.node("Transpose", {"nz"}, {"idx"}, "Transpose_idx"), "perm", {1, 0});
  g.node("GatherND", {"boxes", "idx"}, {"kept"}, "GatherND_kept");
}

TEST(DimFacts, DataDimKeepsItsFixedNeighbour) {
  // t = kept[:, [0]] is [K, 1]; torch's opset-11 squeeze tests Shape(t)[1] == 1.
  ModelBuilder m(11);
  auto& g = m.graph();
  masked_rows(g);
  g.output("cond", kBool, {});
  g.constant_i64("first", {0}, {1});
  attr_int(g.node("Gather", {"kept", "first"}, {"t"}, "Gather_t"), "axis", 1);
  g.node("Shape", {"t"}, {"st"});
  g.constant_i64("one_idx", {1}, {});
  g.node("Gather", {"st", "one_idx"}, {"d1"});
  g.constant_i64("one", {1}, {});
  g.node("Equal", {"d1", "one"}, {"cond"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("nz"), "1,data");
  EXPECT_EQ(f.dims("kept"), "data,5");
  EXPECT_EQ(f.dims("t"), "data,1");
  EXPECT_EQ(f.shape("t"), ShapeClass::DataDependent);
  EXPECT_EQ(f.elems("st"), "data,1");
  EXPECT_EQ(f.value("d1"), ValueClass::Constant);
  EXPECT_EQ(f.value("cond"), ValueClass::Constant);
  EXPECT_EQ(f.p->known_ints(f.v("cond")), std::vector<int64_t>{1});
}

TEST(DimFacts, RangeOverAWeightFixedDimIsStatic) {
  // arange(y.shape[1]) where y = Linear(x[mask]) is [K, 10]: 10 comes from the weight.
  ModelBuilder m(13);
  auto& g = m.graph();
  masked_rows(g);
  g.output("r", kInt64, {10});
  g.initializer(make_tensor_f32("w", {10, 5}, std::vector<float>(50, 0.f)));
  attr_int(g.node("Gemm", {"kept", "w"}, {"y"}, "Gemm_fc"), "transB", 1);
  g.node("Shape", {"y"}, {"sy"});
  g.constant_i64("one_idx", {1}, {});
  g.node("Gather", {"sy", "one_idx"}, {"classes"});
  g.constant_i64("zero", {0}, {});
  g.constant_i64("step", {1}, {});
  g.node("Range", {"zero", "classes", "step"}, {"r"}, "Range_classes");
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("y"), "data,10");
  EXPECT_EQ(f.value("classes"), ValueClass::Constant);
  EXPECT_EQ(f.dims("r"), "10");
  EXPECT_EQ(f.shape("r"), ShapeClass::Static);
}

TEST(DimFacts, ReshapeTargetFromAFixedBatchDimIsConstant) {
  // x.reshape(x.shape[0], -1, x.shape[1]) with x [1, 3, height, width].
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 3, std::string("height"), std::string("width")});
  g.output("y", kFloat, {1, int64_t{-1}, 3});
  g.node("Shape", {"x"}, {"s"});
  g.constant_i64("i0", {0}, {});
  g.node("Gather", {"s", "i0"}, {"n"});
  g.constant_i64("i1", {1}, {});
  g.node("Gather", {"s", "i1"}, {"c"});
  g.constant_i64("ax", {0});
  g.node("Unsqueeze", {"n", "ax"}, {"n1"});
  g.node("Unsqueeze", {"c", "ax"}, {"c1"});
  g.constant_i64("minus1", {-1});
  attr_int(g.node("Concat", {"n1", "minus1", "c1"}, {"target"}), "axis", 0);
  g.node("Reshape", {"x", "target"}, {"y"}, "Reshape_y");
  // flatten(): Reshape(x, Concat(Slice(Shape(x), 0, 0), [-1])), an empty slice.
  g.output("flat", kFloat, {int64_t{-1}});
  g.node("Shape", {"x"}, {"s2"});
  g.constant_i64("z0", {0});
  g.constant_i64("z1", {0});
  g.constant_i64("axes0", {0});
  g.node("Slice", {"s2", "z0", "z1", "axes0"}, {"lead"});
  attr_int(g.node("Concat", {"lead", "minus1"}, {"flat_target"}), "axis", 0);
  g.node("Reshape", {"x", "flat_target"}, {"flat"}, "Reshape_flat");
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.value("target"), ValueClass::Constant);
  EXPECT_EQ(f.p->known_ints(f.v("target")), (std::vector<int64_t>{1, -1, 3}));
  EXPECT_EQ(f.dims("y"), "1,height*width,3");
  EXPECT_EQ(f.value("flat_target"), ValueClass::Constant);
  EXPECT_EQ(f.p->known_ints(f.v("flat_target")), std::vector<int64_t>{-1});
  EXPECT_EQ(f.dims("flat"), "3*height*width");
}

TEST(DimFacts, SequenceGrownByADataLoopHasNoConstantLength) {
  Facts f = analyse(shape_flow::sequence_grown_by_data_loop().bytes());
  EXPECT_EQ(f.dims("empty"), "rank?");  // a sequence has a length, not dims
  EXPECT_EQ(f.dims("seq"), "rank?");
  EXPECT_EQ(f.value("n"), ValueClass::Data);
  EXPECT_FALSE(f.p->known_ints(f.v("n")));
  EXPECT_EQ(f.shape("all"), ShapeClass::DataDependent);
}

TEST(DimFacts, SequenceOfKnownLength) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("a", kFloat, {2}).input("b", kFloat, {3});
  g.output("n", kInt64, {});
  g.node("SequenceConstruct", {"a", "b"}, {"s2"});
  g.node("SequenceInsert", {"s2", "a"}, {"s3"});
  g.node("SequenceLength", {"s3"}, {"n"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.value("n"), ValueClass::Constant);
  EXPECT_EQ(f.p->known_ints(f.v("n")), std::vector<int64_t>{3});
}

TEST(DimFacts, ASequenceOfFixedLengthCanHoldDataShapedTensors) {
  // SplitToSequence(x, sizes) with sizes read from an input: 3 pieces of unknown sizes.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {12}).input("sizes", kInt64, {3});
  g.output("n", kInt64, {});
  g.node("SplitToSequence", {"x", "sizes"}, {"seq"});
  g.node("SequenceLength", {"seq"}, {"n"});
  g.constant_i64("i0", {0}, {});
  g.node("SequenceAt", {"seq", "i0"}, {"first"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.p->known_ints(f.v("n")), std::vector<int64_t>{3});
  EXPECT_EQ(f.shape("seq"), ShapeClass::DataDependent);
  EXPECT_EQ(f.shape("first"), ShapeClass::DataDependent);
}

TEST(DimFacts, SequenceElementsKeepTheDimsTheyShare) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("a", kFloat, {2, 3, 4}).input("b", kFloat, {1, 3, 4});
  g.output("cat", kFloat, {int64_t{-1}, 3, 4});
  g.node("SequenceConstruct", {"a", "b"}, {"s"});
  g.constant_i64("i0", {0}, {});
  g.node("SequenceAt", {"s", "i0"}, {"first"});
  attr_int(g.node("ConcatFromSequence", {"s"}, {"cat"}), "axis", 1);
  auto& stacked = g.node("ConcatFromSequence", {"s"}, {"stacked"});
  attr_int(stacked, "axis", 0);
  attr_int(stacked, "new_axis", 1);
  Facts f = analyse(m.bytes());
  // Rows: 2 or 1, so at least 1.
  EXPECT_EQ(f.dims("first"), "?>=1,3,4");
  EXPECT_EQ(f.dims("cat"), "?>=1,6,4");
  EXPECT_EQ(f.dims("stacked"), "2,?>=1,3,4");
}

TEST(DimFacts, OptionalsAreFollowedLikeSequencesOfAtMostOne) {
  ModelBuilder m(18);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 3});
  g.output("has", kBool, {});
  g.node("Optional", {"x"}, {"opt"});
  g.node("OptionalHasElement", {"opt"}, {"has"});
  g.node("OptionalGetElement", {"opt"}, {"back"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.value("has"), ValueClass::Constant);
  EXPECT_EQ(f.p->known_ints(f.v("has")), std::vector<int64_t>{1});
  EXPECT_EQ(f.dims("back"), "N,3");
}

TEST(DimFacts, SequenceMapBodiesSeeOneElement) {
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {6, 4});
  g.output("shapes", kInt64, {}, false);
  attr_int(g.node("SplitToSequence", {"x"}, {"rows"}), "keepdims", 0);
  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("row", kFloat, {}, false).output("s", kInt64, {}, false);
  b.node("Shape", {"row"}, {"s"});
  attr_graph(g.node("SequenceMap", {"rows"}, {"shapes"}, "Map_0"), "body", body);
  g.node("SequenceLength", {"shapes"}, {"n"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("row", "main/Map_0:body"), "4");
  EXPECT_EQ(f.elems("s", "main/Map_0:body"), "4");
  EXPECT_EQ(f.p->known_ints(f.v("n")), std::vector<int64_t>{6});
}

TEST(DimFacts, ArithmeticIsIntegerArithmeticOnlyWhereTheValuesAreIntegers) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.output("eq", kBool, {});
  g.constant_i64("seven", {7}, {});
  g.constant_i64("two", {2}, {});
  g.constant_i64("three", {3}, {});
  // 7.0 / 2.0 is 3.5 in float: not the integer 3.
  for (const char* v : {"seven", "two", "three"}) {
    attr_int(g.node("Cast", {v}, {std::string(v) + "_f"}), "to", 1);
  }
  g.node("Div", {"seven_f", "two_f"}, {"half"});
  g.node("Equal", {"half", "three_f"}, {"eq"});
  // Integer Div truncates toward zero (-7 / 2 = -3), Mod takes the divisor's sign.
  g.constant_i64("minus7", {-7}, {});
  g.node("Div", {"minus7", "two"}, {"q"});
  g.node("Mod", {"minus7", "two"}, {"r"});
  // No number where the arithmetic overflows.
  g.constant_i64("big", {std::numeric_limits<int64_t>::max()}, {});
  g.node("Mul", {"big", "two"}, {"over"});
  g.node("Add", {"big", "big"}, {"over2"});
  Facts f = analyse(m.bytes());
  EXPECT_FALSE(f.p->known_ints(f.v("eq")));
  EXPECT_EQ(f.p->known_ints(f.v("q")), std::vector<int64_t>{-3});
  EXPECT_EQ(f.p->known_ints(f.v("r")), std::vector<int64_t>{1});
  EXPECT_FALSE(f.p->known_ints(f.v("over")));
  EXPECT_FALSE(f.p->known_ints(f.v("over2")));
}

TEST(DimFacts, DataSetDimsCarryStaticBounds) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {4, 5});
  g.output("nz", kInt64, {2, int64_t{-1}});
  g.node("NonZero", {"x"}, {"nz"});
  g.node("Unique", {"x"}, {"u", "ui", "inv", "cnt"});
  g.input("boxes", kFloat, {1, 100, 4}).input("scores", kFloat, {1, 3, 100});
  g.constant_i64("max_out", {20}, {1});
  g.node("NonMaxSuppression", {"boxes", "scores", "max_out"}, {"sel"});
  g.constant_i64("k", {2}, {1});
  g.node("TopK", {"x", "k"}, {"top", "top_i"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("nz"), "2,data<=20");
  EXPECT_EQ(f.dims("u"), "data<=20");
  EXPECT_EQ(f.dims("inv"), "20");
  EXPECT_EQ(f.dims("sel"), "data<=60,3");
  EXPECT_EQ(f.dims("top"), "4,2");
  EXPECT_EQ(f.shape("top"), ShapeClass::Static);
  EXPECT_EQ(f.shape("nz"), ShapeClass::DataDependent);
}

TEST(DimFacts, SymbolicDimsAreExpressions) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 8}).input("img", kFloat, {1, 3, std::string("H"), 32});
  g.output("y", kFloat, {int64_t{-1}, 8});
  g.initializer(make_tensor_f32("one_row", {1, 8}, std::vector<float>(8, 0.f)));
  attr_int(g.node("Concat", {"x", "one_row"}, {"y"}), "axis", 0);
  attr_int(g.node("Concat", {"x", "x"}, {"xx"}), "axis", 0);
  g.initializer(make_tensor_f32("w", {4, 3, 3, 3}, std::vector<float>(108, 0.f)));
  auto& conv = g.node("Conv", {"img", "w"}, {"c"});
  attr_ints(conv, "pads", {1, 1, 1, 1});
  attr_ints(conv, "strides", {2, 2});
  auto& same = g.node("Conv", {"img", "w"}, {"c_same"});
  attr_ints(same, "pads", {1, 1, 1, 1});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("y"), "N+1,8");
  EXPECT_EQ(f.dims("xx"), "N+N,8");
  EXPECT_EQ(f.dims("c"), "1,4,(H-1)/2+1,16");
  EXPECT_EQ(f.dims("c_same"), "1,4,H,32");
}

// x[:, :, : h // 2] with h = x.shape[2]: Slice's end is H/2, never past H, so the sliced dim is
// H/2, not min(H, H/2); with ceil division (torch.chunk's first piece) the same. Near miss:
// (H+2)/2 is past H for H = 0, so that min stays.
TEST(DimFacts, SliceToAFractionOfItsOwnDimIsThatFraction) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 4, std::string("H"), std::string("W")});
  g.node("Shape", {"x"}, {"s"});
  g.constant_i64("two", {2}, {});
  g.constant_i64("one", {1}, {});
  g.constant_i64("axis", {2}, {1});
  g.constant_i64("zero", {0}, {1});
  attr_int(g.node("Gather", {"s", "two"}, {"h"}), "axis", 0);
  g.node("Div", {"h", "two"}, {"half"});
  g.node("Add", {"h", "one"}, {"h1"});
  g.node("Div", {"h1", "two"}, {"half_up"});
  g.constant_i64("unsq_axes", {0}, {1});
  g.node("Unsqueeze", {"half", "unsq_axes"}, {"end"});
  g.node("Unsqueeze", {"half_up", "unsq_axes"}, {"end_up"});
  g.node("Add", {"h1", "one"}, {"h2"});
  g.node("Div", {"h2", "two"}, {"half_past"});
  g.node("Unsqueeze", {"half_past", "unsq_axes"}, {"end_past"});
  g.node("Slice", {"x", "zero", "end", "axis"}, {"y"});
  g.node("Slice", {"x", "zero", "end_up", "axis"}, {"y_up"});
  g.node("Slice", {"x", "zero", "end_past", "axis"}, {"y_past"});
  g.output("y").output("y_up").output("y_past");
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("y"), "N,4,H/2,W");
  EXPECT_EQ(f.dims("y_up"), "N,4,(H+1)/2,W");
  EXPECT_EQ(f.dims("y_past"), "N,4,min(H, (H+2)/2),W");
}

TEST(DimFacts, PadsBuiltAsAMatrixAreFollowedElementByElement) {
  // torch's F.pad(x, (0, 0, 0, 12)) at opset 11+: the pads [0, 0, 0, 12] are padded with
  // ConstantOfShape zeros to 2 * rank, reshaped to [rank, 2], reversed (Slice, step -1),
  // transposed and flattened. An asymmetric pad shows the order: [1, 2] on axis 2, [3, 4] on
  // axis 1.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("b"), std::string("seq"), 8});
  g.constant_i64("given", {1, 2, 3, 4}, {4});
  g.constant_i64("two", {2}, {1});
  auto& zeros = g.node("ConstantOfShape", {"two"}, {"zeros"});
  attr_tensor(zeros, "value", make_tensor_i64("", {1}, {0}));
  attr_int(g.node("Concat", {"given", "zeros"}, {"flat"}), "axis", 0);
  g.constant_i64("pairs", {-1, 2}, {2});
  g.node("Reshape", {"flat", "pairs"}, {"matrix"});
  g.constant_i64("start", {-1}, {1});
  g.constant_i64("end", {std::numeric_limits<int64_t>::min() + 1}, {1});
  g.constant_i64("axis0", {0}, {1});
  g.constant_i64("back", {-1}, {1});
  g.node("Slice", {"matrix", "start", "end", "axis0", "back"}, {"reversed"});
  attr_ints(g.node("Transpose", {"reversed"}, {"columns"}), "perm", {1, 0});
  g.constant_i64("minus1", {-1}, {1});
  g.node("Reshape", {"columns", "minus1"}, {"pads"});
  g.node("Pad", {"x", "pads"}, {"y"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.elems("zeros"), "0,0");
  EXPECT_EQ(f.elems("reversed"), "0,0,3,4,1,2");
  EXPECT_EQ(f.elems("columns"), "0,3,1,0,4,2");
  EXPECT_EQ(f.dims("y"), "b,seq+7,11");
}

TEST(DimFacts, LoopCarriedGrowthIsNotTheInitialDim) {
  // y = x; for _ in range(k): y = cat(y, row): after the loop y is not [N, 8].
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 8}).input("k", kInt64, {});
  g.output("y", kFloat, {int64_t{-1}, 8});
  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("i", kInt64, {}).input("c_in", kBool, {}).input("y_in", kFloat, {}, false);
  b.output("c_out", kBool, {}).output("y_out", kFloat, {}, false);
  b.node("Identity", {"c_in"}, {"c_out"});
  b.initializer(make_tensor_f32("row", {1, 8}, std::vector<float>(8, 0.f)));
  attr_int(b.node("Concat", {"y_in", "row"}, {"y_out"}), "axis", 0);
  attr_graph(g.node("Loop", {"k", "", "x"}, {"y"}, "Loop_grow"), "body", body);
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("y"), "rank?");
  EXPECT_EQ(f.shape("y"), ShapeClass::DataDependent);
}

// toks = [tok] * start; loop: toks = cat(toks, [next]): the carried tensor starts with
// `start` rows and only grows, so toks[-1:] is one row when it starts non-empty.
std::string greedy_decode(int64_t start) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("k", kInt64, {}).output("toks", kInt64, {int64_t{-1}});
  g.initializer(make_tensor_i64("tok", {start}, std::vector<int64_t>(start, 7)));
  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("i", kInt64, {}).input("c_in", kBool, {}).input("toks_in", kInt64, {}, false);
  b.output("c_out", kBool, {}).output("toks_out", kInt64, {}, false);
  b.node("Identity", {"c_in"}, {"c_out"});
  b.constant_i64("minus_one", {-1});
  b.constant_i64("end", {INT64_MAX});
  b.constant_i64("zero", {0});
  b.constant_i64("two", {2});
  b.constant_i64("next", {4});
  b.node("Slice", {"toks_in", "minus_one", "end"}, {"last"}, "Slice_last");
  b.node("Slice", {"toks_in", "zero", "two"}, {"first_two"}, "Slice_first_two");
  attr_int(b.node("Concat", {"toks_in", "next"}, {"toks_out"}, "Concat_grow"), "axis", 0);
  attr_graph(g.node("Loop", {"k", "", "tok"}, {"toks"}, "Loop_decode"), "body", body);
  return m.bytes();
}

TEST(DimFacts, LowerBoundsOfCarriedDimsFixTheLastRow) {
  Facts f = analyse(greedy_decode(1));
  const std::string body = "main/Loop_decode:body";
  EXPECT_EQ(f.dims("toks_in", body), "?>=1");
  EXPECT_EQ(f.dims("last", body), "1");       // toks[-1:] of at least one row
  EXPECT_EQ(f.dims("first_two", body), "?");  // toks[0:2] needs two rows to be 2
  EXPECT_EQ(f.dims("toks_out", body), "?>=2");
  // Near miss: an empty start claims nothing, so toks[-1:] may be empty.
  Facts empty = analyse(greedy_decode(0));
  EXPECT_EQ(empty.dims("toks_in", body), "?");
  EXPECT_EQ(empty.dims("last", body), "?");
  // Two rows at the start: both slices are fixed.
  Facts two = analyse(greedy_decode(2));
  EXPECT_EQ(two.dims("last", body), "1");
  EXPECT_EQ(two.dims("first_two", body), "2");
}

TEST(DimFacts, DeclaredElementShapesOfSequenceAndOptionalInputs) {
  // A sequence input's element shape reaches a SequenceMap body; an optional input's value
  // keeps its declared dims, and whether it is present stays unknown.
  ModelBuilder m(18);
  auto& g = m.graph();
  auto* seq = g.proto().add_input();
  seq->set_name("seq");
  auto* elem = seq->mutable_type()->mutable_sequence_type()->mutable_elem_type();
  elem->mutable_tensor_type()->set_elem_type(kFloat);
  auto* shape = elem->mutable_tensor_type()->mutable_shape();
  shape->add_dim()->set_dim_param("H");
  shape->add_dim()->set_dim_value(3);
  auto* opt = g.proto().add_input();
  opt->set_name("opt");
  auto* inner = opt->mutable_type()->mutable_optional_type()->mutable_elem_type();
  inner->mutable_tensor_type()->set_elem_type(kFloat);
  inner->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(4);
  g.output("shapes", kInt64, {}, false).output("has", kBool, {});
  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("x", kFloat, {}, false).output("s", kInt64, {}, false);
  b.node("Shape", {"x"}, {"s"});
  attr_graph(g.node("SequenceMap", {"seq"}, {"shapes"}, "Map_0"), "body", body);
  g.node("OptionalGetElement", {"opt"}, {"value"});
  g.node("OptionalHasElement", {"opt"}, {"has"});
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.dims("x", "main/Map_0:body"), "H,3");
  EXPECT_EQ(f.dims("s", "main/Map_0:body"), "2");
  EXPECT_EQ(f.elems("s", "main/Map_0:body"), "H,3");
  EXPECT_EQ(f.dims("value"), "4");
  EXPECT_EQ(f.p->known_ints(f.v("has")), std::nullopt);
  EXPECT_NE(f.value("has"), ValueClass::Constant);
}

TEST(DimFacts, ADataDimRemovedByAReductionLeavesAStaticShape) {
  // s = x[:, i:i+3] with i = argmax(...): [4, data]; s.sum(1) is [4] whatever i is.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {4, 10});
  g.output("r", kFloat, {4});
  g.constant_i64("ax0", {0});
  attr_int(g.node("ReduceSum", {"x", "ax0"}, {"col"}), "keepdims", 0);
  g.node("ArgMax", {"col"}, {"i"}, "ArgMax_i");
  g.constant_i64("three", {3});
  g.node("Add", {"i", "three"}, {"j"});
  g.constant_i64("ax1", {1});
  g.node("Slice", {"x", "i", "j", "ax1"}, {"s"}, "Slice_s");
  attr_int(g.node("ReduceSum", {"s", "ax1"}, {"r"}, "ReduceSum_r"), "keepdims", 0);
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.value("i"), ValueClass::Data);
  EXPECT_EQ(f.dims("s"), "4,data");
  EXPECT_EQ(f.shape("s"), ShapeClass::DataDependent);
  EXPECT_EQ(f.dims("r"), "4");
  EXPECT_EQ(f.shape("r"), ShapeClass::Static);
}

TEST(DimFacts, DumpListsEveryValueOfEveryGraphByStructuralKey) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 4});
  g.output("y", kInt64, {2, int64_t{-1}});
  g.node("NonZero", {"x"}, {"y"});
  g.node("Shape", {"x"}, {"s"});
  Facts f = analyse(nest_in_loop(m.proto()));
  auto doc = nlohmann::json::parse(dump_shape_facts(*f.model, *f.p));
  ASSERT_EQ(doc["graphs"].size(), 2u);
  EXPECT_EQ(doc["graphs"][0]["key"], "main");
  const auto& body = doc["graphs"][1];
  EXPECT_EQ(body["key"], "main/0:body");
  EXPECT_EQ(body["path"], kNestedPath);
  EXPECT_EQ(body["values"]["y"]["dims"], nlohmann::json::parse(R"([2, {"data": "NonZero_0"}])"));
  EXPECT_EQ(body["values"]["s"]["elems"], nlohmann::json::parse(R"(["N", 4])"));
}

// docs/dynamic-shapes.md lists the ops with per-dimension facts between two markers; the list
// must be the analysis's own, so the page never claims an op is followed when it is not.
TEST(DimFacts, DocsListExactlyTheOpsWithDimFacts) {
  std::ifstream in(std::string(ONNXLINT_SOURCE_DIR) + "/docs/dynamic-shapes.md");
  std::string doc((std::istreambuf_iterator<char>(in)), {});
  const std::string open = "<!-- ops-with-dim-facts -->", close = "<!-- /ops-with-dim-facts -->";
  const size_t a = doc.find(open), b = doc.find(close);
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  std::vector<std::string> listed;
  const std::string body = doc.substr(a + open.size(), b - a - open.size());
  for (size_t i = body.find('`'); i != std::string::npos; i = body.find('`', i)) {
    const size_t j = body.find('`', i + 1);
    listed.push_back(body.substr(i + 1, j - i - 1));
    i = j + 1;
  }
  std::sort(listed.begin(), listed.end());
  std::vector<std::string> ops;
  for (std::string_view op : ops_with_dim_facts()) ops.emplace_back(op);
  std::vector<std::string> missing, extra;
  std::set_difference(ops.begin(), ops.end(), listed.begin(), listed.end(),
                      std::back_inserter(missing));
  std::set_difference(listed.begin(), listed.end(), ops.begin(), ops.end(),
                      std::back_inserter(extra));
  EXPECT_THAT(missing, ::testing::IsEmpty()) << "followed by the analysis, not in the docs";
  EXPECT_THAT(extra, ::testing::IsEmpty()) << "in the docs, not followed by the analysis";
}

// ---- The dim algebra in the public DimFact -----------------------------------------------------

// x [N, 1, H, W] -> Conv(kernel 3, stride 2, no pad) -> Flatten -> c [N, (H-3)/2+1 ...]; and
// k = min(5, N) as torch exports `min(5, x.size(0))`.
ModelBuilder conv_and_min() {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 1, std::string("H"), std::string("W")});
  g.initializer(make_tensor_f32("w", {1, 1, 3, 3}, std::vector<float>(9, 0.f)));
  auto& c = g.node("Conv", {"x", "w"}, {"c"}, "conv");
  attr_ints(c, "strides", {2, 2});
  attr_ints(c, "kernel_shape", {3, 3});
  g.node("Shape", {"x"}, {"s"});
  g.constant_i64("zero", {0}, {1});
  g.constant_i64("five", {5}, {1});
  g.node("Gather", {"s", "zero"}, {"n"});
  attr_int(g.node("Concat", {"five", "n"}, {"both"}), "axis", 0);
  attr_int(g.node("ReduceMin", {"both"}, {"k"}), "keepdims", 0);
  g.output("c", kFloat, {}, false).output("k", kInt64, {}, false);
  return m;
}

TEST(DimFacts, SymbolicDimsCarryTheirExpressionAsTerms) {
  Facts f = analyse(conv_and_min().bytes());
  auto c = f.p->dims(f.v("c"));
  ASSERT_TRUE(c && c->size() == 4);
  const DimFact& h = (*c)[2];
  ASSERT_EQ(h.kind, DimFact::Kind::Symbolic);
  EXPECT_EQ(h.expr, "(H-3)/2+1");
  ASSERT_FALSE(h.terms.empty());
  // The root is the sum; its operands are (H-3)/2 and 1, and so on down to H.
  const DimTerm& root = h.terms.back();
  EXPECT_EQ(root.op, DimTerm::Op::Add);
  ASSERT_LT(root.lhs, h.terms.size() - 1);
  ASSERT_LT(root.rhs, h.terms.size() - 1);
  EXPECT_EQ(h.terms[root.lhs].op, DimTerm::Op::Div);
  EXPECT_EQ(h.terms[root.rhs].op, DimTerm::Op::Constant);
  EXPECT_EQ(h.terms[root.rhs].value, 1);
  EXPECT_TRUE(std::any_of(h.terms.begin(), h.terms.end(), [](const DimTerm& t) {
    return t.op == DimTerm::Op::Input && t.name == "H";
  }));
  // Evaluated at input sizes, it is the size the convolution gives.
  auto at = [](int64_t size) {
    return [size](std::string_view name) -> std::optional<int64_t> {
      return name == "H" ? std::optional<int64_t>(size) : std::nullopt;
    };
  };
  EXPECT_EQ(evaluate_dim(h, at(64)), 31);
  EXPECT_EQ(evaluate_dim(h, at(3)), 1);
  EXPECT_EQ(evaluate_dim((*c)[1], at(64)), 1);             // a fixed dim is its value
  EXPECT_EQ(evaluate_dim((*c)[3], at(64)), std::nullopt);  // W has no size here
  // min(5, N): a Min term.
  auto k = f.p->elements(f.v("k"));
  ASSERT_TRUE(k && k->size() == 1) << f.elems("both") << " / " << f.elems("k");
  const DimFact& kmin = (*k)[0];
  ASSERT_EQ(kmin.kind, DimFact::Kind::Symbolic);
  EXPECT_EQ(kmin.terms.back().op, DimTerm::Op::Min);
  auto n_is = [](int64_t size) {
    return [size](std::string_view name) -> std::optional<int64_t> {
      return name == "N" ? std::optional<int64_t>(size) : std::nullopt;
    };
  };
  EXPECT_EQ(evaluate_dim(kmin, n_is(3)), 3);
  EXPECT_EQ(evaluate_dim(kmin, n_is(300)), 5);
}

TEST(DimFacts, OpaqueTermsAndOtherKindsEvaluateToNothing) {
  DimFact opaque;
  opaque.kind = DimFact::Kind::Symbolic;
  opaque.names = {"N"};
  opaque.terms = {DimTerm{}};  // Opaque
  auto any = [](std::string_view) -> std::optional<int64_t> { return 7; };
  EXPECT_EQ(evaluate_dim(opaque, any), std::nullopt);
  DimFact data;
  data.kind = DimFact::Kind::Data;
  EXPECT_EQ(evaluate_dim(data, any), std::nullopt);
  // Overflow and division by zero have no value.
  DimFact big;
  big.kind = DimFact::Kind::Symbolic;
  big.terms = {DimTerm{DimTerm::Op::Input, 0, "N"},
               DimTerm{DimTerm::Op::Constant, std::numeric_limits<int64_t>::max()},
               DimTerm{DimTerm::Op::Mul, 0, {}, 0, 1}};
  EXPECT_EQ(evaluate_dim(big, any), std::nullopt);
  DimFact by_zero;
  by_zero.kind = DimFact::Kind::Symbolic;
  by_zero.terms = {DimTerm{DimTerm::Op::Input, 0, "N"}, DimTerm{DimTerm::Op::Constant, 0},
                   DimTerm{DimTerm::Op::Div, 0, {}, 0, 1}};
  EXPECT_EQ(evaluate_dim(by_zero, any), std::nullopt);
  // An operand index that is not earlier (a hand-built vector) is no value, not a read past it.
  DimFact forward;
  forward.kind = DimFact::Kind::Symbolic;
  forward.terms = {DimTerm{DimTerm::Op::Add, 0, {}, 1, 1}, DimTerm{DimTerm::Op::Constant, 2}};
  EXPECT_EQ(evaluate_dim(forward, any), 2);  // the root is the constant; the Add has no value
}

TEST(DimFacts, StaticDimsLetADeclarationFillOnlyWhatTheAnalysisCannotKnow) {
  // h = Relu(x) is proven [N, 16]; r = Reshape(x, runtime shape) has no proven dims. Stale or
  // hopeful value_info declares h [2, 16] and r [4, 8]; u (a custom op's output) is declared
  // [3, ?] and has no rank in the analysis; w has neither.
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).input("shape", kInt64, {2});
  g.node("Relu", {"x"}, {"h"});
  g.node("Reshape", {"x", "shape"}, {"r"});
  g.node("Mystery", {"x"}, {"u"}, "", "custom");
  g.node("Mystery", {"x"}, {"w"}, "", "custom");
  g.value_info("h", kFloat, {2, 16}).value_info("r", kFloat, {4, 8});
  g.value_info("u", kFloat, {3, std::string("k")});
  g.output("h", kFloat, {}, false).output("r", kFloat, {}, false);
  m.opset("custom", 1);
  Facts f = analyse(m.bytes());
  EXPECT_EQ(f.p->static_dims(f.v("h")), (std::vector<int64_t>{-1, 16}));  // N is not 2
  auto r = f.p->static_dims(f.v("r"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->size(), 2u);
  EXPECT_EQ(f.p->static_dims(f.v("u")), (std::vector<int64_t>{3, -1}));
  EXPECT_EQ(f.p->static_dims(f.v("w")), std::nullopt);
  EXPECT_EQ(f.p->static_dims(kNoValue), std::nullopt);
}

}  // namespace
}  // namespace onnxlint::testing
