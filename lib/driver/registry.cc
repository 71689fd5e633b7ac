#include <onnxlint/registry.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>

#include "config/text_util.h"

namespace onnxlint {

namespace {
bool valid_id(const RuleInfo& info) {
  if (info.id.empty() || info.category.empty()) return false;
  if (!info.id.starts_with(info.category + "-")) return false;
  return std::all_of(info.id.begin(), info.id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}
}  // namespace

void RuleRegistry::add(const RuleInfo& info, Factory factory) {
  if (!valid_id(info)) {
    throw std::logic_error("rule id '" + info.id + "' must be '<category>-<name>' in kebab-case");
  }
  if (find(info.id) != nullptr) throw std::logic_error("rule '" + info.id + "' registered twice");
  auto copy = std::make_shared<const RuleInfo>(info);
  Entry e{copy.get(), std::move(factory)};
  infos_.push_back(std::move(copy));
  auto pos =
      std::lower_bound(entries_.begin(), entries_.end(), info.id,
                       [](const Entry& a, const std::string& id) { return a.info->id < id; });
  entries_.insert(pos, std::move(e));
}

std::optional<std::string> RuleRegistry::closest_id(std::string_view name) const {
  std::vector<std::string> ids;
  for (const Entry& e : entries()) ids.push_back(e.info->id);
  return closest(name, ids);
}

const RuleRegistry::Entry* RuleRegistry::find(std::string_view id) const {
  auto pos = std::lower_bound(entries_.begin(), entries_.end(), id,
                              [](const Entry& a, std::string_view i) { return a.info->id < i; });
  if (pos == entries_.end() || pos->info->id != id) return nullptr;
  return &*pos;
}

std::vector<std::string> RuleRegistry::categories() const {
  std::set<std::string> cats;
  for (const Entry& e : entries_) cats.insert(e.info->category);
  return {cats.begin(), cats.end()};
}

namespace {
const RuleInfo& unreadable_info() {
  static const RuleInfo k{
      .id = std::string(kModelUnreadable),
      .category = "model",
      .severity = Severity::Error,
      .summary = "Model file that is not ONNX, truncated, corrupt or has an unparsable part",
      .engine = true,
  };
  return k;
}
const RuleInfo& internal_error_info() {
  static const RuleInfo k{
      .id = std::string(kInternalError),
      .category = "internal",
      .severity = Severity::Error,
      .summary = "A rule failed while checking the model (a bug in onnx-lint or a rule pack)",
      .engine = true,
  };
  return k;
}
// Reported by the driver after in-model suppression (lib/driver/linter.cc), because only the
// driver knows which findings each `onnx-lint:disable` entry hid.
const RuleInfo& unused_suppression_info() {
  static const RuleInfo k{
      .id = std::string(kUnusedSuppression),
      .category = "model",
      .severity = Severity::Info,
      .summary =
          "An 'onnx-lint:disable' entry in the model's metadata that suppressed nothing or "
          "names no known rule",
      .engine = true,
  };
  return k;
}
}  // namespace

void register_engine_rules(RuleRegistry& registry) {
  registry.add(unreadable_info(), nullptr);
  registry.add(internal_error_info(), nullptr);
  registry.add(unused_suppression_info(), nullptr);
}

}  // namespace onnxlint
