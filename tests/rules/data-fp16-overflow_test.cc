#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "data-fp16-overflow";
constexpr float kF32Min = -3.4028234663852886e38f;  // torch.finfo(torch.float32).min

onnx::TensorProto f32_raw(const std::string& name, const std::vector<int64_t>& dims,
                          const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  std::string raw(values.size() * 4, '\0');
  std::memcpy(raw.data(), values.data(), raw.size());
  t.set_raw_data(raw);
  return t;
}

onnx::TensorProto f16(const std::string& name, const std::vector<int64_t>& dims,
                      const std::vector<uint16_t>& halves, bool raw = true) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT16);
  for (int64_t d : dims) t.add_dims(d);
  if (raw) {
    std::string bytes(halves.size() * 2, '\0');
    std::memcpy(bytes.data(), halves.data(), bytes.size());
    t.set_raw_data(bytes);
  } else {
    for (uint16_t h : halves) t.add_int32_data(h);
  }
  return t;
}

// The attention-mask fill: Where(mask, finfo(float32).min, scores) cast to float16.
ModelBuilder mask_fill(float fill, int64_t to = kFloat16) {
  ModelBuilder m(13, 7);
  m.graph().input("mask", kBool, {4}).input("scores", kFloat, {4}).output("y", to, {4});
  m.graph().initializer(f32_raw("fill", {}, {fill}));
  m.graph().node("Where", {"mask", "fill", "scores"}, {"w"}, "where");
  auto& c = m.graph().node("Cast", {"w"}, {"y"}, "to_half");
  attr_int(c, "to", to);
  return m;
}

TEST(DataFp16Overflow, Float32MinMaskFillCastToHalf) {
  auto d = diagnostics(kRule, mask_fill(kF32Min).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/to_half");
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].message,
            "Cast 'to_half' converts initializer 'fill' to float16, but it holds -3.40282e+38 "
            "(1 of 1 elements beyond float16's ±65504), which becomes -inf");
  EXPECT_THAT(d[0].notes, ElementsAre("path: 'fill' → Where 'where' → Cast 'to_half'"));
  EXPECT_THAT(d[0].help, HasSubstr("torch.finfo(torch.float16).min"));
}

TEST(DataFp16Overflow, NearMisses) {
  // -65504 fits; 65519 still rounds to 65504; a cast to float is no float16 path.
  EXPECT_THAT(findings(kRule, mask_fill(-65504.0f).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, mask_fill(65519.0f).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, mask_fill(kF32Min, kDouble).bytes()), IsEmpty());
  // A float32 -inf is no overflow (the value is already infinite).
  EXPECT_THAT(findings(kRule, mask_fill(-INFINITY).bytes()), IsEmpty());
  // The fill goes through an arithmetic op (Mul): the rule does not follow it.
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat, {4}).output("y", kFloat16, {4});
  m.graph().initializer(f32_raw("big", {4}, {1e5f, 1e6f, 1, 2}));
  m.graph().node("Mul", {"big", "x"}, {"p"}, "mul");
  attr_int(m.graph().node("Cast", {"p"}, {"y"}, "c"), "to", kFloat16);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(DataFp16Overflow, ConstantNodeConstantOfShapeAndCastLike) {
  ModelBuilder m(15, 8);
  m.graph().input("shape", kInt64, {2}).input("like", kFloat16, {1});
  m.graph().output("a", kFloat16, {1}).output("b", kFloat16, {"n", "m"}).output("c", kFloat16, {3});
  auto& k = m.graph().node("Constant", {}, {"neg_big"}, "const");
  attr_float(k, "value_float", -1e9f);
  attr_int(m.graph().node("Cast", {"neg_big"}, {"a"}, "cast_a"), "to", kFloat16);
  auto& cos = m.graph().node("ConstantOfShape", {"shape"}, {"filled"}, "fill");
  attr_tensor(cos, "value", f32_raw("value", {1}, {70000.0f}));
  m.graph().node("Unsqueeze", {"filled", "axes"}, {"u"}, "unsq");
  m.graph().initializer(make_tensor_i64("axes", {1}, {0}));
  m.graph().node("Squeeze", {"u", "axes"}, {"s"}, "sq");
  m.graph().node("CastLike", {"s", "like"}, {"b"}, "castlike_b");
  // Concat of a fitting and an overflowing constant: the overflowing one is named.
  m.graph().initializer(f32_raw("small", {2}, {1, 2}));
  m.graph().initializer(f32_raw("huge", {1}, {-1e10f}));
  attr_int(m.graph().node("Concat", {"small", "huge"}, {"cat"}, "cat"), "axis", 0);
  attr_int(m.graph().node("Cast", {"cat"}, {"c"}, "cast_c"), "to", kFloat16);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].location.anchor(), "main/cast_a");
  EXPECT_THAT(d[0].message, HasSubstr("converts Constant 'const' to float16, but it holds -1e+09"));
  EXPECT_EQ(d[1].location.anchor(), "main/castlike_b");
  EXPECT_THAT(d[1].message, HasSubstr("converts ConstantOfShape 'fill' to float16"));
  EXPECT_THAT(d[1].notes, ElementsAre("path: 'filled' → Unsqueeze 'unsq' → Squeeze 'sq' → CastLike "
                                      "'castlike_b'"));
  EXPECT_EQ(d[2].location.anchor(), "main/cast_c");
  EXPECT_THAT(d[2].message, HasSubstr("initializer 'huge'"));
}

