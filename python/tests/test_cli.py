"""`python3 -m onnxlint` is the onnx-lint command line: same output, same exit codes."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import dynamic_model, run_cli


def run_module(*args, stdin=None, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "onnxlint", *map(str, args)], input=stdin,
                          capture_output=True, cwd=cwd, timeout=120)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.mark.parametrize("args", [
    ("--version",),
    ("--list-rules",),
    ("--list-targets",),
    ("--explain", "shape-data-dependent"),
    ("--explain", "no-such-rule"),
    ("{clean}",),
    ("{error}",),
    ("--format", "json", "--target", "tensorrt", "{dynamic}"),
    ("--format", "sarif", "{error}", "{warning}"),
    ("--fail-on", "warning", "{warning}"),
    ("--select", "graph-no-such-rule", "{clean}"),
    ("--format", "yaml", "{clean}"),
    ("{missing}",),
    (),
])
def test_same_output_and_exit_code_as_onnx_lint(model_files, workdir, args):
    paths = {name: str(path) for name, path in model_files.items()}
    paths["missing"] = str(workdir / "missing.onnx")
    argv = [a.format(**paths) for a in args]
    expected = run_cli(*argv, cwd=workdir)
    got = run_module(*argv, cwd=workdir)
    assert got == expected


def test_exit_codes(model_files, workdir):
    assert run_module(model_files["clean"], cwd=workdir)[0] == 0
    assert run_module(model_files["error"], cwd=workdir)[0] == 1
    assert run_module("--select", "nope", model_files["clean"], cwd=workdir)[0] == 2


def test_stdin(workdir):
    data = dynamic_model().SerializeToString()
    expected = run_cli("--format", "json", "-", stdin=data, cwd=workdir)
    assert run_module("--format", "json", "-", stdin=data, cwd=workdir) == expected
    assert expected[0] == 0 and '"path": "-"' in expected[1]


def test_main_function_returns_the_exit_code(model_files, capfd):
    from onnxlint.__main__ import main
    assert main(["--quiet", str(model_files["error"])]) == 1
    out = capfd.readouterr().out
    assert out == run_cli("--quiet", model_files["error"])[1]
