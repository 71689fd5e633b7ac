// The PyTorch-exported corpus (tests/data/corpus) against several target runtimes: every model
// lints without internal errors and gets a fallback estimate per target; findings agree with the
// estimate; manifest entries naming target-* rules hold; and a few models give the exact
// findings the support tables imply.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::vector<std::string> kTargets = {"tensorrt",          "onnxruntime-cpu",
                                           "onnxruntime-nnapi", "onnxruntime-coreml-mlprogram",
                                           "openvino",          "onnx-mlir-cpu"};

struct Result {
  FileReport report;
  nlohmann::json estimates;  // sections.targets
};

Result lint(const std::string& file, const std::vector<std::string>& targets,
            std::vector<std::string> select = {"target"}) {
  LintOptions options;
  options.select = std::move(select);
  options.targets = targets;
  Linter linter(builtin_registry(), options);
  Result r{linter.lint_file(data_path("corpus/" + file)), nullptr};
  for (const ReportSection& s : r.report.sections) {
    if (s.name == "targets") r.estimates = s.data;
  }
  return r;
}

// "<rule> <anchor> @<target>" for one rule, sorted.
std::vector<std::string> lines(const Result& r, const std::string& rule) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.report.diagnostics) {
    if (d.rule_id == rule) out.push_back(d.rule_id + " " + d.location.anchor() + " @" + d.target);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(data_path("corpus"))) {
    if (e.path().extension() == ".onnx") out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CorpusTargets, EveryModelGetsAnEstimatePerTarget) {
  const auto files = corpus_files();
  ASSERT_GE(files.size(), 39u);
  for (const std::string& file : files) {
    Result r = lint(file, kTargets);
    ASSERT_EQ(r.report.status, FileReport::Status::Ok) << file;
    ASSERT_TRUE(r.estimates.is_array()) << file;
    ASSERT_EQ(r.estimates.size(), kTargets.size()) << file;
    std::map<std::string, std::set<std::string>> errors;  // target -> rules with errors
    for (const Diagnostic& d : r.report.diagnostics) {
      EXPECT_NE(d.rule_id, "internal-error") << file << ": " << d.message;
      EXPECT_TRUE(d.rule_id.starts_with("target-")) << file << ": " << d.rule_id;
      EXPECT_TRUE(std::find(kTargets.begin(), kTargets.end(), d.target) != kTargets.end())
          << file << ": finding without a selected target: " << d.message;
      if (d.severity == Severity::Error) errors[d.target].insert(d.rule_id);
    }
    for (size_t i = 0; i < kTargets.size(); ++i) {
      const auto& e = r.estimates[i];
      EXPECT_EQ(e["target"], kTargets[i]) << file;
      const uint64_t nodes = e["nodes"], supported = e["supported_nodes"],
                     unsupported = e["unsupported_nodes"], folded = e["folded_nodes"];
      EXPECT_EQ(nodes, supported + unsupported + folded) << file << " " << kTargets[i];
      uint64_t listed = 0;
      for (const auto& op : e["unsupported_ops"]) listed += op["count"].get<uint64_t>();
      EXPECT_EQ(listed + e["dynamic_shape_nodes"].get<uint64_t>() +
                    e["unsupported_type_nodes"].get<uint64_t>() +
                    e["restriction_nodes"].get<uint64_t>(),
                unsupported)
          << file << " " << kTargets[i];
      // A node-level error for a target (an op, a type or a restriction it refuses) means its
      // estimate is not "ok", and the other way round an "ok" estimate has no error at all.
      const auto& target_errors = errors[kTargets[i]];
      const bool node_errors = target_errors.count("target-unsupported-op") > 0 ||
                               target_errors.count("target-unsupported-type") > 0 ||
                               target_errors.count("target-restriction") > 0;
      if (node_errors) {
        EXPECT_NE(e["verdict"], "ok") << file << " " << kTargets[i];
      }
      if (e["verdict"] == "ok") {
        EXPECT_TRUE(errors[kTargets[i]].empty()) << file << " " << kTargets[i];
        EXPECT_EQ(unsupported, 0u) << file << " " << kTargets[i];
      }
      if (supported == 0) {
        EXPECT_EQ(e["partitions"], 0) << file;
        if (unsupported > 0) {
          EXPECT_EQ(e["verdict"], "unsupported") << file;
        }
      }
      // Partitions are counted on the main graph: supported nodes only in subgraphs or function
      // bodies whose owner is unsupported give none.
      EXPECT_LE(e["partitions"].get<uint64_t>(), supported) << file;
    }
  }
}

