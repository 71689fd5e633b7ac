#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "export-baked-shape";

std::string at(const std::string& anchor) { return std::string(kRule) + " " + anchor; }

// x [N, 16] -> Reshape(x, shape) -> y.
ModelBuilder reshape_model(const std::vector<int64_t>& shape, int64_t allowzero = -1) {
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("shape", {static_cast<int64_t>(shape.size())}, shape));
  auto& r = g.node("Reshape", {"x", "shape"}, {"y"}, "Reshape_0");
  if (allowzero >= 0) attr_int(r, "allowzero", allowzero);
  return m;
}

TEST(ExportBakedShape, ConstantReshapeShapePinsASymbolicDim) {
  ModelBuilder m = reshape_model({2, 8, 2});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/Reshape_0")));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Error);
  EXPECT_EQ(d[0].message,
            "Reshape 'Reshape_0' has the constant shape [2, 8, 2] (32 elements) for its input "
            "'x' [N, 16], which only holds when 16*N is 32, i.e. 'N' is 2: the size seen at export "
            "was baked in, and any other size of 'N' fails at run time");
  EXPECT_THAT(d[0].notes, ElementsAre("dim 'N' of input 'x' is declared dynamic"));
  EXPECT_THAT(d[0].help, HasSubstr("x.shape[i]"));
  EXPECT_THAT(d[0].help, HasSubstr("-1"));
}

TEST(ExportBakedShape, ReshapeNearMisses) {
  // -1 or 0 keep the symbolic dim; a shape computed from Shape(x) is not constant.
  EXPECT_THAT(findings(kRule, reshape_model({-1, 4, 4}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, reshape_model({0, 4, 4}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, reshape_model({0, -1}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, reshape_model({4, -1}).bytes()), IsEmpty());  // only folds N
  // allowzero: 0 is a size, and 16*N elements cannot become 0 (an invalid model, not a bake).
  EXPECT_THAT(findings(kRule, reshape_model({0, 16}, 1).bytes()), IsEmpty());
  // x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat.
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 4, 4}).output("y", kFloat, {}, false);
  g.node("Shape", {"x"}, {"s"});
  g.initializer(make_tensor_i64("zero", {}, {0}));
  g.initializer(make_tensor_i64("ax0", {1}, {0}));
  g.initializer(make_tensor_i64("minus1", {1}, {-1}));
  attr_int(g.node("Gather", {"s", "zero"}, {"n"}), "axis", 0);
  g.node("Unsqueeze", {"n", "ax0"}, {"n1"});
  attr_int(g.node("Concat", {"n1", "minus1"}, {"shape"}), "axis", 0);
  g.node("Reshape", {"x", "shape"}, {"y"});
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// x.view(2, -1) then a Linear: the Gemm needs the folded dim to be 16.
ModelBuilder view_then_linear(const std::vector<int64_t>& shape) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("batch"), 4, 4}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("shape", {static_cast<int64_t>(shape.size())}, shape));
  g.initializer(make_tensor_f32("w", {4, 16}, std::vector<float>(64, 0.f)));
  g.node("Reshape", {"x", "shape"}, {"flat"}, "view");
  attr_int(g.node("Gemm", {"flat", "w"}, {"y"}, "fc"), "transB", 1);
  return m;
}

TEST(ExportBakedShape, ViewWithALiteralBatchIsReportedAtTheReshape) {
  ModelBuilder m = view_then_linear({2, -1});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/view")));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Reshape 'view' has the constant shape [2, -1], which folds dim 'batch' of input "
            "'x' into the dim 8*batch; Gemm 'fc' needs that dim to be 16, so the model only runs "
            "when 8*batch is 16, i.e. 'batch' is 2: the size seen at export was baked in, and any "
            "other size of 'batch' fails at run time");
  // view(-1, 16) keeps the batch.
  EXPECT_THAT(findings(kRule, view_then_linear({-1, 16}).bytes()), IsEmpty());
}

TEST(ExportBakedShape, DeclaredOutputDimIsAlwaysTheExampleSize) {
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16})
      .output("y", kFloat, {std::string("N"), std::string("rest")});
  g.initializer(make_tensor_i64("shape", {2}, {2, -1}));
  g.node("Reshape", {"x", "shape"}, {"y"}, "view");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/view")));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("output 'y', which the model declares as 'N'"));
  EXPECT_THAT(d[0].message, HasSubstr("silently has the wrong shape"));
}

TEST(ExportBakedShape, ExpandAndConstantOfShape) {
  ModelBuilder e(13);
  e.graph().input("x", kFloat, {std::string("N"), 1}).output("y", kFloat, {}, false);
  e.graph().initializer(make_tensor_i64("shape", {2}, {4, 8}));
  e.graph().node("Expand", {"x", "shape"}, {"y"}, "expand");
  EXPECT_THAT(findings(kRule, e.bytes()), ElementsAre(at("main/expand")));
  EXPECT_THAT(diagnostics(kRule, e.bytes())[0].message, HasSubstr("when 'N' is 4 (or 1)"));

  // Expand over the symbolic dim with 1 there: broadcasting keeps N.
  ModelBuilder keep(13);
  keep.graph().input("x", kFloat, {std::string("N"), 1}).output("y", kFloat, {}, false);
  keep.graph().initializer(make_tensor_i64("shape", {2}, {1, 8}));
  keep.graph().node("Expand", {"x", "shape"}, {"y"}, "expand");
  EXPECT_THAT(findings(kRule, keep.bytes()), IsEmpty());

  // torch.ones(2, 16) with the batch size read as a Python int, multiplied with x [N, 16].
  ModelBuilder c(13);
  c.graph().input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  c.graph().initializer(make_tensor_i64("size", {2}, {2, 16}));
  c.graph().node("ConstantOfShape", {"size"}, {"ones"}, "ones");
  c.graph().node("Mul", {"x", "ones"}, {"y"}, "mul");
  EXPECT_THAT(findings(kRule, c.bytes()), ElementsAre(at("main/ones")));
  EXPECT_THAT(diagnostics(kRule, c.bytes())[0].message,
              HasSubstr("ConstantOfShape 'ones' writes the constant size 2, and Mul 'mul' needs "
                        "dim 'N' of input 'x' to match it"));
}

TEST(ExportBakedShape, ShapeArithmeticKeepsTheDimExact) {
  // h = x.view(x.size(0), -1) keeps N exact; then h * torch.ones(2, 16) pins it.
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 4, 4}).output("y", kFloat, {}, false);
  g.node("Shape", {"x"}, {"s"});
  g.initializer(make_tensor_i64("zero", {}, {0}));
  g.initializer(make_tensor_i64("ax0", {1}, {0}));
  g.initializer(make_tensor_i64("minus1", {1}, {-1}));
  g.initializer(make_tensor_i64("size", {2}, {2, 16}));
  attr_int(g.node("Gather", {"s", "zero"}, {"n"}), "axis", 0);
  g.node("Unsqueeze", {"n", "ax0"}, {"n1"});
  attr_int(g.node("Concat", {"n1", "minus1"}, {"shape"}), "axis", 0);
  g.node("Reshape", {"x", "shape"}, {"h"}, "view");
  g.node("ConstantOfShape", {"size"}, {"ones"}, "ones");
  g.node("Mul", {"h", "ones"}, {"y"}, "mul");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/ones")));
  EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message, HasSubstr("(in 'h')"));
}

