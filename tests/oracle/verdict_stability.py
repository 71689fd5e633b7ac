#!/usr/bin/env python3
"""Verdict stability: a model lints the same before and after ONNX's shape inference.

`onnx.shape_inference.infer_shapes` (Debian python3-onnx) adds value_info for the intermediate
values and fills in graph output types. The model computes the same thing, so onnx-lint must
give the same findings and the same target verdicts: element types are inferred, and a
declaration only adds what inference cannot know. For every model given (files or folders,
searched for *.onnx) the original and the inferred copy are linted with every rule and every
target; the findings (rule, severity, location, message, target) and each target's verdict and
node counts must be equal. Rules about the declarations themselves are left aside (DECLARATION
_RULES: a declared output shape is what shape-dynamic-output reports, and a stale declaration
is what graph-stale-value-info reports). Models ONNX cannot infer are skipped and counted.
Exit status 1 on any difference.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import onnx
from onnx import shape_inference

from shape_oracle import model_files  # the same model walk (this folder is on sys.path)

# Rules that report what the model declares (their findings may change when declarations are
# added): graph output shapes, stale declarations.
DECLARATION_RULES = {"graph-stale-value-info", "shape-dynamic-output"}

# Known differences, each to be removed with its cause (listed so that any other difference
# fails). None left: target-restriction's shape checks read the analysis's dims (KnownShape in
# rules/target/restriction.cc), and element types are inferred.
KNOWN_DIFFERENCES = set()
KNOWN_TARGETS = {target for _, target in KNOWN_DIFFERENCES}


def targets(tool):
    res = subprocess.run([tool, "--list-targets", "--format", "json"], capture_output=True,
                         text=True, check=True)
    doc = json.loads(res.stdout)
    items = doc["targets"] if isinstance(doc, dict) else doc
    return [t["id"] for t in items]


def lint(tool, path, target_ids):
    cmd = [tool, "--format", "json", "--select", "ALL", "--fail-on", "never"]
    for t in target_ids:
        cmd += ["--target", t]
    res = subprocess.run(cmd + [path], capture_output=True, text=True)
    if res.returncode not in (0, 1):
        raise RuntimeError(f"onnx-lint exit {res.returncode}: {res.stderr[:300]}")
    f = json.loads(res.stdout)["files"][0]
    findings = set()
    for d in f.get("diagnostics", []):
        if d["rule"] in DECLARATION_RULES or (d["rule"], d.get("target")) in KNOWN_DIFFERENCES:
            continue
        loc = d.get("location", {})
        node = loc.get("node") or {}
        findings.add((d["rule"], d.get("severity"), loc.get("graph"), node.get("name"),
                      node.get("index"), loc.get("value"), d.get("target"), d["message"]))
    verdicts = set()
    for t in (f.get("sections") or {}).get("targets") or []:
        if t["target"] in KNOWN_TARGETS:
            continue
        verdicts.add((t["target"], t["verdict"], t["supported_nodes"], t["unsupported_nodes"],
                      t.get("unsupported_type_nodes"), t.get("restriction_nodes")))
    return findings, verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="path of onnx-lint")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    target_ids = targets(args.tool)
    stats = dict(models=0, skipped=0, findings=0, verdicts=0, differ=0)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(set(model_files(args.paths))):
            try:
                model = onnx.load(path, load_external_data=False)
                inferred = shape_inference.infer_shapes(model)
            except Exception as e:  # noqa: BLE001 - ONNX cannot infer this model
                stats["skipped"] += 1
                print(f"skipped {path}: {type(e).__name__}: {str(e)[:100]}")
                continue
            # Next to copies of the model's folder files, so that external data resolves.
            work = os.path.join(tmp, str(stats["models"]))
            os.makedirs(work)
            folder = os.path.dirname(path)
            for f in os.listdir(folder):
                src = os.path.join(folder, f)
                if os.path.isfile(src) and not f.endswith(".onnx"):
                    shutil.copy(src, os.path.join(work, f))
            out = os.path.join(work, os.path.basename(path))
            onnx.save(inferred, out)
            stats["models"] += 1
            before_f, before_v = lint(args.tool, path, target_ids)
            after_f, after_v = lint(args.tool, out, target_ids)
            # Locations name the file: compare without it (it is not in the tuples).
            stats["findings"] += len(before_f)
            stats["verdicts"] += len(before_v)
            if before_f != after_f or before_v != after_v:
                stats["differ"] += 1
                lines = [f"{path}:"]
                for x in sorted(before_f - after_f, key=str):
                    lines.append(f"  only as exported: {x}")
                for x in sorted(after_f - before_f, key=str):
                    lines.append(f"  only after infer_shapes: {x}")
                for x in sorted(before_v - after_v, key=str):
                    lines.append(f"  verdict as exported: {x}")
                for x in sorted(after_v - before_v, key=str):
                    lines.append(f"  verdict after infer_shapes: {x}")
                failures.append("\n".join(lines))
    for f in failures:
        print(f)
    print("summary: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    ok = stats["differ"] == 0
    print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
