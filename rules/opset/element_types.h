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
#include <vector>

namespace onnxlint::rules {

class ElementTypes {
 public:
  ElementTypes(const Model& model, AnalysisCache& cache);

  /// The TensorProto.DataType of `name` as seen from graph `g` (lexical scope), if known.
  std::optional<int32_t> of(const Graph& g, std::string_view name) const;
  /// Same, for a name whose id in `g` (Graph::name_ids) is known: no hashing when the type
  /// is decided in `g` itself, the common case.
  std::optional<int32_t> of(const Graph& g, NameId id, std::string_view name) const;

 private:
  static constexpr int32_t kUnknown = INT32_MIN;
  struct GraphTypes {
    std::vector<int32_t> by_id;  // by value id; kUnknown if not known
    NameMap<int32_t> unlisted;   // value_info for names the graph does not otherwise use
  };
  const GraphIndex& index_;
  std::unordered_map<const Graph*, GraphTypes> by_graph_;
};

}  // namespace onnxlint::rules
