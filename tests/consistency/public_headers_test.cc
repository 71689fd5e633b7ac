// The installed headers are the library's contract (docs/library.md): they must not carry the
// engine's memory layout. Layout work (arenas, open-addressing tables, prefetching, packed
// pointers) belongs in lib/, behind accessors, so that it can change without changing the API.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PublicHeaders, CarryNoLayoutTricks) {
  // What each pattern would mean in an installed header.
  const std::vector<std::pair<std::regex, std::string>> forbidden = {
      {std::regex(R"(__builtin_)"), "compiler builtins (prefetch, ...)"},
      {std::regex(R"(reinterpret_cast)"), "reinterpreted memory (ids behind a header, ...)"},
      {std::regex(R"(\buintptr_t\b)"), "pointer tagging"},
      {std::regex(R"(\bArena\b[^;]*\{)"), "the arena's definition"},
      {std::regex(R"(#include\s*["<](util|lib|loader|driver|analysis)/)"),
       "an engine-internal header"},
      {std::regex(R"(#include\s*<onnxlint/(name_map|arena)\.h>)"), "a moved internal header"},
  };
  const fs::path dir = fs::path(ONNXLINT_SOURCE_DIR) / "include" / "onnxlint";
  int headers = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".h") continue;
    ++headers;
    const std::string text = read_file(entry.path());
    for (const auto& [pattern, meaning] : forbidden) {
      EXPECT_FALSE(std::regex_search(text, pattern))
          << entry.path().filename().string() << " contains " << meaning;
    }
  }
  EXPECT_GT(headers, 10);
  // The internal containers exist, outside the installed tree.
  EXPECT_TRUE(fs::exists(fs::path(ONNXLINT_SOURCE_DIR) / "lib" / "util" / "name_map.h"));
  EXPECT_FALSE(fs::exists(dir / "name_map.h"));
  EXPECT_FALSE(fs::exists(dir / "arena.h"));
}

}  // namespace
