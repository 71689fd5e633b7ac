"""Helpers for test suites (pytest or unittest): fail a test when an exported model has problems.

Example::

    from onnxlint.testing import assert_clean

    def test_export(tmp_path):
        torch.onnx.export(model, args, tmp_path / "m.onnx")
        assert_clean(tmp_path / "m.onnx", targets=["onnxruntime-cpu"],
                     allow=["shape-dynamic-input"])
"""

from __future__ import annotations

import os
from typing import Optional, Union

from . import Names, ModelSource, Report, lint

__all__ = ["assert_clean"]


def _names(value: Names) -> list:
    return [value] if isinstance(value, str) else list(value)


def assert_clean(
    model: ModelSource,
    *,
    targets: Names = (),
    allow: Names = (),
    select: Names = (),
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    fail_on: Optional[str] = None,
    base_dir: Union[None, str, "os.PathLike[str]"] = None,
) -> Report:
    """Lint ``model`` and raise ``AssertionError`` unless the report is ok; return the report.

    allow: rule ids, categories or globs whose findings are accepted (they are ignored, as
        ``--ignore``); a ``model-unreadable`` model always fails.
    fail_on: the lowest severity that fails (default: the config's ``fail-on``, else
        ``"error"``); pass ``"warning"`` for a stricter check.
    The other arguments are those of ``onnxlint.lint``. The assertion message is the text
    report (``onnx-lint``'s output for the model).
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    report = lint(
        model,
        targets=targets,
        select=select,
        ignore=_names(allow),
        config=config,
        fail_on=fail_on,
        base_dir=base_dir,
    )
    if not report.ok:
        raise AssertionError(
            f"onnx-lint found problems at or above '{report.fail_on}':\n{report.to_text()}"
        )
    return report