TEST(ExportBakedShape, ConvNetKeepsTheBatchExact) {
  // interpolate(scale_factor=2) -> conv -> global pool -> view(2, -1) -> Linear(8, 4).
  auto make = [](const std::vector<int64_t>& shape) {
    ModelBuilder m(13);
    auto& g = m.graph();
    g.input("x", kFloat, {std::string("N"), 3, std::string("H"), std::string("W")})
        .output("y", kFloat, {}, false);
    g.initializer(make_tensor_f32("scales", {4}, {1.f, 1.f, 2.f, 2.f}));
    g.initializer(make_tensor_f32("k", {8, 3, 3, 3}, std::vector<float>(216, 0.f)));
    g.initializer(make_tensor_i64("shape", {static_cast<int64_t>(shape.size())}, shape));
    g.initializer(make_tensor_f32("w", {4, 8}, std::vector<float>(32, 0.f)));
    g.node("Resize", {"x", "", "scales"}, {"up"});
    attr_ints(g.node("Conv", {"up", "k"}, {"c"}), "pads", {1, 1, 1, 1});
    g.node("GlobalAveragePool", {"c"}, {"p"});
    g.node("Reshape", {"p", "shape"}, {"flat"}, "view");
    attr_int(g.node("Gemm", {"flat", "w"}, {"y"}, "fc"), "transB", 1);
    return m;
  };
  EXPECT_THAT(findings(kRule, make({2, -1}).bytes()), ElementsAre(at("main/view")));
  EXPECT_THAT(findings(kRule, make({-1, 8}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, make({0, -1}).bytes()), IsEmpty());
}

TEST(ExportBakedShape, ExpandShapeFoldedFromWhere) {
  // cls.expand(2, -1, -1) as torch 1.13 exports it: Where(Equal(s, -1), ones, s), then Concat
  // with x [B, S, 8] along axis 1.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("S"), 8}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("cls", {1, 1, 8}, std::vector<float>(8, 0.f)));
  g.initializer(make_tensor_i64("s", {3}, {2, -1, -1}));
  g.initializer(make_tensor_i64("three", {1}, {3}));
  g.initializer(make_tensor_i64("m1", {}, {-1}));
  attr_tensor(g.node("ConstantOfShape", {"three"}, {"ones"}), "value",
              make_tensor_i64("", {1}, {1}));
  g.node("Mul", {"ones", "m1"}, {"neg"});
  g.node("Equal", {"s", "neg"}, {"eq"});
  g.node("Where", {"eq", "ones", "s"}, {"shape"});
  g.node("Expand", {"cls", "shape"}, {"cls_b"}, "expand");
  attr_int(g.node("Concat", {"cls_b", "x"}, {"y"}, "cat"), "axis", 1);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/expand")));
}

TEST(ExportBakedShape, TileAndMatMul) {
  // mask.repeat(2, 1) with the batch read as an int, added to x [N, 8]: reported at the Tile.
  ModelBuilder t(13);
  t.graph().input("x", kFloat, {std::string("N"), 8}).output("y", kFloat, {}, false);
  t.graph().initializer(make_tensor_f32("mask", {1, 8}, std::vector<float>(8, 0.f)));
  t.graph().initializer(make_tensor_i64("reps", {2}, {2, 1}));
  t.graph().node("Tile", {"mask", "reps"}, {"m2"}, "tile");
  t.graph().node("Add", {"x", "m2"}, {"y"}, "add");
  EXPECT_THAT(findings(kRule, t.bytes()), ElementsAre(at("main/tile")));
  // x [B, S, 8] flattened to [B, 8*S] by a -1 with the batch copied, times w [48, 4]: only
  // S = 6 works, and the MatMul is where it shows.
  ModelBuilder m(14);
  m.graph()
      .input("x", kFloat, {std::string("B"), std::string("S"), 8})
      .output("y", kFloat, {}, false);
  m.graph().initializer(make_tensor_i64("shape", {2}, {0, -1}));
  m.graph().initializer(make_tensor_f32("w", {48, 4}, std::vector<float>(192, 0.f)));
  m.graph().node("Reshape", {"x", "shape"}, {"flat"}, "flatten");
  m.graph().node("MatMul", {"flat", "w"}, {"y"}, "mm");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/flatten")));
  EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message,
              HasSubstr("MatMul 'mm' needs that dim to be 48, so the model only runs when 8*S is "
                        "48, i.e. 'S' is 6"));
}

TEST(ExportBakedShape, BroadcastAgainstAFixedTable) {
  // x + pos with pos [1, 6, 8] and x [B, S, 8]: only S = 6 works.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("S"), 8}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("pos", {1, 6, 8}, std::vector<float>(48, 0.f)));
  g.node("Add", {"x", "pos"}, {"y"}, "add");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/add")));
  // pos[:, :S] sliced with Shape(x): near miss; x[:, :6] + pos: the slice may be on purpose.
  ModelBuilder s(13);
  auto& h = s.graph();
  h.input("x", kFloat, {std::string("B"), std::string("S"), 8}).output("y", kFloat, {}, false);
  h.initializer(make_tensor_f32("pos", {1, 6, 8}, std::vector<float>(48, 0.f)));
  h.initializer(make_tensor_i64("st", {1}, {0}));
  h.initializer(make_tensor_i64("en", {1}, {6}));
  h.initializer(make_tensor_i64("ax", {1}, {1}));
  h.node("Slice", {"x", "st", "en", "ax"}, {"head"});
  h.node("Add", {"head", "pos"}, {"y"}, "add");
  EXPECT_THAT(findings(kRule, s.bytes()), IsEmpty());
}

TEST(ExportBakedShape, SplitSizesThatSumToTheExampleSize) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("T"), 8}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("sizes", {2}, {3, 3}));
  attr_int(g.node("Split", {"x", "sizes"}, {"a", "b"}, "split"), "axis", 1);
  attr_int(g.node("Concat", {"b", "a"}, {"y"}, "cat"), "axis", 1);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/split")));
  EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message,
              HasSubstr("cuts axis 1 of 'x' [B, T, 8] into the constant sizes [3, 3] (6 in all), "
                        "which only holds when 'T' is 6"));
  // Equal halves without sizes, and constant sizes along a static axis, are fine.
  ModelBuilder h(13);
  h.graph()
      .input("x", kFloat, {std::string("B"), std::string("T"), 8})
      .output("y", kFloat, {}, false);
  h.graph().initializer(make_tensor_i64("sizes", {2}, {3, 5}));
  attr_int(h.graph().node("Split", {"x"}, {"a", "b"}, "halves"), "axis", 1);
  attr_int(h.graph().node("Split", {"x", "sizes"}, {"c", "d"}, "feat"), "axis", 2);
  h.graph().node("Sum", {"a", "b"}, {"y"});
  EXPECT_THAT(findings(kRule, h.bytes()), IsEmpty());
}

// for t in range(x.shape[1]): outs.append(tanh(x[:, t])); stack(outs, 1) with x [B, T, 8].
ModelBuilder traced_loop(const std::vector<int64_t>& positions, bool combine = true,
                         const DimSpec& axis_dim = std::string("T")) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), axis_dim, 8});
  g.initializer(make_tensor_i64("one", {1}, {1}));
  std::vector<std::string> parts;
  for (size_t k = 0; k < positions.size(); ++k) {
    std::string i = std::to_string(k);
    g.initializer(make_tensor_i64("idx" + i, {}, {positions[k]}));
    attr_int(g.node("Gather", {"x", "idx" + i}, {"p" + i}, "Gather_" + i), "axis", 1);
    g.node("Tanh", {"p" + i}, {"t" + i}, "Tanh_" + i);
    g.node("Unsqueeze", {"t" + i, "one"}, {"u" + i}, "Unsqueeze_" + i);
    parts.push_back("u" + i);
    if (!combine) g.output("u" + i, kFloat, {}, false);
  }
  if (combine) {
    attr_int(g.node("Concat", parts, {"y"}, "stack"), "axis", 1);
    g.output("y", kFloat, {}, false);
  }
  return m;
}

