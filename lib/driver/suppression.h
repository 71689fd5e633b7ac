// In-model suppressions: parsing the `onnx-lint:disable` metadata entries of a model. Internal
// to the engine (lib/driver); tested by tests/engine/suppression_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace onnxlint {

class Model;

/// Appends the selectors of one `onnx-lint:disable` value, "id, category, glob[, ...]
/// [-- reason]", to `out`: split at commas, blanks and tabs trimmed, empty items dropped,
/// everything from the first "--" on ignored.
void parse_disable_value(std::string_view value, std::vector<std::string>& out);

/// The selectors of every `onnx-lint:disable` entry in the model's metadata_props, in order.
std::vector<std::string> in_model_disables(const Model& model);

}  // namespace onnxlint
