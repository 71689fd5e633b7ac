// Tests for the embedded ONNX operator tables (include/onnxlint/opset_table.h).
// Expected values are facts of ONNX 1.22.0 (rules/tables/onnx-operators.json, Versioning.md,
// onnx.proto), so a wrong generator, sort order or lookup makes them fail.
#include "onnxlint/opset_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace onnxlint {
namespace {

using namespace std::string_view_literals;

TEST(OpsetTable, CountsMatchTheDataReadme) {
  size_t per_domain_versions[5] = {};
  const auto domains = all_domains();
  ASSERT_EQ(domains.size(), 5u);
  for (const OpSchema& s : all_schemas()) {
    for (size_t i = 0; i < domains.size(); ++i) {
      if (domains[i].domain == s.domain) ++per_domain_versions[i];
    }
  }
  EXPECT_EQ(all_schemas().size(), 639u);
  EXPECT_EQ(all_op_names("").size(), 202u);
  EXPECT_EQ(all_op_names("ai.onnx").size(), 202u);
  EXPECT_EQ(all_op_names("ai.onnx.ml").size(), 19u);
  EXPECT_EQ(all_op_names("ai.onnx.preview").size(), 1u);
  EXPECT_EQ(all_op_names("ai.onnx.preview.training").size(), 4u);
  EXPECT_TRUE(all_op_names("ai.onnx.training").empty());
  EXPECT_TRUE(all_op_names("com.microsoft").empty());
  // Domains are sorted: "", ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training, ...
  EXPECT_EQ(per_domain_versions[0], 609u);
  EXPECT_EQ(per_domain_versions[1], 25u);
  EXPECT_EQ(per_domain_versions[2], 1u);
  EXPECT_EQ(per_domain_versions[3], 4u);
  EXPECT_EQ(per_domain_versions[4], 0u);
  EXPECT_EQ(onnx_data_version(), "1.22.0");
}

TEST(OpsetTable, SchemasAreSortedAndRangesContiguous) {
  const auto schemas = all_schemas();
  for (size_t i = 1; i < schemas.size(); ++i) {
    const OpSchema& a = schemas[i - 1];
    const OpSchema& b = schemas[i];
    ASSERT_LT(std::tie(a.domain, a.name, a.since_version),
              std::tie(b.domain, b.name, b.since_version))
        << a.name << "-" << a.since_version;
    if (a.domain == b.domain && a.name == b.name) {
      EXPECT_EQ(a.until_version + 1, b.since_version) << a.name;
    }
  }
  for (const OpSchema& s : schemas) {
    EXPECT_TRUE(std::is_sorted(s.attributes.begin(), s.attributes.end(),
                               [](const auto& x, const auto& y) { return x.name < y.name; }))
        << s.name;
  }
}

TEST(OpsetTable, DomainNormalization) {
  EXPECT_EQ(normalize_domain("ai.onnx"), "");
  EXPECT_EQ(normalize_domain(""), "");
  EXPECT_EQ(normalize_domain("ai.onnx.ml"), "ai.onnx.ml");
  EXPECT_EQ(normalize_domain("com.microsoft"), "com.microsoft");
  EXPECT_TRUE(is_standard_domain(""));
  EXPECT_TRUE(is_standard_domain("ai.onnx"));
  EXPECT_TRUE(is_standard_domain("ai.onnx.ml"));
  EXPECT_TRUE(is_standard_domain("ai.onnx.preview"));
  EXPECT_TRUE(is_standard_domain("ai.onnx.preview.training"));
  EXPECT_TRUE(is_standard_domain("ai.onnx.training"));
  EXPECT_FALSE(is_standard_domain("com.microsoft"));
  EXPECT_FALSE(is_standard_domain("ai.onnx.contrib"));
  EXPECT_FALSE(is_standard_domain("AI.ONNX"));

  const DomainInfo* d = find_domain("ai.onnx");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->domain, "");
  EXPECT_EQ(d->name, "ai.onnx");
  EXPECT_EQ(d->min_opset, 1);
  EXPECT_EQ(d->max_opset, 27);
  const DomainInfo* ml = find_domain("ai.onnx.ml");
  ASSERT_NE(ml, nullptr);
  EXPECT_EQ(ml->max_opset, 5);
  EXPECT_EQ(find_domain("com.microsoft"), nullptr);

