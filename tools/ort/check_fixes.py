#!/usr/bin/env python3
"""Checks onnx-lint's safe fixes (`onnx-lint --fix`, docs/fixes.md) against ONNX Runtime itself.

Every model given (files or folders) is fixed with `onnx-lint --fix --fix-output OUT
--no-config --select ALL` (safe fixes only) into a temporary folder. Each model the fix wrote
whose original ONNX Runtime (npm onnxruntime-node) loads must

  check            pass onnx.checker.check_model(full_check=True) (loaded first), when the
                   original does
  interface        have the original's true inputs (graph inputs without an initializer) and
                   graph outputs, in the same order
  converge         linted again, show no safe fix of a rule whose fix was applied
  load             load in ONNX Runtime
  compute          run on the same seeded random inputs as the original (symbolic input dims at
                   their export size: --sizes, else 2, or 64 for H/W/height/width) and return
                   the same outputs in the same order, each with the same type and dims, and
                     - with ORT's graph optimizations and weight pre-packing off: the same
                       elements bit for bit (a NaN matches any NaN at the same position)
                     - with ORT's defaults (all optimizations): float elements within rounding
                       (CLOSE; a fixed model may be fused differently, e.g. once its weights are
                       no longer overridable inputs), other elements equal

A second pass fixes each model's named symbolic input dims to those sizes (`--fix-dims`) and
checks the model it writes the same way, at those sizes. Models whose original does not run on
random data (input values such as indices, sequence inputs) are counted and not compared. ORT
runs in two Node processes (one per optimization level) for all the models. --known-failures
names models that fail for reasons outside the fixes ({"models": {name: reason}}, the name as reported); each
must still fail. Exit status 1 on any other failure.

  /usr/bin/python3 tools/ort/check_fixes.py --ort-dir BUILD/tests/ort \\
      --tool BUILD/tools/onnx-lint [--sizes tests/ort/export_sizes.json] [-v] \\
      [--known-failures FILE] MODELS_OR_FOLDERS...
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

import ort_common

# run_model.js prints output dims only. This wrapper, run in its place, keeps run_model.js's
# inputs and batching and has every output written to DUMP: per run of a session, one JSON
# line (model, run index, the session's output names, each output's type and dims) and the
# outputs' bytes, in files named by a per-process counter.
DUMP_JS = r"""'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const DUMP = %(dump)s;
const OPTIONS = %(options)s;
const create = ort.InferenceSession.create.bind(ort.InferenceSession);
let files = 0;
const tag = process.pid + '_' + Date.now();
ort.InferenceSession.create = async (...args) => {
  const session = await (OPTIONS ? create(args[0], OPTIONS) : create(...args));
  const model = String(args[0]);
  const run = session.run.bind(session);
  let runs = 0;
  session.run = async (...runArgs) => {
    const index = runs++;
    const outs = await run(...runArgs);
    const entry = {model, run: index, names: session.outputNames, outputs: []};
    for (const name of Object.keys(outs)) {
      const t = outs[name];
      const file = path.join(DUMP, tag + '_' + (files++) + '.bin');
      let bytes;
      if (t.type === 'string') {
        bytes = Buffer.from(JSON.stringify(Array.from(t.data)));
      } else {
        bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
      }
      fs.writeFileSync(file, bytes);
      entry.outputs.push({name, type: t.type, dims: Array.from(t.dims), file});
    }
    fs.appendFileSync(path.join(DUMP, 'index.jsonl'), JSON.stringify(entry) + '\n');
    return outs;
  };
  return session;
};
require(%(runner)s);
"""

DTYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16,
          "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16,
          "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64,
          "bool": np.uint8}
UINT_OF = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


# Tolerances of the optimized comparison (ORT may fuse the fixed model differently).
CLOSE = {np.float16: (1e-2, 1e-3), np.float32: (1e-4, 1e-6), np.float64: (1e-9, 1e-12)}


def same_elements(a, b, close=False):
    """("same", None) when output dumps `a` and `b` ({type, dims, bytes}) are bit for bit the
    same (a NaN matches any NaN); with `close`, ("close", how) when float elements differ within
    CLOSE; else ("differ", how)."""
    if a["type"] != b["type"]:
        return "differ", f"type {b['type']}, original {a['type']}"
    if a["dims"] != b["dims"]:
        return "differ", f"dims {b['dims']}, original {a['dims']}"
    if a["bytes"] == b["bytes"]:
        return "same", None
    dtype = DTYPES.get(a["type"])
    if dtype is None:
        return "differ", "elements differ"
    x, y = np.frombuffer(a["bytes"], dtype), np.frombuffer(b["bytes"], dtype)
    if x.shape != y.shape:
        return "differ", f"{y.size} elements, original {x.size}"
    if dtype in UINT_OF:
        differ = x.view(UINT_OF[dtype]) != y.view(UINT_OF[dtype])
        differ &= ~(np.isnan(x) & np.isnan(y))  # NaN payloads may differ
    else:
        differ = x != y
    n = int(np.count_nonzero(differ))
    if n == 0:
        return "same", None
    i = int(np.flatnonzero(differ)[0])
    with np.errstate(invalid="ignore", over="ignore"):
        gap = np.abs(x.astype(np.float64) - y.astype(np.float64))
    how = (f"{n} of {x.size} elements differ (first at flat index {i}: {y[i]!r}, original "
           f"{x[i]!r}; max abs diff {float(np.nanmax(gap)) if gap.size else 0:g})")
    if close and dtype in CLOSE:
        rtol, atol = CLOSE[dtype]
        if np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True):
            return "close", how
    return "differ", how


def run_fix(tool, model, out_dir, dims=None, unsafe=False):
    """onnx-lint --fix on `model`, the fixed model written to out_dir (when anything changed).
    Returns (exit code, the file entry's "fixing" object or None, stderr)."""
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, os.path.basename(model))
    report = os.path.join(out_dir, "report.json")
    cmd = [tool, "--fix", "--fix-output", out, "--no-config", "--select", "ALL",
           "--format", "json", "--output", report]
    if dims:
        cmd += ["--fix-dims", ",".join(f"{k}={v}" for k, v in sorted(dims.items()))]
    if unsafe:
        cmd += ["--unsafe-fixes"]
    r = subprocess.run(cmd + [model], capture_output=True, text=True)
    fixing = None
    try:
        with open(report) as f:
            files = json.load(f)["files"]
        fixing = files[0].get("fixing") if files else None
    except (OSError, ValueError, KeyError, IndexError):
        pass
    return r.returncode, fixing, r.stderr.strip()


