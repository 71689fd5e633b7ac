#include "support/model_builder.h"

namespace onnxlint::testing {

void set_value_info(onnx::ValueInfoProto* vi, const std::string& name, int32_t elem_type,
                    const std::vector<DimSpec>& dims, bool with_shape) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  if (!with_shape) return;
  auto* shape = tt->mutable_shape();
  for (const DimSpec& d : dims) {
    auto* dim = shape->add_dim();
    if (const auto* v = std::get_if<int64_t>(&d)) {
      if (*v >= 0) dim->set_dim_value(*v);  // negative: unknown dim (neither field set)
    } else {
      dim->set_dim_param(std::get<std::string>(d));
    }
  }
}

onnx::TensorProto make_tensor_i64(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t.add_dims(d);
  for (int64_t v : values) t.add_int64_data(v);
  return t;
}

onnx::TensorProto make_tensor_f32(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  return t;
}

onnx::TensorProto make_tensor_raw(const std::string& name, int32_t elem_type,
                                  const std::vector<int64_t>& dims, size_t raw_bytes) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(elem_type);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(std::string(raw_bytes, '\0'));
  return t;
}

onnx::TensorProto make_tensor_bool(const std::string& name, bool value) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::BOOL);
  t.add_int32_data(value ? 1 : 0);
  return t;
}

static onnx::AttributeProto* add_attr(onnx::NodeProto& n, const std::string& name,
                                      onnx::AttributeProto::AttributeType type) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(type);
  return a;
}

