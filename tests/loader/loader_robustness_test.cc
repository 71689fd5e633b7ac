// Malformed input of any kind must become model-unreadable with a byte offset (or load
// cleanly), never a crash: truncation at every byte, seeded bit flips, hostile nesting, huge
// declared lengths, bad varints. Run these under ASan/UBSan too (docs/architecture.md).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/loader.h>
#include <onnxlint/registry.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

#include "loader/sample_models.h"
#include "loader/wire_writer.h"
#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Offsets where a top-level ModelProto field ends: the only places a truncated copy may
// still be a well-formed message.
std::vector<size_t> top_level_field_ends(const std::string& bytes) {
  std::vector<size_t> ends;
  size_t pos = 0;
  auto varint = [&]() {
    uint64_t v = 0;
    for (int shift = 0; pos < bytes.size(); shift += 7) {
      uint8_t b = static_cast<uint8_t>(bytes[pos++]);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    return v;
  };
  while (pos < bytes.size()) {
    uint64_t tag = varint();
    switch (tag & 7) {
      case 0:
        varint();
        break;
      case 1:
        pos += 8;
        break;
      case 2:
        pos += varint();
        break;
      case 5:
        pos += 4;
        break;
      default:
        ADD_FAILURE() << "unexpected wire type in a valid model";
        return ends;
    }
    ends.push_back(pos);
  }
  return ends;
}

// All rules enabled: the rules must survive whatever the loader accepts.
const Linter& all_rules() {
  static const Linter linter(builtin_registry(), LintOptions{});
  return linter;
}

// Lints `bytes` and checks the only acceptable outcomes. Returns true if the model loaded.
bool lint_and_check(const std::string& bytes, const std::string& what) {
  FileReport r = all_rules().lint_bytes("fuzz.onnx", bytes);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_NE(d.rule_id, "internal-error") << what << ": " << d.message;
  }
  if (r.status == FileReport::Status::Ok) return true;
  EXPECT_EQ(r.diagnostics.size(), 1u) << what;
  if (r.diagnostics.empty()) return false;
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.rule_id, "model-unreadable") << what;
  if (bytes.starts_with("version https://git-lfs.github.com/spec/")) {
    // Named as what it is; an offset into a pointer file would mean nothing.
    EXPECT_THAT(d.message, HasSubstr("this is a Git LFS pointer")) << what;
    return false;
  }
  EXPECT_TRUE(d.location.byte_offset.has_value()) << what;
  EXPECT_LE(d.location.byte_offset.value_or(0), bytes.size()) << what;
  if (d.message.find("the file is ") != std::string::npos) {
    // Recognised as something else (an archive, an image, text): the offset is in a note.
    EXPECT_THAT(d.notes, ::testing::Contains(HasSubstr("stopped at byte "))) << what;
  } else {
    EXPECT_THAT(d.message, HasSubstr("(at byte ")) << what;
  }
  return false;
}

struct Sample {
  std::string name;
  std::string bytes;
};

std::vector<Sample> samples() {
  std::vector<Sample> out;
  out.push_back({"kitchen_sink", kitchen_sink_model()});
  out.push_back({"loop_and_function", loop_and_function_model()});
  // Real exports: a scripted Loop, an If, model-local functions, an LSTM, training mode.
  for (const char* name :
       {"torch_script_while_data_op13.onnx", "torch_script_if_data_op13.onnx",
        "torch_modules_as_functions_op15.onnx", "torch_mlp_static_op13.onnx",
        "torch_cnn_external_data_op13.onnx", "torch_gru_dynamic_seq_op14.onnx"}) {
    std::string bytes = read_file(data_path(std::string("corpus/") + name));
    EXPECT_FALSE(bytes.empty()) << name;
    out.push_back({name, bytes});
  }
  return out;
}

TEST(LoaderRobustness, SamplesLoadCleanly) {
  for (const Sample& s : samples()) {
    LoadResult r = load_model_from_bytes(s.name, s.bytes);
    ASSERT_TRUE(r.model) << s.name << ": " << r.error->message << " at " << r.error->offset;
    EXPECT_TRUE(lint_and_check(s.bytes, s.name));
  }
}

