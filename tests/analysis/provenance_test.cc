// Unit tests of the shape/value provenance analysis: classes, dim names, origins, reason
// chains, per-dimension facts, control flow and model-local functions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>

#include <chrono>

#include "analysis/analysed.h"
#include "rules/shape_flow_models.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Analysed : AnalysedModel {
  std::vector<std::string> shape_dims(const std::string& name,
                                      const std::string& path = "main") const {
    std::vector<std::string> out;
    for (auto d : p->shape_dims(v(name, path))) out.emplace_back(d);
    return out;
  }
  std::vector<std::string> value_dims(const std::string& name,
                                      const std::string& path = "main") const {
    std::vector<std::string> out;
    for (auto d : p->value_dims(v(name, path))) out.emplace_back(d);
    return out;
  }
  // "2,batch,?" from the per-dimension view ("rank?" when unknown).
  std::string dims(const std::string& name, const std::string& path = "main") const {
    auto ds = p->dims(v(name, path));
    if (!ds) return "rank?";
    std::string out;
    for (const DimFact& d : *ds) {
      if (!out.empty()) out += ",";
      if (d.kind == DimFact::Kind::Fixed) {
        out += std::to_string(d.value);
      } else if (d.kind == DimFact::Kind::Symbolic) {
        for (size_t i = 0; i < d.names.size(); ++i) out += (i ? "+" : "") + std::string(d.names[i]);
      } else {
        out += "?";
      }
    }
    return out;
  }
};

Analysed analyse(const std::string& bytes) { return analyse_as<Analysed>(bytes); }

// x[batch, 16] -> Shape -> Gather(0) -> Unsqueeze -> Concat(-1... ) -> Reshape: the pattern
// torch emits for x.view(x.size(0), 4, 4) with a dynamic batch.
ModelBuilder dynamic_reshape(DimSpec batch = std::string("batch")) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {batch, 16}).output("y", kFloat, {batch, 4, 4});
  g.node("Shape", {"x"}, {"s"}, "Shape_0");
  g.constant_i64("zero", {0}, {});
  g.node("Gather", {"s", "zero"}, {"b"}, "Gather_2");
  g.constant_i64("ax", {0});
  g.node("Unsqueeze", {"b", "ax"}, {"b1"}, "Unsqueeze_4");
  g.constant_i64("rest", {4, 4});
  attr_int(g.node("Concat", {"b1", "rest"}, {"target"}, "Concat_6"), "axis", 0);
  g.node("Relu", {"x"}, {"h"}, "Relu_7");
  g.node("Reshape", {"h", "target"}, {"y"}, "Reshape_8");
  return m;
}

TEST(Provenance, StaticChainIsStaticWithKnownDims) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 16}).output("y", kFloat, {2, 4});
  m.graph().initializer(make_tensor_f32("w", {16, 4}, std::vector<float>(64, 0.f)));
  m.graph().node("Relu", {"x"}, {"r"});
  m.graph().node("MatMul", {"r", "w"}, {"y"});
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("r"), ShapeClass::Static);
  EXPECT_EQ(a.shape("y"), ShapeClass::Static);
  EXPECT_EQ(a.dims("y"), "2,4");
  EXPECT_EQ(a.value("x"), ValueClass::Data);
  EXPECT_EQ(a.value("w"), ValueClass::Constant);
  EXPECT_EQ(a.value("y"), ValueClass::Data);
  EXPECT_THAT(a.p->data_dependent_origins(), IsEmpty());
}

TEST(Provenance, ShapeGatherConcatReshapeIsInputDimDependentNotData) {
  Analysed a = analyse(dynamic_reshape().bytes());
  EXPECT_EQ(a.value("s"), ValueClass::ShapeDerived);
  EXPECT_THAT(a.value_dims("s"), ElementsAre("batch"));
  EXPECT_EQ(a.value("target"), ValueClass::ShapeDerived);
  EXPECT_THAT(a.value_dims("target"), ElementsAre("batch"));
  EXPECT_TRUE(a.p->from_shape(a.v("target")));
  EXPECT_EQ(a.shape("y"), ShapeClass::InputDim);
  EXPECT_THAT(a.shape_dims("y"), ElementsAre("batch"));
  EXPECT_EQ(a.dims("y"), "batch,4,4");
  EXPECT_FALSE(a.p->is_shape_origin(a.node("Reshape_8"), ShapeClass::DataDependent));
  // The chain names every step back to the input and its dims.
  EXPECT_EQ(a.p->explain_value(a.v("target")),
            "Concat_6 \u2190 Unsqueeze_4 \u2190 Gather_2 \u2190 Shape_0(x) \u2190 input 'x' "
            "[batch, 16]");
}

