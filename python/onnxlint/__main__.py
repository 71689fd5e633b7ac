"""``python3 -m onnxlint ARGS``: the ``onnx-lint`` command line, with its options and exit codes."""

from __future__ import annotations

import sys
from typing import List, Optional

from ._onnxlint import _install_crash_handler, _run_cli


def main(argv: Optional[List[str]] = None) -> int:
    """Run ``onnx-lint`` with ``argv`` (default: ``sys.argv[1:]``); return its exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    return _run_cli(["onnx-lint", *args])


def run() -> int:
    """The ``onnx-lint`` command of the wheel (its console script) and of ``python3 -m onnxlint``.

    A process of its own: a crash outside isolation exits 3 with what was running, as the
    onnx-lint command does (docs/cli.md), instead of dying by the signal.
    """
    _install_crash_handler()
    return main()


if __name__ == "__main__":
    sys.exit(run())
