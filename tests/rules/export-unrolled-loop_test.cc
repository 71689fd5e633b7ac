#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr const char* kRule = "export-unrolled-loop";

// The trace of `for i in range(x.shape[1]): acc = acc + tanh(x[:, i])` with x [2, size]:
// one Gather (or Slice) per position in `indices`.
ModelBuilder traced_loop(int64_t size, const std::vector<int64_t>& indices, bool slice = false,
                         int64_t axis = 1) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {2, size}).output("y", kFloat, {}, false);
  std::vector<std::string> parts;
  for (size_t k = 0; k < indices.size(); ++k) {
    std::string i = std::to_string(k);
    std::string picked = "p" + i;
    if (slice) {
      int64_t st = indices[k];
      int64_t en = st == -1 ? INT64_MAX : st + 1;
      g.initializer(make_tensor_i64("st" + i, {1}, {st}));
      g.initializer(make_tensor_i64("en" + i, {1}, {en}));
      g.initializer(make_tensor_i64("ax" + i, {1}, {axis}));
      g.node("Slice", {"x", "st" + i, "en" + i, "ax" + i}, {picked}, "Slice_" + i);
    } else {
      g.initializer(make_tensor_i64("idx" + i, {}, {indices[k]}));
      attr_int(g.node("Gather", {"x", "idx" + i}, {picked}, "Gather_" + i), "axis", axis);
    }
    g.node("Tanh", {picked}, {"t" + i}, "Tanh_" + i);
    parts.push_back("t" + i);
  }
  g.node("Sum", parts, {"y"}, "Sum_out");
  return m;
}

TEST(ExportUnrolledLoop, GathersAtEveryPositionOfAnAxis) {
  ModelBuilder m = traced_loop(4, {0, 1, 2, 3});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("export-unrolled-loop main/Gather_0"));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "'x' is read at every position 0..3 of axis 1 by 4 Gather nodes: a Python loop over "
            "an axis of size 4 was unrolled by tracing");
  EXPECT_THAT(d[0].notes,
              ElementsAre("the run starts at Gather 'Gather_0' and ends at Gather 'Gather_3'"));
  EXPECT_THAT(d[0].help, HasSubstr("vectorise"));
  EXPECT_EQ(d[0].severity, Severity::Info);
}

TEST(ExportUnrolledLoop, SlicesWithNegativeAndOpenEndedLastWindow) {
  ModelBuilder m = traced_loop(3, {0, 1, -1}, true, -1);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre("export-unrolled-loop main/Slice_0"));
}

TEST(ExportUnrolledLoop, NearMisses) {
  // A position missing.
  EXPECT_THAT(findings(kRule, traced_loop(4, {0, 1, 3}).bytes()), IsEmpty());
  // An axis shorter than min-length (plain unpacking), unless the option lowers it.
  EXPECT_THAT(findings(kRule, traced_loop(2, {0, 1}).bytes()), IsEmpty());
  LintOptions o;
  o.rule_options[kRule]["min-length"] = int64_t{2};
  EXPECT_THAT(findings(kRule, traced_loop(2, {0, 1}).bytes(), o),
              ElementsAre("export-unrolled-loop main/Gather_0"));
  // Wider windows are not single positions.
  ModelBuilder w(13);
  w.graph()
      .input("x", kFloat, {2, 4})
      .output("a", kFloat, {}, false)
      .output("b", kFloat, {}, false);
  w.graph().initializer(make_tensor_i64("s0", {1}, {0}));
  w.graph().initializer(make_tensor_i64("e0", {1}, {2}));
  w.graph().initializer(make_tensor_i64("e1", {1}, {4}));
  w.graph().initializer(make_tensor_i64("ax", {1}, {1}));
  w.graph().node("Slice", {"x", "s0", "e0", "ax"}, {"a"});
  w.graph().node("Slice", {"x", "e0", "e1", "ax"}, {"b"});
  EXPECT_THAT(findings(kRule, w.bytes()), IsEmpty());
}

