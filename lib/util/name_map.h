// A hash map from value names (string_views into the model buffer) to small values.
//
// The analyses look names up several times per node input; with std::unordered_map each entry
// is a heap node and each lookup chases pointers. NameMap stores entries densely in insertion
// order (so iteration is deterministic) and finds them through an open-addressing index of
// 8-byte slots (linear probing, a 32-bit hash tag to skip most string compares).
#pragma once

#include <onnxlint/export.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A random value chosen once per process (name_map.cc). Names come from the model, that is
/// from whoever wrote the file: with a fixed hash, names crafted to share probe sequences turn
/// linear probing quadratic. Iteration order is insertion order, so output never depends on it.
uint64_t random_hash_seed();

inline uint64_t hash_seed() {
  static const uint64_t seed = random_hash_seed();
  return seed;
}

/// Hash for short strings: 8 bytes per step, multiply-xorshift mixing, seeded per process.
/// Tails are read with fixed-size (overlapping) loads: a variable-length memcpy is a call.
inline uint64_t hash_name(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = (s.size() ^ hash_seed()) * kMul;
  const char* p = s.data();
  const size_t size = s.size();
  size_t n = size;
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t w;
    if (size >= 8) {
      std::memcpy(&w, s.data() + size - 8, 8);  // the last 8 bytes, overlapping the loop's
    } else if (n >= 4) {
      uint32_t a, b;
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
      w = (uint64_t{a} << 32) | b;
    } else {
      const auto* u = reinterpret_cast<const unsigned char*>(p);
      w = (uint64_t{u[0]} << 16) | (uint64_t{u[n / 2]} << 8) | u[n - 1];
    }
    h = (h ^ w) * kMul;
  }
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h;
}

namespace detail {

/// Whether `n` bytes at x and y (sizeof(Word) <= n <= 2 * sizeof(Word)) are equal: the first
/// and the last Word of each, overlapping in the middle.
template <class Word>
bool same_ends(const char* x, const char* y, size_t n) {
  Word x0, x1, y0, y1;
  std::memcpy(&x0, x, sizeof(Word));
  std::memcpy(&y0, y, sizeof(Word));
  std::memcpy(&x1, x + n - sizeof(Word), sizeof(Word));
  std::memcpy(&y1, y + n - sizeof(Word), sizeof(Word));
  return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

}  // namespace detail

/// `a == b` for names: short ones compared with fixed-size (overlapping) loads, no call.
inline bool same_name(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8 && n <= 16) return detail::same_ends<uint64_t>(x, y, n);
  if (n >= 4 && n < 8) return detail::same_ends<uint32_t>(x, y, n);
  if (n < 4) {
    for (size_t i = 0; i < n; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  return std::memcmp(x, y, n) == 0;
}

/// Calls `visit(i, hash_name(key_at(i)))` for i = 0 .. n-1 in order, hashing 16 keys ahead
/// and calling `prefetch(hash)` as each is hashed. A hash table far larger than the cache misses
/// on nearly every probe; hashing and prefetching ahead lets the misses of a batch overlap.
template <class KeyAt, class Prefetch, class Visit>
void for_each_hashed_ahead(size_t n, KeyAt&& key_at, Prefetch&& prefetch, Visit&& visit) {
  constexpr size_t kAhead = 16;
  uint64_t ahead[kAhead];
  auto start = [&](size_t i) {
    ahead[i % kAhead] = hash_name(key_at(i));
    prefetch(ahead[i % kAhead]);
  };
  for (size_t i = 0; i < std::min(n, kAhead); ++i) start(i);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t h = ahead[i % kAhead];
    if (i + kAhead < n) start(i + kAhead);
    visit(i, h);
  }
}

namespace detail {

/// The open-addressing index shared by NameMap and NameIndex: entries (`Entry`, whose name
/// `key_of` gives) stored densely in insertion order, found through 8-byte slots.
template <class Entry>
class NameTable {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

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

  /// Entries in insertion order.
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  auto begin() { return entries_.begin(); }
  auto end() { return entries_.end(); }

