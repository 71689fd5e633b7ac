"""The typed surface: _onnxlint.pyi names exactly what the native module has, every public name
has a docstring, and the package's __all__ is what it exports."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import onnxlint
import onnxlint.testing
import onnxlint.torch
from onnxlint import _onnxlint

STUB = Path(_onnxlint.__file__).with_name("_onnxlint.pyi")


def stub_names():
    """{module-level name: set of member names (None for functions and constants)}."""
    tree = ast.parse(STUB.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body
                              if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = None
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = None
    return {k: v for k, v in out.items()
            if not k.startswith("_") or k in ("__version__", "_run_cli", "_install_crash_handler")}


def module_names():
    out = {}
    for name, value in vars(_onnxlint).items():
        if name.startswith("__") and name != "__version__":
            continue
        if inspect.isclass(value):
            out[name] = {m for m in vars(value) if not m.startswith("_") or m == "__init__"}
            if "__init__" in out[name] and name != "Linter":
                out[name].discard("__init__")  # pybind11 adds one that only raises
        else:
            out[name] = None
    return out


def test_stub_and_module_name_the_same_things():
    assert STUB.is_file()
    assert stub_names() == module_names()


def test_stub_parses_as_python():
    compile(STUB.read_text(), str(STUB), "exec")


def test_every_public_name_has_a_docstring():
    missing = []
    for module in (onnxlint, onnxlint.testing, onnxlint.torch, _onnxlint):
        if not (module.__doc__ or "").strip():
            missing.append(module.__name__)
    for name in onnxlint.__all__ + ["testing.assert_clean", "torch.export"]:
        obj = onnxlint
        for part in name.split("."):
            obj = getattr(obj, part)
        if isinstance(obj, (str, int)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if member.startswith("_"):
                    continue
                if not (getattr(value, "__doc__", "") or "").strip():
                    missing.append(f"{name}.{member}")
    assert missing == []


def test_all_lists_the_package_exports():
    native = {n for n in vars(_onnxlint) if not n.startswith("_")}
    assert set(onnxlint.__all__) == native | {"__version__", "lint", "LintError", "fix",
                                              "FixResult"}
    assert len(onnxlint.__all__) == len(set(onnxlint.__all__))
    for name in onnxlint.__all__:
        assert hasattr(onnxlint, name)


def test_py_typed_marker_ships():
    assert Path(onnxlint.__file__).with_name("py.typed").is_file()
