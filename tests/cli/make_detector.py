#!/usr/bin/env python3
"""Exports torchvision's fasterrcnn_mobilenet_v3_large_320_fpn (random weights) at opset 11.

The model of issue 15's acceptance check: `onnx-lint --target tensorrt --target nnapi --target
coreml` on it must fit on one screen (<= 60 lines of default text) with every finding still in
the JSON report. Needs Debian's python3-torch and python3-torchvision; the file is about 75 MB,
so it is made in a temporary folder, never committed.

Usage: make_detector.py OUT.onnx
"""
import sys
import warnings

import torch
import torchvision

warnings.filterwarnings("ignore")
torch.manual_seed(0)
model = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
    weights=None, weights_backbone=None)
model.eval()
torch.onnx.export(model, ([torch.rand(3, 320, 320)],), sys.argv[1], opset_version=11,
                  input_names=["images"], output_names=["boxes", "labels", "scores"])