  // "ai.onnx" and "" resolve to the same schema.
  EXPECT_EQ(resolve_schema("ai.onnx", "Conv", 11), resolve_schema("", "Conv", 11));
}

TEST(OpsetTable, ResolveSchema) {
  const OpSchema* conv = resolve_schema("", "Conv", 11);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->name, "Conv");
  EXPECT_EQ(conv->since_version, 11);
  EXPECT_EQ(conv->until_version, 21);
  EXPECT_EQ(resolve_schema("", "Conv", 10)->since_version, 1);
  EXPECT_EQ(resolve_schema("", "Conv", 21)->since_version, 11);
  EXPECT_EQ(resolve_schema("", "Conv", 22)->since_version, 22);
  EXPECT_EQ(resolve_schema("", "Conv", 27)->since_version, 22);
  // Beyond the known max opset the newest schema still applies (as in the onnx registry).
  EXPECT_EQ(resolve_schema("", "Conv", 1000)->since_version, 22);
  EXPECT_EQ(resolve_schema("", "Conv", 0), nullptr);
  EXPECT_EQ(resolve_schema("", "Conv", -5), nullptr);

  EXPECT_EQ(resolve_schema("", "GridSample", 13), nullptr);
  EXPECT_EQ(resolve_schema("", "GridSample", 15), nullptr);
  ASSERT_NE(resolve_schema("", "GridSample", 16), nullptr);
  EXPECT_EQ(first_version("", "GridSample"), 16);
  EXPECT_EQ(first_version("ai.onnx", "Attention"), 23);
  EXPECT_EQ(first_version("", "NoSuchOp"), std::nullopt);

  EXPECT_EQ(resolve_schema("", "conv", 11), nullptr);  // op names are case-sensitive
  EXPECT_EQ(resolve_schema("com.microsoft", "Conv", 11), nullptr);
  EXPECT_EQ(resolve_schema("ai.onnx.ml", "Conv", 11), nullptr);

  const OpSchema* le = resolve_schema("ai.onnx.ml", "LabelEncoder", 5);
  ASSERT_NE(le, nullptr);
  EXPECT_EQ(le->domain, "ai.onnx.ml");
  EXPECT_EQ(le->since_version, 4);
  EXPECT_EQ(resolve_schema("", "LabelEncoder", 20), nullptr);
}

TEST(OpsetTable, OpVersions) {
  const auto versions = op_versions("", "Abs");
  ASSERT_EQ(versions.size(), 3u);
  EXPECT_EQ(versions[0].since_version, 1);
  EXPECT_EQ(versions[1].since_version, 6);
  EXPECT_EQ(versions[2].since_version, 13);
  EXPECT_EQ(versions[2].until_version, 27);
  EXPECT_TRUE(op_versions("", "Nope").empty());
  EXPECT_TRUE(op_versions("", "").empty());
  // The first and last ops of the sorted table are reachable.
  EXPECT_FALSE(op_versions("", "Abs").empty());
  EXPECT_FALSE(op_versions("ai.onnx.preview.training", "Momentum").empty());
}

TEST(OpsetTable, DeprecatedAndExperimental) {
  const OpSchema* up10 = resolve_schema("", "Upsample", 10);
  ASSERT_NE(up10, nullptr);
  EXPECT_TRUE(up10->deprecated);
  EXPECT_EQ(up10->since_version, 10);
  EXPECT_TRUE(up10->inputs.empty());  // no published signature for deprecated entries
  EXPECT_TRUE(up10->attributes.empty());
  EXPECT_EQ(resolve_schema("", "Upsample", 27), up10);

  const OpSchema* up9 = resolve_schema("", "Upsample", 9);
  ASSERT_NE(up9, nullptr);
  EXPECT_FALSE(up9->deprecated);
  EXPECT_EQ(up9->inputs.size(), 2u);

  EXPECT_TRUE(resolve_schema("", "Upsample", 1)->experimental);
  EXPECT_FALSE(resolve_schema("", "Upsample", 7)->experimental);
  EXPECT_TRUE(resolve_schema("", "Scatter", 11)->deprecated);
  EXPECT_FALSE(resolve_schema("", "Scatter", 10)->deprecated);
  EXPECT_TRUE(resolve_schema("", "GroupNormalization", 18)->deprecated);
  EXPECT_FALSE(resolve_schema("", "GroupNormalization", 21)->deprecated);
  EXPECT_TRUE(resolve_schema("ai.onnx.ml", "TreeEnsembleClassifier", 5)->deprecated);
  EXPECT_TRUE(resolve_schema("ai.onnx.preview", "FlexAttention", 1)->experimental);

  size_t deprecated = 0;
  size_t experimental = 0;
  for (const OpSchema& s : all_schemas()) {
    deprecated += s.deprecated;
    experimental += s.experimental;
  }
  EXPECT_EQ(deprecated, 5u);
  EXPECT_EQ(experimental, 2u);
}

