// The rule registry: ids → factories and metadata. Registration is explicit.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/rule.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A factory that makes a rule without options: `[] { return std::make_unique<MyRule>(); }`.
template <class F>
concept NullaryRuleFactory = std::is_invocable_r_v<std::unique_ptr<Rule>, F&> &&
                             !std::is_invocable_v<F&, const RuleOptionsView&>;

class RuleRegistry {
 public:
  /// Makes a rule for one model's lint, with the options configured for it.
  using Factory = std::function<std::unique_ptr<Rule>(const RuleOptionsView&)>;

  /// Registers a rule type: `R::static_info()` is its RuleInfo, and `R` is constructed with
  /// the options (`explicit R(const RuleOptionsView&)`) or, without such a constructor, by
  /// default. Throws std::logic_error on a duplicate or malformed id.
  template <class R>
  void add() {
    static_assert(std::is_base_of_v<Rule, R>, "a rule derives from onnxlint::RuleBase<R>");
    if constexpr (std::is_constructible_v<R, const RuleOptionsView&>) {
      add(R::static_info(), [](const RuleOptionsView& o) { return std::make_unique<R>(o); });
    } else {
      static_assert(std::is_default_constructible_v<R>,
                    "a rule has a default constructor or one taking const RuleOptionsView&");
      add(R::static_info(), [](const RuleOptionsView&) { return std::make_unique<R>(); });
    }
  }
  /// The registry keeps its own copy of `info`: the caller's may be a temporary. A null
  /// factory registers a rule the engine reports itself (RuleInfo::engine).
  void add(const RuleInfo& info, Factory factory);
  /// The same with a factory that takes no options.
  template <NullaryRuleFactory F>
  void add(const RuleInfo& info, F make) {
    add(info, Factory([make = std::move(make)](const RuleOptionsView&) mutable { return make(); }));
  }

  struct Entry {
    const RuleInfo* info;  ///< the registry's copy: valid while the registry (or a copy) lives
    Factory factory;
  };
  /// Sorted by id.
  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(std::string_view id) const;
  /// The rule id closest to `name` when `name` is a plausible misspelling of it ("did you
  /// mean"), else nullopt.
  std::optional<std::string> closest_id(std::string_view name) const;
  std::vector<std::string> categories() const;

  /// The long documentation (docs/rules/<id>.md, embedded at build time), or "".
  static std::string_view documentation(std::string_view id);

 private:
  std::vector<Entry> entries_;
  std::vector<std::shared_ptr<const RuleInfo>> infos_;  // what Entry::info points to
};

/// The ids of the rules the engine reports itself (register_engine_rules).
inline constexpr std::string_view kModelUnreadable = "model-unreadable";
inline constexpr std::string_view kInternalError = "internal-error";
inline constexpr std::string_view kUnusedSuppression = "model-unused-suppression";

/// Rules reported by the engine itself (model-unreadable, internal-error).
void register_engine_rules(RuleRegistry& registry);

/// Every built-in rule: the engine's plus each category's register_<category>_rules.
void register_all_rules(RuleRegistry& registry);

/// A registry with every built-in rule (built once, thread-safe).
const RuleRegistry& builtin_registry();

}  // namespace onnxlint
