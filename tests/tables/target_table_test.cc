// Tests for the generated deployment-target tables (include/onnxlint/targets.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "onnxlint/targets.h"

namespace onnxlint {
namespace {

const TargetInfo& target(std::string_view id) {
  const TargetInfo* t = find_target(id);
  if (t == nullptr) {
    ADD_FAILURE() << "missing target " << id;
    static const TargetInfo kEmpty{};
    return kEmpty;
  }
  return *t;
}

bool has_source(const TargetInfo& t, std::string_view fact) {
  return std::any_of(t.extra_fact_sources.begin(), t.extra_fact_sources.end(),
                     [&](const FactSource& f) { return f.fact == fact && !f.source.empty(); });
}

// Operator and unsupported counts of rules/tables/targets/*.json (also in its README), plus
// extra_facts.json's extra_ops. A table update changes these on purpose.
struct Counts {
  std::string_view id;
  size_t ops;
  size_t unsupported;
};
constexpr Counts kCounts[] = {
    {"onnx-mlir-cpu", 152, 58},
    {"onnx-mlir-nnpa", 34, 0},
    {"onnx2tf", 208, 0},
    {"onnx2tf-flatbuffer-direct", 197, 0},
    {"onnxruntime-coreml-mlprogram", 58, 0},
    {"onnxruntime-coreml-neuralnetwork", 38, 0},
    // +1 each: NonMaxSuppression, added by extra_facts.json (extra_ops); CPU also BitCast and
    // CumProd (opset 26, from ONNX Runtime 1.30 itself).
    {"onnxruntime-cpu", 297, 0},
    {"onnxruntime-cpu@1.16.0", 263, 0},
    {"onnxruntime-cpu@1.16.3", 267, 0},
    {"onnxruntime-cpu@1.17", 272, 0},
    {"onnxruntime-cpu@1.18", 274, 0},
    {"onnxruntime-cpu@1.19", 275, 0},
    {"onnxruntime-cpu@1.20", 279, 0},
    {"onnxruntime-cpu@1.21", 280, 0},
    {"onnxruntime-cpu@1.22", 280, 0},
    {"onnxruntime-cpu@1.23", 284, 0},
    {"onnxruntime-cpu@1.24", 287, 0},
    {"onnxruntime-cuda", 226, 0},
    {"onnxruntime-dml", 205, 0},
    {"onnxruntime-nnapi", 53, 0},
    {"onnxruntime-qnn", 135, 0},
    {"onnxruntime-webgpu-jsep", 118, 0},
    {"onnxruntime-webnn", 111, 0},
    {"openvino", 241, 91},
    {"openvino@2023.3", 194, 32},
    {"tensorrt", 158, 42},
    {"tensorrt@10.0", 149, 46},
    {"tensorrt@10.1", 150, 46},
    {"tensorrt@8.5", 142, 38},
    {"tensorrt@8.6", 145, 36},
};

TEST(TargetTables, EveryTableLoadsSortedById) {
  auto targets = all_targets();
  ASSERT_EQ(targets.size(), std::size(kCounts));
  for (size_t i = 0; i < targets.size(); ++i) {
    EXPECT_EQ(targets[i].id, kCounts[i].id);
    EXPECT_FALSE(targets[i].display_name.empty()) << targets[i].id;
    EXPECT_FALSE(targets[i].source_repo.empty()) << targets[i].id;
    EXPECT_FALSE(targets[i].source_path.empty()) << targets[i].id;
    EXPECT_FALSE(targets[i].source_version.empty()) << targets[i].id;
  }
}

TEST(TargetTables, OpCountsEqualTheJsonTables) {
  for (const Counts& c : kCounts) {
    const TargetInfo& t = target(c.id);
    EXPECT_EQ(t.ops.size(), c.ops) << c.id;
    EXPECT_EQ(t.unsupported.size(), c.unsupported) << c.id;
  }
}

TEST(TargetTables, OpsAreSortedUniqueAndFindable) {
  for (const TargetInfo& t : all_targets()) {
    for (size_t i = 1; i < t.ops.size(); ++i) {
      EXPECT_LT(std::make_pair(t.ops[i - 1].domain, t.ops[i - 1].op),
                std::make_pair(t.ops[i].domain, t.ops[i].op))
          << t.id << " at " << t.ops[i].op;
    }
    for (const TargetOp& op : t.ops) {
      EXPECT_EQ(find_target_op(t, op.domain, op.op), &op) << t.id << " " << op.op;
      EXPECT_FALSE(is_listed_unsupported(t, op.domain, op.op)) << t.id << " " << op.op;
      EXPECT_EQ(op.versions_known, !op.versions.empty()) << t.id << " " << op.op;
    }
    EXPECT_TRUE(std::is_sorted(t.unsupported.begin(), t.unsupported.end())) << t.id;
    for (std::string_view u : t.unsupported) {
      const size_t sep = u.find("::");
      ASSERT_NE(sep, std::string_view::npos) << u;
      EXPECT_TRUE(is_listed_unsupported(t, u.substr(0, sep), u.substr(sep + 2))) << u;
    }
  }
}

TEST(TargetTables, EveryAliasResolves) {
  const std::pair<std::string_view, std::string_view> kAliases[] = {
      {"tensorrt", "tensorrt"},
      {"ort-cpu", "onnxruntime-cpu"},
      {"ort-cuda", "onnxruntime-cuda"},
      {"ort-dml", "onnxruntime-dml"},
      {"nnapi", "onnxruntime-nnapi"},
      {"coreml", "onnxruntime-coreml-mlprogram"},
      {"coreml-nn", "onnxruntime-coreml-neuralnetwork"},
      {"openvino", "openvino"},
      {"qnn", "onnxruntime-qnn"},
      {"webgpu", "onnxruntime-webgpu-jsep"},
      {"webnn", "onnxruntime-webnn"},
      {"tflite", "onnx2tf"},
      {"onnx-mlir", "onnx-mlir-cpu"},
      {"nnpa", "onnx-mlir-nnpa"},
  };
  for (const auto& [alias, id] : kAliases) {
    const TargetInfo* t = find_target(alias);
    ASSERT_NE(t, nullptr) << alias;
    EXPECT_EQ(t->id, id) << alias;
  }
  // Every alias a table declares resolves to that table, and every id to itself.
  for (const TargetInfo& t : all_targets()) {
    EXPECT_EQ(find_target(t.id), &t);
    for (std::string_view a : t.aliases) EXPECT_EQ(find_target(a), &t) << a;
  }
  EXPECT_EQ(find_target("no-such-runtime"), nullptr);
  EXPECT_EQ(find_target(""), nullptr);
  EXPECT_NE(target_names_for_help().find("onnxruntime-cpu (ort-cpu"), std::string::npos);
}

TEST(TargetTables, TensorRtUsesModelOpsetSemantics) {
  const TargetInfo& trt = target("tensorrt");
  EXPECT_EQ(trt.semantics, VersionSemantics::ModelOpset);
  EXPECT_EQ(target_min_opset(trt, ""), 9);
  EXPECT_EQ(target_max_opset(trt, "ai.onnx"), 24);

  OpCheck conv = check_op(trt, "", "Conv", 11, 13);
  EXPECT_EQ(conv.verdict, OpVerdict::Supported) << conv.reason;
  ASSERT_NE(conv.entry, nullptr);
  EXPECT_EQ(conv.entry->op, "Conv");
  EXPECT_TRUE(conv.supported());

  OpCheck unique = check_op(trt, "ai.onnx", "Unique", 11, 13);
  EXPECT_EQ(unique.verdict, OpVerdict::ListedUnsupported);
  EXPECT_EQ(unique.reason, "TensorRT 10.15 lists Unique as not supported.");
  EXPECT_TRUE(is_listed_unsupported(trt, "", "Unique"));

  OpCheck grid = check_op(trt, "", "GridSample", 22, 25);
  EXPECT_EQ(grid.verdict, OpVerdict::VersionOutOfRange);
  EXPECT_EQ(
      grid.reason,
      "TensorRT 10.15 supports GridSample only for opset 9-24; the model imports ai.onnx 25.");
  EXPECT_EQ(check_op(trt, "", "Conv", 1, 8).verdict, OpVerdict::VersionOutOfRange);
  // The since-version is irrelevant for model_opset targets.
  EXPECT_EQ(check_op(trt, "", "Conv", 1, 24).verdict, OpVerdict::Supported);

  // An ai.onnx op in neither list (Swish, opset 24) is not supported.
  OpCheck swish = check_op(trt, "", "Swish", 24, 24);
  EXPECT_EQ(swish.verdict, OpVerdict::Unsupported);
  EXPECT_FALSE(swish.custom_domain);
  // Other domains need plugins; ai.onnx.ml is a standard domain TensorRT does not implement.
  OpCheck ms = check_op(trt, "com.microsoft", "FusedConv", 1, 1);
  EXPECT_EQ(ms.verdict, OpVerdict::Unsupported);
  EXPECT_TRUE(ms.custom_domain);
  EXPECT_NE(ms.reason.find("plugin"), std::string::npos) << ms.reason;
  OpCheck ml = check_op(trt, "ai.onnx.ml", "TreeEnsembleClassifier", 3, 3);
  EXPECT_EQ(ml.verdict, OpVerdict::Unsupported);
  EXPECT_FALSE(ml.custom_domain);
  EXPECT_EQ(ml.reason,
            "TensorRT 10.15 supports no ai.onnx.ml operators, so "
            "ai.onnx.ml:TreeEnsembleClassifier is not supported.");
}

TEST(TargetTables, OrtCpuChecksSinceVersions) {
  const TargetInfo& cpu = target("ort-cpu");
  EXPECT_EQ(cpu.semantics, VersionSemantics::OpSinceVersion);
  EXPECT_EQ(target_max_opset(cpu, ""), 26);  // ORT 1.30 (the table's oracle), not the list's 25
  EXPECT_EQ(target_max_opset(cpu, "ai.onnx.ml"), 5);
  // No floor: ORT 1.30 loads opset 1-6 models (tests/ort); old ops without a kernel are caught
  // per op below.
  EXPECT_EQ(target_min_opset(cpu, ""), 0);
  EXPECT_EQ(cpu.max_ir_version, 13);  // extra fact

  // Abs has kernels 6-12 and 13+ ([[6, null]] merged): the open range covers later versions.
  EXPECT_EQ(check_op(cpu, "", "Abs", 13, 25).verdict, OpVerdict::Supported);
  EXPECT_EQ(check_op(cpu, "", "Abs", 6, 7).verdict, OpVerdict::Supported);
  // Abs-1 (model opset 1-5) has no kernel.
  OpCheck abs1 = check_op(cpu, "", "Abs", 1, 0);
  EXPECT_EQ(abs1.verdict, OpVerdict::VersionOutOfRange);
  EXPECT_NE(abs1.reason.find("since-version 6+"), std::string::npos) << abs1.reason;

  // Upsample has CPU kernels for since-version 7-9 only; Upsample-10 (deprecated) has none.
  EXPECT_EQ(check_op(cpu, "", "Upsample", 9, 9).verdict, OpVerdict::Supported);
  OpCheck up10 = check_op(cpu, "", "Upsample", 10, 10);
  EXPECT_EQ(up10.verdict, OpVerdict::VersionOutOfRange);
  ASSERT_NE(up10.entry, nullptr);
  EXPECT_EQ(up10.reason,
            "ONNX Runtime CPU EP 1.30 has Upsample kernels only for since-version 7-9; "
            "the model's Upsample resolves to version 10.");
  // Scatter: 9-10 only.
  EXPECT_EQ(check_op(cpu, "", "Scatter", 11, 13).verdict, OpVerdict::VersionOutOfRange);

  // Model opsets outside what this ORT build accepts: 26 is released, 27 is not.
  EXPECT_EQ(check_op(cpu, "", "Abs", 13, 26).verdict, OpVerdict::Supported);
  OpCheck new_opset = check_op(cpu, "", "Abs", 13, 27);
  EXPECT_EQ(new_opset.verdict, OpVerdict::VersionOutOfRange);
  EXPECT_EQ(new_opset.reason,
            "ONNX Runtime CPU EP 1.30 accepts ai.onnx opsets up to 26; the model "
            "imports 27 (node Abs).");
  // The opset-26 ops, from ORT 1.30 itself (extra_ops).
  EXPECT_EQ(check_op(cpu, "", "CumProd", 26, 26).verdict, OpVerdict::Supported);
  EXPECT_EQ(check_op(cpu, "", "BitCast", 26, 26).verdict, OpVerdict::Supported);
  // Opset 6 is accepted: Abs-6 has a kernel, Add-6 (kernels from 7) has none.
  EXPECT_EQ(check_op(cpu, "", "Abs", 6, 6).verdict, OpVerdict::Supported);
  EXPECT_EQ(check_op(cpu, "", "Add", 6, 6).verdict, OpVerdict::VersionOutOfRange);
  // Unknown since-version / opset (0) skip the version checks.
  EXPECT_EQ(check_op(cpu, "", "Upsample", 0, 0).verdict, OpVerdict::Supported);

  // Contrib and ML domains.
  EXPECT_EQ(check_op(cpu, "com.microsoft", "FusedConv", 1, 1).verdict, OpVerdict::Supported);
  EXPECT_EQ(check_op(cpu, "ai.onnx.ml", "TreeEnsembleClassifier", 3, 3).verdict,
            OpVerdict::Supported);
  OpCheck custom = check_op(cpu, "my.company", "FancyOp", 1, 1);
  EXPECT_EQ(custom.verdict, OpVerdict::Unsupported);
  EXPECT_TRUE(custom.custom_domain);
}

TEST(TargetTables, OrtEpUnlistedOpFallsBack) {
  const TargetInfo& cuda = target("ort-cuda");
  EXPECT_TRUE(cuda.cpu_fallback);
  // The CUDA EP has no Upsample-10 kernel either; an ai.onnx.ml op is not in its list at all.
  OpCheck ml = check_op(cuda, "ai.onnx.ml", "TreeEnsembleClassifier", 3, 3);
  EXPECT_EQ(ml.verdict, OpVerdict::Unsupported);
  EXPECT_NE(ml.reason.find("fall back to the CPU"), std::string::npos) << ml.reason;
  // WebGPU (JSEP) has GridSample 16-19 only: GridSample-20 is a real uncovered since-version.
  const TargetInfo& webgpu = target("webgpu");
  EXPECT_EQ(check_op(webgpu, "", "GridSample", 16, 19).verdict, OpVerdict::Supported);
  EXPECT_EQ(check_op(webgpu, "", "GridSample", 20, 21).verdict, OpVerdict::VersionOutOfRange);
}

TEST(TargetTables, NnapiListHasNoVersions) {
  const TargetInfo& nnapi = target("nnapi");
  EXPECT_EQ(nnapi.semantics, VersionSemantics::None);
  EXPECT_FALSE(nnapi.versions_specified);

  // A listed op is accepted at any version the host ORT accepts.
  for (int since : {1, 11, 22}) {
    OpCheck conv = check_op(nnapi, "", "Conv", since, since < 7 ? 7 : since);
    EXPECT_EQ(conv.verdict, OpVerdict::Supported) << since << ": " << conv.reason;
    ASSERT_NE(conv.entry, nullptr);
    EXPECT_FALSE(conv.entry->versions_known);
    EXPECT_EQ(conv.entry->notes, "2D only; weights and bias must be constant");
  }
  EXPECT_EQ(check_op(nnapi, "com.microsoft", "QLinearAdd", 1, 1).verdict, OpVerdict::Supported);
  // ...but not beyond the host runtime's opsets.
  EXPECT_EQ(check_op(nnapi, "", "Conv", 22, 26).verdict, OpVerdict::VersionOutOfRange);

  // An unlisted op is unsupported (it falls back to the CPU EP).
  OpCheck lstm = check_op(nnapi, "", "LSTM", 22, 22);
  EXPECT_EQ(lstm.verdict, OpVerdict::Unsupported);
  EXPECT_EQ(lstm.entry, nullptr);
  EXPECT_EQ(lstm.reason,
            "ONNX Runtime NNAPI EP (main) does not support LSTM; the node would fall back to the "
            "CPU.");
  EXPECT_EQ(check_op(nnapi, "com.microsoft", "FusedConv", 1, 1).verdict, OpVerdict::Unsupported);
}

TEST(TargetTables, TypeChecks) {
  const TargetInfo& trt = target("tensorrt");
  const TargetOp* abs = find_target_op(trt, "", "Abs");
  ASSERT_NE(abs, nullptr);
  EXPECT_TRUE(type_supported(*abs, "tensor(float16)"));
  EXPECT_TRUE(type_supported(*abs, "tensor(int64)"));
  EXPECT_FALSE(type_supported(*abs, "tensor(double)"));
  EXPECT_FALSE(type_supported(*abs, "tensor(int8)"));

  // ORT CPU GridSample: kernel 16-19 is float only; 20+ adds double.
  const TargetOp* grid = find_target_op(target("onnxruntime-cpu"), "", "GridSample");
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid->typed_ranges.size(), 3u);
  EXPECT_TRUE(type_supported(*grid, "tensor(double)"));  // union
  EXPECT_FALSE(type_supported(*grid, "tensor(double)", 16));
  EXPECT_TRUE(type_supported(*grid, "tensor(float)", 16));
  EXPECT_TRUE(type_supported(*grid, "tensor(double)", 20));
  EXPECT_TRUE(type_supported(*grid, "tensor(double)", 22));
  EXPECT_FALSE(type_supported(*grid, "tensor(float16)", 22));

