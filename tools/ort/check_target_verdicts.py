#!/usr/bin/env python3
"""onnx-lint's --target onnxruntime-cpu verdicts against ONNX Runtime's own session creation.

Every model given (files or folders, searched for *.onnx) is loaded in ONNX Runtime (npm
onnxruntime-node, CPU execution provider; one Node process for all of them) and linted with
`onnx-lint --target onnxruntime-cpu`. Then:

  false error     ORT loads the model, onnx-lint reports a target-* error for onnxruntime-cpu
  missed refusal  ORT refuses the model, onnx-lint has no target-* finding for onnxruntime-cpu
                  (its own or folded into another finding's `also`),
                  and the refusal is not listed in --listed (refusals that depend on the
                  machine or on the Node binding, or models ORT calls invalid, which other rules
                  report; each entry names the models, ORT's message and the reason)
  ok verdict      ORT refuses the model, and onnx-lint's onnxruntime-cpu verdict is "ok" (a
                  refusal listed as the machine's or the Node binding's aside): a model the
                  runtime rejects at load is not "ok" on it, whichever rule says why

Loaded models below ai.onnx opset 7 also run once on random data (ORT has no opset floor).
--listed also names known false errors (with the reason). Exit status 1 on any other false error
or missed refusal, a --listed entry that names no model, a listed false error that no longer
occurs, or an old-opset model that loads but does not run.

  /usr/bin/python3 tools/ort/check_target_verdicts.py --ort-dir BUILD/tests/ort \\
      --tool BUILD/tools/onnx-lint --listed tests/ort/listed_refusals.json [--boundary-models] \\
      [--type-variants FOLDER...] -- MODELS_OR_FOLDERS...
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
ONNX_VERSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "rules",
                             "tables", "onnx-versions.json")

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


FLOAT16_FEED_REFUSED = "for float16 tensors, but got typed array"

# Element types of the type copies: TensorProto type, numpy type.
VARIANT_TYPES = {
    "float16": (onnx.TensorProto.FLOAT16, np.float16),
    "double": (onnx.TensorProto.DOUBLE, np.float64),
    "int8": (onnx.TensorProto.INT8, np.int8),
    "uint8": (onnx.TensorProto.UINT8, np.uint8),
    "int16": (onnx.TensorProto.INT16, np.int16),
    "uint16": (onnx.TensorProto.UINT16, np.uint16),
    "int32": (onnx.TensorProto.INT32, np.int32),
    "int64": (onnx.TensorProto.INT64, np.int64),
    "uint32": (onnx.TensorProto.UINT32, np.uint32),
    "uint64": (onnx.TensorProto.UINT64, np.uint64),
}


def type_variants(paths, out_dir):
    """Copies of the models under `paths` with every float tensor (graph inputs, outputs, value
    infos, initializers) turned into each of VARIANT_TYPES, for the models where that is all
    their float types: a model with Cast, CastLike, Constant, a subgraph (If, Loop, Scan,
    SequenceMap) or a non-ai.onnx node is left out (their float types sit in attributes).
    Returns the paths written (<test>-<type>.onnx)."""
    written = []
    for path in ort_common.model_files(paths):
        m = onnx.load(path, load_external_data=False)
        if any(n.op_type in ("Cast", "CastLike", "Constant") or n.domain not in ("", "ai.onnx")
               or any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
                      for a in n.attribute) for n in m.graph.node):
            continue
        g = m.graph
        floats = [vi.type.tensor_type for vi in list(g.input) + list(g.output) +
                  list(g.value_info) if vi.type.HasField("tensor_type") and
                  vi.type.tensor_type.elem_type == onnx.TensorProto.FLOAT]
        inits = [i for i, t in enumerate(g.initializer) if t.data_type == onnx.TensorProto.FLOAT]
        if not floats and not inits:
            continue
        arrays = {i: numpy_helper.to_array(g.initializer[i]) for i in inits}
        for name, (elem, np_type) in VARIANT_TYPES.items():
            for tt in floats:
                tt.elem_type = elem
            for i in inits:
                t = numpy_helper.from_array(arrays[i].astype(np_type), g.initializer[i].name)
                g.initializer[i].CopyFrom(t)
            out = os.path.join(out_dir, f"{os.path.basename(os.path.dirname(path))}-{name}.onnx")
            onnx.save(m, out)
            written.append(out)
    return written


def onnx_releases():
    """ONNX's releases, oldest first, with their IR version and opsets
    (rules/tables/onnx-versions.json)."""
    with open(ONNX_VERSIONS) as f:
        return json.load(f)["releases"]


def boundary_models(out_dir):
    """Small models at the edges of what ORT accepts: Relu at ai.onnx opsets 1-27, each at the
    lowest IR version of its opset (Relu-1 has no CPU kernel; every release refuses the opsets
    after its bundled ONNX's, e.g. 27 for ORT 1.30 and 20 for 1.16), Relu at IR versions 9-14
    (opset 13: each release refuses the IR versions after its bundled ONNX's), the ops new in
    opset 26, and kernel types at the newest since-versions. Returns the paths written."""
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
    releases = onnx_releases()

    def min_ir_version(opset):  # of the first release with that opset (newer: the newest IR)
        return next((r["ir_version"] for r in releases if r["ai.onnx"] >= opset),
                    releases[-1]["ir_version"])

    out = [save(f"boundary-relu-opset{v}", [helper.make_node("Relu", ["x"], ["y"])], f32, f32,
                v, max(min_ir_version(v), 3))
           for v in (1, 5, 6, 7, 13, 19, 20, 21, 22, 23, 24, 25, 26, 27)]
    out += [save(f"boundary-relu-ir{ir}", [helper.make_node("Relu", ["x"], ["y"])], f32, f32,
                 13, ir) for ir in range(9, 15)]
    out.append(save("boundary-bitcast26", [helper.make_node("BitCast", ["x"], ["y"],
                                                            to=TensorProto.INT32)],
                    f32, TensorProto.INT32, 26, 13))
    out.append(save("boundary-cumprod26", [helper.make_node("CumProd", ["x", "axis"], ["y"])],
                    f32, f32, 26, 13, [helper.make_tensor("axis", TensorProto.INT64, [], [0])]))
    # Kernel types ORT 1.30 has beyond the kernel list (the table's oracle.types_added), at the
    # newest since-versions, and one it still lacks (TopK uint16).
    out.append(save("boundary-cos22-double", [helper.make_node("Cos", ["x"], ["y"])],
                    TensorProto.DOUBLE, TensorProto.DOUBLE, 22, 10))
    k = [helper.make_tensor("k", TensorProto.INT64, [1], [3])]
    for name, elem in (("int8", TensorProto.INT8), ("uint16", TensorProto.UINT16)):
        out.append(save(f"boundary-topk24-{name}", [helper.make_node("TopK", ["x", "k"],
                                                                     ["y", "i"])],
                        elem, elem, 24, 10, k))
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
    ap.add_argument("--ort-version", default=ort_common.ORT_VERSION,
                    help="the onnxruntime-node release installed in --ort-dir (default: %(default)s)")
    ap.add_argument("--target", default=TARGET,
                    help="the onnx-lint target whose verdicts are compared, e.g. "
                         "onnxruntime-cpu@1.18 for ONNX Runtime 1.18 (default: %(default)s)")
    ap.add_argument("--listed", required=True, help="JSON list of refusals explained elsewhere")
    ap.add_argument("--type-variants", nargs="*", default=[], metavar="FOLDER",
                    help="also compare copies of the models in these folders with their float "
                         "tensors turned into float16, double and the integer types; a copy "
                         "ORT finds ill-typed is left out")
    ap.add_argument("--boundary-models", action="store_true",
                    help="also compare small generated models at the opset and IR edges")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    with open(args.listed) as f:
        listed = json.load(f)["listed"]
    variant_dir = tempfile.mkdtemp(prefix="onnxlint-ort-variants-")
    try:
        return compare(args, listed, variant_dir)
    finally:
        shutil.rmtree(variant_dir, ignore_errors=True)


def compare(args, listed, variant_dir):
    variants = set(type_variants(args.type_variants, variant_dir))
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
    ort = ort_common.run_jobs(args.ort_dir, jobs, args.ort_version)
    old = [m for m in models if "runs" in ort[m]]
    # The Node bindings before ORT 1.19 take no float16 tensor ("Tensor.data must be a typed
    # array (-1) for float16 tensors"): such a model loads, and cannot be fed from Node.
    no_feed = {m for m in old if not ort[m]["runs"][0]["ok"] and
               FLOAT16_FEED_REFUSED in ort[m]["runs"][0].get("error", "")}
    old_failed = [(m, ort[m]["runs"][0].get("error", "")) for m in old
                  if not ort[m]["runs"][0]["ok"] and m not in no_feed]
    target_id = args.target
    lint = ort_common.lint_json(args.tool, models, "--target", target_id)

    def matches(entry, path):
        return any(fnmatch.fnmatch(path, "*" + p) for p in entry["models"])

    stale = [e["reason"][:60] for e in listed if not any(matches(e, m) for m in models)]
    false_errors, missed, listed_hits = [], [], collections.Counter()
    ok_verdicts = []
    known_false = collections.Counter()
    ill_typed = 0
    refused_found = collections.Counter()
    loaded = 0
    for m in models:
        v = ort[m]
        diags = lint[m]["diagnostics"] if m in lint else []
        # A target finding folded into the finding it restates (`also`) still says it.
        target = [f for d in diags for f in [d, *d.get("also", [])]
                  if f["rule"].startswith("target-") and f.get("target") == target_id]
        if v["loaded"]:
            loaded += 1
            errors = [d for d in target if d["severity"] == "error"]
            known = next((e for e in listed if "lint_error" in e and matches(e, m)), None)
            if errors and known is not None and all(
                    known["lint_error"] in d["rule"] + " " + d["message"] for d in errors):
                known_false[known["reason"]] += 1
            elif errors:
                false_errors.append((m, errors[0]["rule"], errors[0]["message"]))
            continue
        reason = reason_of(v["error"])
        if m in variants and (reason == "invalid model" or "Type Error" in v["error"] or
                              "TypeInferenceError" in v["error"]):
            ill_typed += 1  # a type the op's schema does not allow there: our copy is invalid
            continue
        host = next((e for e in listed if "error" in e and not e.get("reported_by") and
                     matches(e, m) and e["error"] in v["error"]), None)
        verdicts = (lint[m].get("sections", {}).get("targets", []) if m in lint else [])
        verdict = next((t["verdict"] for t in verdicts if t.get("target") == target_id), None)
        if host is None and verdict == "ok":
            ok_verdicts.append((m, reason, v["error"][:200]))
        if target:
            refused_found[reason] += 1
            continue
        entry = next((e for e in listed if "error" in e and matches(e, m) and
                      e["error"] in v["error"]), None)
        rules = {d["rule"] for d in diags if d["severity"] == "error"}
        if entry is not None and (not entry.get("reported_by") or entry["reported_by"] in rules):
            listed_hits[entry["reason"]] += 1
            continue
        missed.append((m, reason, v["error"][:200]))

    refused = len(models) - loaded
    print(f"{len(models)} models ({len(variants)} of them type copies, {len(boundary)} "
          f"boundary models): ORT loads {loaded}, refuses {refused}")
    if variants:
        print(f"  type copies ORT finds ill-typed (left out): {ill_typed}")
    print(f"  refused with a {target_id} target finding: {sum(refused_found.values())}")
    for reason, n in sorted(refused_found.items()):
        print(f"    {n:4}  {reason}")
    print(f"  refused, listed in {args.listed}: {sum(listed_hits.values())}")
    for reason, n in sorted(listed_hits.items()):
        print(f"    {n:4}  {reason[:100]}...")
    print(f"loaded models below ai.onnx opset 7: {len(old)}, run by ORT: "
          f"{len(old) - len(old_failed) - len(no_feed)}")
    if no_feed:
        print(f"  not run, float16 inputs this release's Node binding cannot feed: "
              f"{len(no_feed)}")
    for m, err in old_failed:
        print(f"  RUN FAILED {m}: {err[:200]}")
    print(f"known false target errors, listed in {args.listed}: {sum(known_false.values())}")
    for reason, n in sorted(known_false.items()):
        print(f"    {n:4}  {reason[:100]}...")
    print(f"false target errors (ORT loads the model): {len(false_errors)}")
    for m, rule, msg in false_errors:
        print(f"  FALSE ERROR {m}: [{rule}] {msg[:200]}")
    print(f"refused models whose {target_id} verdict is ok: {len(ok_verdicts)}")
    for m, reason, msg in ok_verdicts:
        print(f"  OK VERDICT {m} ({reason}): {msg}")
    print(f"missed refusals: {len(missed)}")
    for m, reason, msg in missed:
        print(f"  MISSED {m} ({reason}): {msg}")
    for s in stale:
        print(f"  STALE listed entry names no model: {s}")
    # A known false error that is gone must leave the list.
    gone = [e["reason"][:60] for e in listed if "lint_error" in e and not known_false[e["reason"]]]
    for s in gone:
        print(f"  STALE known false error no longer reported: {s}")
    return 1 if false_errors or missed or ok_verdicts or stale or gone or old_failed else 0


if __name__ == "__main__":
    sys.exit(main())
