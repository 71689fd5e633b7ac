// Escaping for the markup formats (JUnit XML, Markdown) and what they share with the other
// report formats: the file name as repositories spell it, severity counts. Internal to
// lib/emit.
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/escape.h>

#include <string>
#include <string_view>

namespace onnxlint::markup {

/// `path` without leading "./", so that it matches the repository's path of the file.
inline std::string repo_path(std::string_view path) {
  while (path.starts_with("./")) path.remove_prefix(2);
  return std::string(path);
}

/// XML 1.0 character data or attribute value for any bytes: visible() first (C0 controls, bytes
/// that are not UTF-8, bidi controls become "\xNN" / "\u{XXXX}"; element text keeps LF and
/// CR, attributes stay one line), then the noncharacters U+FFFE/U+FFFF (not XML characters) as
/// "\u{FFFE}", then the markup characters as entities and CR as "&#13;" (a raw one would be
/// read back as LF).
std::string xml_escape(std::string_view text, bool attribute);

/// Markdown inline text for any bytes, safe in a table cell and in a list item: visible()
/// (no line breaks survive), then '&', '<', '>' as entities (no HTML), the characters Markdown
/// gives a meaning inside a line (backslash, backtick, `*`, `_`, `[`, `]`, `|`, `#`, `~`, `$`,
/// `:`) backslash-escaped, and '@' followed by a zero-width space (no @mention). Text built
/// with it never starts a line, so line-start syntax (`-`, `1.`, `>`) needs no escape.
std::string md_escape(std::string_view text);

/// "main/Reshape_12 (Reshape)": the place inside the model, as the text format writes it.
std::string place(const Location& l);

}  // namespace onnxlint::markup
