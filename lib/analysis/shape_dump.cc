// A JSON dump of the per-dimension facts of every value, for tests (the shape oracle compares
// it with ONNX's own shape inference) and for users who want to see what the analysis proved.
#include <onnxlint/provenance.h>

#include <nlohmann/json.hpp>
#include <string>

namespace onnxlint {

namespace {

// A graph's structural key: "main", "main/3:body" (node index and attribute), "fn:dom::Name".
// Unlike Graph::path it does not depend on node names, so other tools can rebuild it.
std::string structural_key(const Graph& g) {
  if (g.kind() != Graph::Kind::Subgraph || g.parent() == nullptr || g.owner() == nullptr) {
    return g.path();
  }
  return structural_key(*g.parent()) + "/" + std::to_string(g.owner()->index()) + ":" +
         std::string(g.owner_attribute());
}

nlohmann::json fact_json(const DimFact& d) {
  switch (d.kind) {
    case DimFact::Kind::Fixed:
      return d.value;
    case DimFact::Kind::Symbolic:
      return d.expr.empty() ? nlohmann::json("?") : nlohmann::json(d.expr);
    case DimFact::Kind::Data: {
      nlohmann::json j = {{"data", d.expr}};
      if (d.bound >= 0) j["max"] = d.bound;
      return j;
    }
    case DimFact::Kind::Unknown:
      break;
  }
  return nullptr;
}

nlohmann::json facts_json(const std::optional<std::vector<DimFact>>& facts) {
  if (!facts) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (const DimFact& d : *facts) out.push_back(fact_json(d));
  return out;
}

}  // namespace

std::string dump_shape_facts(const Model& model, const Provenance& p) {
  nlohmann::json graphs = nlohmann::json::array();
  for (const Graph* g : model.all_graphs()) {
    nlohmann::json values = nlohmann::json::object();
    auto add = [&](std::string_view name) {
      if (name.empty() || values.contains(name)) return;
      ValueId v = p.find(*g, name);
      if (v == kNoValue) return;
      nlohmann::json entry = {{"dims", facts_json(p.dims(v))}};
      if (auto e = p.elements(v)) entry["elems"] = facts_json(e);
      values[std::string(name)] = std::move(entry);
    };
    for (const ValueInfo& in : g->inputs()) add(in.name);
    for (const TensorData& t : g->initializers()) add(t.name);
    for (const Node& n : g->nodes()) {
      for (size_t k = 0; k < n.outputs().size(); ++k) add(n.outputs()[k]);
    }
    graphs.push_back({{"key", structural_key(*g)}, {"path", g->path()}, {"values", values}});
  }
  return nlohmann::json({{"file", model.path()}, {"graphs", graphs}}).dump();
}

}  // namespace onnxlint