TEST(Provenance, FixedInputMakesTheSameChainConstant) {
  Analysed a = analyse(dynamic_reshape(int64_t{3}).bytes());
  EXPECT_EQ(a.value("target"), ValueClass::Constant);
  EXPECT_EQ(a.p->known_ints(a.v("target")), (std::vector<int64_t>{3, 4, 4}));
  EXPECT_EQ(a.shape("y"), ShapeClass::Static);
  EXPECT_EQ(a.dims("y"), "3,4,4");
}

TEST(Provenance, GatherOfAStaticDimOfADynamicInputIsConstant) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {std::string("seq"), std::string("batch"), 16});
  m.graph().output("d", kInt64, {});
  m.graph().node("Shape", {"x"}, {"s"});
  m.graph().constant_i64("two", {2}, {});
  m.graph().node("Gather", {"s", "two"}, {"d"});
  m.graph().constant_i64("zero", {0}, {});
  m.graph().node("Gather", {"s", "zero"}, {"first"});
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.value("d"), ValueClass::Constant);
  EXPECT_EQ(a.p->known_ints(a.v("d")), std::vector<int64_t>{16});
  EXPECT_TRUE(a.p->from_shape(a.v("d")));
  EXPECT_EQ(a.value("first"), ValueClass::ShapeDerived);
  EXPECT_THAT(a.value_dims("first"), ElementsAre("seq"));
}

TEST(Provenance, UnnamedAndMissingInputDimsGetPositionalNames) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, int64_t{-1}}).input("z", kFloat, {}, false);
  m.graph().output("y", kFloat, {}, false);
  m.graph().node("Add", {"x", "z"}, {"y"});
  Analysed a = analyse(m.bytes());
  EXPECT_THAT(a.shape_dims("x"), ElementsAre("x.shape[1]"));
  EXPECT_THAT(a.shape_dims("z"), ElementsAre("z.shape"));
  EXPECT_EQ(a.shape("y"), ShapeClass::InputDim);
  EXPECT_THAT(a.shape_dims("y"), ElementsAre("x.shape[1]", "z.shape"));
}

TEST(Provenance, NonZeroIsTheOriginAndDownstreamInheritsIt) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {4, 5}).output("y", kFloat, {std::string("n")});
  m.graph().initializer(make_tensor_f32("zero", {}, {0.f}));
  m.graph().node("Greater", {"x", "zero"}, {"mask"}, "Greater_1");
  m.graph().node("NonZero", {"mask"}, {"nz"}, "NonZero_2");
  attr_ints(m.graph().node("Transpose", {"nz"}, {"idx"}, "Transpose_3"), "perm", {1, 0});
  m.graph().node("GatherND", {"x", "idx"}, {"y"}, "GatherND_4");
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("mask"), ShapeClass::Static);
  EXPECT_EQ(a.value("mask"), ValueClass::Data);
  EXPECT_EQ(a.shape("nz"), ShapeClass::DataDependent);
  EXPECT_EQ(a.shape("y"), ShapeClass::DataDependent);
  EXPECT_TRUE(a.p->is_shape_origin(a.node("NonZero_2"), ShapeClass::DataDependent));
  EXPECT_FALSE(a.p->is_shape_origin(a.node("Transpose_3"), ShapeClass::DataDependent));
  EXPECT_FALSE(a.p->is_shape_origin(a.node("GatherND_4"), ShapeClass::DataDependent));
  EXPECT_EQ(a.p->shape_origin(a.v("y")), &a.node("NonZero_2"));
  ASSERT_EQ(a.p->data_dependent_origins().size(), 1u);
  EXPECT_EQ(a.p->data_dependent_nodes(), 3u);
  // The chain goes from the output back through the origin to the mask's producer.
  EXPECT_EQ(a.p->explain_shape(a.v("y")),
            "GatherND_4 \u2190 Transpose_3 \u2190 NonZero_2 \u2190 Greater_1 \u2190 input 'x'");
  auto steps = a.p->shape_reason(a.v("y"));
  ASSERT_EQ(steps.size(), 5u);
  EXPECT_FALSE(steps[2].via_value);  // NonZero's output shape...
  EXPECT_TRUE(steps[3].via_value);   // ...comes from the mask's values
  EXPECT_EQ(steps[3].name, "mask");
}

