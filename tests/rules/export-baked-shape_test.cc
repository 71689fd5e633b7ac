#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
    std::string mm = "mm" + std::to_string(i), h = "h" + std::to_string(i);
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

}  // namespace
}  // namespace onnxlint::testing
