"""onnxlint: static checks for ONNX models, from Python.

The same C++ engine as the ``onnx-lint`` command, as an import::

    import onnxlint
    report = onnxlint.lint("model.onnx", targets=["tensorrt"])
    assert report.ok, report

``lint`` takes a path (file or folder), any bytes-like buffer (linted in place, without a copy)
or an ``onnx.ModelProto``. Settings layer over the project's ``onnx-lint.toml`` or
``[tool.onnx-lint]`` exactly as on the command line, and ``Report.to_json()`` /
``Report.to_sarif()`` are byte for byte what ``onnx-lint`` writes. See docs/python.md.

Submodules: ``onnxlint.torch`` (export from PyTorch and lint), ``onnxlint.testing``
(``assert_clean`` for pytest); ``python3 -m onnxlint`` is the ``onnx-lint`` command line.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Union

from ._onnxlint import (
    JSON_SCHEMA_VERSION,
    Diagnostic,
    FileReport,
    Linter,
    Location,
    ModelInfo,
    FoldedFinding,
    RelatedLocation,
    Report,
    Rule,
    RuleOption,
    Target,
    TimingEntry,
    __version__,
    explain,
    rules,
    table_versions,
    targets,
)

__all__ = [
    "FixResult",
    "fix",
    "JSON_SCHEMA_VERSION",
    "Diagnostic",
    "FileReport",
    "LintError",
    "Linter",
    "Location",
    "ModelInfo",
    "FoldedFinding",
    "RelatedLocation",
    "Report",
    "Rule",
    "RuleOption",
    "Target",
    "TimingEntry",
    "__version__",
    "explain",
    "lint",
    "rules",
    "table_versions",
    "targets",
]

#: What ``lint`` accepts as a model: a path, a bytes-like buffer or an ``onnx.ModelProto``.
ModelSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, Any]
#: Rule selectors or target ids: one string or several.
Names = Union[str, Iterable[str]]


class LintError(Exception):
    """A lint found problems at or above a threshold; ``report`` holds the findings.

    Raised by ``onnxlint.torch.export`` (``raise_on``). ``str(error)`` is the text report.
    """

    def __init__(self, report: Report, message: Optional[str] = None) -> None:
        self.report = report
        super().__init__(message if message is not None else report.to_text())


def lint(
    model: ModelSource,
    *,
    targets: Names = (),
    select: Names = (),
    ignore: Names = (),
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    fail_on: Optional[str] = None,
    base_dir: Union[None, str, "os.PathLike[str]"] = None,
    name: Union[None, str, "os.PathLike[str]"] = None,
    isolate: Optional[bool] = None,
    file_timeout: Optional[float] = None,
    require_targets: Names = (),
    timings: bool = False,
) -> Report:
    """Lint one model and return its ``Report``.

    model: a path (``str`` or ``os.PathLike``; a folder lints every ``*.onnx`` below it), a
        bytes-like object (``bytes``, ``bytearray``, ``memoryview``, any contiguous buffer:
        read in place, never copied, with the GIL released while linting) or an
        ``onnx.ModelProto`` (serialised once).
    targets: target runtime ids or aliases (``onnxlint.targets()``), as ``--target``.
    select, ignore: rule ids, categories (``"shape"``), globs (``"graph-*"``) or ``"ALL"``,
        as ``--select`` / ``--ignore``.
    config: a configuration file; ``None`` searches ``onnx-lint.toml`` / ``pyproject.toml``
        from the working folder upward, as the command does; ``False`` reads none.
    fail_on: ``"error"``, ``"warning"``, ``"info"`` or ``"never"``: the threshold of
        ``Report.ok`` / ``Report.exit_code`` (default: the config's ``fail-on``, else
        ``"error"``).
    base_dir: for an in-memory model, the folder its external data files are in (default:
        the working folder, as for ``onnx-lint -``).
    name: for an in-memory model, the path reports show (default ``"<in-memory model>"``;
        ``onnxlint.torch.export`` names it after the module).
    isolate: lint in a worker process (one per model of a folder), so that a crash while
        linting becomes that model's ``internal-error`` finding and the interpreter (a notebook,
        pytest) goes on. ``None`` (default): for a folder only; ``True`` also for one file or a
        buffer; ``False`` never.
    file_timeout: with isolation, the seconds one model's worker may take; past them it is
        killed and the model's report is an ``internal-error`` finding saying it timed out and
        in which rule (as ``--file-timeout``). ``None`` (default): 300; ``0``: no limit. It does
        not apply without isolation.
    require_targets: verdicts every model must reach on the targets, as ``--require-target``:
        ``"full"`` (every node runs on the target) or ``"partial"`` for every target, or
        ``"TARGET=LEVEL"``; a model below them makes ``Report.ok`` false (``exit_code`` 1).
    timings: measure where each model's lint spends its time, as ``--timings``: each
        ``FileReport.timings`` lists a ``TimingEntry`` (``kind``, ``name``, ``seconds``,
        ``calls``) per phase, analysis and rule, in self times.

    An unknown rule, target or bad setting raises ``ValueError`` naming it; a missing path
    raises ``FileNotFoundError``; a file that is not a readable model gives a report with a
    ``model-unreadable`` finding.
    """
    linter = Linter(targets=targets, select=select, ignore=ignore, config=config, fail_on=fail_on,
                    file_timeout=file_timeout, require_targets=require_targets,
                    timings=timings)
    return linter.lint(model, base_dir=base_dir, name=name, isolate=isolate)


class FixResult:
    """What ``onnxlint.fix`` returns: the fixed model and the report of it.

    ``data`` is the fixed model's serialised bytes; ``model`` parses them into an
    ``onnx.ModelProto`` (imports ``onnx``); ``report`` is the fixed model's ``Report``, whose
    ``files[0].fixing`` (and the JSON's ``fixing``) lists the fixes applied.
    """

    def __init__(self, data: bytes, report: Report) -> None:
        self.data = data
        self.report = report

    @property
    def model(self) -> Any:
        """The fixed model as an ``onnx.ModelProto``."""
        import onnx  # only when asked: onnxlint itself does not need it

        proto = onnx.ModelProto()
        proto.ParseFromString(self.data)
        return proto

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the fixed model to ``path``."""
        with open(path, "wb") as f:
            f.write(self.data)


def fix(
    model: ModelSource,
    *,
    unsafe: bool = False,
    dims: Optional[dict] = None,
    targets: Names = (),
    select: Names = (),
    ignore: Names = (),
    config: Union[None, bool, str, "os.PathLike[str]"] = None,
    base_dir: Union[None, str, "os.PathLike[str]"] = None,
    name: Union[None, str, "os.PathLike[str]"] = None,
) -> FixResult:
    """Fix one model in memory, as ``onnx-lint --fix`` does (docs/fixes.md); nothing is written.

    model: a path, a bytes-like buffer or an ``onnx.ModelProto``.
    unsafe: apply the unsafe fixes too (``--unsafe-fixes``): they change what the model
        computes on purpose (Dropout's training mode off, ...).
    dims: ``{"batch": 1, "height": 320}``: symbolic input dims made fixed first, then
        everything they make constant folded (``--fix-dims``).
    targets, select, ignore, config, base_dir, name: as for ``lint``.

    Returns a ``FixResult`` (``.model``, ``.data``, ``.report``). A fix that cannot be done
    (``dims`` naming a dim no input has, a model protobuf cannot parse) raises ``ValueError``.
    """
    linter = Linter(targets=targets, select=select, ignore=ignore, config=config)
    data, report = linter.fix(model, unsafe=unsafe, dims=dims, base_dir=base_dir, name=name)
    return FixResult(data, report)
