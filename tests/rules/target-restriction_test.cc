// target-restriction: the encoded restriction table (its consistency with the target tables and
// with docs/targets.md), one case per check kind with a near miss, nesting, and the target-wide
// rank/dimension limits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/targets.h>
#include <onnxlint/verdicts.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "rules/target/restrictions.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::StartsWith;

using ::testing::Not;

using rules::target::Check;
using rules::target::Restriction;
using rules::target::restriction_table;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRule = "target-restriction";

LintOptions for_targets(std::vector<std::string> targets) {
  LintOptions o;
  o.targets = std::move(targets);
  return o;
}

std::vector<std::string> split_note(std::string_view notes) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= notes.size()) {
    size_t end = notes.find("; ", start);
    if (end == std::string_view::npos) end = notes.size();
    if (end > start) out.emplace_back(notes.substr(start, end - start));
    start = end + 2;
  }
  return out;
}

std::string op_key(std::string_view domain, std::string_view op) {
  return domain.empty() ? std::string(op) : std::string(domain) + ":" + std::string(op);
}

// The text of docs/targets.md from heading `start` up to the next heading of the same or a
// higher level.
std::string doc_section(const std::string& heading) {
  std::ifstream in(std::string(ONNXLINT_SOURCE_DIR) + "/docs/targets.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string docs = ss.str();
  const size_t at = docs.find("\n" + heading + "\n");
  if (at == std::string::npos) return {};
  const std::string level = heading.substr(0, heading.find(' ') + 1);  // "### "
  size_t end = at + heading.size() + 2;
  for (;;) {
    end = docs.find("\n#", end);
    if (end == std::string::npos) break;
    const size_t hashes = docs.find_first_not_of('#', end + 1) - (end + 1);
    if (hashes <= level.size() - 1) break;
    ++end;
  }
  return docs.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// ---- The table itself ----

TEST(TargetRestrictionTable, EveryRowCitesItsTableNote) {
  ASSERT_FALSE(restriction_table().empty());
  for (const Restriction& r : restriction_table()) {
    const TargetInfo* t = find_target(r.target);
    ASSERT_NE(t, nullptr) << r.target;
    const TargetOp* op = find_target_op(*t, r.domain, r.op);
    ASSERT_NE(op, nullptr) << r.target << " " << r.op;
    auto fragments = split_note(op->notes);
    EXPECT_THAT(fragments, ::testing::Contains(std::string(r.note)))
        << r.target << " " << r.op << ": '" << r.note << "' is not a fragment of '" << op->notes
        << "'";
    if (!r.every_release) continue;
    // A restriction of every release cites each older release's table too.
    const auto releases = target_versions(t->family);
    ASSERT_GT(releases.size(), 1u) << r.target << " has no older releases";
    for (const TargetInfo* release : releases) {
      const TargetOp* old = find_target_op(*release, r.domain, r.op);
      ASSERT_NE(old, nullptr) << release->id << " " << r.op;
      EXPECT_THAT(split_note(old->notes), ::testing::Contains(std::string(r.note)))
          << release->id << " " << r.op;
    }
  }
}

// Names must exist in some schema version of the op (typos would silently never fire).
TEST(TargetRestrictionTable, NamesExistInTheOpSchema) {
  for (const Restriction& r : restriction_table()) {
    if (!r.domain.empty()) {
      for (std::string_view a : r.args) {
        if (r.check != Check::AttrIn && r.check != Check::AttrNotIn &&
            r.check != Check::AttrAbsent) {
          EXPECT_TRUE(a.starts_with("#")) << r.op << " " << a;
        }
      }
      continue;
    }
    auto versions = op_versions(r.domain, r.op);
    ASSERT_FALSE(versions.empty()) << r.op;
    auto has_param = [&](std::string_view name) {
      for (const OpSchema& s : versions) {
        for (const ParamSchema& p : s.inputs)
          if (p.name == name) return true;
        for (const ParamSchema& p : s.outputs)
          if (p.name == name) return true;
      }
      return false;
    };
    auto has_attr = [&](std::string_view name) {
      for (const OpSchema& s : versions) {
        if (s.find_attribute(name) != nullptr) return true;
      }
      return false;
    };
    std::vector<std::string_view> attrs, params;
    switch (r.check) {
      case Check::AttrIn:
      case Check::AttrNotIn:
      case Check::AttrAbsent:
      case Check::AttrAllEqual:
      case Check::BidiActivationsMatch:
      case Check::AxisIsLast:
        attrs = r.args;
        break;
      case Check::PadsSymmetric:
        attrs = {"pads"};
        break;
      case Check::ConstUnlessAttr:
        params = {r.args[0]};
        attrs = {r.args[1]};
        break;
      default:
        params = r.args;
    }
    if (!r.when_attr.empty()) attrs.push_back(r.when_attr);
    for (std::string_view a : attrs)
      EXPECT_TRUE(has_attr(a)) << r.target << " " << r.op << " " << a;
    for (std::string_view p : params) {
      if (p == "*" || p.starts_with("#")) continue;
      EXPECT_TRUE(has_param(p)) << r.target << " " << r.op << " " << p;
    }
  }
}

// The restrictions are encoded for the newest table of each runtime ("tensorrt"), whose notes
// they cite. An older release's table ("tensorrt@8.6") keeps its document's own wording of the
// notes, which findings show but target-restriction checks only where a restriction holds for
// every release (Restriction::every_release); docs/targets.md says so.
constexpr std::string_view kVersionedTablesNote =
    "The tables of older releases (`tensorrt@8.6`, ...) are checked by target-restriction only "
    "for the restrictions every release enforces";

TEST(TargetRestrictionTable, VersionedTablesAreNotEncodedAndDocsSaySo) {
  std::string text = doc_section("### Restrictions not encoded");
  std::replace(text.begin(), text.end(), '\n', ' ');  // the sentence wraps
  EXPECT_NE(text.find(kVersionedTablesNote), std::string::npos);
  for (const Restriction& r : restriction_table()) {
    const TargetInfo* t = find_target(r.target);
    ASSERT_NE(t, nullptr) << r.target;
    EXPECT_EQ(t->id, t->family) << "a restriction of an older release's table: " << r.target;
  }
}

// Every note fragment of every table is either encoded or listed as not encoded in
// docs/targets.md, as a row "| `<target>` | <op> | <fragment> | <why> |".
TEST(TargetRestrictionTable, UnencodedFragmentsAreDocumented) {
  const std::string docs = doc_section("### Restrictions not encoded");
  ASSERT_FALSE(docs.empty());
  std::set<std::tuple<std::string, std::string, std::string>> encoded;
  for (const Restriction& r : restriction_table()) {
    encoded.emplace(std::string(r.target), op_key(r.domain, r.op), std::string(r.note));
  }
  std::string missing;
  size_t fragments = 0;
  for (const TargetInfo& t : all_targets()) {
    if (t.id != t.family) continue;  // see kVersionedTablesNote
    for (const TargetOp& op : t.ops) {
      for (const std::string& f : split_note(op.notes)) {
        ++fragments;
        const std::string key = op_key(op.domain, op.op);
        if (encoded.count({std::string(t.id), key, f})) {
          // An encoded fragment must not also be listed as unencoded.
          EXPECT_EQ(docs.find("| `" + std::string(t.id) + "` | " + key + " | " + f + " |"),
                    std::string::npos)
              << t.id << " " << key << " " << f;
          continue;
        }
        const std::string row = "| `" + std::string(t.id) + "` | " + key + " | " + f + " |";
        if (docs.find(row) == std::string::npos) missing += row + "\n";
      }
    }
  }
  EXPECT_GT(fragments, 300u);
  EXPECT_TRUE(missing.empty()) << "not encoded and not in docs/targets.md:\n" << missing;
}

// Every encoded restriction is listed in docs/targets.md as "| `<target>` | <op> | <fragment> |
// <check kinds> |" (one row per fragment; check kinds in table order, comma-separated).
TEST(TargetRestrictionTable, EncodedFragmentsAreDocumented) {
  const std::string docs = doc_section("### Restrictions encoded");
  ASSERT_FALSE(docs.empty());
  EXPECT_EQ(docs.find("| why it is not encoded |"), std::string::npos);
  std::vector<std::tuple<std::string, std::string, std::string>> order;
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::string>> kinds;
  for (const Restriction& r : restriction_table()) {
    auto key = std::make_tuple(std::string(r.target), op_key(r.domain, r.op), std::string(r.note));
    if (!kinds.count(key)) order.push_back(key);
    auto& k = kinds[key];
    const std::string kind(rules::target::to_string(r.check));
    if (std::find(k.begin(), k.end(), kind) == k.end()) k.push_back(kind);
  }
  std::string missing;
  for (const auto& key : order) {
    std::string list;
    for (const std::string& k : kinds[key]) list += (list.empty() ? "" : ", ") + k;
    const std::string row = "| `" + std::get<0>(key) + "` | " + std::get<1>(key) + " | " +
                            std::get<2>(key) + " | " + list + " |";
    if (docs.find(row) == std::string::npos) missing += row + "\n";
  }
  EXPECT_TRUE(missing.empty()) << "encoded but not in docs/targets.md:\n" << missing;
}

// Every table's global note is listed in docs/targets.md with what checks it:
// "| `<target>` | <note> | <checked by> | <how, or why not> |".
TEST(TargetRestrictionTable, GlobalNotesAreDocumented) {
  const std::string docs = doc_section("### Target-wide notes");
  ASSERT_FALSE(docs.empty());
  std::string missing;
  size_t notes = 0;
  for (const TargetInfo& t : all_targets()) {
    if (t.id != t.family) continue;  // see kVersionedTablesNote
    for (std::string_view note : t.global_notes) {
      ++notes;
      std::string text(note);
      std::replace(text.begin(), text.end(), '|', '/');
      const std::string row = "| `" + std::string(t.id) + "` | " + text + " | ";
      if (docs.find(row) == std::string::npos) missing += row + "\n";
    }
  }
  EXPECT_GT(notes, 30u);
  EXPECT_TRUE(missing.empty()) << "global notes not in docs/targets.md:\n" << missing;
}

// docs/targets.md states per target how many fragments are encoded and how many are listed as
// not encoded: "| `<target>` | <encoded> | <not encoded> | <fragments> |".
TEST(TargetRestrictionTable, PerTargetCountsAreDocumented) {
  const std::string docs = doc_section("### Restrictions per target");
  ASSERT_FALSE(docs.empty());
  size_t all_encoded = 0, all_listed = 0;
  for (const TargetInfo& t : all_targets()) {
    if (t.id != t.family) continue;  // see kVersionedTablesNote
    std::set<std::pair<std::string, std::string>> encoded;
    for (const Restriction& r : restriction_table()) {
      if (r.target == t.id) encoded.emplace(op_key(r.domain, r.op), std::string(r.note));
    }
    size_t listed = 0;
    for (const TargetOp& op : t.ops) {
      for (const std::string& f : split_note(op.notes)) {
        if (!encoded.count({op_key(op.domain, op.op), f})) ++listed;
      }
    }
    all_encoded += encoded.size();
    all_listed += listed;
    const std::string row = "| `" + std::string(t.id) + "` | " + std::to_string(encoded.size()) +
                            " | " + std::to_string(listed) + " | " +
                            std::to_string(encoded.size() + listed) + " |";
    EXPECT_NE(docs.find(row), std::string::npos) << "docs/targets.md needs the row " << row;
  }
  const std::string total = "| all | " + std::to_string(all_encoded) + " | " +
                            std::to_string(all_listed) + " | " +
                            std::to_string(all_encoded + all_listed) + " |";
  EXPECT_NE(docs.find(total), std::string::npos) << "docs/targets.md needs the row " << total;
}

// ---- Behaviour, one check kind at a time ----

onnx::TensorProto tensor_u8(const std::string& name, const std::vector<int64_t>& dims,
                            const std::string& bytes) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::UINT8);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(bytes);
  return t;
}

