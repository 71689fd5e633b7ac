// Model Explorer node data: graph and node ids as the model-explorer-onnx adapter names them
// (main graph by name, If branches embedded as "<If>/<branch>/<node>", subgraphs of main-graph
// nodes as "<node>/<attribute>", functions as "[function]domain::name"), the highest severity
// per node, and validation against tests/data/model-explorer-node-data.schema.json.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/loader.h>
#include <onnxlint/report.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "emit/validate.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct TempModel {
  fs::path dir;
  std::string path;
  explicit TempModel(const std::string& bytes) {
    std::random_device rd;
    dir = fs::temp_directory_path() / ("onnxlint-me-" + std::to_string(rd()));
    fs::create_directories(dir);
    path = (dir / "m.onnx").string();
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempModel() { fs::remove_all(dir); }
};

// main_graph: relu (named), an unnamed Abs, If "cond" (then: t1, else: e1), Loop "lp" (body: b1
// holding If "inner" whose then branch holds i1); function custom::Fn with node f1.
std::string model_bytes(const std::string& graph_name = "main_graph") {
  ModelBuilder m;
  m.opset("custom", 1);
  m.proto().mutable_graph()->set_name(graph_name);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"a"}, "relu");
  m.graph().node("Abs", {"a"}, {"b"}).clear_name();
  auto branch = [](const std::string& name, const std::string& node) {
    onnx::GraphProto g;
    g.set_name(name);
    GraphBuilder b(&g);
    b.output(node + "_out");
    b.node("Identity", {"b"}, {node + "_out"}, node);
    return g;
  };
  onnx::NodeProto& cond = m.graph().node("If", {"c"}, {"d"}, "cond");
  attr_graph(cond, "then_branch", branch("then", "t1"));
  attr_graph(cond, "else_branch", branch("else", "e1"));
  onnx::GraphProto body = branch("body", "b1");
  onnx::NodeProto& inner = GraphBuilder(&body).node("If", {"c"}, {"e"}, "inner");
  attr_graph(inner, "then_branch", branch("ithen", "i1"));
  attr_graph(inner, "else_branch", branch("ielse", "i2"));
  onnx::NodeProto& lp = m.graph().node("Loop", {"", "c"}, {"f"}, "lp");
  attr_graph(lp, "body", body);
  m.graph().node("Fn", {"x"}, {"y"}, "call", "custom");
  onnx::FunctionProto* fn = m.proto().add_functions();
  fn->set_name("Fn");
  fn->set_domain("custom");
  fn->add_input("i");
  fn->add_output("o");
  auto* f1 = fn->add_node();
  f1->set_op_type("Neg");
  f1->set_name("f1");
  f1->add_input("i");
  f1->add_output("o");
  auto* opset = fn->add_opset_import();
  opset->set_version(17);
  return m.bytes();
}

Diagnostic at(const Model& model, const std::string& graph_path, std::string_view node,
              Severity s) {
  Diagnostic d;
  d.rule_id = "graph-dead-node";
  d.severity = s;
  d.location.graph_path = graph_path;
  d.message = "m";
  for (const Graph* g : model.all_graphs()) {
    if (g->path() != graph_path) continue;
    for (const Node& n : g->nodes()) {
      if (n.display_name() == node) {
        d.location.node_index = n.index();
        d.location.node_name = n.display_name();
      }
    }
  }
  EXPECT_TRUE(d.location.node_index.has_value()) << graph_path << " " << node;
  return d;
}

std::string emit(const Report& r) {
  Linter linter(builtin_registry(), LintOptions{});
  std::stringstream out;
  emit_model_explorer(r, linter, out);
  return out.str();
}

const json kThresholds = json::array({{{"value", 1}, {"bgColor", "#90caf9"}},
                                      {{"value", 2}, {"bgColor", "#ffb74d"}},
                                      {{"value", 3}, {"bgColor", "#e57373"}}});

