// A hash map from value names (string_views into the model buffer) to small values.
//
// The analyses look names up several times per node input; with std::unordered_map each entry
// is a heap node and each lookup chases pointers. NameMap stores entries densely in insertion
// order (so iteration is deterministic) and finds them through an open-addressing index of
// 8-byte slots (linear probing, a 32-bit hash tag to skip most string compares).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace onnxlint {

/// Hash for short strings: 8 bytes per step, multiply-xorshift mixing.
inline uint64_t hash_name(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = s.size() * kMul;
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * kMul;
  }
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h;
}

template <class V>
class NameMap {
 public:
  using value_type = std::pair<std::string_view, V>;

  NameMap() = default;

  void reserve(size_t n) {
    entries_.reserve(n);
    if (over_load(n)) rehash(n * 4 / 3 + 1);
  }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() {
    entries_.clear();
    slots_.clear();
  }

  /// Inserts (key, value) unless the key is present; returns the entry and whether it was added.
  std::pair<V*, bool> try_emplace(std::string_view key, V value = V()) {
    return try_emplace_hashed(key, hash_name(key), std::move(value));
  }
  /// try_emplace with `h == hash_name(key)` computed by the caller.
  std::pair<V*, bool> try_emplace_hashed(std::string_view key, uint64_t h, V value = V()) {
    if (over_load(entries_.size() + 1)) rehash(std::max<size_t>(16, slots_.size() * 2));
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.index == 0) {
        entries_.emplace_back(key, std::move(value));
        s.tag = tag;
        s.index = static_cast<uint32_t>(entries_.size());
        return {&entries_.back().second, true};
      }
      if (s.tag == tag && entries_[s.index - 1].first == key) {
        return {&entries_[s.index - 1].second, false};
      }
    }
  }
  /// Bulk try_emplace of `key_of(0) .. key_of(n - 1)` in that order (empty keys skipped), with
  /// `done(i, value&, added)` called after each. Same result as n calls of try_emplace, but a
  /// table larger than the cache misses on nearly every probe: this hashes keys a few steps
  /// ahead and prefetches their slots so that the misses overlap.
  template <class KeyOf, class Done>
  void try_emplace_all(size_t n, KeyOf&& key_of, Done&& done) {
    constexpr size_t kAhead = 16;
    uint64_t ahead[kAhead];
    auto start = [&](size_t i) {
      const uint64_t h = hash_name(key_of(i));
      ahead[i % kAhead] = h;
      if (!slots_.empty()) __builtin_prefetch(&slots_[h & (slots_.size() - 1)]);
    };
    for (size_t i = 0; i < std::min(n, kAhead); ++i) start(i);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t h = ahead[i % kAhead];
      if (i + kAhead < n) start(i + kAhead);
      const std::string_view key = key_of(i);
      if (key.empty()) continue;
      auto [value, added] = try_emplace_hashed(key, h);
      done(i, *value, added);
    }
  }
  V& operator[](std::string_view key) { return *try_emplace(key).first; }

  const V* find(std::string_view key) const { return const_cast<NameMap*>(this)->find(key); }
  V* find(std::string_view key) {
    if (slots_.empty()) return nullptr;
    const uint64_t h = hash_name(key);
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.index == 0) return nullptr;
      if (s.tag == tag && entries_[s.index - 1].first == key) return &entries_[s.index - 1].second;
    }
  }
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  /// Entries in insertion order.
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }
  const value_type& entry(size_t i) const { return entries_[i]; }

 private:
  struct Slot {
    uint32_t tag = 0;
    uint32_t index = 0;  // 1 + position in entries_; 0 = empty
  };

  // At most 3/4 of the slots in use: slots are 8 bytes, eight to a cache line, so a probe
  // sequence rarely leaves the line it starts in; a sparser table would only cost memory.
  bool over_load(size_t n) const { return n * 4 > slots_.size() * 3; }

  void rehash(size_t min_slots) {
    size_t n = 16;
    while (n < min_slots) n *= 2;
    slots_.assign(n, Slot{});
    const size_t mask = n - 1;
    for (size_t e = 0; e < entries_.size(); ++e) {
      const uint64_t h = hash_name(entries_[e].first);
      size_t i = h & mask;
      while (slots_[i].index != 0) i = (i + 1) & mask;
      slots_[i] = Slot{static_cast<uint32_t>(h >> 32), static_cast<uint32_t>(e + 1)};
    }
  }

  std::vector<Slot> slots_;
  std::vector<value_type> entries_;
};

}  // namespace onnxlint
