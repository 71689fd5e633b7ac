// Builds tiny ONNX models in memory with ONNX's own generated protobuf classes, for tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <variant>
#include <vector>

#include <onnx/onnx_pb.h>

namespace onnxlint::testing {

/// A dimension for value infos: a number, or a symbolic name.
using DimSpec = std::variant<int64_t, std::string>;

enum ElemType : int32_t {
  kFloat = onnx::TensorProto::FLOAT,
  kInt64 = onnx::TensorProto::INT64,
  kInt32 = onnx::TensorProto::INT32,
  kBool = onnx::TensorProto::BOOL,
  kFloat16 = onnx::TensorProto::FLOAT16,
  kUint8 = onnx::TensorProto::UINT8,
  kInt8 = onnx::TensorProto::INT8,
  kDouble = onnx::TensorProto::DOUBLE,
  kString = onnx::TensorProto::STRING,
};

void set_value_info(onnx::ValueInfoProto* vi, const std::string& name, int32_t elem_type,
                    const std::vector<DimSpec>& dims, bool with_shape = true);

onnx::TensorProto make_tensor_i64(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& values);
onnx::TensorProto make_tensor_f32(const std::string& name, const std::vector<int64_t>& dims,
                                  const std::vector<float>& values);
/// A tensor whose payload is `raw_bytes` zero bytes of raw_data (for size checks).
onnx::TensorProto make_tensor_raw(const std::string& name, int32_t elem_type,
                                  const std::vector<int64_t>& dims, size_t raw_bytes);
onnx::TensorProto make_tensor_bool(const std::string& name, bool value);

// Attribute setters on a node.
void attr_int(onnx::NodeProto& n, const std::string& name, int64_t v);
void attr_float(onnx::NodeProto& n, const std::string& name, float v);
void attr_string(onnx::NodeProto& n, const std::string& name, const std::string& v);
void attr_ints(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v);
void attr_tensor(onnx::NodeProto& n, const std::string& name, const onnx::TensorProto& t);
void attr_graph(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g);

/// Fluent builder over a GraphProto (main graph or subgraph).
class GraphBuilder {
 public:
  explicit GraphBuilder(onnx::GraphProto* g) : g_(g) {}
  GraphBuilder& input(const std::string& name, int32_t elem_type = kFloat,
                      const std::vector<DimSpec>& dims = {1}, bool with_shape = true);
  GraphBuilder& output(const std::string& name, int32_t elem_type = kFloat,
                       const std::vector<DimSpec>& dims = {1}, bool with_shape = true);
  GraphBuilder& value_info(const std::string& name, int32_t elem_type,
                           const std::vector<DimSpec>& dims);
  GraphBuilder& initializer(const onnx::TensorProto& t);
  /// Adds a node; returns it for attributes. `name` defaults to "<op>_<index>".
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = "",
                        const std::string& domain = "");
  /// A Constant node holding an int64 tensor.
  onnx::NodeProto& constant_i64(const std::string& output, const std::vector<int64_t>& values,
                                const std::vector<int64_t>& dims = {-1});
  onnx::GraphProto& proto() { return *g_; }

 private:
  onnx::GraphProto* g_;
};

class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset = 17, int64_t ir_version = 8);
  ModelBuilder& opset(const std::string& domain, int64_t version);
  ModelBuilder& producer(const std::string& name, const std::string& version);
  ModelBuilder& metadata(const std::string& key, const std::string& value);
  GraphBuilder& graph() { return graph_; }
  onnx::ModelProto& proto() { return model_; }
  std::string bytes() const;

 private:
  onnx::ModelProto model_;
  GraphBuilder graph_;
};

/// The same model with its main graph moved into the body of a Loop (named "nest") of a new
/// main graph: findings in `main` should appear under `main/nest:body`. Main-graph inputs
/// become outer-scope values of the body; outputs become scan outputs.
std::string nest_in_loop(const onnx::ModelProto& model);
inline constexpr const char* kNestedPath = "main/nest:body";

/// Same, as the then_branch of an If (named "nest_if") whose else_branch mirrors it.
std::string nest_in_if(const onnx::ModelProto& model);
inline constexpr const char* kNestedIfPath = "main/nest_if:then_branch";

}  // namespace onnxlint::testing
