// The rule registry: ids → factories and metadata. Registration is explicit.
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/rule.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

class RuleRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Rule>()>;

  /// Registers a rule type. Throws std::logic_error on a duplicate or malformed id.
  /// The registry keeps its own copy of the RuleInfo (`add(info, factory)` too): the caller's
  /// may be a temporary.
  template <class R>
  void add() {
    add(R::static_info(), [] { return std::make_unique<R>(); });
  }
  void add(const RuleInfo& info, Factory factory);

  struct Entry {
    const RuleInfo* info;  ///< the registry's copy: valid while the registry (or a copy) lives
    Factory factory;
  };
  /// Sorted by id.
  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(std::string_view id) const;
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