 protected:
  /// The position of `key` (whose hash is `h`) in the entries, or kAbsent.
  uint32_t find_index(std::string_view key, uint64_t h) const {
    if (slots_.empty()) return kAbsent;
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.index == 0) return kAbsent;
      if (s.tag == tag && same_name(key_of(entries_[s.index - 1]), key)) return s.index - 1;
    }
  }
  /// The position of `key`, appending `make()` as its entry if absent; and whether it was.
  template <class Make>
  std::pair<uint32_t, bool> insert_index(std::string_view key, uint64_t h, Make&& make) {
    if (over_load(entries_.size() + 1)) rehash(std::max<size_t>(16, slots_.size() * 2));
    const uint32_t tag = static_cast<uint32_t>(h >> 32);
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.index == 0) {
        entries_.push_back(make());
        s.tag = tag;
        s.index = static_cast<uint32_t>(entries_.size());
        return {s.index - 1, true};
      }
      if (s.tag == tag && same_name(key_of(entries_[s.index - 1]), key)) {
        return {s.index - 1, false};
      }
    }
  }
  /// Starts loading the slot where a probe for hash `h` begins.
  void prefetch(uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[h & (slots_.size() - 1)]);
  }

  static std::string_view key_of(std::string_view e) { return e; }
  template <class V>
  static std::string_view key_of(const std::pair<std::string_view, V>& e) {
    return e.first;
  }

  std::vector<Entry> entries_;

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
      const uint64_t h = hash_name(key_of(entries_[e]));
      size_t i = h & mask;
      while (slots_[i].index != 0) i = (i + 1) & mask;
      slots_[i] = Slot{static_cast<uint32_t>(h >> 32), static_cast<uint32_t>(e + 1)};
    }
  }

  std::vector<Slot> slots_;
};

}  // namespace detail

/// A map from names to small values, entries in insertion order.
template <class V>
class NameMap : public detail::NameTable<std::pair<std::string_view, V>> {
  using Base = detail::NameTable<std::pair<std::string_view, V>>;

 public:
  using value_type = std::pair<std::string_view, V>;

  /// Inserts (key, value) unless the key is present; returns the entry and whether it was added.
  std::pair<V*, bool> try_emplace(std::string_view key, V value = V()) {
    return try_emplace_hashed(key, hash_name(key), std::move(value));
  }
  /// try_emplace with `h == hash_name(key)` computed by the caller.
  std::pair<V*, bool> try_emplace_hashed(std::string_view key, uint64_t h, V value = V()) {
    auto [index, added] =
        this->insert_index(key, h, [&] { return value_type(key, std::move(value)); });
    return {&this->entries_[index].second, added};
  }
  V& operator[](std::string_view key) { return *try_emplace(key).first; }

  const V* find(std::string_view key) const { return const_cast<NameMap*>(this)->find(key); }
  V* find(std::string_view key) {
    const uint32_t index = this->find_index(key, hash_name(key));
    return index == Base::kAbsent ? nullptr : &this->entries_[index].second;
  }
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  const value_type& entry(size_t i) const { return this->entries_[i]; }
};

/// Names numbered densely in insertion order: a name's id is its position. Like a
/// NameMap<uint32_t> whose values are the positions, without storing them.
class NameIndex : public detail::NameTable<std::string_view> {
 public:
  static constexpr uint32_t kNone = kAbsent;

  /// The id of `key`, or kNone.
  uint32_t find(std::string_view key) const { return find_index(key, hash_name(key)); }
  /// The id of `key`, added if absent; and whether it was.
  std::pair<uint32_t, bool> insert(std::string_view key) {
    return insert_index(key, hash_name(key), [&] { return key; });
  }
  /// insert of `key_at(0) .. key_at(n - 1)` in that order (empty keys skipped), with
  /// `done(i, id, added)` after each; the cache misses of a large table overlapped (see
  /// for_each_hashed_ahead).
  template <class KeyAt, class Done>
  void insert_all(size_t n, KeyAt&& key_at, Done&& done) {
    for_each_hashed_ahead(
        n, key_at, [&](uint64_t h) { prefetch(h); },
        [&](size_t i, uint64_t h) {
          const std::string_view key = key_at(i);
          if (key.empty()) return;
          auto [id, added] = insert_index(key, h, [&] { return key; });
          done(i, id, added);
        });
  }
  /// The name with id `id`.
  std::string_view key(uint32_t id) const { return entries_[id]; }
};

}  // namespace onnxlint
