// Node data for Google's Model Explorer (https://github.com/google-ai-edge/model-explorer): the
// findings of one model as a value per node, which Model Explorer colours on the graph. The
// format is its ModelNodeData (src/server/package/src/model_explorer/node_data_builder.py):
// {"<graph id>": {"results": {"<node id>": {"value": N}}, "thresholds": [...]}}. Graph and node
// ids are those of the ONNX adapter, model-explorer-onnx (src/model_explorer_onnx/main.py,
// _passes.py). Documented in docs/output-formats.md#model-explorer.
#include <fmt/format.h>
#include <onnxlint/loader.h>
#include <onnxlint/report.h>

#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "emit/json_stream.h"

namespace onnxlint {

namespace {

using nlohmann::json;

// Where the adapter shows a graph's nodes: in the graph `id`, each node named
// `prefix + name`. Graphs the adapter does not show are absent.
struct Shown {
  std::string id;
  std::string prefix;
  bool top = false;        // the main graph or an If branch embedded into it
  bool from_main = false;  // reached from the main graph (If branches are embedded there)
};

std::string function_graph_id(const Function& fn) {
  std::string id = fmt::format("[function]{}::{}", fn.domain(), fn.name());
  if (!fn.overload().empty()) id += fmt::format("::{}", fn.overload());
  return id;
}

std::unordered_map<const Graph*, Shown> shown_graphs(const Model& model) {
  std::unordered_map<const Graph*, Shown> shown;
  for (const Graph* g : model.all_graphs()) {  // parents before their subgraphs
    if (g->kind() == Graph::Kind::Main) {
      // main.py: an unnamed main graph is "<main>".
      shown[g] = {g->name().empty() ? "<main>" : std::string(g->name()), "", true, true};
      continue;
    }
    if (g->kind() == Graph::Kind::Function) {  // a function body: "[function]domain::name"
      if (g->function() != nullptr)
        shown[g] = {function_graph_id(*g->function()), "", false, false};
      continue;
    }
    auto parent = shown.find(g->parent());
    if (parent == shown.end() || g->owner() == nullptr || g->owner()->name().empty()) continue;
    const Shown& p = parent->second;
    const std::string owner = p.prefix + std::string(g->owner()->name());
    if (p.from_main && g->owner()->op_type() == "If" && g->owner()->domain().empty()) {
      // EmbedIfPass: the branch's nodes join the If's graph as "<If>/<branch>/<node>".
      shown[g] = {p.id, owner + "/" + std::string(g->owner_attribute()) + "/", p.top, true};
    } else if (p.top) {
      // Subgraphs of the main graph's nodes are graphs "<node>/<attribute>".
      shown[g] = {owner + "/" + std::string(g->owner_attribute()), "", false, true};
    }
  }
  return shown;
}

// The node id of a finding in its graph ("" when the adapter shows no such node).
std::string node_id(const Graph& g, const Shown& s, const Location& l) {
  if (l.node_index) {
    if (*l.node_index >= g.nodes().size()) return "";
    const Node& n = g.nodes()[*l.node_index];
    // Unnamed nodes get names from the adapter's NameFixPass ("node", "node_1", ...), which
    // depend on the walk over the whole model: they are left out.
    return n.name().empty() ? "" : s.prefix + std::string(n.name());
  }
  if (l.value_name.empty()) return "";
  auto is = [&](std::span<const ValueInfo> values) {
    for (const ValueInfo& v : values) {
      if (v.name == l.value_name) return true;
    }
    return false;
  };
  bool io = is(g.inputs()) || is(g.outputs());
  for (const TensorData& t : g.initializers()) io = io || t.name == l.value_name;
  if (io) return s.prefix.empty() ? "[value] " + l.value_name : "";
  for (const Node& n : g.nodes()) {  // an intermediate value: its producer
    for (std::string_view out : n.outputs()) {
      if (out == l.value_name) return n.name().empty() ? "" : s.prefix + std::string(n.name());
    }
  }
  return "";
}

}  // namespace

void emit_model_explorer(const Report& report, const Linter& linter, std::ostream& out) {
  (void)linter;
  const FileReport* file = nullptr;
  for (const FileReport& f : report.files) {
    if (f.status == FileReport::Status::PathError) continue;
    if (file != nullptr) {
      throw ConfigError("--format model-explorer: node data is for one model; give one model file");
    }
    file = &f;
  }
  json doc = json::object();
  if (file != nullptr && is_in_memory_path(file->path)) {
    throw ConfigError(
        "--format model-explorer reads the model file for its graph and node names; give a "
        "file, not stdin");
  }
  LoadResult loaded;
  if (file != nullptr && file->status == FileReport::Status::Ok) loaded = load_model(file->path);
  if (loaded.model != nullptr) {
    const Model& model = *loaded.model;
    const auto shown = shown_graphs(model);
    std::map<std::string, const Graph*, std::less<>> by_path;
    for (const Graph* g : model.all_graphs()) by_path.emplace(g->path(), g);
    std::map<std::string, std::map<std::string, int>> values;  // graph id -> node id -> level
    for (const Diagnostic& d : file->diagnostics) {
      auto g = by_path.find(d.location.graph_path);
      if (g == by_path.end()) continue;
      auto s = shown.find(g->second);
      if (s == shown.end()) continue;
      std::string id = node_id(*g->second, s->second, d.location);
      if (id.empty()) continue;
      int& v = values[s->second.id][id];
      v = std::max(v, static_cast<int>(d.severity) + 1);
    }
    // value <= threshold: info (1) blue, warning (2) amber, error (3) red.
    const json thresholds = json::array({{{"value", 1}, {"bgColor", "#90caf9"}},
                                         {{"value", 2}, {"bgColor", "#ffb74d"}},
                                         {{"value", 3}, {"bgColor", "#e57373"}}});
    for (const auto& [graph, nodes] : values) {
      json results = json::object();
      for (const auto& [node, level] : nodes) results[node] = {{"value", level}};
      doc[graph] = {{"results", std::move(results)}, {"thresholds", thresholds}};
    }
  }
  out << json_stream::dump(doc) << "\n";
}

}  // namespace onnxlint
