// The model view's accessors (model.h, graph_index.h): what a library user reads, independent of
// how the loader lays the view out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/analysis.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/loader.h>

#include <string>
#include <string_view>
#include <vector>

#include "support/loaded_model.h"
#include "support/model_builder.h"

namespace onnxlint {
namespace {

using ::testing::ElementsAre;
using testing::load;

TEST(ModelView, NodeInputsAndOutputsByPosition) {
  testing::ModelBuilder m;
  m.graph().input("x").input("w").output("y");
  m.graph().node("Dropout", {"x", "", "w"}, {"y", ""}, "drop");
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  const Node& n = model->graph().nodes()[0];
  EXPECT_EQ(n.input_count(), 3u);
  EXPECT_EQ(n.output_count(), 2u);
  EXPECT_EQ(n.input(0), "x");
  EXPECT_EQ(n.input(1), "");  // omitted
  EXPECT_EQ(n.input(2), "w");
  EXPECT_EQ(n.input(3), "");  // past the end: absent, never out of bounds
  EXPECT_EQ(n.output(0), "y");
  EXPECT_EQ(n.output(7), "");
  EXPECT_EQ(n.graph(), &model->graph());
  EXPECT_EQ(n.index(), 0u);
  EXPECT_EQ(n.name(), "drop");
  EXPECT_EQ(node_label(n), "Dropout 'drop'");
}

TEST(ModelView, IteratorsOutliveTheRangeObject) {
  testing::ModelBuilder m;
  m.graph().input("a").input("b").output("y");
  m.graph().node("Add", {"a", "b"}, {"y"});
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  const Node& n = model->graph().nodes()[0];
  // inputs() returns a small value; iterators taken from one temporary stay usable after it.
  ValueNames::iterator it = n.inputs().begin();
  const ValueNames::iterator end = n.inputs().end();
  std::vector<std::string_view> names;
  for (; it != end; ++it) names.push_back(*it);
  EXPECT_THAT(names, ElementsAre("a", "b"));
}

TEST(ModelView, DefaultDomainIsCanonicalAtLoad) {
  testing::ModelBuilder m;
  m.opset("com.microsoft", 1);
  m.graph().input("x").output("z");
  m.graph().node("Relu", {"x"}, {"y"}, "written_ai_onnx", "ai.onnx");
  m.graph().node("Gelu", {"y"}, {"z"}, "vendor", "com.microsoft");
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  const Node& relu = model->graph().nodes()[0];
  const Node& gelu = model->graph().nodes()[1];
  EXPECT_EQ(relu.domain(), "");
  EXPECT_TRUE(relu.in_default_domain());
  EXPECT_EQ(gelu.domain(), "com.microsoft");
  EXPECT_FALSE(gelu.in_default_domain());
  EXPECT_TRUE(is_default_domain("ai.onnx"));
  EXPECT_TRUE(is_default_domain(""));
  EXPECT_FALSE(is_default_domain("ai.onnx.ml"));
  EXPECT_EQ(domain_display_name(""), "ai.onnx");
  EXPECT_EQ(domain_display_name("ai.onnx.ml"), "ai.onnx.ml");
}

TEST(ModelView, GraphNamesById) {
  testing::ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  const Graph& g = model->graph();
  const NameId x = g.name_id("x");
  ASSERT_NE(x, kNoNameId);
  EXPECT_EQ(g.value_name(x), "x");
  EXPECT_EQ(g.name_id("nope"), kNoNameId);
  EXPECT_EQ(g.value_name(kNoNameId), "");
  EXPECT_EQ(g.value_name(static_cast<NameId>(g.name_count())), "");  // out of range: ""
  EXPECT_EQ(g.kind(), Graph::Kind::Main);
  EXPECT_EQ(g.path(), "main");
  EXPECT_EQ(g.parent(), nullptr);
  EXPECT_EQ(g.depth(), 0);
}

TEST(ModelView, ValueDefReadsOnlyWhatItsKindHas) {
  testing::ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(testing::make_tensor_i64("w", {1}, {2}));
  m.graph().node("Add", {"x", "w"}, {"y"}, "add");
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  AnalysisCache cache(*model);
  const GraphInfo& info = cache.get<GraphIndex>().info(model->graph());

  const ValueDef* x = info.resolve("x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->kind(), ValueDef::Kind::Input);
  ASSERT_NE(x->input(), nullptr);
  EXPECT_EQ(x->input()->name, "x");
  EXPECT_EQ(x->node(), nullptr);  // not a node output: no node, whatever the storage holds
  EXPECT_EQ(x->output_index(), 0u);

  const ValueDef* w = info.resolve("w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->kind(), ValueDef::Kind::Initializer);
  ASSERT_NE(w->tensor(), nullptr);
  EXPECT_EQ(w->tensor()->name, "w");
  EXPECT_EQ(w->node(), nullptr);
  EXPECT_EQ(w->input(), nullptr);

  const ValueDef* y = info.resolve("y");
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(y->kind(), ValueDef::Kind::Node);
  ASSERT_NE(y->node(), nullptr);
  EXPECT_EQ(y->node()->name(), "add");
  EXPECT_EQ(y->input(), nullptr);
  EXPECT_EQ(y->graph(), &model->graph());
}

TEST(ModelView, FunctionsInFileOrderAndByKey) {
  testing::ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("F", {"x"}, {"y"}, "call", "local");
  for (const char* name : {"G", "F"}) {
    onnx::FunctionProto* f = m.proto().add_functions();
    f->set_name(name);
    f->set_domain("local");
    f->add_input("a");
    f->add_output("b");
    onnx::NodeProto* n = f->add_node();
    n->set_op_type("Relu");
    n->add_input("a");
    n->add_output("b");
    f->add_opset_import()->set_version(17);
  }
  m.opset("local", 1);
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  ASSERT_EQ(model->functions().size(), 2u);
  EXPECT_EQ(model->functions()[0]->name(), "G");
  EXPECT_EQ(model->functions()[1]->name(), "F");
  const Function* f = model->find_function("local", "F");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f, model->functions()[1]);
  EXPECT_EQ(f->body().kind(), Graph::Kind::Function);
  EXPECT_EQ(f->body().function(), f);
  EXPECT_EQ(f->body().nodes().size(), 1u);
  EXPECT_EQ(f->body().inputs()[0].name, "a");
  EXPECT_EQ(f->opset_imports().size(), 1u);
}

}  // namespace
}  // namespace onnxlint