def checker_error(path):
    """None when onnx.checker.check_model(full_check=True) accepts the model at `path` (loaded
    first, with its external data: the checker is given the ModelProto, never the file)."""
    try:
        onnx.checker.check_model(onnx.load(path), full_check=True)
    except Exception as e:  # noqa: BLE001 - any checker or load error is the verdict
        return str(e).strip().splitlines()[0][:200] if str(e).strip() else type(e).__name__
    return None


def name_of(path):
    """A model's name in the report and in --known-failures: its file name, with its folder's
    for libonnx-testdata's model.onnx files (test_abs/model.onnx)."""
    base = os.path.basename(path)
    if base == "model.onnx":
        return os.path.basename(os.path.dirname(os.path.abspath(path))) + "/" + base
    return base


def true_inputs(model):
    inits = {t.name for t in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def generated_models(folder):
    """Small models for the safe fixes the given models may not exercise, written to `folder`:
    nodes listed in reverse order (graph-unsorted-nodes); a dead node, an unused initializer
    and an initializer listed as a graph input. (ORT refuses duplicate node names, a missing
    opset import and unsorted subgraphs itself, so those originals could not be compared.)"""
    from onnx import TensorProto, helper, numpy_helper

    def value(name):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, [2, 3])

    def save(name, nodes, inputs, inits=()):
        graph = helper.make_graph(nodes, name, [value(i) for i in inputs], [value("z")],
                                  initializer=list(inits))
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                                  producer_name="check_fixes.py")
        model.ir_version = 8
        path = os.path.join(folder, name + ".onnx")
        onnx.save(model, path)
        return path

    os.makedirs(folder, exist_ok=True)
    chain = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Add", ["r", "x"], ["y"], name="add"),
             helper.make_node("Mul", ["y", "r"], ["m"], name="mul"),
             helper.make_node("Sigmoid", ["m"], ["z"], name="sigmoid")]
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3) / 7, "w")
    unused = numpy_helper.from_array(np.ones(4, np.float32), "unused")
    dead = [helper.make_node("Add", ["x", "w"], ["y"], name="add"),
            helper.make_node("Mul", ["x", "x"], ["dead"], name="dead_mul"),
            helper.make_node("Tanh", ["y"], ["z"], name="tanh")]
    return [save("gen_unsorted_nodes", chain[::-1], ["x"]),
            save("gen_dead_unused_initializer", dead, ["x", "w"], [w, unused])]


