#include <onnxlint/escape.h>

#include <cstdint>
#include <cstdio>

namespace onnxlint {
namespace {

// Length of the well-formed UTF-8 sequence at `s[i]` and its code point; 0 if malformed.
size_t decode(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return n;
}

bool hidden_code_point(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) ||      // C1 controls (0x9B is CSI on some terminals)
         cp == 0x061C ||                    // ARABIC LETTER MARK
         cp == 0x200E || cp == 0x200F ||    // LRM, RLM
         (cp >= 0x2028 && cp <= 0x202E) ||  // line/paragraph separators, bidi embeddings
         (cp >= 0x2066 && cp <= 0x2069);    // bidi isolates
}

template <class Sink>
void walk(std::string_view s, bool keep_line_breaks, Sink&& sink) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c >= 0x20 && c < 0x7F) || (keep_line_breaks && (c == '\n' || c == '\r'))) {
      sink.keep(i, 1);
      ++i;
      continue;
    }
    if (c < 0x80) {  // C0 control or DEL
      sink.byte(c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t n = decode(s, i, cp);
    if (n == 0) {
      sink.byte(c);
      ++i;
    } else if (hidden_code_point(cp)) {
      sink.code_point(cp);
      i += n;
    } else {
      sink.keep(i, n);
      i += n;
    }
  }
}

}  // namespace

bool is_visible(std::string_view text) {
  struct {
    bool ok = true;
    void keep(size_t, size_t) {}
    void byte(unsigned char) { ok = false; }
    void code_point(uint32_t) { ok = false; }
  } check;
  walk(text, false, check);
  return check.ok;
}

std::string visible(std::string_view text, bool keep_line_breaks) {
  struct Out {
    std::string_view in;
    std::string out;
    void keep(size_t i, size_t n) { out.append(in.substr(i, n)); }
    void byte(unsigned char c) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
    void code_point(uint32_t cp) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "\\u{%04X}", static_cast<unsigned>(cp));
      out += buf;
    }
  } sink{text, {}};
  sink.out.reserve(text.size());
  walk(text, keep_line_breaks, sink);
  return std::move(sink.out);
}

}  // namespace onnxlint
