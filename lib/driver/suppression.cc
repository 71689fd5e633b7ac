#include "driver/suppression.h"

#include <onnxlint/model.h>

namespace onnxlint {

void parse_disable_value(std::string_view value, std::vector<std::string>& out) {
  if (auto reason = value.find("--"); reason != std::string_view::npos) {
    value = value.substr(0, reason);
  }
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string_view item =
        value.substr(start, comma == std::string_view::npos ? value.npos : comma - start);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

std::vector<std::string> in_model_disables(const Model& model) {
  std::vector<std::string> out;
  for (const StringPair& kv : model.metadata_props()) {
    if (kv.key == "onnx-lint:disable") parse_disable_value(kv.value, out);
  }
  return out;
}

}  // namespace onnxlint
