// The analysis under hostile sizes and numbers (issue 28): integer arithmetic that would
// overflow gives unknown dims, never a wrapped "proven" number or a trap; expressions, name
// sets, ranks and fixed-point work are bounded, and past a bound the fact is unknown (or an
// opaque expression) while the analysis says where it was cut short. The growth of time and
// memory with the input is checked end to end by tests/hostile/growth_test.py.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/provenance.h>
#include <onnxlint/registry.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "analysis/analysed.h"
#include "support/model_builder.h"
#include "util/checked_math.h"

namespace onnxlint::testing {
namespace {

using ::testing::Contains;
using ::testing::Not;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t k2p62 = int64_t{1} << 62;

struct Limits : AnalysedModel {
  size_t rank(const std::string& name) const {
    auto ds = p->dims(v(name));
    return ds ? ds->size() : SIZE_MAX;
  }
};

Limits analyse(const std::string& bytes) { return analyse_as<Limits>(bytes); }

// --- one checked-arithmetic helper

TEST(CheckedMath, OverflowAndUndefinedDivisionAreNoAnswer) {
  EXPECT_EQ(checked_add(kMax, 1), std::nullopt);
  EXPECT_EQ(checked_add(kMax - 1, 1), kMax);
  EXPECT_EQ(checked_sub(kMin, 1), std::nullopt);
  EXPECT_EQ(checked_mul(k2p62, 4), std::nullopt);  // wraps to 0 unchecked
  EXPECT_EQ(checked_mul(k2p62, -2), kMin);
  EXPECT_EQ(checked_neg(kMin), std::nullopt);
  EXPECT_EQ(checked_div(kMin, -1), std::nullopt);  // SIGFPE unchecked
  EXPECT_EQ(checked_div(7, 0), std::nullopt);
  EXPECT_EQ(checked_div(-7, 2), -3);
  EXPECT_EQ(checked_floor_div(-7, 2), -4);
  EXPECT_EQ(checked_ceil_div(7, 2), 4);
  EXPECT_EQ(checked_ceil_div(-7, 2), -3);
  EXPECT_EQ(checked_ceil_div(kMin, -1), std::nullopt);
  EXPECT_EQ(checked_mod(-7, 3), 2);  // the divisor's sign (ONNX Mod)
  EXPECT_EQ(checked_fmod(-7, 3), -1);
  EXPECT_EQ(checked_mod(kMin, -1), 0);
  EXPECT_EQ(checked_mod(5, 0), std::nullopt);
  EXPECT_EQ(checked_from_double(1e30), std::nullopt);
  EXPECT_EQ(checked_from_double(std::numeric_limits<double>::quiet_NaN()), std::nullopt);
  EXPECT_EQ(checked_from_double(-9223372036854775808.0), kMin);
  EXPECT_EQ(checked_from_double(2.9), 2);
  // A failure anywhere in a formula fails all of it.
  EXPECT_EQ(checked_add(checked_mul(kMax, 2), 1), std::nullopt);
  EXPECT_EQ(checked_add(checked_mul(3, 2), 1), 7);
}

// --- N1: Range(0, INT64_MIN, -1) divided INT64_MIN by -1

TEST(ResourceLimits, RangeOverTheWholeInt64IsUnknownNotATrap) {
  ModelBuilder m(11);
  auto& g = m.graph();
  const std::vector<std::vector<int64_t>> cases = {
      {0, kMin, -1}, {kMin, kMax, 1}, {kMax, kMin, -1}, {kMin, 0, kMin}, {0, 5, 2}, {3, 3, 1}};
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string k = std::to_string(i);
    g.initializer(make_tensor_i64("start" + k, {}, {cases[i][0]}));
    g.initializer(make_tensor_i64("limit" + k, {}, {cases[i][1]}));
    g.initializer(make_tensor_i64("delta" + k, {}, {cases[i][2]}));
    g.node("Range", {"start" + k, "limit" + k, "delta" + k}, {"r" + k});
    g.output("r" + k, kInt64, {}, false);
  }
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.dims("r0"), "?");  // 2^63 elements: no int64 holds the count
  EXPECT_EQ(a.dims("r1"), "?");
  EXPECT_EQ(a.dims("r2"), "?");
  EXPECT_EQ(a.dims("r3"), "?");  // limit - start overflows: unknown (it is 1), not a guess
  EXPECT_EQ(a.dims("r4"), "3");  // ordinary ranges are as precise as before
  EXPECT_EQ(a.p->known_ints(a.v("r4")), (std::vector<int64_t>{0, 2, 4}));
  EXPECT_EQ(a.dims("r5"), "0");
  EXPECT_EQ(a.p->known_ints(a.v("r5")), std::vector<int64_t>{});
}

