#include "rules/categories.h"

namespace onnxlint::rules {

void add_opset_invalid_arity(RuleRegistry& registry);
void add_opset_invalid_attribute(RuleRegistry& registry);
void add_opset_invalid_type(RuleRegistry& registry);
void add_opset_missing_import(RuleRegistry& registry);
void add_opset_newer_than_known(RuleRegistry& registry);
void add_opset_removed_op(RuleRegistry& registry);
void add_opset_too_low(RuleRegistry& registry);
void add_opset_unknown_op(RuleRegistry& registry);

void register_opset_rules(RuleRegistry& registry) {
  add_opset_invalid_arity(registry);
  add_opset_invalid_attribute(registry);
  add_opset_invalid_type(registry);
  add_opset_missing_import(registry);
  add_opset_newer_than_known(registry);
  add_opset_removed_op(registry);
  add_opset_too_low(registry);
  add_opset_unknown_op(registry);
}

}  // namespace onnxlint::rules
