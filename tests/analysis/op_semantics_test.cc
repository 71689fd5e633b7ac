// The op semantics table must cover every op of the embedded operator tables, and mark every
// input whose name says it is a shape argument.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/provenance.h>

#include <set>
#include <string>

#include "analysis/ops/registry.h"

namespace onnxlint::testing {
namespace {

TEST(OpSemantics, CoversEveryOpOfTheOperatorTables) {
  for (std::string_view domain :
       {std::string_view(""), std::string_view("ai.onnx.ml"), std::string_view("ai.onnx.preview"),
        std::string_view("ai.onnx.preview.training")}) {
    std::vector<std::string_view> ops = all_op_names(domain);
    if (domain.empty()) {
      ASSERT_GT(ops.size(), 150u);
    }
    for (std::string_view op : ops) {
      for (const OpSchema& s : op_versions(domain, op)) {
        EXPECT_NE(find_op_semantics(domain, op, s.since_version), nullptr)
            << "op semantics table misses " << (domain.empty() ? "ai.onnx" : domain) << "::" << op
            << " (opset " << s.since_version << ")";
      }
    }
  }
}

// Ops whose output element types neither the schema nor a rule decides: an attribute or the
// data picks the type among several (ai.onnx.ml encoders and trees, training ops). Inference
// leaves their outputs unknown (a declaration may state them); an op is listed here only
// deliberately, so that adding an op forces the decision.
constexpr std::string_view kTypesUnknownByDesign[] = {
    "ai.onnx.ml::CastMap",
    "ai.onnx.ml::CategoryMapper",
    "ai.onnx.ml::DictVectorizer",
    "ai.onnx.ml::LabelEncoder",
    "ai.onnx.ml::LinearClassifier",
    "ai.onnx.ml::SVMClassifier",
    "ai.onnx.ml::TreeEnsembleClassifier",
    "ai.onnx.ml::ZipMap",
    "ai.onnx.preview.training::Adagrad",
    "ai.onnx.preview.training::Adam",
    "ai.onnx.preview.training::Gradient",
    "ai.onnx.preview.training::Momentum",
};

// Every output of every schema version gets its element type from the schema (a concrete type,
// a constraint with one type, a type parameter an input binds), from the registry entry's type
// rule, from the bodies (control flow), or is listed unknown by design.
TEST(OpSemantics, EveryOutputTypeIsDecidedOrListedUnknown) {
  std::set<std::string> undecided;
  for (const OpSchema& s : all_schemas()) {
    if (s.deprecated) continue;
    const ops::OpEntry* e = ops::find_entry(s.domain, s.name, s.since_version);
    ASSERT_NE(e, nullptr) << s.name;
    if (e->types != nullptr || e->sem.shape == ShapeBehavior::ControlFlow) continue;
    for (const ParamSchema& out : s.outputs) {
      const TypeConstraint* c = s.find_constraint(out.type);
      if (c == nullptr || c->allowed.size() == 1) continue;
      bool bound = false;
      for (const ParamSchema& in : s.inputs) {
        const bool heterogeneous = in.option == ParamOption::Variadic && !in.homogeneous;
        bound = bound || (in.type == out.type && !heterogeneous);
      }
      if (!bound) {
        undecided.insert(std::string(s.domain.empty() ? "ai.onnx" : s.domain) +
                         "::" + std::string(s.name));
      }
    }
  }
  const std::set<std::string> listed(std::begin(kTypesUnknownByDesign),
                                     std::end(kTypesUnknownByDesign));
  EXPECT_EQ(undecided, listed);
}

TEST(OpSemantics, TableHasNoOpTheOperatorTablesDoNotKnow) {
  for (const OpSemantics& s : op_semantics_table()) {
    EXPECT_FALSE(op_versions(s.domain, s.op).empty()) << s.domain << "::" << s.op;
  }
}

// Inputs named like shape arguments: their values set output shapes at every version.
TEST(OpSemantics, EveryShapeArgumentInputIsMarked) {
  const std::set<std::string_view> shape_args = {"shape",
                                                 "repeats",
                                                 "tiles",
                                                 "pads",
                                                 "sizes",
                                                 "scales",
                                                 "starts",
                                                 "ends",
                                                 "axes",
                                                 "steps",
                                                 "split",
                                                 "K",
                                                 "depth",
                                                 "size",
                                                 "image_shape",
                                                 "block_shape",
                                                 "output_shape",
                                                 "frame_step",
                                                 "frame_length",
                                                 "dft_length",
                                                 "num_mel_bins",
                                                 "limit",
                                                 "start",
                                                 "delta",
                                                 "max_output_boxes_per_class"};
  size_t checked = 0;
  for (const OpSchema& s : all_schemas()) {
    if (s.deprecated) continue;
    const OpSemantics* sem = find_op_semantics(s.domain, s.name, s.since_version);
    ASSERT_NE(sem, nullptr) << s.name;
    for (size_t i = 0; i < s.inputs.size(); ++i) {
      if (!shape_args.count(s.inputs[i].name)) continue;
      if (s.inputs[i].name == "K" && s.name != "TopK") continue;  // attention keys
      ++checked;
      EXPECT_TRUE(sem->reads_value(i))
          << s.name << "-" << s.since_version << " input " << i << " '" << s.inputs[i].name
          << "' sets the output shape but is not marked";
    }
  }
  EXPECT_GT(checked, 40u);
}

// Conversely every marked input exists in the schema.
TEST(OpSemantics, MarkedInputsExistInTheSchema) {
  for (const OpSchema& s : all_schemas()) {
    if (s.deprecated) continue;
    const OpSemantics* sem = find_op_semantics(s.domain, s.name, s.since_version);
    ASSERT_NE(sem, nullptr);
    for (size_t i = 0; i < 32; ++i) {
      if (!sem->reads_value(i)) continue;
      const bool variadic_tail = !s.inputs.empty() &&
                                 s.inputs.back().option == ParamOption::Variadic &&
                                 i >= s.inputs.size() - 1;
      EXPECT_TRUE(i < s.inputs.size() || variadic_tail)
          << s.name << "-" << s.since_version << " marks input " << i;
    }
  }
}

TEST(OpSemantics, VersionedEntries) {
  EXPECT_FALSE(find_op_semantics("", "Reshape", 1)->reads_value(1));
  EXPECT_TRUE(find_op_semantics("", "Reshape", 5)->reads_value(1));
  EXPECT_TRUE(find_op_semantics("ai.onnx", "Reshape", 21)->reads_value(1));
  EXPECT_FALSE(find_op_semantics("", "Slice", 9)->reads_value(1));
  EXPECT_TRUE(find_op_semantics("", "Slice", 10)->reads_value(4));
  EXPECT_FALSE(find_op_semantics("", "ReduceMean", 17)->reads_value(1));
  EXPECT_TRUE(find_op_semantics("", "ReduceMean", 18)->reads_value(1));
  EXPECT_TRUE(find_op_semantics("", "ReduceSum", 13)->reads_value(1));
  const OpSemantics* resize = find_op_semantics("", "Resize", 19);
  EXPECT_FALSE(resize->reads_value(1));  // roi does not change the output shape
  EXPECT_TRUE(resize->reads_value(2));
  EXPECT_TRUE(resize->reads_value(3));
  EXPECT_TRUE(find_op_semantics("", "Pad", 18)->reads_value(3));
  EXPECT_TRUE(find_op_semantics("", "TopK", 11)->reads_value(1));
  EXPECT_FALSE(find_op_semantics("", "TopK", 1)->reads_value(1));
}

TEST(OpSemantics, DataDependentAndShapeToValueOps) {
  for (std::string_view op :
       {"NonZero", "Unique", "Compress", "NonMaxSuppression", "StringSplit"}) {
    EXPECT_EQ(find_op_semantics("", op, 27)->shape, ShapeBehavior::DataDependent) << op;
  }
  const OpSemantics* unique = find_op_semantics("", "Unique", 11);
  EXPECT_TRUE(unique->affects_output(0));
  EXPECT_FALSE(unique->affects_output(2));  // inverse_indices: one per input element
  for (std::string_view op : {"Shape", "Size"}) {
    const OpSemantics* s = find_op_semantics("", op, 27);
    EXPECT_EQ(s->shape, ShapeBehavior::ShapeToValue);
    EXPECT_EQ(s->value, ValueBehavior::FromShape);
  }
  EXPECT_FALSE(find_op_semantics("", "ConstantOfShape", 9)->input_shapes);
  EXPECT_EQ(find_op_semantics("", "Loop", 1)->shape, ShapeBehavior::ControlFlow);
  EXPECT_EQ(find_op_semantics("", "RandomNormal", 1)->value, ValueBehavior::Random);
}

TEST(OpSemantics, UnknownOpsGetTheConservativeDefault) {
  EXPECT_EQ(find_op_semantics("custom.domain", "Foo", 1), nullptr);
  EXPECT_EQ(find_op_semantics("", "NoSuchOp", 13), nullptr);
  const OpSemantics& u = unknown_op_semantics();
  EXPECT_EQ(u.shape, ShapeBehavior::Unknown);
  EXPECT_EQ(u.value, ValueBehavior::Unknown);
  EXPECT_TRUE(u.input_shapes);
  EXPECT_EQ(u.value_inputs, 0u);
}

}  // namespace
}  // namespace onnxlint::testing