// --- N13: the signed-overflow sites of the dim arithmetic

TEST(ResourceLimits, TileThatWouldWrapIsUnknownNotZero) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("big", kFloat, {k2p62});
  g.input("small", kFloat, {3});
  g.initializer(make_tensor_i64("reps", {1}, {4}));
  g.node("Tile", {"big", "reps"}, {"wrapped"});
  g.node("Tile", {"small", "reps"}, {"fine"});
  g.output("wrapped", kFloat, {}, false).output("fine", kFloat, {}, false);
  Limits a = analyse(m.bytes());
  // 2^62 * 4 wraps to 0 in int64. The shape is the same on every run (static), but no
  // number is claimed for it.
  EXPECT_EQ(a.dims("wrapped"), "?");
  EXPECT_EQ(a.dims("fine"), "12");
  EXPECT_EQ(a.p->shape_class(a.v("fine")), ShapeClass::Static);
}

TEST(ResourceLimits, PadSliceReshapeAndSpaceToDepthThatWouldWrapAreUnknown) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("big", kFloat, {k2p62});
  g.input("huge2", kFloat, {k2p62, k2p62});
  g.input("huge4", kFloat, {1, 4, k2p62, k2p62});
  g.initializer(make_tensor_i64("pads", {2}, {kMax, kMax}));
  g.node("Pad", {"big", "pads"}, {"padded"});
  g.initializer(make_tensor_i64("starts", {1}, {kMin}));
  g.initializer(make_tensor_i64("ends", {1}, {kMax}));
  g.initializer(make_tensor_i64("axes", {1}, {0}));
  g.initializer(make_tensor_i64("steps", {1}, {kMin}));
  g.initializer(make_tensor_i64("steps_up", {1}, {kMax}));
  g.node("Slice", {"big", "starts", "ends", "axes", "steps"}, {"backwards"});
  g.node("Slice", {"big", "starts", "ends", "axes", "steps_up"}, {"forwards"});
  g.initializer(make_tensor_i64("flat", {1}, {-1}));
  g.node("Reshape", {"huge2", "flat"}, {"flattened"});
  attr_int(g.node("DepthToSpace", {"huge4"}, {"d2s"}), "blocksize", int64_t{1} << 40);
  attr_int(g.node("SpaceToDepth", {"huge4"}, {"s2d"}), "blocksize", 2);
  attr_int(g.node("Flatten", {"huge2"}, {"flat0"}), "axis", 0);
  for (const char* out : {"padded", "backwards", "forwards", "flattened", "d2s", "s2d", "flat0"}) {
    g.output(out, kFloat, {}, false);
  }
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.dims("padded"), "?");
  // From index 0 backwards to the end: nothing; forwards in one step of INT64_MAX: one element.
  EXPECT_EQ(a.dims("backwards"), "0");
  EXPECT_EQ(a.dims("forwards"), "1");
  EXPECT_EQ(a.dims("flattened"), "?");  // 2^124 elements
  EXPECT_EQ(a.dims("d2s"), "1,?,?,?");  // blocksize^2 and 2^62 * 2^40 overflow
  EXPECT_EQ(a.dims("s2d"), "1,16,2305843009213693952,2305843009213693952");
  EXPECT_EQ(a.dims("flat0"), "1,?");
}

TEST(ResourceLimits, ConvPoolAndTransposedConvWithHostileAttributesAreUnknown) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 1, 8});
  g.initializer(make_tensor_f32("w", {1, 1, 1}, {1.f}));
  auto& conv = g.node("Conv", {"x", "w"}, {"conv"});
  attr_ints(conv, "pads", {kMax, kMax});
  attr_ints(conv, "dilations", {kMax});
  attr_ints(conv, "kernel_shape", {3});
  auto& pool = g.node("MaxPool", {"x"}, {"pool"});
  attr_ints(pool, "kernel_shape", {kMax});
  attr_ints(pool, "strides", {kMax});
  attr_ints(pool, "pads", {kMin, kMin});
  attr_int(pool, "ceil_mode", 1);
  auto& convt = g.node("ConvTranspose", {"x", "w"}, {"convt"});
  attr_ints(convt, "strides", {kMax});
  attr_ints(convt, "output_padding", {kMax});
  attr_ints(convt, "pads", {kMin, kMin});
  auto& unpool = g.node("MaxUnpool", {"x", "idx"}, {"unpool"});
  g.input("idx", kInt64, {1, 1, 8});
  attr_ints(unpool, "kernel_shape", {kMax});
  attr_ints(unpool, "strides", {kMax});
  attr_ints(unpool, "pads", {kMin, kMin});
  auto& ok = g.node("Conv", {"x", "w"}, {"ok"});
  attr_ints(ok, "pads", {1, 1});
  for (const char* out : {"conv", "pool", "convt", "unpool", "ok"}) {
    g.output(out, kFloat, {}, false);
  }
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.dims("conv"), "1,1,?");
  EXPECT_EQ(a.dims("pool"), "1,1,?");
  EXPECT_EQ(a.dims("convt"), "1,1,?");
  EXPECT_EQ(a.dims("unpool"), "1,1,?");
  EXPECT_EQ(a.dims("ok"), "1,1,10");
}