def run_batch(ort_dir, jobs, work, options):
    """ort_common.run_jobs with DUMP_JS as the runner (its restart after a native crash
    included), sessions created with `options`; returns (results, {(model file, run index):
    {"names", "outputs": [{name, type, dims, bytes}]}})."""
    dump = os.path.join(work, "dump")
    os.makedirs(dump)
    wrapper = os.path.join(work, "run_dump.js")
    with open(wrapper, "w") as f:
        f.write(DUMP_JS % {"dump": json.dumps(dump), "options": json.dumps(options),
                           "runner": json.dumps(ort_common.RUNNER)})
    runner = ort_common.RUNNER
    ort_common.RUNNER = wrapper
    try:
        results = ort_common.run_jobs(ort_dir, jobs) if jobs else {}
    finally:
        ort_common.RUNNER = runner
    dumps = {}
    index = os.path.join(dump, "index.jsonl")
    if os.path.exists(index):
        with open(index) as f:
            for line in f:
                e = json.loads(line)
                for o in e["outputs"]:
                    with open(o["file"], "rb") as b:
                        o["bytes"] = b.read()
                    os.remove(o["file"])
                dumps[(e["model"], e["run"])] = e
    return results, dumps


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="the onnx-lint executable")
    ap.add_argument("--ort-dir", required=True, help="folder with node_modules/onnxruntime-node")
    ap.add_argument("--sizes", help="JSON {model file name: {input dim name: export size}}")
    ap.add_argument("--known-failures",
                    help="JSON {\"models\": {name: reason}}: failures outside the fixes (name: the file name; FOLDER/model.onnx for libonnx-testdata)")
    ap.add_argument("--generated-models", action="store_true",
                    help="also check small generated models (unsorted nodes, a dead node, "
                         "initializers unused or listed as inputs)")
    ap.add_argument("--unsafe-pair", action="append", default=[], metavar="FIXED=REFERENCE",
                    help="fix FIXED with --unsafe-fixes too and compare it with REFERENCE on the "
                         "same inputs: a training-mode export against the eval-mode export of "
                         "the same module (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every fixed model")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    start = time.monotonic()
    sizes_of = ort_common.load_sizes(args.sizes)
    ort_common.ort_modules(args.ort_dir)
    known = {}
    if args.known_failures:
        with open(args.known_failures) as f:
            known = json.load(f)["models"]

    failures = []  # (model, reason)
    work = tempfile.mkdtemp(prefix="onnxlint-fixes-")
    try:
        models = ort_common.model_files(args.models)
        if args.generated_models:
            models += generated_models(os.path.join(work, "generated"))
        if not models:
            ap.error("no models given")
        status = check(args, models, sizes_of, known, failures, work, start)
        if args.unsafe_pair:
            status = max(status, check_unsafe_pairs(args, sizes_of, work))
        return status
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(args, models, sizes_of, known, failures, work, start):
    def fail(path, why):
        failures.append((path, why))

    # ---- 1. the fixes, and the --fix-dims fixes of models with named symbolic input dims ----
    # path -> (run_model.js feeds of the original's true inputs, {symbolic dim: export size},
    # the true inputs' names), or None when onnx cannot load the file
    plans = {}
    for path in models:
        try:
            model = onnx.load(path, load_external_data=False)
        except Exception:  # noqa: BLE001 - ORT will refuse it too
            plans[path] = None
            continue
        inputs, envs = ort_common.size_plan(model, path, sizes_of)
        env = envs[0] if envs else {}
        plans[path] = (ort_common.feeds(inputs, env), env, [i.name for i in inputs])

    tasks = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for n, path in enumerate(models):
            tasks[("fix", path)] = pool.submit(run_fix, args.tool, path,
                                               os.path.join(work, "fix", str(n)))
            if plans[path] and plans[path][1]:
                tasks[("dims", path)] = pool.submit(run_fix, args.tool, path,
                                                    os.path.join(work, "dims", str(n)),
                                                    plans[path][1])
        done = {k: f.result() for k, f in tasks.items()}

    fixed = {}  # (kind, path) -> (fixed model path, fixing)
    for (kind, path), (rc, fixing, err) in done.items():
        what = "--fix" if kind == "fix" else "--fix-dims"
        if fixing is None:
            if rc not in (0, 1):
                fail(path, f"{what}: onnx-lint exited {rc}: {err[-200:]}")
            continue
        if fixing.get("error"):
            fail(path, f"{what}: {fixing['error']}")
        elif rc not in (0, 1):
            fail(path, f"{what}: onnx-lint exited {rc}: {err[-200:]}")
        if fixing.get("written") and fixing.get("output"):
            fixed[(kind, path)] = (fixing["output"], fixing)
        elif kind == "dims":
            fail(path, f"--fix-dims {plans[path][1]}: no model written")

    # ---- 2. ONNX Runtime: load every original; run the fixed ones and their originals, once
    # with ORT's graph optimizations (the default level) and once without them ----
    with_fix = {p for (_, p) in fixed}
    jobs = []
    for path in models:
        job = {"id": "o:" + path, "model": path}
        if path in with_fix and plans[path]:
            job["runs"] = [{"feeds": plans[path][0], "seed": 1}]
        jobs.append(job)
    for (kind, path), (out, _) in sorted(fixed.items()):
        job = {"id": kind + ":" + path, "model": out}
        if plans[path]:
            job["runs"] = [{"feeds": plans[path][0], "seed": 1}]
        jobs.append(job)
    results, dumps = run_batch(args.ort_dir, jobs, os.path.join(work, "default"), None)
    loaded = {p for p in models if results["o:" + p]["loaded"]}
    refused = len(models) - len(loaded)
    jobs = [j for j in jobs if "runs" in j and j["id"].split(":", 1)[1] in loaded]
    results_raw, dumps_raw = run_batch(args.ort_dir, jobs, os.path.join(work, "disabled"),
                                       {"graphOptimizationLevel": "disabled",
                                        "extra": {"session": {"disable_prepacking": "1"}}})

    # ---- 3. per fixed model: checker, load, outputs, convergence ----
    relint = ort_common.lint_json(args.tool, sorted(out for out, _ in fixed.values()),
                                  "--select", "ALL") if fixed else {}
    stats = collections.Counter()
    per_rule = collections.Counter()
    models_per_rule = collections.defaultdict(set)
    not_run, listing, rounding = [], [], []
    checker_original = {}
    for (kind, path), (out, fixing) in sorted(fixed.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if path not in loaded or not plans[path]:
            stats[kind + " original refused"] += 1
            listing.append(f"{kind} {name_of(path)}: not checked, ORT refuses the original")
            continue
        stats[kind + " models"] += 1
        applied = fixing.get("applied") or []
        rules = sorted({a["rule"] for a in applied})
        label = ", ".join(rules) if rules else "input dims only"
        if kind == "fix":
            for a in applied:
                per_rule[a["rule"]] += 1
                models_per_rule[a["rule"]].add(path)
        listing.append(f"{kind} {name_of(path)}: " + ", ".join(
            f"{r} x{sum(a['rule'] == r for a in applied)}" for r in rules))
        if any(a.get("safety") != "safe" for a in applied):
            fail(path, f"{kind}: an unsafe fix was applied without --unsafe-fixes")
        # (a) the checker, on the loaded ModelProto (the original first)
        if path not in checker_original:
            checker_original[path] = checker_error(path)
        why = checker_error(out)
        if why is None:
            stats[kind + " checker passes"] += 1
        elif checker_original[path] is not None:
            stats[kind + " checker fails on the original too"] += 1
        else:
            fail(path, f"{kind}: onnx.checker rejects the fixed model ({label}): {why}")
        # the interface: the same true inputs, the same outputs in the same order
        orig_m = onnx.load(path, load_external_data=False)
        fixed_m = onnx.load(out, load_external_data=False)
        if [i.name for i in true_inputs(fixed_m)] != plans[path][2]:
            fail(path, f"{kind}: true inputs {[i.name for i in true_inputs(fixed_m)]}, "
                       f"original {plans[path][2]}")
        if [o.name for o in fixed_m.graph.output] != [o.name for o in orig_m.graph.output]:
            fail(path, f"{kind}: graph outputs {[o.name for o in fixed_m.graph.output]}, "
                       f"original {[o.name for o in orig_m.graph.output]}")
        # (d) the loop converged: no safe fix left of an applied rule
        left = [d for d in relint.get(out, {}).get("diagnostics", [])
                if (d.get("fix") or {}).get("safety") == "safe"]
        stuck = sorted({d["rule"] for d in left if d["rule"] in rules})
        if out not in relint:
            fail(path, f"{kind}: the fixed model was not linted again")
        elif stuck:
            fail(path, f"{kind}: safe fixes left after --fix for {', '.join(stuck)}")
        elif left:
            stats[kind + " safe fixes of other rules left"] += 1
        # (b) ORT loads it; (c) the same outputs on the same inputs: bit for bit without
        # ORT's graph optimizations, within rounding with them (they may fuse differently)
        for level, res, dmp in (("optimized", results, dumps),
                                ("unoptimized", results_raw, dumps_raw)):
            r = res.get(kind + ":" + path)
            if r is None or not r["loaded"]:
                why = r["error"] if r else "not run"
                fail(path, f"{kind}: ORT ({level}) refuses the fixed model "
                           f"({label}): {why}")
                break
            o_run = res["o:" + path]["runs"][0]
            if not o_run["ok"]:
                if level == "optimized":
                    stats[kind + " original does not run"] += 1
                    not_run.append(f"{name_of(path)}: {o_run['error'][:120]}")
                break
            f_run = r["runs"][0]
            if not f_run["ok"]:
                fail(path, f"{kind}: the original runs ({level}), the fixed model does not "
                           f"({label}): {f_run['error'][:200]}")
                break
            a, b = dmp.get((path, 0)), dmp.get((out, 0))
            if a is None or b is None:
                fail(path, f"{kind}: no output dump ({level})")
                break
            if b["names"] != a["names"]:
                fail(path, f"{kind}: ORT outputs {b['names']}, original {a['names']}")
                break
            outs_b = {o["name"]: o for o in b["outputs"]}
            verdicts = []
            for o in a["outputs"]:
                verdict, why = (same_elements(o, outs_b[o["name"]], level == "optimized")
                                if o["name"] in outs_b else ("differ", "missing"))
                verdicts.append(verdict)
                stats[f"{kind} {level} outputs compared"] += 1
                if verdict == "differ":
                    fail(path, f"{kind}: {level}: output '{o['name']}' ({label}): "
                               f"{why}")
                elif verdict == "close":
                    rounding.append(f"{kind} {name_of(path)}: '{o['name']}': {why}")
            if all(v == "same" for v in verdicts):
                stats[f"{kind} {level} identical"] += 1
            elif "differ" not in verdicts:
                stats[f"{kind} {level} close"] += 1

    # ---- 4. report ----
    print(f"{len(models)} models; ORT loads {len(loaded)}, refuses {refused} (not fixed-checked)")
    print(f"--fix wrote a fixed model for {stats['fix models']} of the loaded models "
          f"({sum(per_rule.values())} fixes; and for {stats['fix original refused']} that ORT "
          f"refuses, not checked)")
    for rule, n in sorted(per_rule.items()):
        print(f"  {rule}: {n} fixes in {len(models_per_rule[rule])} models")
    for kind, title in (("fix", "--fix"), ("dims", "--fix-dims (symbolic input dims at their "
                                                   "export size)")):
        print(f"{title}: {stats[kind + ' models']} models; checker passes "
              f"{stats[kind + ' checker passes']} (fails on the original too: "
              f"{stats[kind + ' checker fails on the original too']}); original does not run "
              f"on random data: {stats[kind + ' original does not run']}")
        for level in ("unoptimized", "optimized"):
            print(f"  {level}: {stats[f'{kind} {level} outputs compared']} outputs compared; "
                  f"models bit-identical {stats[f'{kind} {level} identical']}, within rounding "
                  f"{stats[f'{kind} {level} close']}")
        if stats[kind + " safe fixes of other rules left"]:
            print(f"  models with safe fixes of rules not applied left: "
                  f"{stats[kind + ' safe fixes of other rules left']}")
    for line in rounding:
        print(f"  rounding {line}")
    if args.verbose:
        for line in listing:
            print(f"  fixed {line}")
        for line in not_run:
            print(f"  not run {line}")
    failed_models = {name_of(p) for p, _ in failures}
    real = [(p, w) for p, w in failures if name_of(p) not in known]
    for p, w in failures:
        tag = "known" if name_of(p) in known else "FAILED"
        print(f"  {tag} {name_of(p)} ({p}): {w}")
    given = {name_of(p) for p in models}
    stale = sorted((set(known) & given) - failed_models)
    for m in stale:
        print(f"  FAILED {m}: listed in --known-failures but does not fail")
    print(f"failures: {len(real)} ({len(failures) - len(real)} known); "
          f"{time.monotonic() - start:.1f} s")
    return 1 if real or stale else 0


def check_unsafe_pairs(args, sizes_of, work):
    """--unsafe-pair FIXED=REFERENCE: `--fix --unsafe-fixes` on FIXED (a training-mode export)
    must give, without ORT's graph optimizations, the outputs of REFERENCE (the eval-mode
    export of the same module and weights) on the same inputs, within float rounding (the two
    exports need not compute in the same order)."""
    failures, jobs, pairs = [], [], []
    for n, pair in enumerate(args.unsafe_pair):
        fixed_path, reference = pair.split("=", 1)
        rc, fixing, err = run_fix(args.tool, fixed_path, os.path.join(work, "unsafe", str(n)),
                                  unsafe=True)
        if not fixing or not fixing.get("written"):
            failures.append(f"{name_of(fixed_path)}: --unsafe-fixes wrote nothing ({rc}: "
                            f"{err[-200:] if err else fixing})")
            continue
        applied = sorted({a["rule"] for a in fixing["applied"] if a["safety"] == "unsafe"})
        model = onnx.load(reference, load_external_data=False)
        inputs, envs = ort_common.size_plan(model, reference, sizes_of)
        feeds = ort_common.feeds(inputs, envs[0] if envs else {})
        for tag, path in (("r", reference), ("f", fixing["output"])):
            jobs.append({"id": f"{tag}{n}", "model": path,
                         "runs": [{"feeds": feeds, "seed": 1}]})
        pairs.append((n, fixed_path, reference, fixing["output"], applied))
    results, dumps = run_batch(args.ort_dir, jobs, os.path.join(work, "pairs"),
                               {"graphOptimizationLevel": "disabled",
                                "extra": {"session": {"disable_prepacking": "1"}}})
    compared = identical = 0
    for n, fixed_path, reference, out, applied in pairs:
        a, b = dumps.get((reference, 0)), dumps.get((out, 0))
        if a is None or b is None:
            failures.append(f"{name_of(fixed_path)}: not run: "
                            f"{results.get('r%d' % n)} {results.get('f%d' % n)}")
            continue
        outs_b = {o["name"]: o for o in b["outputs"]}
        verdicts = []
        for o in a["outputs"]:
            other = outs_b.get(o["name"]) or (b["outputs"][len(verdicts)]
                                              if len(verdicts) < len(b["outputs"]) else None)
            verdict, why = same_elements(o, other, True) if other else ("differ", "missing")
            verdicts.append(verdict)
            compared += 1
            if verdict == "differ":
                failures.append(f"{name_of(fixed_path)} ({', '.join(applied)}) against "
                                f"{name_of(reference)}: output '{o['name']}': {why}")
        identical += all(v == "same" for v in verdicts)
        print(f"unsafe pair {name_of(fixed_path)} ({', '.join(applied)}) = "
              f"{name_of(reference)}: {', '.join(verdicts)}")
    print(f"--unsafe-fixes pairs: {len(pairs)}; outputs compared {compared}; pairs "
          f"bit-identical {identical}")
    for f in failures:
        print(f"  FAILED {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
