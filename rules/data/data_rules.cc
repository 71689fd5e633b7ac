#include "rules/categories.h"

namespace onnxlint::rules {

void add_data_epcontext_attributes(RuleRegistry& registry);
void add_data_epcontext_file(RuleRegistry& registry);
void add_data_external_missing(RuleRegistry& registry);
void add_data_external_out_of_bounds(RuleRegistry& registry);
void add_data_external_path_escape(RuleRegistry& registry);
void add_data_fp16_overflow(RuleRegistry& registry);
void add_data_size_mismatch(RuleRegistry& registry);

void register_data_rules(RuleRegistry& registry) {
  add_data_epcontext_attributes(registry);
  add_data_epcontext_file(registry);
  add_data_external_missing(registry);
  add_data_external_out_of_bounds(registry);
  add_data_external_path_escape(registry);
  add_data_fp16_overflow(registry);
  add_data_size_mismatch(registry);
}

}  // namespace onnxlint::rules