TEST(ResourceLimits, ResizeAndTfIdfWithHostileNumbersAreUnknown) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 1, 8});
  g.input("ids", kInt64, {3});
  g.initializer(make_tensor_f32("scales", {3}, {1.f, 2.f, 1e30f}));
  g.node("Resize", {"x", "", "scales"}, {"resized"});
  auto& tfidf = g.node("TfIdfVectorizer", {"ids"}, {"tfidf"});
  attr_ints(tfidf, "ngram_indexes", {kMax});
  attr_string(tfidf, "mode", "TF");
  g.output("resized", kFloat, {}, false).output("tfidf", kFloat, {}, false);
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.dims("resized"), "1,2,?");
  EXPECT_EQ(a.dims("tfidf"), "?");
}

TEST(ResourceLimits, NmsBoundThatWouldWrapIsDropped) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("boxes", kFloat, {k2p62, 10, 4});
  g.input("scores", kFloat, {k2p62, k2p62, 10});
  g.initializer(make_tensor_i64("max_out", {1}, {4}));
  g.node("NonMaxSuppression", {"boxes", "scores", "max_out"}, {"sel"});
  g.output("sel", kInt64, {}, false);
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.dims("sel"), "data,3");  // no bound: 2^62 * 2^62 * 4 has none in int64
}

TEST(ResourceLimits, ShapeArithmeticModAndDivAtTheEdgesOfInt64) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.initializer(make_tensor_i64("a", {3}, {-7, kMin, 7}));
  g.initializer(make_tensor_i64("b", {3}, {3, -1, 0}));
  attr_int(g.node("Mod", {"a", "b"}, {"fmod"}), "fmod", 1);
  g.node("Mod", {"a", "b"}, {"mod"});
  g.node("Div", {"a", "b"}, {"div"});
  for (const char* out : {"fmod", "mod", "div"}) g.output(out, kInt64, {}, false);
  Limits a = analyse(m.bytes());
  auto elems = [&](const std::string& name) {
    std::string out;
    const auto facts = a.p->elements(a.v(name));
    if (!facts) return std::string("none");
    for (const DimFact& d : *facts) {
      if (!out.empty()) out += ",";
      out += d.kind == DimFact::Kind::Fixed ? std::to_string(d.value) : "?";
    }
    return out;
  };
  EXPECT_EQ(elems("fmod"), "-1,0,?");  // the dividend's sign; x % 0 is not a number
  EXPECT_EQ(elems("mod"), "2,0,?");    // the divisor's sign
  EXPECT_EQ(elems("div"), "-2,?,?");   // INT64_MIN / -1 does not fit: unknown, not SIGFPE
}

// --- N17: ranks computed from attributes

TEST(ResourceLimits, RankAboveTheLoadersLimitIsUnknown) {
  ModelBuilder m(4);
  auto& g = m.graph();
  g.input("x", kFloat, {1});
  attr_ints(g.node("Reshape", {"x"}, {"r64"}), "shape", std::vector<int64_t>(64, 1));
  attr_ints(g.node("Reshape", {"x"}, {"r65"}), "shape", std::vector<int64_t>(65, 1));
  std::vector<int64_t> axes(200000);
  for (size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int64_t>(i);
  attr_ints(g.node("Unsqueeze", {"x"}, {"u"}), "axes", axes);
  attr_ints(g.node("Unsqueeze", {"x"}, {"u64"}), "axes", std::vector<int64_t>{1, 2, 3});
  g.node("Relu", {"u"}, {"after"});
  for (const char* out : {"r64", "r65", "u", "u64", "after"}) g.output(out, kFloat, {}, false);
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.rank("r64"), 64u);
  EXPECT_EQ(a.dims("r65"), "rank?");
  EXPECT_EQ(a.dims("u"), "rank?");
  EXPECT_EQ(a.dims("after"), "rank?");
  EXPECT_EQ(a.dims("u64"), "1,1,1,1");
}