TEST(DataFp16Overflow, Float16ConstantsHoldingInf) {
  ModelBuilder m(13, 7);
  m.graph().input("x", kFloat16, {3}).output("y", kFloat16, {3}).output("z", kFloat16, {3});
  m.graph().initializer(f16("mask_inf", {3}, {0xfc00, 0x0000, 0xfc00}));  // -inf, 0, -inf
  m.graph().initializer(f16("mask_min", {3}, {0xfbff, 0x0000, 0xfbff}));  // -65504: fine
  m.graph().node("Add", {"x", "mask_inf"}, {"a"}, "add_inf");
  m.graph().node("Add", {"a", "mask_min"}, {"y"}, "add_min");
  auto& k = m.graph().node("Constant", {}, {"typed_inf"}, "typed");
  attr_tensor(k, "value", f16("typed_inf", {3}, {0x7c00, 0x3c00, 0x3c00}, false));  // +inf, 1, 1
  m.graph().node("Mul", {"x", "typed_inf"}, {"z"}, "mul");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].location.anchor(), "main/typed");
  EXPECT_EQ(d[0].message,
            "float16 Constant 'typed' (attribute 'value') holds inf (1 of 3 elements are ±inf), "
            "which turns into NaN once it is added to its negation or multiplied by 0 (a fully "
            "masked softmax row)");
  EXPECT_EQ(d[1].location.anchor(), "main:'mask_inf'");
  EXPECT_EQ(d[1].message,
            "float16 initializer 'mask_inf' holds -inf (2 of 3 elements are ±inf), which turns "
            "into NaN once it is added to its negation or multiplied by 0 (a fully masked "
            "softmax row)");
}

TEST(DataFp16Overflow, MaxElementsSkipsLargeConstants) {
  LintOptions o;
  o.rule_options[kRule]["max-elements"] = int64_t{0};
  EXPECT_THAT(findings(kRule, mask_fill(kF32Min).bytes(), o), IsEmpty());
}

ModelBuilder reduce_sum(int64_t width, bool keep_axes_attr) {
  ModelBuilder m(keep_axes_attr ? 11 : 13, 7);
  m.graph().input("x", kFloat16, {2, width}).output("y", kFloat16, {2, 1});
  if (keep_axes_attr) {
    attr_ints(m.graph().node("ReduceSum", {"x"}, {"y"}, "sum"), "axes", {-1});
  } else {
    m.graph().initializer(make_tensor_i64("axes", {1}, {1}));
    m.graph().node("ReduceSum", {"x", "axes"}, {"y"}, "sum");
  }
  return m;
}

TEST(DataFp16Overflow, ReductionHeuristicIsOptIn) {
  EXPECT_THAT(findings(kRule, reduce_sum(8192, false).bytes()), IsEmpty());
  LintOptions o;
  o.rule_options[kRule]["reductions"] = true;
  auto d = diagnostics(kRule, reduce_sum(8192, false).bytes(), o);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Info);
  EXPECT_EQ(d[0].message,
            "ReduceSum 'sum' sums 8192 float16 elements into one value: the sum overflows "
            "float16's ±65504 once the mean magnitude exceeds 7.99609");
  EXPECT_THAT(findings(kRule, reduce_sum(8192, true).bytes(), o),
              ElementsAre("data-fp16-overflow main/sum"));
  // Below the threshold, and a float32 reduction: silent.
  EXPECT_THAT(findings(kRule, reduce_sum(1024, false).bytes(), o), IsEmpty());
  ModelBuilder f32(13, 7);
  f32.graph().input("x", kFloat, {2, 8192}).output("y", kFloat, {2, 1});
  f32.graph().node("ReduceSum", {"x"}, {"y"}, "sum");
  EXPECT_THAT(findings(kRule, f32.bytes(), o), IsEmpty());
}

TEST(DataFp16Overflow, NestedInLoopBodyAndIfBranch) {
  ModelBuilder m = mask_fill(kF32Min);
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/to_half"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/to_half"));
}

// torch.cat of many parts cast to float16, the overflowing part last (then first): the walk
// visits each part once (it used to rebuild the Concat's input list after each part: a
// 200 000-part Concat took 13.9 s), and the path names the part.
std::string wide_concat(int parts, int overflowing_at) {
  ModelBuilder m(13, 7);
  auto& g = m.graph();
  std::vector<std::string> names;
  for (int k = 0; k < parts; ++k) {
    names.push_back("c" + std::to_string(k));
    g.initializer(f32_raw(names.back(), {1}, {k == overflowing_at ? kF32Min : float(k % 1000)}));
  }
  attr_int(g.node("Concat", names, {"cat"}, "cat"), "axis", 0);
  attr_int(g.node("Cast", {"cat"}, {"y"}, "to_half"), "to", kFloat16);
  g.output("y", kFloat16, {parts});
  return m.bytes();
}

TEST(DataFp16Overflow, WideConcatIsOneVisitPerPart) {
  constexpr int kParts = 200000;
  const std::string last = wide_concat(kParts, kParts - 1);
  const auto start = std::chrono::steady_clock::now();
  auto d = diagnostics(kRule, last);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.node_name, "to_half");
  EXPECT_THAT(d[0].notes, ElementsAre("path: 'c199999' → Concat 'cat' → Cast 'to_half'"));
  // Quadratic, this took 13.9 s (Release); linear, well under a second. The bound leaves room
  // for sanitizers and a loaded machine.
  EXPECT_LT(seconds, 5.0);
  EXPECT_THAT(findings(kRule, wide_concat(1000, 0)),
              ElementsAre("data-fp16-overflow main/to_half"));
  EXPECT_THAT(findings(kRule, wide_concat(1000, -1)), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