std::vector<std::string> run(const ModelBuilder& m, const char* target) {
  return findings(kRule, m.bytes(), for_targets({target}));
}

std::string at(const std::string& node, const char* target) {
  return std::string(kRule) + " main/" + node + " @" + target;
}

// The target summary (section "targets") with only target-unsupported-op selected: the verdict
// applies the restrictions whether or not target-restriction runs. `text`: its lines.
nlohmann::json summary(const ModelBuilder& m, const char* target,
                       std::vector<std::string>* text = nullptr) {
  LintOptions o = for_targets({target});
  o.select = {"target-unsupported-op"};
  Linter linter(builtin_registry(), o);
  FileReport r = linter.lint_bytes("test.onnx", m.bytes());
  for (const ReportSection& s : r.sections) {
    if (s.name != "targets") continue;
    if (text != nullptr) {
      text->clear();  // the verdict lines the text outputs print (verdicts.h)
      for (const TargetVerdict& v : target_verdicts(r)) text->push_back(verdict_line(v));
    }
    return s.data.at(0);
  }
  return nullptr;
}

// ConstInput: TensorRT needs ReduceSum's axes as an initializer (or computed from constants).
ModelBuilder reduce_sum(const std::string& axes_source) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {2, 1});
  if (axes_source == "input") {
    m.graph().input("axes", kInt64, {1});
  } else if (axes_source == "initializer") {
    m.graph().initializer(make_tensor_i64("axes", {1}, {1}));
  } else {  // computed from a Constant
    m.graph().constant_i64("one", {1}, {1});
    m.graph().node("Identity", {"one"}, {"axes"}, "id");
  }
  m.graph().node("ReduceSum", {"x", "axes"}, {"y"}, "rs");
  return m;
}

