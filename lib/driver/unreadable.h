// The report of a model that could not be read (model-unreadable): one builder for
// Linter::lint_file and Linter::lint_bytes. Internal to the engine (lib/driver).
#pragma once

#include <onnxlint/linter.h>
#include <onnxlint/loader.h>

#include <optional>
#include <string>
#include <string_view>

namespace onnxlint {

/// The report of `path`, whose load failed with `error`: status Unreadable and one
/// model-unreadable finding. Never silenced and always an error (nothing else can be said about
/// the file, so selection and severity overrides do not apply). Common non-models (a Git LFS
/// pointer, a FIFO) get their own message: `bytes` are the model's bytes for lint_bytes;
/// without them the start of the file at `path` is read (not for "-", standard input).
FileReport unreadable_report(const std::string& path, const LoadError& error,
                             std::optional<std::string_view> bytes = std::nullopt);

}  // namespace onnxlint
