// model-unused-suppression, and the in-model suppression (`onnx-lint:disable` in
// metadata_props) it checks. The rule is reported by the engine (lib/driver/linter.cc).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>

#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string dead_node_model(const std::string& disable) {
  ModelBuilder m;
  m.producer("test", "1");
  if (!disable.empty()) m.metadata("onnx-lint:disable", disable);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Abs", {"x"}, {"unused"}, "dead");
  return m.bytes();
}

FileReport lint(const std::string& bytes,
                std::vector<std::string> select = {"graph-dead-node", "graph-unused-input",
                                                   "model-unused-suppression"},
                bool honour = true) {
  LintOptions o;
  o.select = std::move(select);
  o.in_model_suppressions = honour;
  return Linter(builtin_registry(), o).lint_bytes("m.onnx", bytes);
}

std::vector<std::string> found(const FileReport& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) {
    out.push_back(d.rule_id + " " + d.location.anchor() + (d.key.empty() ? "" : " " + d.key));
  }
  return out;
}

TEST(InModelSuppression, HidesAndCountsFindings) {
  FileReport r = lint(dead_node_model("graph-dead-node -- dead branch kept for a later export"));
  EXPECT_THAT(found(r), IsEmpty());
  EXPECT_EQ(r.suppressed, 1u);
}

TEST(InModelSuppression, AcceptsCategoriesGlobsAndSpaces) {
  EXPECT_EQ(lint(dead_node_model("  graph ")).suppressed, 1u);
  EXPECT_EQ(lint(dead_node_model("model-ir-version,graph-dead-*")).suppressed, 1u);
}

TEST(InModelSuppression, CanBeTurnedOff) {
  FileReport r = lint(dead_node_model("graph-dead-node"), {"graph-dead-node"}, false);
  EXPECT_THAT(found(r), ElementsAre("graph-dead-node main/dead"));
  EXPECT_EQ(r.suppressed, 0u);
}

TEST(UnusedSuppression, EntryThatHidNothingIsReported) {
  FileReport r = lint(dead_node_model("graph-dead-node, graph-unused-input"));
  EXPECT_THAT(found(r), ElementsAre("model-unused-suppression  graph-unused-input"));
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Info);
  EXPECT_EQ(r.diagnostics[0].message,
            "'onnx-lint:disable' entry 'graph-unused-input' suppressed nothing");
  EXPECT_EQ(r.suppressed, 1u);
}

TEST(UnusedSuppression, UnknownIdIsReportedWithASuggestion) {
  FileReport r = lint(dead_node_model("graph-dead-nod"));
  // Model-level findings sort before graph findings.
  EXPECT_THAT(found(r),
              ElementsAre("model-unused-suppression  graph-dead-nod", "graph-dead-node main/dead"));
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.message,
            "'onnx-lint:disable' entry 'graph-dead-nod' names no rule id, category "
            "or glob");
  EXPECT_EQ(d.help, "did you mean 'graph-dead-node'?");
}

TEST(UnusedSuppression, NearMissEntryForARuleThatDidNotRun) {
  // graph-unused-initializer is not selected: whether it would have fired is unknown.
  FileReport r = lint(dead_node_model("graph-dead-node, graph-unused-initializer"));
  EXPECT_THAT(found(r), IsEmpty());
}

TEST(UnusedSuppression, SilentWhenTheRuleIsOff) {
  FileReport r = lint(dead_node_model("graph-dead-node, graph-unused-input, nosuch"),
                      {"graph-dead-node", "graph-unused-input"});
  EXPECT_THAT(found(r), IsEmpty());
}

TEST(UnusedSuppression, CanItselfBeSuppressedInTheModel) {
  FileReport r = lint(dead_node_model("graph-unused-input, model-unused-suppression"));
  EXPECT_THAT(found(r), ElementsAre("graph-dead-node main/dead"));
  EXPECT_EQ(r.suppressed, 1u);  // the unused entry's finding, hidden by the self-reference
}

TEST(UnusedSuppression, NestedGraphFindingsCountAsUsed) {
  ModelBuilder m;
  m.producer("test", "1");
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Abs", {"x"}, {"unused"}, "dead");
  std::string nested = nest_in_loop(m.proto());
  onnx::ModelProto proto;
  ASSERT_TRUE(proto.ParseFromString(nested));
  auto* kv = proto.add_metadata_props();
  kv->set_key("onnx-lint:disable");
  kv->set_value("graph-dead-node");
  FileReport r = lint(proto.SerializeAsString(), {"graph-dead-node", "model-unused-suppression"});
  EXPECT_THAT(found(r), IsEmpty());
  EXPECT_EQ(r.suppressed, 1u);
}

}  // namespace
}  // namespace onnxlint::testing
