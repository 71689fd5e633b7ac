// GraphIndex (defs, uses, scopes, order, liveness), and the analysis cache that shares it
// between rules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/loader.h>

#include "support/loaded_model.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// main: x -> Relu(a) -> Loop(nest) whose body reads a and w; Neg(dead) unused.
std::string scoped_model() {
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"a", "w"}, {"z"}, "body_add");
  onnx::ModelProto mp;
  EXPECT_TRUE(mp.ParseFromString(nest_in_loop(inner.proto())));
  auto* g = mp.mutable_graph();
  *g->add_initializer() = make_tensor_f32("w", {1}, {1.0f});
  auto* relu = g->add_node();
  relu->set_op_type("Relu");
  relu->set_name("relu");
  relu->add_input("x");
  relu->add_output("a");
  g->mutable_node()->SwapElements(0, 1);  // relu, then the Loop
  auto* dead = g->add_node();
  dead->set_op_type("Neg");
  dead->set_name("dead");
  dead->add_input("a");
  dead->add_output("unused");
  return mp.SerializeAsString();
}

TEST(GraphIndex, DefsUsesAndScopes) {
  auto m = load(scoped_model());
  AnalysisCache cache(*m);
  const GraphIndex& index = cache.get<GraphIndex>();
  EXPECT_EQ(&index, &cache.get<GraphIndex>());  // computed once, shared

  const GraphInfo& main = index.info(m->graph());
  const GraphInfo& body = index.info(graph_at(*m, "main/nest:body"));
  EXPECT_EQ(body.parent, &main);
  ASSERT_NE(main.local("x"), nullptr);
  EXPECT_EQ(main.local("x")->kind(), ValueDef::Kind::Input);
  EXPECT_EQ(main.local("w")->kind(), ValueDef::Kind::Initializer);
  EXPECT_EQ(main.local("a")->kind(), ValueDef::Kind::Node);
  EXPECT_EQ(main.local("a")->node()->name(), "relu");
  // The body resolves outer values lexically, but does not define them.
  EXPECT_EQ(body.local("a"), nullptr);
  ASSERT_NE(body.resolve("a"), nullptr);
  EXPECT_EQ(body.resolve("a")->graph(), &m->graph());
  EXPECT_EQ(body.resolve("nope"), nullptr);
  EXPECT_THAT(body.outer_refs, ElementsAre("a", "w"));
  // The Loop uses a and w through its body.
  const auto& uses_of_a = main.uses_of("a");
  ASSERT_EQ(uses_of_a.size(), 2u);
  EXPECT_EQ(uses_of_a[0].node->name(), "nest");
  EXPECT_TRUE(uses_of_a[0].via_subgraph);
  EXPECT_EQ(uses_of_a[1].node->name(), "dead");
  EXPECT_FALSE(uses_of_a[1].via_subgraph);
  EXPECT_THAT(main.uses_of("unused"), IsEmpty());
  // Graph outputs are uses with no node.
  ASSERT_EQ(main.uses_of("z_scan").size(), 1u);
  EXPECT_EQ(main.uses_of("z_scan")[0].node, nullptr);
}

TEST(GraphIndex, NameIdsNumberValueNamesDenselyInFirstMentionOrder) {
  auto m = load(scoped_model());
  const Graph& g = m->graph();
  std::vector<std::string_view> names;
  for (NameId id = 0; id < g.name_count(); ++id) names.push_back(g.value_name(id));
  // Nodes come first in the file (relu, nest, dead), then initializers, inputs, outputs.
  EXPECT_THAT(names,
              ElementsAre("x", "a", "nest_trip_count", "nest_cond", "z_scan", "unused", "w"));
  for (const Graph* graph : m->all_graphs()) {
    for (const Node& n : graph->nodes()) {
      ASSERT_EQ(n.input_ids().size(), n.inputs().size());
      ASSERT_EQ(n.output_ids().size(), n.outputs().size());
      for (size_t k = 0; k < n.inputs().size(); ++k) {
        if (n.inputs()[k].empty()) {
          EXPECT_EQ(n.input_ids()[k], kNoNameId);
        } else {
          EXPECT_EQ(graph->value_name(n.input_ids()[k]), n.inputs()[k]);
        }
      }
      for (size_t k = 0; k < n.outputs().size(); ++k) {
        EXPECT_EQ(graph->value_name(n.output_ids()[k]), n.outputs()[k]);
      }
    }
  }
  EXPECT_EQ(g.name_id("nope"), kNoNameId);
  EXPECT_EQ(g.name_id(""), kNoNameId);

  AnalysisCache cache(*m);
  const GraphIndex& index = cache.get<GraphIndex>();
  const GraphInfo& main = index.info(g);
  const Graph& body = graph_at(*m, "main/nest:body");
  const GraphInfo& body_info = index.info(body);
  // By id and by name agree; input_def resolves outer values through the parent.
  EXPECT_EQ(main.local(g.name_id("a")), main.local("a"));
  EXPECT_EQ(main.uses_of(g.name_id("a")).size(), 2u);
  EXPECT_EQ(main.local(kNoNameId), nullptr);
  EXPECT_THAT(main.uses_of(kNoNameId), IsEmpty());
  const Node& add = body.nodes()[0];
  ASSERT_EQ(add.name(), "body_add");
  ASSERT_NE(body_info.input_def(add, 0), nullptr);
  EXPECT_EQ(body_info.input_def(add, 0), main.local("a"));
  EXPECT_EQ(body_info.input_def(add, 1), main.local("w"));
  EXPECT_EQ(body_info.input_def(add, 2), nullptr);  // no such input
}

