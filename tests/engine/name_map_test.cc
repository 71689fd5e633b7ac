// NameMap and NameIndex: the open-addressing name tables behind Graph::name_ids, GraphIndex and
// the rule analyses.
#include "util/name_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace onnxlint {
namespace {

TEST(NameMap, FindsWhatWasInsertedAndNothingElse) {
  NameMap<int> m;
  EXPECT_EQ(m.find("a"), nullptr);  // empty map: no slots yet
  EXPECT_TRUE(m.try_emplace("a", 1).second);
  EXPECT_TRUE(m.try_emplace("", 2).second);  // the empty name is a key like any other
  EXPECT_FALSE(m.try_emplace("a", 3).second);
  ASSERT_NE(m.find("a"), nullptr);
  EXPECT_EQ(*m.find("a"), 1);  // the first insertion wins
  EXPECT_EQ(*m.find(""), 2);
  EXPECT_EQ(m.find("b"), nullptr);
  EXPECT_EQ(m.size(), 2u);
}

TEST(NameMap, SurvivesGrowthAndIteratesInInsertionOrder) {
  // Names that share long prefixes and differ only in their last bytes, as exporters write
  // them ("/blocks.7/Mul_output_0"), across several rehashes.
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("/blocks." + std::to_string(i) + "/Mul_output_0");
  NameMap<int> m;
  for (int i = 0; i < 5000; ++i) m[names[i]] = i;
  ASSERT_EQ(m.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    const int* v = m.find(names[i]);
    ASSERT_NE(v, nullptr) << names[i];
    EXPECT_EQ(*v, i);
  }
  EXPECT_EQ(m.find("/blocks.5000/Mul_output_0"), nullptr);
  EXPECT_EQ(m.find("/blocks.1/Mul_output_"), nullptr);  // a prefix is not a match
  int expected = 0;
  for (const auto& [name, value] : m) {
    EXPECT_EQ(name, names[expected]);
    EXPECT_EQ(value, expected);
    ++expected;
  }
}

TEST(NameIndex, NumbersNamesInInsertionOrder) {
  NameIndex ix;
  EXPECT_EQ(ix.find("a"), NameIndex::kNone);  // empty: no slots yet
  EXPECT_EQ(ix.insert("a"), std::make_pair(0u, true));
  EXPECT_EQ(ix.insert("b"), std::make_pair(1u, true));
  EXPECT_EQ(ix.insert("a"), std::make_pair(0u, false));
  EXPECT_EQ(ix.find("b"), 1u);
  EXPECT_EQ(ix.find("c"), NameIndex::kNone);
  EXPECT_EQ(ix.key(1), "b");
  EXPECT_EQ(ix.size(), 2u);
}

// insert_all gives the ids that one insert after another would, across growth, with repeated
// and empty keys (skipped: `done` is not called for them).
TEST(NameIndex, InsertAllMatchesInsertOneByOne) {
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) {
    keys.push_back(i % 7 == 3 ? "" : "/layers." + std::to_string(i % 1000) + "/out");
  }
  NameIndex one, all;
  std::vector<uint32_t> expected(keys.size(), NameIndex::kNone), got(keys.size(), NameIndex::kNone);
  std::vector<bool> expected_added(keys.size()), got_added(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].empty()) continue;
    const auto [id, added] = one.insert(keys[i]);
    expected[i] = id;
    expected_added[i] = added;
  }
  // In batches, as the loader does, so that later batches meet names of earlier ones.
  for (size_t begin = 0; begin < keys.size(); begin += 1024) {
    const size_t n = std::min<size_t>(1024, keys.size() - begin);
    all.insert_all(
        n, [&](size_t i) { return std::string_view(keys[begin + i]); },
        [&](size_t i, uint32_t id, bool added) {
          got[begin + i] = id;
          got_added[begin + i] = added;
        });
  }
  EXPECT_EQ(got, expected);
  EXPECT_EQ(got_added, expected_added);
  ASSERT_EQ(all.size(), one.size());
  for (uint32_t id = 0; id < all.size(); ++id) EXPECT_EQ(all.key(id), one.key(id));
}

TEST(NameMap, HashDependsOnEveryByte) {
  EXPECT_NE(hash_name("abcdefgh1"), hash_name("abcdefgh2"));
  EXPECT_NE(hash_name("abcdefgh"), hash_name("abcdefg"));
  EXPECT_NE(hash_name(std::string_view("a\0", 2)), hash_name("a"));
  EXPECT_EQ(hash_name("same"), hash_name(std::string("same")));
  // Every length the tail loads treat differently, a change at every position.
  for (size_t n = 1; n <= 40; ++n) {
    const std::string base(n, 'a');
    for (size_t i = 0; i < n; ++i) {
      std::string other = base;
      other[i] = 'b';
      EXPECT_NE(hash_name(base), hash_name(other)) << n << " " << i;
    }
  }
}

TEST(NameMap, SameNameComparesEveryByteOfEveryLength) {
  for (size_t n = 0; n <= 40; ++n) {
    const std::string base(n, 'a');
    EXPECT_TRUE(same_name(base, std::string(n, 'a'))) << n;
    EXPECT_FALSE(same_name(base, std::string(n + 1, 'a'))) << n;
    for (size_t i = 0; i < n; ++i) {
      std::string other = base;
      other[i] = 'b';
      EXPECT_FALSE(same_name(base, other)) << n << " " << i;
    }
  }
}

}  // namespace
}  // namespace onnxlint
