#!/usr/bin/env python3
"""Checks onnx-lint's per-dimension facts and known elements against ONNX Runtime itself.

Every main-graph value with a dim fact (onnxlint-dump-shapes; include/onnxlint/provenance.h) is
made a graph output, and the model runs in ONNX Runtime (npm onnxruntime-node; one Node process
for every model and run) at two sizes of its symbolic input dims: the export size (from
--sizes, else 2, or 64 for dims named H/W/height/width) and a second size (one more, or 33 more
for those spatial dims). Where a fact is data-dependent, each size runs twice on different
random data. In every run:

  fixed dim          a number: ORT's dim must be that number
  expression         a string in the input dims ("N", "(H-2)/2+1", "ceil(L/2)", "max(a, b)"):
                     evaluated on the run's input dims, it must equal ORT's dim; a form that
                     cannot be evaluated ("f(...)", "?", an unbound name) is counted as not
                     checked, never as agreement
  data-set dim       {"data": origin, "max": B}: ORT's dim must be <= B (without "max": not
                     checked)
  known elements     small integer vectors: ORT's elements must equal them
  rank               every value with dims: ORT's rank must equal it

Runs ORT refuses (custom ops, sizes a model does not accept) are listed; --allowed-failures
names the models whose runs fail, with the reason (e.g. the export-baked-shape models, which
tools/ort/check_baked_shapes.py checks), and must be exact. Exit status 1 on any mismatch, any
other failed run, or a listed model that does not fail (--tolerate-failures: mismatches only).

  /usr/bin/python3 tools/ort/check_fixed_dims.py --ort-dir BUILD/tests/ort \\
      --tool BUILD/tests/oracle/onnxlint-dump-shapes [--sizes tests/ort/export_sizes.json] \\
      [--allowed-failures tests/ort/allowed_run_failures.json] MODELS_OR_FOLDERS...
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import onnx
from onnx import shape_inference

import ort_common

# ---- expressions of input dims (lib/analysis/provenance.cc render_sym) ----

TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(.))")


def tokenize(text):
    out = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            return None
        pos = m.end()
        if m.group(1) is not None:
            out.append(("num", int(m.group(1))))
        elif m.group(2) is not None:
            out.append(("name", m.group(2)))
        elif m.group(3).strip():
            out.append(("op", m.group(3)))
    return out


class Unevaluable(Exception):
    pass


def trunc_div(a, b):
    """ONNX Div on integers: truncates toward zero."""
    if b == 0:
        raise Unevaluable("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def parse_expr(text):
    """A function env -> int for the expression, or None when the form is not understood."""
    toks = tokenize(text)
    if not toks:
        return None
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else (None, None)

    def take(kind=None, value=None):
        t = peek()
        if t[0] is None or (kind and t[0] != kind) or (value is not None and t[1] != value):
            raise Unevaluable(f"unexpected {t} in {text!r}")
        pos[0] += 1
        return t

    def expr():
        node = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            rhs = term()
            node = ("+" if op == "+" else "-", node, rhs)
        return node

    def term():
        node = unary()
        while peek() in (("op", "*"), ("op", "/"), ("op", "%")):
            op = take()[1]
            node = (op, node, unary())
        return node

    def unary():
        if peek() == ("op", "-"):
            take()
            return ("neg", unary())
        return atom()

    def atom():
        kind, value = peek()
        if kind == "num":
            take()
            return ("num", value)
        if kind == "name":
            take()
            if peek() == ("op", "("):
                take()
                args = [expr()]
                while peek() == ("op", ","):
                    take()
                    args.append(expr())
                take("op", ")")
                if value in ("max", "min") and len(args) == 2:
                    return (value, args[0], args[1])
                if value == "ceil" and len(args) == 1 and args[0][0] == "/":
                    return ("ceil", args[0][1], args[0][2])
                raise Unevaluable(f"unknown function {value}")  # f(...): a function of dims
            return ("name", value)
        if (kind, value) == ("op", "("):
            take()
            node = expr()
            take("op", ")")
            return node
        raise Unevaluable(f"unexpected {value!r} in {text!r}")

    try:
        tree = expr()
        if pos[0] != len(toks):
            return None
    except Unevaluable:
        return None

    def ev(node, env):
        op = node[0]
        if op == "num":
            return node[1]
        if op == "name":
            if node[1] not in env:
                raise Unevaluable(f"unbound {node[1]}")
            return env[node[1]]
        if op == "neg":
            return -ev(node[1], env)
        a, b = ev(node[1], env), ev(node[2], env)
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return trunc_div(a, b)
        if op == "%":
            if b == 0:
                raise Unevaluable("modulo by zero")
            return a % b  # Python's % takes the divisor's sign, as ONNX Mod (fmod=0) does
        if op == "max":
            return max(a, b)
        if op == "min":
            return min(a, b)
        if op == "ceil":
            if b == 0:
                raise Unevaluable("division by zero")
            return -((-a) // b)
        raise Unevaluable(op)

    return lambda env: ev(tree, env)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="onnxlint-dump-shapes")
    ap.add_argument("--ort-dir", required=True, help="folder with node_modules/onnxruntime-node")
    ap.add_argument("--sizes", help="JSON {model file name: {input dim name: export size}}")
    ap.add_argument("--allowed-failures",
                    help="JSON {model file name: {fails: load | second size, reason}}")
    ap.add_argument("--tolerate-failures", action="store_true",
                    help="list failed runs without failing (models that need particular input "
                         "values, such as libonnx-testdata's)")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    sizes_of = ort_common.load_sizes(args.sizes)
    allowed = {}
    if args.allowed_failures:
        with open(args.allowed_failures) as f:
            allowed = json.load(f)["models"]
    ort_common.ort_modules(args.ort_dir)  # skip early when ORT is missing

    work = tempfile.mkdtemp(prefix="onnxlint-ort-dims-")
    jobs, plans = [], {}
    for index, path in enumerate(ort_common.model_files(args.models)):
        lines = subprocess.check_output([args.tool, path]).decode().splitlines()
        doc = json.loads(lines[0])
        if "error" in doc:
            continue
        values = next(g for g in doc["graphs"] if g["key"] == "main")["values"]
        model = onnx.load(path, load_external_data=False)
        if any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
            continue
        try:
            typed = shape_inference.infer_shapes(model, strict_mode=False)
        except Exception:  # noqa: BLE001 - types only help; fall back to the declared ones
            typed = model
        types = {vi.name: vi.type for vi in list(typed.graph.value_info) +
                 list(typed.graph.output) + list(typed.graph.input)}
        inits = {t.name for t in model.graph.initializer}
        outputs = {o.name for o in model.graph.output}
        claims = {}
        for name, v in values.items():
            dims = v.get("dims")
            t = types.get(name)
            if not dims or name in inits or t is None or not t.HasField("tensor_type"):
                continue
            elems = {i: e for i, e in enumerate(v.get("elems") or []) if isinstance(e, int)}
            if t.tensor_type.elem_type == 0:
                continue
            if all(d is None for d in dims) and not elems:
                continue
            claims[name] = {"dims": dims, "elems": elems}
            if name not in outputs:
                model.graph.output.append(
                    onnx.helper.make_tensor_value_info(name, t.tensor_type.elem_type, None))
        if not claims:
            continue
        probe = os.path.join(work, f"probe{index}.onnx")
        onnx.save(model, probe)
        graph_inputs, bindings = ort_common.size_plan(model, path, sizes_of)
        data_dependent = any(isinstance(d, dict) for c in claims.values() for d in c["dims"])
        seeds = [1, 2] if data_dependent else [1]
        runs, envs = [], []
        for k, env in enumerate(bindings or [{}]):  # no symbolic input: one size
            for seed in seeds:
                runs.append({"feeds": ort_common.feeds(graph_inputs, env), "seed": seed})
                envs.append((("export size", "second size")[k], seed, env))
        jobs.append({"id": path, "model": probe, "runs": runs, "outputs": list(claims),
                     "values": [n for n, c in claims.items() if c["elems"]]})
        plans[path] = (claims, envs)

    try:
        results = ort_common.run_jobs(args.ort_dir, jobs) if jobs else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    count = collections.Counter()
    mismatches, failures = [], []
    for path, (claims, envs) in plans.items():
        r = results[path]
        base = os.path.basename(path)
        if not r["loaded"]:
            failures.append((path, "load", r["error"]))
            continue
        for run, (size, seed, env) in zip(r["runs"], envs):
            if not run["ok"]:
                failures.append((path, size, f"{env} seed {seed}: {run['error']}"))
                continue
            count["runs"] += 1
            got_all = run["outputs"]
            for name, claim in claims.items():
                if name not in got_all:
                    continue
                got = got_all[name]["dims"]
                ours = claim["dims"]
                count["value runs"] += 1
                where = f"{base} '{name}' ({size} {env}, seed {seed})"
                if len(got) != len(ours):
                    mismatches.append(f"{where}: rank {len(ours)} {ours}, ORT {got}")
                    continue
                for i, d in enumerate(ours):
                    if isinstance(d, int):
                        count["fixed checked"] += 1
                        if got[i] != d:
                            mismatches.append(f"{where} dim {i}: onnx-lint {d}, ORT {got[i]}")
                    elif isinstance(d, str):
                        fn = parse_expr(d)
                        try:
                            want = None if fn is None else fn(env)
                        except Unevaluable:
                            want = None
                        if want is None:
                            count["expressions not checked"] += 1
                            continue
                        count["expressions checked"] += 1
                        if got[i] != want:
                            mismatches.append(f"{where} dim {i}: onnx-lint {d} = {want}, "
                                              f"ORT {got[i]}")
                    elif isinstance(d, dict):
                        if "max" not in d:
                            count["data dims without a bound"] += 1
                            continue
                        count["data bounds checked"] += 1
                        if got[i] > d["max"]:
                            mismatches.append(f"{where} dim {i}: onnx-lint at most {d['max']}, "
                                              f"ORT {got[i]}")
                elems = claim["elems"]
                data = got_all[name].get("data")
                if elems and data is not None:
                    # int64 comes as exact decimal strings; anything else compares as a float
                    # (3.5 is not the integer 3).
                    data = [int(x) if x.lstrip("-").isdigit() else float(x) for x in data]
                    count["elements checked"] += 1
                    if len(data) <= max(elems) or any(data[i] != e for i, e in elems.items()):
                        mismatches.append(f"{where} elements: onnx-lint "
                                          f"{[elems.get(i) for i in range(max(elems) + 1)]}, "
                                          f"ORT {data}")

    # Exactly the allowed failures: each listed model fails as listed, and nothing else fails.
    failed = {(os.path.basename(p), run) for p, run, _ in failures}
    unexpected = sorted(failed - {(m, a["fails"]) for m, a in allowed.items()})
    not_failing = sorted({(m, a["fails"]) for m, a in allowed.items()} - failed)
    print(f"{len(plans)} models, {count['runs']} runs, {count['value runs']} value runs")
    for key in ("fixed checked", "expressions checked", "expressions not checked",
                "data bounds checked", "data dims without a bound", "elements checked"):
        print(f"  {key}: {count[key]}")
    if args.tolerate_failures:
        unexpected = []
    for path, run, err in failures:
        tag = "FAILED" if (os.path.basename(path), run) in unexpected else "allowed"
        print(f"  {tag} {path} {run}: {err[:160]}")
    for m, k in not_failing:
        print(f"  LISTED BUT NOT FAILING {m} ({k})")
    for m in mismatches:
        print(f"  MISMATCH {m}")
    print(f"mismatches: {len(mismatches)}; failed runs: {len(failures)} "
          f"({len(unexpected)} not allowed, {len(not_failing)} allowed ones not failing)")
    return 1 if mismatches or unexpected or not_failing else 0


if __name__ == "__main__":
    sys.exit(main())