TEST(ExportBakedShape, LoopUnrolledOverADynamicAxis) {
  ModelBuilder m = traced_loop({0, 1, 2});
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/Gather_0")));
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "'x' is read at positions 0..2 of axis 1 by 3 Gather nodes that Concat 'stack' "
            "combines again, but that axis has the dynamic size 'T': a Python loop over it was "
            "unrolled by tracing for a size of 3; at any other size the model silently ignores "
            "the positions after 2 (or fails when there are fewer)");
  EXPECT_THAT(d[0].notes, ElementsAre("the size of that axis is dim 'T' of input 'x'"));
  EXPECT_THAT(d[0].help, HasSubstr("torch.jit.script"));
  // The static-axis rule stays quiet: this is not a performance finding.
  EXPECT_THAT(findings("export-unrolled-loop", m.bytes()), IsEmpty());
}

TEST(ExportBakedShape, LoopCombinedByAnAddChainOrSlices) {
  // h = x[:, 0]; for t in range(1, T): h = h + x[:, t]  (Slice pieces x[:, t:t+1] likewise).
  for (bool slices : {false, true}) {
    ModelBuilder m(13);
    auto& g = m.graph();
    g.input("x", kFloat, {std::string("B"), std::string("T"), 8}).output("h3", kFloat, {}, false);
    g.initializer(make_tensor_i64("ax", {1}, {1}));
    for (int k = 0; k < 4; ++k) {
      std::string i = std::to_string(k);
      if (slices) {
        g.initializer(make_tensor_i64("st" + i, {1}, {k}));
        g.initializer(make_tensor_i64("en" + i, {1}, {k + 1}));
        g.node("Slice", {"x", "st" + i, "en" + i, "ax"}, {"p" + i}, "piece_" + i);
      } else {
        g.initializer(make_tensor_i64("idx" + i, {}, {k}));
        attr_int(g.node("Gather", {"x", "idx" + i}, {"p" + i}, "piece_" + i), "axis", 1);
      }
    }
    g.node("Add", {"p0", "p1"}, {"h1"}, "add_1");
    g.node("Add", {"h1", "p2"}, {"h2"}, "add_2");
    g.node("Add", {"h2", "p3"}, {"h3"}, "add_3");
    EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/piece_0"))) << slices;
    EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message, HasSubstr("Add 'add_1' combines"));
  }
}

TEST(ExportBakedShape, ShortLoopWithEvidenceOfTheSize) {
  // x + pos with pos [1, 2, 8] shows T was 2; x[:, 0] + x[:, 1] is then the traced loop.
  ModelBuilder m = traced_loop({0, 1});
  m.graph().initializer(make_tensor_f32("pos", {1, 2, 8}, std::vector<float>(16, 0.f)));
  m.graph().node("Add", {"x", "pos"}, {"shifted"}, "add_pos");
  m.graph().output("shifted", kFloat, {}, false);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/Gather_0"), at("main/add_pos")));
}

TEST(ExportBakedShape, LoopNearMisses) {
  // Pieces never combined, a hole, first and last token (-1 is relative), a static axis.
  EXPECT_THAT(findings(kRule, traced_loop({0, 1, 2}, false).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, traced_loop({0, 2, 3}).bytes()), IsEmpty());
  // x[:, 0] and x[:, 1] combined: two positions may be meant, unless min-length says otherwise.
  EXPECT_THAT(findings(kRule, traced_loop({0, 1}).bytes()), IsEmpty());
  LintOptions o;
  o.rule_options[kRule]["min-length"] = int64_t{2};
  EXPECT_THAT(findings(kRule, traced_loop({0, 1}).bytes(), o), ElementsAre(at("main/Gather_0")));
  EXPECT_THAT(findings(kRule, traced_loop({0, -1}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, traced_loop({0}).bytes()), IsEmpty());
  ModelBuilder fixed = traced_loop({0, 1, 2}, true, int64_t{3});
  EXPECT_THAT(findings(kRule, fixed.bytes()), IsEmpty());
  EXPECT_THAT(findings("export-unrolled-loop", fixed.bytes()),
              ElementsAre("export-unrolled-loop main/Gather_0"));
}

TEST(ExportBakedShape, NearMissRepeatedLayersAndKvCache) {
  // A traced `for layer in self.layers` over a dynamic batch.
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {std::string("batch"), 4}).output("h3", kFloat, {}, false);
  m.graph().initializer(make_tensor_f32("w", {4, 4}, std::vector<float>(16, 0.f)));
  std::string prev = "x";
  for (int i = 0; i < 4; ++i) {
    const std::string index = std::to_string(i);  // (not "mm" + to_string: GCC 12 -Wrestrict)
    std::string mm = std::string("mm").append(index), h = std::string("h").append(index);
    m.graph().node("MatMul", {prev, "w"}, {mm});
    m.graph().node("Tanh", {mm}, {h});
    prev = h;
  }
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
  // k = cat([past_k, new_k], 1) with dynamic past and seq.
  ModelBuilder kv(13);
  kv.graph()
      .input("past", kFloat, {std::string("batch"), std::string("past"), 8})
      .input("x", kFloat, {std::string("batch"), std::string("seq"), 8})
      .output("k", kFloat, {std::string("batch"), std::string("total"), 8});
  kv.graph().initializer(make_tensor_f32("w", {8, 8}, std::vector<float>(64, 0.f)));
  kv.graph().node("MatMul", {"x", "w"}, {"new"});
  attr_int(kv.graph().node("Concat", {"past", "new"}, {"k"}), "axis", 1);
  EXPECT_THAT(findings(kRule, kv.bytes()), IsEmpty());
}

TEST(ExportBakedShape, ResizeWithConstantSizesOverTheBatch) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 3, std::string("H"), std::string("W")})
      .output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("sizes", {4}, {2, 3, 16, 16}));
  g.node("Resize", {"x", "", "", "sizes"}, {"y"}, "resize");
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/resize")));
  EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message,
              HasSubstr("interpolates across samples and silently gives wrong results"));
  // A constant spatial size can be on purpose.
  ModelBuilder s(13);
  s.graph()
      .input("x", kFloat, {1, 3, std::string("H"), std::string("W")})
      .output("y", kFloat, {}, false);
  s.graph().initializer(make_tensor_i64("sizes", {4}, {1, 3, 16, 16}));
  s.graph().node("Resize", {"x", "", "", "sizes"}, {"y"}, "resize");
  EXPECT_THAT(findings(kRule, s.bytes()), IsEmpty());
}