TEST(LoaderRobustness, KitchenSinkIsFullyRead) {
  LoadResult r = load_model_from_bytes("sink.onnx", kitchen_sink_model());
  ASSERT_TRUE(r.model);
  const Model& m = *r.model;
  EXPECT_EQ(m.ir_version(), 8);
  EXPECT_EQ(m.producer_name(), "onnxlint-tests");
  EXPECT_EQ(m.domain(), "ai.onnxlint.tests");
  EXPECT_EQ(m.model_version(), 3);
  EXPECT_EQ(m.metadata_props().size(), 2u);
  EXPECT_EQ(m.training_info_count(), 1u);
  EXPECT_EQ(m.opset_for(""), 17);
  EXPECT_EQ(m.opset_for("ai.onnx"), 17);
  EXPECT_EQ(m.opset_for("custom.domain"), 1);
  ASSERT_EQ(m.functions().size(), 1u);
  EXPECT_EQ(m.functions()[0]->body().path(), "fn:custom.domain::Fn");
  EXPECT_THAT(m.functions()[0]->attributes(), ::testing::ElementsAre("alpha", "beta"));
  EXPECT_EQ(m.functions()[0]->body().nodes()[0].attributes()[0].ref_attr_name, "alpha");
  std::vector<std::string> paths;
  for (const Graph* g : m.all_graphs()) paths.push_back(g->path());
  EXPECT_THAT(paths, ::testing::ElementsAre(
                         "main", "main/branch:then_branch", "main/branch:then_branch/loop:body",
                         "main/branch:else_branch", "main/graphs_holder:bodies[0]",
                         "main/graphs_holder:bodies[1]", "fn:custom.domain::Fn"));
  const Graph& g = m.graph();
  ASSERT_EQ(g.initializers().size(), 3u);
  EXPECT_EQ(g.initializers()[2].storage, TensorData::Storage::External);
  EXPECT_EQ(g.initializers()[2].external_value("length"), "16");
  ASSERT_EQ(g.sparse_initializers().size(), 1u);
  EXPECT_EQ(g.sparse_initializers()[0].values.name, "sp");
  EXPECT_THAT(g.sparse_initializers()[0].dims, ElementsAre(4));
  const Node& mul = g.nodes()[0];
  EXPECT_EQ(mul.attr_int("i"), -3);
  EXPECT_EQ(mul.attr_string("s"), "text");
  EXPECT_FLOAT_EQ(mul.attribute("f")->f, 0.5f);
  EXPECT_THAT(mul.attribute("ints")->ints, ElementsAre(1, -2, 3));
  EXPECT_THAT(mul.attribute("floats")->floats, ElementsAre(1.5f, -2.5f));
  EXPECT_EQ(mul.attribute("strings")->strings.size(), 2u);
  ASSERT_EQ(mul.attribute("tensors")->tensors.size(), 1u);
  EXPECT_EQ(m.read_ints(*mul.attribute("tensors")->tensors[0]), std::vector<int64_t>{7});
  ASSERT_TRUE(mul.attribute("tp")->tp.has_value());
  EXPECT_EQ(mul.attribute("tp")->tp->kind, TypeInfo::Kind::Sequence);
  EXPECT_EQ(mul.attribute("tp")->tp->elem_type, 1);
  EXPECT_EQ(mul.attribute("sparse")->type, Attribute::Type::SparseTensor);
  ASSERT_EQ(mul.metadata_props().size(), 1u);
  EXPECT_EQ(mul.metadata_props()[0].key, "node-key");
  EXPECT_EQ(mul.overload(), "v2");
  // Nodes without overload or metadata read as empty.
  ASSERT_GE(g.nodes().size(), 2u);
  ASSERT_EQ(g.nodes()[1].name(), "reshape");
  EXPECT_TRUE(g.nodes()[1].metadata_props().empty());
  EXPECT_EQ(g.nodes()[1].overload(), "");
  EXPECT_EQ(g.inputs()[0].type.dims[0].param, "batch");
  EXPECT_EQ(g.value_info().size(), 1u);
  // Subgraph links.
  const Graph* loop_body = m.all_graphs()[2];
  EXPECT_EQ(loop_body->depth(), 2);
  EXPECT_EQ(loop_body->owner()->name(), "loop");
  EXPECT_EQ(loop_body->parent()->path(), "main/branch:then_branch");
  EXPECT_EQ(loop_body->owner_attribute(), "body");
}