TEST(ResourceLimits, GatherAndLoopStackingPastTheRankLimitAreUnknown) {
  ModelBuilder m(13);
  auto& g = m.graph();
  std::vector<DimSpec> d40(40, int64_t{2});
  g.input("data", kFloat, d40);
  g.input("idx", kInt64, d40);
  g.node("Gather", {"data", "idx"}, {"gathered"});  // rank 40 - 1 + 40 = 79
  g.output("gathered", kFloat, {}, false);
  Limits a = analyse(m.bytes());
  EXPECT_EQ(a.dims("gathered"), "rank?");
}

// --- N2, N3: expression size

// s = Add(s, Shape(x)) `count` times from Shape(x) of x[N]; `self` adds s to itself instead.
std::string add_chain(int count, bool self) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N")});
  g.node("Shape", {"x"}, {"s"});
  std::string prev = "s";
  for (int k = 0; k < count; ++k) {
    const std::string next = fmt::format("s{}", k);
    g.node("Add", {prev, self ? prev : std::string("s")}, {next});
    prev = next;
  }
  g.node("ConstantOfShape", {prev}, {"y"});
  g.output("y", kFloat, {}, false);
  return m.bytes();
}

TEST(ResourceLimits, LongExpressionsRenderOpaqueWithinTheLeafCap) {
  // 64 leaves are spelled out; a 65th makes the expression opaque: f(N).
  Limits a = analyse(add_chain(63, false));
  std::string full = "N";
  for (int k = 0; k < 63; ++k) full += "+N";
  EXPECT_EQ(a.dims("y"), full);
  Limits b = analyse(add_chain(64, false));
  EXPECT_EQ(b.dims("y"), "f(N)");
  EXPECT_EQ(b.p->shape_class(b.v("y")), ShapeClass::InputDim);
  EXPECT_EQ(b.p->shape_dims(b.v("y")), std::vector<std::string_view>{"N"});
  // The shape vector's element is the same opaque expression.
  auto e = b.p->elements(b.v("s63"));
  ASSERT_TRUE(e.has_value());
  ASSERT_EQ(e->size(), 1u);
  EXPECT_EQ((*e)[0].kind, DimFact::Kind::Symbolic);
  EXPECT_EQ((*e)[0].expr, "f(N)");
}

TEST(ResourceLimits, TwentyThousandDeepChainRendersWithoutDeepRecursion) {
  Limits a = analyse(add_chain(20000, false));
  EXPECT_EQ(a.dims("y"), "f(N)");
  EXPECT_EQ(a.p->explain_shape(a.v("y")).empty(), false);
}

TEST(ResourceLimits, SelfAddsDoubleTheExpressionOnlyUpToTheCap) {
  // 2^5 = 32 leaves: spelled out. 2^40 leaves: opaque at once, in microseconds.
  Limits a = analyse(add_chain(5, true));
  std::string full = "N";
  for (int k = 0; k < 31; ++k) full += "+N";
  EXPECT_EQ(a.dims("y"), full);
  auto start = std::chrono::steady_clock::now();
  Limits b = analyse(add_chain(40, true));
  EXPECT_EQ(b.dims("y"), "f(N)");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

// --- N6: name sets

std::string concat_of_untyped(int count) {
  ModelBuilder m(13);
  auto& g = m.graph();
  std::vector<std::string> ins;
  for (int k = 0; k < count; ++k) {
    ins.push_back(fmt::format("x{}", k));
    g.input(ins.back(), kFloat, {}, false);
  }
  attr_int(g.node("Concat", ins, {"y"}), "axis", 0);
  g.output("y", kFloat, {}, false);
  return m.bytes();
}

TEST(ResourceLimits, NameSetsKeepTheFirst64NamesAndSayThatMoreExist) {
  Limits a = analyse(concat_of_untyped(3));
  EXPECT_EQ(a.p->shape_dims(a.v("y")),
            (std::vector<std::string_view>{"x0.shape", "x1.shape", "x2.shape"}));
  Limits b = analyse(concat_of_untyped(100));
  auto names = b.p->shape_dims(b.v("y"));
  ASSERT_EQ(names.size(), 65u);
  EXPECT_EQ(names.back(), "\u2026");
  EXPECT_THAT(names, Contains("x0.shape"));
  EXPECT_THAT(names, Contains("x63.shape"));
  EXPECT_THAT(names, Not(Contains("x64.shape")));
  // The marker is not a dim: the usage counts name real dims only.
  auto usage = b.p->dim_usage();
  EXPECT_EQ(usage.size(), 100u);
  for (const auto& u : usage) EXPECT_NE(u.name, "\u2026");
}

// --- N4: fixed-point work per model

// Loops nested `depth` deep; each carries its own copy of the static x[1, 4] and grows it by
// the rows of d[n, 4], so its carried class changes on the first pass and every run of a body
// takes two passes: 2^depth runs of the innermost body without a budget.
std::string nested_loops(int depth) {
  auto body = [](int level, const onnx::GraphProto* inner) {
    onnx::GraphProto gp;
    GraphBuilder b(&gp);
    const std::string l = std::to_string(level);
    b.input("i" + l, kInt64, {}).input("c" + l, kBool, {}).input("t" + l, kFloat, {}, false);
    std::string cur = "t" + l;
    if (inner != nullptr) {
      attr_graph(b.node("Loop", {"M", "", "x"}, {"u" + l}, fmt::format("Loop_{}", level + 1)),
                 "body", *inner);
      b.node("Add", {cur, "u" + l}, {"v" + l});
      cur = "v" + l;
    }
    attr_int(b.node("Concat", {cur, "d"}, {"grown" + l}), "axis", 0);
    b.node("Identity", {"c" + l}, {"c_out" + l});
    b.output("c_out" + l, kBool, {}).output("grown" + l, kFloat, {}, false);
    return gp;
  };
  onnx::GraphProto inner = body(depth - 1, nullptr);
  for (int level = depth - 2; level >= 0; --level) inner = body(level, &inner);
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {1, 4}).input("d", kFloat, {std::string("n"), 4});
  g.initializer(make_tensor_i64("M", {}, {3}));
  attr_graph(g.node("Loop", {"M", "", "x"}, {"y"}, "Loop_0"), "body", inner);
  g.output("y", kFloat, {}, false);
  return m.bytes();
}