TEST(ExportBakedShape, SliceEndEqualToTheExportedSize) {
  // The split shows T was 6 at export; x[:, :6] elsewhere read the same size.
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("B"), std::string("T"), 8})
      .output("a", kFloat, {}, false)
      .output("b", kFloat, {}, false)
      .output("head", kFloat, {}, false);
  g.initializer(make_tensor_i64("sizes", {2}, {3, 3}));
  g.initializer(make_tensor_i64("st", {1}, {0}));
  g.initializer(make_tensor_i64("en", {1}, {6}));
  g.initializer(make_tensor_i64("en5", {1}, {5}));
  g.initializer(make_tensor_i64("ax", {1}, {1}));
  g.node("Slice", {"x", "st", "en", "ax"}, {"head"}, "crop");
  g.node("Slice", {"x", "st", "en5", "ax"}, {"head5"}, "crop5");
  attr_int(g.node("Split", {"x", "sizes"}, {"a", "b"}, "split"), "axis", 1);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/crop"), at("main/split")));
}

TEST(ExportBakedShape, ExtremeConstantsAreNoFindingAndNoCrash) {
  constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).input("z", kFloat, {0, 3});
  g.initializer(make_tensor_i64("huge", {3}, {kMax, kMax, 2}));
  g.initializer(make_tensor_i64("minus", {2}, {kMin, -1}));
  g.initializer(make_tensor_i64("split", {2}, {kMax, kMax}));
  g.initializer(make_tensor_i64("st", {1}, {kMax}));
  g.initializer(make_tensor_i64("en", {1}, {kMin}));
  g.initializer(make_tensor_i64("ax", {1}, {0}));
  g.initializer(make_tensor_i64("step", {1}, {kMin}));
  g.initializer(make_tensor_i64("step1", {1}, {-1}));
  g.initializer(make_tensor_i64("reps", {2}, {kMax, 2}));
  g.node("Reshape", {"x", "huge"}, {"a"});
  g.node("Reshape", {"x", "minus"}, {"b"});
  attr_int(g.node("Split", {"x", "split"}, {"c", "d"}), "axis", 0);
  g.node("Slice", {"x", "st", "en", "ax", "step"}, {"e"});
  g.node("Slice", {"z", "st", "en", "ax", "step1"}, {"f"});
  g.node("Tile", {"x", "reps"}, {"h"});
  g.node("Expand", {"x", "minus"}, {"i"});
  for (const char* o : {"a", "b", "c", "d", "e", "f", "h", "i"}) g.output(o, kFloat, {}, false);
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

TEST(ExportBakedShape, NestedInLoopIfAndFunction) {
  ModelBuilder m = reshape_model({2, 8, 2});
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(at(std::string(kNestedPath) + "/Reshape_0")));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(at(std::string(kNestedIfPath) + "/Reshape_0")));
  EXPECT_THAT(findings(kRule, nest_in_loop(traced_loop({0, 1, 2}).proto())),
              ElementsAre(at(std::string(kNestedPath) + "/Gather_0")));

  // A model-local function reshaping its input to a constant shape, called with x [N, 16].
  ModelBuilder f(14);
  f.opset("local", 1);
  f.graph().input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  f.graph().node("Flat", {"x"}, {"y"}, "call", "local");
  onnx::FunctionProto* fn = f.proto().add_functions();
  fn->set_name("Flat");
  fn->set_domain("local");
  auto* imp = fn->add_opset_import();
  imp->set_domain("");
  imp->set_version(14);
  fn->add_input("a");
  fn->add_output("b");
  auto* c = fn->add_node();
  c->set_op_type("Constant");
  c->set_name("shape");
  c->add_output("s");
  attr_tensor(*c, "value", make_tensor_i64("", {3}, {2, 8, 2}));
  auto* r = fn->add_node();
  r->set_op_type("Reshape");
  r->set_name("reshape");
  r->add_input("a");
  r->add_input("s");
  r->add_output("b");
  EXPECT_THAT(findings(kRule, f.bytes()), ElementsAre(at("fn:local::Flat/reshape")));
  // Two calls with different sizes: the formal's size is not one exact dim.
  f.graph().input("z", kFloat, {std::string("M"), 16}).output("w", kFloat, {}, false);
  f.graph().node("Flat", {"z"}, {"w"}, "call2", "local");
  EXPECT_THAT(findings(kRule, f.bytes()), IsEmpty());
}

// ---- The rank-0 Reshape of torchvision's detectors ----------------------------------------

// k = min(300, x.size(0)) as torchvision's _topk_min traces it: ReduceMin(Concat([300],
// Shape(x)), keepdims=0) is a scalar, which TopK needs reshaped to [1]. The rule's former dim
// tracker indexed the scalar's (empty) dims with the target's rank and crashed.
void add_topk_min(GraphBuilder& g, const std::string& x, const std::string& out) {
  g.initializer(make_tensor_i64("cand", {1}, {300}));
  g.initializer(make_tensor_i64("one", {1}, {1}));
  g.node("Shape", {x}, {"sx"}, "shape");
  attr_int(g.node("Concat", {"cand", "sx"}, {"both"}, "both"), "axis", 0);
  attr_int(g.node("ReduceMin", {"both"}, {"kmin"}, "kmin"), "keepdims", 0);
  g.node("Reshape", {"kmin", "one"}, {"k"}, "k");
  g.node("TopK", {x, "k"}, {out, out + "_idx"}, "topk");
  g.output(out, kFloat, {}, false).output(out + "_idx", kInt64, {}, false);
}

ModelBuilder topk_min(bool with_baked_view) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("scores", kFloat, {std::string("N")});
  add_topk_min(g, "scores", "top");
  if (with_baked_view) {
    // Beside it, a genuine bake: boxes.view(2, -1) before a Linear(8, 4) needs N = 4.
    g.input("boxes", kFloat, {std::string("N"), 4}).output("y", kFloat, {}, false);
    g.initializer(make_tensor_i64("shape", {2}, {2, -1}));
    g.initializer(make_tensor_f32("w", {4, 8}, std::vector<float>(32, 0.f)));
    g.node("Reshape", {"boxes", "shape"}, {"flat"}, "view");
    attr_int(g.node("Gemm", {"flat", "w"}, {"y"}, "fc"), "transB", 1);
  }
  return m;
}

TEST(ExportBakedShape, ScalarReshapedToOneElementIsNoFindingAndNoCrash) {
  // Near miss: min(300, N) is right at every size.
  EXPECT_THAT(findings(kRule, topk_min(false).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, nest_in_loop(topk_min(false).proto())), IsEmpty());
  EXPECT_THAT(findings(kRule, nest_in_if(topk_min(false).proto())), IsEmpty());
}

TEST(ExportBakedShape, ScalarReshapeBesideABakedSizeStillReportsTheBake) {
  // Trigger: the same graph with a baked view; the rule runs to the end and reports it.
  ModelBuilder m = topk_min(true);
  EXPECT_THAT(findings(kRule, m.bytes()), ElementsAre(at("main/view")));
  EXPECT_THAT(diagnostics(kRule, m.bytes())[0].message, HasSubstr("2*N is 8, i.e. 'N' is 4"));
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(at(std::string(kNestedPath) + "/view")));
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(at(std::string(kNestedIfPath) + "/view")));
}

