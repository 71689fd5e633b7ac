#!/usr/bin/env python3
"""A small torchvision detector for the corpus: torchvision's SSD (its `postprocess_detections`:
score threshold, top-k and `batched_nms`, unrolled once per class by tracing) on a two-layer
backbone with 4 classes, exported at opset 11 with a static 64x64 image. Random weights (seed
0); the file is a few hundred KB. Run with Debian's python3-torch 1.13 / torchvision 0.14:
`/usr/bin/python3 gen_detection.py OUT_DIR`.
"""
import sys
import warnings

import torch
from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
from torchvision.models.detection.ssd import SSD

warnings.filterwarnings("ignore")


class Backbone(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, stride=4, padding=1), torch.nn.ReLU(),
            torch.nn.Conv2d(8, 8, 3, stride=2, padding=1), torch.nn.ReLU())

    def forward(self, x):
        return {"0": self.body(x)}


def tiny_ssd():
    """The detector in eval mode, its weights drawn from seed 0 (tests/data/fixes/gen_fix_models.py
    exports it with a dynamic image size)."""
    torch.manual_seed(0)
    return SSD(Backbone(), DefaultBoxGenerator([[2]]), (64, 64), num_classes=4).eval()


if __name__ == "__main__":
    OUT = sys.argv[1] if len(sys.argv) > 1 else "."
    torch.onnx.export(tiny_ssd(), ([torch.rand(3, 64, 64)],),
                      f"{OUT}/torchvision_ssd_tiny_op11.onnx", input_names=["images"],
                      opset_version=11)
