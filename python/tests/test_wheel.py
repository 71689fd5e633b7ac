"""The installed wheel (tools/wheel.sh; docs/python.md, "Installing the wheel"): what it holds,
that its native module carries protobuf and ONNX's messages inside with no symbol showing, and
that it shares a process with Debian's onnx and torch (their libprotobuf.so loaded, before and
after it, even with RTLD_GLOBAL) and lints an `onnx.load`ed model there.

Run by tools/wheel.sh in a fresh venv that has only the wheel installed (plus, through
--system-site-packages, Debian's python3-onnx and python3-torch): ONNXLINT_WHEEL_VENV names it.
ONNXLINT_REFERENCE_CLI, when set, is an `onnx-lint` of the ordinary build whose JSON reports
the wheel's must equal.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

VENV = os.environ.get("ONNXLINT_WHEEL_VENV")
if not VENV:
    pytest.skip("runs against an installed wheel (tools/wheel.sh)", allow_module_level=True)
VENV = Path(VENV)

import onnxlint  # noqa: E402  (after the skip: the wheel's package, not the build tree's)
from onnxlint import _onnxlint  # noqa: E402

from conftest import SOURCE_DIR, error_model  # noqa: E402

MODULE = Path(_onnxlint.__file__)
CORPUS = SOURCE_DIR / "tests" / "data" / "corpus"


def dynamic_symbols(*options):
    """readelf --dyn-syms of the module: (bind, ndx, name) of every entry but the null one."""
    out = subprocess.run(["readelf", "--dyn-syms", "--wide", *options, str(MODULE)],
                         check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].rstrip(":").isdigit():
            rows.append((f[4], f[6], f[7]))
    return rows


# --- what is installed ------------------------------------------------------------------------

def test_the_package_is_the_installed_wheel():
    site = Path(sysconfig.get_paths()["platlib"])
    assert Path(sys.prefix) == VENV
    assert Path(onnxlint.__file__).parent == site / "onnxlint"
    assert MODULE.parent == site / "onnxlint"
    assert MODULE.name == "_onnxlint" + sysconfig.get_config_var("EXT_SUFFIX")
    # No other onnxlint package (the repository's python/, a build tree's) is on the path.
    assert [p for p in sys.path if (Path(p or ".") / "onnxlint").is_dir()] == [str(site)]


def test_the_wheel_holds_the_package_and_the_console_script():
    wheels = sorted((VENV.parent / "dist").glob("onnxlint-*.whl"))
    assert len(wheels) == 1, wheels
    names = zipfile.ZipFile(wheels[0]).namelist()
    package = sorted(n for n in names if n.startswith("onnxlint/"))
    native = [n for n in package if n.startswith("onnxlint/_onnxlint.") and n.endswith(".so")]
    assert len(native) == 1
    assert sorted(set(package) - set(native)) == [
        f"onnxlint/{n}" for n in ("__init__.py", "__main__.py", "_onnxlint.pyi", "py.typed",
                                  "testing.py", "torch.py")]
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    entry_points = zipfile.ZipFile(wheels[0]).read(info).decode()
    assert "onnx-lint = onnxlint.__main__:run" in entry_points
    assert wheels[0].name.startswith(f"onnxlint-{onnxlint.__version__}-")


def test_the_console_script_is_the_command_line(tmp_path):
    script = VENV / "bin" / "onnx-lint"
    version = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and onnxlint.__version__ in version.stdout
    model = tmp_path / "m.onnx"
    model.write_bytes(error_model().SerializeToString())
    lint = subprocess.run([script, "--format", "json", model], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    assert lint.returncode == 1
    assert [d["rule"] for f in json.loads(lint.stdout)["files"] for d in f["diagnostics"]] == \
        ["graph-undefined-value"]


# --- protobuf and ONNX inside, hidden ---------------------------------------------------------

def test_the_module_needs_no_protobuf_onnx_or_other_project_library():
    dynamic = subprocess.run(["readelf", "--dynamic", "--wide", str(MODULE)], check=True,
                             capture_output=True, text=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", dynamic)
    # glibc and the C++ runtime only: every library of the build is linked in.
    runtime = {"libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2", "libstdc++.so.6",
               "libgcc_s.so.1"}
    assert needed and set(needed) <= runtime, needed
    assert "RPATH" not in dynamic and "RUNPATH" not in dynamic  # nothing of the build tree
    ldd = subprocess.run(["ldd", str(MODULE)], check=True, capture_output=True,
                         text=True).stdout
    for library in ("libprotobuf", "libonnx", "libfmt", "libtomlplusplus", "libcrypto"):
        assert library not in ldd, ldd


def test_the_module_exports_only_its_init_function():
    defined = [(bind, name) for bind, ndx, name in dynamic_symbols() if ndx != "UND"]
    assert defined == [("GLOBAL", "PyInit__onnxlint")]


def test_no_dynamic_symbol_is_protobuf_or_onnx():
    """Neither defined nor undefined: an undefined one would bind to whichever libprotobuf the
    process loaded first, a defined one could take the place of another module's."""
    demangled = [name for _, _, name in dynamic_symbols("--demangle")]
    nm = subprocess.run(["nm", "-D", "--demangle", str(MODULE)], check=True,
                        capture_output=True, text=True).stdout
    for text in ["\n".join(demangled), nm]:
        assert "google::protobuf" not in text and "protobuf" not in text.lower()
        assert not re.search(r"\bonnx::", text)
    # The messages are inside all the same (as local symbols): the check above is not vacuous.
    local = subprocess.run(["nm", "--demangle", str(MODULE)], capture_output=True, text=True)
    if "no symbols" not in local.stderr:
        assert "onnx::ModelProto" in local.stdout and "google::protobuf::" in local.stdout


