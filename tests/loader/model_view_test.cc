// The model view's accessors (model.h, graph_index.h): what a library user reads, independent of
// how the loader lays the view out.
#include <fmt/format.h>
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

// Node::op_id names (domain, op_type) across the whole model: the same pair in the main graph,
// a subgraph and a function body shares one id; the same type in another domain does not.
TEST(ModelView, OpIdsNameEachDomainAndOpTypeOnceAcrossTheModel) {
  testing::ModelBuilder m;
  m.opset("com.microsoft", 1).opset("local", 1);
  m.graph().input("x").input("c", testing::kBool).output("z");
  m.graph().node("Relu", {"x"}, {"a"});
  m.graph().node("Relu", {"a"}, {"b"}, "written_ai_onnx", "ai.onnx");  // canonical: ""
  m.graph().node("Relu", {"b"}, {"r"}, "vendor", "com.microsoft");
  onnx::GraphProto branch;
  testing::GraphBuilder(&branch).output("t");
  testing::GraphBuilder(&branch).node("Relu", {"r"}, {"t"});
  onnx::NodeProto& cond = m.graph().node("If", {"c"}, {"i"});
  testing::attr_graph(cond, "then_branch", branch);
  testing::attr_graph(cond, "else_branch", branch);
  m.graph().node("F", {"i"}, {"z"}, "call", "local");
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("F");
  f->set_domain("local");
  f->add_input("p");
  f->add_output("q");
  onnx::NodeProto* body = f->add_node();
  body->set_op_type("Relu");
  body->add_input("p");
  body->add_output("q");
  f->add_opset_import()->set_version(17);
  auto model = load(m.bytes());
  ASSERT_TRUE(model);

  std::vector<std::string> kinds;
  for (const OpKind& k : model->op_kinds())
    kinds.push_back(fmt::format("{}:{}", k.domain, k.op_type));
  EXPECT_THAT(kinds, ElementsAre(":Relu", "com.microsoft:Relu", ":If", "local:F"));
  const auto& main = model->graph().nodes();
  EXPECT_EQ(main[0].op_id(), 0u);
  EXPECT_EQ(main[1].op_id(), 0u);
  EXPECT_EQ(main[2].op_id(), 1u);
  EXPECT_EQ(main[3].op_id(), 2u);
  EXPECT_EQ(main[4].op_id(), 3u);
  for (const Graph* g : model->all_graphs()) {
    for (const Node& n : g->nodes()) {
      const OpKind& k = model->op_kinds()[n.op_id()];
      EXPECT_EQ(k.domain, n.domain());
      EXPECT_EQ(k.op_type, n.op_type());
    }
  }
  EXPECT_EQ(model->functions()[0]->body().nodes()[0].op_id(), 0u);
  EXPECT_EQ(main[3].subgraphs()[0]->nodes()[0].op_id(), 0u);
}

// Many op types (past the loader's direct-mapped cache, with colliding slots) keep distinct ids.
TEST(ModelView, OpIdsStayDistinctPastTheLoadersCache) {
  testing::ModelBuilder m;
  m.graph().input("x").output("v199");
  std::string prev = "x";
  for (int i = 0; i < 200; ++i) {
    const std::string out = "v" + std::to_string(i);
    // Same first and last byte and length class: the cheap cache key collides often.
    m.graph().node(fmt::format("Op{:03}x", i % 100), {prev}, {out}, "", i < 100 ? "" : "d");
    prev = out;
  }
  m.opset("d", 1);
  auto model = load(m.bytes());
  ASSERT_TRUE(model);
  ASSERT_EQ(model->op_kinds().size(), 200u);
  for (const Node& n : model->graph().nodes()) {
    const OpKind& k = model->op_kinds()[n.op_id()];
    EXPECT_EQ(k.op_type, n.op_type());
    EXPECT_EQ(k.domain, n.domain());
  }
}

}  // namespace
}  // namespace onnxlint