// Every prefix of every sample: a clean load only where a top-level field ends; otherwise
// model-unreadable with an offset inside the prefix.
TEST(LoaderRobustness, TruncationAtEveryByte) {
  size_t loaded = 0, unreadable = 0;
  for (const Sample& s : samples()) {
    std::vector<size_t> ends = top_level_field_ends(s.bytes);
    for (size_t cut = 0; cut < s.bytes.size(); ++cut) {
      std::string prefix = s.bytes.substr(0, cut);
      std::string what = s.name + " cut at " + std::to_string(cut);
      if (lint_and_check(prefix, what)) {
        ++loaded;
        EXPECT_TRUE(std::find(ends.begin(), ends.end(), cut) != ends.end()) << what;
      } else {
        ++unreadable;
      }
    }
  }
  EXPECT_GT(unreadable, 10000u);
  EXPECT_GT(loaded, 0u);  // cuts after the graph, before trailing fields (opset, functions)
}

// A length-delimited field: where its length varint and its payload are.
struct LenField {
  size_t len_start, data_start, data_end;
};

// The length-delimited fields of [begin, end) if it is a well-formed message.
std::optional<std::vector<LenField>> message_fields(const std::string& b, size_t begin,
                                                    size_t end) {
  std::vector<LenField> out;
  size_t pos = begin;
  auto varint = [&](uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) return false;
      uint8_t byte = static_cast<uint8_t>(b[pos++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  };
  while (pos < end) {
    uint64_t tag = 0, v = 0;
    if (!varint(tag) || (tag >> 3) == 0) return std::nullopt;
    switch (tag & 7) {
      case 0:
        if (!varint(v)) return std::nullopt;
        break;
      case 1:
      case 5: {
        size_t n = (tag & 7) == 1 ? 8 : 4;
        if (end - pos < n) return std::nullopt;
        pos += n;
        break;
      }
      case 2: {
        size_t len_start = pos;
        if (!varint(v) || v > end - pos) return std::nullopt;
        out.push_back({len_start, pos, pos + v});
        pos += v;
        break;
      }
      default:
        return std::nullopt;
    }
  }
  return out;
}

// Calls f with the chain of enclosing fields for every length-delimited field at any depth
// (payloads that parse as messages are entered; a string that happens to parse is entered
// too, which is harmless: cutting it only shortens the string).
void for_each_len_field(const std::string& b, size_t begin, size_t end,
                        std::vector<LenField>& chain,
                        const std::function<void(const std::vector<LenField>&)>& f) {
  auto fields = message_fields(b, begin, end);
  if (!fields || chain.size() > 64) return;
  for (const LenField& lf : *fields) {
    chain.push_back(lf);
    f(chain);
    for_each_len_field(b, lf.data_start, lf.data_end, chain, f);
    chain.pop_back();
  }
}

// The model with the innermost field of `chain` cut after `k` payload bytes, and every
// enclosing length fixed up: a well-framed file whose sub-message is truncated.
std::string cut_inside(const std::string& b, const std::vector<LenField>& chain, size_t k) {
  const LenField& in = chain.back();
  const size_t cut = in.data_start + k;
  uint64_t removed = in.data_end - cut;
  std::vector<uint64_t> new_size(chain.size());
  for (size_t i = chain.size(); i-- > 0;) {
    uint64_t old = chain[i].data_end - chain[i].data_start;
    new_size[i] = old - removed;
    removed += wire_writer::varint(old).size() - wire_writer::varint(new_size[i]).size();
  }
  std::string out;
  size_t pos = 0;
  for (size_t i = 0; i < chain.size(); ++i) {
    out += b.substr(pos, chain[i].len_start - pos);
    out += wire_writer::varint(new_size[i]);
    pos = chain[i].data_start;
  }
  out += b.substr(pos, cut - pos);
  out += b.substr(in.data_end);
  EXPECT_EQ(out.size(), b.size() - removed);
  return out;
}

// Truncation inside every nested message at every byte, with the enclosing lengths fixed up
// so the damage is not caught at the top level: the walker must stop cleanly at any depth.
TEST(LoaderRobustness, TruncationInsideEveryNestedMessage) {
  size_t variants = 0, loaded = 0;
  std::vector<Sample> small;
  for (const Sample& s : samples()) {
    if (s.bytes.size() <= 2500) small.push_back(s);
  }
  ASSERT_GE(small.size(), 4u);
  for (const Sample& s : small) {
    std::vector<LenField> chain;
    for_each_len_field(s.bytes, 0, s.bytes.size(), chain, [&](const std::vector<LenField>& c) {
      const size_t size = c.back().data_end - c.back().data_start;
      for (size_t k = 0; k < size; ++k) {
        std::string variant = cut_inside(s.bytes, c, k);
        ++variants;
        LoadResult r = load_model_from_bytes("cut.onnx", variant);
        if (r.model) {
          // Whatever loads must lint without a rule failing. Linting with every rule costs
          // a millisecond or two in a debug build, so every 8th loaded variant is linted (they
          // differ by a byte or two; the bit-flip test lints every mutation).
          if (loaded++ % 8 == 0) lint_and_check(variant, s.name + " nested cut");
        } else {
          EXPECT_LE(r.error->offset, variant.size()) << s.name;
        }
      }
    });
  }
  EXPECT_GT(variants, 10000u);
  EXPECT_GT(loaded, 100u);  // cuts inside names and strings still load
  std::cout << variants << " variants, " << loaded << " loaded\n";
}

// Random corruption with fixed seeds (reproducible): flipped bits, random bytes, and
// overwritten runs. Whatever happens, it must be a diagnostic, not a crash.
TEST(LoaderRobustness, SeededBitFlips) {
  size_t mutations = 0, loaded = 0;
  for (const Sample& s : samples()) {
    std::mt19937_64 rng(0x5eed0000u + s.bytes.size());
    for (int i = 0; i < 400; ++i) {
      std::string copy = s.bytes;
      std::uniform_int_distribution<size_t> pos(0, copy.size() - 1);
      int kind = i % 3;
      int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        size_t p = pos(rng);
        if (kind == 0) {
          copy[p] = static_cast<char>(copy[p] ^ (1 << (rng() % 8)));
        } else if (kind == 1) {
          copy[p] = static_cast<char>(rng() & 0xff);
        } else {
          // A run of 0xff: long varints, huge lengths.
          for (size_t k = p; k < std::min(copy.size(), p + 1 + rng() % 12); ++k) copy[k] = '\xff';
        }
      }
      loaded += lint_and_check(copy, s.name + " mutation " + std::to_string(i));
      ++mutations;
    }
  }
  EXPECT_EQ(mutations, 400u * samples().size());
  EXPECT_GT(loaded, 0u);  // many flips land in names or payloads and still load
}

