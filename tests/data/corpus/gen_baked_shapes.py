#!/usr/bin/python3
"""Remakes the export-baked-shape corpus models (tests/data/corpus/torch_baked_*.onnx and the
near misses torch_dynamic_*_clean_op13.onnx, torch_topk_min_dynamic_op11/13.onnx), including the
constant routes the op registry's constraints follow (an LSTM's initial state, a classifier
sized for the example image, an upsample to the example's size, a position table per patch).

Run with Debian's python3-torch 1.13 from this folder:  /usr/bin/python3 gen_baked_shapes.py
Weights are random but seeded, and tiny (a few KB per file). Every model is traced by
torch.onnx.export with dynamic_axes, so the graph *claims* to be dynamic; the "baked" ones
compute a Python int from the example input, which tracing freezes into a constant.
"""
import os
import warnings

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
OPSET = 13


def export(model, args, name, input_names, dynamic_axes, output_names=("y",), opset=OPSET):
    torch.manual_seed(0)
    model.eval()
    path = os.path.join(HERE, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TracerWarning: exactly what these models are about
        torch.onnx.export(model, args, path, opset_version=opset, input_names=list(input_names),
                          output_names=list(output_names), dynamic_axes=dynamic_axes)
    print(name, os.path.getsize(path), "bytes")


# --- baked ------------------------------------------------------------------------------------

class ViewBakedBatch(nn.Module):
    """Flattens per sample with the batch size written as a literal: x.view(2, -1)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):  # x: [batch, 4, 4]
        return self.fc(x.view(2, -1))


class LoopOverDynamicAxis(nn.Module):
    """A Python loop over the sequence axis: traced once per position of the example."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):  # x: [batch, seq, 8]
        outs = []
        for t in range(x.shape[1]):
            outs.append(torch.tanh(self.fc(x[:, t])))
        return torch.stack(outs, 1)


class SplitExampleSizes(nn.Module):
    """torch.split with sizes computed in Python from the example's sequence length."""

    def forward(self, x):  # x: [batch, seq, 8]
        n = int(x.shape[1])
        first, second = torch.split(x, [n // 2, n - n // 2], dim=1)
        return torch.cat([second, first], 1)


class ClsTokenBakedBatch(nn.Module):
    """A class token expanded to the batch size read as a Python int, then concatenated."""

    def __init__(self):
        super().__init__()
        self.cls = nn.Parameter(torch.randn(1, 1, 8))

    def forward(self, x):  # x: [batch, seq, 8]
        return torch.cat([self.cls.expand(int(x.shape[0]), -1, -1), x], 1)


class OnesBakedBatch(nn.Module):
    """torch.ones with the batch size read as a Python int (exported as a constant tensor)."""

    def forward(self, x):  # x: [batch, 16]
        return x * torch.ones(int(x.shape[0]), 16)


def topk_min(x, orig_kval, axis):
    """torchvision.models.detection._utils._topk_min as it traces (torchvision 0.14):
    min(orig_kval, x.size(axis)) computed by ONNX ops, Concat([k], Shape(x)[axis]) and a
    ReduceMin to a scalar, which TopK's export reshapes to [1]. A scalar reshaped to [1] crashed
    export-baked-shape (issue 27) on every torchvision detector exported with dynamic sizes."""
    axis_dim_val = torch._shape_as_tensor(x)[axis].unsqueeze(0)
    return torch.min(torch.cat((torch.tensor([orig_kval], dtype=axis_dim_val.dtype),
                                axis_dim_val), 0))


class TopkCandidates(nn.Module):
    """A detection head keeping min(300, N) candidates; with `bake`, the box features are also
    flattened with the box count written as a literal (boxes.view(2, -1)), a genuine bake."""

    def __init__(self, bake=False):
        super().__init__()
        self.topk_candidates = 300
        self.bake = bake
        self.fc = nn.Linear(4, 4)

    def forward(self, scores, boxes):  # scores: [N], boxes: [N, 4]
        k = topk_min(scores, self.topk_candidates, 0)
        top, idx = scores.topk(k)
        picked = boxes[idx]
        if self.bake:
            return top, picked, self.fc(boxes.view(2, -1))
        return top, picked


# --- near misses (must stay clean) ------------------------------------------------------------

class DynamicCleanPatterns(nn.Module):
    """Repeated layers from nn.ModuleList, a loop over a static axis, reshapes that keep the
    dynamic batch (x.view(x.size(0), -1), reshape(-1, ...)), all with a dynamic batch."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(16, 16) for _ in range(3)])
        self.head = nn.Linear(4, 4)

    def forward(self, x):  # x: [batch, 4, 4]
        h = x.view(x.size(0), -1)
        for layer in self.layers:
            h = torch.relu(layer(h))
        g = h.reshape(-1, 4, 4)
        cols = [self.head(g[:, i]) for i in range(4)]  # axis 1 is static (4)
        return torch.stack(cols, 1).reshape(x.shape[0], -1)


class KvCache(nn.Module):
    """Attention step with a KV cache: the cache grows along a dynamic axis by concatenation."""

    def __init__(self):
        super().__init__()
        self.k = nn.Linear(8, 8)
        self.v = nn.Linear(8, 8)
        self.q = nn.Linear(8, 8)

    def forward(self, x, past_k, past_v):  # x: [batch, seq, 8], past: [batch, past, 8]
        k = torch.cat([past_k, self.k(x)], 1)
        v = torch.cat([past_v, self.v(x)], 1)
        att = torch.softmax(self.q(x) @ k.transpose(1, 2) / 8 ** 0.5, -1)
        return att @ v, k, v


# --- constants that reach a dynamic dim through ops other than Reshape/Expand/Split (issue 27) --

class LstmBakedState(nn.Module):
    """An LSTM whose initial state is built with the example's batch as a Python int."""

    def __init__(self, bake=True):
        super().__init__()
        self.rnn = nn.LSTM(8, 16)
        self.bake = bake

    def forward(self, x):  # x: [seq, batch, 8]
        if self.bake:
            h0 = torch.zeros(1, int(x.size(1)), 16)
        else:
            h0 = x.new_zeros(1, x.size(1), 16)
        y, _ = self.rnn(x, (h0, h0))
        return y


class ConvFlattenHead(nn.Module):
    """A CNN whose classifier was sized for the example's image: Linear(8 * 16 * 16, 10) after
    a stride-2 conv of a 32x32 input (or, in the clean variant, after a global average)."""

    def __init__(self, pooled=False):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.pooled = pooled
        self.fc = nn.Linear(8 if pooled else 8 * 16 * 16, 10)

    def forward(self, x):  # x: [N, 3, H, W]
        h = torch.relu(self.conv(x))
        h = h.mean((2, 3)) if self.pooled else h.flatten(1)
        return self.fc(h)


class UpsampleToExample(nn.Module):
    """A U-Net skip: the decoder upsamples to the encoder's size read as Python ints (or, in the
    clean variant, to x.shape[2:] kept as tensors), then concatenates with the skip."""

    def __init__(self, bake=True):
        super().__init__()
        self.down = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bake = bake

    def forward(self, x):  # x: [N, 3, H, W]
        y = torch.relu(self.down(x))
        size = (int(x.shape[2]), int(x.shape[3])) if self.bake else x.shape[2:]
        up = nn.functional.interpolate(y, size=size, mode="nearest")
        return torch.cat([x, up], 1)


class PatchPositionTable(nn.Module):
    """ViT-style patches with a learned position table for the example's 8x8 patch grid."""

    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, 16, 4, stride=4)
        self.pos = nn.Parameter(torch.randn(1, 64, 16))

    def forward(self, x):  # x: [N, 3, H, W]
        return self.patch(x).flatten(2).transpose(1, 2) + self.pos


class PadToMultiple(nn.Module):
    """Pads the sequence to a multiple of 32, then adds a table of the padded length: with the
    pad amount computed as a Python int from the example (baked), or from x.shape[1] kept
    traced (the near miss, right while the padded length is 32)."""

    def __init__(self, bake=True):
        super().__init__()
        self.table = nn.Parameter(torch.randn(1, 32, 8))
        self.bake = bake

    def forward(self, x):  # x: [batch, seq, 8]
        extra = int(32 - x.shape[1] % 32) if self.bake else 32 - x.shape[1] % 32
        return nn.functional.pad(x, (0, 0, 0, extra)) + self.table


def main():
    torch.manual_seed(0)
    export(ViewBakedBatch(), (torch.randn(2, 4, 4),), "torch_baked_view_batch_op13.onnx", ["x"],
           {"x": {0: "batch"}, "y": {0: "batch"}})
    export(LoopOverDynamicAxis(), (torch.randn(2, 3, 8),), "torch_baked_loop_dynamic_axis_op13.onnx",
           ["x"], {"x": {0: "batch", 1: "seq"}, "y": {0: "batch", 1: "seq"}})
    export(SplitExampleSizes(), (torch.randn(2, 6, 8),), "torch_baked_split_sizes_op13.onnx", ["x"],
           {"x": {0: "batch", 1: "seq"}, "y": {0: "batch", 1: "seq"}})
    export(DynamicCleanPatterns(), (torch.randn(2, 4, 4),),
           "torch_dynamic_layers_reshape_clean_op13.onnx", ["x"],
           {"x": {0: "batch"}, "y": {0: "batch"}})
    export(KvCache(), (torch.randn(2, 3, 8), torch.randn(2, 5, 8), torch.randn(2, 5, 8)),
           "torch_dynamic_kv_cache_clean_op13.onnx", ["x", "past_k", "past_v"],
           {"x": {0: "batch", 1: "seq"}, "past_k": {0: "batch", 1: "past"},
            "past_v": {0: "batch", 1: "past"}, "y": {0: "batch", 1: "seq"},
            "k": {0: "batch", 1: "total"}, "v": {0: "batch", 1: "total"}},
           output_names=("y", "k", "v"))
    export(ClsTokenBakedBatch(), (torch.randn(2, 6, 8),), "torch_baked_expand_cls_op13.onnx",
           ["x"], {"x": {0: "batch", 1: "seq"}, "y": {0: "batch"}})
    export(OnesBakedBatch(), (torch.randn(2, 16),), "torch_baked_ones_batch_op13.onnx", ["x"],
           {"x": {0: "batch"}, "y": {0: "batch"}})
    topk_axes = {"scores": {0: "N"}, "boxes": {0: "N"}, "top": {0: "k"}, "picked": {0: "k"},
                 "feat": {0: "N"}}
    for opset in (11, 13):
        export(TopkCandidates(), (torch.randn(2), torch.randn(2, 4)),
               f"torch_topk_min_dynamic_op{opset}.onnx", ["scores", "boxes"], topk_axes,
               output_names=("top", "picked"), opset=opset)
    export(TopkCandidates(bake=True), (torch.randn(2), torch.randn(2, 4)),
           "torch_baked_topk_min_view_op13.onnx", ["scores", "boxes"], topk_axes,
           output_names=("top", "picked", "feat"))
    rnn_axes = {"x": {0: "seq", 1: "batch"}, "y": {0: "seq", 1: "batch"}}
    export(LstmBakedState(), (torch.randn(5, 2, 8),), "torch_baked_lstm_state_op13.onnx", ["x"],
           rnn_axes)
    export(LstmBakedState(bake=False), (torch.randn(5, 2, 8),),
           "torch_dynamic_lstm_state_clean_op13.onnx", ["x"], rnn_axes)
    image_axes = {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N"}}
    export(ConvFlattenHead(), (torch.randn(2, 3, 32, 32),), "torch_baked_conv_flatten_fc_op13.onnx",
           ["x"], image_axes)
    export(ConvFlattenHead(pooled=True), (torch.randn(2, 3, 32, 32),),
           "torch_dynamic_conv_pooled_fc_clean_op13.onnx", ["x"], image_axes)
    unet_axes = {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 2: "H", 3: "W"}}
    export(UpsampleToExample(), (torch.randn(1, 3, 32, 32),),
           "torch_baked_upsample_size_op13.onnx", ["x"], unet_axes)
    pad_axes = {"x": {0: "batch", 1: "seq"}, "y": {0: "batch"}}
    export(PadToMultiple(), (torch.randn(2, 20, 8),), "torch_baked_pad_amount_op13.onnx", ["x"],
           pad_axes)
    export(PadToMultiple(bake=False), (torch.randn(2, 20, 8),),
           "torch_dynamic_pad_amount_clean_op13.onnx", ["x"], pad_axes)
    export(UpsampleToExample(bake=False), (torch.randn(1, 3, 32, 32),),
           "torch_dynamic_upsample_size_clean_op13.onnx", ["x"], unet_axes)
    export(PatchPositionTable(), (torch.randn(2, 3, 32, 32),), "torch_baked_patch_position_op13.onnx",
           ["x"], {"x": {0: "N", 2: "H", 3: "W"}, "y": {0: "N", 1: "patches"}})


if __name__ == "__main__":
    main()
