"""Models for the ONNX Runtime oracle of --fix (tools/ort/check_fixes.py, docs/fixes.md) that the
corpus does not have: torchvision's SSD on the corpus's tiny backbone exported with a dynamic
image size (`dynamic_axes` height and width; the detector a static-shape target needs fixed with
`--fix-dims height=64,width=64`). Random weights (seed 0), a few hundred KB. Run with Debian's
python3-torch 1.13 / torchvision 0.14: `/usr/bin/python3 gen_fix_models.py OUT_DIR`.
"""
import os
import sys

import torch

sys.dont_write_bytecode = True  # no __pycache__ in the corpus folder the tests lint
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
from gen_detection import tiny_ssd  # noqa: E402  (the corpus's detector, same backbone)

OUT = sys.argv[1] if len(sys.argv) > 1 else "."

torch.onnx.export(tiny_ssd(), ([torch.rand(3, 64, 64)],),
                  f"{OUT}/torchvision_ssd_tiny_dynamic_op11.onnx", input_names=["images"],
                  opset_version=11, dynamic_axes={"images": {1: "height", 2: "width"}})


# A training-mode export and the eval-mode export of the same module state: the export's own
# forward pass in training mode updates BatchNorm's running statistics, so the eval export is
# made after it (from the statistics the training file holds). `--fix --unsafe-fixes` on the
# first must compute what the second does.
class TrainNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4)
        self.drop = torch.nn.Dropout(0.5)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, x):
        x = self.bn(torch.relu(self.conv(x)))
        return self.fc(self.drop(torch.flatten(x, 1)))


net = TrainNet()
example = torch.rand(2, 3, 8, 8)
torch.onnx.export(net.train(), (example,), f"{OUT}/trainnet_training_op15.onnx",
                  input_names=["x"], output_names=["y"], opset_version=15,
                  training=torch.onnx.TrainingMode.TRAINING, do_constant_folding=False)
torch.onnx.export(net.eval(), (example,), f"{OUT}/trainnet_eval_op15.onnx",
                  input_names=["x"], output_names=["y"], opset_version=15)
