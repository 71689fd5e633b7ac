#!/usr/bin/env python3
"""Hostile input through the onnx-lint command (issue 19): FIFOs, folders without models,
writing over an input, secrets in error messages, terminal and log injection, config glob bombs,
stdin. Every run must end quickly with a clear finding or error.

Run by ctest (tests/hostile/CMakeLists.txt) with ONNX_LINT set to the built binary.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

BIN = os.environ.get("ONNX_LINT", "onnx-lint")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import onnx_wire  # noqa: E402
from onnx_wire import field, int_field, node, value_info, varint  # noqa: E402,F401


def model(nodes, inputs=("x",), outputs=("y",)):
    return onnx_wire.model(nodes, inputs, outputs, producer=("tests", "1"))


CLEAN = model([node("Relu", ["x"], ["y"], "relu")])
NEUTRAL_CWD = tempfile.mkdtemp(prefix="onnxlint-hostile-cwd-")


def run(*args, stdin=None, cwd=None, timeout=60):
    proc = subprocess.run([BIN, *args], input=stdin, capture_output=True, cwd=cwd or NEUTRAL_CWD,
                          timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


class Hostile(onnx_wire.TempModels):
    prefix = "onnxlint-hostile-"

    # 5. stall
    def test_fifo_model_path_does_not_block(self):
        fifo = os.path.join(self.dir, "m.onnx")
        os.mkfifo(fifo)
        code, out, _ = run(fifo, timeout=20)
        self.assertEqual(code, 1)
        self.assertIn(b"not a regular file", out)

    def test_fifo_config_and_baseline_do_not_block(self):
        model_path = self.write("m.onnx", CLEAN)
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        code, _, err = run("--config", fifo, model_path, timeout=20)
        self.assertEqual(code, 2)
        self.assertIn("not a regular file", err)
        code, _, err = run("--baseline", fifo, model_path, timeout=20)
        self.assertEqual(code, 2)
        self.assertIn("not a regular file", err)

    # 8. a gate that passes on nothing
    def test_paths_without_models_are_errors(self):
        os.makedirs(os.path.join(self.dir, "empty"))
        os.makedirs(os.path.join(self.dir, "x.onnx"))
        for p in ("empty", "x.onnx"):
            path = os.path.join(self.dir, p)
            code, out, err = run(path)
            self.assertEqual(code, 2, p)
            self.assertEqual(err, f"onnx-lint: {path}: no model (*.onnx file) in this folder\n")
            # The report is written (issue 16), and it checked nothing.
            self.assertEqual(out, b"0 files checked: 0 errors, 0 warnings, 0 info, "
                                  b"1 path without a model\n")

    # 9. writing over an input, secrets, stdin
    def test_output_onto_an_input_is_refused(self):
        m = self.write("sub/m.onnx", CLEAN)
        for flag in ("-o", "--output", "--write-baseline"):
            for target_path in (m, os.path.join(self.dir, "sub", ".", "m.onnx")):
                code, _, err = run(flag, target_path, os.path.join(self.dir, "sub"))
                self.assertEqual(code, 2, (flag, err))
                self.assertIn("refusing to overwrite", err)
        with open(m, "rb") as f:
            self.assertEqual(f.read(), CLEAN)
        link = os.path.join(self.dir, "link.onnx")
        os.symlink(m, link)
        code, _, err = run("-o", link, m)
        self.assertEqual(code, 2)
        with open(m, "rb") as f:
            self.assertEqual(f.read(), CLEAN)

    def test_config_baseline_never_echoes_the_file(self):
        secret = self.write("secret.txt", b"root:$6$TOPSECRET:19000:0:99999:7:::\n")
        self.write("onnx-lint.toml", ('baseline = "%s"\n' % secret).encode())
        m = self.write("m.onnx", CLEAN)
        code, out, err = run(m, cwd=self.dir)
        self.assertEqual(code, 2)
        self.assertIn("not a baseline file", err)
        self.assertNotIn("TOPSECRET", err + out.decode("utf-8", "replace"))
        self.assertNotIn("root:", err)

    def test_stdin_large_model(self):
        big = model([node("Relu", ["x"], ["y"], "relu")] +
                    [node("Neg", ["x"], ["d%d" % i], "n" * 1000 + str(i)) for i in range(20000)])
        start = time.time()
        code, out, _ = run("--format", "json", "--select", "graph-dead-node", "-", stdin=big)
        self.assertEqual(code, 0)
        report = json.loads(out)
        self.assertEqual(report["files"][0]["model"]["file_bytes"], len(big))
        self.assertLess(time.time() - start, 30)
        # Standard input redirected from a file is mapped, not copied: same report.
        path = self.write("big.onnx", big)
        with open(path, "rb") as f:
            proc = subprocess.run([BIN, "--format", "json", "--select", "graph-dead-node", "-"],
                                  stdin=f, capture_output=True, cwd=NEUTRAL_CWD, timeout=60)
        self.assertEqual(json.loads(proc.stdout), report)
        code, _, err = run("-", "-", stdin=CLEAN)
        self.assertEqual(code, 2)
        self.assertIn("more than once", err)

    # 7. log and terminal injection
    def test_text_and_github_output_cannot_be_steered(self):
        evil = model([node("Relu", ["x"], ["a"], b"x\n::error file=PWNED.py::owned\n::add-mask::k"),
                      node("Neg", ["a"], ["b"], b"\x1b[2J\x1b[32mOK\x1b[0m"),
                      node("Add", ["b", "ghost\xe2\x80\xae"], ["y"], "add")])
        folder = os.path.join(self.dir, "in\x1b[31m")
        m = self.write(os.path.join(folder, "m.onnx"), evil)
        for fmt in ("text", "github"):
            code, out, _ = run("--format", fmt, "--select", "ALL", self.dir)
            self.assertEqual(code, 1)
            self.assertNotIn(b"\x1b", out)
            self.assertNotIn("\u202e".encode(), out)
            for line in out.splitlines():
                if fmt == "github":
                    self.assertRegex(line, rb"^::(error|warning|notice) file=")
                else:
                    self.assertFalse(line.startswith(b"::"), line)
        for fmt in ("gitlab", "junit", "markdown"):  # documents read by renderers
            code, out, _ = run("--format", fmt, "--select", "ALL", self.dir)
            self.assertEqual(code, 1, fmt)
            self.assertNotIn(b"\x1b", out)
            self.assertNotIn("\u202e".encode(), out)
            self.assertNotIn(b"\r", out)
        self.assertTrue(os.path.exists(m))

    def test_config_errors_are_printed_visibly(self):
        self.write("onnx-lint.toml", b'"sel\\u001b[2Ject" = ["graph"]\n')
        m = self.write("m.onnx", CLEAN)
        code, _, err = run(m, cwd=self.dir)
        self.assertEqual(code, 2)
        self.assertNotIn("\x1b", err)
        self.assertIn("\\x1b[2J", err)

    # 2. config glob bombs
    def test_config_glob_bombs_end_quickly(self):
        m = self.write("a/b/m.onnx", CLEAN)
        parts = "a/" * 200000 + "*.onnx"
        self.write("onnx-lint.toml", ('[[overrides]]\nfiles = ["%s"]\nignore = ["graph"]\n'
                                      % parts).encode())
        code, _, err = run(m, cwd=self.dir, timeout=30)
        self.assertEqual(code, 2)
        self.assertIn("glob longer than", err)
        deep = os.path.join(*(["x"] * 100), "m.onnx")
        deep_model = self.write(deep, CLEAN)
        stars = "**/x/" * 10 + "never.onnx"
        self.write("onnx-lint.toml", ('[[overrides]]\nfiles = ["%s"]\nignore = ["graph"]\n'
                                      % stars).encode())
        start = time.time()
        code, _, _ = run(deep_model, cwd=self.dir, timeout=30)
        self.assertEqual(code, 0)
        self.assertLess(time.time() - start, 10)


if __name__ == "__main__":
    unittest.main()
