// The rule API: RuleBase supplies info(), options are declared once (typed default) and read
// typed in the rule's constructor, the Linter checks configured values against the declaration
// with the configuration reader's messages, and the registry owns copies of RuleInfo.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnxlint/config.h>
#include <onnxlint/linter.h>
#include <onnxlint/registry.h>
#include <onnxlint/rule.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "support/model_builder.h"

namespace onnxlint::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::UnorderedElementsAre;

// One option of every type; the constructor reads them all and on_model reports what it got.
class Typed final : public RuleBase<Typed> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-typed",
        .category = "house",
        .severity = Severity::Info,
        .summary = "Reports the options it was constructed with",
        .options = {{"strict", false, "bool"},
                    {"count", 7, "int"},
                    {"ratio", 0.5, "float"},
                    {"mode", "fast", "string"},
                    {"names", std::vector<std::string>{"a", "b"}, "strings"}},
    };
    return k;
  }
  explicit Typed(const RuleOptionsView& o)
      : text_(fmt::format("strict={} count={} ratio={} mode={} names={}", o.get<bool>("strict"),
                          o.get<int64_t>("count"), o.get<double>("ratio"),
                          o.get<std::string>("mode"),
                          fmt::join(o.get<std::vector<std::string>>("names"), ","))) {}

  void on_model(const Model&, RuleContext& ctx) override { ctx.report(ctx.at_model(), text_); }

 private:
  const std::string text_;
};

// No options and no constructor of its own: add<R>() default-constructs it.
class Plain final : public RuleBase<Plain> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-plain",
        .category = "house",
        .severity = Severity::Warning,
        .summary = "Reports once per model",
    };
    return k;
  }
  void on_model(const Model&, RuleContext& ctx) override { ctx.report(ctx.at_model(), "plain"); }
};

// Reads an option it does not declare: a bug in the rule, found when it is constructed.
class Undeclared final : public RuleBase<Undeclared> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-undeclared",
        .category = "house",
        .severity = Severity::Warning,
        .summary = "Reads an option it does not declare",
        .options = {{"limit", 3, "int"}},
    };
    return k;
  }
  explicit Undeclared(const RuleOptionsView& o) { (void)o.get<int64_t>("limt"); }
};

// Reads a declared option as another type.
class Mistyped final : public RuleBase<Mistyped> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-mistyped",
        .category = "house",
        .severity = Severity::Warning,
        .summary = "Reads an int option as a bool",
        .options = {{"limit", 3, "int"}},
    };
    return k;
  }
  explicit Mistyped(const RuleOptionsView& o) { (void)o.get<bool>("limit"); }
};

// States a fix without declaring `fixable`: a bug in the rule, its internal-error finding.
class UndeclaredFix final : public RuleBase<UndeclaredFix> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-undeclared-fix",
        .category = "house",
        .severity = Severity::Warning,
        .summary = "States a fix it does not declare",
    };
    return k;
  }
  void on_model(const Model&, RuleContext& ctx) override {
    Diagnostic& d = ctx.report(ctx.at_model(), "finding");
    ctx.fix(d, FixSafety::Safe, "a fix");
  }
};

// Every node ("*"), but wants only the ops whose type starts with "Re" (Rule::wants_op),
// and counts how often it was asked.
class WantsSome final : public RuleBase<WantsSome> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-wants-some",
        .category = "house",
        .severity = Severity::Info,
        .summary = "Reports the nodes of the ops it wants",
        .node_ops = {"*"},
    };
    return k;
  }
  bool wants_op(const OpKind& op, RuleContext&) const override {
    ++asked_;
    return op.op_type.starts_with("Re");
  }
  void on_node(const Node& n, RuleContext& ctx) override {
    ctx.report(ctx.at_node(n), std::string(n.op_type()));
  }
  void on_model_end(const Model&, RuleContext& ctx) override {
    ctx.report(ctx.at_model(), fmt::format("asked {}", asked_));
  }

 private:
  mutable int asked_ = 0;
};

// Throws from wants_op: the rule's internal-error, and it sits out the model.
class WantsThrows final : public RuleBase<WantsThrows> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "house-wants-throws",
        .category = "house",
        .severity = Severity::Info,
        .summary = "Throws when asked which ops it wants",
        .node_ops = {"*"},
    };
    return k;
  }
  bool wants_op(const OpKind&, RuleContext&) const override { throw std::runtime_error("no idea"); }
  void on_node(const Node& n, RuleContext& ctx) override { ctx.report(ctx.at_node(n), "node"); }
};

RuleRegistry house_registry() {
  RuleRegistry r;
  register_engine_rules(r);
  r.add<Typed>();
  r.add<Plain>();
  r.add<Undeclared>();
  r.add<Mistyped>();
  r.add<UndeclaredFix>();
  r.add<WantsSome>();
  r.add<WantsThrows>();
  return r;
}

std::string model_bytes() {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().node("Relu", {"x"}, {"y"});
  return m.bytes();
}

