#include "rules/categories.h"

namespace onnxlint::rules {

void register_export_rules(RuleRegistry& registry) {
  (void)registry;  // rules of this category are added here, sorted by id
}

}  // namespace onnxlint::rules
