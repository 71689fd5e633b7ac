// onnxlint-dump-shapes FILE...: one JSON line per model with the per-dimension facts of every
// value (dump_shape_facts) and its inferred type ("type": "tensor(float)", ...; "inferred":
// false when only a declaration gave it), or {"file", "error"} when the model cannot be read.
// Used by the shape oracle test, which compares both with ONNX's own shape inference.
#include <onnxlint/analysis.h>
#include <onnxlint/element_types.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    onnxlint::LoadResult r = onnxlint::load_model(argv[i]);
    if (!r.model) {
      std::string msg = r.error ? r.error->message : "unreadable";
      std::puts(nlohmann::json({{"file", argv[i]}, {"error", msg}}).dump().c_str());
      continue;
    }
    onnxlint::AnalysisCache cache(*r.model);
    const auto& p = cache.get<onnxlint::Provenance>();
    const auto& types = cache.get<onnxlint::ElementTypes>();
    nlohmann::json doc = nlohmann::json::parse(onnxlint::dump_shape_facts(*r.model, p));
    for (auto& g : doc["graphs"]) {
      const onnxlint::Graph* graph = nullptr;
      for (const onnxlint::Graph* c : r.model->all_graphs()) {
        if (c->path() == g["path"].get<std::string>()) graph = c;
      }
      if (graph == nullptr) continue;
      for (auto& [name, entry] : g["values"].items()) {
        const onnxlint::ValueId v = p.find(*graph, name);
        entry["type"] = onnxlint::value_type_text(types.type(v));
        entry["inferred"] = types.inferred(v);
      }
    }
    std::puts(doc.dump().c_str());
  }
  return 0;
}
