#include "rules/categories.h"

namespace onnxlint::rules {

void add_export_aten_op(RuleRegistry& registry);
void add_export_baked_shape(RuleRegistry& registry);
void add_export_custom_domain(RuleRegistry& registry);
void add_export_python_op(RuleRegistry& registry);
void add_export_training_mode(RuleRegistry& registry);
void add_export_unrolled_loop(RuleRegistry& registry);

void register_export_rules(RuleRegistry& registry) {
  add_export_aten_op(registry);
  add_export_baked_shape(registry);
  add_export_custom_domain(registry);
  add_export_python_op(registry);
  add_export_training_mode(registry);
  add_export_unrolled_loop(registry);
}

}  // namespace onnxlint::rules
