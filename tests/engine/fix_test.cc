// Fixes (docs/fixes.md): each rule's fix on a tiny model, the graph before and after, with a
// near miss where it must not fire; apply_fixes() conflicts; the fix loop; fix_model() on
// files (the input never modified, the output never the input, external data placed).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/fix.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The graph as one line per part: nodes "Op(in,in)->out name", then inputs, initializers and
// outputs with their shapes, then the opset imports.
std::string describe(const onnx::ModelProto& m) {
  std::ostringstream s;
  auto shape = [](const onnx::ValueInfoProto& v) {
    std::string out = v.name();
    if (!v.type().tensor_type().has_shape()) return out;
    out += "[";
    for (int i = 0; i < v.type().tensor_type().shape().dim_size(); ++i) {
      const auto& d = v.type().tensor_type().shape().dim(i);
      out += (i ? "," : "") + (d.has_dim_value() ? std::to_string(d.dim_value()) : d.dim_param());
    }
    return out + "]";
  };
  for (const auto& n : m.graph().node()) {
    s << n.op_type() << "(";
    for (int i = 0; i < n.input_size(); ++i) s << (i ? "," : "") << n.input(i);
    s << ")->";
    for (int i = 0; i < n.output_size(); ++i) s << (i ? "," : "") << n.output(i);
    for (const auto& a : n.attribute()) {
      if (a.type() == onnx::AttributeProto::INT) s << " " << a.name() << "=" << a.i();
    }
    if (!n.name().empty()) s << " '" << n.name() << "'";
    s << "\n";
  }
  s << "inputs:";
  for (const auto& v : m.graph().input()) s << " " << shape(v);
  s << "\ninitializers:";
  for (const auto& t : m.graph().initializer()) {
    s << " " << t.name();
    if (t.int64_data_size() > 0) {
      s << "=[";
      for (int i = 0; i < t.int64_data_size(); ++i) s << (i ? "," : "") << t.int64_data(i);
      s << "]";
    }
  }
  s << "\noutputs:";
  for (const auto& v : m.graph().output()) s << " " << shape(v);
  s << "\nopsets:";
  for (const auto& o : m.opset_import())
    s << " " << (o.domain().empty() ? "ai.onnx" : o.domain()) << "=" << o.version();
  return s.str();
}

struct Fixed {
  FileReport report;
  onnx::ModelProto model;
  std::string bytes;
};

// Fixes `m` in memory with the rules `select` picks.
Fixed fix(const ModelBuilder& m, std::vector<std::string> select, FixOptions options = {}) {
  LintOptions lint;
  lint.select = std::move(select);
  const Linter linter(builtin_registry(), lint);
  Fixed out;
  out.report = fix_bytes(linter, "m.onnx", m.bytes(), ".", options, out.bytes);
  EXPECT_TRUE(out.model.ParseFromString(out.bytes));
  return out;
}

ModelBuilder with_dead_node_for_metadata() {
  ModelBuilder m;
  m.metadata("author", "someone");
  m.proto().set_doc_string("model doc");
  m.graph().proto().set_doc_string("graph doc");
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live").set_doc_string("node doc");
  m.graph().node("Neg", {"x"}, {"d"}, "dead");
  return m;
}

std::vector<std::string> applied_rules(const FileReport& r) {
  std::vector<std::string> out;
  for (const AppliedFix& a : r.fixing->applied) out.push_back(a.rule_id);
  return out;
}

// ---- graph-unsorted-nodes ----

