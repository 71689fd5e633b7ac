// Arena: the bump allocator that holds the model view.
#include "util/arena.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;

TEST(Arena, ArraysAreValueInitializedAlignedAndStable) {
  Arena arena;
  std::span<uint64_t> a = arena.make_array<uint64_t>(3);
  EXPECT_THAT(a, ElementsAre(0u, 0u, 0u));
  a[1] = 42;
  char* c = static_cast<char*>(arena.allocate(1, 1));
  *c = 'x';
  std::span<uint64_t> b = arena.make_array<uint64_t>(2);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % alignof(uint64_t), 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(arena.allocate(8, 64)) % 64, 0u);
  // Earlier allocations are untouched by later ones, across block boundaries too.
  for (int i = 0; i < 1000; ++i) arena.make_array<uint32_t>(1000);
  EXPECT_THAT(a, ElementsAre(0u, 42u, 0u));
  EXPECT_EQ(*c, 'x');
  EXPECT_TRUE(arena.make_array<int>(0).empty());
}

TEST(Arena, CopiesAndLargeAllocations) {
  Arena arena;
  std::vector<int64_t> v{1, -2, 3};
  std::span<const int64_t> copy = arena.copy(v);
  v[0] = 100;
  EXPECT_THAT(copy, ElementsAre(1, -2, 3));
  EXPECT_TRUE(arena.copy(std::vector<int64_t>{}).empty());
  std::string s = "dim_param";
  std::string_view sv = arena.copy_string(s);
  s[0] = 'X';
  EXPECT_EQ(sv, "dim_param");
  EXPECT_TRUE(arena.copy_string("").empty());
  // Larger than any block: gets a block of its own (huge-page sized here).
  const size_t before = arena.reserved_bytes();
  std::span<std::byte> big = arena.make_array<std::byte>(size_t{80} << 20);
  big.back() = std::byte{7};
  EXPECT_GE(arena.reserved_bytes() - before, size_t{80} << 20);
  EXPECT_EQ(big.back(), std::byte{7});
}

TEST(Arena, RefusesImpossibleSizes) {
  Arena arena;
  EXPECT_THROW(arena.make_array<uint64_t>(SIZE_MAX / 4), std::bad_alloc);
}

}  // namespace
}  // namespace onnxlint::testing
