// ONNX's own test models (Debian libonnx-testdata, ONNX 1.12) checked by the opset-*, export-*
// and model-ir-version rules at each model's declared opset: a valid model must get no
// opset-* error. The few models that are genuinely invalid or training-mode are listed below
// with the reason, and must keep getting exactly those findings.
//
// Then a mutation test: each node-test model is re-saved with its default-domain opset set just
// below the first version of the op under test, and opset-too-low must name the right version.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/linter.h>
#include <onnxlint/opset_table.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/lint_harness.h"

namespace onnxlint::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDataDir = "/usr/share/libonnx-testdata/data";

// Findings these models must get (relative path → "rule node-anchor"), and why.
const std::map<std::string, std::vector<std::string>>& expected_findings() {
  static const std::map<std::string, std::vector<std::string>> k = {
      // Invalid: Constant-1 (opset < 9) allows only float16/float/double, and these old PyTorch
      // exports store int64 constants. ONNX's own checker rejects them too (full_check shape
      // inference: "output has unsupported type tensor(int64)").
      {"pytorch-converted/test_PixelShuffle/model.onnx",
       {"opset-invalid-type main/Constant#0", "opset-invalid-type main/Constant#3"}},
      {"pytorch-operator/test_operator_repeat/model.onnx", {"opset-invalid-type main/Constant#0"}},
      {"pytorch-operator/test_operator_repeat_dim_overflow/model.onnx",
       {"opset-invalid-type main/Constant#0", "opset-invalid-type main/Constant#2"}},
      // Training mode on purpose: these test the training behaviour of the ops.
      {"node/test_batchnorm_epsilon_training_mode/model.onnx",
       {"export-training-mode main/BatchNormalization#0"}},
      {"node/test_batchnorm_example_training_mode/model.onnx",
       {"export-training-mode main/BatchNormalization#0"}},
      {"node/test_training_dropout/model.onnx", {"export-training-mode main/Dropout#0"}},
      {"node/test_training_dropout_default/model.onnx", {"export-training-mode main/Dropout#0"}},
      {"node/test_training_dropout_default_mask/model.onnx",
       {"export-training-mode main/Dropout#0"}},
      {"node/test_training_dropout_mask/model.onnx", {"export-training-mode main/Dropout#0"}},
      {"node/test_training_dropout_zero_ratio/model.onnx", {"export-training-mode main/Dropout#0"}},
      {"node/test_training_dropout_zero_ratio_mask/model.onnx",
       {"export-training-mode main/Dropout#0"}},
      // The optimizer and gradient ops of ai.onnx.preview.training.
      {"node/test_adagrad/model.onnx", {"export-training-mode main/Adagrad#0"}},
      {"node/test_adagrad_multiple/model.onnx", {"export-training-mode main/Adagrad#0"}},
      {"node/test_adam/model.onnx", {"export-training-mode main/Adam#0"}},
      {"node/test_adam_multiple/model.onnx", {"export-training-mode main/Adam#0"}},
      {"node/test_momentum/model.onnx", {"export-training-mode main/Momentum#0"}},
      {"node/test_momentum_multiple/model.onnx", {"export-training-mode main/Momentum#0"}},
      {"node/test_nesterov_momentum/model.onnx", {"export-training-mode main/Momentum#0"}},
      {"simple/test_gradient_of_add/model.onnx", {"export-training-mode main/my_gradient"}},
      {"simple/test_gradient_of_add_and_mul/model.onnx", {"export-training-mode main/my_gradient"}},
      // Saved with IR 5 although opset 11 first shipped in ONNX 1.6.0 (IR 6): a warning only.
      {"node/test_depthtospace_crd_mode/model.onnx", {"model-ir-version "}},
      {"node/test_depthtospace_dcr_mode/model.onnx", {"model-ir-version "}},
      {"node/test_resize_downsample_sizes_nearest_tf_half_pixel_for_nn/model.onnx",
       {"model-ir-version "}},
      {"node/test_unsqueeze_axis_3/model.onnx", {"model-ir-version "}},
  };
  return k;
}

std::vector<std::string> model_files(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".onnx") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

LintOptions my_rules() {
  LintOptions o;
  o.select = {"opset",          "export-training-mode", "export-python-op",
              "export-aten-op", "export-custom-domain", "model-ir-version"};
  return o;
}

TEST(OnnxTestdataOpset, ValidModelsGetNoOpsetErrors) {
  if (!fs::is_directory(kDataDir)) GTEST_SKIP() << kDataDir << " missing (libonnx-testdata)";
  Linter linter(builtin_registry(), my_rules());
  const auto files = model_files(kDataDir);
  ASSERT_GT(files.size(), 1000u);
  std::set<std::string> seen_expected;
  for (const std::string& path : files) {
    const std::string rel = fs::relative(path, kDataDir).string();
    FileReport r = linter.lint_file(path);
    ASSERT_EQ(r.status, FileReport::Status::Ok) << rel;
    std::vector<std::string> got;
    for (const Diagnostic& d : r.diagnostics) {
      got.push_back(d.rule_id + " " + d.location.anchor());
      EXPECT_NE(d.rule_id, "internal-error") << rel << ": " << d.message;
    }
    std::sort(got.begin(), got.end());
    auto it = expected_findings().find(rel);
    if (it == expected_findings().end()) {
      EXPECT_THAT(got, ::testing::IsEmpty()) << rel;
    } else {
      seen_expected.insert(rel);
      EXPECT_EQ(got, it->second) << rel;
    }
  }
  EXPECT_EQ(seen_expected.size(), expected_findings().size());
}

