// onnxlint-bench-load MODEL [ROUNDS]: what reading a model costs onnx-lint's loader, against
// the alternatives it could use instead (issue 31, docs/performance.md "Loading"):
//   - the whole load (wire walk, name interning, the model view) vs protobuf's own parser
//     (onnx::ModelProto::ParseFromArray into an arena), which also copies every string;
//   - the wire reader alone: every field of every NodeProto visited, nothing kept;
//   - name interning alone: the value names of every node, in order, into the loader's
//     NameIndex vs std::unordered_map<std::string_view, uint32_t>.
// Each is run ROUNDS times (default 7); the best time is printed, per node or per name.
#include <google/protobuf/arena.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/loader.h>
#include <onnxlint/model.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loader/wire.h"
#include "util/name_map.h"

namespace {

double best_seconds(int rounds, const std::function<void()>& run) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

// Fields of every NodeProto of the main graph (GraphProto field 1 of ModelProto field 7).
uint64_t walk_node_fields(std::span<const std::byte> bytes) {
  using onnxlint::wire::Reader;
  uint64_t fields = 0;
  Reader model(bytes, 0, bytes.size());
  while (!model.done()) {
    const auto f = model.next();
    if (f.number != 7 || f.type != onnxlint::wire::kLen) continue;
    Reader graph(bytes, f.data, f.data + f.size);
    while (!graph.done()) {
      const auto g = graph.next();
      if (g.number != 1 || g.type != onnxlint::wire::kLen) continue;
      Reader node(bytes, g.data, g.data + g.size);
      while (!node.done()) {
        (void)node.next();
        ++fields;
      }
    }
  }
  return fields;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: onnxlint-bench-load MODEL [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 7;
  std::ifstream in(argv[1], std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  const auto bytes = std::as_bytes(std::span<const char>(data.data(), data.size()));

  onnxlint::LoadResult probe = onnxlint::load_model_from_view(argv[1], bytes, ".");
  if (!probe.model) {
    std::fprintf(stderr, "onnx-lint cannot load %s\n", argv[1]);
    return 2;
  }
  uint64_t nodes = 0;
  std::vector<std::string_view> names;  // node inputs and outputs of the main graph, in order
  for (const onnxlint::Graph* g : probe.model->all_graphs()) nodes += g->nodes().size();
  for (const onnxlint::Node& n : probe.model->graph().nodes()) {
    for (std::string_view s : n.inputs()) names.push_back(s);
    for (std::string_view s : n.outputs()) names.push_back(s);
  }
  // The views must outlive the probe's model: copy them into one buffer.
  std::string name_bytes;
  for (std::string_view s : names) name_bytes += s;
  {
    size_t at = 0;
    for (std::string_view& s : names) {
      s = std::string_view(name_bytes).substr(at, s.size());
      at += s.size();
    }
  }
  probe.model.reset();

  const double ours = best_seconds(rounds, [&] {
    onnxlint::LoadResult r = onnxlint::load_model_from_view(argv[1], bytes, ".");
    if (!r.model) std::abort();
  });
  const double protobuf = best_seconds(rounds, [&] {
    google::protobuf::Arena arena;
    auto* m = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
    if (!m->ParseFromArray(data.data(), static_cast<int>(data.size()))) std::abort();
  });
  uint64_t fields = 0;
  const double wire = best_seconds(rounds, [&] { fields = walk_node_fields(bytes); });
  const double name_index = best_seconds(rounds, [&] {
    onnxlint::NameIndex index;
    index.reserve(names.size() / 2 + 16);
    for (std::string_view s : names) (void)index.insert(s);
  });
  const double name_index_batched = best_seconds(rounds, [&] {
    onnxlint::NameIndex index;
    index.reserve(names.size() / 2 + 16);
    index.insert_all(
        names.size(), [&](size_t i) { return names[i]; }, [](size_t, uint32_t, bool) {});
  });
  const double unordered = best_seconds(rounds, [&] {
    std::unordered_map<std::string_view, uint32_t> map;
    map.reserve(names.size() / 2 + 16);
    for (std::string_view s : names) map.try_emplace(s, static_cast<uint32_t>(map.size()));
  });

  auto per = [](double seconds, uint64_t n) { return n == 0 ? 0.0 : seconds * 1e9 / double(n); };
  std::printf("| What (%s, %llu nodes, %zu names, %llu node fields; best of %d) | ms | ns per |\n",
              argv[1], static_cast<unsigned long long>(nodes), names.size(),
              static_cast<unsigned long long>(fields), rounds);
  std::printf("|---|---|---|\n");
  std::printf("| onnx-lint load (the model view) | %.1f | %.0f per node |\n", ours * 1e3,
              per(ours, nodes));
  std::printf("| protobuf ParseFromArray (onnx::ModelProto, arena) | %.1f | %.0f per node |\n",
              protobuf * 1e3, per(protobuf, nodes));
  std::printf("| wire reader: every NodeProto field | %.1f | %.1f per field |\n", wire * 1e3,
              per(wire, fields));
  std::printf("| NameIndex, one insert per name | %.1f | %.1f per name |\n", name_index * 1e3,
              per(name_index, names.size()));
  std::printf("| NameIndex::insert_all (hashed ahead, prefetched) | %.1f | %.1f per name |\n",
              name_index_batched * 1e3, per(name_index_batched, names.size()));
  std::printf("| std::unordered_map<string_view, uint32_t> | %.1f | %.1f per name |\n",
              unordered * 1e3, per(unordered, names.size()));
  return 0;
}