TEST(TargetRestriction, ConstInput) {
  EXPECT_THAT(run(reduce_sum("input"), "tensorrt"), ElementsAre(at("rs", "tensorrt")));
  auto diags = diagnostics(kRule, reduce_sum("input").bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message,
            "rs (ReduceSum) computes input 'axes' ('axes') at run time, but "
            "TensorRT 10.15 needs it constant");
  EXPECT_THAT(diags[0].notes[0],
              HasSubstr("TensorRT 10.15 documents for ReduceSum: \"axes must be an initializer\""));
  EXPECT_THAT(diags[0].help, HasSubstr("do_constant_folding"));
  // TensorRT's parser fails on the node: an error, and the verdict counts the node.
  EXPECT_EQ(diags[0].severity, Severity::Error);
  std::vector<std::string> text;
  const nlohmann::json s = summary(reduce_sum("input"), "tensorrt", &text);
  EXPECT_EQ(s["verdict"], "unsupported");
  EXPECT_EQ(s["supported_nodes"], 0);
  EXPECT_EQ(s["unsupported_nodes"], 1);
  EXPECT_EQ(s["restriction_nodes"], 1);
  EXPECT_EQ(s["unsupported_ops"], nlohmann::json::array());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text[0],
            "tensorrt (TensorRT 10.15): unsupported: 0/1 nodes supported, 0 supported partitions; "
            "1 node breaking a documented restriction");
  EXPECT_EQ(summary(reduce_sum("initializer"), "tensorrt")["verdict"], "ok");
  EXPECT_THAT(run(reduce_sum("initializer"), "tensorrt"), IsEmpty());
  EXPECT_THAT(run(reduce_sum("folded"), "tensorrt"), IsEmpty());
  // No target, or a target without this restriction: nothing.
  EXPECT_THAT(findings(kRule, reduce_sum("input").bytes()), IsEmpty());
  EXPECT_THAT(run(reduce_sum("input"), "ort-cpu"), IsEmpty());
}

// On an ONNX Runtime EP the node runs on another provider: a warning, and the node counts as
// unsupported in the verdict ("partial") and the partitions.
TEST(TargetRestriction, FallbackTargetWarnsAndCountsTheNode) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {1, 1, 4, 4}).input("w", kFloat, {1, 1, 1, 1});
  m.graph().output("y", kFloat, {1, 1, 4, 4});
  m.graph().node("Relu", {"x"}, {"a"}, "r1");
  m.graph().node("Conv", {"a", "w"}, {"b"}, "conv");  // NNAPI: weights must be constant
  m.graph().node("Relu", {"b"}, {"y"}, "r2");
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"nnapi"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].location.node_name, "conv");
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  const nlohmann::json s = summary(m, "nnapi");
  EXPECT_EQ(s["verdict"], "partial");
  EXPECT_EQ(s["supported_nodes"], 2);
  EXPECT_EQ(s["restriction_nodes"], 1);
  EXPECT_EQ(s["partitions"], 2);
}

TEST(TargetRestriction, NestedInLoopBodyAndIfBranch) {
  EXPECT_THAT(findings(kRule, nest_in_loop(reduce_sum("input").proto()), for_targets({"trt"})),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/rs @tensorrt"));
  EXPECT_THAT(findings(kRule, nest_in_if(reduce_sum("input").proto()), for_targets({"trt"})),
              ElementsAre(std::string(kRule) + " " + kNestedIfPath + "/rs @tensorrt"));
  // An initializer of the outer graph is a constant inside the body.
  EXPECT_THAT(
      findings(kRule, nest_in_loop(reduce_sum("initializer").proto()), for_targets({"trt"})),
      IsEmpty());
}

TEST(TargetRestriction, NoInputAndNoOutput) {
  // QNN GRU: "no initial state input".
  ModelBuilder g(17);
  g.graph()
      .input("x", kFloat, {1, 1, 2})
      .input("w", kFloat, {1, 6, 2})
      .input("r", kFloat, {1, 6, 2});
  g.graph().input("h0", kFloat, {1, 1, 2}).output("y", kFloat, {1, 1, 1, 2});
  attr_int(g.graph().node("GRU", {"x", "w", "r", "", "", "h0"}, {"y"}, "gru"), "hidden_size", 2);
  EXPECT_THAT(run(g, "qnn"), ElementsAre(at("gru", "onnxruntime-qnn")));
  g.proto().mutable_graph()->mutable_node(0)->mutable_input()->RemoveLast();
  EXPECT_THAT(run(g, "qnn"), IsEmpty());
  // TensorRT MaxPool: "Indices output unsupported".
  ModelBuilder p(17);
  p.graph().input("x", kFloat, {1, 1, 4, 4}).output("y", kFloat, {1, 1, 2, 2});
  auto& n = p.graph().node("MaxPool", {"x"}, {"y", "idx"}, "pool");
  attr_ints(n, "kernel_shape", {2, 2});
  attr_ints(n, "strides", {2, 2});
  EXPECT_THAT(run(p, "tensorrt"), ElementsAre(at("pool", "tensorrt")));
  p.proto().mutable_graph()->mutable_node(0)->mutable_output()->RemoveLast();
  EXPECT_THAT(run(p, "tensorrt"), IsEmpty());
}

TEST(TargetRestriction, OutputAndInputCounts) {
  // WebNN BatchNormalization: single output.
  ModelBuilder b(14);
  b.graph().input("x", kFloat, {1, 2, 2, 2}).output("y", kFloat, {1, 2, 2, 2});
  for (const char* s : {"scale", "bias", "mean", "var"})
    b.graph().initializer(make_tensor_f32(s, {2}, {1, 1}));
  b.graph().node("BatchNormalization", {"x", "scale", "bias", "mean", "var"}, {"y", "rm", "rv"},
                 "bn");
  // training_mode defaults to 0; the extra outputs alone violate "single output".
  EXPECT_THAT(run(b, "webnn"), ElementsAre(at("bn", "onnxruntime-webnn")));
  // NNPA Sum: "single input unsupported".
  ModelBuilder s(17);
  s.graph().input("x", kFloat, {2}).output("y", kFloat, {2});
  s.graph().node("Sum", {"x"}, {"y"}, "sum");
  EXPECT_THAT(run(s, "nnpa"), ElementsAre(at("sum", "onnx-mlir-nnpa")));
  s.proto().mutable_graph()->mutable_node(0)->add_input("x");
  EXPECT_THAT(run(s, "nnpa"), IsEmpty());
}

ModelBuilder resize(const std::string& mode, const std::string& ctm) {
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {1, 1, 2, 2}).output("y", kFloat, {1, 1, 4, 4});
  m.graph().initializer(make_tensor_f32("scales", {4}, {1, 1, 2, 2}));
  auto& n = m.graph().node("Resize", {"x", "", "scales"}, {"y"}, "resize");
  if (!mode.empty()) attr_string(n, "mode", mode);
  if (!ctm.empty()) attr_string(n, "coordinate_transformation_mode", ctm);
  return m;
}

