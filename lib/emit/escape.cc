#include <fmt/format.h>
#include <onnxlint/escape.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>

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

template <class Sink>
void walk(std::string_view s, EscapeMode mode, Sink&& sink) {
  const bool keep_line_breaks = mode == EscapeMode::KeepLineBreaks;
  auto plain = [keep_line_breaks](unsigned char c) {
    return (c >= 0x20 && c < 0x7F) || (keep_line_breaks && (c == '\n' || c == '\r'));
  };
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (plain(c)) {  // a run of plain ASCII kept in one piece (most text is nothing else)
      size_t end = i + 1;
      while (end < s.size() && plain(static_cast<unsigned char>(s[end]))) ++end;
      sink.keep(i, end - i);
      i = end;
      continue;
    }
    if (c < 0x80) {  // C0 control or DEL
      sink.byte(i, c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t n = decode(s, i, cp);
    if (n == 0) {
      sink.byte(i, c);
      ++i;
    } else if (is_hidden_code_point(cp)) {
      sink.code_point(cp);
      i += n;
    } else {
      sink.keep(i, n);
      i += n;
    }
  }
}

// A hash of the whole text for the elision marker, eight bytes at a time (it runs over every
// capped string, and a hostile one may be megabytes).
uint32_t text_hash(std::string_view s) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w = 0;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001B3ull;
  h ^= h >> 29;
  return static_cast<uint32_t>(h ^ (h >> 32));
}

}  // namespace

bool is_hidden_code_point(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) ||                      // C1 controls (0x9B: CSI)
         cp == 0x00AD || cp == 0x034F ||                    // soft hyphen, CGJ
         (cp >= 0x0600 && cp <= 0x0605) || cp == 0x061C ||  // Arabic format, ALM
         cp == 0x06DD || cp == 0x070F || cp == 0x0890 || cp == 0x0891 || cp == 0x08E2 ||
         cp == 0x115F || cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5 ||  // fillers
         (cp >= 0x180B && cp <= 0x180F) ||                                // Mongolian selectors
         (cp >= 0x200B && cp <= 0x200F) ||  // ZWSP, ZWNJ, ZWJ, LRM, RLM
         (cp >= 0x2028 && cp <= 0x202E) ||  // line/paragraph separators, bidi embeddings
         (cp >= 0x2060 && cp <= 0x206F) ||  // word joiner, invisible operators, bidi isolates
         cp == 0x3164 || cp == 0xFFA0 ||    // Hangul fillers
         (cp >= 0xFE00 && cp <= 0xFE0F) ||  // variation selectors
         cp == 0xFEFF ||                    // zero-width no-break space (BOM)
         (cp >= 0xFFF9 && cp <= 0xFFFB) ||  // interlinear annotation
         cp == 0x110BD || cp == 0x110CD || (cp >= 0x13430 && cp <= 0x1343F) ||
         (cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A) ||
         (cp >= 0xE0000 && cp <= 0xE007F) ||  // tag characters: invisible ASCII
         (cp >= 0xE0100 && cp <= 0xE01EF);    // variation selectors supplement
}

bool is_visible(std::string_view text) {
  struct {
    bool ok = true;
    void keep(size_t, size_t) {}
    void byte(size_t, unsigned char) { ok = false; }
    void code_point(uint32_t) { ok = false; }
  } check;
  walk(text, EscapeMode::Line, check);
  return check.ok;
}

std::string escape(std::string_view text, EscapeMode mode) {
  struct Out {
    std::string_view in;
    EscapeMode mode;
    std::string out;
    void keep(size_t i, size_t n) { out.append(in.substr(i, n)); }
    void byte(size_t i, unsigned char c) {
      if (mode == EscapeMode::Json || mode == EscapeMode::Toml) {  // the encoder dealt with it
        out += in[i];
        return;
      }
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
    void code_point(uint32_t cp) {
      char buf[16];
      if (mode == EscapeMode::Toml) {
        std::snprintf(buf, sizeof(buf), cp < 0x10000 ? "\\u%04X" : "\\U%08X",
                      static_cast<unsigned>(cp));
      } else if (mode != EscapeMode::Json) {
        std::snprintf(buf, sizeof(buf), "\\u{%04X}", static_cast<unsigned>(cp));
      } else if (cp < 0x10000) {
        std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(cp));
      } else {  // a surrogate pair, as JSON writes a code point past U+FFFF
        const uint32_t v = cp - 0x10000;
        std::snprintf(buf, sizeof(buf), "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
      }
      out += buf;
    }
  } sink{text, mode, {}};
  sink.out.reserve(text.size());
  walk(text, mode, sink);
  return std::move(sink.out);
}

std::string visible(std::string_view text, bool keep_line_breaks) {
  return escape(text, keep_line_breaks ? EscapeMode::KeepLineBreaks : EscapeMode::Line);
}

namespace {

// text_hash of a long text, remembered for the last few texts: one model name is capped once per
// finding, note and output that echoes it, and hashing all of it each time made a model with a
// long name and many outputs quadratic (outputs x name length). A text is known again by where
// it lives, its size and a sample of its bytes (names live in the model's memory for the run).
uint32_t long_text_hash(std::string_view text) {
  struct Entry {
    const char* data = nullptr;
    size_t size = 0;
    uint64_t sample = 0;
    uint32_t hash = 0;
  };
  thread_local std::array<Entry, 8> recent{};
  thread_local size_t next = 0;
  uint64_t sample = text.size();
  for (size_t k = 0; k < 64; ++k) {
    sample =
        sample * 1099511628211ULL ^ static_cast<unsigned char>(text[k * (text.size() - 1) / 63]);
  }
  for (const Entry& e : recent) {
    if (e.data == text.data() && e.size == text.size() && e.sample == sample) return e.hash;
  }
  Entry& e = recent[next++ % recent.size()];
  e = {text.data(), text.size(), sample, text_hash(text)};
  return e.hash;
}

}  // namespace

std::string capped(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  // Two thirds from the start, a quarter from the end, each cut at a character boundary.
  auto is_continuation = [&](size_t i) {
    return i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80;
  };
  size_t head = max_bytes / 3 * 2;
  while (head > 0 && is_continuation(head)) --head;
  size_t tail_start = text.size() - max_bytes / 4;
  while (tail_start < text.size() && is_continuation(tail_start)) ++tail_start;
  std::string out(text.substr(0, head));
  out += fmt::format("\u2026[{} bytes elided, #{:08x}]\u2026", tail_start - head,
                     long_text_hash(text));
  out.append(text.substr(tail_start));
  return out;
}

bool cap_in_place(std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return false;
  text = capped(text, max_bytes);
  return true;
}

}  // namespace onnxlint