// The op under test of a node-test model: the default-domain node of the main graph with the
// newest first version.
struct Mutation {
  std::string op;
  int first = 0;
};

int default_import_index(const onnx::ModelProto& m) {
  for (int i = 0; i < m.opset_import_size(); ++i) {
    const std::string& d = m.opset_import(i).domain();
    if (d.empty() || d == "ai.onnx") return i;
  }
  return -1;
}

std::string with_opset(onnx::ModelProto m, int index, int64_t version) {
  m.mutable_opset_import(index)->set_version(version);
  return m.SerializeAsString();
}

// The opset-too-low diagnostic at node `anchor`, if any.
const Diagnostic* finding_at(const std::vector<Diagnostic>& diags, const std::string& anchor) {
  for (const Diagnostic& d : diags) {
    if (d.location.anchor() == anchor) return &d;
  }
  return nullptr;
}

TEST(OnnxTestdataOpset, OpsetBelowTheOpsFirstVersionNamesIt) {
  const fs::path node_dir = fs::path(kDataDir) / "node";
  if (!fs::is_directory(node_dir)) GTEST_SKIP() << node_dir << " missing (libonnx-testdata)";
  size_t mutated = 0, skipped_first_version_one = 0, checked_nodes = 0;
  for (const auto& dir : fs::directory_iterator(node_dir)) {
    const fs::path file = dir.path() / "model.onnx";
    if (!fs::exists(file)) continue;
    std::ifstream in(file, std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    onnx::ModelProto model;
    ASSERT_TRUE(model.ParseFromString(buf.str())) << file;
    const int imp = default_import_index(model);
    if (imp < 0) continue;  // training-domain models only
    const int64_t original = model.opset_import(imp).version();
    int first = 0;
    for (const auto& n : model.graph().node()) {
      if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
      first = std::max(first, first_version("", n.op_type()).value_or(0));
    }
    ASSERT_GT(first, 0) << file;
    ASSERT_LE(first, original) << file;
    if (first == 1) {
      ++skipped_first_version_one;  // no opset below 1
      continue;
    }
    ++mutated;
    const auto diags = diagnostics("opset-too-low", with_opset(model, imp, first - 1));
    for (int i = 0; i < model.graph().node_size(); ++i) {
      const auto& n = model.graph().node(i);
      if ((!n.domain().empty() && n.domain() != "ai.onnx") ||
          first_version("", n.op_type()) != first) {
        continue;
      }
      ++checked_nodes;
      const std::string anchor =
          "main/" + (n.name().empty() ? n.op_type() + "#" + std::to_string(i) : n.name());
      const Diagnostic* d = finding_at(diags, anchor);
      ASSERT_NE(d, nullptr) << file << ": no opset-too-low at " << anchor;
      // The version named: the op's first version, or later when an attribute needs it.
      const std::string tail = fmt::format("; model imports {}", first - 1);
      ASSERT_TRUE(d->message.ends_with(tail)) << d->message;
      const size_t at = d->message.find("needs opset ≥ ");
      ASSERT_NE(at, std::string::npos) << d->message;
      const int named = std::stoi(d->message.substr(at + std::string("needs opset ≥ ").size()));
      if (n.attribute_size() == 0) {
        EXPECT_EQ(named, first) << d->message;
      }
      ASSERT_GE(named, first) << d->message;
      ASSERT_LE(named, original) << file << ": " << d->message;
      // Sufficient and minimal: fine at the named opset, still too low just below it.
      EXPECT_EQ(finding_at(diagnostics("opset-too-low", with_opset(model, imp, named)), anchor),
                nullptr)
          << file << " at " << named;
      if (named > first) {
        EXPECT_NE(
            finding_at(diagnostics("opset-too-low", with_opset(model, imp, named - 1)), anchor),
            nullptr)
            << file << " at " << named - 1;
      }
    }
  }
  // ONNX 1.12 has 932 node models: 404 test an op newer than opset 1; the others test ops of
  // opset 1, which no import can be below, or only training-domain ops.
  EXPECT_GE(mutated, 400u);
  EXPECT_GT(checked_nodes, mutated - 1);
  RecordProperty("mutated", static_cast<int>(mutated));
  RecordProperty("skipped_first_version_one", static_cast<int>(skipped_first_version_one));
}

}  // namespace
}  // namespace onnxlint::testing