TEST(TargetRestriction, AttributeValues) {
  EXPECT_THAT(run(resize("cubic", ""), "tensorrt"), ElementsAre(at("resize", "tensorrt")));
  auto diags = diagnostics(kRule, resize("cubic", "").bytes(), for_targets({"tensorrt"}));
  EXPECT_EQ(diags[0].message,
            "resize (Resize) has mode=cubic, which TensorRT 10.15 does not "
            "support (supported: nearest, linear)");
  EXPECT_THAT(run(resize("linear", ""), "tensorrt"), IsEmpty());
  EXPECT_THAT(run(resize("", "tf_crop_and_resize"), "tensorrt"),
              ElementsAre(at("resize", "tensorrt")));
  // The schema default counts: CoreML NeuralNetwork needs asymmetric coordinates, and the
  // default is half_pixel.
  diags = diagnostics(kRule, resize("linear", "").bytes(), for_targets({"coreml-nn"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(
      diags[0].message,
      "resize (Resize) has coordinate_transformation_mode=half_pixel (the default), which "
      "ONNX Runtime CoreML EP, NeuralNetwork (main) does not support (supported: asymmetric)");
  EXPECT_THAT(run(resize("linear", "asymmetric"), "coreml-nn"), IsEmpty());
  // Conditional: nearest_mode matters only for mode=nearest (default round_prefer_floor).
  EXPECT_THAT(run(resize("nearest", "asymmetric"), "coreml-nn"),
              ElementsAre(at("resize", "onnxruntime-coreml-neuralnetwork")));
  // Attribute not in the op's schema at this opset: the check does not apply (Resize-10 has no
  // coordinate_transformation_mode).
  ModelBuilder r10(10);
  r10.graph().input("x", kFloat, {1, 1, 2, 2}).output("y", kFloat, {1, 1, 4, 4});
  r10.graph().initializer(make_tensor_f32("scales", {4}, {1, 1, 2, 2}));
  attr_string(r10.graph().node("Resize", {"x", "scales"}, {"y"}, "resize"), "mode", "linear");
  EXPECT_THAT(run(r10, "coreml-nn"), IsEmpty());
  // AttrNotIn: WebNN Pad has no wrap mode.
  ModelBuilder p(19);
  p.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 6});
  p.graph().initializer(make_tensor_i64("pads", {4}, {0, 1, 0, 1}));
  attr_string(p.graph().node("Pad", {"x", "pads"}, {"y"}, "pad"), "mode", "wrap");
  EXPECT_THAT(run(p, "webnn"), ElementsAre(at("pad", "onnxruntime-webnn")));
  p.proto().mutable_graph()->mutable_node(0)->mutable_attribute(0)->set_s("reflect");
  EXPECT_THAT(run(p, "webnn"), IsEmpty());
}

// A GRU, LSTM or RNN node "rnn" at opset 14 (layout is an attribute from 14), with `layout`
// set when given.
std::string recurrent_model(const char* op, std::optional<int64_t> layout) {
  ModelBuilder m(14);
  m.graph()
      .input("x", kFloat, {1, 2, 2})
      .input("w", kFloat, {1, 8, 2})
      .input("r", kFloat, {1, 8, 2})
      .output("y", kFloat, {1, 2, 1, 2});
  auto& n = m.graph().node(op, {"x", "w", "r"}, {"y"}, "rnn");
  attr_int(n, "hidden_size", 2);
  if (layout) attr_int(n, "layout", *layout);
  return m.bytes();
}

// ORT CPU: the GRU/LSTM/RNN kernels reject layout=1 when the session is created (ORT 1.30,
// tests/ort); layout=0, the default, is fine.
TEST(TargetRestriction, OrtCpuRecurrentLayout) {
  for (const char* op : {"GRU", "LSTM", "RNN"}) {
    const auto ort = for_targets({"ort-cpu"});
    EXPECT_THAT(findings(kRule, recurrent_model(op, std::nullopt), ort), IsEmpty()) << op;
    EXPECT_THAT(findings(kRule, recurrent_model(op, 0), ort), IsEmpty()) << op;
    auto diags = diagnostics(kRule, recurrent_model(op, 1), ort);
    ASSERT_EQ(diags.size(), 1u) << op;
    EXPECT_EQ(diags[0].severity, Severity::Error) << op;
    EXPECT_EQ(diags[0].message, std::string("rnn (") + op +
                                    ") has layout=1, which ONNX Runtime CPU EP 1.30 "
                                    "does not support (supported: 0)");
  }
}

// ONNX Runtime's CPU kernels refused layout=1 in every release with a table (ORT's own oracle
// of each release, tests/ort); TensorRT's restrictions stay with its newest table.
TEST(TargetRestriction, RestrictionOfEveryReleaseAppliesToOlderTables) {
  for (const char* target : {"onnxruntime-cpu@1.16.0", "ort@1.18", "ort-cpu@1.24"}) {
    auto diags = diagnostics(kRule, recurrent_model("GRU", 1), for_targets({target}));
    ASSERT_EQ(diags.size(), 1u) << target;
    EXPECT_NE(diags[0].message.find("has layout=1, which ONNX Runtime CPU EP 1."),
              std::string::npos)
        << diags[0].message;
    EXPECT_THAT(findings(kRule, recurrent_model("GRU", 0), for_targets({target})), IsEmpty());
  }
  onnx::ModelProto gru;
  ASSERT_TRUE(gru.ParseFromString(recurrent_model("GRU", 1)));
  EXPECT_THAT(findings(kRule, nest_in_loop(gru), for_targets({"ort@1.18"})),
              ElementsAre(std::string(kRule) + " " + kNestedPath + "/rnn @onnxruntime-cpu@1.18"));
  // TensorRT's restrictions are encoded for 10.15 only: K < 3840 is not checked on 8.6.
  ModelBuilder k(17);
  k.graph().input("x", kFloat, {5000}).output("v", kFloat, {1}).output("i", kInt64, {1});
  k.graph().initializer(make_tensor_i64("k", {1}, {4000}));
  k.graph().node("TopK", {"x", "k"}, {"v", "i"}, "topk");
  EXPECT_THAT(run(k, "tensorrt"), ElementsAre(at("topk", "tensorrt")));
  EXPECT_THAT(run(k, "tensorrt@8.6"), IsEmpty());
}

TEST(TargetRestriction, AttributePresenceAndLists) {
  // TensorRT ignores RandomNormal's seed.
  ModelBuilder m(17);
  m.graph().output("y", kFloat, {2});
  auto& n = m.graph().node("RandomNormal", {}, {"y"}, "rn");
  attr_ints(n, "shape", {2});
  EXPECT_THAT(run(m, "tensorrt"), IsEmpty());
  attr_float(n, "seed", 1);
  EXPECT_THAT(run(m, "tensorrt"), ElementsAre(at("rn", "tensorrt")));
  // The node still converts: a warning on TensorRT too, and the verdict stays ok.
  auto seeded = diagnostics(kRule, m.bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(seeded.size(), 1u);
  EXPECT_EQ(seeded[0].severity, Severity::Warning);
  EXPECT_EQ(summary(m, "tensorrt")["verdict"], "ok");
  // TensorRT MaxPool: dilations all 1.
  ModelBuilder p(17);
  p.graph().input("x", kFloat, {1, 1, 8, 8}).output("y", kFloat, {1, 1, 3, 3});
  auto& pool = p.graph().node("MaxPool", {"x"}, {"y"}, "pool");
  attr_ints(pool, "kernel_shape", {2, 2});
  attr_ints(pool, "dilations", {1, 1});
  EXPECT_THAT(run(p, "tensorrt"), IsEmpty());
  p.proto().mutable_graph()->mutable_node(0)->mutable_attribute(1)->set_ints(0, 2);
  EXPECT_THAT(run(p, "tensorrt"), ElementsAre(at("pool", "tensorrt")));
}

TEST(TargetRestriction, RanksWhereShapesAreKnown) {
  auto conv = [](const std::vector<DimSpec>& x) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, x).output("y", kFloat, {1});
    m.graph().initializer(make_tensor_f32("w", {1, 1, 1, 1}, {1}));
    m.graph().node("Conv", {"x", "w"}, {"y"}, "conv");
    return m;
  };
  // NNAPI: 2D convolution only (4D input); the 5D input also exceeds NNAPI's rank limit of 4.
  EXPECT_THAT(run(conv({1, 1, 2, 2, 2}), "nnapi"),
              ElementsAre(at("conv", "onnxruntime-nnapi"), at("conv", "onnxruntime-nnapi")));
  EXPECT_THAT(run(conv({1, 1, 2, 2}), "nnapi"), IsEmpty());
  // WebGPU: no 3D convolution (rank at most 4).
  EXPECT_THAT(run(conv({1, 1, 2, 2, 2}), "webgpu"),
              ElementsAre(at("conv", "onnxruntime-webgpu-jsep")));
  // Unknown shape: not guessed.
  ModelBuilder u(17);
  u.graph().input("x", kFloat, {}, false).output("y", kFloat, {1});
  u.graph().initializer(make_tensor_f32("w", {1, 1, 1, 1}, {1}));
  u.graph().node("Conv", {"x", "w"}, {"y"}, "conv");
  EXPECT_THAT(run(u, "nnapi"), IsEmpty());
  // RankAtLeast: CoreML NeuralNetwork Gather has no scalar indices.
  ModelBuilder g(17);
  g.graph().input("x", kFloat, {3, 2}).output("y", kFloat, {2});
  g.graph().initializer(make_tensor_i64("i", {}, {1}));
  g.graph().node("Gather", {"x", "i"}, {"y"}, "gather");
  EXPECT_THAT(run(g, "coreml-nn"), ElementsAre(at("gather", "onnxruntime-coreml-neuralnetwork")));
}