TEST(GraphIndex, NamesOnlyANestedSubgraphMentionsAreUsesOfTheOwnerNode) {
  // inner body reads a and w; the middle graph holds the inner Loop but never names a or w.
  ModelBuilder inner;
  inner.graph().input("x").output("z");
  inner.graph().node("Add", {"a", "w"}, {"z"}, "body_add");
  onnx::ModelProto once;
  ASSERT_TRUE(once.ParseFromString(nest_in_loop(inner.proto())));
  auto m = load(nest_in_loop(once));
  AnalysisCache cache(*m);
  const GraphIndex& index = cache.get<GraphIndex>();
  const Graph& middle = graph_at(*m, "main/nest:body");
  const GraphInfo& info = index.info(middle);
  EXPECT_EQ(middle.name_id("a"), kNoNameId);
  EXPECT_THAT(info.outer_refs, ElementsAre("a", "w"));
  ASSERT_EQ(info.uses_of("a").size(), 1u);
  EXPECT_EQ(info.uses_of("a")[0].node->name(), "nest");
  EXPECT_TRUE(info.uses_of("a")[0].via_subgraph);
  EXPECT_EQ(info.uses_of("w").size(), 1u);
  EXPECT_THAT(index.info(m->graph()).outer_refs, ElementsAre("a", "w"));
  EXPECT_EQ(index.info(m->graph()).resolve("a"), nullptr);
}

TEST(GraphIndex, OrderAndLiveness) {
  auto m = load(scoped_model());
  AnalysisCache cache(*m);
  const GraphInfo& main = cache.get<GraphIndex>().info(m->graph());
  ASSERT_TRUE(main.topo_order.has_value());
  EXPECT_THAT(*main.topo_order, ElementsAre(0, 1, 2));
  EXPECT_THAT(main.out_of_order_nodes, IsEmpty());
  EXPECT_THAT(main.live, ElementsAre(true, true, false));

  // Put the Loop before its producer: out of order, still sortable.
  onnx::ModelProto mp;
  ASSERT_TRUE(mp.ParseFromString(scoped_model()));
  mp.mutable_graph()->mutable_node()->SwapElements(0, 1);
  auto swapped = load(mp.SerializeAsString());
  AnalysisCache c2(*swapped);
  const GraphInfo& info = c2.get<GraphIndex>().info(swapped->graph());
  EXPECT_THAT(info.out_of_order_nodes, ElementsAre(0));
  ASSERT_TRUE(info.topo_order.has_value());
  EXPECT_THAT(*info.topo_order, ElementsAre(1, 0, 2));
}

TEST(GraphIndex, KeepsTheFileOrderWhenItIsTopological) {
  // A FIFO topological sort would give 0, 2, 1 (both 0 and 2 read only graph inputs); the
  // file order is already valid and is kept.
  ModelBuilder m(13, 8);
  m.graph().input("x").output("c").output("b");
  m.graph().node("Relu", {"x"}, {"a"});
  m.graph().node("Neg", {"a"}, {"c"});
  m.graph().node("Abs", {"x"}, {"b"});
  auto model = load(m.bytes());
  AnalysisCache cache(*model);
  const GraphInfo& info = cache.get<GraphIndex>().info(model->graph());
  EXPECT_THAT(info.out_of_order_nodes, IsEmpty());
  ASSERT_TRUE(info.topo_order.has_value());
  EXPECT_THAT(*info.topo_order, ElementsAre(0, 1, 2));
}

}  // namespace
}  // namespace onnxlint::testing