TEST(Fix, UnsortedNodesAreSortedTopologically) {
  ModelBuilder m;
  m.graph().input("x").output("b");
  m.graph().node("Relu", {"a"}, {"b"}, "r");
  m.graph().node("Abs", {"x"}, {"a"}, "s");
  const Fixed f = fix(m, {"graph-unsorted-nodes"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("graph-unsorted-nodes"));
  EXPECT_EQ(describe(f.model),
            "Abs(x)->a 's'\nRelu(a)->b 'r'\ninputs: x[1]\ninitializers:\noutputs: b[1]\n"
            "opsets: ai.onnx=17");
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, SortedGraphIsLeftAsItIs) {
  ModelBuilder m;
  m.graph().input("x").output("b");
  m.graph().node("Abs", {"x"}, {"a"}, "s");
  m.graph().node("Relu", {"a"}, {"b"}, "r");
  const Fixed f = fix(m, {"graph-unsorted-nodes"});
  EXPECT_THAT(f.report.fixing->applied, IsEmpty());
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- graph-dead-node ----

TEST(Fix, DeadNodeAndWhatOnlyFeedsItAreRemoved) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Neg", {"x"}, {"d1"}, "dead1");
  m.graph().node("Abs", {"d1"}, {"d2"}, "dead2");
  const Fixed f = fix(m, {"graph-dead-node"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("graph-dead-node"));
  EXPECT_EQ(describe(f.model),
            "Relu(x)->y 'live'\ninputs: x[1]\ninitializers:\noutputs: y[1]\nopsets: ai.onnx=17");
}

TEST(Fix, DeadNodeInsideASubgraphIsRemovedThere) {
  // If on a graph input (not constant): each branch keeps its live node, the dead one goes.
  ModelBuilder m;
  m.graph().input("c", kBool).input("x").output("y");
  onnx::GraphProto then_branch, else_branch;
  GraphBuilder t(&then_branch), e(&else_branch);
  t.output("t");
  t.node("Abs", {"x"}, {"t"}, "abs");
  t.node("Neg", {"x"}, {"unused"}, "dead_in_then");
  e.output("u");
  e.node("Neg", {"x"}, {"u"}, "neg");
  auto& node = m.graph().node("If", {"c"}, {"y"}, "if");
  attr_graph(node, "then_branch", then_branch);
  attr_graph(node, "else_branch", else_branch);
  const Fixed f = fix(m, {"graph-dead-node"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("graph-dead-node"));
  ASSERT_EQ(f.report.fixing->applied[0].location.graph_path, "main/if:then_branch");
  const onnx::NodeProto& fixed_if = f.model.graph().node(0);
  ASSERT_EQ(fixed_if.attribute_size(), 2);
  EXPECT_EQ(fixed_if.attribute(0).g().node_size(), 1);
  EXPECT_EQ(fixed_if.attribute(0).g().node(0).name(), "abs");
  EXPECT_EQ(fixed_if.attribute(1).g().node_size(), 1);
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, NodeFeedingAnOutputIsNotDead) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Neg", {"x"}, {"a"}, "feeds");
  m.graph().node("Relu", {"a"}, {"y"}, "live");
  const Fixed f = fix(m, {"graph-dead-node"});
  EXPECT_THAT(f.report.fixing->applied, IsEmpty());
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- graph-unused-initializer ----

TEST(Fix, UnusedInitializerIsRemoved) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {1.f}));
  m.graph().initializer(make_tensor_f32("unused", {2}, {1.f, 2.f}));
  m.graph().node("Add", {"x", "w"}, {"y"}, "add");
  const Fixed f = fix(m, {"graph-unused-initializer"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("graph-unused-initializer"));
  EXPECT_EQ(describe(f.model),
            "Add(x,w)->y 'add'\ninputs: x[1]\ninitializers: w\noutputs: y[1]\nopsets: ai.onnx=17");
}

TEST(Fix, UnusedInitializerThatIsAnInputStays) {
  // Removing it would leave an input without its default: the interface changes.
  ModelBuilder m;
  m.graph().input("x").input("unused").output("y");
  m.graph().initializer(make_tensor_f32("unused", {1}, {1.f}));
  m.graph().node("Relu", {"x"}, {"y"}, "r");
  const Fixed f = fix(m, {"graph-unused-initializer"});
  ASSERT_EQ(f.report.diagnostics.size(), 1u);
  EXPECT_EQ(f.report.diagnostics[0].fix, FixSafety::None);
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- graph-initializer-as-input ----

TEST(Fix, InitializersLeaveTheGraphInputs) {
  ModelBuilder m;
  m.graph().input("x").input("w").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {1.f}));
  m.graph().node("Add", {"x", "w"}, {"y"}, "add");
  const Fixed f = fix(m, {"graph-initializer-as-input"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("graph-initializer-as-input"));
  EXPECT_EQ(describe(f.model),
            "Add(x,w)->y 'add'\ninputs: x[1]\ninitializers: w\noutputs: y[1]\nopsets: ai.onnx=17");
}

TEST(Fix, InitializersStayInputsBeforeIr4) {
  ModelBuilder m(9, 3);
  m.graph().input("x").input("w").output("y");
  m.graph().initializer(make_tensor_f32("w", {1}, {1.f}));
  m.graph().node("Add", {"x", "w"}, {"y"}, "add");
  const Fixed f = fix(m, {"graph-initializer-as-input"});
  EXPECT_THAT(f.report.fixing->applied, IsEmpty());
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- graph-duplicate-node-name ----

TEST(Fix, DuplicateNodeNameIsMadeUnique) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Abs", {"x"}, {"a"}, "n");
  m.graph().node("Relu", {"a"}, {"y"}, "n");
  const Fixed f = fix(m, {"graph-duplicate-node-name"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("graph-duplicate-node-name"));
  EXPECT_EQ(describe(f.model),
            "Abs(x)->a 'n'\nRelu(a)->y 'n__1'\ninputs: x[1]\ninitializers:\noutputs: y[1]\n"
            "opsets: ai.onnx=17");
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, UniqueNamesAreKept) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Abs", {"x"}, {"a"}, "n1");
  m.graph().node("Relu", {"a"}, {"y"}, "n2");
  const Fixed f = fix(m, {"graph-duplicate-node-name"});
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- opset-missing-import ----

TEST(Fix, MissingImportOfASingleVersionOpIsAdded) {
  // Celu has one schema (opset 12): every version from 12 on means the same.
  ModelBuilder m;
  m.proto().clear_opset_import();
  m.opset("ai.onnx.ml", 3);
  m.graph().input("x").output("y");
  m.graph().node("Celu", {"x"}, {"y"}, "celu");
  const Fixed f = fix(m, {"opset-missing-import"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("opset-missing-import"));
  EXPECT_THAT(describe(f.model), HasSubstr("opsets: ai.onnx.ml=3 ai.onnx=12"));
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, MissingImportOfAnOpWithSeveralVersionsIsNotGuessed) {
  ModelBuilder m;
  m.proto().clear_opset_import();
  m.opset("ai.onnx.ml", 3);
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "relu");  // Relu 1, 6, 13, 14: the version matters
  const Fixed f = fix(m, {"opset-missing-import"});
  ASSERT_EQ(f.report.diagnostics.size(), 1u);
  EXPECT_EQ(f.report.diagnostics[0].fix, FixSafety::None);
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- shape-foldable ----

// x[N?,3] -> Shape -> Gather(1) -> Unsqueeze -> Concat([-1]) -> Reshape(x).
ModelBuilder shape_chain(const DimSpec& batch) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {batch, 3}).output("y", kFloat, {batch, 3});
  m.graph().initializer(make_tensor_i64("one", {}, {1}));
  m.graph().initializer(make_tensor_i64("axes", {1}, {0}));
  m.graph().initializer(make_tensor_i64("minus1", {1}, {-1}));
  m.graph().node("Shape", {"x"}, {"s"}, "shape");
  attr_int(m.graph().node("Gather", {"s", "one"}, {"c"}, "gather"), "axis", 0);
  m.graph().node("Unsqueeze", {"c", "axes"}, {"c1"}, "unsqueeze");
  attr_int(m.graph().node("Concat", {"minus1", "c1"}, {"shape_out"}, "concat"), "axis", 0);
  m.graph().node("Reshape", {"x", "shape_out"}, {"y"}, "reshape");
  return m;
}

TEST(Fix, StaticShapeComputationIsFolded) {
  const Fixed f = fix(shape_chain(int64_t{2}), {"shape-foldable"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("shape-foldable"));
  EXPECT_EQ(describe(f.model),
            "Reshape(x,shape_out)->y 'reshape'\ninputs: x[2,3]\n"
            "initializers: one=[1] axes=[0] minus1=[-1] shape_out=[-1,3]\noutputs: y[2,3]\n"
            "opsets: ai.onnx=13");
}

TEST(Fix, DynamicShapeComputationIsNotFolded) {
  const ModelBuilder m = shape_chain(std::string("N"));
  const Fixed f = fix(m, {"shape-foldable"});
  EXPECT_THAT(f.report.fixing->applied, IsEmpty());
  EXPECT_EQ(f.bytes, m.bytes());
}

TEST(Fix, FixDimsMakeTheChainFoldableAndTheLoopCleansUp) {
  FixOptions options;
  options.dims = {{"N", 4}};
  const Fixed f = fix(shape_chain(std::string("N")),
                      {"shape-foldable", "graph-unused-initializer", "graph-dead-node"}, options);
  EXPECT_THAT(f.report.fixing->fixed_dims, ElementsAre("N=4"));
  EXPECT_EQ(describe(f.model),
            "Reshape(x,shape_out)->y 'reshape'\ninputs: x[4,3]\ninitializers: shape_out=[-1,3]\n"
            "outputs: y[4,3]\nopsets: ai.onnx=13");
  EXPECT_EQ(f.report.fixing->passes, 2);
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, FixDimsDeclareTheValueInfoShapesTheyMakeStatic) {
  ModelBuilder m;
  m.graph().input("x", kFloat, {std::string("N"), 3}).output("y", kFloat, {std::string("N"), 3});
  m.graph().value_info("r", kFloat, {std::string("M"), 3});  // an exporter's own name for N
  m.graph().node("Relu", {"x"}, {"r"}, "relu1");
  m.graph().node("Relu", {"r"}, {"y"}, "relu2");
  FixOptions options;
  options.dims = {{"N", 2}};
  const Fixed f = fix(m, {"shape-dynamic-output"}, options);
  EXPECT_EQ(f.report.fixing->declared_shapes, 1u);
  ASSERT_EQ(f.model.graph().value_info_size(), 1);
  const auto& shape = f.model.graph().value_info(0).type().tensor_type().shape();
  ASSERT_EQ(shape.dim_size(), 2);
  EXPECT_EQ(shape.dim(0).dim_value(), 2);
  EXPECT_EQ(shape.dim(1).dim_value(), 3);
  EXPECT_THAT(describe(f.model), HasSubstr("inputs: x[2,3]"));
  EXPECT_THAT(describe(f.model), HasSubstr("outputs: y[2,3]"));
}

TEST(Fix, FixDimsNamingNoInputDimIsAnError) {
  FixOptions options;
  options.dims = {{"batch", 1}};
  const ModelBuilder m = shape_chain(std::string("N"));
  const Fixed f = fix(m, {"shape-foldable"}, options);
  EXPECT_THAT(f.report.fixing->error, HasSubstr("no graph input has a dim named 'batch'"));
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- shape-dynamic-output ----

TEST(Fix, ProvenStaticOutputShapeIsDeclared) {
  ModelBuilder m;
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {std::string("M"), 3});
  m.graph().node("Relu", {"x"}, {"y"}, "r");
  const Fixed f = fix(m, {"shape-dynamic-output"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("shape-dynamic-output"));
  EXPECT_THAT(describe(f.model), HasSubstr("outputs: y[2,3]"));
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, DynamicOutputOfADynamicInputKeepsItsDeclaration) {
  ModelBuilder m;
  m.graph().input("x", kFloat, {std::string("N"), 3}).output("y", kFloat, {std::string("N"), 3});
  m.graph().node("Relu", {"x"}, {"y"}, "r");
  const Fixed f = fix(m, {"shape-dynamic-output"});
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- export-training-mode (unsafe) ----

ModelBuilder training_dropout() {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2}).output("y", kFloat, {2});
  m.graph().initializer(make_tensor_f32("ratio", {}, {0.5f}));
  m.graph().initializer(make_tensor_bool("training", true));
  m.graph().node("Dropout", {"x", "ratio", "training"}, {"y"}, "dropout");
  return m;
}

TEST(Fix, TrainingDropoutNeedsUnsafeFixes) {
  const ModelBuilder m = training_dropout();
  const Fixed f = fix(m, {"export-training-mode"});
  EXPECT_THAT(f.report.fixing->applied, IsEmpty());
  EXPECT_EQ(f.report.fixing->unsafe_available, 1u);
  ASSERT_EQ(f.report.diagnostics.size(), 1u);
  EXPECT_EQ(f.report.diagnostics[0].fix, FixSafety::Unsafe);
  EXPECT_EQ(f.bytes, m.bytes());
}

// With ratio 0 the node passes its input through in either mode: dropping training_mode changes
// nothing it computes, so the fix is safe.
TEST(Fix, RatioZeroTrainingDropoutLosesItsTrainingModeSafely) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2}).output("y", kFloat, {2});
  m.graph().initializer(make_tensor_f32("ratio", {}, {0.0f}));
  m.graph().initializer(make_tensor_bool("training", true));
  m.graph().node("Dropout", {"x", "ratio", "training"}, {"y"}, "dropout");
  const Fixed f = fix(m, {"export-training-mode"});
  EXPECT_THAT(applied_rules(f.report), ElementsAre("export-training-mode"));
  EXPECT_EQ(f.report.fixing->applied[0].safety, FixSafety::Safe);
  EXPECT_THAT(describe(f.model), HasSubstr("Dropout(x,ratio)->y 'dropout'"));
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, TrainingDropoutLosesItsTrainingModeWithUnsafeFixes) {
  FixOptions options;
  options.unsafe = true;
  const Fixed f = fix(training_dropout(), {"export-training-mode"}, options);
  EXPECT_THAT(applied_rules(f.report), ElementsAre("export-training-mode"));
  EXPECT_EQ(f.report.fixing->applied[0].safety, FixSafety::Unsafe);
  EXPECT_THAT(describe(f.model), HasSubstr("Dropout(x,ratio)->y 'dropout'"));
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

ModelBuilder training_batch_norm(bool statistics_read) {
  ModelBuilder m(15);
  m.graph().input("x", kFloat, {1, 2}).output("y", kFloat, {1, 2});
  for (const char* name : {"scale", "bias", "mean", "var"}) {
    m.graph().initializer(make_tensor_f32(name, {2}, {1.f, 1.f}));
  }
  auto& bn = m.graph().node("BatchNormalization", {"x", "scale", "bias", "mean", "var"},
                            {"y", "running_mean", "running_var"}, "bn");
  attr_int(bn, "training_mode", 1);
  if (statistics_read) {
    m.graph().output("rm", kFloat, {2});
    m.graph().node("Identity", {"running_mean"}, {"rm"}, "read");
  }
  return m;
}

TEST(Fix, TrainingBatchNormTakesItsInferenceForm) {
  FixOptions options;
  options.unsafe = true;
  const Fixed f = fix(training_batch_norm(false), {"export-training-mode"}, options);
  EXPECT_THAT(applied_rules(f.report), ElementsAre("export-training-mode"));
  EXPECT_THAT(describe(f.model),
              HasSubstr("BatchNormalization(x,scale,bias,mean,var)->y training_mode=0 'bn'"));
}

TEST(Fix, TrainingBatchNormWhoseStatisticsAreReadHasNoFix) {
  FixOptions options;
  options.unsafe = true;
  const ModelBuilder m = training_batch_norm(true);
  const Fixed f = fix(m, {"export-training-mode"}, options);
  ASSERT_EQ(f.report.diagnostics.size(), 1u);
  EXPECT_EQ(f.report.diagnostics[0].fix, FixSafety::None);
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- flow-constant-condition ----

// If(c) with then: t = Abs(x); else: t = Neg(x); y = Relu(If output).
ModelBuilder constant_if(bool condition, const std::string& then_local = "t") {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(make_tensor_bool("c", condition));
  onnx::GraphProto then_branch, else_branch;
  GraphBuilder t(&then_branch), e(&else_branch);
  t.output(then_local);
  t.node("Abs", {"x"}, {then_local}, "abs");
  e.output("u");
  e.node("Neg", {"x"}, {"u"}, "neg");
  auto& node = m.graph().node("If", {"c"}, {"r"}, "if");
  attr_graph(node, "then_branch", then_branch);
  attr_graph(node, "else_branch", else_branch);
  m.graph().node("Relu", {"r"}, {"y"}, "relu");
  return m;
}

TEST(Fix, IfWithAConstantConditionIsReplacedByItsBranch) {
  const Fixed then_taken = fix(constant_if(true), {"flow-constant-condition"});
  EXPECT_THAT(applied_rules(then_taken.report), ElementsAre("flow-constant-condition"));
  EXPECT_EQ(describe(then_taken.model),
            "Abs(x)->r 'abs'\nRelu(r)->y 'relu'\ninputs: x[1]\ninitializers: c\n"
            "outputs: y[1]\nopsets: ai.onnx=17");
  const Fixed else_taken = fix(constant_if(false), {"flow-constant-condition"});
  EXPECT_THAT(describe(else_taken.model), HasSubstr("Neg(x)->r 'neg'\nRelu(r)->y 'relu'"));
  EXPECT_THAT(else_taken.report.diagnostics, IsEmpty());
}

TEST(Fix, BranchValueNamedLikeAnOuterValueIsNotInlined) {
  // The branch defines 'y', which the main graph names: inlining would define it twice.
  const ModelBuilder m = constant_if(true, "y");
  const Fixed f = fix(m, {"flow-constant-condition"});
  ASSERT_EQ(f.report.diagnostics.size(), 1u);
  EXPECT_EQ(f.report.diagnostics[0].fix, FixSafety::None);
  EXPECT_EQ(f.bytes, m.bytes());
}

// ---- data-fp16-overflow (unsafe) ----

ModelBuilder cast_to_half(float fill) {
  ModelBuilder m;
  m.graph().output("y", kFloat16, {2});
  m.graph().initializer(make_tensor_f32("mask", {2}, {fill, 1.f}));
  attr_int(m.graph().node("Cast", {"mask"}, {"y"}, "cast"), "to", onnx::TensorProto::FLOAT16);
  return m;
}

TEST(Fix, FloatConstantCastToHalfIsClampedWithUnsafeFixes) {
  FixOptions options;
  options.unsafe = true;
  const Fixed f = fix(cast_to_half(-1e9f), {"data-fp16-overflow"}, options);
  EXPECT_THAT(applied_rules(f.report), ElementsAre("data-fp16-overflow"));
  ASSERT_EQ(f.model.graph().initializer_size(), 1);
  const onnx::TensorProto& mask = f.model.graph().initializer(0);
  std::vector<float> values(mask.float_data().begin(), mask.float_data().end());
  if (values.empty()) {
    values.resize(mask.raw_data().size() / 4);
    std::memcpy(values.data(), mask.raw_data().data(), values.size() * 4);
  }
  EXPECT_THAT(values, ElementsAre(-65504.f, 1.f));
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, FloatConstantThatFitsHalfHasNoFinding) {
  const ModelBuilder m = cast_to_half(-60000.f);
  FixOptions options;
  options.unsafe = true;
  const Fixed f = fix(m, {"data-fp16-overflow"}, options);
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
  EXPECT_EQ(f.bytes, m.bytes());
}

TEST(Fix, HalfInfinityIsClampedToTheLargestHalf) {
  ModelBuilder m;
  m.graph().input("x", kFloat16, {2}).output("y", kFloat16, {2});
  onnx::TensorProto t;
  t.set_name("bias");
  t.set_data_type(onnx::TensorProto::FLOAT16);
  t.add_dims(2);
  const uint16_t halves[2] = {0xfc00, 0x3c00};  // -inf, 1
  t.set_raw_data(std::string(reinterpret_cast<const char*>(halves), sizeof halves));
  m.graph().initializer(t);
  m.graph().node("Add", {"x", "bias"}, {"y"}, "add");
  FixOptions options;
  options.unsafe = true;
  const Fixed f = fix(m, {"data-fp16-overflow"}, options);
  EXPECT_THAT(applied_rules(f.report), ElementsAre("data-fp16-overflow"));
  const std::string& raw = f.model.graph().initializer(0).raw_data();
  ASSERT_EQ(raw.size(), 4u);
  uint16_t out[2];
  std::memcpy(out, raw.data(), 4);
  EXPECT_EQ(out[0], 0xfbff);  // -65504
  EXPECT_EQ(out[1], 0x3c00);
}

// ---- quant-scale-length (unsafe) ----

// A weight [4, 3] dequantized per axis with 4 scales but the default axis 1 (3 elements).
ModelBuilder per_axis_weight(int64_t rows) {
  ModelBuilder m(13);
  m.graph().output("w", kFloat, {rows, 3});
  onnx::TensorProto q;
  q.set_name("q");
  q.set_data_type(onnx::TensorProto::INT8);
  q.add_dims(rows);
  q.add_dims(3);
  q.set_raw_data(std::string(static_cast<size_t>(rows * 3), '\0'));
  m.graph().initializer(q);
  m.graph().initializer(make_tensor_f32("scale", {4}, {1.f, 1.f, 1.f, 1.f}));
  m.graph().node("DequantizeLinear", {"q", "scale"}, {"w"}, "dq");
  return m;
}

TEST(Fix, PerAxisScalesMoveToTheOnlyAxisOfTheirLength) {
  FixOptions options;
  options.unsafe = true;
  const Fixed f = fix(per_axis_weight(4), {"quant-scale-length"}, options);
  EXPECT_THAT(applied_rules(f.report), ElementsAre("quant-scale-length"));
  EXPECT_THAT(describe(f.model), HasSubstr("DequantizeLinear(q,scale)->w axis=0 'dq'"));
  EXPECT_THAT(f.report.diagnostics, IsEmpty());
}

TEST(Fix, PerAxisScalesWithoutAnAxisOfTheirLengthHaveNoFix) {
  FixOptions options;
  options.unsafe = true;
  const ModelBuilder m = per_axis_weight(5);  // no axis of 4: which was meant is unknown
  const Fixed f = fix(m, {"quant-scale-length"}, options);
  ASSERT_EQ(f.report.diagnostics.size(), 1u);
  EXPECT_EQ(f.report.diagnostics[0].fix, FixSafety::None);
  EXPECT_EQ(f.bytes, m.bytes());
}

TEST(Fix, MetadataDocStringsAndNamesSurvive) {
  ModelBuilder m = with_dead_node_for_metadata();
  const Fixed f = fix(m, {"graph-dead-node"});
  EXPECT_EQ(f.model.producer_name(), m.proto().producer_name());
  EXPECT_EQ(f.model.doc_string(), "model doc");
  EXPECT_EQ(f.model.graph().doc_string(), "graph doc");
  ASSERT_EQ(f.model.metadata_props_size(), 1);
  EXPECT_EQ(f.model.metadata_props(0).key(), "author");
  EXPECT_EQ(f.model.graph().node(0).doc_string(), "node doc");
  EXPECT_EQ(f.model.graph().name(), m.proto().graph().name());
}

// ---- apply_fixes ----

TEST(ApplyFixes, ConflictingFixesAreTakenFirstComeWhole) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Abs", {"x"}, {"y"}, "a");
  Fix remove{FixSafety::Safe, "remove", {}};
  remove.edits.push_back({.kind = Edit::Kind::RemoveNode, .node = 0});
  Fix rename{FixSafety::Safe, "rename", {}};
  rename.edits.push_back({.kind = Edit::Kind::RenameNode, .node = 0, .text = "b"});
  Fix elsewhere{FixSafety::Safe, "bad", {}};
  elsewhere.edits.push_back({.kind = Edit::Kind::RenameNode, .node = 7, .text = "c"});
  onnx::ModelProto proto = m.proto();
  const ApplyOutcome outcome = apply_fixes(proto, {&rename, &remove, &elsewhere});
  EXPECT_EQ(outcome.applied, 1u);
  EXPECT_THAT(outcome.applied_fix, ElementsAre(true, false, false));
  ASSERT_EQ(outcome.skipped.size(), 2u);
  EXPECT_EQ(outcome.skipped[0].second, "another fix edits the node");
  EXPECT_EQ(outcome.skipped[1].second, "no such node");
  EXPECT_EQ(proto.graph().node(0).name(), "b");
}

TEST(ApplyFixes, EditsInASubgraphFollowItsAddress) {
  ModelBuilder m;
  m.graph().input("c", kBool).output("y");
  onnx::GraphProto branch;
  GraphBuilder b(&branch);
  b.output("t");
  b.node("Constant", {}, {"t"}, "k");
  b.node("Constant", {}, {"u"}, "dead");
  auto& node = m.graph().node("If", {"c"}, {"y"}, "if");
  attr_graph(node, "then_branch", branch);
  attr_graph(node, "else_branch", branch);
  Fix f{FixSafety::Safe, "remove", {}};
  Edit e{.kind = Edit::Kind::RemoveNode, .node = 1};
  e.graph.steps.push_back({0, "else_branch", 0});
  f.edits.push_back(e);
  onnx::ModelProto proto = m.proto();
  EXPECT_EQ(apply_fixes(proto, {&f}).applied, 1u);
  EXPECT_EQ(proto.graph().node(0).attribute(0).g().node_size(), 2);
  EXPECT_EQ(proto.graph().node(0).attribute(1).g().node_size(), 1);
}

TEST(ApplyFixes, NoTwoFixesEditOneNodeOrAGraphARemovedNodeHolds) {
  ModelBuilder m;
  m.graph().input("c", kBool).output("y");
  onnx::GraphProto branch;
  GraphBuilder b(&branch);
  b.output("t");
  b.node("Constant", {}, {"t"}, "k");
  auto& node = m.graph().node("If", {"c"}, {"y"}, "if");
  attr_graph(node, "then_branch", branch);
  attr_graph(node, "else_branch", branch);
  Fix inner{FixSafety::Safe, "rename inside", {}};
  Edit e{.kind = Edit::Kind::RenameNode, .node = 0, .text = "k2"};
  e.graph.steps.push_back({0, "then_branch", 0});
  inner.edits.push_back(e);
  Fix remove{FixSafety::Safe, "remove the If", {}};
  remove.edits.push_back({.kind = Edit::Kind::RemoveNode, .node = 0});
  Fix rename1{FixSafety::Safe, "rename", {}};
  rename1.edits.push_back({.kind = Edit::Kind::RenameNode, .node = 0, .text = "a"});
  Fix rename2{FixSafety::Safe, "rename again", {}};
  rename2.edits.push_back({.kind = Edit::Kind::RenameNode, .node = 0, .text = "b"});
  onnx::ModelProto proto = m.proto();
  const ApplyOutcome outcome = apply_fixes(proto, {&inner, &remove, &rename1, &rename2});
  EXPECT_THAT(outcome.applied_fix, ElementsAre(true, false, true, false));
  ASSERT_EQ(outcome.skipped.size(), 2u);
  EXPECT_EQ(outcome.skipped[0].second, "another fix edits a graph the node holds");
  EXPECT_EQ(outcome.skipped[1].second, "another fix edits the node");
  EXPECT_EQ(proto.graph().node(0).name(), "a");
  EXPECT_EQ(proto.graph().node(0).attribute(0).g().node(0).name(), "k2");
}

// ---- fix_model on files ----

class FixFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("onnxlint_fix_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void write(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
  }
  fs::path dir_;
};