TEST(TargetRestriction, StaticShapeAndTypes) {
  // TensorRT EyeLike needs a static input shape.
  ModelBuilder e(17);
  e.graph().input("x", kFloat, {"n", 4}).output("y", kFloat, {"n", 4});
  e.graph().node("EyeLike", {"x"}, {"y"}, "eye");
  EXPECT_THAT(run(e, "tensorrt"), ElementsAre(at("eye", "tensorrt")));
  ModelBuilder s(17);
  s.graph().input("x", kFloat, {4, 4}).output("y", kFloat, {4, 4});
  s.graph().node("EyeLike", {"x"}, {"y"}, "eye");
  EXPECT_THAT(run(s, "tensorrt"), IsEmpty());
  // CoreML ML Program Pow: both inputs fp32.
  ModelBuilder p(17);
  p.graph().input("x", kFloat16, {2}).input("e", kFloat16, {2}).output("y", kFloat16, {2});
  p.graph().node("Pow", {"x", "e"}, {"y"}, "pow");
  auto diags = diagnostics(kRule, p.bytes(), for_targets({"coreml"}));
  ASSERT_EQ(diags.size(), 1u);  // X, and Y in a note: one restriction, one node, one finding
  EXPECT_EQ(diags[0].message,
            "pow (Pow) has input 'X' ('x') of type float16, which ONNX Runtime "
            "CoreML EP, ML Program (main) does not support here");
  EXPECT_THAT(diags[0].notes, Contains("the same holds for input 'Y'"));
  // onnx-mlir Add: no int8/int16 anywhere on the node.
  ModelBuilder a(17);
  a.graph().input("x", kInt8, {2}).output("y", kInt8, {2});
  a.graph().node("Add", {"x", "x"}, {"y"}, "add");
  EXPECT_THAT(run(a, "onnx-mlir"),
              ElementsAre(at("add", "onnx-mlir-cpu")));  // A, B and C: one finding
}