// Each kind of malformation, with the exact offset the diagnostic names.
TEST(LoaderRobustness, BadVarints) {
  auto error_of = [](const std::string& bytes) {
    LoadResult r = load_model_from_bytes("bad.onnx", bytes);
    EXPECT_FALSE(r.model);
    return r.error.value_or(LoadError{});
  };
  // More than 10 bytes: the 10th byte may only hold one bit (and no continuation).
  LoadError e = error_of(std::string("\x08") + std::string(10, '\x80') + "\x01");
  EXPECT_EQ(e.message, "varint overflows 64 bits");
  EXPECT_EQ(e.offset, 1u);
  e = error_of(std::string("\x08") + std::string(9, '\xff') + "\x02");
  EXPECT_EQ(e.message, "varint overflows 64 bits");
  // The largest 64-bit value is fine.
  EXPECT_EQ(load_model_from_bytes("max.onnx", std::string("\x08") + std::string(9, '\xff') + "\x01")
                .error->message,
            "ModelProto has no graph");
  // A tag that is itself a truncated varint.
  e = error_of(std::string("\x80", 1));
  EXPECT_EQ(e.message, "truncated varint");
  EXPECT_EQ(e.offset, 0u);
  // A tag beyond 32 bits.
  e = error_of(std::string("\xff\xff\xff\xff\x7f\x00", 6));
  EXPECT_EQ(e.message, "field tag out of range");
  // Field number 0.
  e = error_of(std::string("\x00\x00", 2));
  EXPECT_THAT(e.message, HasSubstr("field number 0"));
  // Deprecated group wire types.
  e = error_of(std::string("\x0b", 1));
  EXPECT_THAT(e.message, HasSubstr("unsupported wire type 3"));
  // A known field with the wrong wire type (ir_version as a string).
  e = error_of(std::string("\x0a\x01x", 3));
  EXPECT_THAT(e.message, HasSubstr("ModelProto.ir_version has wire type 2"));
}