TEST(OpsetTable, FunctionFlags) {
  EXPECT_TRUE(resolve_schema("", "Relu", 14)->has_function);  // added after 1.12 (README)
  EXPECT_FALSE(resolve_schema("", "Conv", 22)->has_function);
  EXPECT_TRUE(resolve_schema("", "Clip", 13)->has_context_dependent_function);
  EXPECT_FALSE(resolve_schema("", "Clip", 13)->has_function);
}

TEST(OpsetTable, Attributes) {
  const OpSchema* r18 = resolve_schema("", "Resize", 18);
  const OpSchema* r13 = resolve_schema("", "Resize", 13);
  ASSERT_NE(r18, nullptr);
  ASSERT_NE(r13, nullptr);
  const AttributeSchema* aa = r18->find_attribute("antialias");
  ASSERT_NE(aa, nullptr);
  EXPECT_EQ(aa->type, AttrType::Int);
  EXPECT_FALSE(aa->required);
  EXPECT_TRUE(aa->has_default);
  EXPECT_EQ(aa->default_text, "0");
  EXPECT_EQ(r13->find_attribute("antialias"), nullptr);
  EXPECT_EQ(r13->find_attribute(""), nullptr);
  EXPECT_EQ(r13->find_attribute("zzz"), nullptr);
  EXPECT_EQ(r18->find_attribute("mode")->default_text, "nearest");
  EXPECT_EQ(r18->find_attribute("cubic_coeff_a")->default_text, "-0.75");
  EXPECT_EQ(r18->find_attribute("cubic_coeff_a")->type, AttrType::Float);
  EXPECT_EQ(r18->find_attribute("axes")->type, AttrType::Ints);
  EXPECT_FALSE(r18->find_attribute("axes")->has_default);
  EXPECT_EQ(r18->find_attribute("axes")->default_text, "");

  const AttributeSchema* axis = resolve_schema("", "Concat", 13)->find_attribute("axis");
  ASSERT_NE(axis, nullptr);
  EXPECT_TRUE(axis->required);
  EXPECT_FALSE(axis->has_default);

  // FLOAT defaults keep their exact float32 spelling; lists render as JSON arrays.
  EXPECT_EQ(resolve_schema("", "BatchNormalization", 15)->find_attribute("epsilon")->default_text,
            "1e-05");
  EXPECT_EQ(resolve_schema("", "Clip", 6)->find_attribute("max")->default_text, "3.4028235e+38");
  EXPECT_EQ(resolve_schema("", "RNN", 22)->find_attribute("activations")->default_text,
            "[\"Tanh\", \"Tanh\"]");
  EXPECT_EQ(
      resolve_schema("", "MeanVarianceNormalization", 13)->find_attribute("axes")->default_text,
      "[0, 2, 3]");
  EXPECT_EQ(resolve_schema("ai.onnx.preview.training", "Adam", 1)
                ->find_attribute("epsilon")
                ->default_text,
            "1e-06");
  EXPECT_EQ(resolve_schema("", "If", 21)->find_attribute("then_branch")->type, AttrType::Graph);
  EXPECT_EQ(resolve_schema("", "Cast", 1)->find_attribute("to")->type, AttrType::String);
  EXPECT_EQ(resolve_schema("", "Cast", 6)->find_attribute("to")->type, AttrType::Int);

  EXPECT_EQ(attr_type_name(AttrType::Ints), "INTS");
  EXPECT_EQ(attr_type_name(AttrType::SparseTensor), "SPARSE_TENSOR");
  EXPECT_EQ(attr_type_name(AttrType::TypeProtos), "TYPE_PROTOS");
  EXPECT_EQ(attr_type_name(static_cast<AttrType>(99)), "UNDEFINED");
  EXPECT_EQ(static_cast<int>(AttrType::Graphs), 10);
}