void attr_int(onnx::NodeProto& n, const std::string& name, int64_t v) {
  add_attr(n, name, onnx::AttributeProto::INT)->set_i(v);
}
void attr_float(onnx::NodeProto& n, const std::string& name, float v) {
  add_attr(n, name, onnx::AttributeProto::FLOAT)->set_f(v);
}
void attr_string(onnx::NodeProto& n, const std::string& name, const std::string& v) {
  add_attr(n, name, onnx::AttributeProto::STRING)->set_s(v);
}
void attr_ints(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = add_attr(n, name, onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
void attr_tensor(onnx::NodeProto& n, const std::string& name, const onnx::TensorProto& t) {
  *add_attr(n, name, onnx::AttributeProto::TENSOR)->mutable_t() = t;
}
void attr_graph(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g) {
  *add_attr(n, name, onnx::AttributeProto::GRAPH)->mutable_g() = g;
}

GraphBuilder& GraphBuilder::input(const std::string& name, int32_t elem_type,
                                  const std::vector<DimSpec>& dims, bool with_shape) {
  set_value_info(g_->add_input(), name, elem_type, dims, with_shape);
  return *this;
}

GraphBuilder& GraphBuilder::output(const std::string& name, int32_t elem_type,
                                   const std::vector<DimSpec>& dims, bool with_shape) {
  set_value_info(g_->add_output(), name, elem_type, dims, with_shape);
  return *this;
}

GraphBuilder& GraphBuilder::value_info(const std::string& name, int32_t elem_type,
                                       const std::vector<DimSpec>& dims) {
  set_value_info(g_->add_value_info(), name, elem_type, dims);
  return *this;
}

GraphBuilder& GraphBuilder::initializer(const onnx::TensorProto& t) {
  *g_->add_initializer() = t;
  return *this;
}

onnx::NodeProto& GraphBuilder::node(const std::string& op, const std::vector<std::string>& inputs,
                                    const std::vector<std::string>& outputs,
                                    const std::string& name, const std::string& domain) {
  auto* n = g_->add_node();
  n->set_op_type(op);
  n->set_name(name.empty() ? op + "_" + std::to_string(g_->node_size() - 1) : name);
  if (!domain.empty()) n->set_domain(domain);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return *n;
}

onnx::NodeProto& GraphBuilder::constant_i64(const std::string& output,
                                            const std::vector<int64_t>& values,
                                            const std::vector<int64_t>& dims) {
  auto& n = node("Constant", {}, {output});
  std::vector<int64_t> shape = dims;
  if (shape.size() == 1 && shape[0] == -1) shape = {static_cast<int64_t>(values.size())};
  attr_tensor(n, "value", make_tensor_i64("", shape, values));
  return n;
}

ModelBuilder::ModelBuilder(int64_t opset_version, int64_t ir_version)
    : graph_(model_.mutable_graph()) {
  model_.set_ir_version(ir_version);
  model_.set_producer_name("onnxlint-tests");
  model_.set_producer_version("1");
  model_.mutable_graph()->set_name("test");
  auto* imp = model_.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset_version);
}

ModelBuilder& ModelBuilder::opset(const std::string& domain, int64_t version) {
  for (auto& imp : *model_.mutable_opset_import()) {
    if (imp.domain() == domain) {
      imp.set_version(version);
      return *this;
    }
  }
  auto* imp = model_.add_opset_import();
  imp->set_domain(domain);
  imp->set_version(version);
  return *this;
}

ModelBuilder& ModelBuilder::producer(const std::string& name, const std::string& version) {
  model_.set_producer_name(name);
  model_.set_producer_version(version);
  return *this;
}

ModelBuilder& ModelBuilder::metadata(const std::string& key, const std::string& value) {
  auto* p = model_.add_metadata_props();
  p->set_key(key);
  p->set_value(value);
  return *this;
}

std::string ModelBuilder::bytes() const { return model_.SerializeAsString(); }

std::string nest_in_loop(const onnx::ModelProto& model) {
  onnx::ModelProto out = model;
  const onnx::GraphProto& inner = model.graph();
  onnx::GraphProto* main = out.mutable_graph();
  main->clear_node();
  main->clear_initializer();
  main->clear_output();
  main->clear_value_info();
  main->clear_sparse_initializer();
  // Main keeps the original inputs (now outer-scope values of the body).
  onnx::GraphProto body = inner;
  body.set_name("nest_body");
  body.clear_input();
  set_value_info(body.add_input(), "nest_iter", kInt64, {});
  set_value_info(body.add_input(), "nest_cond_in", kBool, {});
  body.clear_output();
  set_value_info(body.add_output(), "nest_cond_out", kBool, {});
  for (const auto& o : inner.output()) *body.add_output() = o;
  auto* id = body.add_node();
  id->set_op_type("Identity");
  id->set_name("nest_cond_identity");
  id->add_input("nest_cond_in");
  id->add_output("nest_cond_out");

  *main->add_initializer() = make_tensor_i64("nest_trip_count", {}, {2});
  *main->add_initializer() = make_tensor_bool("nest_cond", true);
  auto* loop = main->add_node();
  loop->set_op_type("Loop");
  loop->set_name("nest");
  loop->add_input("nest_trip_count");
  loop->add_input("nest_cond");
  for (const auto& o : inner.output()) {
    loop->add_output(o.name() + "_scan");
    onnx::ValueInfoProto vi;
    vi.set_name(o.name() + "_scan");
    *main->add_output() = vi;
  }
  attr_graph(*loop, "body", body);
  return out.SerializeAsString();
}

std::string nest_in_if(const onnx::ModelProto& model) {
  onnx::ModelProto out = model;
  const onnx::GraphProto& inner = model.graph();
  onnx::GraphProto* main = out.mutable_graph();
  main->clear_node();
  main->clear_initializer();
  main->clear_output();
  main->clear_value_info();
  main->clear_sparse_initializer();
  onnx::GraphProto then_branch = inner;
  then_branch.set_name("nest_then");
  then_branch.clear_input();
  onnx::GraphProto else_branch = then_branch;
  else_branch.set_name("nest_else");
  // The else branch must not repeat the findings: it forwards outer values unchanged.
  else_branch.clear_node();
  else_branch.clear_initializer();
  else_branch.clear_value_info();
  for (int i = 0; i < else_branch.output_size(); ++i) {
    auto* n = else_branch.add_node();
    n->set_op_type("Identity");
    n->set_name("nest_else_" + std::to_string(i));
    n->add_input(inner.input_size() > 0 ? inner.input(0).name() : "nest_if_cond");
    n->add_output(else_branch.output(i).name());
  }
  *main->add_initializer() = make_tensor_bool("nest_if_cond", true);
  auto* node = main->add_node();
  node->set_op_type("If");
  node->set_name("nest_if");
  node->add_input("nest_if_cond");
  for (const auto& o : inner.output()) {
    node->add_output(o.name() + "_if");
    onnx::ValueInfoProto vi;
    vi.set_name(o.name() + "_if");
    *main->add_output() = vi;
  }
  attr_graph(*node, "then_branch", then_branch);
  attr_graph(*node, "else_branch", else_branch);
  return out.SerializeAsString();
}

}  // namespace onnxlint::testing
