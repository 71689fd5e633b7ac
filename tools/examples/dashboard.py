#!/usr/bin/env python3
"""A models x rules table from an onnx-lint JSON report (docs/dashboard.md).

    onnx-lint --format json -o report.json models/
    python3 tools/examples/dashboard.py report.json          # or: ... | dashboard.py -

Python standard library only. Uses the report's files[].path, files[].status,
files[].diagnostics[].rule and files[].counts (docs/json-report.md).
"""
import json
import sys
from collections import Counter


def table(report):
    rows, rules = [], Counter()
    for f in report["files"]:
        found = Counter(d["rule"] for d in f["diagnostics"])
        rules.update(found)
        c = f.get("counts", {})
        verdict = f["status"] if f["status"] != "ok" else (
            "errors" if c.get("error") else "warnings" if c.get("warning") else "ok")
        rows.append((f["path"], found, verdict))
    columns = sorted(rules)
    # Rule ids are long: number the columns and list them below the table.
    head = ["model"] + [str(i + 1) for i in range(len(columns))] + ["verdict"]
    body = [[path] + [str(found[r]) if found[r] else "." for r in columns] + [verdict]
            for path, found, verdict in rows]
    body.append(["total"] + [str(rules[r]) for r in columns] + [""])
    widths = [max(len(line[i]) for line in [head] + body) for i in range(len(head))]
    out = []
    for line in [head] + body:
        cells = [line[0].ljust(widths[0])] + [v.rjust(w) for v, w in zip(line[1:-1], widths[1:-1])]
        out.append("  ".join(cells + [line[-1]]).rstrip())
    out.append("")
    out += [f"{i + 1:>2}  {r}" for i, r in enumerate(columns)]
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: dashboard.py REPORT.json (or - for stdin)")
    with (sys.stdin if argv[1] == "-" else open(argv[1], encoding="utf-8")) as f:
        print(table(json.load(f)))


if __name__ == "__main__":
    main(sys.argv)
