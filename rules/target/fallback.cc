#include "rules/target/fallback.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>
#include <span>

namespace onnxlint::rules::target {

size_t count_supported_partitions(const Graph& g, const GraphIndex& index,
                                  const std::vector<NodeState>& state) {
  const GraphInfo& info = index.info(g);
  const size_t n = g.nodes().size();
  // Producer -> consumer edges between live nodes, deduplicated and sorted, as one flat array
  // (a set per node would cost two tree allocations per edge on large graphs).
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(n * 2);
  auto link = [&](const ValueDef* d, uint32_t consumer) {
    if (d == nullptr || d->kind() != ValueDef::Kind::Node || d->node() == nullptr) return;
    const uint32_t p = d->node()->index();
    if (p == consumer || state[p] == NodeState::Removed) return;
    edges.emplace_back(p, consumer);
  };
  for (uint32_t i = 0; i < n; ++i) {
    if (state[i] == NodeState::Removed) continue;
    const Node& node = g.nodes()[i];
    for (size_t k = 0; k < node.inputs().size(); ++k) {
      if (!node.inputs()[k].empty()) link(info.local(node.input_ids()[k]), i);
    }
    // Values a node's subgraphs (at any depth) read from this graph are its inputs too.
    if (node.attributes().empty()) continue;
    for (const Graph* sub : node.subgraphs()) {
      for (std::string_view ref : index.info(*sub).outer_refs) link(info.local(ref), i);
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  // consumers of p: edges[consumer_begin[p] .. consumer_begin[p + 1]), ascending.
  std::vector<size_t> consumer_begin(n + 1, 0);
  std::vector<size_t> in_degree(n, 0);
  for (const auto& [p, c] : edges) {
    ++consumer_begin[p + 1];
    ++in_degree[c];
  }
  for (size_t i = 0; i < n; ++i) consumer_begin[i + 1] += consumer_begin[i];
  auto consumers = [&](uint32_t p) {
    return std::span<const std::pair<uint32_t, uint32_t>>(
        edges.data() + consumer_begin[p], consumer_begin[p + 1] - consumer_begin[p]);
  };

  std::deque<uint32_t> to_process, next_group;
  for (uint32_t i = 0; i < n; ++i) {
    if (in_degree[i] == 0 && state[i] != NodeState::Removed) to_process.push_back(i);
  }
  size_t partitions = 0;
  bool group_open = false;
  std::set<uint32_t> border;
  auto close_group = [&] {
    if (group_open) ++partitions;
    group_open = false;
    border.clear();
  };
  while (!to_process.empty() || !next_group.empty()) {
    if (to_process.empty()) {
      close_group();
      to_process.swap(next_group);
      continue;
    }
    const uint32_t i = to_process.front();
    to_process.pop_front();
    if (state[i] != NodeState::Supported) {
      if (border.count(i) != 0) {
        // It consumes the open group's output: it can only run after the group, so it (and what
        // it feeds) waits for the next group.
        next_group.push_back(i);
        continue;
      }
    } else {
      group_open = true;
      border.erase(i);
      for (const auto& edge : consumers(i)) border.insert(edge.second);
    }
    for (const auto& edge : consumers(i)) {
      if (--in_degree[edge.second] == 0) to_process.push_back(edge.second);
    }
  }
  close_group();
  return partitions;
}

std::string FallbackEstimate::verdict() const {
  if (opset_out_of_range || ir_out_of_range) return "unsupported";
  if (unsupported == 0) return "ok";
  if (supported == 0) return "unsupported";
  return target->cpu_fallback ? "partial" : "unsupported";
}

nlohmann::json FallbackEstimate::to_json() const {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& [op, count] : unsupported_ops) ops.push_back({{"op", op}, {"count", count}});
  return {
      {"target", std::string(target->id)},
      {"name", std::string(target->display_name)},
      {"verdict", verdict()},
      {"nodes", nodes},
      {"supported_nodes", supported},
      {"unsupported_nodes", unsupported},
      {"folded_nodes", folded},
      {"expanded_nodes", expanded},
      {"dynamic_shape_nodes", dynamic_shape_nodes},
      {"unsupported_type_nodes", type_nodes},
      {"restriction_nodes", restriction_nodes},
      {"unsupported_ops", std::move(ops)},
      {"partitions", partitions},
      {"cpu_fallback", target->cpu_fallback},
      {"source",
       {{"repo", std::string(target->source_repo)},
        {"path", std::string(target->source_path)},
        {"version", std::string(target->source_version)}}},
      {"opset_supported", !opset_out_of_range},
      {"ir_version_supported", !ir_out_of_range},
  };
}

}  // namespace onnxlint::rules::target
