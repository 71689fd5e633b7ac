// One escaping function for everything onnx-lint prints: names, file names and messages come
// from models, repositories and config files, that is from whoever wrote them. escape() makes
// what could steer a terminal, a log parser or a reader's eye visible, in the mode of the
// output; capped() bounds how much of one such string a report repeats.
#pragma once

#include <onnxlint/export.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace ONNXLINT_API onnxlint {

/// How escape() writes a character that must not pass raw.
enum class EscapeMode {
  /// One line of plain text (text formats, CLI messages, Markdown, XML attributes): C0 controls
  /// (tab, newline and ESC included) and DEL as "\xNN", bytes that are not UTF-8 as "\xNN",
  /// hidden code points (below) as "\u{XXXX}".
  Line,
  /// The same, but CR and LF are kept: only for text whose line breaks are the tool's own
  /// structure (a finding's note lines), never for a string taken from a model.
  KeepLineBreaks,
  /// Dumped JSON text: hidden code points become JSON "\uXXXX" escapes (surrogate pairs past
  /// U+FFFF), which a JSON reader decodes to the same string while the raw text shows them.
  /// Everything else is kept (the JSON encoder has escaped the controls already).
  Json,
  /// Text inside a TOML basic string whose controls are escaped already (toml_string()):
  /// hidden code points as "\uXXXX" / "\UXXXXXXXX", everything else kept.
  Toml,
};

/// Hidden code points: C1 controls, bidirectional overrides/isolates/marks, line/paragraph
/// separators, zero-width and other format characters (Unicode category Cf: U+00AD, U+200B-U+200D,
/// U+2060-U+2064, U+FEFF, ...), fillers that render as nothing (U+115F, U+1160, U+3164, U+FFA0),
/// variation selectors, and Unicode tag characters (U+E0000-U+E007F, invisible ASCII).
bool is_hidden_code_point(char32_t cp);

/// `text` with every character that could steer a terminal or a log parser, or hide from a
/// reader, escaped as `mode` says. Printable ASCII and other UTF-8 are kept as they are, so
/// ordinary names print unchanged.
std::string escape(std::string_view text, EscapeMode mode);

/// escape(text, Line), or KeepLineBreaks for an output that escapes CR and LF itself (GitHub's
/// workflow commands turn them into %0D / %0A).
std::string visible(std::string_view text, bool keep_line_breaks = false);

/// Whether visible(text) == text (no allocation when nothing needs escaping).
bool is_visible(std::string_view text);

/// The most bytes of one string taken from a model (a name, a dim, a message or note naming
/// them) that a report repeats: longer ones are cut by capped(). Every real model's longest
/// string is well under it (a 940-byte reason chain); a hostile 100 000-byte dim name echoed
/// by every finding would otherwise make the report grow with findings x name length.
inline constexpr size_t kMaxEchoBytes = 2048;

/// `text` if it has at most `max_bytes` bytes; otherwise its beginning and end (cut at UTF-8
/// character boundaries) around an elision marker that counts the bytes left out and names a
/// hash of the whole, "…[97952 bytes elided, #1a2b3c4d]…", so that two long names that differ
/// only in the middle stay different (in fingerprints too). The result has at most
/// `max_bytes` + 64 bytes.
std::string capped(std::string_view text, size_t max_bytes = kMaxEchoBytes);

/// capped() in place; returns whether `text` was cut.
bool cap_in_place(std::string& text, size_t max_bytes = kMaxEchoBytes);

}  // namespace onnxlint
