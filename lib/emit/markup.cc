#include "emit/markup.h"

namespace onnxlint::markup {

std::string xml_escape(std::string_view text, bool attribute) {
  const std::string shown = visible(text, /*keep_line_breaks=*/!attribute);
  std::string out;
  out.reserve(shown.size());
  for (size_t i = 0; i < shown.size(); ++i) {
    const char c = shown[i];
    if (c == '\xEF' && i + 2 < shown.size() && shown[i + 1] == '\xBF' &&
        (shown[i + 2] == '\xBE' || shown[i + 2] == '\xBF')) {
      out += shown[i + 2] == '\xBE' ? "\\u{FFFE}" : "\\u{FFFF}";
      i += 2;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += attribute ? "&quot;" : "\"";
        break;
      case '\'':
        out += attribute ? "&apos;" : "'";
        break;
      case '\r':
        out += "&#13;";  // a raw CR in element text would be read back as LF
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string md_escape(std::string_view text) {
  const std::string shown = visible(text);
  std::string out;
  out.reserve(shown.size());
  for (char c : shown) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '@':  // no @mention (a ping) from a name: a zero-width space after the '@'
        out += "@&#8203;";
        break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '#':
      case '~':
      case '$':
      case ':':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string place(const Location& l) {
  std::string out = l.anchor();
  if (!l.op_type.empty()) out += (out.empty() ? "(" : " (") + l.op_type + ")";
  return out;
}

}  // namespace onnxlint::markup