TEST(Provenance, ConstantMaskMakesNonZeroStatic) {
  ModelBuilder m(13);
  m.graph().output("nz", kInt64, {}, false);
  m.graph().initializer(make_tensor_i64("mask", {3}, {1, 0, 1}));
  m.graph().node("NonZero", {"mask"}, {"nz"});
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("nz"), ShapeClass::Static);
}

TEST(Provenance, ReshapeByAGraphInputValueIsADataOrigin) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {4, 6}).input("n", kInt64, {}).output("y", kFloat, {}, false);
  m.graph().constant_i64("ax", {0});
  m.graph().node("Unsqueeze", {"n", "ax"}, {"n1"}, "Unsqueeze_1");
  m.graph().constant_i64("rest", {-1});
  attr_int(m.graph().node("Concat", {"n1", "rest"}, {"shape"}, "Concat_3"), "axis", 0);
  m.graph().node("Reshape", {"x", "shape"}, {"y"}, "Reshape_4");
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.value("shape"), ValueClass::Data);
  EXPECT_EQ(a.shape("y"), ShapeClass::DataDependent);
  EXPECT_TRUE(a.p->is_shape_origin(a.node("Reshape_4"), ShapeClass::DataDependent));
  EXPECT_EQ(a.p->explain_value(a.v("shape")), "Concat_3 \u2190 Unsqueeze_1 \u2190 input 'n'");
}

TEST(Provenance, UnknownCustomOpIsUnknownNotData) {
  ModelBuilder m(13);
  m.opset("custom.domain", 1);
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {}, false);
  m.graph().node("MyShape", {"x"}, {"s"}, "MyShape_0", "custom.domain");
  m.graph().node("Reshape", {"x", "s"}, {"y"}, "Reshape_1");
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("s"), ShapeClass::Unknown);
  EXPECT_EQ(a.value("s"), ValueClass::Data);  // its input's values flow through
  EXPECT_EQ(a.shape("y"), ShapeClass::DataDependent);
  // A custom op fed only constants: values unknown, and so is the Reshape built on them.
  ModelBuilder c(13);
  c.opset("custom.domain", 1);
  c.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {}, false);
  c.graph().constant_i64("k", {6});
  c.graph().node("MyOp", {"k"}, {"s"}, "MyOp_1", "custom.domain");
  c.graph().node("Reshape", {"x", "s"}, {"y"}, "Reshape_2");
  Analysed b = analyse(c.bytes());
  EXPECT_EQ(b.value("s"), ValueClass::Unknown);
  EXPECT_EQ(b.shape("y"), ShapeClass::Unknown);
  EXPECT_THAT(b.p->data_dependent_origins(), IsEmpty());
}

// Loop(M, cond) { i, c, acc -> c_out, acc_out, slice }: `trip` and `body_cond` pick the trip
// count and the body's condition.
ModelBuilder loop_model(const std::string& trip_kind, bool data_condition) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {2, 3});
  if (trip_kind == "input") {
    g.input("n", kInt64, {});
  } else if (trip_kind == "const") {
    g.initializer(make_tensor_i64("n", {}, {5}));
  } else {  // "dim": x.shape[0]
    g.node("Shape", {"x"}, {"xs"}, "Shape_0");
    g.constant_i64("zero", {0}, {});
    g.node("Gather", {"xs", "zero"}, {"n"}, "Gather_1");
  }
  g.initializer(make_tensor_bool("true", true));
  g.output("acc_final", kFloat, {}, false).output("stacked", kFloat, {}, false);

  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("i", kInt64, {}).input("c", kBool, {}).input("acc", kFloat, {2, 3});
  b.output("c_out", kBool, {}).output("acc_out", kFloat, {2, 3}).output("slice", kFloat, {3});
  b.node("Add", {"acc", "x"}, {"acc_out"}, "Add_b0");
  if (data_condition) {
    b.node("ReduceSum", {"acc_out"}, {"total"}, "ReduceSum_b1");
    b.initializer(make_tensor_f32("limit", {}, {10.f}));
    b.node("Less", {"total", "limit"}, {"c_out"}, "Less_b2");
  } else {
    b.node("Identity", {"c"}, {"c_out"}, "Identity_b1");
  }
  b.constant_i64("row", {0}, {});
  b.node("Gather", {"acc_out", "row"}, {"slice"}, "Gather_b3");
  auto& loop = g.node("Loop", {"n", "true", "x"}, {"acc_final", "stacked"}, "Loop_9");
  attr_graph(loop, "body", body);
  return m;
}

