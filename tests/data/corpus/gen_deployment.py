"""Makes the deployment-rule corpus models (data-fp16-overflow, quant-*, target-runtime-specific-op,
data-epcontext-*) with Debian's python3-torch 1.13 and python3-onnx 1.12 helpers:
    cd tests/data/corpus && /usr/bin/python3 gen_deployment.py
Weights are random with a fixed seed; every model is a few KB."""
import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

torch.manual_seed(0)
rng = np.random.default_rng(0)


def save(model, name):
    onnx.checker.check_model(model)
    onnx.save(model, name)
    print(name)


# --- data-fp16-overflow ---------------------------------------------------------------------
class MaskFillToHalf(torch.nn.Module):
    """Attention-style mask fill with finfo(float32).min, then the scores go to float16."""

    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(8, 8)

    def forward(self, x, mask):
        s = self.q(x) @ x.transpose(1, 2)
        s = s.masked_fill(mask, torch.finfo(torch.float32).min)
        return s.to(torch.float16)


def torch_mask_fill():
    torch.onnx.export(MaskFillToHalf().eval(), (torch.randn(1, 4, 8), torch.zeros(1, 4, 4, dtype=torch.bool)),
                      "torch_mask_fill_f32min_to_half_op13.onnx", opset_version=13,
                      input_names=["x", "mask"], output_names=["scores"])


class MaskedAttention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(8, 8)
        self.k = torch.nn.Linear(8, 8)

    def forward(self, x, mask):
        s = self.q(x) @ self.k(x).transpose(1, 2)
        s = s.masked_fill(mask, torch.finfo(torch.float32).min)
        return torch.softmax(s, -1)


def to_float16(model, clamp):
    """The core of onnxconverter-common's float16.convert_float_to_float16(keep_io_types=True):
    float initializers and Constant tensors become float16 (clamped into ±65504 when `clamp`,
    as the converter does; a plain numpy astype when not), float value_info become float16,
    and Casts keep the graph's float32 inputs and outputs."""
    g = model.graph

    def conv(arr):
        if clamp:
            arr = np.clip(arr, -65504.0, 65504.0)
        with np.errstate(over="ignore"):
            return arr.astype(np.float16)

    for i, t in enumerate(g.initializer):
        if t.data_type == TensorProto.FLOAT:
            g.initializer[i].CopyFrom(numpy_helper.from_array(conv(numpy_helper.to_array(t)), t.name))
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR and a.t.data_type == TensorProto.FLOAT:
                a.t.CopyFrom(numpy_helper.from_array(conv(numpy_helper.to_array(a.t)), a.t.name))
    for vi in g.value_info:
        if vi.type.tensor_type.elem_type == TensorProto.FLOAT:
            vi.type.tensor_type.elem_type = TensorProto.FLOAT16
    casts = []
    for vi in g.input:
        if vi.type.tensor_type.elem_type == TensorProto.FLOAT:
            new = vi.name + "_fp16"
            for n in g.node:
                for k, name in enumerate(n.input):
                    if name == vi.name:
                        n.input[k] = new
            casts.append(helper.make_node("Cast", [vi.name], [new], name="graph_input_cast_" + vi.name,
                                          to=TensorProto.FLOAT16))
    out_casts = []
    for vi in g.output:
        if vi.type.tensor_type.elem_type == TensorProto.FLOAT:
            new = vi.name + "_fp16"
            for n in g.node:
                for k, name in enumerate(n.output):
                    if name == vi.name:
                        n.output[k] = new
            out_casts.append(helper.make_node("Cast", [new], [vi.name], name="graph_output_cast_" + vi.name,
                                              to=TensorProto.FLOAT))
    nodes = casts + list(g.node) + out_casts
    del g.node[:]
    g.node.extend(nodes)
    return model


def fp16_conversions():
    torch.onnx.export(MaskedAttention().eval(), (torch.randn(1, 4, 8), torch.zeros(1, 4, 4, dtype=torch.bool)),
                      "/tmp/masked_attention_fp32.onnx", opset_version=13, input_names=["x", "mask"],
                      output_names=["probs"])
    save(to_float16(onnx.load("/tmp/masked_attention_fp32.onnx"), clamp=True),
         "torch_masked_attention_fp16_clamped_op13.onnx")
    save(to_float16(onnx.load("/tmp/masked_attention_fp32.onnx"), clamp=False),
         "torch_masked_attention_fp16_numpy_cast_op13.onnx")


if __name__ == "__main__":
    torch_mask_fill()
    fp16_conversions()
