"""`cmake --install` puts an importable package under a prefix (the python component)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import error_model

BUILD = os.environ["ONNXLINT_BUILD_DIR"]
SITE = os.environ["ONNXLINT_PYTHON_INSTALL_DIR"]
CMAKE = os.environ.get("CMAKE_COMMAND", "cmake")


def test_install_into_a_prefix_and_import(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run([CMAKE, "--install", BUILD, "--component", "python", "--prefix", str(prefix)],
                   check=True, capture_output=True, timeout=120)
    package = prefix / SITE / "onnxlint"
    installed = sorted(p.name for p in package.iterdir())
    assert [n for n in installed if not n.startswith("_onnxlint.")] == \
        ["__init__.py", "__main__.py", "py.typed", "testing.py", "torch.py"]
    assert "_onnxlint.pyi" in installed
    assert any(n.startswith("_onnxlint.") and n.endswith(".so") for n in installed)
    model = tmp_path / "m.onnx"
    model.write_bytes(error_model().SerializeToString())
    code = ("import onnxlint, sys; r = onnxlint.lint(sys.argv[1], config=False); "
            "print(onnxlint.__file__); print([d.rule for d in r.diagnostics])")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(prefix / SITE)
    out = subprocess.run([sys.executable, "-c", code, str(model)], capture_output=True,
                         text=True, check=True, env=env, cwd=tmp_path, timeout=60).stdout
    assert out.splitlines() == [str(package / "__init__.py"), "['graph-undefined-value']"]
    assert Path(SITE).parts[:2] == ("lib", f"python{sys.version_info.major}."
                                           f"{sys.version_info.minor}")