// Five nodes of three ops.
std::string three_ops_bytes() {
  ModelBuilder m;
  m.graph().input("x").output("e");
  m.graph().node("Relu", {"x"}, {"a"});
  m.graph().node("Neg", {"a"}, {"b"});
  m.graph().node("Relu", {"b"}, {"c"});
  m.graph().node("Reciprocal", {"c"}, {"d"});
  m.graph().node("Neg", {"d"}, {"e"});
  return m.bytes();
}

// "<rule>: <message>" for every finding of linting a small model with `options`.
std::vector<std::string> lint(const RuleRegistry& registry, LintOptions options) {
  Linter linter(registry, std::move(options));
  std::vector<std::string> out;
  for (const Diagnostic& d : linter.lint_bytes("m.onnx", model_bytes()).diagnostics) {
    out.push_back(d.rule_id + ": " + d.message);
  }
  return out;
}

LintOptions only(const std::string& id) {
  LintOptions o;
  o.select = {id};
  return o;
}

TEST(RuleWantsOp, AskedOncePerOpAndOnlyTheWantedNodesArrive) {
  const RuleRegistry registry = house_registry();  // the Linter keeps a reference to it
  Linter linter(registry, only("house-wants-some"));
  std::vector<std::string> out;
  for (const Diagnostic& d : linter.lint_bytes("m.onnx", three_ops_bytes()).diagnostics) {
    const auto& at = d.location.node_index;
    out.push_back(fmt::format("{}@{}", d.message, at ? std::to_string(*at) : "model"));
  }
  EXPECT_THAT(out, UnorderedElementsAre("Relu@0", "Relu@2", "Reciprocal@3", "asked 3@model"));
}

TEST(RuleWantsOp, AThrowIsTheRulesInternalErrorAndItSitsOut) {
  const RuleRegistry registry = house_registry();
  Linter linter(registry, only("house-wants-throws"));
  std::vector<std::string> out;
  for (const Diagnostic& d : linter.lint_bytes("m.onnx", three_ops_bytes()).diagnostics) {
    out.push_back(d.rule_id + ": " + d.message);
  }
  EXPECT_THAT(out, ElementsAre("internal-error: rule 'house-wants-throws' failed: no idea"));
}

TEST(RuleFixes, AFixTheRuleDoesNotDeclareIsItsInternalError) {
  EXPECT_THAT(lint(house_registry(), only("house-undeclared-fix")),
              ElementsAre("house-undeclared-fix: finding",
                          "internal-error: rule 'house-undeclared-fix' failed: rule "
                          "'house-undeclared-fix' states a fix but its RuleInfo does not declare "
                          "`fixable`"));
}

TEST(RuleBase, SuppliesInfoFromStaticInfo) {
  static_assert(std::is_base_of_v<Rule, RuleBase<Plain>>);
  static_assert(std::is_abstract_v<Rule>);
  Plain p;
  const Rule& r = p;
  EXPECT_EQ(&r.info(), &Plain::static_info());
  Typed t(RuleOptionsView(Typed::static_info(), RuleOptions{}));
  EXPECT_EQ(&static_cast<const Rule&>(t).info(), &Typed::static_info());
}

TEST(RuleOptions, DeclaredOnceWithTheirTypeAndDefault) {
  const std::vector<OptionInfo>& o = Typed::static_info().options;
  ASSERT_EQ(o.size(), 5u);
  std::vector<std::string> described;
  for (const OptionInfo& i : o) {
    described.push_back(fmt::format("{} {} {}", i.name, option_type_name(i.type()),
                                    option_value_text(i.default_value)));
  }
  EXPECT_THAT(described, ElementsAre("strict bool false", "count int 7", "ratio float 0.5",
                                     "mode string \"fast\"", "names strings [\"a\", \"b\"]"));
  // A whole float stays a TOML float.
  EXPECT_EQ(option_value_text(2.0), "2.0");
}

TEST(RuleOptions, TheConstructorGetsTheDeclaredDefaultsWhenUnset) {
  EXPECT_THAT(lint(house_registry(), only("house-typed")),
              ElementsAre("house-typed: strict=false count=7 ratio=0.5 mode=fast names=a,b"));
}

TEST(RuleOptions, TheConstructorGetsTheConfiguredValuesTyped) {
  LintOptions o = only("house-typed");
  RuleOptions& r = o.rule_options["house-typed"];
  r["strict"] = true;
  r["count"] = int64_t{12};
  r["ratio"] = int64_t{2};  // an integer for a float option: the rule reads 2.0
  r["mode"] = std::string("slow");
  r["names"] = std::string("only");  // one string for a strings option: a list of one
  EXPECT_THAT(lint(house_registry(), o),
              ElementsAre("house-typed: strict=true count=12 ratio=2 mode=slow names=only"));
  // The Linter keeps them as the declared types, as its options() show.
  Linter linter(house_registry(), o);
  const RuleOptions& typed = linter.options().rule_options.at("house-typed");
  EXPECT_EQ(std::get<double>(typed.at("ratio")), 2.0);
  EXPECT_THAT(std::get<std::vector<std::string>>(typed.at("names")), ElementsAre("only"));
}

