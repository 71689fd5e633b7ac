// Every model of the real-model corpus (tests/data/corpus, exported by PyTorch) satisfies its
// manifest entries for the shape-*, flow-*, export-unrolled-loop and export-baked-shape rules:
// `expect` entries are reported, `forbid` entries are not, and `clean` models get no warning or
// error from them. An entry with `at` (node or value names) holds at those places only: an
// expected finding must be reported there, a forbidden one must not be (elsewhere it may).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

bool in_family(const std::string& id) {
  return id.rfind("shape-", 0) == 0 || id.rfind("flow-", 0) == 0 || id == "export-unrolled-loop" ||
         id == "export-baked-shape";
}

nlohmann::json manifest() {
  std::ifstream in(data_path("corpus/manifest.json"));
  return nlohmann::json::parse(in);
}

std::string model_path(const nlohmann::json& entry) {
  std::string file = entry["file"];
  return data_path("corpus/" + std::filesystem::path(file).filename().string());
}

TEST(CorpusShapeFlow, ManifestExpectationsHold) {
  LintOptions o;
  o.select = {"shape", "flow", "export-unrolled-loop", "export-baked-shape"};
  Linter linter(builtin_registry(), o);
  size_t checked = 0;
  const nlohmann::json m = manifest();
  for (const auto& entry : m["models"]) {
    std::string path = model_path(entry);
    if (!std::filesystem::exists(path)) continue;  // the large models are left out
    SCOPED_TRACE(path);
    ++checked;
    FileReport r = linter.lint_file(path);
    ASSERT_EQ(r.status, FileReport::Status::Ok);
    std::set<std::string> ids;
    // (rule id, node or value name) of every finding: `at` entries name where it must be.
    std::set<std::pair<std::string, std::string>> places;
    for (const Diagnostic& d : r.diagnostics) {
      EXPECT_NE(d.rule_id, "internal-error") << d.message;
      ids.insert(d.rule_id);
      places.emplace(d.rule_id, d.location.node_name);
      places.emplace(d.rule_id, d.location.value_name);
      // An output whose shape is set by runtime values is reported with its cause: a related
      // location of the shape-data-dependent finding, not a shape-dynamic-output finding.
      for (const RelatedLocation& rel : d.related) {
        if (d.rule_id == "shape-data-dependent" && !rel.location.value_name.empty()) {
          ids.insert("shape-dynamic-output");
          places.emplace("shape-dynamic-output", rel.location.value_name);
        }
      }
    }
    auto at_any = [&](const nlohmann::json& any_of, const std::string& where) {
      for (const std::string id : any_of) {
        if (places.count({id, where})) return true;
      }
      return false;
    };
    for (const auto& e : entry.value("expect", nlohmann::json::array())) {
      bool relevant = false, found = false;
      for (const std::string id : e["any_of"]) {
        relevant |= in_family(id);
        found |= ids.count(id) > 0;
      }
      if (!relevant) continue;
      if (!e.contains("at")) {
        EXPECT_TRUE(found) << "expected one of " << e["any_of"] << ": " << e["why"];
        continue;
      }
      for (const std::string where : e["at"]) {
        EXPECT_TRUE(at_any(e["any_of"], where))
            << "expected one of " << e["any_of"] << " at '" << where << "': " << e["why"];
      }
    }
    for (const auto& e : entry.value("forbid", nlohmann::json::array())) {
      if (e.contains("at")) {
        for (const std::string where : e["at"]) {
          EXPECT_FALSE(at_any(e["any_of"], where))
              << "forbidden " << e["any_of"] << " at '" << where << "': " << e["why"];
        }
        continue;
      }
      for (const std::string id : e["any_of"]) {
        if (in_family(id)) {
          EXPECT_EQ(ids.count(id), 0u) << "forbidden " << id << ": " << e["why"];
        }
      }
    }
    if (entry.value("clean", false)) {
      std::set<std::string> accepted;
      for (const auto& e : entry.value("accept", nlohmann::json::array())) {
        for (const std::string id : e["any_of"]) accepted.insert(id);
      }
      for (const Diagnostic& d : r.diagnostics) {
        if (d.severity >= Severity::Warning && !accepted.count(d.rule_id)) {
          ADD_FAILURE() << "clean model got " << d.rule_id << ": " << d.message;
        }
      }
    }
  }
  EXPECT_GE(checked, 51u);
}