TEST(ExportBakedShape, ReshapeToAHigherRankCopiesOnlyDimsTheInputHas) {
  // x [B, T] -> Reshape [0, 2, 3, 1]: 0 copies B, the rest needs T = 6 (positions 2 and 3
  // of the target have no input dim to copy).
  auto make = [](const std::vector<int64_t>& shape) {
    ModelBuilder m(14);
    m.graph()
        .input("x", kFloat, {std::string("B"), std::string("T")})
        .output("y", kFloat, {}, false);
    m.graph().initializer(make_tensor_i64("shape", {static_cast<int64_t>(shape.size())}, shape));
    m.graph().node("Reshape", {"x", "shape"}, {"y"}, "Reshape_0");
    return m;
  };
  ModelBuilder six = make({0, 2, 3, 1});
  EXPECT_THAT(findings(kRule, six.bytes()), ElementsAre(at("main/Reshape_0")));
  EXPECT_THAT(diagnostics(kRule, six.bytes())[0].message, HasSubstr("'T' is 6"));
  EXPECT_THAT(findings(kRule, nest_in_loop(six.proto())),
              ElementsAre(at(std::string(kNestedPath) + "/Reshape_0")));
  EXPECT_THAT(findings(kRule, nest_in_if(six.proto())),
              ElementsAre(at(std::string(kNestedIfPath) + "/Reshape_0")));
  // Near misses: [0, -1, 1, 1] keeps T; a 0 past the input's rank is invalid, not a bake.
  EXPECT_THAT(findings(kRule, make({0, -1, 1, 1}).bytes()), IsEmpty());
  EXPECT_THAT(findings(kRule, make({0, 0, 0}).bytes()), IsEmpty());
}

// ---- Constant routes the op registry's constraints follow ------------------------------------
// (lib/analysis/dim_pins.cc): a fixed size meets a dim the engine computes from an input dim
// through ops the rule's own transfers do not follow exactly (Conv, Pad, an RNN's state, ...).

// x [N, 3, H, W] -> Conv(8, 3x3, stride 2, pad 1) -> + table [1, 8, rows, 1].
ModelBuilder conv_then_table(int64_t rows) {
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 3, std::string("H"), std::string("W")})
      .output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("w", {8, 3, 3, 3}, std::vector<float>(216, 0.f)));
  g.initializer(
      make_tensor_f32("table", {1, 8, rows, 1}, std::vector<float>(static_cast<size_t>(8 * rows))));
  auto& c = g.node("Conv", {"x", "w"}, {"c"}, "conv");
  attr_ints(c, "strides", {2, 2});
  attr_ints(c, "pads", {1, 1, 1, 1});
  attr_ints(c, "kernel_shape", {3, 3});
  g.node("Add", {"c", "table"}, {"y"}, "add");
  return m;
}

TEST(ExportBakedShape, ConvOutputAgainstAFixedTablePinsTheInputDim) {
  ModelBuilder m = conv_then_table(32);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "Add 'add' broadcasts its operands: dim 2 of 'c' is (H-1)/2+1, from 'H', and must "
            "equal dim 2 of 'table', which is 32 (or be 1), so the model only runs when 'H' is 63 "
            "to 64 (or 1 to 2): the size seen at export was baked in, and other sizes of 'H' fail "
            "at run time");
  EXPECT_THAT(d[0].notes, ElementsAre("dim 'H' of input 'x' is declared dynamic"));
  EXPECT_EQ(d[0].key, "H=32");
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(at(std::string(kNestedPath) + "/add")));
  // In an If branch that always runs (a constant condition) the equality holds as above...
  EXPECT_THAT(findings(kRule, nest_in_if(m.proto())),
              ElementsAre(at(std::string(kNestedIfPath) + "/add")));
  // ...but under a condition known only at run time it holds only when the branch runs, which
  // may be only at the export size (`if x.size(2) == 64:` in scripted code): nothing is proven.
  onnx::ModelProto guarded;
  ASSERT_TRUE(guarded.ParseFromString(nest_in_if(m.proto())));
  auto* inits = guarded.mutable_graph()->mutable_initializer();
  for (int i = 0; i < inits->size(); ++i) {
    if (inits->Get(i).name() == "nest_if_cond") {
      inits->DeleteSubrange(i, 1);
      break;
    }
  }
  auto* cond = guarded.mutable_graph()->add_input();
  cond->set_name("nest_if_cond");
  cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  cond->mutable_type()->mutable_tensor_type()->mutable_shape();
  EXPECT_THAT(findings(kRule, guarded.SerializeAsString()), IsEmpty());
  // Near miss: a table of one row broadcasts against every size.
  EXPECT_THAT(findings(kRule, conv_then_table(1).bytes()), IsEmpty());
}

TEST(ExportBakedShape, MinOfTheDimAndAConstantPinsNothing) {
  // x[:, :64] + table[1, 64, 4]: min(seq, 64) is 64 for every seq >= 64, and smaller sizes
  // broadcast only when 1; no single size is frozen, so nothing is proven.
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("b"), std::string("seq"), 4}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("st", {1}, {0}));
  g.initializer(make_tensor_i64("en", {1}, {64}));
  g.initializer(make_tensor_i64("ax", {1}, {1}));
  g.initializer(make_tensor_f32("table", {1, 64, 4}, std::vector<float>(256, 0.f)));
  g.node("Slice", {"x", "st", "en", "ax"}, {"s"}, "slice");
  g.node("Add", {"s", "table"}, {"y"}, "add");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

// x [seq, batch, 8] -> LSTM(hidden 16) from initial_h / initial_c `h0`.
ModelBuilder lstm_with_state(bool constant_state) {
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("seq"), std::string("batch"), 8})
      .output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("W", {1, 64, 8}, std::vector<float>(512, 0.f)));
  g.initializer(make_tensor_f32("R", {1, 64, 16}, std::vector<float>(1024, 0.f)));
  if (constant_state) {
    g.initializer(make_tensor_f32("h0", {1, 2, 16}, std::vector<float>(32, 0.f)));
  } else {
    // torch's x.new_zeros(1, x.size(1), 16): ConstantOfShape(Concat([1], Shape(x)[1:2], [16])).
    g.initializer(make_tensor_i64("one", {1}, {1}));
    g.initializer(make_tensor_i64("two", {1}, {2}));
    g.initializer(make_tensor_i64("hidden", {1}, {16}));
    g.node("Shape", {"x"}, {"sx"});
    g.node("Slice", {"sx", "one", "two"}, {"b"});
    attr_int(g.node("Concat", {"one", "b", "hidden"}, {"hs"}), "axis", 0);
    g.node("ConstantOfShape", {"hs"}, {"h0"});
  }
  attr_int(g.node("LSTM", {"x", "W", "R", "", "", "h0", "h0"}, {"y"}, "lstm"), "hidden_size", 16);
  return m;
}

TEST(ExportBakedShape, RnnInitialStatePinsTheBatch) {
  ModelBuilder m = lstm_with_state(true);
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);  // initial_h and initial_c: one finding, one node
  EXPECT_EQ(d[0].message,
            "LSTM 'lstm' starts from an initial state whose batch must match its input's: dim 1 "
            "of 'x' is 'batch' and must equal dim 1 of 'h0', which is 2, so the model only runs "
            "when 'batch' is 2: the size seen at export was baked in, and other sizes of 'batch' "
            "fail at run time");
  EXPECT_THAT(findings(kRule, nest_in_loop(m.proto())),
              ElementsAre(at(std::string(kNestedPath) + "/lstm")));
  EXPECT_THAT(findings(kRule, lstm_with_state(false).bytes()), IsEmpty());
}

