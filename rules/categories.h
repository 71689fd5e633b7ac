// Registration entry points. Each rule file defines its rule class privately and exposes one
// `add_<rule>(RuleRegistry&)`; each category lists its rules, sorted by id.
#pragma once

#include <onnxlint/registry.h>

namespace onnxlint::rules {

void register_data_rules(RuleRegistry& registry);
void register_graph_rules(RuleRegistry& registry);
void register_model_rules(RuleRegistry& registry);

// data
void add_data_external_missing(RuleRegistry& registry);
void add_data_external_out_of_bounds(RuleRegistry& registry);
void add_data_external_path_escape(RuleRegistry& registry);
void add_data_size_mismatch(RuleRegistry& registry);

// graph
void add_graph_dead_node(RuleRegistry& registry);
void add_graph_duplicate_node_name(RuleRegistry& registry);
void add_graph_duplicate_value(RuleRegistry& registry);
void add_graph_initializer_as_input(RuleRegistry& registry);
void add_graph_missing_output(RuleRegistry& registry);
void add_graph_undefined_value(RuleRegistry& registry);
void add_graph_unsorted_nodes(RuleRegistry& registry);
void add_graph_unused_initializer(RuleRegistry& registry);
void add_graph_unused_input(RuleRegistry& registry);

// model
void add_model_ir_version(RuleRegistry& registry);
void add_model_missing_producer(RuleRegistry& registry);
void add_model_too_large(RuleRegistry& registry);

}  // namespace onnxlint::rules