TEST(OpsetTable, Arity) {
  const OpSchema* concat = resolve_schema("", "Concat", 13);
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(concat->min_input, 1);
  EXPECT_EQ(concat->max_input, kUnboundedArity);
  EXPECT_EQ(concat->min_output, 1);
  EXPECT_EQ(concat->max_output, 1);
  ASSERT_EQ(concat->inputs.size(), 1u);
  EXPECT_EQ(concat->inputs[0].name, "inputs");
  EXPECT_EQ(concat->inputs[0].option, ParamOption::Variadic);
  EXPECT_EQ(concat->inputs[0].min_arity, 1);
  EXPECT_TRUE(concat->inputs[0].homogeneous);

  const OpSchema* conv = resolve_schema("", "Conv", 22);
  EXPECT_EQ(conv->min_input, 2);
  EXPECT_EQ(conv->max_input, 3);
  ASSERT_EQ(conv->inputs.size(), 3u);
  EXPECT_EQ(conv->inputs[0].option, ParamOption::Single);
  EXPECT_EQ(conv->inputs[0].min_arity, 1);
  EXPECT_EQ(conv->inputs[2].name, "B");
  EXPECT_EQ(conv->inputs[2].option, ParamOption::Optional);
  EXPECT_EQ(conv->inputs[2].min_arity, 0);

  const OpSchema* split = resolve_schema("", "Split", 18);
  EXPECT_EQ(split->max_output, kUnboundedArity);
  EXPECT_EQ(split->outputs.back().option, ParamOption::Variadic);

  // Loop's variadic v_initial is heterogeneous with min arity 0.
  const OpSchema* loop = resolve_schema("", "Loop", 21);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->inputs.back().option, ParamOption::Variadic);
  EXPECT_FALSE(loop->inputs.back().homogeneous);
  EXPECT_EQ(loop->inputs.back().min_arity, 0);
}

TEST(OpsetTable, TypeConstraints) {
  const OpSchema* conv = resolve_schema("", "Conv", 11);
  const TypeConstraint* t = conv->find_constraint("T");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->param, "T");
  EXPECT_EQ(std::vector<std::string_view>(t->allowed.begin(), t->allowed.end()),
            (std::vector<std::string_view>{"tensor(float16)", "tensor(float)", "tensor(double)"}));
  EXPECT_TRUE(t->allows("tensor(float)"));
  EXPECT_FALSE(t->allows("tensor(int64)"));
  EXPECT_FALSE(t->allows("tensor(bfloat16)"));
  EXPECT_TRUE(resolve_schema("", "Conv", 22)->find_constraint("T")->allows("tensor(bfloat16)"));
  EXPECT_EQ(conv->find_constraint("T1"), nullptr);

  // Erf-13 was narrowed to float types (README: a later upstream edit).
  const TypeConstraint* erf = resolve_schema("", "Erf", 13)->find_constraint("T");
  EXPECT_FALSE(erf->allows("tensor(int32)"));
  EXPECT_TRUE(erf->allows("tensor(bfloat16)"));

  // Concrete parameter types and constraint-typed parameters both go through param_accepts.
  const OpSchema* reshape = resolve_schema("", "Reshape", 14);
  ASSERT_EQ(reshape->inputs.size(), 2u);
  EXPECT_EQ(reshape->inputs[1].type, "tensor(int64)");
  EXPECT_TRUE(reshape->param_accepts(reshape->inputs[1], "tensor(int64)"));
  EXPECT_FALSE(reshape->param_accepts(reshape->inputs[1], "tensor(int32)"));
  EXPECT_TRUE(reshape->param_accepts(reshape->inputs[0], "tensor(string)"));

  // Cast-19 is the first Cast whose output may be float8.
  EXPECT_FALSE(
      resolve_schema("", "Cast", 13)->find_constraint("T2")->allows(tensor_type_string(17)));
  EXPECT_TRUE(
      resolve_schema("", "Cast", 19)->find_constraint("T2")->allows(tensor_type_string(17)));

  // Non-tensor type strings are copied verbatim, including the spacing of map types.
  const OpSchema* zipmap = resolve_schema("ai.onnx.ml", "ZipMap", 1);
  ASSERT_NE(zipmap, nullptr);
  EXPECT_TRUE(zipmap->find_constraint("T")->allows("seq(map(string, float))"));

  // Every parameter type is either a declared constraint or a concrete type string.
  for (const OpSchema& s : all_schemas()) {
    for (auto params : {s.inputs, s.outputs}) {
      for (const ParamSchema& p : params) {
        const bool concrete = p.type.find('(') != std::string_view::npos;
        EXPECT_TRUE(concrete || s.find_constraint(p.type) != nullptr) << s.name << " " << p.name;
      }
    }
  }
}