TEST(ExportUnrolledLoop, NearMissRepeatedLayersAndShapeUnpacking) {
  // A traced `for layer in layers` repeats the same ops without indexing a tensor.
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 4}).output("h3", kFloat, {2, 4});
  m.graph().initializer(make_tensor_f32("w", {4, 4}, std::vector<float>(16, 0.f)));
  std::string prev = "x";
  for (int i = 0; i < 4; ++i) {
    std::string mm = "mm" + std::to_string(i), h = "h" + std::to_string(i);
    m.graph().node("MatMul", {prev, "w"}, {mm});
    m.graph().node("Tanh", {mm}, {h});
    prev = h;
  }
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  // b, s, d = x.shape: Gathers 0..2 of a Shape output.
  ModelBuilder s(13);
  s.graph().input("x", kFloat, {std::string("b"), 5, 8}).output("o", kInt64, {}, false);
  s.graph().node("Shape", {"x"}, {"shape"});
  std::vector<std::string> dims;
  for (int i = 0; i < 3; ++i) {
    std::string n = std::to_string(i);
    s.graph().initializer(make_tensor_i64("i" + n, {}, {i}));
    s.graph().node("Gather", {"shape", "i" + n}, {"d" + n});
    dims.push_back("d" + n);
  }
  s.graph().node("Sum", dims, {"o"});
  EXPECT_THAT(findings(kRule, s.bytes()), IsEmpty());
}

TEST(ExportUnrolledLoop, DynamicAxisIsLeftToExportBakedShape) {
  // x [2, T] declared dynamic; a value_info claims 4 for the relu'd copy the loop reads.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {2, std::string("T")}).output("y", kFloat, {}, false);
  g.value_info("h", kFloat, {2, 4});
  g.node("Relu", {"x"}, {"h"}, "relu");
  std::vector<std::string> parts;
  for (int k = 0; k < 4; ++k) {
    std::string i = std::to_string(k);
    g.initializer(make_tensor_i64("idx" + i, {}, {k}));
    attr_int(g.node("Gather", {"h", "idx" + i}, {"p" + i}, "Gather_" + i), "axis", 1);
    parts.push_back("p" + i);
  }
  g.node("Sum", parts, {"y"}, "Sum_out");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  EXPECT_THAT(findings("export-baked-shape", m.bytes()),
              ElementsAre("export-baked-shape main/Gather_0"));
}

// `x.view(4, 2, 4)` traced with a batch of 4, then `for i in range(4): ... y[i] ...`: the
// Reshape froze the dynamic batch (a dim pin: 8*batch = 32), so the loop's axis is static only
// because of it. The loop runs 4 times at every batch: a warning naming the Reshape, not the
// "only larger, not wrong" info. The same graph on a static input is the info.
ModelBuilder loop_after_reshape(const DimSpec& batch) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {batch, 8}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("to", {3}, {4, 2, 4}));
  g.node("Reshape", {"x", "to"}, {"r"}, "view");
  std::vector<std::string> parts;
  for (int k = 0; k < 4; ++k) {
    std::string i = std::to_string(k);
    g.initializer(make_tensor_i64("idx" + i, {}, {k}));
    attr_int(g.node("Gather", {"r", "idx" + i}, {"p" + i}, "Gather_" + i), "axis", 0);
    parts.push_back("p" + i);
  }
  g.node("Sum", parts, {"y"}, "Sum_out");
  return m;
}

TEST(ExportUnrolledLoop, AxisFrozenByABakedReshapeIsAWarning) {
  auto frozen = diagnostics(kRule, loop_after_reshape(std::string("batch")).bytes());
  ASSERT_EQ(frozen.size(), 1u);
  EXPECT_EQ(frozen[0].location.anchor(), "main/Gather_0");
  EXPECT_EQ(frozen[0].severity, Severity::Warning);
  EXPECT_THAT(frozen[0].notes,
              Contains(HasSubstr("wrote the size 4 of axis 0 from a constant where the model's "
                                 "input dims are dynamic")));
  EXPECT_THAT(frozen[0].help, HasSubstr("first make"));
  EXPECT_THAT(frozen[0].help, Not(HasSubstr("only larger")));
  // Near miss: a static input; nothing was frozen.
  auto fixed = diagnostics(kRule, loop_after_reshape(int64_t{4}).bytes());
  ASSERT_EQ(fixed.size(), 1u);
  EXPECT_EQ(fixed[0].severity, Severity::Info);
  EXPECT_THAT(fixed[0].help, HasSubstr("only larger, not wrong"));
}

TEST(ExportUnrolledLoop, NestedInLoopAndIf) {
  ModelBuilder m = traced_loop(4, {3, 2, 1, 0});
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(std::string("export-unrolled-loop ") + kNestedPath + "/Gather_0"));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(std::string("export-unrolled-loop ") + kNestedIfPath + "/Gather_0"));
}

}  // namespace
}  // namespace onnxlint::testing
