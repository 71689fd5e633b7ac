#!/usr/bin/env python3
"""Remakes the corpus models of the per-dimension shape analysis (issue: facts right about the
place). Run with Debian's python3-torch 1.13: `/usr/bin/python3 gen_shape_facts.py OUT_DIR`.
Weights are random (seed 0); each model is a few KB. manifest.json says what each must show.
"""
import sys
from typing import List

import torch

torch.manual_seed(0)
OUT = sys.argv[1] if len(sys.argv) > 1 else "."


@torch.jit.script
def pick_column(kept: torch.Tensor) -> torch.Tensor:
    # Scripted, so the exporter does not know the result's dims: the squeeze below becomes
    # If(Equal(Shape(t)[1], 1)) at opset 11.
    if kept.shape[0] > 2:
        return kept[:, [0]]
    return kept[:, [1]]


class SqueezeAfterMask(torch.nn.Module):
    def forward(self, boxes):
        kept = boxes[boxes[:, 4] > 0.5]  # [K, 5], K set by data
        return pick_column(kept).squeeze(1)


class ArangeClasses(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        y = self.fc(x[x.sum(1) > 0])  # [K, 10]: 10 is fixed by the weight
        return torch.arange(y.shape[1]) + y.shape[0] * 0


class ReshapeBatchFixed(torch.nn.Module):
    def forward(self, x):
        n, c = x.shape[0], x.shape[1]
        return x.reshape(n, -1, c), x.flatten()


class CollectWhile(torch.nn.Module):
    def forward(self, x):
        parts: List[torch.Tensor] = []
        s = x.sum()
        while bool(s > 0):
            parts.append(x * s)
            s = s - 1.0
        if len(parts) > 0:
            return torch.cat(parts, 0)
        return x


class GreedyDecode(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 8)
        self.out = torch.nn.Linear(8, 10)

    def forward(self, tok):
        toks = tok
        for _ in range(20):
            nxt = self.out(self.emb(toks[-1:])).argmax(-1)
            toks = torch.cat([toks, nxt], 0)
            if bool(nxt[0] == 2):
                break
        return toks


class SliceForms(torch.nn.Module):
    """The slices, shifts and caches exporters write over a dynamic axis, each an output whose
    length is a closed form of seq and past (issue 27: these were opaque f(seq) before)."""

    def forward(self, x, p):  # x [b, seq, 8], p [b, past, 8]
        n = p.size(1) + x.size(1)
        causal = torch.ones(n, n).tril()[p.size(1):, :][:, :n]
        return (x[:, -5:], x[:, ::2], torch.roll(x, 1, 1), torch.cat([x, x.flip(1)], 1),
                x.chunk(2, dim=1)[0], x + torch.arange(x.size(1)).unsqueeze(-1).float(),
                torch.cat([p, x], 1)[:, -x.size(1):], torch.nn.functional.pad(x[:, 1:], (0, 0, 0, 1)),
                causal)


def export(model, args, name, opset, inputs, outputs, dynamic=None):
    torch.onnx.export(model, args, f"{OUT}/{name}", opset_version=opset, input_names=inputs,
                      output_names=outputs, dynamic_axes=dynamic)


export(SqueezeAfterMask().eval(), (torch.rand(6, 5),), "torch_squeeze_if_after_mask_op11.onnx",
       11, ["boxes"], ["first"], {"boxes": {0: "n"}})
export(ArangeClasses().eval(), (torch.rand(4, 8),), "torch_arange_classes_op13.onnx", 13,
       ["x"], ["r"], {"x": {0: "n"}})
export(ReshapeBatchFixed().eval(), (torch.rand(1, 3, 8, 8),), "torch_reshape_batch_fixed_op13.onnx",
       13, ["x"], ["y", "flat"], {"x": {2: "height", 3: "width"}})
export(torch.jit.script(CollectWhile()), (torch.rand(2, 3),),
       "torch_script_sequence_while_op13.onnx", 13, ["x"], ["y"])
export(torch.jit.script(GreedyDecode().eval()), (torch.tensor([1]),),
       "torch_script_greedy_decode_op13.onnx", 13, ["tok"], ["toks"])
export(SliceForms().eval(), (torch.rand(2, 6, 8), torch.rand(2, 4, 8)), "torch_slice_forms_op14.onnx",
       14, ["x", "p"], ["last5", "every2", "rolled", "mirrored", "half", "indexed", "recent",
                        "shifted", "causal"],
       {"x": {0: "b", 1: "seq"}, "p": {0: "b", 1: "past"}})
