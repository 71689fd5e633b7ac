// NameMap: the open-addressing name index behind GraphIndex and the rule analyses.
#include <gtest/gtest.h>
#include <onnxlint/name_map.h>

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

TEST(NameMap, HashDependsOnEveryByte) {
  EXPECT_NE(hash_name("abcdefgh1"), hash_name("abcdefgh2"));
  EXPECT_NE(hash_name("abcdefgh"), hash_name("abcdefg"));
  EXPECT_NE(hash_name(std::string_view("a\0", 2)), hash_name("a"));
  EXPECT_EQ(hash_name("same"), hash_name(std::string("same")));
}

}  // namespace
}  // namespace onnxlint
