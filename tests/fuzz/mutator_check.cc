// ctest fuzz.mutator: the structure-aware mutator (onnx_mutator.cc) keeps models parseable and
// reaches the edits it exists for. From each model given, 200 edits in a chain: every mutant
// must parse as an onnx::ModelProto, and over all chains the mutants must include an If or Loop
// made by the nesting edit, a rank-0 declared tensor, a dim of INT64_MIN or INT64_MAX, a node
// reading a value produced after it (a cycle or a moved producer) and an external-data
// initializer. Exit code 1 names what is missing.
//   mutator_check MODEL...
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "onnx_mutator.h"

// The byte mutator is libFuzzer's; custom_mutate (not called here) refers to it.
extern "C" size_t LLVMFuzzerMutate(uint8_t*, size_t size, size_t) { return size; }

namespace {

void note_types(const onnx::GraphProto& g, std::set<std::string>& seen) {
  for (const auto* values : {&g.input(), &g.output(), &g.value_info()}) {
    for (const onnx::ValueInfoProto& v : *values) {
      if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) continue;
      const onnx::TensorShapeProto& s = v.type().tensor_type().shape();
      if (s.dim_size() == 0) seen.insert("rank-0 tensor");
      for (const auto& d : s.dim()) {
        if (d.dim_value() == std::numeric_limits<int64_t>::min() ||
            d.dim_value() == std::numeric_limits<int64_t>::max()) {
          seen.insert("INT64 extreme dim");
        }
      }
    }
  }
  std::map<std::string, int> producer;
  for (int k = 0; k < g.node_size(); ++k) {
    for (const std::string& o : g.node(k).output()) producer.emplace(o, k);
  }
  for (int k = 0; k < g.node_size(); ++k) {
    const onnx::NodeProto& n = g.node(k);
    for (const std::string& i : n.input()) {
      auto p = producer.find(i);
      if (p != producer.end() && p->second >= k) seen.insert("reads a later value");
    }
    if (n.name().rfind("wrapper__w", 0) == 0) seen.insert("nesting (" + n.op_type() + ")");
    for (const onnx::AttributeProto& a : n.attribute()) {
      if (a.has_g()) note_types(a.g(), seen);
    }
  }
  for (const onnx::TensorProto& t : g.initializer()) {
    if (t.data_location() == onnx::TensorProto::EXTERNAL) seen.insert("external initializer");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::set<std::string> seen;
  int mutants = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string bytes = buffer.str();
    for (int round = 0; round < 200; ++round) {
      if (!onnxlint::fuzz::mutate_model(bytes, uint64_t(i) * 7919 + round)) continue;
      ++mutants;
      onnx::ModelProto m;
      if (!m.ParseFromString(bytes)) {
        std::fprintf(stderr, "%s, edit %d: the mutant does not parse\n", argv[i], round);
        return 1;
      }
      note_types(m.graph(), seen);
    }
  }
  int missing = 0;
  for (const char* want : {"nesting (If)", "nesting (Loop)", "rank-0 tensor", "INT64 extreme dim",
                           "reads a later value", "external initializer"}) {
    if (seen.count(want) == 0) {
      std::fprintf(stderr, "no mutant has: %s\n", want);
      ++missing;
    }
  }
  std::printf("%d mutants, all parse; %zu features seen\n", mutants, seen.size());
  return missing == 0 && mutants > 0 ? 0 : 1;
}
