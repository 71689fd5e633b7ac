#!/usr/bin/env python3
"""onnx-lint's --target onnxruntime-cpu verdicts against ONNX Runtime's own session creation.

Every model given (files or folders, searched for *.onnx) is loaded in ONNX Runtime (npm
onnxruntime-node, CPU execution provider; one Node process for all of them) and linted with
`onnx-lint --target onnxruntime-cpu`. Then:

  false error     ORT loads the model, onnx-lint reports a target-* error for onnxruntime-cpu
  missed refusal  ORT refuses the model, onnx-lint has no target-* finding for onnxruntime-cpu,
                  and the refusal is not listed in --listed (refusals that depend on the
                  machine or on the Node binding, or models ORT calls invalid, which other rules
                  report; each entry names the models, ORT's message and the reason)

Loaded models below ai.onnx opset 7 also run once on random data (ORT has no opset floor).
Exit status 1 on any false error or missed refusal, a --listed entry that names no model, or an
old-opset model that loads but does not run.

  /usr/bin/python3 tools/ort/check_target_verdicts.py --ort-dir BUILD/tests/ort \\
      --tool BUILD/tools/onnx-lint --listed tests/ort/listed_refusals.json MODELS_OR_FOLDERS...
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import shutil
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

import ort_common

TARGET = "onnxruntime-cpu"

# ORT's refusal messages, by reason (the first that matches).
REASONS = [
    ("no kernel for the op, version or types",
     r"Could not find an implementation for|Failed to find kernel for"),
    ("operator not registered", r"is not a registered function/op"),
    ("kernel constructor rejects an attribute", r"Exception during initialization: .*layout_ == 0"),
    ("machine: locale missing", r"Failed to construct locale"),
    ("Node binding: element type", r"Unsupported data type"),
    ("invalid model", r"This is an invalid model"),
    ("opset not released (under development)", r"is under development"),
    ("IR version too new", r"Unsupported model IR version"),
]


def float16_variants(paths, out_dir):
    """float16 copies of the models under `paths` whose float tensors (graph inputs, outputs,
    value infos, initializers) can all be turned into float16: a model with Cast, CastLike,
    Constant, a subgraph (If, Loop, Scan, SequenceMap) or a non-ai.onnx node is left out (their
    float types live in attributes). Returns the paths written."""
    written = []
    for path in ort_common.model_files(paths):
        m = onnx.load(path, load_external_data=False)
        g = m.graph
        if any(n.op_type in ("Cast", "CastLike", "Constant") or n.domain not in ("", "ai.onnx")
               or any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
                      for a in n.attribute) for n in g.node):
            continue
        changed = False
        for vi in list(g.input) + list(g.output) + list(g.value_info):
            tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
            if tt is not None and tt.elem_type == onnx.TensorProto.FLOAT:
                tt.elem_type = onnx.TensorProto.FLOAT16
                changed = True
        for i, t in enumerate(g.initializer):
            if t.data_type == onnx.TensorProto.FLOAT:
                half = numpy_helper.to_array(t).astype(np.float16)
                g.initializer[i].CopyFrom(numpy_helper.from_array(half, t.name))
                changed = True
        if changed:
            name = os.path.basename(os.path.dirname(path)) + "-float16.onnx"
            onnx.save(m, os.path.join(out_dir, name))
            written.append(os.path.join(out_dir, name))
    return written


def boundary_models(out_dir):
    """Small models at the edges of what ORT accepts: Relu at ai.onnx opsets 1-27 (Relu-1 has no
    CPU kernel, 27 is not a released opset for ORT 1.30), IR versions 13 and 14, and the ops
    new in opset 26. Returns the paths written."""
    from onnx import TensorProto, helper

    def save(name, nodes, in_type, out_type, opset, ir, inits=()):
        g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", in_type, [3])],
                              [helper.make_tensor_value_info("y", out_type, [3])],
                              initializer=list(inits))
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = ir
        path = os.path.join(out_dir, name + ".onnx")
        onnx.save(m, path)
        return path

    f32 = TensorProto.FLOAT
    out = [save(f"boundary-relu-opset{v}", [helper.make_node("Relu", ["x"], ["y"])], f32, f32,
                v, 10) for v in (1, 5, 6, 7, 13, 21, 25, 26, 27)]
    out += [save(f"boundary-relu-ir{ir}", [helper.make_node("Relu", ["x"], ["y"])], f32, f32,
                 21, ir) for ir in (13, 14)]
    out.append(save("boundary-bitcast26", [helper.make_node("BitCast", ["x"], ["y"],
                                                            to=TensorProto.INT32)],
                    f32, TensorProto.INT32, 26, 13))
    out.append(save("boundary-cumprod26", [helper.make_node("CumProd", ["x", "axis"], ["y"])],
                    f32, f32, 26, 13, [helper.make_tensor("axis", TensorProto.INT64, [], [0])]))
    return out


def reason_of(message):
    for name, pattern in REASONS:
        if re.search(pattern, message):
            return name
    return "other: " + message[:120]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="the onnx-lint executable")
    ap.add_argument("--ort-dir", required=True, help="folder with node_modules/onnxruntime-node")
    ap.add_argument("--listed", required=True, help="JSON list of refusals explained elsewhere")
    ap.add_argument("--float16-variants", nargs="*", default=[], metavar="FOLDER",
                    help="also compare float16 copies of the models in these folders (ORT's "
                         "CPU EP runs float16 nodes on float kernels); a copy ORT finds "
                         "ill-typed is left out")
    ap.add_argument("--boundary-models", action="store_true",
                    help="also compare small generated models at the opset and IR edges")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    with open(args.listed) as f:
        listed = json.load(f)["listed"]
    variant_dir = tempfile.mkdtemp(prefix="onnxlint-ort-f16-")
    try:
        return compare(args, listed, variant_dir)
    finally:
        shutil.rmtree(variant_dir, ignore_errors=True)


def compare(args, listed, variant_dir):
    variants = set(float16_variants(args.float16_variants, variant_dir))
    boundary = boundary_models(variant_dir) if args.boundary_models else []
    models = ort_common.model_files(args.paths) + sorted(variants) + boundary
    # Models below ai.onnx opset 7 also run once (declared sizes; 2 for an unsized dim): the
    # evidence that ORT has no opset floor (rules/tables/targets/extra_facts.json).
    jobs = []
    for m in models:
        job = {"id": m, "model": m}
        proto = onnx.load(m, load_external_data=False)
        opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 99)
        if opset < 7:
            inits = {t.name for t in proto.graph.initializer}
            inputs = [i for i in proto.graph.input if i.name not in inits]
            job["runs"] = [{"feeds": ort_common.feeds(inputs, {})}]
        jobs.append(job)
    ort = ort_common.run_jobs(args.ort_dir, jobs)
    old = [m for m in models if "runs" in ort[m]]
    old_failed = [(m, ort[m]["runs"][0].get("error", "")) for m in old
                  if not ort[m]["runs"][0]["ok"]]
    lint = ort_common.lint_json(args.tool, models, "--target", TARGET)

    def matches(entry, path):
        return any(fnmatch.fnmatch(path, "*" + p) for p in entry["models"])

    stale = [e["reason"][:60] for e in listed if not any(matches(e, m) for m in models)]
    false_errors, missed, listed_hits = [], [], collections.Counter()
    ill_typed = 0
    refused_found = collections.Counter()
    loaded = 0
    for m in models:
        v = ort[m]
        diags = lint[m]["diagnostics"] if m in lint else []
        target = [d for d in diags if d["rule"].startswith("target-") and d.get("target") == TARGET]
        if v["loaded"]:
            loaded += 1
            errors = [d for d in target if d["severity"] == "error"]
            if errors:
                false_errors.append((m, errors[0]["rule"], errors[0]["message"]))
            continue
        reason = reason_of(v["error"])
        if m in variants and (reason == "invalid model" or "Type Error" in v["error"]):
            ill_typed += 1  # float16 where the op's schema wants float: our copy is invalid
            continue
        if target:
            refused_found[reason] += 1
            continue
        entry = next((e for e in listed if matches(e, m) and e["error"] in v["error"]), None)
        rules = {d["rule"] for d in diags if d["severity"] == "error"}
        if entry is not None and (not entry.get("reported_by") or entry["reported_by"] in rules):
            listed_hits[entry["reason"]] += 1
            continue
        missed.append((m, reason, v["error"][:200]))

    refused = len(models) - loaded
    print(f"{len(models)} models ({len(variants)} of them float16 copies, {len(boundary)} "
          f"boundary models): ORT loads {loaded}, refuses {refused}")
    if variants:
        print(f"  float16 copies ORT finds ill-typed (left out): {ill_typed}")
    print(f"  refused with a {TARGET} target finding: {sum(refused_found.values())}")
    for reason, n in sorted(refused_found.items()):
        print(f"    {n:4}  {reason}")
    print(f"  refused, listed in {args.listed}: {sum(listed_hits.values())}")
    for reason, n in sorted(listed_hits.items()):
        print(f"    {n:4}  {reason[:100]}...")
    print(f"loaded models below ai.onnx opset 7: {len(old)}, run by ORT: "
          f"{len(old) - len(old_failed)}")
    for m, err in old_failed:
        print(f"  RUN FAILED {m}: {err[:200]}")
    print(f"false target errors (ORT loads the model): {len(false_errors)}")
    for m, rule, msg in false_errors:
        print(f"  FALSE ERROR {m}: [{rule}] {msg[:200]}")
    print(f"missed refusals: {len(missed)}")
    for m, reason, msg in missed:
        print(f"  MISSED {m} ({reason}): {msg}")
    for s in stale:
        print(f"  STALE listed entry names no model: {s}")
    return 1 if false_errors or missed or stale or old_failed else 0


if __name__ == "__main__":
    sys.exit(main())