TEST(OpsetTable, ClosestOpNames) {
  const auto conv = closest_op_names("", "Conv2d");
  ASSERT_FALSE(conv.empty());
  EXPECT_EQ(conv[0], "Conv");

  const auto relu = closest_op_names("", "Relu6");
  ASSERT_FALSE(relu.empty());
  EXPECT_EQ(relu[0], "Relu");
  EXPECT_LE(relu.size(), 3u);

  const auto lower = closest_op_names("ai.onnx", "matmul");
  ASSERT_FALSE(lower.empty());
  EXPECT_EQ(lower[0], "MatMul");  // case-insensitive: distance 0

  // Abbreviations are found through the prefix rule.
  const auto bn = closest_op_names("", "BatchNorm");
  ASSERT_FALSE(bn.empty());
  EXPECT_EQ(bn[0], "BatchNormalization");

  EXPECT_EQ(closest_op_names("", "Relu6", 1).size(), 1u);
  EXPECT_TRUE(closest_op_names("", "X").empty());  // short names allow only one edit
  EXPECT_TRUE(closest_op_names("", "CompletelyUnrelatedThing").empty());
  EXPECT_TRUE(closest_op_names("com.microsoft", "Conv").empty());
  const auto ml = closest_op_names("ai.onnx.ml", "LabelEncoders");
  ASSERT_FALSE(ml.empty());
  EXPECT_EQ(ml[0], "LabelEncoder");
}

TEST(OpsetTable, DomainsDefining) {
  EXPECT_EQ(domains_defining("LabelEncoder"), (std::vector<std::string_view>{"ai.onnx.ml"}));
  EXPECT_EQ(domains_defining("Conv"), (std::vector<std::string_view>{""}));
  EXPECT_TRUE(domains_defining("FusedConv").empty());
}

TEST(OpsetTable, Releases) {
  const auto releases = onnx_releases();
  ASSERT_EQ(releases.size(), 33u);
  EXPECT_EQ(releases.front().release, "1.0");
  EXPECT_EQ(releases.front().ir_version, 3);
  EXPECT_EQ(releases.front().ai_onnx_training, 0);
  EXPECT_EQ(releases.back().release, "1.22.0");
  EXPECT_EQ(releases.back().ir_version, 13);
  EXPECT_EQ(releases.back().ai_onnx, 27);
  EXPECT_EQ(releases.back().ai_onnx_ml, 5);
  EXPECT_EQ(releases.back().ai_onnx_training, 1);
  EXPECT_EQ(max_known_ir_version(), 13);

  EXPECT_EQ(min_ir_version_for_opset("", 13), 7);
  EXPECT_EQ(first_release_for_opset("", 13), "1.8.0");
  EXPECT_EQ(min_ir_version_for_opset("ai.onnx", 17), 8);
  EXPECT_EQ(first_release_for_opset("", 17), "1.12.0");
  EXPECT_EQ(min_ir_version_for_opset("", 1), 3);
  EXPECT_EQ(min_ir_version_for_opset("", 9), 4);
  EXPECT_EQ(min_ir_version_for_opset("", 19), 9);
  EXPECT_EQ(min_ir_version_for_opset("", 21), 10);
  EXPECT_EQ(min_ir_version_for_opset("", 23), 11);
  EXPECT_EQ(min_ir_version_for_opset("", 27), 13);
  EXPECT_EQ(min_ir_version_for_opset("", 28), std::nullopt);
  EXPECT_EQ(first_release_for_opset("", 28), "");
  EXPECT_EQ(min_ir_version_for_opset("", 0), std::nullopt);
  EXPECT_EQ(min_ir_version_for_opset("ai.onnx.ml", 2), 6);
  EXPECT_EQ(first_release_for_opset("ai.onnx.ml", 4), "1.15.0");
  EXPECT_EQ(min_ir_version_for_opset("ai.onnx.ml", 5), 10);
  EXPECT_EQ(min_ir_version_for_opset("ai.onnx.ml", 6), std::nullopt);
  EXPECT_EQ(min_ir_version_for_opset("ai.onnx.training", 1), 7);
  EXPECT_EQ(min_ir_version_for_opset("ai.onnx.preview.training", 1), std::nullopt);
  EXPECT_EQ(min_ir_version_for_opset("com.microsoft", 1), std::nullopt);
}