TEST(Provenance, LoopWithConstantTripCountHasStaticOutputs) {
  Analysed a = analyse(loop_model("const", false).bytes());
  EXPECT_EQ(a.value("i", "main/Loop_9:body"), ValueClass::Constant);
  EXPECT_EQ(a.value("c_out", "main/Loop_9:body"), ValueClass::Constant);
  EXPECT_EQ(a.shape("acc_final"), ShapeClass::Static);
  EXPECT_EQ(a.dims("acc_final"), "2,3");
  EXPECT_EQ(a.shape("stacked"), ShapeClass::Static);
  EXPECT_EQ(a.dims("stacked"), "5,3");
  EXPECT_THAT(a.p->data_dependent_origins(), IsEmpty());
}

TEST(Provenance, LoopWithDataTripCountStacksDataDependentScanOutputs) {
  Analysed a = analyse(loop_model("input", false).bytes());
  EXPECT_EQ(a.value("i", "main/Loop_9:body"), ValueClass::Data);
  EXPECT_EQ(a.shape("acc_final"), ShapeClass::Static);  // carried: same shape every iteration
  EXPECT_EQ(a.value("acc_final"), ValueClass::Data);
  EXPECT_EQ(a.shape("stacked"), ShapeClass::DataDependent);
  EXPECT_TRUE(a.p->is_shape_origin(a.node("Loop_9"), ShapeClass::DataDependent));
  EXPECT_EQ(a.p->explain_shape(a.v("stacked")), "Loop_9 \u2190 input 'n'");
}

TEST(Provenance, LoopWithDimTripCountDependsOnThatDim) {
  ModelBuilder m = loop_model("dim", false);
  // Make x's first dim symbolic.
  auto* dim = m.proto()
                  .mutable_graph()
                  ->mutable_input(0)
                  ->mutable_type()
                  ->mutable_tensor_type()
                  ->mutable_shape()
                  ->mutable_dim(0);
  dim->set_dim_param("steps");
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.value("n"), ValueClass::ShapeDerived);
  EXPECT_EQ(a.value("i", "main/Loop_9:body"), ValueClass::ShapeDerived);
  EXPECT_EQ(a.shape("stacked"), ShapeClass::InputDim);
  EXPECT_THAT(a.shape_dims("stacked"), ElementsAre("steps"));
}

TEST(Provenance, LoopBodyComputingItsConditionFromData) {
  Analysed a = analyse(loop_model("const", true).bytes());
  EXPECT_EQ(a.value("c_out", "main/Loop_9:body"), ValueClass::Data);
  // The body's condition feeds back into the condition input of the next iteration.
  EXPECT_EQ(a.value("c", "main/Loop_9:body"), ValueClass::Data);
  EXPECT_EQ(a.shape("stacked"), ShapeClass::DataDependent);
  EXPECT_EQ(a.p->explain_value(a.v("c_out", "main/Loop_9:body")),
            "Less_b2 \u2190 ReduceSum_b1 \u2190 Add_b0 \u2190 'acc' (carried by Loop_9) "
            "\u2190 input 'x'");
}

