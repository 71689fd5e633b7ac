// The library's own guarantees: Linter's constructor validates like the command line (same
// messages), the registry owns its RuleInfo copies, and only the driver builds a RuleContext.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/rule.h>
#include <onnxlint/targets.h>

#include <memory>
#include <string>
#include <type_traits>

#include "support/lint_harness.h"
#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// The message of the ConfigError that constructing a Linter with `options` throws ("" if none).
std::string construction_error(LintOptions options) {
  try {
    Linter linter(builtin_registry(), std::move(options));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(LinterValidation, UnknownTargetIsAnErrorWithTheCommandLinesMessage) {
  LintOptions o;
  o.targets = {"tensorrtt"};
  std::string expected;
  try {
    resolve_targets({"tensorrtt"});
  } catch (const ConfigError& e) {
    expected = e.what();
  }
  EXPECT_THAT(expected, StartsWith("unknown target 'tensorrtt' (did you mean 'tensorrt'?); known "
                                   "targets: "));
  EXPECT_EQ(construction_error(o), expected);
}

TEST(LinterValidation, TargetAliasesBecomeCanonicalIdsWithoutRepeats) {
  const TargetInfo& t = all_targets().front();
  LintOptions o;
  o.targets = {std::string(t.id), std::string(t.aliases.empty() ? t.id : t.aliases.front())};
  Linter linter(builtin_registry(), o);
  EXPECT_THAT(linter.options().targets, ElementsAre(std::string(t.id)));
  EXPECT_EQ(canonical_target("no-such-target"), std::nullopt);
}

TEST(LinterValidation, UnknownRuleIdSaysWhatTheConfigReaderSays) {
  LintOptions o;
  o.rule_options["graph-dead-nod"]["x"] = true;
  EXPECT_EQ(construction_error(o),
            "rules.graph-dead-nod: unknown rule id (did you mean 'graph-dead-node'?)");
}

TEST(LinterValidation, UnknownOptionListsTheRulesOptions) {
  LintOptions o;
  o.rule_options["export-unrolled-loop"]["min-lenght"] = int64_t{4};
  EXPECT_THAT(construction_error(o),
              StartsWith("rules.export-unrolled-loop.min-lenght: unknown option (options of "
                         "'export-unrolled-loop': min-length"));
  LintOptions none;
  none.rule_options["graph-dead-node"]["x"] = true;
  EXPECT_EQ(construction_error(none),
            "rules.graph-dead-node.x: unknown option: rule 'graph-dead-node' has no options");
}

TEST(LinterValidation, IllTypedOptionsAreErrors) {
  LintOptions o;
  o.rule_options["export-unrolled-loop"]["min-length"] = std::string("3");
  EXPECT_EQ(construction_error(o),
            "rules.export-unrolled-loop.min-length: expected an integer, got string");
  o.rule_options["export-unrolled-loop"]["min-length"] = 3.5;
  EXPECT_EQ(construction_error(o),
            "rules.export-unrolled-loop.min-length: expected an integer, got floating-point");
  LintOptions s;
  s.rule_options["shape-dynamic-input"]["allow-dims"] = int64_t{1};
  EXPECT_EQ(construction_error(s),
            "rules.shape-dynamic-input.allow-dims: expected an array of strings, got integer");
}

TEST(LinterValidation, WellTypedOptionsAreAccepted) {
  LintOptions o;
  o.rule_options["export-unrolled-loop"]["min-length"] = int64_t{4};
  o.rule_options["shape-dynamic-input"]["allow-dims"] = std::vector<std::string>{"batch"};
  EXPECT_EQ(construction_error(o), "");
  // A single string is a list of one for a strings option (the rule reads a list of one).
  LintOptions one;
  one.rule_options["shape-dynamic-input"]["allow-dims"] = std::string("batch");
  EXPECT_EQ(construction_error(one), "");
}

TEST(LinterValidation, UnknownSelectorIsAnError) {
  LintOptions o;
  o.select = {"grpah"};
  EXPECT_THAT(construction_error(o), HasSubstr("select: 'grpah' matches no rule id"));
}

class Temporary final : public Rule {
 public:
  const RuleInfo& info() const override { return info_; }
  void on_model(const Model&, RuleContext& ctx) override { ctx.report(ctx.at_model(), "seen"); }
  RuleInfo info_;
};

TEST(RuleRegistry, KeepsItsOwnCopyOfTheRuleInfo) {
  RuleRegistry registry;
  register_engine_rules(registry);
  {
    RuleInfo temporary{.id = "house-temporary",
                       .category = "house",
                       .severity = Severity::Info,
                       .summary = "Registered from a temporary RuleInfo"};
    registry.add(temporary, [] { return std::make_unique<Temporary>(); });
    temporary.id = "house-changed";  // the caller's object changes, then goes away
  }
  const RuleRegistry::Entry* e = registry.find("house-temporary");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->info->summary, "Registered from a temporary RuleInfo");
  EXPECT_EQ(registry.find("house-changed"), nullptr);

  // A copy of the registry shares the copies; the original may go away.
  auto copy = std::make_unique<RuleRegistry>(registry);
  registry = RuleRegistry();
  EXPECT_EQ(copy->find("house-temporary")->info->id, "house-temporary");
  LintOptions o;
  o.select = {"house-temporary"};
  Linter linter(*copy, o);
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  FileReport r = linter.lint_bytes("m.onnx", m.bytes());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule_id, "house-temporary");
}

TEST(RuleContext, OnlyTheDriverConstructsOne) {
  static_assert(!std::is_default_constructible_v<RuleContext::DriverKey>);
  SUCCEED();
}

TEST(EngineRuleIds, ConstantsNameTheRegisteredRules) {
  RuleRegistry registry;
  register_engine_rules(registry);
  EXPECT_NE(registry.find(kModelUnreadable), nullptr);
  EXPECT_NE(registry.find(kInternalError), nullptr);
  EXPECT_NE(registry.find(kUnusedSuppression), nullptr);
}

}  // namespace
}  // namespace onnxlint::testing
