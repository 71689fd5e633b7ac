#!/usr/bin/env python3
"""Hostile input through the onnx-lint command (issue 19): FIFOs, folders without models,
writing over an input, secrets in error messages, terminal and log injection, config glob bombs,
stdin. Every run must end quickly with a clear finding or error.

Run by ctest (tests/hostile/CMakeLists.txt) with ONNX_LINT set to the built binary.
"""
import json
import os
import resource
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


def cpu_timed(*args, cwd=None, timeout=300):
    """(exit code, stdout, stderr, CPU seconds) of one run: the command's user plus
    system time, which a loaded machine does not stretch the way it stretches wall time."""
    def spent():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime
    start = spent()
    code, out, err = run(*args, cwd=cwd, timeout=timeout)
    return code, out, err, spent() - start


def generators():
    """tests/hostile/generators/io.py (needs /usr/bin/python3's onnx)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "generators", "io.py")
    spec = importlib.util.spec_from_file_location("io_generators", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class HostileIo(onnx_wire.TempModels):
    """Issue 28: loading, configuration, hashing and output (N8-N11, N14, N15)."""
    prefix = "onnxlint-hostile-io-"

    # N8: 2^62 floats in an empty raw_data, with the element limit raised in the config
    def test_wrapping_counts_end_in_findings_and_options_are_bounded(self):
        m = self.write("m.onnx", generators().huge_initializer_count(1))
        self.write("onnx-lint.toml", b"[rules.data-fp16-overflow]\nmax-elements = 2147483647\n")
        code, out, err = run("--format", "json", "--select", "ALL", m, cwd=self.dir)
        self.assertEqual(code, 1, err)
        rules = {d["rule"] for d in json.loads(out)["files"][0]["diagnostics"]}
        self.assertIn("data-size-mismatch", rules)
        self.assertNotIn("internal-error", rules)
        self.write("onnx-lint.toml",
                   b"[rules.data-fp16-overflow]\nmax-elements = 4611686018427387904\n")
        code, _, err = run(m, cwd=self.dir)
        self.assertEqual(code, 2)
        self.assertIn("onnx-lint.toml:2: rules.data-fp16-overflow.max-elements: "
                      "4611686018427387904 is out of range (from 0 to 2147483647)", err)

    # N9: one big pyproject.toml above many model folders is read once
    def pyproject_run(self, filler_lines, folders):
        root = tempfile.mkdtemp(prefix="onnxlint-n9-", dir=self.dir)
        with open(os.path.join(root, "pyproject.toml"), "w") as f:
            f.write("[tool.other]\nfiller = [\n")
            f.write('  "0123456789abcdef0123456789abcdef",\n' * filler_lines)
            f.write(']\n\n[tool.onnx-lint]\nignore = ["graph-dead-node"]\n')
        for i in range(folders):
            os.makedirs(os.path.join(root, "m%d" % i))
            with open(os.path.join(root, "m%d" % i, "model.onnx"), "wb") as f:
                f.write(CLEAN)
        code, _, err, seconds = cpu_timed(root)
        self.assertEqual(code, 0, err)
        return seconds

    def test_config_is_parsed_once_per_run(self):
        lines = 100000  # about 4 MB of TOML
        one = min(self.pyproject_run(lines, 1) for _ in range(3))
        many = min(self.pyproject_run(lines, 16) for _ in range(3))
        bigger = min(self.pyproject_run(2 * lines, 16) for _ in range(3))
        # Re-parsed per folder, 16 folders cost 9x one; parsed once, about the same. (CPU
        # time, and the slack absorbs what sharing the machine with builds still adds.)
        self.assertLess(many, 2.5 * one + 0.5, (one, many))
        self.assertLess(bigger, 2.5 * many + 0.5, (many, bigger))

    # N10: a long dim name echoed by every finding
    def test_long_names_are_capped_in_every_format(self):
        gen = generators()
        sizes = {}
        for scale in (4, 8):
            m = self.write("n10-%d.onnx" % scale, gen.long_dim_name(scale))
            for fmt in ("json", "sarif", "text", "junit", "github", "gitlab", "markdown"):
                code, out, err = run("--format", fmt, "--fail-on", "never", "--select", "ALL", m)
                self.assertEqual(code, 0, (fmt, err))
                sizes[(scale, fmt)] = len(out)
        for fmt in ("json", "sarif", "text", "junit", "github", "gitlab", "markdown"):
            # Twice the outputs and twice the name: twice the report (uncapped: four times).
            self.assertLess(sizes[(8, fmt)], 2.5 * sizes[(4, fmt)], (fmt, sizes))

    # N11: one weights file under many spellings is hashed once
    def hash_run(self, spellings):
        from onnx import TensorProto, helper
        folder = tempfile.mkdtemp(prefix="onnxlint-n11-", dir=self.dir)
        weights = os.path.join(folder, "w.bin")
        with open(weights, "wb") as f:
            f.truncate(256 << 20)  # sparse: 256 MiB of zeros, no disk
        os.makedirs(os.path.join(folder, "sub"))
        names = ["w.bin", "./w.bin", "sub/../w.bin", ".//w.bin", "./sub/../w.bin"]
        inits, nodes, last = [], [], "x"
        for i in range(spellings):
            t = TensorProto(name="w%d" % i, data_type=TensorProto.FLOAT, dims=[4],
                            data_location=TensorProto.EXTERNAL)
            location = names[i % len(names)] if i < len(names) else "./" * i + "w.bin"
            for k, v in (("location", location), ("offset", "0"), ("length", "16")):
                entry = t.external_data.add()
                entry.key, entry.value = k, v
            inits.append(t)
            nodes.append(helper.make_node("Add", [last, t.name], ["s%d" % i]))
            last = "s%d" % i
        graph = helper.make_graph(nodes, "g",
                                  [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                                  [helper.make_tensor_value_info(last, TensorProto.FLOAT, [4])],
                                  inits)
        model_bytes = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                                        producer_name="t", producer_version="1")
        model_bytes.ir_version = 8
        m = os.path.join(folder, "m.onnx")
        with open(m, "wb") as f:
            f.write(model_bytes.SerializeToString())
        code, out, err, seconds = cpu_timed("--hash", "--format", "json", "--fail-on", "never", m)
        self.assertEqual(code, 0, err)
        files = json.loads(out)["files"][0]["model"]["external_data"]
        self.assertEqual(len(files), spellings)
        self.assertEqual(len({f["sha256"] for f in files}), 1, files)
        return seconds

    def test_hash_reads_each_file_once(self):
        one = min(self.hash_run(1) for _ in range(2))
        many = min(self.hash_run(16) for _ in range(2))
        # 16 spellings hashed apart: 16 x 256 MiB hashed; once: the same as one spelling.
        # CPU time, not wall time: CI's parallel tests stretched wall time past the bound.
        self.assertLess(many, 2.5 * one + 0.5, (one, many))

    # N14: a symlink out of the folder walked
    def test_folder_expansion_does_not_leave_the_folder(self):
        outside = self.write("outside/secret-name.onnx",
                             model([node("Relu", ["x"], ["y"], "SECRET_NODE")]))
        self.write("repo/m.onnx", CLEAN)
        os.symlink(outside, os.path.join(self.dir, "repo", "leak.onnx"))
        os.symlink(os.path.join(self.dir, "outside"), os.path.join(self.dir, "repo", "leakdir"))
        os.symlink("m.onnx", os.path.join(self.dir, "repo", "alias.onnx"))
        code, out, err = run("--format", "json", "--select", "ALL",
                             os.path.join(self.dir, "repo"))
        paths = [os.path.basename(f["path"]) for f in json.loads(out)["files"]]
        self.assertEqual(paths, ["alias.onnx", "m.onnx"], err)
        self.assertNotIn(b"SECRET", out)
        self.assertNotIn(b"secret-name", out)
        # Named on the command line, it is linted.
        code, out, _ = run("--format", "json", "--select", "ALL",
                           os.path.join(self.dir, "repo", "leak.onnx"))
        self.assertEqual(len(json.loads(out)["files"]), 1)

    # N15: everything printed from a model, a path or a config is escaped
    def test_junit_and_every_format_show_no_model_line_breaks_or_hidden_characters(self):
        m = self.write("m.onnx", generators().hostile_names(1))
        for fmt in ("text", "json", "sarif", "junit", "github", "gitlab", "markdown"):
            code, out, err = run("--format", fmt, "--fail-on", "never", "--select", "ALL", m)
            self.assertEqual(code, 0, (fmt, err))
            for bad in (b"\x1b", b"\x00", b"\r", "\u202e".encode(), "\u200b".encode(),
                        "\u2060".encode(), "\U000E0041".encode(), "\ufeff".encode()):
                self.assertNotIn(bad, out, (fmt, bad))
            for line in out.splitlines():
                if fmt == "github":
                    self.assertRegex(line, rb"^::(error|warning|notice) file=")
                else:
                    self.assertFalse(line.lstrip().startswith(b"::"), (fmt, line))

    def test_show_config_prints_folder_names_visibly(self):
        folder = os.path.join(self.dir, "a\n[rules.x]\x1b[31m\u202e")
        m = self.write(os.path.join(folder, "m.onnx"), CLEAN)
        self.write(os.path.join(folder, "onnx-lint.toml"), b'ignore = ["graph-dead-node"]\n')
        code, out, err = run("--show-config", m)
        self.assertEqual(code, 0, err)
        self.assertNotIn(b"\x1b", out)
        self.assertNotIn("\u202e".encode(), out)
        for line in out.splitlines():
            self.assertFalse(line.startswith(b"[rules.x]"), line)
        self.assertIn(b"a\\x0a[rules.x]\\x1b[31m\\u{202E}", out)

    def test_baseline_paths_are_printed_visibly(self):
        folder = os.path.join(self.dir, "b\n::error::\x1b[31m\u202e")
        m = self.write(os.path.join(folder, "m.onnx"), CLEAN)
        baseline = os.path.join(folder, "base.json")
        code, _, err = run("--write-baseline", baseline, m)
        self.assertEqual(code, 0, err)
        self.assertNotIn("\x1b", err)
        self.assertNotIn("\u202e", err)
        self.assertIn("b\\x0a::error::\\x1b[31m\\u{202E}", err)
        for line in err.splitlines():
            self.assertFalse(line.startswith("::error::"), line)

    def test_list_external_data_cannot_be_split_by_a_nul(self):
        from onnx import TensorProto, helper
        t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[1],
                        data_location=TensorProto.EXTERNAL)
        entry = t.external_data.add()
        entry.key, entry.value = "location", "w.bin\x00forged.onnx\x00\x1b[31mx"
        graph = helper.make_graph([helper.make_node("Relu", ["w"], ["y"])], "g", [],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
                                  [t])
        mp = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        mp.ir_version = 8
        m = self.write("m.onnx", mp.SerializeToString())
        code, out, err = run("--list-external-data", m)
        self.assertEqual(code, 2)
        self.assertEqual(out, b"")
        self.assertIn("w.bin\\x00forged.onnx\\x00\\x1b[31mx", err)
        self.assertNotIn("\x1b", err)


if __name__ == "__main__":
    unittest.main()