TEST(ExportBakedShape, WeightMetThroughFlattenAndMatMul) {
  // Conv (stride 2) -> Flatten -> MatMul with a [8*16*16, 10] weight: W is fixed at 32.
  auto make = [](bool pooled) {
    ModelBuilder m(17);
    auto& g = m.graph();
    g.input("x", kFloat, {std::string("N"), 3, std::string("H"), 32})
        .output("y", kFloat, {}, false);
    g.initializer(make_tensor_f32("w", {8, 3, 3, 3}, std::vector<float>(216, 0.f)));
    const int64_t k = pooled ? 8 : 8 * 16 * 16;
    g.initializer(make_tensor_f32("fc", {k, 10}, std::vector<float>(static_cast<size_t>(k * 10))));
    auto& c = g.node("Conv", {"x", "w"}, {"c"}, "conv");
    attr_ints(c, "strides", {2, 2});
    attr_ints(c, "pads", {1, 1, 1, 1});
    attr_ints(c, "kernel_shape", {3, 3});
    std::string flat_in = "c";
    if (pooled) {
      g.node("GlobalAveragePool", {"c"}, {"p"}, "pool");
      flat_in = "p";
    }
    g.node("Flatten", {flat_in}, {"f"}, "flatten");
    g.node("MatMul", {"f", "fc"}, {"y"}, "matmul");
    return m;
  };
  auto d = diagnostics(kRule, make(false).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message,
            "MatMul 'matmul' multiplies matrices whose inner dims must be equal: dim 1 of 'f' is "
            "128*((H-1)/2+1), from 'H', and must equal dim 0 of 'fc', which is 2048, so the model "
            "only runs when 'H' is 31 to 32: the size seen at export was baked in, and other "
            "sizes of 'H' fail at run time");
  EXPECT_THAT(findings(kRule, make(true).bytes()), IsEmpty());  // global pooling: any size
}

TEST(ExportBakedShape, PadAmountThenATableOfThePaddedLength) {
  // Pad(x, [0, 0, 0, 0, 3, 0]) + table [1, 131, 4]: seq + 3 = 131.
  auto make = [](int64_t rows) {
    ModelBuilder m(17);
    auto& g = m.graph();
    g.input("x", kFloat, {std::string("b"), std::string("seq"), 4}).output("y", kFloat, {}, false);
    g.initializer(make_tensor_i64("pads", {6}, {0, 0, 0, 0, 3, 0}));
    g.initializer(
        make_tensor_f32("table", {1, rows, 4}, std::vector<float>(static_cast<size_t>(rows * 4))));
    g.node("Pad", {"x", "pads"}, {"p"}, "pad");
    g.node("Add", {"p", "table"}, {"y"}, "add");
    return m;
  };
  auto d = diagnostics(kRule, make(131).bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("dim 1 of 'p' is seq+3, from 'seq', and must equal dim 1 "
                                      "of 'table', which is 131 (or be 1), so the model only runs "
                                      "when 'seq' is 128:"));
  // A table of 3 rows: seq + 3 = 3 has no solution (seq >= 1): a broken model, not a bake.
  EXPECT_THAT(findings(kRule, make(3).bytes()), IsEmpty());
}

TEST(ExportBakedShape, TwoDimsPinnedTogetherByAPositionTable) {
  // ViT patches: Conv(4x4, stride 4) -> Reshape [N, 16, -1] -> Transpose -> + pos [1, 64, 16].
  ModelBuilder m(17);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 3, std::string("H"), std::string("W")})
      .output("y", kFloat, {}, false);
  g.initializer(make_tensor_f32("w", {16, 3, 4, 4}, std::vector<float>(768, 0.f)));
  g.initializer(make_tensor_f32("pos", {1, 64, 16}, std::vector<float>(1024, 0.f)));
  g.initializer(make_tensor_i64("keep", {3}, {0, 16, -1}));
  auto& c = g.node("Conv", {"x", "w"}, {"c"}, "patch");
  attr_ints(c, "strides", {4, 4});
  attr_ints(c, "kernel_shape", {4, 4});
  g.node("Reshape", {"c", "keep"}, {"r"}, "flatten");
  attr_ints(g.node("Transpose", {"r"}, {"t"}, "transpose"), "perm", {0, 2, 1});
  g.node("Add", {"t", "pos"}, {"y"}, "add");
  auto d = diagnostics(kRule, m.bytes());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message,
              HasSubstr("dim 1 of 't' is ((W-4)/4+1)*((H-4)/4+1), from 'H', 'W', and must equal "
                        "dim 1 of 'pos', which is 64, so the model only runs when 'H' is at most "
                        "259 and 'W' is at most 259 ('H' = 'W' = 32 to 35 works)"));
  EXPECT_THAT(d[0].notes, ElementsAre("dim 'H' of input 'x' is declared dynamic",
                                      "dim 'W' of input 'x' is declared dynamic"));
}

// ---- Every op the rule reads, on every rank it can meet ----------------------------------------

// The ops whose dims and shape arithmetic the rule's findings rest on (the shape transfers of
// the engine, lib/analysis/provenance_dims.cc) and those with a constraint rule in the op
// registry (lib/analysis/ops/, read through DimPins), each with the roles of its inputs:
// D a tensor, I an integer argument (shape, axes, indices, sizes, repeats), F a float argument
// (Resize's roi and scales); a lowercase role is optional, '+' repeats the last role.
struct TrackedOp {
  const char* op;
  const char* roles;
};
const std::vector<TrackedOp>& tracked_ops() {
  static const std::vector<TrackedOp> k = [] {
    std::vector<TrackedOp> v;
    for (const char* op : {"Abs",           "Acos",
                           "Acosh",         "Asin",
                           "Asinh",         "Atan",
                           "Atanh",         "Ceil",
                           "Celu",          "Clip",
                           "Cos",           "Cosh",
                           "Elu",           "Erf",
                           "Exp",           "Floor",
                           "Gelu",          "HardSigmoid",
                           "HardSwish",     "Hardmax",
                           "IsInf",         "IsNaN",
                           "LeakyRelu",     "Log",
                           "LogSoftmax",    "LpNormalization",
                           "LRN",           "MeanVarianceNormalization",
                           "Mish",          "Not",
                           "Reciprocal",    "Relu",
                           "Round",         "Selu",
                           "Shrink",        "Sigmoid",
                           "Sign",          "Sin",
                           "Sinh",          "Softmax",
                           "Softplus",      "Softsign",
                           "Sqrt",          "Tan",
                           "Tanh",          "ThresholdedRelu",
                           "Dropout",       "Identity",
                           "Cast",          "Neg",
                           "Shape",         "Transpose",
                           "Flatten",       "GlobalAveragePool",
                           "GlobalMaxPool", "GlobalLpPool",
                           "MaxPool",       "AveragePool",
                           "LpPool"}) {
      v.push_back({op, "D"});
    }
    for (const char* op :
         {"CumSum", "Trilu", "CastLike", "QuantizeLinear", "DequantizeLinear", "BatchNormalization",
          "InstanceNormalization", "LayerNormalization", "GroupNormalization"}) {
      v.push_back({op, "Dddd"});
    }
    for (const char* op :
         {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "And", "Or", "Xor", "Equal", "Greater", "Less",
          "GreaterOrEqual", "LessOrEqual", "PRelu", "BitShift", "MatMul"}) {
      v.push_back({op, "DD"});
    }
    for (const char* op : {"Max", "Min", "Mean", "Sum", "Concat"}) v.push_back({op, "D+"});
    for (const auto& [op, roles] : std::vector<std::pair<const char*, const char*>>{
             {"Where", "DDD"},         {"Gemm", "DDd"},           {"Conv", "DDd"},
             {"ConvTranspose", "DDd"}, {"LSTM", "DDDddddd"},      {"GRU", "DDDddd"},
             {"RNN", "DDDddd"},        {"Unsqueeze", "Di"},       {"Squeeze", "Di"},
             {"Reshape", "DI"},        {"Expand", "DI"},          {"Gather", "DI"},
             {"Slice", "DIIii"},       {"Split", "Di"},           {"Tile", "DI"},
             {"ConstantOfShape", "I"}, {"Resize", "Dffi"},        {"ReduceSum", "Di"},
             {"ReduceMean", "Di"},     {"ReduceMax", "Di"},       {"ReduceMin", "Di"},
             {"ReduceProd", "Di"},     {"ReduceL1", "Di"},        {"ReduceL2", "Di"},
             {"ReduceLogSum", "Di"},   {"ReduceLogSumExp", "Di"}, {"ReduceSumSquare", "Di"}}) {
      v.push_back({op, roles});
    }
    return v;
  }();
  return k;
}

