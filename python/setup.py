"""Builds the onnxlint wheel with the project's CMake build (docs/python.md, "Installing the wheel").

Run by ``python3 -m build --no-isolation --wheel`` in this folder (pyproject.toml). The native
module ``onnxlint._onnxlint`` is built in two CMake stages under the work folder
(``$ONNXLINT_WHEEL_BUILD_DIR``, default ``<repository>/build-wheel``):

1. ``python/wheel/``: protobuf's lite runtime from a protobuf source tree
   (``$ONNXLINT_PROTOBUF_SOURCE``, default ``<work>/protobuf-src``: Debian's, fetched by
   ``tools/wheel.sh fetch``) and ONNX's messages, static, position-independent, hidden;
2. the repository's CMake project, pointed at them (and at header-only fmt and toml++, and the
   static libcrypto), building only the module target ``_onnxlint``.

The module therefore needs no libprotobuf.so, libonnx_proto.so, libfmt.so, libtomlplusplus.so
or libcrypto.so, and exports no symbol but ``PyInit__onnxlint``: it shares a process with any
onnx, protobuf or torch build. ccache is used when installed (``ONNXLINT_WHEEL_CCACHE=0``: not).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VERSION = re.search(r"project\(onnxlint\s+VERSION\s+([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)
WORK = Path(os.environ.get("ONNXLINT_WHEEL_BUILD_DIR") or ROOT / "build-wheel").resolve()
PROTOBUF_SOURCE = Path(os.environ.get("ONNXLINT_PROTOBUF_SOURCE") or WORK / "protobuf-src")


def run(*cmd: str) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


class CMakeBuild(build_ext):
    """build_ext for one Extension whose shared object CMake builds."""

    def build_extension(self, ext: Extension) -> None:
        if not (PROTOBUF_SOURCE / "src" / "google" / "protobuf").is_dir():
            sys.exit(f"no protobuf source tree at {PROTOBUF_SOURCE}: run `tools/wheel.sh fetch` "
                     "(Debian's: apt-get source protobuf) or set ONNXLINT_PROTOBUF_SOURCE")
        cmake = shutil.which("cmake") or sys.exit("cmake not found (Debian package cmake)")
        common = ["-DCMAKE_BUILD_TYPE=Release"]
        if shutil.which("ninja"):
            common += ["-G", "Ninja"]
        if shutil.which("ccache") and os.environ.get("ONNXLINT_WHEEL_CCACHE", "1") != "0":
            common += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)

        deps_build, deps = WORK / "deps-build", WORK / "deps"
        run(cmake, "-S", str(HERE / "wheel"), "-B", str(deps_build), *common,
            f"-DPROTOBUF_SOURCE_DIR={PROTOBUF_SOURCE}", f"-DCMAKE_INSTALL_PREFIX={deps}")
        run(cmake, "--build", str(deps_build), "-j", jobs)
        run(cmake, "--install", str(deps_build))

        build = WORK / "cmake"
        lite = str(deps / "lib" / "libprotobuf-lite.a")
        run(cmake, "-S", str(ROOT), "-B", str(build), *common,
            f"-DPython3_EXECUTABLE={sys.executable}",
            "-DONNXLINT_BUILD_TOOLS=ON", "-DONNXLINT_PYTHON=ON", "-DONNXLINT_BUILD_TESTS=OFF",
            "-DONNXLINT_BUILD_BENCHMARKS=OFF", "-DONNXLINT_INSTALL=OFF",
            "-DONNXLINT_USE_MIMALLOC=OFF",
            # The libraries of stage 1 under the names lib/ links (see python/wheel/).
            f"-DProtobuf_INCLUDE_DIR={deps / 'include'}", f"-DProtobuf_LIBRARY={lite}",
            f"-DProtobuf_LITE_LIBRARY={lite}",
            f"-DONNX_DIR={deps / 'lib' / 'cmake' / 'ONNX'}",
            f"-Dfmt_DIR={deps / 'lib' / 'cmake' / 'fmt'}",
            f"-Dtomlplusplus_DIR={deps / 'lib' / 'cmake' / 'tomlplusplus'}",
            "-DOPENSSL_USE_STATIC_LIBS=TRUE")
        run(cmake, "--build", str(build), "--target", "_onnxlint", "-j", jobs)

        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build / "python" / "onnxlint" / f"_onnxlint{suffix}"
        if not built.is_file():
            sys.exit(f"CMake did not build {built}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


WORK.mkdir(parents=True, exist_ok=True)
setup(
    version=VERSION,
    long_description=readme(),
    long_description_content_type="text/markdown",
    ext_modules=[Extension("onnxlint._onnxlint", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own scratch folders go to the work folder, not into the source tree.
    options={"build": {"build_base": str(WORK / "setuptools")},
             "egg_info": {"egg_base": str(WORK)}},
)