TEST(Provenance, ChainsEndAtAnInputThatDeclaresTheDims) {
  // y[b, s] = ReduceSum(mask[b, t], axis 1, keepdims) + x[b, s]: the mask comes first, but
  // only x declares both b and s, so the chain for y's dims ends there.
  ModelBuilder m(13);
  m.graph().input("mask", kFloat, {std::string("b"), std::string("t")});
  m.graph().input("x", kFloat, {std::string("b"), std::string("s")});
  m.graph().output("y", kFloat, {std::string("b"), std::string("s")});
  m.graph().constant_i64("axes", {1});
  m.graph().node("ReduceSum", {"mask", "axes"}, {"rows"}, "ReduceSum_0");
  m.graph().node("Relu", {"x"}, {"rx"}, "Relu_1");
  m.graph().node("Add", {"rows", "rx"}, {"y"}, "Add_2");
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.p->shape_dims(a.v("y")), (std::vector<std::string_view>{"b", "s"}));
  EXPECT_EQ(a.p->explain_shape(a.v("y")), "Add_2 \u2190 Relu_1 \u2190 input 'x' [b, s]");
  // Near miss: rows alone depends on b (and t's axis is reduced away); its chain is the mask's.
  EXPECT_EQ(a.p->explain_shape(a.v("rows")), "ReduceSum_0 \u2190 input 'mask' [b, t]");
}

TEST(Provenance, OuterScopeValuesFlowIntoSubgraphs) {
  ModelBuilder m = dynamic_reshape();
  std::string bytes = nest_in_loop(m.proto());
  Analysed a = analyse(bytes);
  // x is a main-graph input read from the body.
  EXPECT_EQ(a.value("target", kNestedPath), ValueClass::ShapeDerived);
  EXPECT_THAT(a.value_dims("target", kNestedPath), ElementsAre("batch"));
  EXPECT_EQ(a.shape("y", kNestedPath), ShapeClass::InputDim);
  // The scan output of the (constant, 2 iterations) nest Loop: [2, batch, 4, 4].
  EXPECT_EQ(a.dims("y_scan"), "2,batch,4,4");
}

TEST(Provenance, IfWithDataConditionPicksValuesButKeepsEqualShapes) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {2, 3}).output("y", kFloat, {2, 3}).output("z", kFloat, {}, false);
  g.node("ReduceSum", {"x"}, {"s"}, "ReduceSum_0");
  g.initializer(make_tensor_f32("zero", {}, {0.f}));
  g.node("Greater", {"s", "zero"}, {"cond"}, "Greater_1");
  onnx::GraphProto then_g, else_g;
  GraphBuilder t(&then_g), e(&else_g);
  t.output("ty", kFloat, {2, 3}).output("tz", kFloat, {}, false);
  t.node("Neg", {"x"}, {"ty"});
  t.initializer(make_tensor_f32("two", {2}, {1.f, 2.f}));
  t.node("Identity", {"two"}, {"tz"});
  e.output("ey", kFloat, {2, 3}).output("ez", kFloat, {}, false);
  e.node("Abs", {"x"}, {"ey"});
  e.initializer(make_tensor_f32("three", {3}, {1.f, 2.f, 3.f}));
  e.node("Identity", {"three"}, {"ez"});
  auto& n = g.node("If", {"cond"}, {"y", "z"}, "If_2");
  attr_graph(n, "then_branch", then_g);
  attr_graph(n, "else_branch", else_g);
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.value("cond"), ValueClass::Data);
  EXPECT_EQ(a.shape("y"), ShapeClass::Static);
  EXPECT_EQ(a.value("y"), ValueClass::Data);
  // Branches of different lengths: the condition picks the shape.
  EXPECT_EQ(a.shape("z"), ShapeClass::DataDependent);
  EXPECT_TRUE(a.p->is_shape_origin(a.node("If_2"), ShapeClass::DataDependent));
}

