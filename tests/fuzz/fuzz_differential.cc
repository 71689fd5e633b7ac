// libFuzzer target: what onnx-lint's loader sees of a model must be what protobuf parses
// (onnx::ModelProto::ParseFromArray), node for node per graph path. A file the loader refuses
// is reported as unreadable, and one protobuf refuses (nesting past its recursion limit) no
// runtime loads: both are allowed. A difference aborts. Mutants come from the structure-aware
// mutator (onnx_mutator.cc: nesting, node lists, op types) and the byte mutator (wire-format
// oddities), half and half.
#include <onnx/onnx_pb.h>
#include <onnxlint/loader.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

#include "hostile/hostile_models.h"
#include "onnx_mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  onnxlint::LoadResult loaded = onnxlint::load_model_from_bytes("fuzz.onnx", bytes);
  if (!loaded.model) return 0;
  onnx::ModelProto proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  namespace hm = onnxlint::testing::hostile_models;
  if (hm::nodes_by_path(*loaded.model) != hm::nodes_by_path(proto)) {
    std::fprintf(stderr, "onnx-lint and protobuf see different nodes\n");
    std::abort();
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned seed) {
  // Half the byte mutator: this target is about what protobuf's own writer never produces.
  if (seed % 2 == 0) return LLVMFuzzerMutate(data, size, max_size);
  return onnxlint::fuzz::custom_mutate(data, size, max_size, seed);
}