TEST(LoaderRobustness, HugeDeclaredLengths) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  const std::string valid = m.bytes();
  for (uint64_t len : {uint64_t{1} << 31, uint64_t{1} << 32, uint64_t{1} << 62, ~uint64_t{0}}) {
    // A graph field declaring `len` bytes.
    std::string bytes = std::string("\x08\x08", 2) + wire_writer::len_tag(7) +
                        wire_writer::varint(len) + "\x0a\x00";
    LoadResult r = load_model_from_bytes("huge.onnx", bytes);
    ASSERT_FALSE(r.model);
    EXPECT_THAT(r.error->message, HasSubstr("length " + std::to_string(len) + " of field 7"));
    EXPECT_EQ(r.error->offset, 3u);
    // The same inside a node: a name claiming `len` bytes.
    std::string node = wire_writer::len_tag(3) + wire_writer::varint(len) + "ab";
    std::string graph = wire_writer::len_field(1, node);
    std::string model = std::string("\x08\x08", 2) + wire_writer::len_field(7, graph);
    r = load_model_from_bytes("huge-node.onnx", model);
    ASSERT_FALSE(r.model);
    EXPECT_THAT(r.error->message, HasSubstr("of field 3 runs past the end of its message"));
  }
  // Packed dims beyond the dims limit, and a packed floats attribute of odd length.
  std::string dims;
  for (int i = 0; i < 100; ++i) dims += wire_writer::varint(2);
  std::string tensor = wire_writer::len_field(1, dims) + wire_writer::len_field(8, "t");
  std::string graph = wire_writer::len_field(5, tensor);
  LoadResult r = load_model_from_bytes(
      "dims.onnx", std::string("\x08\x08", 2) + wire_writer::len_field(7, graph));
  ASSERT_FALSE(r.model);
  EXPECT_THAT(r.error->message, HasSubstr("TensorProto.dims: too many values"));
  std::string attr = wire_writer::len_field(1, "a") + wire_writer::len_field(7, "abc");
  std::string node = wire_writer::len_field(4, "Relu") + wire_writer::len_field(5, attr);
  r = load_model_from_bytes(
      "floats.onnx",
      std::string("\x08\x08", 2) + wire_writer::len_field(7, wire_writer::len_field(1, node)));
  ASSERT_FALSE(r.model);
  EXPECT_THAT(r.error->message, HasSubstr("packed floats length not a multiple of 4"));
}

onnx::GraphProto nested_graph(int depth) {
  onnx::GraphProto inner;
  inner.set_name("leaf");
  for (int i = 0; i < depth; ++i) {
    onnx::GraphProto outer;
    auto* n = outer.add_node();
    n->set_op_type("If");
    n->set_name("if" + std::to_string(i));
    attr_graph(*n, "then_branch", inner);
    inner = outer;
  }
  return inner;
}

TEST(LoaderRobustness, NestingLimit) {
  ModelBuilder m;
  *m.proto().mutable_graph() = nested_graph(64);
  LoadResult ok = load_model_from_bytes("deep.onnx", m.bytes());
  ASSERT_TRUE(ok.model);
  EXPECT_EQ(ok.model->all_graphs().size(), 65u);
  EXPECT_EQ(ok.model->all_graphs().back()->depth(), 64);

  *m.proto().mutable_graph() = nested_graph(65);
  LoadResult deep = load_model_from_bytes("deeper.onnx", m.bytes());
  ASSERT_FALSE(deep.model);
  EXPECT_EQ(deep.error->message, "subgraphs nested deeper than 64");
  // The offset is the tag of the 65th nested graph field.
  EXPECT_GT(deep.error->offset, 0u);
  EXPECT_LT(deep.error->offset, m.bytes().size());
  EXPECT_EQ(static_cast<uint8_t>(m.bytes()[deep.error->offset]), 0x32);  // AttributeProto.g

  // A configurable limit.
  LoadLimits limits;
  limits.max_graph_depth = 2;
  *m.proto().mutable_graph() = nested_graph(3);
  EXPECT_FALSE(load_model_from_bytes("three.onnx", m.bytes(), limits).model);
  *m.proto().mutable_graph() = nested_graph(2);
  EXPECT_TRUE(load_model_from_bytes("two.onnx", m.bytes(), limits).model);

  // Thousands of levels (written as wire bytes: protobuf itself would take long to copy
  // them): refused at the limit, without recursing further.
  // Each level is a prefix in front of the level it holds, so build the prefixes inside out
  // and concatenate them outside in (linear, not quadratic).
  std::vector<std::string> prefixes;
  uint64_t inner = 0;  // bytes of the graph held by the current level
  for (int i = 0; i < 5000; ++i) {
    std::string attr_head = wire_writer::len_field(1, "then_branch") + wire_writer::len_tag(6) +
                            wire_writer::varint(inner);
    uint64_t attr_len = attr_head.size() + inner;
    std::string node_head =
        wire_writer::len_field(4, "If") + wire_writer::len_tag(5) + wire_writer::varint(attr_len);
    uint64_t node_len = node_head.size() + attr_len;
    std::string graph_head = wire_writer::len_tag(1) + wire_writer::varint(node_len);
    prefixes.push_back(graph_head + node_head + attr_head);
    inner = graph_head.size() + node_len;
  }
  std::string deepest =
      std::string("\x08\x08", 2) + wire_writer::len_tag(7) + wire_writer::varint(inner);
  for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) deepest += *it;
  ASSERT_EQ(deepest.size(), 3 + wire_writer::varint(inner).size() + inner);
  EXPECT_FALSE(lint_and_check(deepest, "5000 levels"));
  EXPECT_EQ(load_model_from_bytes("5000.onnx", deepest).error->message,
            "subgraphs nested deeper than 64");
}

