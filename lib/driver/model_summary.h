// The facts about a model that reports carry besides the findings (ModelSummary).
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/linter.h>
#include <onnxlint/model.h>

namespace onnxlint {

/// Summarises a loaded model. Output dims come from the per-dimension analysis in `cache`
/// (computed if no rule asked for it). With `hash`, the model's bytes and each external-data
/// file inside the model's folder are hashed (SHA-256); otherwise no file is read.
ModelSummary summarize(const Model& model, AnalysisCache& cache, bool hash);

/// Lowercase hex SHA-256 of `bytes`.
std::string sha256_hex(std::span<const std::byte> bytes);

}  // namespace onnxlint