// manifest.json entries that name target-* rules (an entry may carry "targets": [...]; the
// default is kTargets) hold. The corpus manifest states no target expectations yet; this keeps
// any future ones honest.
TEST(CorpusTargets, ManifestEntriesHold) {
  std::ifstream in(data_path("corpus/manifest.json"));
  ASSERT_TRUE(in);
  const nlohmann::json manifest = nlohmann::json::parse(in);
  size_t models = 0;
  for (const auto& m : manifest.at("models")) {
    const std::string file = fs::path(m.at("file").get<std::string>()).filename().string();
    if (!fs::exists(data_path("corpus/" + file))) continue;
    ++models;
    auto targets_of = [](const nlohmann::json& e) {
      return e.contains("targets") ? e["targets"].get<std::vector<std::string>>() : kTargets;
    };
    auto is_target_rule = [](const nlohmann::json& e) {
      for (const auto& id : e.at("any_of")) {
        if (!id.get<std::string>().starts_with("target-")) return false;
      }
      return true;
    };
    for (const auto& e : m.value("expect", nlohmann::json::array())) {
      if (!is_target_rule(e)) continue;
      Result r = lint(file, targets_of(e));
      bool hit = false;
      for (const Diagnostic& d : r.report.diagnostics) {
        for (const auto& id : e.at("any_of")) hit |= d.rule_id == id.get<std::string>();
      }
      EXPECT_TRUE(hit) << file << ": expected " << e.dump();
    }
    for (const auto& e : m.value("forbid", nlohmann::json::array())) {
      if (!is_target_rule(e)) continue;
      Result r = lint(file, targets_of(e));
      for (const Diagnostic& d : r.report.diagnostics) {
        for (const auto& id : e.at("any_of")) {
          EXPECT_NE(d.rule_id, id.get<std::string>()) << file << ": forbidden " << e.dump();
        }
      }
    }
  }
  EXPECT_GE(models, 39u);
}

// A plain static CNN (Conv, Relu, MaxPool, Flatten, Gemm) at opset 11 runs everywhere except
// where a table lacks Flatten (CoreML ML Program).
TEST(CorpusTargets, StaticCnn) {
  Result r = lint("torch_cnn_static_op11.onnx", kTargets);
  EXPECT_THAT(lines(r, "target-unsupported-op"),
              ElementsAre("target-unsupported-op main/Flatten @onnxruntime-coreml-mlprogram"));
  EXPECT_THAT(lines(r, "target-dynamic-shape"), IsEmpty());
  EXPECT_THAT(lines(r, "target-opset-range"), IsEmpty());
  for (const auto& e : r.estimates) {
    if (e["target"] == "onnxruntime-coreml-mlprogram") {
      EXPECT_EQ(e["verdict"], "partial");
      EXPECT_EQ(e["partitions"], 2);  // Flatten splits the CNN from the classifier
    } else {
      EXPECT_EQ(e["verdict"], "ok") << e["target"];
      EXPECT_EQ(e["partitions"], 1) << e["target"];
    }
  }
}

// Boolean indexing: Greater -> NonZero -> GatherND. NNAPI has none of them, and NonZero's
// output shape is value-dependent.
TEST(CorpusTargets, NonZeroOnMobileTargets) {
  Result r = lint("torch_nonzero_op13.onnx", {"nnapi", "tensorrt"});
  EXPECT_THAT(lines(r, "target-unsupported-op"),
              ElementsAre("target-unsupported-op main/Greater @onnxruntime-nnapi",
                          "target-unsupported-op main/NonZero @onnxruntime-nnapi"));
  EXPECT_THAT(lines(r, "target-dynamic-shape"),
              ElementsAre("target-dynamic-shape main/NonZero @onnxruntime-nnapi"));
  // TensorRT runs NonZero on float and float16 only (its operator table); the mask is bool
  // (Greater's output type, inferred: the raw export declares nothing), as it is after
  // onnx.shape_inference.infer_shapes.
  EXPECT_EQ(r.estimates[1]["verdict"], "unsupported");
  EXPECT_THAT(lines(r, "target-unsupported-type"),
              ElementsAre("target-unsupported-type main/NonZero @tensorrt"));
}

// Dynamic batch: a warning on NNAPI (static shapes required), info on CoreML, nothing on
// TensorRT; the NNAPI estimate counts every node as not offloaded.
TEST(CorpusTargets, DynamicBatch) {
  Result r = lint("torch_mlp_dynamic_batch_op13.onnx", {"nnapi", "coreml", "tensorrt"});
  // One finding for the input: NNAPI's warning, CoreML's info folded into it.
  EXPECT_THAT(lines(r, "target-dynamic-shape"),
              ElementsAre("target-dynamic-shape main:'x' @onnxruntime-nnapi"));
  EXPECT_EQ(r.estimates[0]["verdict"], "unsupported");
  EXPECT_EQ(r.estimates[0]["dynamic_shape_nodes"], r.estimates[0]["nodes"]);
  EXPECT_EQ(r.estimates[2]["verdict"], "ok");
}