TEST(OpsetTable, ElementTypes) {
  EXPECT_EQ(element_type_from_name("int64"), 7);
  EXPECT_EQ(element_type_from_name("tensor(float16)"), 10);
  EXPECT_EQ(element_type_from_name("tensor()"), std::nullopt);
  EXPECT_EQ(element_type_from_name("float32"), std::nullopt);

  EXPECT_EQ(min_ir_version_for_element_type(1), 3);
  EXPECT_EQ(min_ir_version_for_element_type(16), 4);
  for (int dt = 17; dt <= 20; ++dt) EXPECT_EQ(min_ir_version_for_element_type(dt), 9) << dt;
  EXPECT_EQ(min_ir_version_for_element_type(21), 10);
  EXPECT_EQ(min_ir_version_for_element_type(22), 10);
  EXPECT_EQ(min_ir_version_for_element_type(23), 11);
  EXPECT_EQ(min_ir_version_for_element_type(24), 12);
  EXPECT_EQ(min_ir_version_for_element_type(25), 13);
  EXPECT_EQ(min_ir_version_for_element_type(0), 0);
  EXPECT_EQ(min_ir_version_for_element_type(99), 0);

  EXPECT_STREQ(tensor_type_string(1), "tensor(float)");
  EXPECT_STREQ(tensor_type_string(24), "tensor(float8e8m0)");
  EXPECT_STREQ(tensor_type_string(0), "");
  EXPECT_STREQ(tensor_type_string(1234), "");

  // Every tensor(...) type string in the schemas maps to a known element type, and back.
  std::set<std::string_view> seen;
  for (const OpSchema& s : all_schemas()) {
    for (const TypeConstraint& c : s.type_constraints) {
      for (std::string_view t : c.allowed) {
        if (t.starts_with("tensor(")) seen.insert(t);
      }
    }
  }
  EXPECT_EQ(seen.size(), 26u);  // every DataType except UNDEFINED appears somewhere
  for (std::string_view t : seen) {
    const auto dt = element_type_from_name(t);
    ASSERT_TRUE(dt.has_value()) << t;
    EXPECT_EQ(tensor_type_string(*dt), t);
  }
}