TEST(RuleOptions, TheConfigFileFeedsTheConstructor) {
  const RuleRegistry registry = house_registry();
  Config c =
      parse_config("[rules.house-typed]\ncount = 3\nnames = []\n", "/p/onnx-lint.toml", registry);
  LintOptions o = only("house-typed");
  o.rule_options = c.rule_options;
  EXPECT_THAT(lint(registry, o),
              ElementsAre("house-typed: strict=false count=3 ratio=0.5 mode=fast names="));
}

// The Linter rejects what the configuration reader rejects, with the same words.
TEST(RuleOptions, AWrongTypeIsRejectedAtLinterConstructionAsTheConfigReaderDoes) {
  const RuleRegistry registry = house_registry();
  struct Case {
    const char* toml;
    const char* key;
    OptionValue value;
  };
  const Case cases[] = {
      {"strict = 1", "strict", int64_t{1}},
      {"count = \"many\"", "count", std::string("many")},
      {"count = 2.5", "count", 2.5},
      {"ratio = true", "ratio", true},
      {"mode = [\"a\"]", "mode", std::vector<std::string>{"a"}},
      {"names = 3", "names", int64_t{3}},
  };
  for (const Case& c : cases) {
    std::string from_config, from_linter;
    try {
      parse_config(fmt::format("[rules.house-typed]\n{}\n", c.toml), "/p/onnx-lint.toml", registry);
    } catch (const ConfigError& e) {
      from_config = e.what();
    }
    LintOptions o = only("house-typed");
    o.rule_options["house-typed"][c.key] = c.value;
    try {
      Linter linter(registry, o);
    } catch (const ConfigError& e) {
      from_linter = e.what();
    }
    ASSERT_FALSE(from_linter.empty()) << c.toml;
    EXPECT_THAT(from_linter,
                ::testing::StartsWith(fmt::format("rules.house-typed.{}: expected ", c.key)));
    EXPECT_THAT(from_config, EndsWith(from_linter)) << c.toml;
  }
  LintOptions o = only("house-typed");
  o.rule_options["house-typed"]["count"] = std::string("many");
  try {
    Linter linter(registry, o);
    FAIL() << "accepted an ill-typed option";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "rules.house-typed.count: expected an integer, got string");
  }
}

TEST(RuleOptions, ARuleReadingAnUndeclaredOrMistypedOptionIsAnInternalError) {
  LintOptions o;
  o.select = {"house-undeclared", "house-mistyped", "house-plain"};
  EXPECT_THAT(
      lint(house_registry(), o),
      ElementsAre("house-plain: plain",
                  "internal-error: rule 'house-mistyped' could not be constructed: rule "
                  "'house-mistyped' reads option 'limit' as bool, declared as int",
                  "internal-error: rule 'house-undeclared' could not be constructed: rule "
                  "'house-undeclared' reads option 'limt', which its RuleInfo does not declare"));
}

TEST(RuleOptionsView, ReadsConfiguredValuesOverDefaultsAndRefusesUncheckedOnes) {
  RuleOptions configured{{"count", int64_t{9}}};
  RuleOptionsView view(Typed::static_info(), configured);
  EXPECT_EQ(view.get<int64_t>("count"), 9);
  EXPECT_EQ(view.get<std::string>("mode"), "fast");
  EXPECT_EQ(&view.rule(), &Typed::static_info());
  RuleOptions unchecked{{"ratio", int64_t{1}}};  // the Linter would have made it 1.0
  EXPECT_THROW(RuleOptionsView(Typed::static_info(), unchecked).get<double>("ratio"),
               std::logic_error);
}

TEST(RuleRegistry, AddConstructsRulesWithOrWithoutOptions) {
  LintOptions o;
  o.select = {"house-plain", "house-typed"};
  o.rule_options["house-typed"]["count"] = int64_t{1};
  EXPECT_THAT(lint(house_registry(), o),
              ElementsAre("house-plain: plain",
                          "house-typed: strict=false count=1 ratio=0.5 mode=fast names=a,b"));
}

TEST(RuleRegistry, OwnsCopiesOfTheRuleInfo) {
  const RuleRegistry registry = house_registry();
  const RuleRegistry::Entry* e = registry.find("house-typed");
  ASSERT_NE(e, nullptr);
  EXPECT_NE(e->info, &Typed::static_info());  // a copy, not the rule's static
  EXPECT_EQ(e->info->summary, Typed::static_info().summary);
  ASSERT_EQ(e->info->options.size(), 5u);
  EXPECT_EQ(e->info->options[1].default_value, OptionValue(int64_t{7}));
  // The factory builds a rule whose info() is the rule's own.
  std::unique_ptr<Rule> rule = e->factory(RuleOptionsView(*e->info, RuleOptions{}));
  EXPECT_EQ(rule->info().id, "house-typed");
}

}  // namespace
}  // namespace onnxlint::testing
