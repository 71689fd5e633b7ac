// A model loaded from bytes with its Provenance analysis, and lookups by graph path and name:
// shared by the analysis tests.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnxlint::testing {

struct AnalysedModel {
  std::unique_ptr<Model> model;
  std::unique_ptr<AnalysisCache> cache;
  const Provenance* p = nullptr;

  const Graph& graph(const std::string& path) const {
    for (const Graph* g : model->all_graphs()) {
      if (g->path() == path) return *g;
    }
    throw std::runtime_error("no graph " + path);
  }
  ValueId v(const std::string& name, const std::string& path = "main") const {
    ValueId id = p->find(graph(path), name);
    if (id == kNoValue) throw std::runtime_error("no value " + name);
    return id;
  }
  const Node& node(const std::string& name, const std::string& path = "main") const {
    for (const Node& n : graph(path).nodes()) {
      if (n.name() == name) return n;
    }
    throw std::runtime_error("no node " + name);
  }
  ShapeClass shape(const std::string& name, const std::string& path = "main") const {
    return p->shape_class(v(name, path));
  }
  ValueClass value(const std::string& name, const std::string& path = "main") const {
    return p->value_class(v(name, path));
  }

  /// "3,N+1,?,data<=20": dims (or vector elements) as the analysis knows them; "rank?" when not
  /// even the rank is known.
  static std::string render(const std::optional<std::vector<DimFact>>& ds) {
    if (!ds) return "rank?";
    std::string out;
    for (const DimFact& d : *ds) {
      if (!out.empty()) out += ",";
      switch (d.kind) {
        case DimFact::Kind::Fixed:
          out += std::to_string(d.value);
          break;
        case DimFact::Kind::Symbolic:
          out += d.expr;
          break;
        case DimFact::Kind::Data:
          out += "data";
          if (d.bound >= 0) out += "<=" + std::to_string(d.bound);
          break;
        case DimFact::Kind::Unknown:
          out += "?";
          if (d.at_least > 0) out += ">=" + std::to_string(d.at_least);
          break;
      }
    }
    return out;
  }
  std::string dims(const std::string& name, const std::string& path = "main") const {
    return render(p->dims(v(name, path)));
  }
  std::string elems(const std::string& name, const std::string& path = "main") const {
    return render(p->elements(v(name, path)));
  }
};

/// Loads `bytes` into an A (an AnalysedModel or a test's extension of it) and runs the analysis.
template <class A = AnalysedModel>
A analyse_as(const std::string& bytes) {
  A a;
  LoadResult r = load_model_from_bytes("t.onnx", bytes);
  if (!r.model) throw std::runtime_error("load failed: " + r.error->message);
  a.model = std::move(r.model);
  a.cache = std::make_unique<AnalysisCache>(*a.model);
  a.p = &a.cache->template get<Provenance>();
  return a;
}

}  // namespace onnxlint::testing