// Export fallbacks are custom-domain ops no runtime has built in.
TEST(CorpusTargets, FallbackOpsNeedPlugins) {
  Result aten = lint("torch_grid_sample_op11_aten_fallback.onnx", {"tensorrt", "ort-cpu"});
  EXPECT_THAT(lines(aten, "target-unsupported-op"),
              ElementsAre("target-unsupported-op main/ATen @onnxruntime-cpu",
                          "target-unsupported-op main/ATen @tensorrt"));
  Result py = lint("torch_autograd_fn_fallthrough_op13.onnx", {"tensorrt"});
  EXPECT_THAT(lines(py, "target-unsupported-op"),
              ElementsAre("target-unsupported-op main/PythonOp @tensorrt"));
  // The standard GridSample (opset 16) runs on TensorRT and ORT CPU.
  Result gs = lint("torch_grid_sample_op16.onnx", {"tensorrt", "ort-cpu"});
  EXPECT_THAT(lines(gs, "target-unsupported-op"), IsEmpty());
}

// Padding modes: NNAPI pads with constants only.
TEST(CorpusTargets, PadModes) {
  Result reflect = lint("torch_pad_reflect_op11.onnx", {"nnapi", "tensorrt"});
  EXPECT_THAT(lines(reflect, "target-restriction"),
              ElementsAre("target-restriction main/Pad @onnxruntime-nnapi"));
  Result edge = lint("torch_pad_replicate_op17.onnx", {"nnapi", "webnn"});
  EXPECT_THAT(lines(edge, "target-restriction"),
              ElementsAre("target-restriction main/Pad @onnxruntime-nnapi"));
}

// Initializers kept as graph inputs can be overridden, so weight-must-be-constant restrictions
// fire on NNAPI (ORT's remove_initializer_from_input.py exists for this).
TEST(CorpusTargets, InitializersAsInputsAreNotConstant) {
  Result r = lint("torch_cnn_keep_initializers_as_inputs_op13.onnx", {"nnapi"});
  const auto found = lines(r, "target-restriction");
  // W and B of both convolutions: one finding (one restriction, one op type, one target) at the
  // first Conv naming W, with B in a note and the second Conv as a related location.
  EXPECT_EQ(found.size(), 1u);
  for (const Diagnostic& d : r.report.diagnostics) {
    if (d.rule_id == "target-restriction") {
      EXPECT_THAT(d.message, ::testing::HasSubstr("also a graph input"));
      EXPECT_THAT(d.help, ::testing::HasSubstr("keep_initializers_as_inputs=False"));
      EXPECT_EQ(d.related.size(), 1u);
      EXPECT_THAT(d.notes, ::testing::Contains(::testing::HasSubstr("the same holds for")));
    }
  }
  // The same CNN exported normally is clean.
  EXPECT_THAT(lines(lint("torch_cnn_static_op11.onnx", {"nnapi"}), "target-restriction"),
              IsEmpty());
}

// Modules exported as local functions: the call nodes are not ops; the bodies are checked
// (Erf in GELU has no NNAPI kernel), and the weights passed into a body are not guessed.
TEST(CorpusTargets, LocalFunctions) {
  Result r = lint("torch_modules_as_functions_op15.onnx", {"nnapi", "coreml", "tensorrt"});
  for (const Diagnostic& d : r.report.diagnostics) {
    EXPECT_TRUE(d.location.graph_path.starts_with("fn:")) << d.location.anchor();
  }
  EXPECT_THAT(lines(r, "target-restriction"), IsEmpty());
  bool erf = false;
  for (const std::string& l : lines(r, "target-unsupported-op")) {
    erf |= l.find("/Erf") != std::string::npos && l.ends_with("@onnxruntime-nnapi");
  }
  EXPECT_TRUE(erf);
  EXPECT_EQ(r.estimates[2]["verdict"], "ok");  // TensorRT
}

// Scripted loops: NNAPI and CoreML have no Loop; TensorRT has.
TEST(CorpusTargets, ScriptedLoop) {
  Result r = lint("torch_script_for1000_static_op13.onnx", {"nnapi", "coreml", "tensorrt"},
                  {"target-unsupported-op"});
  EXPECT_THAT(lines(r, "target-unsupported-op"),
              ElementsAre("target-unsupported-op main/Loop @onnxruntime-coreml-mlprogram",
                          "target-unsupported-op main/Loop @onnxruntime-nnapi"));
}

}  // namespace
}  // namespace onnxlint::testing
