// ElementTypes: element types inferred as ONNX does (schema type constraints, per-op rules,
// control flow, local functions); declarations add only what inference cannot know and never
// override it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/element_types.h>
#include <onnxlint/loader.h>

#include "support/loaded_model.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

struct Typed {
  std::unique_ptr<Model> model;
  std::unique_ptr<AnalysisCache> cache;
  const ElementTypes* types = nullptr;

  explicit Typed(const std::string& bytes) : model(load(bytes)) {
    cache = std::make_unique<AnalysisCache>(*model);
    types = &cache->get<ElementTypes>();
  }
  const Graph& graph(const std::string& path) const {
    for (const Graph* g : model->all_graphs()) {
      if (g->path() == path) return *g;
    }
    throw std::runtime_error("no graph " + path);
  }
  ValueId id(const std::string& name, const std::string& path) const {
    return types->values().find(graph(path), name);
  }
  /// "tensor(int64)", "seq(tensor(float))", "?" (unknown).
  std::string type(const std::string& name, const std::string& path = "main") const {
    return value_type_text(types->type(id(name, path)));
  }
  bool inferred(const std::string& name, const std::string& path = "main") const {
    return types->inferred(id(name, path));
  }
};

TEST(ElementTypes, SchemaTypeParametersFixedTypesAndAttributes) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat16, {2, 3}).output("y");
  m.graph().node("Relu", {"x"}, {"relu"});          // T bound by x
  m.graph().node("Shape", {"x"}, {"shape"});        // T1 = int64 only
  m.graph().node("Greater", {"x", "x"}, {"mask"});  // T1 = bool only
  m.graph().node("NonZero", {"mask"}, {"nz"});      // tensor(int64)
  attr_int(m.graph().node("Cast", {"x"}, {"cast"}), "to", kInt32);
  m.graph().node("CastLike", {"x", "cast"}, {"like"});      // T2 bound by target_type
  m.graph().node("ConstantOfShape", {"shape"}, {"zeros"});  // float without `value`
  attr_tensor(m.graph().node("ConstantOfShape", {"shape"}, {"ones"}), "value",
              make_tensor_i64("v", {1}, {1}));
  attr_int(m.graph().node("Constant", {}, {"k"}), "value_int", 3);
  m.graph().node("Where", {"mask", "x", "x"}, {"where"});
  m.graph().node("ReduceProd", {"shape"}, {"prod"});
  auto& rn = m.graph().node("RandomNormalLike", {"x"}, {"rn"});  // dtype absent: input's
  (void)rn;
  attr_int(m.graph().node("RandomUniform", {}, {"ru"}), "dtype", kDouble);
  m.graph().node("EyeLike", {"cast"}, {"eye"});
  m.graph().node("Identity", {"relu"}, {"y"});
  Typed t(m.bytes());
  EXPECT_EQ(t.type("relu"), "tensor(float16)");
  EXPECT_EQ(t.type("shape"), "tensor(int64)");
  EXPECT_EQ(t.type("mask"), "tensor(bool)");
  EXPECT_EQ(t.type("nz"), "tensor(int64)");
  EXPECT_EQ(t.type("cast"), "tensor(int32)");
  EXPECT_EQ(t.type("like"), "tensor(int32)");
  EXPECT_EQ(t.type("zeros"), "tensor(float)");
  EXPECT_EQ(t.type("ones"), "tensor(int64)");
  EXPECT_EQ(t.type("k"), "tensor(int64)");
  EXPECT_EQ(t.type("where"), "tensor(float16)");
  EXPECT_EQ(t.type("prod"), "tensor(int64)");
  EXPECT_EQ(t.type("rn"), "tensor(float16)");
  EXPECT_EQ(t.type("ru"), "tensor(double)");
  EXPECT_EQ(t.type("eye"), "tensor(int32)");
  EXPECT_TRUE(t.inferred("relu"));
}

