// Builders shared by the quant-* rule tests: QDQ models with a weight, its scale and zero point.
#pragma once

#include <string>
#include <vector>

#include "support/model_builder.h"

namespace onnxlint::testing {

inline onnx::TensorProto make_tensor_i8(const std::string& name, const std::vector<int64_t>& dims,
                                        const std::vector<int32_t>& values,
                                        int32_t type = onnx::TensorProto::INT8) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(type);
  for (int64_t d : dims) t.add_dims(d);
  for (int32_t v : values) t.add_int32_data(v);
  return t;
}

/// w[out_ch, 3] (int8) → DequantizeLinear(w, w_scale, w_zero) → MatMul-free: the DQ output is
/// the graph output. `scale_len` 0 = scalar scale, else 1-D of that length.
inline ModelBuilder dq_weight(int64_t opset, int64_t out_ch, int64_t scale_len,
                              int64_t zero_len = -1, int64_t axis = 0) {
  ModelBuilder m(opset, 7);
  std::vector<int32_t> w(static_cast<size_t>(out_ch * 3), 1);
  m.graph().initializer(make_tensor_i8("w", {out_ch, 3}, w));
  if (scale_len == 0) {
    m.graph().initializer(make_tensor_f32("w_scale", {}, {0.5f}));
  } else {
    m.graph().initializer(make_tensor_f32(
        "w_scale", {scale_len}, std::vector<float>(static_cast<size_t>(scale_len), 0.5f)));
  }
  std::vector<std::string> ins = {"w", "w_scale"};
  if (zero_len >= 0) {
    m.graph().initializer(make_tensor_i8(
        "w_zero", zero_len == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{zero_len},
        std::vector<int32_t>(static_cast<size_t>(zero_len == 0 ? 1 : zero_len), 0)));
    ins.push_back("w_zero");
  }
  m.graph().output("y", kFloat, {out_ch, 3});
  auto& dq = m.graph().node("DequantizeLinear", ins, {"y"}, "dq_w");
  if (opset >= 13 && axis != 1) attr_int(dq, "axis", axis);
  return m;
}

}  // namespace onnxlint::testing
