// Loading: memory-map a model file and walk its protobuf wire format without copying payloads.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/model.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ONNXLINT_API onnxlint {

/// Why a model could not be read, and where.
struct LoadError {
  std::string message;  // "truncated varint", "length 1234 runs past the end of the file", ...
  uint64_t offset = 0;  // byte offset where the problem was found
};

struct LoadResult {
  std::unique_ptr<Model> model;  // null when `error` is set
  std::optional<LoadError> error;
};

/// Limits that protect the process from hostile files.
struct LoadLimits {
  int max_graph_depth = 64;                     // nested subgraph attributes
  uint64_t max_nodes = 50'000'000;              // nodes in all graphs
  uint64_t max_dims = 64;                       // dims per tensor / shape
  uint64_t max_attribute_elements = 1'000'000;  // ints/floats/strings in one attribute
  // Chains of model-local function calls that analyses follow (F0 calls F1 calls ...); a call
  // deeper than this is treated as an opaque op. Keeps recursive walks within the stack.
  int max_call_depth = 32;
  // Main graph, subgraphs and function bodies. An empty subgraph is 2 bytes of file but about
  // a kilobyte once loaded and analysed, so the budget also grows with the file: at most
  // 10 000 + file size / 16 graphs (real models hold far fewer), and never more than this.
  uint64_t max_graphs = 1'000'000;
  // All graph paths together ("main/Loop_3:body/If_1:then_branch" ...); each subgraph copies
  // its parent's path, so deep nesting under many graphs multiplies path bytes. Also at most
  // 16 MiB + 64 x the file size.
  uint64_t max_graph_path_bytes = 256ull << 20;
};

/// Memory-maps `path` ("-" reads stdin into memory) and builds the model view.
LoadResult load_model(const std::string& path, const LoadLimits& limits = {});
/// Builds the model view over bytes already in memory (copied into the model).
LoadResult load_model_from_bytes(const std::string& name, std::string_view bytes,
                                 const LoadLimits& limits = {});
/// Builds the model view over bytes without copying them: the model borrows `bytes`, which
/// must stay valid and unchanged for the model's whole life. External data is resolved in
/// `directory`.
LoadResult load_model_from_view(const std::string& name, std::span<const std::byte> bytes,
                                std::string directory, const LoadLimits& limits = {});

/// How a node, attribute or function name appears in a graph path: as is, or when longer
/// than 256 bytes its first 200 bytes, "...#" and a 64-bit FNV-1a hash of the whole name.
std::string graph_path_component(std::string_view name);

/// The graph path of a subgraph: "<owner path>/<node>:<attribute>", each name shortened by
/// graph_path_component, with one separator only (torch's node names start with '/':
/// "main/If:then_branch", as Location::anchor writes "main/If").
std::string subgraph_path(std::string_view owner_path, std::string_view node_display_name,
                          std::string_view attribute);

}  // namespace onnxlint