TEST(Provenance, ScanOutputsFollowTheScannedAxis) {
  for (bool dynamic : {true, false}) {
    ModelBuilder m(13);
    auto& g = m.graph();
    DimSpec steps = dynamic ? DimSpec(std::string("steps")) : DimSpec(int64_t{7});
    g.input("seq", kFloat, {steps, 4});
    g.initializer(make_tensor_f32("init", {4}, {0.f, 0.f, 0.f, 0.f}));
    g.output("last", kFloat, {4}).output("all", kFloat, {}, false);
    onnx::GraphProto body;
    GraphBuilder b(&body);
    b.input("state", kFloat, {4}).input("row", kFloat, {4});
    b.output("state_out", kFloat, {4}).output("row_out", kFloat, {4});
    b.node("Add", {"state", "row"}, {"state_out"});
    b.node("Identity", {"state_out"}, {"row_out"});
    auto& n = g.node("Scan", {"init", "seq"}, {"last", "all"}, "Scan_0");
    attr_int(n, "num_scan_inputs", 1);
    attr_graph(n, "body", body);
    Analysed a = analyse(m.bytes());
    EXPECT_EQ(a.dims("row", "main/Scan_0:body"), "4");
    EXPECT_EQ(a.shape("last"), ShapeClass::Static);
    if (dynamic) {
      EXPECT_EQ(a.shape("all"), ShapeClass::InputDim);
      EXPECT_EQ(a.dims("all"), "steps,4");
    } else {
      EXPECT_EQ(a.shape("all"), ShapeClass::Static);
      EXPECT_EQ(a.dims("all"), "7,4");
    }
  }
}

using shape_flow::function_model;  // local::Mask(v) = v[v > 0], once or twice

TEST(Provenance, FunctionsCarryTheirBodysClassesToTheCall) {
  Analysed a = analyse(function_model(false).bytes());
  EXPECT_EQ(a.shape("y"), ShapeClass::DataDependent);
  // The origin is inside the function body, not the call.
  EXPECT_FALSE(a.p->is_shape_origin(a.node("call_0"), ShapeClass::DataDependent));
  EXPECT_TRUE(
      a.p->is_shape_origin(a.node("NonZero_f2", "fn:local::Mask"), ShapeClass::DataDependent));
  // The chain crosses into the function and back out to the call's argument.
  EXPECT_THAT(a.p->explain_shape(a.v("y")),
              HasSubstr("NonZero_f2 \u2190 Greater_f1 \u2190 'v' (input of function Mask) "
                        "\u2190 input 'x'"));
}

TEST(Provenance, EachCallOfAFunctionGetsItsOwnResult) {
  Analysed a = analyse(function_model(true).bytes());
  EXPECT_EQ(a.shape("y"), ShapeClass::DataDependent);
  EXPECT_EQ(a.shape("yc"), ShapeClass::Static);  // a constant argument folds
  // Inside the body rules see the join over both calls.
  EXPECT_EQ(a.shape("nz", "fn:local::Mask"), ShapeClass::DataDependent);
}

TEST(Provenance, UncalledFunctionIsAnalysedWithUnknownInputs) {
  ModelBuilder m = function_model(false);
  m.proto().mutable_graph()->clear_node();
  m.proto().mutable_graph()->clear_output();
  m.graph().output("x", kFloat, {4});
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("nz", "fn:local::Mask"), ShapeClass::Unknown);
  EXPECT_THAT(a.p->data_dependent_origins(), IsEmpty());
}

TEST(Provenance, RecursiveFunctionFallsBackToTheConservativeDefault) {
  ModelBuilder m(13);
  m.opset("local", 1);
  m.graph().input("x", kFloat, {4}).output("y", kFloat, {}, false);
  m.graph().node("Rec", {"x"}, {"y"}, "call_0", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Rec");
  f->set_domain("local");
  f->add_input("v");
  f->add_output("w");
  onnx::NodeProto* n = f->add_node();
  n->set_op_type("Rec");
  n->set_domain("local");
  n->add_input("v");
  n->add_output("w");
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("y"), ShapeClass::Unknown);
}

TEST(Provenance, CycleDoesNotHangAndStaysUnknown) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2}).output("b", kFloat, {2});
  m.graph().node("Add", {"x", "b"}, {"a"});
  m.graph().node("Relu", {"a"}, {"b"});
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.shape("a"), ShapeClass::Unknown);
}