TEST(TargetRestriction, ConstantValues) {
  // TensorRT QuantizeLinear: y_zero_point must be 0.
  auto quant = [](const std::string& zp) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {4}).output("y", kUint8, {4});
    m.graph().initializer(make_tensor_f32("s", {}, {0.5f}));
    m.graph().initializer(tensor_u8("zp", {}, zp));
    m.graph().node("QuantizeLinear", {"x", "s", "zp"}, {"y"}, "q");
    return m;
  };
  EXPECT_THAT(run(quant(std::string(1, '\x03')), "tensorrt"), ElementsAre(at("q", "tensorrt")));
  EXPECT_THAT(run(quant(std::string(1, '\0')), "tensorrt"), IsEmpty());
  // TensorRT Dropout: training_mode must be a constant false.
  ModelBuilder d(17);
  d.graph().input("x", kFloat, {4}).input("train", kBool, {}).output("y", kFloat, {4});
  d.graph().node("Dropout", {"x", "", "train"}, {"y"}, "drop");
  EXPECT_THAT(run(d, "tensorrt"), ElementsAre(at("drop", "tensorrt")));
  // OpenVINO Dropout: the same, from its translator (a note onnx-lint added to the table). A
  // constant true fails whatever the ratio; constant false and an omitted input pass.
  EXPECT_THAT(run(d, "openvino"), ElementsAre(at("drop", "openvino")));
  auto ov_dropout = [](std::optional<bool> train) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {4}).output("y", kFloat, {4});
    m.graph().initializer(make_tensor_f32("ratio", {}, {0.0f}));
    if (train) m.graph().initializer(make_tensor_bool("train", *train));
    m.graph().node("Dropout", {"x", "ratio", train ? "train" : ""}, {"y"}, "drop");
    return m;
  };
  EXPECT_THAT(run(ov_dropout(true), "openvino"), ElementsAre(at("drop", "openvino")));
  EXPECT_THAT(run(ov_dropout(false), "openvino"), IsEmpty());
  EXPECT_THAT(run(ov_dropout(std::nullopt), "openvino"), IsEmpty());
  // NNAPI Pad: pads >= 0.
  ModelBuilder p(17);
  p.graph().input("x", kFloat, {1, 4}).output("y", kFloat, {1, 3});
  p.graph().initializer(make_tensor_i64("pads", {4}, {0, 0, 0, -1}));
  p.graph().node("Pad", {"x", "pads"}, {"y"}, "pad");
  EXPECT_THAT(run(p, "nnapi"), ElementsAre(at("pad", "onnxruntime-nnapi")));
  // TensorRT TopK: K < 3840.
  auto topk = [](int64_t k) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {5000}).output("v", kFloat, {1}).output("i", kInt64, {1});
    m.graph().initializer(make_tensor_i64("k", {1}, {k}));
    m.graph().node("TopK", {"x", "k"}, {"v", "i"}, "topk");
    return m;
  };
  EXPECT_THAT(run(topk(4000), "tensorrt"), ElementsAre(at("topk", "tensorrt")));
  EXPECT_THAT(run(topk(10), "tensorrt"), IsEmpty());
  // WebNN Reshape: no zeros in the shape.
  ModelBuilder r(17);
  r.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {2, 3});
  r.graph().initializer(make_tensor_i64("shape", {2}, {0, -1}));
  r.graph().node("Reshape", {"x", "shape"}, {"y"}, "reshape");
  EXPECT_THAT(run(r, "webnn"), ElementsAre(at("reshape", "onnxruntime-webnn")));
}

TEST(TargetRestriction, ConstantScalarExponent) {
  auto pow = [](float e) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {1, 2, 2, 2}).output("y", kFloat, {1, 2, 2, 2});
    m.graph().initializer(make_tensor_f32("e", {}, {e}));
    m.graph().node("Pow", {"x", "e"}, {"y"}, "pow");
    return m;
  };
  EXPECT_THAT(run(pow(2.5f), "nnpa"), ElementsAre(at("pow", "onnx-mlir-nnpa")));
  EXPECT_THAT(run(pow(100.0f), "nnpa"), ElementsAre(at("pow", "onnx-mlir-nnpa")));
  EXPECT_THAT(run(pow(2.0f), "nnpa"), IsEmpty());
}

TEST(TargetRestriction, ShapesOfInputs) {
  // onnx-mlir QuantizeLinear: per-tensor scale only.
  ModelBuilder q(17);
  q.graph().input("x", kFloat, {3, 4}).output("y", kUint8, {3, 4});
  q.graph().initializer(make_tensor_f32("s", {3}, {1, 1, 1}));
  attr_int(q.graph().node("QuantizeLinear", {"x", "s"}, {"y"}, "q"), "axis", 0);
  EXPECT_THAT(run(q, "onnx-mlir"), ElementsAre(at("q", "onnx-mlir-cpu")));
  // NNPA Add: same shapes only.
  ModelBuilder a(17);
  a.graph().input("x", kFloat, {2, 4}).input("b", kFloat, {4}).output("y", kFloat, {2, 4});
  a.graph().node("Add", {"x", "b"}, {"y"}, "add");
  EXPECT_THAT(run(a, "nnpa"), ElementsAre(at("add", "onnx-mlir-nnpa")));
  ModelBuilder s(17);
  s.graph().input("x", kFloat, {2, 4}).input("b", kFloat, {2, 4}).output("y", kFloat, {2, 4});
  s.graph().node("Add", {"x", "b"}, {"y"}, "add");
  EXPECT_THAT(run(s, "nnpa"), IsEmpty());
  // NNPA Softmax: the last axis only.
  auto softmax = [](int64_t axis) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {2, 3, 4}).output("y", kFloat, {2, 3, 4});
    attr_int(m.graph().node("Softmax", {"x"}, {"y"}, "sm"), "axis", axis);
    return m;
  };
  EXPECT_THAT(run(softmax(1), "nnpa"), ElementsAre(at("sm", "onnx-mlir-nnpa")));
  EXPECT_THAT(run(softmax(2), "nnpa"), IsEmpty());
  EXPECT_THAT(run(softmax(-1), "nnpa"), IsEmpty());
}

TEST(TargetRestriction, ElementCountThatOverflowsIsNoClaim) {
  // A scale declared [2^32, 2^32]: its 2^64 elements overflow int64 (and wrapped to a claimed
  // "0 elements"); no such tensor exists, so no claim is made about it.
  auto quantize = [](const std::vector<DimSpec>& scale) {
    ModelBuilder q(17);
    q.graph().input("x", kFloat, {3, 4}).input("s", kFloat, scale).output("y", kUint8, {3, 4});
    q.graph().node("QuantizeLinear", {"x", "s"}, {"y"}, "q");
    return q;
  };
  constexpr int64_t k2to32 = int64_t{1} << 32;
  EXPECT_THAT(run(quantize({k2to32, k2to32}), "onnx-mlir"), IsEmpty());
  // Below the overflow, the count is exact: 2^31 * 2^31 elements are per-axis.
  constexpr int64_t k2to31 = int64_t{1} << 31;
  auto d = diagnostics(kRule, quantize({k2to31, k2to31}).bytes(), for_targets({"onnx-mlir"}));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("with 4611686018427387904 elements (per-axis)"));
  EXPECT_THAT(run(quantize({1, 1}), "onnx-mlir"), IsEmpty());
}