TEST(ValueAvailability, TableHits) {
  const ValueAvailability* wrap = find_value_availability("", "Pad", "mode", "wrap");
  ASSERT_NE(wrap, nullptr);
  EXPECT_EQ(wrap->since_opset, 19);
  EXPECT_NE(wrap->source.find("Pad-19"), std::string_view::npos);
  EXPECT_EQ(find_value_availability("", "Pad", "mode", "reflect"), nullptr);
  EXPECT_EQ(find_value_availability("ai.onnx", "Pad", "mode", "wrap"), wrap);

  const ValueAvailability* aa = find_value_availability("", "Resize", "antialias", "1");
  ASSERT_NE(aa, nullptr);
  EXPECT_EQ(aa->value, "*");
  EXPECT_EQ(aa->since_opset, 18);
  EXPECT_EQ(
      find_value_availability("", "Resize", "keep_aspect_ratio_policy", "not_larger")->since_opset,
      18);
  EXPECT_EQ(find_value_availability("", "Resize", "axes", "*")->since_opset, 18);
  EXPECT_EQ(find_value_availability("", "Resize", "coordinate_transformation_mode",
                                    "half_pixel_symmetric")
                ->since_opset,
            19);
  EXPECT_EQ(find_value_availability("", "Resize", "coordinate_transformation_mode", "half_pixel"),
            nullptr);
  EXPECT_EQ(find_value_availability("", "Resize", "mode", "cubic")->since_opset, 11);

  for (std::string_view op : {"ScatterND"sv, "ScatterElements"sv}) {
    EXPECT_EQ(find_value_availability("", op, "reduction", "add")->since_opset, 16) << op;
    EXPECT_EQ(find_value_availability("", op, "reduction", "mul")->since_opset, 16) << op;
    EXPECT_EQ(find_value_availability("", op, "reduction", "max")->since_opset, 18) << op;
    EXPECT_EQ(find_value_availability("", op, "reduction", "min")->since_opset, 18) << op;
    // "none" has no row of its own: the attribute-level "*" row answers.
    const ValueAvailability* none = find_value_availability("", op, "reduction", "none");
    ASSERT_NE(none, nullptr) << op;
    EXPECT_EQ(none->value, "*");
    EXPECT_EQ(none->since_opset, 16);
  }
  EXPECT_EQ(find_value_availability("", "GridSample", "mode", "linear")->since_opset, 20);
  EXPECT_EQ(find_value_availability("", "GridSample", "mode", "cubic")->since_opset, 20);
  EXPECT_EQ(find_value_availability("", "GridSample", "mode", "bilinear"), nullptr);
  EXPECT_EQ(find_value_availability("", "ReduceMean", "noop_with_empty_axes", "1")->since_opset,
            18);
  EXPECT_EQ(find_value_availability("", "ReduceSum", "noop_with_empty_axes", "0")->since_opset, 13);
  EXPECT_EQ(find_value_availability("ai.onnx.ml", "Pad", "mode", "wrap"), nullptr);
  EXPECT_EQ(find_value_availability("", "Conv", "auto_pad", "VALID"), nullptr);
}

// The curated table must agree with the schema table: sorted, every op/attribute exists at
// since_opset, "*" rows name attributes that are absent one version earlier, and a value row
// whose attribute is also new has a matching "*" row.
TEST(ValueAvailability, ConsistentWithSchemas) {
  const auto table = value_availability_table();
  ASSERT_GE(table.size(), 20u);
  for (size_t i = 1; i < table.size(); ++i) {
    const auto& a = table[i - 1];
    const auto& b = table[i];
    EXPECT_LT(std::tie(a.domain, a.op, a.attribute, a.value),
              std::tie(b.domain, b.op, b.attribute, b.value))
        << b.op << "." << b.attribute << "=" << b.value;
  }
  for (const ValueAvailability& e : table) {
    SCOPED_TRACE(std::string(e.op) + "." + std::string(e.attribute) + "=" + std::string(e.value));
    EXPECT_FALSE(e.source.empty());
    EXPECT_EQ(e.domain, normalize_domain(e.domain));
    const OpSchema* at = resolve_schema(e.domain, e.op, e.since_opset);
    ASSERT_NE(at, nullptr);
    EXPECT_EQ(at->since_version, e.since_opset);  // a new schema version introduced it
    ASSERT_NE(at->find_attribute(e.attribute), nullptr);
    const OpSchema* before = resolve_schema(e.domain, e.op, e.since_opset - 1);
    const bool existed_before = before != nullptr && before->find_attribute(e.attribute);
    if (e.value == "*") {
      EXPECT_FALSE(existed_before);
    } else if (!existed_before) {
      // The value arrived together with its attribute: a "*" row must cover the attribute.
      const ValueAvailability* any = find_value_availability(e.domain, e.op, e.attribute, "*");
      ASSERT_NE(any, nullptr);
      EXPECT_EQ(any->since_opset, e.since_opset);
    }
  }
}

}  // namespace
}  // namespace onnxlint