// Each level's carried value changes class on the first pass, which re-runs the body: without
// the work budget 24 nested loops would take 2^24 passes.
TEST(Provenance, DeeplyNestedLoopsStayWithinTheWorkBudget) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2}).output("out", kFloat, {}, false);
  onnx::GraphProto inner;
  {
    GraphBuilder b(&inner);
    b.input("i", kInt64, {}).input("c", kBool, {}).input("acc", kFloat, {}, false);
    b.output("c", kBool, {}).output("acc_out", kFloat, {}, false);
    b.node("Add", {"acc", "x"}, {"acc_out"});
  }
  for (int level = 0; level < 24; ++level) {
    onnx::GraphProto outer;
    GraphBuilder b(&outer);
    b.input("i", kInt64, {}).input("c", kBool, {}).input("acc", kFloat, {}, false);
    b.output("c", kBool, {}).output("acc_out", kFloat, {}, false);
    b.initializer(make_tensor_i64("n", {}, {2}));
    attr_graph(b.node("Loop", {"n", "c", "acc"}, {"acc_out"}, "L" + std::to_string(level)), "body",
               inner);
    inner = outer;
  }
  m.graph().initializer(make_tensor_i64("n", {}, {2}));
  m.graph().initializer(make_tensor_bool("t", true));
  m.graph().initializer(make_tensor_f32("zero", {2}, {0.f, 0.f}));
  attr_graph(m.graph().node("Loop", {"n", "t", "zero"}, {"out"}, "Top"), "body", inner);
  auto start = std::chrono::steady_clock::now();
  Analysed a = analyse(m.bytes());
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(a.value("out"), ValueClass::Data);
}

TEST(Provenance, DimUsageCountsNodesPerInputDim) {
  Analysed a = analyse(dynamic_reshape().bytes());
  auto usage = a.p->dim_usage();
  ASSERT_EQ(usage.size(), 1u);
  EXPECT_EQ(usage[0].name, "batch");
  EXPECT_EQ(usage[0].nodes, 2u);  // Relu_7 and Reshape_8 (values, not shapes, elsewhere)
  EXPECT_EQ(a.p->node_count(), 9u);
}

TEST(Provenance, PerDimensionFactsForCommonOps) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("img", kFloat, {std::string("N"), 3, 32, 32});
  g.initializer(make_tensor_f32("w", {8, 3, 3, 3}, std::vector<float>(216, 0.f)));
  auto& conv = g.node("Conv", {"img", "w"}, {"c"});
  attr_ints(conv, "pads", {1, 1, 1, 1});
  attr_ints(conv, "strides", {2, 2});
  auto& pool = g.node("MaxPool", {"c"}, {"p"});
  attr_ints(pool, "kernel_shape", {2, 2});
  attr_ints(pool, "strides", {2, 2});
  attr_int(g.node("Flatten", {"p"}, {"f"}), "axis", 1);
  g.node("GlobalAveragePool", {"c"}, {"gap"});
  attr_ints(g.node("Transpose", {"c"}, {"t"}), "perm", {0, 2, 3, 1});
  g.constant_i64("axes", {1});
  g.node("ReduceSum", {"c", "axes"}, {"rs"});
  g.output("f", kFloat, {}, false);
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.dims("c"), "N,8,16,16");
  EXPECT_EQ(a.dims("p"), "N,8,8,8");
  EXPECT_EQ(a.dims("f"), "N,512");
  EXPECT_EQ(a.dims("gap"), "N,8,1,1");
  EXPECT_EQ(a.dims("t"), "N,16,16,8");
  EXPECT_EQ(a.dims("rs"), "N,1,16,16");
  EXPECT_THAT(a.shape_dims("f"), ElementsAre("N"));
}

TEST(Provenance, ReshapeWithMinusOneDerivesFromTheInputDims) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {std::string("b"), 16}).output("y", kFloat, {}, false);
  m.graph().constant_i64("shape", {-1, 4, 4});
  m.graph().node("Reshape", {"x", "shape"}, {"y"});
  Analysed a = analyse(m.bytes());
  EXPECT_EQ(a.dims("y"), "b,4,4");
  EXPECT_EQ(a.shape("y"), ShapeClass::InputDim);
}

TEST(Provenance, SemanticsAndOpsetFollowTheNodesDomainImport) {
  Analysed a = analyse(dynamic_reshape().bytes());
  const OpSemantics& s = a.p->semantics(a.node("Reshape_8"));
  EXPECT_EQ(s.op, "Reshape");
  EXPECT_TRUE(s.reads_value(1));
  EXPECT_FALSE(s.reads_value(0));
  EXPECT_EQ(a.p->opset(a.node("Reshape_8")), 13);
}

}  // namespace
}  // namespace onnxlint::testing