# --- one process with onnx and torch ----------------------------------------------------------

# Run in a fresh interpreter of the venv: {first} and {then} import onnx/torch and onnxlint in
# some order; the model is linted as a path, as bytes and as the ModelProto onnx.load returns.
SCRIPT = textwrap.dedent("""
    import io, json, os, sys
    {rtld}
    {first}
    {then}
    import onnx, torch, onnxlint

    def rules(report):
        return sorted({{d.rule for d in report.diagnostics}})

    path = sys.argv[1]
    model = onnx.load(path)
    onnx.checker.check_model(model)
    by_path = onnxlint.lint(path, config=False)
    by_bytes = onnxlint.lint(open(path, "rb").read(), config=False)
    by_proto = onnxlint.lint(model, config=False)
    assert rules(by_path) == rules(by_bytes) == rules(by_proto), (by_path, by_bytes, by_proto)

    # onnx and torch still work after onnxlint ran: a fresh export, checked, inferred and linted.
    buffer = io.BytesIO()
    torch.onnx.export(torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).eval(),
                      (torch.randn(2, 4),), buffer, opset_version=13,
                      input_names=["x"], dynamic_axes={{"x": {{0: "batch"}}}})
    exported = onnx.load_from_string(buffer.getvalue())
    onnx.checker.check_model(exported)
    inferred = onnx.shape_inference.infer_shapes(exported)
    fixed = onnxlint.fix(exported, dims={{"batch": 1}})
    maps = open("/proc/self/maps").read()
    print(json.dumps({{
        "path": rules(by_path),
        "export": rules(onnxlint.lint(inferred, config=False)),
        "fixed_batch": fixed.model.graph.input[0].type.tensor_type.shape.dim[0].dim_value,
        "system_protobuf": "libprotobuf.so" in maps,
        "onnxlint": onnxlint.__file__,
    }}))
""")

ORDERS = {
    "onnx_torch_first": ("import onnx, torch", "import onnxlint"),
    "onnxlint_first": ("import onnxlint", "import onnx, torch"),
    "torch_onnxlint_onnx": ("import torch", "import onnxlint, onnx"),
}


@pytest.mark.parametrize("rtld_global", [False, True], ids=["default", "rtld_global"])
@pytest.mark.parametrize("order", sorted(ORDERS))
def test_shares_a_process_with_onnx_and_torch(tmp_path, order, rtld_global):
    first, then = ORDERS[order]
    # RTLD_GLOBAL: every later library's symbols (libprotobuf.so's among them) are visible to
    # every module loaded after it, the way clashes between protobuf copies happen.
    rtld = ("sys.setdlopenflags(os.RTLD_GLOBAL | os.RTLD_NOW)" if rtld_global else "")
    model = CORPUS / "torch_bool_mask_index_op13.onnx"
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(rtld=rtld, first=first, then=then),
                           str(model)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.splitlines()[-1])
    assert got["path"] == ["shape-data-dependent"], got  # NonZero on a boolean mask
    assert got["export"] == ["shape-dynamic-input", "shape-dynamic-output"], got  # the batch
    assert got["fixed_batch"] == 1
    assert got["system_protobuf"], "Debian's onnx did not load libprotobuf.so: nothing was tested"
    assert Path(got["onnxlint"]).parent == MODULE.parent


# --- the same reports as the ordinary build ---------------------------------------------------

REFERENCE = os.environ.get("ONNXLINT_REFERENCE_CLI")


@pytest.mark.skipif(not REFERENCE, reason="ONNXLINT_REFERENCE_CLI not set")
@pytest.mark.parametrize("folder", ["tests/data/corpus", "tests/data/fixes", "examples"])
def test_same_json_as_the_ordinary_build(folder):
    """The wheel's lite protobuf, its onnx-ml messages and header-only fmt and toml++ change
    nothing: every model of the repository gets the same JSON report as from the ordinary build
    (Debian's shared libprotobuf and libonnx_proto)."""
    args = ["--format", "json", folder]
    for target in onnxlint.targets():
        args += ["--target", target.id]
    reference = subprocess.run([str(Path(REFERENCE).resolve()), *args], capture_output=True,
                               text=True, cwd=SOURCE_DIR, timeout=600)
    wheel = subprocess.run([str(VENV / "bin" / "onnx-lint"), *args], capture_output=True,
                           text=True, cwd=SOURCE_DIR, timeout=600)
    assert reference.stdout.strip(), reference.stderr
    assert (wheel.returncode, wheel.stdout) == (reference.returncode, reference.stdout)