// The headline cases, precisely: where the finding is and what it says.
std::vector<std::string> lint_ids(const std::string& file, const std::string& rule) {
  return findings(rule, [&] {
    std::ifstream in(data_path("corpus/" + file), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
}

TEST(CorpusShapeFlow, BooleanMaskIndexingNamesTheNonZeroAndTheMaskChain) {
  std::ifstream in(data_path("corpus/torch_bool_mask_index_op13.onnx"), std::ios::binary);
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  auto d = diagnostics("shape-data-dependent", bytes);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.anchor(), "main/NonZero");
  EXPECT_THAT(d[0].notes[0], ::testing::HasSubstr("/Greater \u2190 input 'x'"));
  EXPECT_THAT(d[0].help, ::testing::HasSubstr("torch.where"));
}

// torchvision's SSD post-processing, unrolled once per class (3 classes): two NonZeros and one
// ConstantOfShape per class are two findings, each with its copies as related locations, and
// the help speaks of the detector's post-processing, not of tensor code.
TEST(CorpusShapeFlow, TorchvisionDetectorPostprocessingIsOneFindingPerCause) {
  std::ifstream in(data_path("corpus/torchvision_ssd_tiny_op11.onnx"), std::ios::binary);
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  EXPECT_THAT(findings("shape-data-dependent", bytes),
              ::testing::ElementsAre("shape-data-dependent main/ConstantOfShape",
                                     "shape-data-dependent main/NonZero"));
  auto d = diagnostics("shape-data-dependent", bytes);
  ASSERT_EQ(d.size(), 2u);
  std::map<std::string, std::vector<std::string>> copies;
  for (const Diagnostic& f : d) {
    for (const RelatedLocation& r : f.related) {
      if (r.message == kSameCauseMessage)
        copies[f.location.node_name].push_back(r.location.node_name);
    }
    EXPECT_THAT(f.help, ::testing::HasSubstr("post-processing"));
    EXPECT_THAT(f.help, ::testing::Not(::testing::HasSubstr("torch.where")));
  }
  EXPECT_THAT(copies["/NonZero"], ::testing::ElementsAre("/NonZero_1", "/NonZero_2", "/NonZero_3",
                                                         "/NonZero_4", "/NonZero_5"));
  EXPECT_THAT(copies["/ConstantOfShape"],
              ::testing::ElementsAre("/ConstantOfShape_1", "/ConstantOfShape_2"));
  EXPECT_EQ(d[0].location.node_name == "/NonZero" ? d[0].count : d[1].count, 6u);
  // batched_nms's scripted `if boxes.numel() == 0`: torchvision's, not the user's `if`.
  auto ifs = diagnostics("flow-data-dependent-if", bytes);
  ASSERT_EQ(ifs.size(), 1u);
  EXPECT_THAT(ifs[0].help, ::testing::HasSubstr("NonMaxSuppression"));
}

TEST(CorpusShapeFlow, DynamicBatchShowsTheReshapesThatWouldBecomeStatic) {
  EXPECT_THAT(lint_ids("torch_mha_dynamic_op14.onnx", "shape-input-dependent"),
              ::testing::ElementsAre("shape-input-dependent main/attn/Reshape",
                                     "shape-input-dependent main/attn/Reshape_1",
                                     "shape-input-dependent main/attn/Reshape_2",
                                     "shape-input-dependent main/attn/Reshape_3",
                                     "shape-input-dependent main/attn/Reshape_4"));
  EXPECT_THAT(lint_ids("torch_mha_dynamic_op14.onnx", "shape-data-dependent"),
              ::testing::IsEmpty());
}

TEST(CorpusShapeFlow, ScriptedLoops) {
  EXPECT_THAT(lint_ids("torch_script_while_data_op13.onnx", "flow-data-dependent-loop"),
              ::testing::ElementsAre("flow-data-dependent-loop main/Loop"));
  EXPECT_THAT(lint_ids("torch_script_for_tensor_count_op13.onnx", "flow-data-dependent-loop"),
              ::testing::ElementsAre("flow-data-dependent-loop main/Loop"));
  EXPECT_THAT(lint_ids("torch_script_for_size_dynamic_op13.onnx", "flow-dim-dependent-loop"),
              ::testing::ElementsAre("flow-dim-dependent-loop main/Loop"));
  EXPECT_THAT(lint_ids("torch_script_for1000_static_op13.onnx", "flow-constant-condition"),
              ::testing::ElementsAre("flow-constant-condition main/Loop"));
  EXPECT_THAT(lint_ids("torch_script_if_data_op13.onnx", "flow-data-dependent-if"),
              ::testing::ElementsAre("flow-data-dependent-if main/If"));
}

// Per-dimension facts on real exports: the place and the cause.
std::string read_corpus(const std::string& file) {
  std::ifstream in(data_path("corpus/" + file), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CorpusShapeFlow, SqueezeOfAFixedDimNextToADataDimIsAConstantCondition) {
  auto d =
      diagnostics("flow-constant-condition", read_corpus("torch_squeeze_if_after_mask_op11.onnx"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].location.node_name, "/If");
  EXPECT_THAT(d[0].message, ::testing::HasSubstr("is a constant (1): only then_branch"));
}

TEST(CorpusShapeFlow, GreedyDecodeNamesTheArgMaxAndTheGrowingTokens) {
  const std::string bytes = read_corpus("torch_script_greedy_decode_op13.onnx");
  auto loop = diagnostics("flow-data-dependent-loop", bytes);
  ASSERT_EQ(loop.size(), 1u);
  EXPECT_THAT(loop[0].notes[0], ::testing::HasSubstr("/Equal \u2190 /Gather \u2190 /ArgMax"));
  auto shape = diagnostics("shape-data-dependent", bytes);
  ASSERT_EQ(shape.size(), 1u);
  EXPECT_THAT(shape[0].message, ::testing::HasSubstr("changes the shape of its loop-carried"));
}

// Sizes frozen by tracing into models exported with dynamic_axes (gen_baked_shapes.py), and the
// near misses that must stay silent.
TEST(CorpusShapeFlow, BakedShapesAreReportedWhereTheyWereBaked) {
  EXPECT_THAT(lint_ids("torch_baked_view_batch_op13.onnx", "export-baked-shape"),
              ::testing::ElementsAre("export-baked-shape main/Reshape"));
  EXPECT_THAT(lint_ids("torch_baked_loop_dynamic_axis_op13.onnx", "export-baked-shape"),
              ::testing::ElementsAre("export-baked-shape main/Gather"));
  EXPECT_THAT(lint_ids("torch_baked_loop_dynamic_axis_op13.onnx", "export-unrolled-loop"),
              ::testing::IsEmpty());
  EXPECT_THAT(lint_ids("torch_baked_split_sizes_op13.onnx", "export-baked-shape"),
              ::testing::ElementsAre("export-baked-shape main/Split"));
  EXPECT_THAT(lint_ids("torch_baked_expand_cls_op13.onnx", "export-baked-shape"),
              ::testing::ElementsAre("export-baked-shape main/Expand"));
  EXPECT_THAT(lint_ids("torch_baked_ones_batch_op13.onnx", "export-baked-shape"),
              ::testing::ElementsAre("export-baked-shape main/Mul"));
  // torchvision's min(300, scores.size(0)): a scalar reshaped to [1] (issue 27's crash); beside
  // it, a baked view is still reported.
  EXPECT_THAT(lint_ids("torch_baked_topk_min_view_op13.onnx", "export-baked-shape"),
              ::testing::ElementsAre("export-baked-shape main/Reshape_1"));
  for (const char* f :
       {"torch_topk_min_dynamic_op11.onnx", "torch_topk_min_dynamic_op13.onnx",
        "torch_dynamic_layers_reshape_clean_op13.onnx", "torch_dynamic_kv_cache_clean_op13.onnx",
        "torch_mha_dynamic_op14.onnx", "torch_transformer_encoder_dynamic_op14.onnx",
        "torch_gru_dynamic_seq_op14.onnx", "torch_cnn_dynamic_nhw_op13.onnx",
        "torch_mlp_dynamic_batch_op13.onnx"}) {
    EXPECT_THAT(lint_ids(f, "export-baked-shape"), ::testing::IsEmpty()) << f;
  }
  std::ifstream in(data_path("corpus/torch_baked_view_batch_op13.onnx"), std::ios::binary);
  auto d = diagnostics("export-baked-shape", std::string(std::istreambuf_iterator<char>(in), {}));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, ::testing::HasSubstr("'batch' is 2"));
  EXPECT_THAT(d[0].message, ::testing::HasSubstr("Gemm '/fc/Gemm'"));
}

TEST(CorpusShapeFlow, RepeatedLayersAreNotAnUnrolledLoop) {
  EXPECT_THAT(lint_ids("torch_traced_for_unrolled_op13.onnx", "export-unrolled-loop"),
              ::testing::IsEmpty());
  EXPECT_THAT(lint_ids("torch_transformer_encoder_dynamic_op14.onnx", "export-unrolled-loop"),
              ::testing::IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
