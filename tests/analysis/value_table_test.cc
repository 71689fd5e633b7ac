// ValueTable: model-wide value ids, constants with lexical scoping, stated types (one
// precedence: what a value holds before what a declaration says) and fold states.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/fold_states.h>
#include <onnxlint/loader.h>
#include <onnxlint/value_table.h>

#include "support/loaded_model.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;

std::vector<int64_t> static_dims(const StatedType& st) {
  std::vector<int64_t> out;
  for (const Dim& d : st.dims()) out.push_back(d.is_static() ? d.value : -1);
  return out;
}

TEST(ValueTable, IdsRoundTripNamesAndProducers) {
  ModelBuilder m(13);
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_i64("w", {1}, {2}));
  m.graph().node("Relu", {"x"}, {"r"}, "relu");
  m.graph().node("Add", {"r", "w"}, {"y"}, "add");
  auto model = load(m.bytes());
  AnalysisCache cache(*model);
  const ValueTable& t = cache.get<ValueTable>();
  const Graph& g = model->graph();
  EXPECT_EQ(t.size(), 4u);  // x, w, r, y
  for (std::string_view name : {"x", "w", "r", "y"}) {
    const ValueId v = t.find(g, name);
    ASSERT_NE(v, kNoValue) << name;
    EXPECT_EQ(t.name_of(v), name);
    EXPECT_EQ(t.graph_of(v), &g);
  }
  EXPECT_EQ(t.producer(t.find(g, "x")), nullptr);
  EXPECT_EQ(t.producer(t.find(g, "r")), &g.nodes()[0]);
  EXPECT_EQ(t.input(g.nodes()[1], 1), t.find(g, "w"));
  EXPECT_EQ(t.output(g.nodes()[1], 0), t.find(g, "y"));
  EXPECT_EQ(t.find(g, "nope"), kNoValue);
}

