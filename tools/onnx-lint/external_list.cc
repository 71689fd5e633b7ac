// --list-external-data (see external_list.h). Only the tensors' metadata is read: the loader maps
// the model and never touches the external files.
#include "external_list.h"

#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/loader.h>
#include <onnxlint/model.h>

#include <filesystem>
#include <iostream>
#include <set>
#include <string>

namespace onnxlint {

namespace {

void add_location(const TensorData& t, std::vector<std::string>& locations) {
  if (t.storage != TensorData::Storage::External) return;
  const std::string location(t.external_value("location"));
  if (!location.empty()) locations.push_back(location);
}

}  // namespace

bool list_external_data(const std::vector<InputPath>& inputs, std::ostream& out) {
  namespace fs = std::filesystem;
  bool ok = true;
  for (const InputPath& in : inputs) {
    if (!in.error.empty()) {
      std::cerr << fmt::format("onnx-lint: {}: {}\n", visible(in.path), in.error);
      ok = false;
      continue;
    }
    if (in.path == "-") continue;
    LoadResult loaded = load_model(in.path);
    if (!loaded.model) continue;
    std::vector<std::string> locations;
    for (const Graph* g : loaded.model->all_graphs()) {
      for (const TensorData& t : g->initializers()) add_location(t, locations);
      for (const SparseTensorData& s : g->sparse_initializers()) {
        add_location(s.values, locations);
        add_location(s.indices, locations);
      }
      for (const Node& n : g->nodes()) {
        for (const Attribute& a : n.attributes()) {
          if (a.t != nullptr) add_location(*a.t, locations);
          for (const TensorData* t : a.tensors) add_location(*t, locations);
        }
      }
    }
    const fs::path folder = fs::path(in.path).parent_path();
    std::set<std::string> seen;
    for (const std::string& location : locations) {
      // No file name holds a NUL, and one written here would split the record in two (a
      // forged MODEL, FILE pair for the hook reading the list): said, visibly, instead.
      if (location.find('\0') != std::string::npos) {
        std::cerr << fmt::format(
            "onnx-lint: {}: external-data location '{}' holds a NUL byte: no file has that "
            "name\n",
            visible(in.path), visible(capped(location)));
        ok = false;
        continue;
      }
      const std::string file = (folder / location).lexically_normal().string();
      if (!seen.insert(file).second) continue;
      out << in.path << '\0' << file << '\0';
    }
  }
  return ok;
}

}  // namespace onnxlint
