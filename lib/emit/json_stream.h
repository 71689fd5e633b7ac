// Writing a JSON document piece by piece, byte for byte what nlohmann::json::dump(2) gives for
// the whole: the JSON and SARIF emitters keep one file's (or one finding's) document in memory
// at a time instead of the whole report's.
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/escape.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace onnxlint {
/// The findings folded into a finding (Diagnostic::also) as the JSON report's `also` and
/// SARIF's `properties.also` carry them.
nlohmann::json also_json(const std::vector<FoldedFinding>& also);
}  // namespace onnxlint

namespace onnxlint::json_stream {

/// `j` as dump(2) writes it; model strings are arbitrary bytes, so invalid UTF-8 is replaced,
/// and the hidden code points (bidi controls, zero-width and tag characters) are written as
/// "\uXXXX" escapes by the one escaping function: the same strings to a JSON reader, visible in
/// the file.
inline std::string dump(const nlohmann::json& j) {
  std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  // Hidden code points are all past ASCII: ASCII-only text (the usual case) needs no copy.
  if (std::none_of(text.begin(), text.end(), [](char c) { return (c & 0x80) != 0; })) {
    return text;
  }
  return escape(text, EscapeMode::Json);
}

/// Writes `text` (a dumped value) with `spaces` more indentation on every line but the first,
/// as when it is nested that deep. JSON strings never hold a raw newline: every newline is
/// structure.
inline void write_indented(std::ostream& out, const std::string& text, size_t spaces) {
  const std::string pad(spaces, ' ');
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    out.write(text.data() + start, static_cast<std::streamsize>(nl + 1 - start));
    out << pad;
    start = nl + 1;
  }
  out.write(text.data() + start, static_cast<std::streamsize>(text.size() - start));
}

/// Writes `"key": value` for an object member at depth `spaces` (the key's indentation).
inline void write_member(std::ostream& out, const std::string& key, const nlohmann::json& value,
                         size_t spaces) {
  out << std::string(spaces, ' ') << nlohmann::json(key).dump() << ": ";
  write_indented(out, dump(value), spaces);
}

}  // namespace onnxlint::json_stream