TEST(ValueTable, ConstantsInitializersConstantNodesAndScopes) {
  ModelBuilder m(13, 8);
  m.graph().input("x").input("overridable").output("y");
  m.graph().initializer(make_tensor_i64("init", {2}, {3, 4}));
  m.graph().initializer(make_tensor_i64("overridable", {1}, {9}));
  m.graph().constant_i64("const_tensor", {5, 6, 7});
  auto& ints = m.graph().node("Constant", {}, {"const_ints"});
  attr_ints(ints, "value_ints", {1, 2});
  auto& one = m.graph().node("Constant", {}, {"const_int"});
  attr_int(one, "value_int", 8);
  m.graph().node("Relu", {"x"}, {"computed"});
  m.graph().node("Identity", {"x"}, {"y"});
  auto model = load(nest_in_if(m.proto()));
  // nest_in_if moves everything into the then branch; the main graph keeps the inputs.
  AnalysisCache cache(*model);
  const ValueTable& t = cache.get<ValueTable>();
  const Graph& then_branch = graph_at(*model, "main/nest_if:then_branch");
  auto ints_of = [&](const Graph& g, std::string_view name, size_t max = 4096) {
    return t.constant_ints(t.find(g, name), max);
  };
  EXPECT_EQ(ints_of(then_branch, "init"), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(ints_of(then_branch, "const_tensor"), (std::vector<int64_t>{5, 6, 7}));
  EXPECT_EQ(ints_of(then_branch, "const_ints"), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(ints_of(then_branch, "const_int"), (std::vector<int64_t>{8}));
  EXPECT_EQ(ints_of(then_branch, "computed"), std::nullopt);
  EXPECT_EQ(ints_of(then_branch, "x"), std::nullopt);
  EXPECT_EQ(ints_of(then_branch, "init", 1), std::nullopt);  // over the element limit
  // Not visible from the main graph (defined in the branch).
  EXPECT_EQ(t.find(model->graph(), "init"), kNoValue);

  // An initializer that is also a graph input can be overridden: not a constant.
  auto flat = load(m.bytes());
  AnalysisCache c2(*flat);
  const ValueTable& ft = c2.get<ValueTable>();
  auto c = ft.constant(ft.find(flat->graph(), "overridable"));
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->overridable);
  EXPECT_EQ(ft.constant_ints(ft.find(flat->graph(), "overridable")), std::nullopt);
  EXPECT_EQ(ft.constant_ints(ft.find(flat->graph(), "init")), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(c2.get<FoldStates>().state(ft.find(flat->graph(), "overridable")), FoldState::Runtime);
  EXPECT_EQ(c2.get<FoldStates>().state(ft.find(flat->graph(), "init")), FoldState::Constant);
}

// constant_floats, the floating-point twin: initializers and Constant tensors of float types,
// value_float(s); integers, computed values and overridable initializers are not its constants.
TEST(ValueTable, FloatConstants) {
  ModelBuilder m(13, 8);
  m.graph().input("x").input("overridable").output("y");
  m.graph().initializer(make_tensor_f32("init", {2}, {0.5f, 0.0f}));
  m.graph().initializer(make_tensor_f32("overridable", {}, {1.0f}));
  m.graph().initializer(make_tensor_i64("ints", {1}, {3}));
  attr_tensor(m.graph().node("Constant", {}, {"const_tensor"}), "value",
              make_tensor_f32("", {}, {0.0f}));
  attr_float(m.graph().node("Constant", {}, {"const_float"}), "value_float", 0.25f);
  m.graph().node("Relu", {"x"}, {"computed"});
  m.graph().node("Identity", {"x"}, {"y"});
  auto model = load(m.bytes());
  AnalysisCache cache(*model);
  const ValueTable& t = cache.get<ValueTable>();
  auto floats_of = [&](std::string_view name, size_t max = 4096) {
    return t.constant_floats(t.find(model->graph(), name), max);
  };
  EXPECT_EQ(floats_of("init"), (std::vector<double>{0.5, 0.0}));
  EXPECT_EQ(floats_of("init", 1), std::nullopt);  // over the element limit
  EXPECT_EQ(floats_of("const_tensor"), (std::vector<double>{0.0}));
  EXPECT_EQ(floats_of("const_float"), (std::vector<double>{0.25}));
  EXPECT_EQ(floats_of("overridable"), std::nullopt);
  EXPECT_EQ(floats_of("ints"), std::nullopt);
  EXPECT_EQ(floats_of("computed"), std::nullopt);
}

TEST(ValueTable, SubgraphInputShadowsOuterConstant) {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Reshape", {"x", "shape"}, {"z"}, "reshape");
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  *mp.mutable_graph()->add_initializer() = make_tensor_i64("shape", {1}, {-1});
  auto model = load(mp.SerializeAsString());
  AnalysisCache cache(*model);
  const ValueTable& t = cache.get<ValueTable>();
  const Graph& body = graph_at(*model, "main/nest:body");
  EXPECT_EQ(t.constant_ints(t.find(body, "shape")), (std::vector<int64_t>{-1}));
  EXPECT_EQ(t.constant_ints(t.find(body, "nest_iter")), std::nullopt);
  EXPECT_EQ(cache.get<FoldStates>().state(t.find(body, "shape")), FoldState::Constant);
  EXPECT_EQ(cache.get<FoldStates>().state(t.find(body, "nest_iter")), FoldState::Runtime);

  // The body declares its own input "shape": the outer constant is hidden.
  auto* body_proto = mp.mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_g();
  set_value_info(body_proto->add_input(), "shape", kInt64, {1});
  auto shadowed = load(mp.SerializeAsString());
  AnalysisCache c2(*shadowed);
  const ValueTable& st = c2.get<ValueTable>();
  const ValueId v = st.find(graph_at(*shadowed, "main/nest:body"), "shape");
  ASSERT_NE(v, kNoValue);
  EXPECT_FALSE(st.constant(v).has_value());
  EXPECT_EQ(c2.get<FoldStates>().state(v), FoldState::Runtime);
}

TEST(ValueTable, StatedTypesPreferWhatTheValueHolds) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {"N", 3}).output("y", kFloat, {"N", 3});
  // value_info says float [7] for the int64 initializer: the tensor wins.
  m.graph().initializer(make_tensor_i64("w", {2}, {1, 2}));
  m.graph().value_info("w", kFloat, {7});
  // Cast fixes the element type; the declared shape stays.
  auto& cast = m.graph().node("Cast", {"x"}, {"c"}, "cast");
  attr_int(cast, "to", kInt64);
  m.graph().value_info("c", kFloat, {"N", 3});
  auto& floats = m.graph().node("Constant", {}, {"k"});
  attr_ints(floats, "value_ints", {4, 5, 6});
  m.graph().node("Relu", {"x"}, {"r"}, "relu");
  m.graph().value_info("r", kFloat, {"N", 3});
  m.graph().node("Identity", {"r"}, {"y"}, "id");
  auto model = load(m.bytes());
  AnalysisCache cache(*model);
  const ValueTable& t = cache.get<ValueTable>();
  const Graph& g = model->graph();

  const StatedType x = t.stated(t.find(g, "x"));
  EXPECT_EQ(x.elem_type, kFloat);
  EXPECT_EQ(static_dims(x), (std::vector<int64_t>{-1, 3}));
  EXPECT_FALSE(x.is_static_shape());

  const StatedType w = t.stated(t.find(g, "w"));
  EXPECT_EQ(w.elem_type, kInt64);
  EXPECT_EQ(static_dims(w), (std::vector<int64_t>{2}));
  EXPECT_TRUE(w.is_static_shape());

  const StatedType c = t.stated(t.find(g, "c"));
  EXPECT_EQ(c.elem_type, kInt64);
  EXPECT_EQ(static_dims(c), (std::vector<int64_t>{-1, 3}));

  const StatedType k = t.stated(t.find(g, "k"));
  EXPECT_EQ(k.elem_type, kInt64);
  EXPECT_EQ(static_dims(k), (std::vector<int64_t>{3}));

  // A graph output's declaration.
  const StatedType y = t.stated(t.find(g, "y"));
  EXPECT_EQ(y.elem_type, kFloat);
  EXPECT_EQ(y.rank(), 2u);

  EXPECT_EQ(t.stated(t.find(g, "r")).elem_type, kFloat);
  EXPECT_EQ(t.stated(kNoValue).elem_type, 0);
  EXPECT_FALSE(t.stated(kNoValue).has_shape());
}