// The motivating case: verdicts must not change when value_info is added, so a declaration
// never overrides inference, and a contradicting one is kept aside as stale.
TEST(ElementTypes, DeclarationsOnlyAddWhatInferenceCannotKnow) {
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {4}).output("y", kFloat);
  m.opset("custom.domain", 1);
  m.graph().node("Greater", {"x", "x"}, {"mask"});
  m.graph().node("NonZero", {"mask"}, {"nz"});
  m.graph().node("Mystery", {"x"}, {"c"}, "mystery", "custom.domain");
  m.graph().node("Relu", {"c"}, {"r"});
  m.graph().node("Mystery", {"x"}, {"u"}, "mystery2", "custom.domain");
  m.graph().node("Identity", {"x"}, {"y"});
  m.graph().value_info("mask", kFloat, {4});  // stale: Greater gives bool
  m.graph().value_info("c", kInt8, {4});      // the only fact about a custom op's output
  Typed t(m.bytes());
  EXPECT_EQ(t.type("mask"), "tensor(bool)");
  EXPECT_TRUE(t.inferred("mask"));
  EXPECT_EQ(t.type("c"), "tensor(int8)");
  EXPECT_FALSE(t.inferred("c"));
  EXPECT_EQ(t.type("r"), "tensor(int8)");  // follows the declaration downstream
  EXPECT_TRUE(t.inferred("r"));
  EXPECT_EQ(t.type("u"), "?");  // unknown stays unknown
  ASSERT_EQ(t.types->stale_declarations().size(), 1u);
  const StaleDeclaration& s = t.types->stale_declarations()[0];
  EXPECT_EQ(t.types->values().name_of(s.value), "mask");
  EXPECT_EQ(value_type_text(s.declared_type), "tensor(float)");
  EXPECT_EQ(value_type_text(s.inferred_type), "tensor(bool)");
  EXPECT_FALSE(s.graph_output);
}

TEST(ElementTypes, QuantizeAndDequantize) {
  ModelBuilder m(21);
  m.graph().input("x", kFloat, {4}).output("y");
  m.graph().initializer(make_tensor_f32("s", {}, {0.5f}));
  onnx::TensorProto zp = make_tensor_raw("zp", kInt8, {}, 1);
  m.graph().initializer(zp);
  m.graph().node("QuantizeLinear", {"x", "s"}, {"q_default"});   // uint8
  m.graph().node("QuantizeLinear", {"x", "s", "zp"}, {"q_zp"});  // zero point's type
  attr_int(m.graph().node("QuantizeLinear", {"x", "s"}, {"q_dt"}), "output_dtype", kInt8);
  m.graph().node("DequantizeLinear", {"q_zp", "s", "zp"}, {"dq"});  // the scale's type
  m.graph().node("DynamicQuantizeLinear", {"x"}, {"dy", "dys", "dyz"});
  m.graph().node("Identity", {"dq"}, {"y"});
  Typed t(m.bytes());
  EXPECT_EQ(t.type("q_default"), "tensor(uint8)");
  EXPECT_EQ(t.type("q_zp"), "tensor(int8)");
  EXPECT_EQ(t.type("q_dt"), "tensor(int8)");
  EXPECT_EQ(t.type("dq"), "tensor(float)");
  EXPECT_EQ(t.type("dy"), "tensor(uint8)");
  EXPECT_EQ(t.type("dys"), "tensor(float)");
  EXPECT_EQ(t.type("dyz"), "tensor(uint8)");
}

TEST(ElementTypes, SequencesAndOptionals) {
  ModelBuilder m(18);
  m.graph().input("x", kFloat16, {4}).output("y", kFloat16);
  m.graph().node("SequenceConstruct", {"x", "x"}, {"seq"});
  m.graph().node("SequenceAt", {"seq", "pos"}, {"at"});
  m.graph().constant_i64("pos", {0}, {});
  m.graph().node("SequenceLength", {"seq"}, {"len"});
  m.graph().node("SequenceEmpty", {}, {"empty"});
  m.graph().node("SequenceInsert", {"empty", "x"}, {"ins"});
  m.graph().node("ConcatFromSequence", {"seq"}, {"cat"});
  m.graph().node("Optional", {"x"}, {"opt"});
  m.graph().node("OptionalGetElement", {"opt"}, {"got"});
  m.graph().node("OptionalHasElement", {"opt"}, {"has"});
  m.graph().node("Identity", {"at"}, {"y"});
  Typed t(m.bytes());
  EXPECT_EQ(t.type("seq"), "seq(tensor(float16))");
  EXPECT_EQ(t.type("at"), "tensor(float16)");
  EXPECT_EQ(t.type("len"), "tensor(int64)");
  EXPECT_EQ(t.type("empty"), "seq(tensor(float))");
  EXPECT_EQ(t.type("ins"), "seq(tensor(float))");  // S is the input sequence's
  EXPECT_EQ(t.type("cat"), "tensor(float16)");
  EXPECT_EQ(t.type("opt"), "optional(tensor(float16))");
  EXPECT_EQ(t.type("got"), "tensor(float16)");
  EXPECT_EQ(t.type("has"), "tensor(bool)");
}

