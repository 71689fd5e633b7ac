"""Makes the deployment-rule corpus models (data-fp16-overflow, quant-*, target-runtime-specific-op,
data-epcontext-*, a Dropout left in training mode that only some runtimes refuse) with Debian's python3-torch 1.13 and python3-onnx 1.12 helpers:
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


# --- quant-* ----------------------------------------------------------------------------------
class QuantNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.conv = torch.nn.Conv2d(3, 8, 3)
        self.relu = torch.nn.ReLU()
        self.fc = torch.nn.Linear(8, 4)
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x):
        x = self.relu(self.conv(self.quant(x)))
        return self.dequant(self.fc(x.mean((2, 3))))


def torch_quantized(engine, name):
    """Eager-mode post-training static quantization (prepare, calibrate, convert), exported at
    opset 13: torch writes QuantizeLinear/DequantizeLinear pairs around the float ops. 'qnnpack'
    quantizes weights per tensor, 'onednn' per output channel (axis 0)."""
    torch.backends.quantized.engine = engine
    m = QuantNet().eval()
    m.qconfig = torch.ao.quantization.get_default_qconfig(engine)
    p = torch.ao.quantization.prepare(m)
    p(torch.randn(4, 3, 8, 8))
    q = torch.ao.quantization.convert(p)
    torch.onnx.export(q, torch.randn(1, 3, 8, 8), name, opset_version=13, input_names=["x"],
                      output_names=["y"])
    return onnx.load(name)


def const_node(model, name):
    return next(n for n in model.graph.node if n.name == name)


def set_const(model, name, array):
    n = const_node(model, name)
    n.attribute[0].t.CopyFrom(numpy_helper.from_array(array, n.attribute[0].t.name))


def quantized_models():
    torch_quantized("qnnpack", "torch_qdq_per_tensor_qnnpack_op13.onnx")
    torch_quantized("onednn", "torch_qdq_per_channel_onednn_op13.onnx")
    # Broken copies, edited with onnx.numpy_helper:
    m = onnx.load("torch_qdq_per_channel_onednn_op13.onnx")
    w_scale = numpy_helper.to_array(const_node(m, "/conv/Constant_3").attribute[0].t)
    set_const(m, "/conv/Constant_3", w_scale[:4].copy())  # 4 scales for 8 output channels
    w_zero = numpy_helper.to_array(const_node(m, "/conv/Constant_4").attribute[0].t)
    set_const(m, "/conv/Constant_4", w_zero[:4].copy())
    save(m, "torch_qdq_per_channel_scale_truncated_op13.onnx")
    m = onnx.load("torch_qdq_per_tensor_qnnpack_op13.onnx")
    scale = numpy_helper.to_array(const_node(m, "/conv/Constant").attribute[0].t)
    set_const(m, "/conv/Constant", (scale * 2).astype(np.float32))  # DQ scale != the Q's
    save(m, "torch_qdq_pair_scale_mismatch_op13.onnx")
    m = onnx.load("torch_qdq_per_channel_onednn_op13.onnx")
    # Relabelled opset 10 (QuantizeLinear-10 has no axis): the per-channel weights stay.
    m.opset_import[0].version = 10
    for n in m.graph.node:
        if n.op_type in ("QuantizeLinear", "DequantizeLinear"):
            keep = [a for a in n.attribute if a.name != "axis"]
            del n.attribute[:]
            n.attribute.extend(keep)
    onnx.save(m, "torch_qdq_per_channel_relabelled_op10.onnx")
    print("torch_qdq_per_channel_relabelled_op10.onnx")
    m = onnx.load("torch_qdq_per_tensor_qnnpack_op13.onnx")
    # A half-converted graph: the DequantizeLinear before the mean becomes a Cast to float, so
    # ReduceMean averages the ReLU's uint8 codes.
    dq = const_node(m, "/DequantizeLinear")
    cast = helper.make_node("Cast", [dq.input[0]], list(dq.output), name="/DequantizeLinear",
                            to=TensorProto.FLOAT)
    dq.CopyFrom(cast)
    save(m, "torch_qdq_dequantize_dropped_op13.onnx")


# --- target-runtime-specific-op ----------------------------------------------------------------
class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3)
        self.c2 = torch.nn.Conv2d(4, 4, 3)

    def forward(self, x):
        return torch.relu(self.c2(torch.relu(self.c1(x))))


def ort_style_fused():
    """A torch export rewritten the way ONNX Runtime's optimizer saves it at ORT_ENABLE_ALL
    (onnxruntime is not packaged in Debian, so the rewrite is done with onnx.helper): each
    Conv+Relu becomes com.microsoft:FusedConv(activation="Relu") (ConvActivationFusion)."""
    torch.onnx.export(ConvNet().eval(), torch.randn(1, 3, 8, 8), "/tmp/convnet.onnx", opset_version=13,
                      input_names=["x"], output_names=["y"])
    m = onnx.load("/tmp/convnet.onnx")
    nodes, skip = [], set()
    g = m.graph
    for i, n in enumerate(g.node):
        if i in skip:
            continue
        nxt = g.node[i + 1] if i + 1 < len(g.node) else None
        if n.op_type == "Conv" and nxt is not None and nxt.op_type == "Relu" and nxt.input[0] == n.output[0]:
            f = helper.make_node("FusedConv", list(n.input), list(nxt.output), name=n.name + "_FusedConv",
                                 domain="com.microsoft", activation="Relu")
            f.attribute.extend(n.attribute)
            nodes.append(f)
            skip.add(i + 1)
        else:
            nodes.append(n)
    del g.node[:]
    g.node.extend(nodes)
    m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    onnx.save(m, "ort_style_fusedconv_op13.onnx")
    print("ort_style_fusedconv_op13.onnx", [(n.op_type, n.name) for n in g.node])


# --- data-epcontext-* ---------------------------------------------------------------------------
def epcontext_models():
    """EPContext models as ONNX Runtime's QNN execution provider writes them with
    ep.context_enable=1 and ep.context_embed_mode=0 (one EPContext node in place of the compiled
    partition, its blob in a file beside the model), made with onnx.helper: onnxruntime-qnn is
    not packaged in Debian, and the .bin is a 16-byte placeholder (the linter never reads it)."""
    def make(name, blob):
        n = helper.make_node("EPContext", ["x"], ["y"], name="QNNExecutionProvider_QNN_0_0", domain="com.microsoft",
                             embed_mode=0, main_context=1, ep_cache_context=blob,
                             source="QNNExecutionProvider", ep_sdk_version="2.28.0",
                             partition_name="QNNExecutionProvider_QNN_0_0")
        g = helper.make_graph([n], "main_graph", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)],
                              producer_name="onnxruntime", producer_version="1.20.0")
        m.ir_version = 8
        onnx.save(m, name)
        print(name)
    make("epcontext_qnn_embed0_ctx.onnx", "epcontext_qnn_embed0_ctx_qnn.bin")
    with open("epcontext_qnn_embed0_ctx_qnn.bin", "wb") as f:
        f.write(bytes(16))
    make("epcontext_qnn_blob_not_shipped_ctx.onnx", "epcontext_qnn_blob_not_shipped_ctx_qnn.bin")


# --- export-training-mode with ratio 0 --------------------------------------------------------
class FunctionalDropoutAttention(torch.nn.Module):
    """torchvision 0.14's Swin attention: F.dropout(attn, p=0.0) without training=self.training.
    F.dropout's default is training=True, so the eval-mode export keeps training_mode=True; with
    p=0 the node passes its input through, but TensorRT and OpenVINO refuse it."""

    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(8, 24)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, -1)
        attn = torch.nn.functional.dropout((q @ k.transpose(1, 2)).softmax(-1), p=0.0)
        return attn @ v


def functional_dropout():
    torch.onnx.export(FunctionalDropoutAttention().eval(), torch.randn(1, 4, 8),
                      "torch_fdropout_p0_attention_op13.onnx", opset_version=13,
                      input_names=["x"], output_names=["y"])
    print("torch_fdropout_p0_attention_op13.onnx")


if __name__ == "__main__":
    torch_mask_fill()
    fp16_conversions()
    quantized_models()
    ort_style_fused()
    epcontext_models()
    functional_dropout()