TEST(ResourceLimits, NestedLoopsAreCutShortAtTheBudgetAndSaySoWhere) {
  auto start = std::chrono::steady_clock::now();
  Limits a = analyse(nested_loops(40));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  auto cut = a.p->cut_short();
  ASSERT_TRUE(cut.has_value());
  ASSERT_NE(cut->node, nullptr);
  EXPECT_EQ(cut->node->op_type(), "Loop");
  EXPECT_GE(cut->count, 1u);
  // The work stops near the budget: what was running when it ran out finishes, with every
  // loop below it cut at once.
  EXPECT_GT(cut->work, cut->budget);
  EXPECT_LT(cut->work, 2 * cut->budget);
  // What the cut bodies compute is not claimed: the outer loop's result is not fixed.
  EXPECT_EQ(a.dims("y"), "rank?");
  EXPECT_NE(a.p->shape_class(a.v("y")), ShapeClass::Static);
}

TEST(ResourceLimits, TheDynamicShapeSummarySaysWhereTheAnalysisWasCutShort) {
  LintOptions o;
  o.select = {"shape-dynamic-input"};
  Linter linter(builtin_registry(), o);
  FileReport r = linter.lint_bytes("t.onnx", nested_loops(40));
  ASSERT_EQ(r.sections.size(), 1u);
  const ReportSection& s = r.sections[0];
  ASSERT_TRUE(s.data.contains("analysis_cut_short"));
  const nlohmann::json& cut = s.data["analysis_cut_short"];
  EXPECT_EQ(cut["op_type"], "Loop");
  std::string path = "main";
  for (int level = 0; level < 38; ++level) path += fmt::format("/Loop_{}:body", level);
  path += "/Loop_38";  // the deepest loop body runs out first; the others follow it
  EXPECT_EQ(cut["node"], path);
  EXPECT_EQ(cut["count"], 39);
  EXPECT_THAT(s.text, Contains("analysis cut short: its work budget ran out at " + path +
                               " (39 loop bodies or calls left unanalysed; what they compute is "
                               "unknown)"));
  // A model within the budget has no such entry.
  FileReport ok = linter.lint_bytes("t.onnx", nested_loops(3));
  ASSERT_EQ(ok.sections.size(), 1u);
  EXPECT_FALSE(ok.sections[0].data.contains("analysis_cut_short"));
}

TEST(ResourceLimits, ShallowLoopsAreAnalysedToTheirFixedPoint) {
  Limits a = analyse(nested_loops(3));
  EXPECT_EQ(a.p->cut_short(), std::nullopt);
  EXPECT_EQ(a.p->shape_class(a.v("y")), ShapeClass::InputDim);
  EXPECT_EQ(a.p->shape_dims(a.v("y")), std::vector<std::string_view>{"n"});
}

}  // namespace
}  // namespace onnxlint::testing