ModelBuilder with_dead_node() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"}, "live");
  m.graph().node("Neg", {"x"}, {"d"}, "dead");
  return m;
}

TEST_F(FixFiles, WritesBesideTheInputAndNeverModifiesIt) {
  const fs::path model = dir_ / "model.onnx";
  const std::string bytes = with_dead_node().bytes();
  write(model, bytes);
  const Linter linter(builtin_registry(), LintOptions{});
  const FileReport r = fix_model(linter, model.string(), FixOptions{});
  ASSERT_TRUE(r.fixing);
  EXPECT_TRUE(r.fixing->written) << r.fixing->error;
  EXPECT_EQ(r.fixing->output, (dir_ / "model.fixed.onnx").string());
  EXPECT_EQ(r.path, (dir_ / "model.fixed.onnx").string());
  EXPECT_EQ(read(model), bytes);
  onnx::ModelProto fixed;
  ASSERT_TRUE(fixed.ParseFromString(read(dir_ / "model.fixed.onnx")));
  EXPECT_EQ(fixed.graph().node_size(), 1);
}

TEST_F(FixFiles, DryRunWritesNothing) {
  const fs::path model = dir_ / "model.onnx";
  write(model, with_dead_node().bytes());
  FixOptions options;
  options.dry_run = true;
  const FileReport r =
      fix_model(Linter(builtin_registry(), LintOptions{}), model.string(), options);
  EXPECT_FALSE(r.fixing->written);
  EXPECT_EQ(r.fixing->applied.size(), 1u);
  EXPECT_FALSE(fs::exists(dir_ / "model.fixed.onnx"));
}

