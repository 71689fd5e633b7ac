#include "rules/categories.h"

namespace onnxlint::rules {

void add_graph_dead_node(RuleRegistry& registry);
void add_graph_duplicate_node_name(RuleRegistry& registry);
void add_graph_duplicate_value(RuleRegistry& registry);
void add_graph_initializer_as_input(RuleRegistry& registry);
void add_graph_missing_output(RuleRegistry& registry);
void add_graph_stale_value_info(RuleRegistry& registry);
void add_graph_undefined_value(RuleRegistry& registry);
void add_graph_unsorted_nodes(RuleRegistry& registry);
void add_graph_unused_initializer(RuleRegistry& registry);
void add_graph_unused_input(RuleRegistry& registry);

void register_graph_rules(RuleRegistry& registry) {
  add_graph_dead_node(registry);
  add_graph_duplicate_node_name(registry);
  add_graph_duplicate_value(registry);
  add_graph_initializer_as_input(registry);
  add_graph_missing_output(registry);
  add_graph_stale_value_info(registry);
  add_graph_undefined_value(registry);
  add_graph_unsorted_nodes(registry);
  add_graph_unused_initializer(registry);
  add_graph_unused_input(registry);
}

}  // namespace onnxlint::rules