// Loop: the body's formal inputs come from the node (iteration count int64, condition bool,
// carried values), outer-scope values keep their types, outputs come from the body.
TEST(ElementTypes, ControlFlowBodiesAndOutputs) {
  ModelBuilder body_m(17);
  GraphBuilder body = body_m.graph();
  body.input("i", kInt64, {}, false).input("c", kBool, {}, false).input("acc", 0, {}, false);
  body.output("c_out", kBool, {}, false)
      .output("acc_out", 0, {}, false)
      .output("scan", 0, {}, false);
  body.node("Identity", {"c"}, {"c_out"});
  body.node("Add", {"acc", "outer"}, {"acc_out"});
  attr_int(body.node("Cast", {"i"}, {"scan"}), "to", kDouble);

  ModelBuilder m(17);
  m.graph().input("x", kInt32, {1}).output("final", 0, {}, false).output("scans", 0, {}, false);
  m.graph().node("Identity", {"x"}, {"outer"});
  m.graph().initializer(make_tensor_i64("n", {}, {3}));
  m.graph().initializer(make_tensor_bool("go", true));
  auto& loop = m.graph().node("Loop", {"n", "go", "x"}, {"final", "scans"}, "loop");
  attr_graph(loop, "body", body.proto());
  Typed t(m.bytes());
  const std::string b = "main/loop:body";
  EXPECT_EQ(t.type("i", b), "tensor(int64)");
  EXPECT_EQ(t.type("acc", b), "tensor(int32)");
  EXPECT_EQ(t.type("acc_out", b), "tensor(int32)");
  EXPECT_EQ(t.type("scan", b), "tensor(double)");
  EXPECT_EQ(t.type("final"), "tensor(int32)");
  EXPECT_EQ(t.type("scans"), "tensor(double)");
}

TEST(ElementTypes, IfJoinsItsBranches) {
  ModelBuilder then_m(17), else_m(17);
  then_m.graph().output("r", 0, {}, false);
  attr_int(then_m.graph().node("Cast", {"x"}, {"r"}), "to", kInt64);
  else_m.graph().output("r2", 0, {}, false);
  else_m.graph().node("Shape", {"x"}, {"r2"});
  ModelBuilder m(17);
  m.graph().input("x").input("cond", kBool, {}).output("out", 0, {}, false);
  auto& n = m.graph().node("If", {"cond"}, {"out"}, "if");
  attr_graph(n, "then_branch", then_m.graph().proto());
  attr_graph(n, "else_branch", else_m.graph().proto());
  Typed t(m.bytes());
  EXPECT_EQ(t.type("out"), "tensor(int64)");
}

