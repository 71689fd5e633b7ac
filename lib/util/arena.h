// Bump allocator that holds the loader's model view: every node, attribute, tensor header and
// the arrays they point to live in a few large blocks, released together with the Model.
//
// Why: a per-node std::vector costs a malloc, a free and 16 bytes of header each; with 10^5
// nodes that is a fifth of the loading time and again as much at teardown. Only trivially
// destructible types go in (nothing is destroyed one by one), which the templates enforce.
#pragma once

#include <onnxlint/export.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ONNXLINT_API onnxlint {

class Arena {
 public:
  Arena() = default;
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /// `bytes` bytes aligned to `align` (a power of two no larger than 64). Throws std::bad_alloc.
  void* allocate(size_t bytes, size_t align);

  /// An array of `n` value-initialized T.
  template <class T>
  std::span<T> make_array(size_t n) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    if (n == 0) return {};
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    T* p = static_cast<T*>(allocate(n * sizeof(T), alignof(T)));
    for (size_t i = 0; i < n; ++i) new (p + i) T();
    return {p, n};
  }

  /// A copy of `values` in the arena.
  template <class T>
  std::span<const T> copy(std::span<const T> values) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    if (values.empty()) return {};
    T* p = static_cast<T*>(allocate(values.size() * sizeof(T), alignof(T)));
    std::uninitialized_copy(values.begin(), values.end(), p);
    return {p, values.size()};
  }
  template <class T>
  std::span<const T> copy(const std::vector<T>& values) {
    return copy(std::span<const T>(values));
  }

  /// A copy of a string whose bytes are not in the model buffer (e.g. parsed by protobuf).
  std::string_view copy_string(std::string_view s);

  /// Bytes obtained from the system so far (for memory accounting in benchmarks and tests).
  size_t reserved_bytes() const { return reserved_; }

 private:
  struct Block {
    std::byte* base;
    size_t size;
  };
  void grow(size_t at_least);

  std::vector<Block> blocks_;
  std::byte* cursor_ = nullptr;
  std::byte* end_ = nullptr;
  size_t reserved_ = 0;
};

}  // namespace onnxlint