// What an input slot gets. Free dims are all distinct names, so that in the families below no
// two of them are related by a constant: any finding would be wrong.
enum class Operand {
  Absent,      // "" (only for optional roles)
  Rank0,       // a declared scalar
  Free1,       // [a]
  Free2,       // [a, b]
  Free3,       // [a, b, c]
  Free4,       // [a, b, c, d]
  UnknownDim,  // [?, ?] (no value, no name)
  NoShape,     // a tensor type without a shape: rank unknown
  Fixed1,      // [1]
  Fixed2,      // [2, 3]
  Fixed3,      // [3, 1, 2]
  Runtime,     // an int64 graph input [?]: values unknown
  ShapeOf,     // Shape of a graph input with free dims: elements exact but not fixed
  MinScalar,   // ReduceMin(Concat([300], Shape(u)), keepdims=0): a scalar from shape arithmetic
  Const,       // an int64 constant from kConstants (the slot's index picks it)
  FloatConst,  // a float constant [1, 1, 2, 2]
};

// Integer constants: axis-like, shape-like, extreme, empty, mismatched lengths.
const std::vector<std::vector<int64_t>> kConstants = {
    {},      {0},  {-1},        {1},         {2},       {0, -1},   {-1, 0}, {1, 0},
    {0, 0},  {5},  {-9},        {2, 3},      {3, 2, 1}, {1, 1, 1}, {2, -1}, {0, 1, 1},
    {1, -1}, {-2}, {INT64_MAX}, {INT64_MIN}, {0, 2, 0}, {-1, -1},  {6},     {1, 2, 3, 4, 5}};

// One family of operands per slot kind, so that no finding can be right:
//  - Free: tensors with free dims, arguments whose values are unknown (no constant pins them);
//  - Fixed: tensors without free dims (fixed, rank 0, unknown rank) and any constant argument.
// (A dim declared with neither a value nor a name is free too: the input may take any size.)
struct Family {
  std::vector<Operand> data, args;
};
const Family kFree{{Operand::Rank0, Operand::Free1, Operand::Free2, Operand::Free3, Operand::Free4,
                    Operand::UnknownDim, Operand::NoShape},
                   {Operand::Runtime, Operand::ShapeOf, Operand::MinScalar}};
const Family kFixed{{Operand::Rank0, Operand::Fixed1, Operand::Fixed2, Operand::Fixed3,
                     Operand::NoShape, Operand::MinScalar},
                    {Operand::Const, Operand::Runtime, Operand::Const, Operand::Const,
                     Operand::MinScalar, Operand::FloatConst}};

// Attribute sets, applied to every node (attributes an op does not have are ignored by the
// rule): in-range, out-of-range and negative axes, permutations of the wrong length, the
// attribute forms of old opsets (Reshape-1's shape, Slice-1's starts/ends, Split-2's split).
void set_profile(onnx::NodeProto& n, size_t profile, bool fixed_family) {
  switch (profile % 4) {
    case 0:
      break;
    case 1:
      attr_int(n, "axis", -1);
      attr_ints(n, "axes", {-1});
      attr_ints(n, "perm", {1, 0});
      attr_int(n, "keepdims", 0);
      attr_int(n, "transA", 1);
      attr_int(n, "allowzero", 1);
      attr_int(n, "to", kInt64);
      attr_ints(n, "starts", {0});
      attr_ints(n, "ends", {-1});
      attr_ints(n, "shape", {-1});
      break;
    case 2:
      attr_int(n, "axis", 5);
      attr_ints(n, "axes", {0, 0});
      attr_ints(n, "perm", {0});
      attr_int(n, "transB", 1);
      attr_int(n, "noop_with_empty_axes", 1);
      attr_ints(n, "starts", {-9, 0});
      attr_ints(n, "ends", {9});
      attr_ints(n, "shape", {0, -1});
      if (fixed_family) attr_ints(n, "split", {1, 2});
      break;
    default:
      attr_int(n, "axis", -9);
      attr_ints(n, "axes", {9, -9});
      attr_ints(n, "perm", {2, 0, 1});
      attr_int(n, "num_outputs", 2);
      attr_ints(n, "starts", {INT64_MIN});
      attr_ints(n, "ends", {INT64_MAX});
      if (fixed_family) attr_ints(n, "shape", {2, 3});
      if (fixed_family) attr_ints(n, "split", {INT64_MAX, INT64_MAX});
      break;
  }
}

// Adds what `kind` needs for input `name` of a node and returns the name to read ("" absent).
std::string operand(GraphBuilder& g, Operand kind, const std::string& name, size_t pick) {
  auto free_dims = [&](size_t rank) {
    std::vector<DimSpec> dims;
    for (size_t i = 0; i < rank; ++i) dims.push_back(name + "_d" + std::to_string(i));
    return dims;
  };
  switch (kind) {
    case Operand::Absent:
      return "";
    case Operand::Rank0:
      g.input(name, kFloat, {});
      return name;
    case Operand::Free1:
    case Operand::Free2:
    case Operand::Free3:
    case Operand::Free4:
      g.input(name, kFloat,
              free_dims(static_cast<size_t>(kind) - static_cast<size_t>(Operand::Free1) + 1));
      return name;
    case Operand::UnknownDim:
      g.input(name, kFloat, {int64_t{-1}, int64_t{-1}});
      return name;
    case Operand::NoShape:
      g.input(name, kFloat, {}, false);
      return name;
    case Operand::Fixed1:
      g.input(name, kFloat, {1});
      return name;
    case Operand::Fixed2:
      g.input(name, kFloat, {2, 3});
      return name;
    case Operand::Fixed3:
      g.input(name, kFloat, {3, 1, 2});
      return name;
    case Operand::Runtime:
      g.input(name, kInt64, {int64_t{-1}});
      return name;
    case Operand::ShapeOf:
      g.input(name + "_src", kFloat, free_dims(1 + pick % 3));
      g.node("Shape", {name + "_src"}, {name}, name + "_shape");
      return name;
    case Operand::MinScalar: {
      // min(300, n) of a free n: a dim-like scalar that is never a fixed size. (Over a fixed
      // source the analysis computes the constant, e.g. min(300, 7) = 7, which can pin.)
      g.input(name + "_src", kFloat, {DimSpec(name + "_n" + std::to_string(pick % 2))});
      g.initializer(make_tensor_i64(name + "_cand", {1}, {300}));
      g.node("Shape", {name + "_src"}, {name + "_s"}, name + "_shape");
      attr_int(g.node("Concat", {name + "_cand", name + "_s"}, {name + "_both"}, name + "_cat"),
               "axis", 0);
      attr_int(g.node("ReduceMin", {name + "_both"}, {name}, name + "_min"), "keepdims", 0);
      return name;
    }
    case Operand::Const: {
      const std::vector<int64_t>& v = kConstants[pick % kConstants.size()];
      // Scalars too: a 1-element constant is rank 0 every other time.
      const bool scalar = v.size() == 1 && pick % 2 == 1;
      g.initializer(make_tensor_i64(
          name, scalar ? std::vector<int64_t>{} : std::vector<int64_t>{int64_t(v.size())}, v));
      return name;
    }
    case Operand::FloatConst:
      g.initializer(make_tensor_f32(name, {4}, {1.f, 1.f, 2.f, 2.f}));
      return name;
  }
  return "";
}

