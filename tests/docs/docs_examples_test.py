#!/usr/bin/env python3
"""Docs that cannot drift: every shell example in README.md and docs/*.md runs against the built
onnx-lint, and its shown output and exit code are checked (docs/architecture.md, "Docs tests").

A fenced block (```sh, ```bash, ```console, ```shell or unlabelled) is an example when a line
runs onnx-lint (or python3 on a script of the repository):
- `$ COMMAND` lines with output below them (a transcript, run in order in one folder): the
  output, stdout then stderr, must be what is shown. A line `...` stands for any number of
  lines, `[...]` inside a line for any text. The exit code must be 0 or 1 (never a usage
  error), unless the marker says which or `$ echo $?` shows it.
- plain command lines (no `$`): each is run; its exit code must be 0 or 1 (or as the marker
  says); its output is not checked.
A marker is an HTML comment on the line before the fence:
  <!-- docs-test: illustrative -->   not run (paths to the user's own models, CI snippets, ...)
  <!-- docs-test: exit=1 -->         every command of the block exits with 1
A command piped into onnx-lint (`... | onnx-lint -`) cannot run here: such a block must be marked.
Commands run with bash in a fresh folder that holds a copy of examples/, tools/examples/, and
stand-ins for the names the docs use (model.onnx, models/a.onnx, models/b.onnx, exports/), with
the built onnx-lint first on PATH. Run by ctest with ONNX_LINT and ONNXLINT_SOURCE_DIR set.
"""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import unittest

BIN = os.environ.get("ONNX_LINT", "onnx-lint")
SRC = os.path.abspath(os.environ.get("ONNXLINT_SOURCE_DIR",
                                     os.path.join(os.path.dirname(__file__), "..", "..")))
LANGS = {"", "sh", "bash", "console", "shell"}
MARKER = re.compile(r"<!--\s*docs-test:\s*(.*?)\s*-->")
RUNS = re.compile(r"^(onnx-lint\s|python3 tools/examples/)")
PIPED = re.compile(r"\|\s*onnx-lint(\s|$)")  # `... | onnx-lint -`: needs a marker


def pages():
    return [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))


def blocks(path):
    """(line number, language, marker, lines) of each fenced block of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start, lang, body = i, m.group(2), []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        i += 1
        prev = lines[start - 1] if start > 0 else ""
        marker = MARKER.search(prev)
        out.append((start + 1, lang, marker.group(1) if marker else "", body))
    return out


def commands(body):
    """[(command, expected output lines or None)] of a block; [] when it runs no onnx-lint."""
    if any(line.startswith("$ ") for line in body):
        out, current = [], None
        for line in body:
            if line.startswith("$ "):
                current = (line[2:], [])
                out.append(current)
            elif current is not None:
                current[1].append(line)
        return out if any(RUNS.match(c) for c, _ in out) else []
    cmds = []
    for line in body:
        line = re.sub(r"\s+#\s.*$", "", line).strip()
        if RUNS.match(line):
            cmds.append((line, None))
    return cmds


def expected_matches(expected, actual):
    """Whether `actual` lines match `expected` lines (`...` lines, `[...]` inside lines)."""
    def line_ok(e, a):
        parts = [re.escape(p) for p in e.split("[...]")]
        return re.fullmatch(".*".join(parts), a) is not None

    def match(ei, ai):
        if ei == len(expected):
            return ai == len(actual)
        if expected[ei].strip() == "...":
            return any(match(ei + 1, k) for k in range(ai, len(actual) + 1))
        return ai < len(actual) and line_ok(expected[ei], actual[ai]) and match(ei + 1, ai + 1)

    return match(0, 0)


def workspace():
    d = tempfile.mkdtemp(prefix="onnxlint-docs-")
    shutil.copytree(os.path.join(SRC, "examples"), os.path.join(d, "examples"))
    if os.path.isdir(os.path.join(SRC, "tools", "examples")):
        shutil.copytree(os.path.join(SRC, "tools", "examples"),
                        os.path.join(d, "tools", "examples"))
    shutil.copy(os.path.join(SRC, "examples", "torch_mlp_static_op13.onnx"),
                os.path.join(d, "model.onnx"))
    os.makedirs(os.path.join(d, "models"))
    for name, to in (("torch_mlp_static_op13.onnx", "a.onnx"),
                     ("torch_bool_mask_index_op13.onnx", "b.onnx")):
        shutil.copy(os.path.join(SRC, "examples", name), os.path.join(d, "models", to))
    shutil.copytree(os.path.join(d, "models"), os.path.join(d, "exports"))
    return d


class DocsExamples(unittest.TestCase):
    def test_every_example(self):
        env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(BIN)) + os.pathsep
                   + os.environ.get("PATH", ""), NO_COLOR="1", COLUMNS="100")
        ran = 0
        for page in pages():
            rel = os.path.relpath(page, SRC)
            for line, lang, marker, body in blocks(page):
                if lang not in LANGS or marker == "illustrative":
                    continue
                exit_code = None
                if marker.startswith("exit="):
                    exit_code = int(marker[5:])
                elif marker:
                    self.fail(f"{rel}:{line}: unknown docs-test marker '{marker}'")
                cmds = commands(body)
                if not cmds:
                    piped = [x for x in body if PIPED.search(x)]
                    self.assertEqual(piped, [], f"{rel}:{line}: a command this test cannot run: "
                                     "make it runnable or mark it illustrative")
                    continue
                d = workspace()
                try:
                    last_rc = 0
                    for k, (cmd, shown) in enumerate(cmds):
                        where = f"{rel}:{line}: `{cmd}`"
                        with self.subTest(example=where):
                            if cmd.strip() == "echo $?":
                                self.assertEqual([str(last_rc)], [x for x in shown if x], where)
                                continue
                            proc = subprocess.run(["bash", "-c", cmd], cwd=d, env=env,
                                                  capture_output=True, text=True, timeout=300)
                            ran += 1
                            last_rc = proc.returncode
                            shown_rc = k + 1 < len(cmds) and cmds[k + 1][0].strip() == "echo $?"
                            got = (proc.stdout + proc.stderr).rstrip("\n").split("\n")
                            got = [g.rstrip() for g in got] if got != [""] else []
                            if exit_code is not None:
                                self.assertEqual(proc.returncode, exit_code,
                                                 where + "\n" + proc.stderr)
                            elif not shown_rc:
                                self.assertIn(proc.returncode, (0, 1),
                                              f"{where} exited {proc.returncode}:\n"
                                              + proc.stderr)
                            if shown is not None:
                                want = [x.rstrip() for x in shown]
                                while want and not want[-1]:
                                    want.pop()
                                self.assertTrue(
                                    expected_matches(want, got),
                                    f"{where} printed:\n" + "\n".join(got)
                                    + "\n--- the docs show:\n" + "\n".join(want))
                finally:
                    shutil.rmtree(d, ignore_errors=True)
        self.assertGreater(ran, 10)

    def test_matching(self):
        self.assertTrue(expected_matches(["a", "...", "d"], ["a", "b", "c", "d"]))
        self.assertTrue(expected_matches(["a [...] c"], ["a bb c"]))
        self.assertFalse(expected_matches(["a"], ["a", "b"]))


if __name__ == "__main__":
    unittest.main()
