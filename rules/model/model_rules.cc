#include "rules/categories.h"

namespace onnxlint::rules {

void add_model_ir_version(RuleRegistry& registry);
void add_model_missing_producer(RuleRegistry& registry);
void add_model_too_large(RuleRegistry& registry);

void register_model_rules(RuleRegistry& registry) {
  add_model_ir_version(registry);
  add_model_missing_producer(registry);
  add_model_too_large(registry);
}

}  // namespace onnxlint::rules