// A call of a model-local function is inferred through the body with the call's types and
// attributes; the body's own values keep what holds for every call.
TEST(ElementTypes, LocalFunctionsInferredThroughTheBody) {
  ModelBuilder m(17);
  m.opset("local", 1);
  m.graph().input("x", kFloat16, {2}).output("y", 0, {}, false).output("z", 0, {}, false);
  m.graph().node("Double", {"x"}, {"y"}, "call", "local");
  attr_int(m.graph().node("CastTo", {"x"}, {"z"}, "call2", "local"), "to", kInt8);
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Double");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(17);
  auto* add = f->add_node();
  add->set_op_type("Add");
  add->add_input("a");
  add->add_input("a");
  add->add_output("b");
  onnx::FunctionProto* g = m.proto().add_functions();
  g->set_name("CastTo");
  g->set_domain("local");
  g->add_input("a");
  g->add_output("b");
  g->add_attribute("to");
  *g->add_opset_import() = *imp;
  auto* cast = g->add_node();
  cast->set_op_type("Cast");
  cast->add_input("a");
  cast->add_output("b");
  auto* to = cast->add_attribute();
  to->set_name("to");
  to->set_ref_attr_name("to");
  to->set_type(onnx::AttributeProto::INT);
  Typed t(m.bytes());
  EXPECT_EQ(t.type("y"), "tensor(float16)");
  EXPECT_EQ(t.type("z"), "tensor(int8)");
  EXPECT_EQ(t.type("b", "fn:local::Double"), "?");  // per call, not for every call
}

TEST(ElementTypes, TypeStrings) {
  EXPECT_EQ(value_type_text(parse_value_type("tensor(float)")), "tensor(float)");
  EXPECT_EQ(value_type_text(parse_value_type("seq(tensor(int64))")), "seq(tensor(int64))");
  EXPECT_EQ(value_type_text(parse_value_type("optional(seq(tensor(bool)))")),
            "optional(seq(tensor(bool)))");
  EXPECT_EQ(parse_value_type("map(string, float)").kind, ValueType::Kind::Other);
  EXPECT_FALSE(parse_value_type("tensor(nosuch)").known());
  EXPECT_FALSE(parse_value_type("").known());
  EXPECT_FALSE(ValueType::tensor(0).known());
  EXPECT_FALSE(ValueType::tensor(1000).known());
}

}  // namespace
}  // namespace onnxlint::testing

namespace onnxlint::testing {
namespace {

// A function that calls itself: inference stops at the nesting limit (the call's output stays
// unknown), with no hang and no crash.
TEST(ElementTypes, RecursiveLocalFunctionStopsAtTheNestingLimit) {
  ModelBuilder m(17);
  m.opset("local", 1);
  m.graph().input("x", kFloat, {2}).output("y", 0, {}, false);
  m.graph().node("Self", {"x"}, {"y"}, "call", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Self");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(17);
  auto* imp2 = f->add_opset_import();
  imp2->set_domain("local");
  imp2->set_version(1);
  auto* inner = f->add_node();
  inner->set_op_type("Self");
  inner->set_domain("local");
  inner->add_input("a");
  inner->add_output("b");
  Typed t(m.bytes());
  EXPECT_FALSE(t.inferred("y"));
  EXPECT_EQ(t.type("y"), "tensor(?)");  // only the output's declaration: a tensor
}

// A Loop body's formal input declared with another type than the node passes in is stale.
TEST(ElementTypes, StaleSubgraphFormalInput) {
  ModelBuilder body_m(17);
  GraphBuilder body = body_m.graph();
  body.input("i", kInt64, {}, false).input("c", kBool, {}, false).input("acc", kInt8, {}, false);
  body.output("c_out", kBool, {}, false).output("acc_out", 0, {}, false);
  body.node("Identity", {"c"}, {"c_out"});
  body.node("Identity", {"acc"}, {"acc_out"});
  ModelBuilder m(17);
  m.graph().input("x", kFloat, {1}).output("final", 0, {}, false);
  m.graph().initializer(make_tensor_i64("n", {}, {3}));
  m.graph().initializer(make_tensor_bool("go", true));
  attr_graph(m.graph().node("Loop", {"n", "go", "x"}, {"final"}, "loop"), "body", body.proto());
  Typed t(m.bytes());
  EXPECT_EQ(t.type("acc", "main/loop:body"), "tensor(float)");
  EXPECT_EQ(t.type("final"), "tensor(float)");
  ASSERT_EQ(t.types->stale_declarations().size(), 1u);
  EXPECT_TRUE(t.types->stale_declarations()[0].formal_input);
  EXPECT_EQ(value_type_text(t.types->stale_declarations()[0].declared_type), "tensor(int8)");
}

}  // namespace
}  // namespace onnxlint::testing