// TypeProto nesting is parsed by protobuf, whose own recursion limit applies.
TEST(LoaderRobustness, DeeplyNestedTypeProto) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  onnx::TypeProto t;
  t.mutable_tensor_type()->set_elem_type(1);
  for (int i = 0; i < 300; ++i) {
    onnx::TypeProto outer;
    *outer.mutable_sequence_type()->mutable_elem_type() = t;
    t = outer;
  }
  *m.graph().proto().mutable_input(0)->mutable_type() = t;
  LoadResult r = load_model_from_bytes("types.onnx", m.bytes());
  ASSERT_FALSE(r.model);
  EXPECT_EQ(r.error->message, "TypeProto could not be parsed");
  // Shallow nesting loads, and reports the outer kind with the innermost element type.
  onnx::TypeProto seq;
  seq.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(7);
  *m.graph().proto().mutable_input(0)->mutable_type() = seq;
  LoadResult ok = load_model_from_bytes("seq.onnx", m.bytes());
  ASSERT_TRUE(ok.model);
  EXPECT_EQ(ok.model->graph().inputs()[0].type.kind, TypeInfo::Kind::Sequence);
  EXPECT_EQ(ok.model->graph().inputs()[0].type.elem_type, 7);
}

TEST(LoaderRobustness, NodeCountLimit) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  std::string prev = "x";
  for (int i = 0; i < 20; ++i) {
    std::string out = i == 19 ? "y" : "t" + std::to_string(i);
    m.graph().node("Relu", {prev}, {out});
    prev = out;
  }
  LoadLimits limits;
  limits.max_nodes = 10;
  LoadResult r = load_model_from_bytes("many.onnx", m.bytes(), limits);
  ASSERT_FALSE(r.model);
  EXPECT_EQ(r.error->message, "more than 10 nodes");
}

TEST(LoaderRobustness, NotOnnxFiles) {
  for (const std::string& bytes :
       {std::string("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n"),
        std::string("PK\x03\x04", 4), std::string("\x89PNG\r\n\x1a\n", 8),
        std::string(1000, '\0')}) {
    EXPECT_FALSE(lint_and_check(bytes, bytes.substr(0, 8)));
  }
  // Only unknown fields: well-formed protobuf, but not a model.
  LoadResult r = load_model_from_bytes("unknown.onnx", wire_writer::len_field(99, "abc"));
  ASSERT_FALSE(r.model);
  EXPECT_EQ(r.error->message, "no ModelProto fields found (not an ONNX model)");
  r = load_model_from_bytes("nograph.onnx", std::string("\x08\x08", 2));
  ASSERT_FALSE(r.model);
  EXPECT_EQ(r.error->message, "ModelProto has no graph");
}

// The file path and the in-memory path agree.
TEST(LoaderRobustness, MappedFileAndBytesGiveTheSameFindings) {
  for (const char* name : {"torch_script_while_data_op13.onnx", "torch_trainnet_training_op13.onnx",
                           "torch_modules_as_functions_op15.onnx"}) {
    std::string path = data_path(std::string("corpus/") + name);
    FileReport from_file = all_rules().lint_file(path);
    FileReport from_bytes = all_rules().lint_bytes(path, read_file(path));
    ASSERT_EQ(from_file.diagnostics.size(), from_bytes.diagnostics.size()) << name;
    for (size_t i = 0; i < from_file.diagnostics.size(); ++i) {
      EXPECT_EQ(from_file.diagnostics[i].fingerprint(), from_bytes.diagnostics[i].fingerprint());
      EXPECT_EQ(from_file.diagnostics[i].message, from_bytes.diagnostics[i].message);
    }
  }
}

}  // namespace
}  // namespace onnxlint::testing
