// NameSet: a set of named objects (nodes, values) kept as 32-bit ids, for "is this name taken,
// and by whom" over 10^5..10^6 names. Internal to the engine and the built-in rules; not
// installed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "util/name_map.h"

namespace onnxlint {

/// The set stores ids, never names: the caller passes `name_of(id)` (the name of a stored id)
/// to the calls that compare or rehash, so a set costs 4 bytes a slot, at most half full.
/// Open addressing with linear probing; a slot holds 1 + id, and when reserve() is told that
/// ids stay below 2^29 - 1, its top three bits hold three bits of the name's hash, so that most
/// probes that meet another name skip the string compare. (8-byte pointers took twice the
/// memory, 4 MiB for 200 000 names; a map from string views 24 bytes a name plus its index.)
///
/// `hash` is always hash_name(name): callers that hash ahead (for_each_hashed_ahead) pass it in
/// and prefetch() its slot, since a set of 10^5 names is far larger than the cache.
class NameSet {
 public:
  bool empty() const { return used_ == 0; }
  size_t size() const { return used_; }

  /// Room for `n` names without growing, for ids below `id_end` from now on (without a call,
  /// any id below 2^32 - 1). Sizing once for the expected count avoids touching twice the
  /// memory through step-by-step growth.
  template <class NameOf>
  void reserve(size_t n, uint32_t id_end, NameOf&& name_of) {
    if (id_end > kTaggedIds) {
      drop_tags();
    } else if (used_ == 0) {
      tag_mask_ = kTagMask;
    }
    if (n * 2 > slots_.size()) rehash(n * 2, name_of);
  }

  /// Starts loading the slot where the search for `hash` begins.
  void prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }

  /// Adds `id` (below the `id_end` of the last reserve()), named `name`, unless an id of that
  /// name is present: returns that id, or nullopt when `id` was added.
  template <class NameOf>
  std::optional<uint32_t> insert(uint32_t id, std::string_view name, uint64_t hash,
                                 NameOf&& name_of) {
    if ((used_ + 1) * 2 > slots_.size()) rehash(std::max<size_t>(64, slots_.size() * 2), name_of);
    const uint32_t tag = tag_of(hash);
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const uint32_t s = slots_[i];
      if (s == 0) {
        slots_[i] = (id + 1) | tag;
        ++used_;
        return std::nullopt;
      }
      if ((s & tag_mask_) == tag && same_name(name_of(id_of(s)), name)) return id_of(s);
    }
  }

  /// The id stored under `name`, or nullopt.
  template <class NameOf>
  std::optional<uint32_t> find(std::string_view name, uint64_t hash, NameOf&& name_of) const {
    if (slots_.empty()) return std::nullopt;
    const uint32_t tag = tag_of(hash);
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const uint32_t s = slots_[i];
      if (s == 0) return std::nullopt;
      if ((s & tag_mask_) == tag && same_name(name_of(id_of(s)), name)) return id_of(s);
    }
  }

 private:
  static constexpr uint32_t kTaggedIds = (1u << 29) - 1;  // 1 + id must fit below the tag
  static constexpr uint32_t kTagMask = 7u << 29;

  uint32_t tag_of(uint64_t hash) const {
    return static_cast<uint32_t>(hash >> 61) << 29 & tag_mask_;
  }
  uint32_t id_of(uint32_t slot) const { return (slot & ~tag_mask_) - 1; }

  // Larger ids to come: slots keep 1 + id alone from now on (slower probes, same answers).
  void drop_tags() {
    for (uint32_t& s : slots_) s &= ~tag_mask_;
    tag_mask_ = 0;
  }

  template <class NameOf>
  void rehash(size_t min_slots, NameOf& name_of) {
    size_t size = 64;
    while (size < min_slots) size *= 2;
    std::vector<uint32_t> old(size, 0);
    old.swap(slots_);
    const size_t mask = size - 1;
    for (uint32_t s : old) {
      if (s == 0) continue;
      size_t i = hash_name(name_of(id_of(s))) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  uint32_t tag_mask_ = 0;  // kTagMask once reserve() has bounded the ids
  std::vector<uint32_t> slots_;
  size_t used_ = 0;
};

}  // namespace onnxlint
