#include "rules/categories.h"

namespace onnxlint::rules {

void add_shape_data_dependent(RuleRegistry& registry);
void add_shape_dynamic_input(RuleRegistry& registry);
void add_shape_dynamic_output(RuleRegistry& registry);
void add_shape_foldable(RuleRegistry& registry);
void add_shape_input_dependent(RuleRegistry& registry);

void register_shape_rules(RuleRegistry& registry) {
  add_shape_data_dependent(registry);
  add_shape_dynamic_input(registry);
  add_shape_dynamic_output(registry);
  add_shape_foldable(registry);
  add_shape_input_dependent(registry);
}

}  // namespace onnxlint::rules
