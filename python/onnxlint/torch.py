"""Export a PyTorch module to ONNX and lint the result in one call.

``torch`` is imported only when ``export`` runs, so ``import onnxlint`` works without it.

Example::

    import onnxlint.torch

    report = onnxlint.torch.export(model.eval(), (x,), "model.onnx",
                                   targets=["onnxruntime-cpu"], opset_version=17,
                                   dynamic_axes={"x": {0: "batch"}})
"""

from __future__ import annotations

import io
import os
from typing import Any, Optional, Union

from . import LintError, Names, Report, lint

__all__ = ["export"]

_THRESHOLDS = ("error", "warning", "info", "never")


def export(
    module: Any,
    args: Any,
    f: Union[None, str, "os.PathLike[str]", io.BytesIO] = None,
    *,
    targets: Names = (),
    raise_on: Optional[str] = "error",
    select: Names = (),
    ignore: Names = (),
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    **kwargs: Any,
) -> Report:
    """Run ``torch.onnx.export(module, args, f, **kwargs)``, lint the model, return the report.

    f: where the model goes: ``None`` exports into memory (linted in place, nothing written);
        a path writes the file and lints it (external data next to it is checked); a
        ``io.BytesIO`` receives the model and is linted in place.
    targets, select, ignore, config: as for ``onnxlint.lint``.
    raise_on: ``"error"``, ``"warning"`` or ``"info"``: raise ``onnxlint.LintError`` (its
        ``report`` attribute holds the findings) when a finding is at or above it, or the model
        is unreadable; ``"never"`` or ``None`` never raises.
    kwargs: passed to ``torch.onnx.export`` unchanged (``opset_version``, ``input_names``,
        ``dynamic_axes``, ...).
    """
    threshold = "never" if raise_on is None else raise_on
    if threshold not in _THRESHOLDS:
        raise ValueError(
            f"raise_on: expected one of {', '.join(_THRESHOLDS)} or None, got {raise_on!r}"
        )
    import torch  # noqa: F401  (lazily: the package works without torch)
    import torch.onnx

    options = dict(targets=targets, select=select, ignore=ignore, config=config, fail_on=threshold)
    if f is None or isinstance(f, io.BytesIO):
        buffer = io.BytesIO() if f is None else f
        start = buffer.tell()
        torch.onnx.export(module, args, buffer, **kwargs)
        with buffer.getbuffer() as whole, whole[start:] as model:
            report = lint(model, name=f"<{type(module).__name__} export>", **options)
    else:
        torch.onnx.export(module, args, os.fspath(f), **kwargs)
        report = lint(f, **options)
    if not report.ok:
        raise LintError(report)
    return report
