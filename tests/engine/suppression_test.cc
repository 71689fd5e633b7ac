// The in-model suppression parser (lib/driver/suppression.h) and the decimal parser
// (lib/util/decimal.h).
#include "lib/driver/suppression.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/util/decimal.h"

namespace onnxlint {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> parse(std::string_view value) {
  std::vector<std::string> out;
  parse_disable_value(value, out);
  return out;
}

TEST(SuppressionParser, SplitsAtCommasAndTrimsBlanks) {
  EXPECT_THAT(parse("graph-dead-node"), ElementsAre("graph-dead-node"));
  EXPECT_THAT(parse(" graph-dead-node ,\tshape ,opset-*"),
              ElementsAre("graph-dead-node", "shape", "opset-*"));
}

TEST(SuppressionParser, IgnoresTheReasonAndEmptyItems) {
  EXPECT_THAT(parse("graph-dead-node, shape -- exported by tool X, see #12"),
              ElementsAre("graph-dead-node", "shape"));
  EXPECT_THAT(parse(",, graph-dead-node,,"), ElementsAre("graph-dead-node"));
  EXPECT_THAT(parse("-- only a reason"), IsEmpty());
  EXPECT_THAT(parse(""), IsEmpty());
  EXPECT_THAT(parse(" \t, "), IsEmpty());
}

TEST(SuppressionParser, AppendsToWhatIsThere) {
  std::vector<std::string> out{"first"};
  parse_disable_value("second", out);
  EXPECT_THAT(out, ElementsAre("first", "second"));
}

TEST(DecimalParser, DigitsOnly) {
  EXPECT_EQ(parse_decimal("0"), 0u);
  EXPECT_EQ(parse_decimal("4096"), 4096u);
  EXPECT_EQ(parse_decimal("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_decimal(""), std::nullopt);
  EXPECT_EQ(parse_decimal("-1"), std::nullopt);
  EXPECT_EQ(parse_decimal("+1"), std::nullopt);
  EXPECT_EQ(parse_decimal(" 1"), std::nullopt);
  EXPECT_EQ(parse_decimal("12a"), std::nullopt);
  EXPECT_EQ(parse_decimal("18446744073709551616"), std::nullopt);  // UINT64_MAX + 1
}

}  // namespace
}  // namespace onnxlint
