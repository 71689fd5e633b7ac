// Small models that exercise every part of the loader, for the robustness tests: subgraphs
// nested two deep, a model-local function, sparse initializers, every attribute kind,
// metadata, external-data entries, typed and raw payloads.
#pragma once

#include <google/protobuf/unknown_field_set.h>

#include <string>
#include <vector>

#include "loader/wire_writer.h"
#include "support/model_builder.h"

namespace onnxlint::testing {

/// A model using every construct the loader walks.
inline std::string kitchen_sink_model() {
  ModelBuilder m(17, 8);
  m.opset("custom.domain", 1);
  m.metadata("author", "tests").metadata("onnx-lint:disable", "graph-dead-node -- fixture");
  m.proto().set_doc_string("every construct the loader knows");
  m.proto().set_domain("ai.onnxlint.tests");
  m.proto().set_model_version(3);
  auto& g = m.graph();
  g.input("x", kFloat, {std::string("batch"), 4}).input("cond", kBool, {});
  g.output("y", kFloat, {std::string("batch"), 4}).output("loop_out", kFloat, {-1});
  g.value_info("t", kFloat, {std::string("batch"), 4});
  g.initializer(make_tensor_f32("w", {4}, {1, 2, 3, 4}));
  g.initializer(make_tensor_i64("shape", {2}, {-1, 4}));
  onnx::TensorProto ext;
  ext.set_name("ext");
  ext.set_data_type(onnx::TensorProto::FLOAT);
  ext.add_dims(4);
  ext.set_data_location(onnx::TensorProto::EXTERNAL);
  for (auto [k, v] : std::initializer_list<std::pair<const char*, const char*>>{
           {"location", "w.bin"}, {"offset", "0"}, {"length", "16"}}) {
    auto* kv = ext.add_external_data();
    kv->set_key(k);
    kv->set_value(v);
  }
  g.initializer(ext);
  auto* sparse = g.proto().add_sparse_initializer();
  *sparse->mutable_values() = make_tensor_f32("sp", {2}, {5, 6});
  *sparse->mutable_indices() = make_tensor_i64("sp_idx", {2}, {1, 3});
  sparse->add_dims(4);

  auto& mul = g.node("Mul", {"x", "w"}, {"t"}, "mul");
  attr_float(mul, "f", 0.5f);
  attr_int(mul, "i", -3);
  attr_string(mul, "s", "text");
  attr_ints(mul, "ints", {1, -2, 3});
  auto* floats = mul.add_attribute();
  floats->set_name("floats");
  floats->set_type(onnx::AttributeProto::FLOATS);
  floats->add_floats(1.5f);
  floats->add_floats(-2.5f);
  auto* strings = mul.add_attribute();
  strings->set_name("strings");
  strings->set_type(onnx::AttributeProto::STRINGS);
  strings->add_strings("a");
  strings->add_strings("b");
  auto* tensors = mul.add_attribute();
  tensors->set_name("tensors");
  tensors->set_type(onnx::AttributeProto::TENSORS);
  *tensors->add_tensors() = make_tensor_i64("", {1}, {7});
  auto* tp = mul.add_attribute();
  tp->set_name("tp");
  tp->set_type(onnx::AttributeProto::TYPE_PROTO);
  tp->mutable_tp()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(onnx::TensorProto::FLOAT);
  auto* st = mul.add_attribute();
  st->set_name("sparse");
  st->set_type(onnx::AttributeProto::SPARSE_TENSOR);
  *st->mutable_sparse_tensor()->mutable_values() = make_tensor_f32("", {1}, {1});
  *st->mutable_sparse_tensor()->mutable_indices() = make_tensor_i64("", {1}, {0});
  st->mutable_sparse_tensor()->add_dims(2);
  // Node metadata_props (field 9, IR 10) is newer than Debian's ONNX headers: add raw bytes.
  mul.GetReflection()->MutableUnknownFields(&mul)->AddLengthDelimited(
      9, wire_writer::len_field(1, "node-key") + wire_writer::len_field(2, "node-value"));
  // NodeProto.overload (field 8, IR 10) likewise.
  mul.GetReflection()->MutableUnknownFields(&mul)->AddLengthDelimited(8, "v2");

  auto& reshape = g.node("Reshape", {"t", "shape"}, {"r"}, "reshape");
  (void)reshape;
  // If holding a Loop: subgraphs two deep, reading outer values.
  onnx::GraphProto body;
  GraphBuilder bb(&body);
  bb.input("i", kInt64, {}).input("c_in", kBool, {});
  bb.output("c_out", kBool, {}).output("scan", kFloat, {4});
  bb.node("Identity", {"c_in"}, {"c_out"}, "body_cond");
  bb.node("Add", {"r", "ext"}, {"scan"}, "body_add");
  onnx::GraphProto then_branch;
  GraphBuilder tb(&then_branch);
  tb.output("then_out", kFloat, {-1});
  tb.constant_i64("trip", {3}, {});
  auto& loop = tb.node("Loop", {"trip", "cond"}, {"then_out"}, "loop");
  attr_graph(loop, "body", body);
  onnx::GraphProto else_branch;
  GraphBuilder eb(&else_branch);
  eb.output("else_out", kFloat, {-1});
  eb.node("Identity", {"r"}, {"else_out"}, "else_id");
  auto& iff = g.node("If", {"cond"}, {"loop_out"}, "branch");
  attr_graph(iff, "then_branch", then_branch);
  attr_graph(iff, "else_branch", else_branch);
  // A Scan-like node with a list of graphs (GRAPHS attribute).
  auto& graphs = g.node("Custom", {"r"}, {"y"}, "graphs_holder", "custom.domain");
  auto* ga = graphs.add_attribute();
  ga->set_name("bodies");
  ga->set_type(onnx::AttributeProto::GRAPHS);
  *ga->add_graphs() = else_branch;
  *ga->add_graphs() = else_branch;

  // A model-local function whose body has an If.
  auto* f = m.proto().add_functions();
  f->set_name("Fn");
  f->set_domain("custom.domain");
  f->add_input("a");
  f->add_output("b");
  f->add_attribute("alpha");
  auto* fimp = f->add_opset_import();
  fimp->set_domain("");
  fimp->set_version(17);
  auto* fn_node = f->add_node();
  fn_node->set_op_type("Relu");
  fn_node->add_input("a");
  fn_node->add_output("b");
  auto* ref = fn_node->add_attribute();
  ref->set_name("alpha");
  ref->set_ref_attr_name("alpha");
  ref->set_type(onnx::AttributeProto::FLOAT);
  // FunctionProto.attribute_proto (field 11) is newer than Debian's ONNX headers too.
  f->GetReflection()->MutableUnknownFields(f)->AddLengthDelimited(
      11, wire_writer::len_field(1, "beta") + std::string("\x15\x00\x00\x80\x3f", 5) +
              std::string("\xa0\x01\x01", 3));
  // training_info (an empty TrainingInfoProto).
  m.proto().add_training_info();
  return m.bytes();
}

/// The same kind of model as the CLI's users have: a small Loop model with a function.
inline std::string loop_and_function_model() {
  ModelBuilder m(15, 8);
  m.opset("local", 1);
  m.graph().input("x", kFloat, {2}).output("y", kFloat, {2});
  m.graph().node("Twice", {"x"}, {"t"}, "call", "local");
  m.graph().node("Relu", {"t"}, {"y"}, "relu");
  onnx::ModelProto mp = m.proto();
  auto* f = mp.add_functions();
  f->set_name("Twice");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(15);
  auto* n = f->add_node();
  n->set_op_type("Add");
  n->add_input("a");
  n->add_input("a");
  n->add_output("b");
  return nest_in_loop(mp);
}

}  // namespace onnxlint::testing
