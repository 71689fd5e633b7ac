#include "rules/categories.h"

namespace onnxlint::rules {

void register_target_rules(RuleRegistry& registry) {
  (void)registry;  // rules of this category are added here, sorted by id
}

}  // namespace onnxlint::rules