TEST(ValueTable, FoldStates) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {"N", 3}).output("y", kFloat, {"N", 3});
  m.graph().initializer(make_tensor_f32("s", {3}, {1, 2, 3}));
  m.graph().initializer(make_tensor_f32("b", {3}, {1, 2, 3}));
  m.graph().node("Mul", {"s", "b"}, {"sb"}, "mul");        // constants: folds
  m.graph().node("Shape", {"s"}, {"shape_s"}, "shape_s");  // static shape: folds
  m.graph().node("Shape", {"x"}, {"shape_x"}, "shape_x");  // dynamic shape: runtime
  m.graph().node("RandomNormalLike", {"s"}, {"rnd"}, "rnd");
  m.graph().node("Add", {"x", "sb"}, {"y"}, "add");
  auto model = load(m.bytes());
  AnalysisCache cache(*model);
  const ValueTable& t = cache.get<ValueTable>();
  const Graph& g = model->graph();
  const FoldStates& folds = cache.get<FoldStates>();
  auto fold = [&](std::string_view name) { return folds.state(t.find(g, name)); };
  EXPECT_EQ(fold("sb"), FoldState::Constant);
  EXPECT_EQ(fold("shape_s"), FoldState::Constant);
  EXPECT_EQ(fold("shape_x"), FoldState::Runtime);
  EXPECT_EQ(fold("rnd"), FoldState::Runtime);
  EXPECT_EQ(fold("y"), FoldState::Runtime);
  EXPECT_EQ(fold("x"), FoldState::Runtime);
  EXPECT_EQ(folds.state(kNoValue), FoldState::Runtime);
}

}  // namespace
}  // namespace onnxlint::testing
