// Checked 64-bit integer arithmetic: the one place where the analysis engine adds, multiplies
// or divides numbers that come from a model (dims, attribute values, shape-tensor elements).
// Each operation returns nullopt where the exact result does not fit in int64_t or is not
// defined (division by zero, INT64_MIN / -1): a hostile model must neither make the engine run
// into undefined behaviour or a trap (SIGFPE) nor make it claim a wrapped number as a proven
// dim. Callers turn nullopt into "unknown".
//
// Every function also takes optional operands, so that a formula reads as one expression and
// an overflow anywhere in it makes the whole result nullopt:
//   checked_add(checked_mul(checked_sub(kernel, 1), dilation), 1)
// Header-only, so that the rules library (which sees no hidden engine symbols) can share it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace onnxlint {

using CheckedInt = std::optional<int64_t>;

inline CheckedInt checked_add(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline CheckedInt checked_sub(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline CheckedInt checked_mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline CheckedInt checked_neg(int64_t a) { return checked_sub(0, a); }

/// Whether a / b is defined for int64_t: not by zero, and not INT64_MIN / -1 (which traps).
inline bool divisible_in_int64(int64_t a, int64_t b) {
  return b != 0 && !(a == std::numeric_limits<int64_t>::min() && b == -1);
}

/// a / b rounded toward zero (C++ and ONNX Div on integers).
inline CheckedInt checked_div(int64_t a, int64_t b) {
  if (!divisible_in_int64(a, b)) return std::nullopt;
  return a / b;
}

/// a / b rounded toward negative infinity.
inline CheckedInt checked_floor_div(int64_t a, int64_t b) {
  if (!divisible_in_int64(a, b)) return std::nullopt;
  const int64_t q = a / b;
  return (a % b != 0) && ((a < 0) != (b < 0)) ? q - 1 : q;
}

/// a / b rounded toward positive infinity.
inline CheckedInt checked_ceil_div(int64_t a, int64_t b) {
  if (!divisible_in_int64(a, b)) return std::nullopt;
  const int64_t q = a / b;
  return (a % b != 0) && ((a < 0) == (b < 0)) ? q + 1 : q;
}

/// The remainder with the divisor's sign (ONNX Mod with fmod=0, Python's %).
inline CheckedInt checked_mod(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;  // a % -1 is 0, but INT64_MIN % -1 traps
  const int64_t m = a % b;
  return m != 0 && ((m < 0) != (b < 0)) ? m + b : m;
}

/// The remainder with the dividend's sign (ONNX Mod with fmod=1, C's %).
inline CheckedInt checked_fmod(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;
  return a % b;
}

/// A double as an int64_t when it is a finite number in range (after truncation toward zero),
/// else nullopt: converting NaN, infinities or 1e300 to an integer is undefined behaviour.
inline CheckedInt checked_from_double(double x) {
  // 2^63 is exactly representable; every double below it converts without overflow.
  constexpr double kLimit = 9223372036854775808.0;
  if (!std::isfinite(x) || x >= kLimit || x < -kLimit) return std::nullopt;
  return static_cast<int64_t>(x);
}

// The same operations over results that may already have failed: nullopt in, nullopt out.
namespace checked_detail {
template <CheckedInt (*Op)(int64_t, int64_t)>
CheckedInt lift(CheckedInt a, CheckedInt b) {
  return a && b ? Op(*a, *b) : std::nullopt;
}
}  // namespace checked_detail

inline CheckedInt checked_add(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_add>(a, b);
}
inline CheckedInt checked_sub(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_sub>(a, b);
}
inline CheckedInt checked_mul(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_mul>(a, b);
}
inline CheckedInt checked_div(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_div>(a, b);
}
inline CheckedInt checked_floor_div(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_floor_div>(a, b);
}
inline CheckedInt checked_ceil_div(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_ceil_div>(a, b);
}
inline CheckedInt checked_mod(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_mod>(a, b);
}
inline CheckedInt checked_fmod(CheckedInt a, CheckedInt b) {
  return checked_detail::lift<checked_fmod>(a, b);
}
inline CheckedInt checked_neg(CheckedInt a) { return a ? checked_neg(*a) : std::nullopt; }

}  // namespace onnxlint
