#!/usr/bin/env python3
"""Issue 15's acceptance check on a real detector (see make_detector.py).

Skipped when Debian's python3-torch / python3-torchvision are not installed. The default text
report with three targets must fit on one screen (<= 60 lines); the JSON report must still hold
every finding (collapsed text lines are counts of JSON findings; grouped target findings list
every node).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ.get("ONNX_LINT", "onnx-lint")
PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ["--target", "tensorrt", "--target", "nnapi", "--target", "coreml"]


def have_torchvision():
    try:
        return subprocess.run([PYTHON, "-c", "import torch, torchvision"],
                              capture_output=True, timeout=300).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@unittest.skipUnless(have_torchvision(), "python3-torch / python3-torchvision not installed")
class Detector(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="onnxlint-detector-")
        cls.model = os.path.join(cls.dir, "fasterrcnn_mobilenet_v3_large_320_fpn_op11.onnx")
        subprocess.run([PYTHON, os.path.join(HERE, "make_detector.py"), cls.model], check=True,
                       capture_output=True, timeout=900)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def run_lint(self, *args):
        proc = subprocess.run([BIN, "--no-config", *TARGETS, *args, self.model],
                              capture_output=True, timeout=300, cwd=self.dir)
        return proc.returncode, proc.stdout.decode()

    def test_default_text_fits_on_a_screen_and_json_has_everything(self):
        _, text = self.run_lint()
        lines = text.splitlines()
        print(f"default text: {len(lines)} lines", file=sys.stderr)
        self.assertLessEqual(len(lines), 60, text)
        # The verdicts are there, each with its table's source once.
        for target in ("tensorrt", "onnxruntime-nnapi", "onnxruntime-coreml-mlprogram"):
            self.assertEqual(sum(1 for l in lines if l.startswith(f"  {target} (")), 1, text)
        self.assertEqual(sum(1 for l in lines if "support table:" in l), 3)
        self.assertNotIn("//", text.replace("https://", ""))

        _, out = self.run_lint("--format", "json")
        report = json.loads(out)
        [f] = report["files"]
        diags = f["diagnostics"]
        # The summary line counts every JSON finding.
        c = f["counts"]
        self.assertIn(f"{c['error']} error", lines[-1])
        self.assertIn(f"{c['warning']} warnings", lines[-1])
        # Grouped target findings name every node: per target, the unsupported-op findings
        # cover exactly the op counts of the verdict.
        for t in f["sections"]["targets"]:
            ops = {}
            for d in diags:
                if d["rule"] == "target-unsupported-op" and d.get("target") == t["target"]:
                    op = d["location"]["node"]["op_type"]
                    ops[op] = ops.get(op, 0) + 1 + len(d.get("related", []))
            listed = {o["op"]: o["count"] for o in t["unsupported_ops"]}
            self.assertEqual(ops, listed, t["target"])
        # Every collapsed text line is a count of JSON findings.
        for l in lines:
            if " findings: " in l and "-v lists them" in l:
                n = int(l.split(" findings: ")[0].split()[-1])
                rule = l.split("[")[-1].split("]")[0]
                target = l.split("] ")[0].split("[")[-1] if ": [" in l else None
                got = sum(1 for d in diags if d["rule"] == rule
                          and (target is None or d.get("target") == target))
                self.assertGreaterEqual(got, n, l)

    def test_verbose_shows_every_finding(self):
        _, text = self.run_lint("-v", "--format", "concise")
        _, out = self.run_lint("--format", "json")
        n = len(json.loads(out)["files"][0]["diagnostics"])
        self.assertEqual(sum(1 for l in text.splitlines() if l.endswith("]")
                             and ": " in l and not l.startswith("  ")), n)


if __name__ == "__main__":
    unittest.main()
