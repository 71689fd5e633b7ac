// Element types that are *known* for tensor values, without shape inference: declared by graph
// inputs, outputs and value_info, carried by initializers and Constant nodes, set by Cast `to`,
// or fixed by the producing op's schema (Shape → int64, ...). A value missing here has an
// unknown type, and rules must stay silent about it.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/model.h>
#include <onnxlint/name_map.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace onnxlint::rules {

class ElementTypes {
 public:
  ElementTypes(const Model& model, AnalysisCache& cache);

  /// The TensorProto.DataType of `name` as seen from graph `g` (lexical scope), if known.
  std::optional<int32_t> of(const Graph& g, std::string_view name) const;

 private:
  const GraphIndex& index_;
  std::unordered_map<const Graph*, NameMap<int32_t>> by_graph_;
};

}  // namespace onnxlint::rules
