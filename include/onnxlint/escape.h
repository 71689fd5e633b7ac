// One escaping function for everything onnx-lint prints as plain text: names, file names and
// messages come from models, repositories and config files, that is from whoever wrote them.
#pragma once

#include <onnxlint/export.h>

#include <string>
#include <string_view>

namespace ONNXLINT_API onnxlint {

/// `text` with every character that could steer a terminal or a log parser made visible:
/// C0 controls (tab, newline and ESC included) and DEL as "\xNN", C1 controls, bidirectional
/// overrides/isolates/marks and line/paragraph separators as "\u{XXXX}", bytes that are not
/// UTF-8 as "\xNN". Everything else (printable ASCII, other UTF-8) is kept as is, so that
/// ordinary names print unchanged. Used by the text and GitHub formats and for CLI messages;
/// JSON and SARIF escape through their own encoders.
/// `keep_line_breaks` keeps CR and LF for an output that escapes them itself (GitHub's
/// workflow commands turn them into %0D / %0A, which the runner shows as line breaks).
std::string visible(std::string_view text, bool keep_line_breaks = false);

/// Whether visible(text) == text (no allocation when nothing needs escaping).
bool is_visible(std::string_view text);

}  // namespace onnxlint
