#!/usr/bin/env python3
"""Extract a versioned TensorRT target table from onnx-tensorrt's docs/operators.md.

Usage: extract_tensorrt_ops.py OPERATORS_MD VERSION COMMIT BRANCH > rules/tables/targets/tensorrt@VERSION.json

OPERATORS_MD is docs/operators.md of onnx/onnx-tensorrt at the release branch of that TensorRT
version, e.g. from a clone of the repository:

    git show 8.6-GA:docs/operators.md > /tmp/trt-8.6.md
    tools/extract_tensorrt_ops.py /tmp/trt-8.6.md 8.6 $(git rev-parse 8.6-GA) 8.6-GA

The output has the schema of rules/tables/targets/README.md, with the conventions of the newest
table (tensorrt.json): `model_opset` version semantics, every supported op given the parser's
global opset range (the document has no per-op opset data), rows marked N listed as
`unsupported`, the Supported Types column mapped to ONNX type strings, and the Restrictions
column kept as the op's note with its Markdown removed. The opset range is read from the
document's own sentence ("supports operators up to Opset 17", "in the inclusive range of opset 9
to opset 20"); a bound the document does not state is left out. Standard library only; the
output is deterministic (keys sorted).
"""

from __future__ import annotations

import json
import re
import sys

# The Supported Types column's spellings. FP8 is TensorRT's E4M3 format and FP4 its E2M1 format
# (as in tensorrt.json's global notes).
TYPE_NAMES = {
    "FP32": "tensor(float)",
    "FLOAT32": "tensor(float)",
    "FP16": "tensor(float16)",
    "FLOAT16": "tensor(float16)",
    "BF16": "tensor(bfloat16)",
    "DOUBLE": "tensor(double)",
    "INT64": "tensor(int64)",
    "INT32": "tensor(int32)",
    "INT8": "tensor(int8)",
    "UINT8": "tensor(uint8)",
    "INT4": "tensor(int4)",
    "BOOL": "tensor(bool)",
    "FP8": "tensor(float8e4m3fn)",
    "FP4": "tensor(float4e2m1)",
}
# Typos in some revisions of the document, read as what they obviously mean.
TYPE_TYPOS = {"INF64": ["INT64"], "INT64BOOL": ["INT64", "BOOL"]}

ROW = re.compile(r"^\|\s*([A-Za-z][A-Za-z0-9_]*)\s*\|\s*([^|]*?)\s*(?:\|(.*))?$")
UP_TO = re.compile(r"supports operators up to Opset (\d+)", re.IGNORECASE)
RANGE = re.compile(r"inclusive range of opset (\d+) to opset (\d+)", re.IGNORECASE)


class ExtractError(Exception):
    pass


def clean_note(text: str) -> str:
    """The Restrictions cell as plain text: no backticks, escapes or HTML line breaks."""
    text = re.sub(r"<br\s*/?>", "; ", text)
    text = text.replace("`", "").replace("\\.", ".").replace("\\_", "_")
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\.\s*;", ";", text)
    return text.rstrip(" .;")


def parse_types(cell: str, op: str) -> list[str]:
    out: list[str] = []
    for raw in cell.split(","):
        token = raw.strip().upper().replace(" ", "")
        if not token:
            continue  # "INT64, , UINT8" in some revisions
        for name in TYPE_TYPOS.get(token, [token]):
            if name not in TYPE_NAMES:
                raise ExtractError(f"{op}: unknown type {raw.strip()!r}")
            if TYPE_NAMES[name] not in out:
                out.append(TYPE_NAMES[name])
    return out


def extract(text: str, version: str, commit: str, branch: str) -> dict:
    lo = hi = None
    if m := RANGE.search(text):
        lo, hi = int(m.group(1)), int(m.group(2))
    elif m := UP_TO.search(text):
        hi = int(m.group(1))
    if hi is None:
        raise ExtractError("the document states no opset range")

    operators: dict[str, dict] = {}
    unsupported: list[str] = []
    in_matrix = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_matrix = line.strip() == "## Operator Support Matrix"
            continue
        if not in_matrix:
            continue
        m = ROW.match(line)
        if not m:
            continue
        op, supported, rest = m.group(1), m.group(2).strip(), m.group(3) or ""
        if op == "Operator":
            continue  # the header row
        cells = [c.strip() for c in rest.split("|")]
        key = f"::{op}"
        if key in operators or key in unsupported:
            raise ExtractError(f"{op}: listed twice")
        flag = supported.split()[0].upper() if supported else ""
        if flag == "N":
            unsupported.append(key)
            continue
        if flag != "Y":
            raise ExtractError(f"{op}: Supported is {supported!r}, neither Y nor N")
        entry: dict = {"versions": [[lo or 1, hi]]}
        types = parse_types(cells[0] if cells else "", op)
        if types:
            entry["types"] = types
        notes = [clean_note(cells[1])] if len(cells) > 1 and clean_note(cells[1]) else []
        if "EXPERIMENTAL" in supported.upper():
            notes.insert(0, "experimental")
        if notes:
            entry["notes"] = "; ".join(notes)
        operators[key] = entry
    if not operators:
        raise ExtractError("no operator rows found under '## Operator Support Matrix'")

    span = f"{lo}..{hi}" if lo else f"up to {hi}"
    global_notes = [
        f"the parser accepts ai.onnx opset {span} (the document's statement); per-op versions "
        "below are that range because the doc has no per-op opset data",
        "DOUBLE is cast down to FLOAT (clamped to +-FLT_MAX)",
        "ops outside ai.onnx need TensorRT plugins (not covered)",
    ]
    if lo is None:
        global_notes.insert(1, "the document states no lowest opset; ranges start at 1")
    table = {
        "schema_version": 1,
        "target": f"tensorrt@{version}",
        "runtime": "NVIDIA TensorRT ONNX parser (onnx-tensorrt)",
        "runtime_version": f"TensorRT {version}",
        "source": {
            "repo": "onnx/onnx-tensorrt",
            "path": "docs/operators.md",
            "commit_or_version": f"{commit} (branch {branch})",
            "extracted_by": "tools/extract_tensorrt_ops.py",
        },
        "max_opset": {"": hi},
        "versions_specified": True,
        "version_semantics": "model_opset",
        "global_notes": global_notes,
        "operators": dict(sorted(operators.items())),
        "unsupported": sorted(unsupported),
    }
    if lo is not None:
        table["min_opset"] = {"": lo}
    return table


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path, version, commit, branch = argv[1:]
    try:
        with open(path, encoding="utf-8") as f:
            table = extract(f.read(), version, commit, branch)
    except (OSError, ExtractError) as e:
        print(f"extract_tensorrt_ops.py: error: {e}", file=sys.stderr)
        return 1
    json.dump(table, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
