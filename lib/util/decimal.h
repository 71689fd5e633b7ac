// parse_decimal: the one digit parser of the engine and the rules (external-data offsets and
// lengths). Header-only so the rules library, which sees no hidden engine symbols, shares it.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace onnxlint {

/// A non-empty run of decimal digits as a number; nullopt for anything else (a sign, a blank,
/// any other character) or a value above UINT64_MAX.
inline std::optional<uint64_t> parse_decimal(std::string_view text) {
  if (text.empty()) return std::nullopt;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (n > (kMax - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  return n;
}

}  // namespace onnxlint