// A deterministic spread over the choices (a small LCG), so that every op meets every kind.
size_t spread(size_t a, size_t b, size_t c) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  x ^= (c + 1) * 0x165667B19E3779F9ull;
  x ^= x >> 29;
  return static_cast<size_t>(x % 1000003);
}

// One model per (family, opset, attribute profile, variant): one node per tracked op, each
// reading operands of its own, and an input with a free dim no node reads (so that the rule
// is active in the Fixed family too).
std::string sweep_model(const Family& f, bool fixed_family, int64_t opset, size_t profile,
                        size_t variant) {
  ModelBuilder m(opset);
  auto& g = m.graph();
  g.input("anchor", kFloat, {std::string("Anchor")});
  const auto& ops = tracked_ops();
  for (size_t o = 0; o < ops.size(); ++o) {
    const std::string roles = ops[o].roles;
    const std::string prefix = std::string(ops[o].op) + "_" + std::to_string(o);
    // Variadic: 1 to 3 operands of the last role.
    std::string slots = roles;
    if (!slots.empty() && slots.back() == '+') {
      slots.pop_back();
      slots += std::string(spread(o, variant, 99) % 3, slots.back());
    }
    std::vector<std::string> inputs;
    for (size_t s = 0; s < slots.size(); ++s) {
      const char role = slots[s];
      const bool optional = std::islower(static_cast<unsigned char>(role)) != 0;
      const bool data = role == 'D' || role == 'd';
      std::vector<Operand> kinds = data ? f.data : f.args;
      if (role == 'F' || role == 'f') kinds = {Operand::FloatConst, Operand::Runtime};
      if (optional) kinds.push_back(Operand::Absent);
      // The first slot cycles through every kind; the others spread.
      const size_t pick = s == 0 ? variant : spread(o, variant, s);
      const Operand kind = kinds[pick % kinds.size()];
      inputs.push_back(
          operand(g, kind, prefix + "_in" + std::to_string(s), spread(o, variant, s + 7)));
    }
    // Trailing absent inputs are dropped; absent ones in the middle stay "".
    while (!inputs.empty() && inputs.back().empty()) inputs.pop_back();
    std::vector<std::string> outputs = {prefix + "_out"};
    if (std::string_view(ops[o].op) == "Split") outputs.push_back(prefix + "_out2");
    if (std::string_view(ops[o].op) == "Dropout") outputs.push_back(prefix + "_mask");
    auto& n = g.node(ops[o].op, inputs, outputs, prefix);
    set_profile(n, profile, fixed_family);
    for (const std::string& out : outputs) g.output(out, kFloat, {}, false);
  }
  return m.bytes();
}

TEST(ExportBakedShape, EveryTrackedOpOnEveryRankIsNoFindingAndNoCrash) {
  // Rank 0, rank 1, mismatched ranks, unknown ranks and dims, absent optionals, variadic
  // inputs, out-of-range axes and both attribute/input forms across opsets: no crash, no
  // internal error, and (since nothing pins a free dim) no finding.
  size_t models = 0;
  for (bool fixed_family : {false, true}) {
    const Family& f = fixed_family ? kFixed : kFree;
    for (int64_t opset : {4, 10, 11, 13, 18}) {
      for (size_t profile = 0; profile < 4; ++profile) {
        for (size_t variant = 0; variant < 16; ++variant) {
          const std::string bytes = sweep_model(f, fixed_family, opset, profile, variant);
          EXPECT_THAT(findings(kRule, bytes), IsEmpty())
              << (fixed_family ? "fixed" : "free") << " family, opset " << opset << ", profile "
              << profile << ", variant " << variant;
          ++models;
        }
      }
    }
  }
  EXPECT_EQ(models, 640u);
}

TEST(ExportBakedShape, EveryTrackedOpNestedInLoopAndIf) {
  // The same models as subgraph bodies (the main graph's inputs become outer-scope values).
  for (size_t variant = 0; variant < 8; ++variant) {
    onnx::ModelProto m;
    ASSERT_TRUE(m.ParseFromString(sweep_model(kFree, false, 13, variant, variant)));
    EXPECT_THAT(findings(kRule, nest_in_loop(m)), IsEmpty()) << variant;
    EXPECT_THAT(findings(kRule, nest_in_if(m)), IsEmpty()) << variant;
    ASSERT_TRUE(m.ParseFromString(sweep_model(kFixed, true, 13, variant, variant)));
    EXPECT_THAT(findings(kRule, nest_in_loop(m)), IsEmpty()) << variant;
    EXPECT_THAT(findings(kRule, nest_in_if(m)), IsEmpty()) << variant;
  }
}

// ---- Bounded work: products of many dims, extreme sizes --------------------------------------

// s = Shape(x); s = s * s, `k` times; Reshape(x, s). The Reshape feeds no output, so that only
// the rule follows N^(2^k) (rendering output dims is the analysis's business, not tested here).
std::string mul_self_chain(int k) {
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N")}).output("y", kFloat, {}, false);
  g.node("Identity", {"x"}, {"y"}, "out");
  g.node("Shape", {"x"}, {"s"});
  std::string prev = "s";
  for (int i = 0; i < k; ++i) {
    const std::string index = std::to_string(i);  // (not "s" + to_string: GCC 12 -Wrestrict)
    const std::string next = std::string("s").append(index);
    g.node("Mul", {prev, prev}, {next}, std::string("Mul_").append(index));
    prev = next;
  }
  g.node("Reshape", {"x", prev}, {"r"}, "reshape");
  return m.bytes();
}

TEST(ExportBakedShape, ProductOfManyFreeDimsIsOpaqueNotExponential) {
  // N^(2^k) had 2^k factors (k = 27: 2.2 GB); past the cap it is opaque. Reshape(x, [N^2])
  // pins nothing either way (it is x's own size only when N = 1, an invalid model otherwise).
  for (int k : {1, 4, 5, 40, 2000}) EXPECT_THAT(findings(kRule, mul_self_chain(k)), IsEmpty()) << k;
}

TEST(ExportBakedShape, FixedProductsThatOverflowAreUnknown) {
  // 2^40 * 2^40 overflows int64: the product is unknown, never a wrapped size.
  ModelBuilder m(14);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("N"), 16}).output("y", kFloat, {}, false);
  g.initializer(make_tensor_i64("big", {1}, {int64_t{1} << 40}));
  g.initializer(make_tensor_i64("minus1", {1}, {-1}));
  g.node("Mul", {"big", "big"}, {"sq"});  // wraps to 0 without the check
  attr_int(g.node("Concat", {"sq", "minus1"}, {"shape"}), "axis", 0);
  g.node("Reshape", {"x", "shape"}, {"y"}, "reshape");
  EXPECT_THAT(findings(kRule, m.bytes()), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
