// NameSet (lib/util/name_set.h): ids stored under their names, duplicates reported by id.
#include "lib/util/name_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace onnxlint {
namespace {

// Names of ids: the set stores ids only and asks for names through a callback.
struct Names {
  std::vector<std::string> of;
  std::string_view operator()(uint32_t id) const { return of.at(id); }
};

std::optional<uint32_t> add(NameSet& set, const Names& names, uint32_t id) {
  return set.insert(id, names(id), hash_name(names(id)), names);
}

std::optional<uint32_t> lookup(const NameSet& set, const Names& names, std::string_view name) {
  return set.find(name, hash_name(name), names);
}

TEST(NameSet, InsertFindAndDuplicates) {
  Names names{{"a", "b", "a", "", "b", "c"}};
  NameSet set;
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(lookup(set, names, "a"), std::nullopt);
  EXPECT_EQ(add(set, names, 0), std::nullopt);
  EXPECT_EQ(add(set, names, 1), std::nullopt);
  EXPECT_EQ(add(set, names, 2), 0u);            // "a" is taken by id 0
  EXPECT_EQ(add(set, names, 3), std::nullopt);  // the empty name is a name like any other
  EXPECT_EQ(add(set, names, 4), 1u);
  EXPECT_EQ(set.size(), 3u);
  EXPECT_EQ(lookup(set, names, "a"), 0u);
  EXPECT_EQ(lookup(set, names, "b"), 1u);
  EXPECT_EQ(lookup(set, names, ""), 3u);
  EXPECT_EQ(lookup(set, names, "c"), std::nullopt);
  EXPECT_EQ(lookup(set, names, "ab"), std::nullopt);
}

// Growth keeps every entry: many names, inserted from a small start (tagged slots, as the rule
// uses them, and untagged ones without reserve()), then all found again, each repeat reporting
// the first id of its name.
TEST(NameSet, GrowsAndFindsManyNames) {
  constexpr uint32_t kDistinct = 100'000;
  Names names;
  for (uint32_t i = 0; i < kDistinct; ++i) names.of.push_back("node_" + std::to_string(i));
  for (uint32_t i = 0; i < kDistinct; i += 7) names.of.push_back(names.of[i]);
  for (const bool reserve : {true, false}) {
    NameSet set;
    if (reserve) set.reserve(16, static_cast<uint32_t>(names.of.size()), names);
    for (uint32_t id = 0; id < names.of.size(); ++id) {
      const auto taken = add(set, names, id);
      if (id < kDistinct) {
        ASSERT_EQ(taken, std::nullopt) << id;
      } else {
        ASSERT_EQ(taken, (id - kDistinct) * 7) << id;
      }
    }
    EXPECT_EQ(set.size(), kDistinct);
    for (uint32_t i = 0; i < kDistinct; ++i) ASSERT_EQ(lookup(set, names, names.of[i]), i);
    EXPECT_EQ(lookup(set, names, "node_100000"), std::nullopt);
  }
}

TEST(NameSet, ReserveThenGrowBeyondIt) {
  Names names;
  for (int i = 0; i < 1000; ++i) names.of.push_back(std::to_string(i));
  NameSet set;
  set.reserve(10, 1000, names);
  for (uint32_t id = 0; id < 1000; ++id) ASSERT_EQ(add(set, names, id), std::nullopt);
  set.reserve(5000, 1000, names);  // rehashes what is there
  for (uint32_t id = 0; id < 1000; ++id) ASSERT_EQ(lookup(set, names, names.of[id]), id);
}

// Ids too large to share a slot with hash bits: untagged slots, the same answers. A set
// reserved for small ids that is then told of large ones drops its tags.
TEST(NameSet, LargeIds) {
  struct Sparse {
    std::string_view operator()(uint32_t id) const {
      switch (id) {
        case 1:
          return "small";
        case 2:
          return "two";
        case 1u << 30:
          return "large";
        case 0xfffffffdu:
          return "largest";
        default:
          return "other";
      }
    }
  } names;
  for (const bool reserve_small_first : {false, true}) {
    NameSet set;
    auto add_id = [&](uint32_t id) {
      return set.insert(id, names(id), hash_name(names(id)), names);
    };
    if (reserve_small_first) {
      set.reserve(4, 3, names);
      EXPECT_EQ(add_id(1), std::nullopt);
      EXPECT_EQ(add_id(2), std::nullopt);
      set.reserve(4, 0xfffffffeu, names);
    } else {
      EXPECT_EQ(add_id(1), std::nullopt);
      EXPECT_EQ(add_id(2), std::nullopt);
    }
    EXPECT_EQ(add_id(1u << 30), std::nullopt);
    EXPECT_EQ(add_id(0xfffffffdu), std::nullopt);
    EXPECT_EQ(set.find("small", hash_name("small"), names), 1u);
    EXPECT_EQ(set.find("two", hash_name("two"), names), 2u);
    EXPECT_EQ(set.find("large", hash_name("large"), names), 1u << 30);
    EXPECT_EQ(set.find("largest", hash_name("largest"), names), 0xfffffffdu);
    EXPECT_EQ(add_id(1), 1u);
    EXPECT_EQ(set.size(), 4u);
  }
}

}  // namespace
}  // namespace onnxlint