TEST(TargetRestriction, RecurrentAndPads) {
  // TensorRT LSTM: bidirectional activations must match.
  auto lstm = [](std::vector<std::string> acts) {
    ModelBuilder m(17);
    m.graph()
        .input("x", kFloat, {1, 1, 2})
        .input("w", kFloat, {2, 8, 2})
        .input("r", kFloat, {2, 8, 2});
    m.graph().output("y", kFloat, {1, 2, 1, 2});
    auto& n = m.graph().node("LSTM", {"x", "w", "r"}, {"y"}, "lstm");
    attr_int(n, "hidden_size", 2);
    attr_string(n, "direction", "bidirectional");
    auto* a = n.add_attribute();
    a->set_name("activations");
    a->set_type(onnx::AttributeProto::STRINGS);
    for (const auto& s : acts) a->add_strings(s);
    return m;
  };
  EXPECT_THAT(run(lstm({"Sigmoid", "Tanh", "Tanh", "Sigmoid", "Relu", "Tanh"}), "tensorrt"),
              ElementsAre(at("lstm", "tensorrt")));
  EXPECT_THAT(run(lstm({"Sigmoid", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"}), "tensorrt"),
              IsEmpty());
  // CoreML NeuralNetwork Pad: only the last two axes.
  auto pad = [](std::vector<int64_t> pads) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {1, 1, 2, 2}).output("y", kFloat, {1, 1, 4, 4});
    m.graph().initializer(make_tensor_i64("pads", {8}, pads));
    m.graph().node("Pad", {"x", "pads"}, {"y"}, "pad");
    return m;
  };
  EXPECT_THAT(run(pad({0, 1, 0, 0, 0, 1, 0, 0}), "coreml-nn"),
              ElementsAre(at("pad", "onnxruntime-coreml-neuralnetwork")));
  EXPECT_THAT(run(pad({0, 0, 1, 1, 0, 0, 1, 1}), "coreml-nn"), IsEmpty());
}

TEST(TargetRestriction, IfBranchRanks) {
  auto branch = [](const std::string& name, const std::vector<DimSpec>& dims) {
    onnx::GraphProto g;
    g.set_name(name);
    set_value_info(g.add_output(), name + "_out", kFloat, dims);
    auto* n = g.add_node();
    n->set_op_type("Identity");
    n->add_input("x");
    n->add_output(name + "_out");
    return g;
  };
  auto model = [&](const std::vector<DimSpec>& else_dims) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {2, 2}).input("c", kBool, {}).output("y", kFloat, {2, 2});
    auto& n = m.graph().node("If", {"c"}, {"y"}, "if");
    attr_graph(n, "then_branch", branch("then", {2, 2}));
    attr_graph(n, "else_branch", branch("else", else_dims));
    return m;
  };
  EXPECT_THAT(run(model({1, 2, 2}), "tensorrt"), ElementsAre(at("if", "tensorrt")));
  EXPECT_THAT(run(model({2, 2}), "tensorrt"), IsEmpty());
  // A runtime condition: the generic help. A constant one (torch's traced size checks): the fix
  // is folding, which removes the If.
  const auto runtime = diagnostics(kRule, model({1, 2, 2}).bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(runtime.size(), 1u);
  EXPECT_THAT(runtime[0].help, Not(HasSubstr("fold the graph")));
  ModelBuilder folded = model({1, 2, 2});
  onnx::GraphProto& g = *folded.proto().mutable_graph();
  g.mutable_input()->RemoveLast();  // c becomes a Constant, before the If
  auto* c = g.add_node();
  c->set_op_type("Constant");
  c->add_output("c");
  attr_tensor(*c, "value", make_tensor_bool("", true));
  g.mutable_node()->SwapElements(0, g.node_size() - 1);
  const auto constant = diagnostics(kRule, folded.bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(constant.size(), 1u);
  EXPECT_THAT(constant[0].help, HasSubstr("fold the graph"));
}

TEST(TargetRestriction, ConstantUnlessTypeOrAttribute) {
  // NNAPI Gather: runtime indices only as int32.
  auto gather = [](int32_t type) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {3, 2}).input("i", type, {1}).output("y", kFloat, {1, 2});
    m.graph().node("Gather", {"x", "i"}, {"y"}, "gather");
    return m;
  };
  EXPECT_THAT(run(gather(kInt64), "nnapi"), ElementsAre(at("gather", "onnxruntime-nnapi")));
  EXPECT_THAT(run(gather(kInt32), "nnapi"), IsEmpty());
  // NNAPI Gemm: a runtime B needs transB=1.
  auto gemm = [](int64_t trans_b) {
    ModelBuilder m(17);
    m.graph().input("a", kFloat, {2, 2}).input("b", kFloat, {2, 2}).output("y", kFloat, {2, 2});
    attr_int(m.graph().node("Gemm", {"a", "b"}, {"y"}, "gemm"), "transB", trans_b);
    return m;
  };
  EXPECT_THAT(run(gemm(0), "nnapi"), ElementsAre(at("gemm", "onnxruntime-nnapi")));
  EXPECT_THAT(run(gemm(1), "nnapi"), IsEmpty());
}

TEST(TargetRestriction, ReduceOverDefaultAxes) {
  // onnx-mlir ReduceSum: axes must be given, keepdims=1.
  ModelBuilder m(13);
  m.graph().input("x", kFloat, {2, 3}).output("y", kFloat, {1, 1});
  m.graph().node("ReduceSum", {"x"}, {"y"}, "rs");
  EXPECT_THAT(run(m, "onnx-mlir"), ElementsAre(at("rs", "onnx-mlir-cpu")));
  EXPECT_THAT(run(reduce_sum("initializer"), "onnx-mlir"), IsEmpty());
  ModelBuilder k = reduce_sum("initializer");
  attr_int(*k.proto().mutable_graph()->mutable_node(0), "keepdims", 0);
  EXPECT_THAT(run(k, "onnx-mlir"), ElementsAre(at("rs", "onnx-mlir-cpu")));
}

