// A model loaded from bytes for the analysis and engine tests, and its graphs by path.
#pragma once

#include <gtest/gtest.h>
#include <onnxlint/loader.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace onnxlint::testing {

inline std::unique_ptr<Model> load(const std::string& bytes) {
  LoadResult r = load_model_from_bytes("m.onnx", bytes);
  EXPECT_TRUE(r.model) << (r.error ? r.error->message : "");
  return std::move(r.model);
}

inline const Graph& graph_at(const Model& m, const std::string& path) {
  for (const Graph* g : m.all_graphs()) {
    if (g->path() == path) return *g;
  }
  throw std::runtime_error("no graph " + path);
}

}  // namespace onnxlint::testing
