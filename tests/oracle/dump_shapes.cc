// onnxlint-dump-shapes FILE...: one JSON line per model with the per-dimension facts of every
// value (dump_shape_facts), or {"file", "error"} when the model cannot be read. Used by the
// shape oracle test, which compares the facts with ONNX's own shape inference.
#include <onnxlint/analysis.h>
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
    std::puts(onnxlint::dump_shape_facts(*r.model, p).c_str());
  }
  return 0;
}