  // ORT CPU TopK: ORT 1.30 (the table's oracle) adds int8, uint8 and int16 to the 11-23 and
  // 24+ kernels, and still refuses uint16; TopK-10 is unchanged.
  const TargetOp* topk = find_target_op(target("onnxruntime-cpu"), "", "TopK");
  ASSERT_NE(topk, nullptr);
  EXPECT_TRUE(type_supported(*topk, "tensor(int8)", 11));
  EXPECT_TRUE(type_supported(*topk, "tensor(int16)", 23));
  EXPECT_TRUE(type_supported(*topk, "tensor(uint8)", 24));
  EXPECT_FALSE(type_supported(*topk, "tensor(uint16)", 24));
  EXPECT_FALSE(type_supported(*topk, "tensor(int8)", 10));

  // No type data means unknown, which counts as supported.
  const TargetOp* conv = find_target_op(target("nnapi"), "", "Conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_TRUE(conv->types.empty());
  EXPECT_TRUE(type_supported(*conv, "tensor(double)"));

  EXPECT_EQ(std::string_view(tensor_type_string(1)), "tensor(float)");
  EXPECT_EQ(std::string_view(tensor_type_string(10)), "tensor(float16)");
  EXPECT_EQ(std::string_view(tensor_type_string(16)), "tensor(bfloat16)");
  EXPECT_EQ(std::string_view(tensor_type_string(26)), "tensor(int2)");
  EXPECT_EQ(std::string_view(tensor_type_string(0)), "");
  EXPECT_EQ(std::string_view(tensor_type_string(99)), "");
  EXPECT_EQ(std::string_view(tensor_type_string(-1)), "");
}

TEST(TargetTables, StaticShapeAndRankFacts) {
  const TargetInfo& nnapi = target("nnapi");
  EXPECT_TRUE(nnapi.requires_static_shapes);
  EXPECT_EQ(nnapi.max_rank, 4);
  EXPECT_TRUE(has_source(nnapi, "requires_static_shapes"));
  EXPECT_TRUE(has_source(nnapi, "max_rank"));

  for (std::string_view id : {"coreml", "coreml-nn"}) {
    const TargetInfo& coreml = target(id);
    EXPECT_FALSE(coreml.requires_static_shapes) << id;  // allowed, but slower
    EXPECT_TRUE(coreml.prefers_static_shapes) << id;
    EXPECT_EQ(coreml.max_rank, 5) << id;
    EXPECT_EQ(coreml.max_dim, 16384) << id;
    EXPECT_TRUE(has_source(coreml, "requires_static_shapes")) << id;
    EXPECT_TRUE(has_source(coreml, "max_rank")) << id;
  }

  const TargetInfo& qnn = target("qnn");
  EXPECT_TRUE(qnn.requires_static_shapes);
  EXPECT_TRUE(has_source(qnn, "requires_static_shapes"));

  const TargetInfo& trt = target("tensorrt");
  EXPECT_FALSE(trt.requires_static_shapes);
  EXPECT_EQ(trt.max_rank, 8);
  EXPECT_FALSE(trt.cpu_fallback);

  const TargetInfo& ov = target("openvino");
  EXPECT_EQ(ov.max_rank, 0);  // unknown
  EXPECT_TRUE(ov.extra_fact_sources.empty());
}

TEST(TargetTables, EveryStatedFactHasASource) {
  for (const TargetInfo& t : all_targets()) {
    std::set<std::string_view> facts;
    for (const FactSource& f : t.extra_fact_sources) {
      EXPECT_FALSE(f.source.empty()) << t.id << " " << f.fact;
      facts.insert(f.fact);
    }
    // A non-default value can only come from a sourced fact.
    EXPECT_TRUE(!t.requires_static_shapes || facts.count("requires_static_shapes")) << t.id;
    EXPECT_TRUE(!t.prefers_static_shapes || facts.count("prefers_static_shapes")) << t.id;
    EXPECT_TRUE(t.max_rank == 0 || facts.count("max_rank")) << t.id;
    EXPECT_TRUE(t.max_dim == 0 || facts.count("max_dim")) << t.id;
    EXPECT_TRUE(t.max_ir_version == 0 || facts.count("max_ir_version")) << t.id;
    EXPECT_TRUE(!t.cpu_fallback || facts.count("cpu_fallback")) << t.id;
    EXPECT_TRUE(!t.constant_folding || facts.count("constant_folding")) << t.id;
    EXPECT_TRUE(!t.inlines_functions || facts.count("inlines_functions")) << t.id;
  }
}

// ONNX Runtime hosts (every onnxruntime-* target) fold constants and inline function ops; no
// other runtime claims to.
TEST(TargetTables, OrtLoadTimeFacts) {
  for (const TargetInfo& t : all_targets()) {
    const bool ort = t.id.starts_with("onnxruntime-");
    EXPECT_EQ(t.constant_folding, ort) << t.id;
    EXPECT_EQ(t.inlines_functions, ort) << t.id;
  }
  // Constant has no ORT kernel: ORT turns Constant nodes into initializers at load time.
  OpCheck c = check_op(target("ort-cpu"), "", "Constant", 13, 17);
  EXPECT_EQ(c.verdict, OpVerdict::Supported);
  EXPECT_NE(c.reason.find("initializers"), std::string::npos) << c.reason;
  EXPECT_EQ(check_op(target("onnx2tf-direct"), "", "Constant", 13, 17).verdict,
            OpVerdict::Unsupported);
}

// extra_ops: NonMaxSuppression is registered by ORT CPU (10+) and CUDA (11+) but missing from
// OperatorKernels.md.
TEST(TargetTables, ExtraOpsFillDocumentGaps) {
  const TargetInfo& cpu = target("ort-cpu");
  EXPECT_EQ(check_op(cpu, "", "NonMaxSuppression", 10, 10).verdict, OpVerdict::Supported);
  EXPECT_EQ(check_op(cpu, "", "NonMaxSuppression", 11, 17).verdict, OpVerdict::Supported);
  const TargetInfo& cuda = target("ort-cuda");
  EXPECT_EQ(check_op(cuda, "", "NonMaxSuppression", 10, 10).verdict, OpVerdict::VersionOutOfRange);
  EXPECT_EQ(check_op(cuda, "", "NonMaxSuppression", 11, 17).verdict, OpVerdict::Supported);
  EXPECT_TRUE(has_source(cpu, "extra_ops"));
  EXPECT_TRUE(has_source(cuda, "extra_ops"));
  EXPECT_FALSE(has_source(target("ort-dml"), "extra_ops"));
}

// Per-kernel, per-type-parameter sets (ORT): Pad's T on CUDA has no int64, and its fixed-type
// `pads` input is not a type parameter at all.
TEST(TargetTables, KernelTypeParameters) {
  const TargetOp* pad = find_target_op(target("ort-cuda"), "", "Pad");
  ASSERT_NE(pad, nullptr);
  const TypedRange* k13 = find_kernel(*pad, 13);
  ASSERT_NE(k13, nullptr);
  EXPECT_EQ(version_ranges_text({&k13->versions, 1}), "13-17");
  const TypeParamTypes* t = k13->find_param("T");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(std::count(t->types.begin(), t->types.end(), "tensor(int64)"), 0);
  EXPECT_EQ(std::count(t->types.begin(), t->types.end(), "tensor(float)"), 1);
  EXPECT_EQ(k13->find_param("pads"), nullptr);
  EXPECT_EQ(find_kernel(*pad, 1), nullptr);  // no kernel before Pad-2
  EXPECT_EQ(find_kernel(*pad, 0), nullptr);
  // Params are sorted for the binary search, in every ORT table.
  for (std::string_view id : {"ort-cpu", "ort-cuda", "ort-dml"}) {
    for (const TargetOp& op : target(id).ops) {
      for (const TypedRange& r : op.typed_ranges) {
        for (size_t i = 1; i < r.params.size(); ++i) {
          EXPECT_LT(r.params[i - 1].param, r.params[i].param) << id << " " << op.op;
        }
      }
    }
  }
  EXPECT_EQ(version_ranges_text({}), "");
  const VersionRange rs[] = {{1, 5}, {7, 7}, {13, 0}};
  EXPECT_EQ(version_ranges_text(rs), "1-5, 7 and 13+");
}

TEST(TargetTables, TargetSpecificExtras) {
  // OpenVINO: Acos-22 is handled by the opset-7 translator.
  const TargetInfo& ov = target("openvino");
  OpCheck acos = check_op(ov, "", "Acos", 22, 22);
  EXPECT_EQ(acos.verdict, OpVerdict::Supported);
  EXPECT_NE(acos.reason.find("predates Acos-22"), std::string::npos) << acos.reason;
  EXPECT_EQ(check_op(ov, "", "Acos", 7, 21).reason.find("predates"), std::string::npos);
  EXPECT_EQ(check_op(ov, "", "Acos", 1, 6).verdict, OpVerdict::VersionOutOfRange);

  // onnx2tf partial ops.
  const TargetInfo& tf = target("tflite");
  size_t partial = 0;
  for (const TargetOp& op : tf.ops) partial += op.status == "partial";
  EXPECT_EQ(partial, 10u);

  // onnx-mlir NNPA hardware levels.
  const TargetOp* add = find_target_op(target("nnpa"), "", "Add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->min_hw_level, "z16");

  EXPECT_EQ(to_string(OpVerdict::ListedUnsupported), "listed-unsupported");
}

}  // namespace
}  // namespace onnxlint
