#include "rules/categories.h"

namespace onnxlint::rules {

void add_flow_constant_condition(RuleRegistry& registry);
void add_flow_data_dependent_if(RuleRegistry& registry);
void add_flow_data_dependent_loop(RuleRegistry& registry);
void add_flow_dim_dependent_loop(RuleRegistry& registry);

void register_flow_rules(RuleRegistry& registry) {
  add_flow_constant_condition(registry);
  add_flow_data_dependent_if(registry);
  add_flow_data_dependent_loop(registry);
  add_flow_dim_dependent_loop(registry);
}

}  // namespace onnxlint::rules
