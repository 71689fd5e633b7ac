// A structure-aware mutator for the model fuzzers (docs/security.md#fuzzing): the input is
// parsed as an onnx::ModelProto, one edit is made to the message (a rank, a dim, an attribute
// value, an op type, an initializer's dims or payload, an edge, a nesting level, an opset), and
// the message is serialised again, so that mutants stay graphs a runtime would load and reach
// the analyses, where byte flips mostly end in the loader. libFuzzer's byte mutator still runs
// part of the time, and on every input protobuf cannot parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnxlint::fuzz {

/// One edit of the model in `bytes` (a serialised ModelProto), chosen by `seed`. Returns false,
/// leaving `bytes` as it was, when protobuf cannot parse them or no edit applies.
bool mutate_model(std::string& bytes, uint64_t seed);

/// Nodes (with the initializers they read) of `other` spliced into the main graph of `bytes`.
/// Returns false when either does not parse.
bool cross_over_models(std::string& bytes, const std::string& other, uint64_t seed);

/// The body of LLVMFuzzerCustomMutator: the structure-aware edit three times in four, else (or
/// when it does not apply, or the result exceeds `max_size`) libFuzzer's byte mutator.
size_t custom_mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed);

/// The body of LLVMFuzzerCustomCrossOver.
size_t custom_cross_over(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                         uint8_t* out, size_t max_out_size, unsigned seed);

}  // namespace onnxlint::fuzz
