// Scratch: dumps provenance facts (deleted before hand-off).
#include <gtest/gtest.h>
#include <onnxlint/loader.h>
#include <onnxlint/provenance.h>
#include <cstdlib>
#include <iostream>
#include "support/lint_harness.h"

namespace onnxlint::testing {
TEST(ZzScratch, Dump) {
  const char* f = std::getenv("DUMP_MODEL");
  if (!f) GTEST_SKIP();
  auto loaded = load_model(f);
  ASSERT_TRUE(loaded.model);
  const Model& m = *loaded.model;
  AnalysisCache cache(m);
  const Provenance& p = cache.get<Provenance>();
  for (const Graph* g : m.all_graphs()) {
    std::cout << "== " << g->path << "\n";
    for (const Node& n : g->nodes) {
      for (size_t k = 0; k < n.outputs.size(); ++k) {
        ValueId v = p.output(n, k);
        if (v == kNoValue) continue;
        std::string ds;
        if (auto d = p.dims(v)) {
          for (auto& x : *d) {
            ds += x.kind == DimFact::Kind::Fixed ? std::to_string(x.value) : x.kind == DimFact::Kind::Symbolic ? "{" + [&]{std::string s; for (auto nm : x.names) s += std::string(nm) + ","; return s;}() + "}" : "?";
            ds += " ";
          }
        } else ds = "rank?";
        std::string sd; for (auto nm : p.shape_dims(v)) sd += std::string(nm) + ",";
        std::string vd; for (auto nm : p.value_dims(v)) vd += std::string(nm) + ",";
        std::cout << "  " << n.display_name() << "[" << k << "] " << n.op_type << " shape=" << shape_class_name(p.shape_class(v)) << "{" << sd << "}"
                  << " value=" << value_class_name(p.value_class(v)) << "{" << vd << "}" << " dims=[" << ds << "]";
        if (auto ki = p.known_ints(v)) { std::cout << " ints=("; for (auto x : *ki) std::cout << x << " "; std::cout << ")"; }
        if (p.is_shape_origin(n, ShapeClass::DataDependent)) std::cout << " DATA-ORIGIN";
        if (p.shape_class(v) != ShapeClass::Static) std::cout << "\n      why-shape: " << p.explain_shape(v);
        if (p.value_class(v) != ValueClass::Constant && p.value_class(v) != ValueClass::Data) std::cout << "\n      why-value: " << p.explain_value(v);
        std::cout << "\n";
      }
    }
  }
  for (auto& u : p.dim_usage()) std::cout << "dim " << u.name << " nodes=" << u.nodes << "\n";
}
}