// Target-wide limits: TensorRT rank <= 8, CoreML dims <= 16384 (extra_facts.json).
TEST(TargetRestriction, TargetWideRankAndDimension) {
  ModelBuilder m(17);
  m.graph()
      .input("x", kFloat, {1, 1, 1, 1, 1, 1, 1, 1, 2})
      .output("y", kFloat, {1, 1, 1, 1, 1, 1, 1, 1, 2});
  m.graph().node("Relu", {"x"}, {"y"}, "relu");
  auto diags = diagnostics(kRule, m.bytes(), for_targets({"tensorrt"}));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message,
            "relu (Relu) reads 'x' of rank 9, but TensorRT 10.15 supports tensors up to rank 8");
  EXPECT_THAT(diags[0].notes[0], HasSubstr("MAX_DIMS = 8"));
  ModelBuilder big(17);
  big.graph().input("x", kFloat, {1, 20000}).output("y", kFloat, {1, 20000});
  big.graph().node("Relu", {"x"}, {"y"}, "relu");
  EXPECT_THAT(run(big, "coreml"), ElementsAre(at("relu", "onnxruntime-coreml-mlprogram")));
  EXPECT_THAT(run(big, "tensorrt"), IsEmpty());
}

TEST(TargetRestriction, ShapeChecksReadProvenShapesNotDeclarations) {
  // NNPA Add needs same-shape inputs. 'h' = Relu(x) [2, 4] has no value_info: its proven
  // shape decides (broadcasting against b [4] is reported), and a value_info that adds what
  // inference already knows changes nothing.
  auto model = [](bool with_value_info, int64_t declared_last) {
    ModelBuilder m(17);
    auto& g = m.graph();
    g.input("x", kFloat, {2, 4}).input("b", kFloat, {4}).output("y", kFloat, {}, false);
    g.node("Relu", {"x"}, {"h"}, "relu");
    g.node("Add", {"h", "b"}, {"y"}, "add");
    if (with_value_info) g.value_info("h", kFloat, {2, declared_last});
    return m;
  };
  EXPECT_THAT(run(model(false, 4), "nnpa"), ElementsAre(at("add", "onnx-mlir-nnpa")));
  EXPECT_THAT(run(model(true, 4), "nnpa"), ElementsAre(at("add", "onnx-mlir-nnpa")));
  // A stale declaration ([2, 1], graph-stale-value-info's business) does not change the check.
  EXPECT_THAT(run(model(true, 1), "nnpa"), ElementsAre(at("add", "onnx-mlir-nnpa")));
}

// NNAPI's Gather takes computed indices only as int32: an embedding's int64 token ids are a
// type problem, and the help says so (not "make the value a constant").
// The help is the cause's, not the check's: Dropout's training_mode and a zero point break the
// same "must equal" check, with different fixes; asymmetric pads have their own. Near misses:
// NNAPI's "zero point must be constant" and CoreML's "pads only on the last axes" keep the fix
// of their check.
std::string help_of(const ModelBuilder& m, const char* target) {
  auto diags = diagnostics(kRule, m.bytes(), for_targets({target}));
  return diags.size() == 1 ? diags[0].help : "(" + std::to_string(diags.size()) + " findings)";
}

TEST(TargetRestriction, HelpIsKeyedByTheCause) {
  ModelBuilder drop(17);
  drop.graph().input("x", kFloat, {4}).input("train", kBool, {}).output("y", kFloat, {4});
  drop.graph().node("Dropout", {"x", "", "train"}, {"y"}, "drop");
  EXPECT_THAT(help_of(drop, "tensorrt"), StartsWith("call model.eval()"));

  ModelBuilder quant(17);
  quant.graph().input("x", kFloat, {4}).output("y", kUint8, {4});
  quant.graph().initializer(make_tensor_f32("s", {}, {0.5f}));
  quant.graph().initializer(tensor_u8("zp", {}, std::string(1, '\x03')));
  quant.graph().node("QuantizeLinear", {"x", "s", "zp"}, {"y"}, "q");
  EXPECT_THAT(help_of(quant, "tensorrt"), StartsWith("quantize symmetrically"));
  EXPECT_THAT(help_of(quant, "tensorrt"), Not(HasSubstr("model.eval()")));

  // NNAPI: the zero point computed at run time needs to be a constant, whatever its value.
  ModelBuilder runtime_zp(17);
  runtime_zp.graph().input("x", kFloat, {4}).input("zp", kUint8, {}).output("y", kUint8, {4});
  runtime_zp.graph().initializer(make_tensor_f32("s", {}, {0.5f}));
  runtime_zp.graph().node("QuantizeLinear", {"x", "s", "zp"}, {"y"}, "q");
  EXPECT_THAT(help_of(runtime_zp, "nnapi"), StartsWith("make the value a constant"));

  auto pad = [](const char* op, std::vector<int64_t> pads) {
    ModelBuilder m(17);
    m.graph().input("x", kFloat, {1, 1, 4, 4}).output("y", kFloat, {}, false);
    if (std::string(op) == "Pad") {
      m.graph().initializer(make_tensor_i64("pads", {8}, pads));
      m.graph().node("Pad", {"x", "pads"}, {"y"}, "pad");
    } else {
      m.graph().initializer(make_tensor_f32("w", {1, 1, 3, 3}, std::vector<float>(9, 1.f)));
      m.graph().initializer(make_tensor_f32("off", {1, 18, 4, 4}, std::vector<float>(288, 0.f)));
      auto& n = m.graph().node("DeformConv", {"x", "w", "off"}, {"y"}, "pad");
      attr_ints(n, "pads", pads);
    }
    return m;
  };
  EXPECT_THAT(help_of(pad("DeformConv", {0, 0, 1, 1}), "tensorrt"),
              StartsWith("pad the same on both sides"));
  EXPECT_THAT(help_of(pad("Pad", {0, 1, 0, 0, 0, 1, 0, 0}), "coreml-nn"),
              Not(HasSubstr("both sides")));
}

TEST(TargetRestriction, ConstUnlessTypeHelpIsTheCastForTokenIds) {
  auto embedding = [](int32_t ids_type) {
    ModelBuilder m(13);
    auto& g = m.graph();
    g.input("input_ids", ids_type, {1, 8}).output("y", kFloat, {1, 8, 4});
    g.initializer(make_tensor_f32("table", {100, 4}, std::vector<float>(400, 0.f)));
    g.node("Gather", {"table", "input_ids"}, {"y"}, "embed");
    return m;
  };
  EXPECT_THAT(run(embedding(kInt64), "nnapi"), ElementsAre(at("embed", "onnxruntime-nnapi")));
  const auto d = diagnostics(kRule, embedding(kInt64).bytes(), for_targets({"nnapi"}));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].message, HasSubstr("needs it constant unless it is int32"));
  EXPECT_THAT(d[0].help, HasSubstr("input_ids.to(torch.int32)"));
  EXPECT_THAT(d[0].help, Not(StartsWith("make the value a constant")));
  // Near miss: int32 ids are taken as they are.
  EXPECT_THAT(run(embedding(kInt32), "nnapi"), IsEmpty());
}

}  // namespace
}  // namespace onnxlint::testing