TEST(ModelExplorer, GraphAndNodeIdsAsTheOnnxAdapterNamesThem) {
  TempModel file(model_bytes());
  LoadResult loaded = load_model(file.path);
  ASSERT_NE(loaded.model, nullptr);
  const Model& m = *loaded.model;
  Report r;
  r.files.resize(1);
  r.files[0].path = file.path;
  auto& ds = r.files[0].diagnostics;
  ds.push_back(at(m, "main", "relu", Severity::Info));
  ds.push_back(at(m, "main", "relu", Severity::Error));   // the highest severity counts
  ds.push_back(at(m, "main", "Abs#1", Severity::Error));  // unnamed: the adapter names it
  ds.push_back(at(m, "main/cond:then_branch", "t1", Severity::Warning));
  ds.push_back(at(m, "main/lp:body", "b1", Severity::Info));
  ds.push_back(at(m, "main/lp:body/inner:then_branch", "i1", Severity::Warning));
  ds.push_back(at(m, "fn:custom::Fn", "f1", Severity::Error));
  Diagnostic input;  // a graph input: the adapter's "[value] x" node
  input.rule_id = "shape-dynamic-input";
  input.severity = Severity::Warning;
  input.location.graph_path = "main";
  input.location.value_name = "x";
  ds.push_back(input);
  Diagnostic model_level;  // no node: not on the graph
  model_level.rule_id = "model-missing-producer";
  ds.push_back(model_level);

  const std::string doc = emit(r);
  const json expected = {
      {"main_graph",
       {{"results",
         {{"relu", {{"value", 3}}},
          {"cond/then_branch/t1", {{"value", 2}}},
          {"[value] x", {{"value", 2}}}}},
        {"thresholds", kThresholds}}},
      {"lp/body",
       {{"results", {{"b1", {{"value", 1}}}, {"inner/then_branch/i1", {{"value", 2}}}}},
        {"thresholds", kThresholds}}},
      {"[function]custom::Fn",
       {{"results", {{"f1", {{"value", 3}}}}}, {"thresholds", kThresholds}}},
  };
  EXPECT_EQ(json::parse(doc), expected) << doc;
  EXPECT_EQ(doc, expected.dump(2) + "\n");
  EXPECT_EQ(json_schema_errors(doc, "model-explorer-node-data.schema.json"), "");
}

TEST(ModelExplorer, UnnamedMainGraphIsMain) {
  TempModel file(model_bytes(""));
  LoadResult loaded = load_model(file.path);
  ASSERT_NE(loaded.model, nullptr);
  Report r;
  r.files.resize(1);
  r.files[0].path = file.path;
  r.files[0].diagnostics.push_back(at(*loaded.model, "main", "relu", Severity::Warning));
  const json doc = json::parse(emit(r));
  EXPECT_EQ(doc["<main>"]["results"], json({{"relu", {{"value", 2}}}}));
}

TEST(ModelExplorer, CleanUnreadableAndPathErrorsGiveNoData) {
  TempModel file(model_bytes());
  Linter linter(builtin_registry(), LintOptions{});
  Report r;
  r.files.push_back(linter.lint_bytes("bad.onnx", "not a model"));
  FileReport gone;
  gone.path = "gone.onnx";
  gone.status = FileReport::Status::PathError;
  r.files.push_back(gone);
  EXPECT_EQ(emit(r), "{}\n");
  EXPECT_EQ(json_schema_errors("{}", "model-explorer-node-data.schema.json"), "");
}

TEST(ModelExplorer, OneModelFileOnly) {
  Report two;
  two.files.resize(2);
  two.files[0].path = "a.onnx";
  two.files[1].path = "b.onnx";
  EXPECT_THROW(emit(two), ConfigError);
  Report stdin_report;
  stdin_report.files.resize(1);
  stdin_report.files[0].path = "-";
  EXPECT_THROW(emit(stdin_report), ConfigError);
}

}  // namespace
}  // namespace onnxlint::testing