TEST_F(FixFiles, RefusesAnOutputFolderThatDoesNotExist) {
  const fs::path model = dir_ / "model.onnx";
  write(model, with_dead_node().bytes());
  FixOptions options;
  options.output = dir_ / "nowhere" / "fixed.onnx";
  const FileReport r =
      fix_model(Linter(builtin_registry(), LintOptions{}), model.string(), options);
  EXPECT_FALSE(r.fixing->written);
  EXPECT_THAT(r.fixing->error, HasSubstr("does not exist"));
  EXPECT_FALSE(fs::exists(dir_ / "nowhere"));
}

TEST_F(FixFiles, RefusesToWriteOverTheInput) {
  const fs::path model = dir_ / "model.onnx";
  const std::string bytes = with_dead_node().bytes();
  write(model, bytes);
  FixOptions options;
  options.output = model;
  const FileReport r =
      fix_model(Linter(builtin_registry(), LintOptions{}), model.string(), options);
  EXPECT_FALSE(r.fixing->written);
  EXPECT_THAT(r.fixing->error, HasSubstr("is the model itself"));
  EXPECT_EQ(read(model), bytes);
}

TEST_F(FixFiles, ExternalDataIsCopiedBesideAnOutputInAnotherFolder) {
  ModelBuilder m = with_dead_node();
  onnx::TensorProto w = make_tensor_f32("w", {2}, {0.f, 0.f});
  w.clear_float_data();
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* loc = w.add_external_data();
  loc->set_key("location");
  loc->set_value("weights.bin");
  m.graph().initializer(w);
  m.graph().node("Add", {"y", "w"}, {"z"}, "uses_w");
  m.graph().output("z");
  const fs::path model = dir_ / "model.onnx";
  write(model, m.bytes());
  write(dir_ / "weights.bin", std::string(8, '\0'));
  fs::create_directories(dir_ / "out");
  FixOptions options;
  options.output = dir_ / "out" / "fixed.onnx";
  const FileReport r =
      fix_model(Linter(builtin_registry(), LintOptions{}), model.string(), options);
  EXPECT_TRUE(r.fixing->written) << r.fixing->error;
  EXPECT_THAT(r.fixing->copied_data, ElementsAre((dir_ / "out" / "weights.bin").string()));
  EXPECT_EQ(read(dir_ / "out" / "weights.bin"), std::string(8, '\0'));
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_NE(d.rule_id.rfind("data-external", 0), 0u) << d.message;
  }
}

}  // namespace
}  // namespace onnxlint::testing
