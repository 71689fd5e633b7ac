#include "rules/categories.h"

namespace onnxlint::rules {

void add_target_dynamic_shape(RuleRegistry& registry);
void add_target_opset_range(RuleRegistry& registry);
void add_target_restriction(RuleRegistry& registry);
void add_target_runtime_specific_op(RuleRegistry& registry);
void add_target_unsupported_op(RuleRegistry& registry);
void add_target_unsupported_type(RuleRegistry& registry);

void register_target_rules(RuleRegistry& registry) {
  add_target_dynamic_shape(registry);
  add_target_opset_range(registry);
  add_target_restriction(registry);
  add_target_runtime_specific_op(registry);
  add_target_unsupported_op(registry);
  add_target_unsupported_type(registry);
}

}  // namespace onnxlint::rules
