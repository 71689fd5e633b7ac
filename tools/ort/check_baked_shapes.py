#!/usr/bin/env python3
"""export-baked-shape findings against ONNX Runtime runs at other sizes.

Every model given (files or folders) with symbolic input dims runs in ONNX Runtime (npm
onnxruntime-node) at its export size (--sizes, else 2, or 64 for H/W/height/width) and at a
second size (one more, or 33 more for those spatial dims). A run *holds* when it succeeds and
every output has its declared shape: the declared rank, fixed dims equal, a dim named like an
input dim equal to that input dim's size, and one name one size across the outputs.

  finding confirmed    the model has an export-baked-shape finding, holds at the export size,
                       and at the second size fails or returns a shape that contradicts the
                       declared one
  finding unconfirmed  it has the finding but holds at the second size too (a false positive),
                       or does not hold at its export size
  clean model holds    no finding, and it holds at both sizes
  missed               no finding, but a size makes it fail or contradict its declared shapes

Exit status 1 on any unconfirmed finding or missed model.

  /usr/bin/python3 tools/ort/check_baked_shapes.py --ort-dir BUILD/tests/ort \\
      --tool BUILD/tools/onnx-lint [--sizes tests/ort/export_sizes.json] MODELS_OR_FOLDERS...
"""
import argparse
import os
import sys

import onnx

import ort_common

RULE = "export-baked-shape"


def holds(run, declared, env):
    """None when the run holds, else why not."""
    if not run["ok"]:
        return "fails: " + run["error"][:160]
    seen = {}
    for name, dims in declared.items():
        got = run["outputs"][name]["dims"]
        if len(got) != len(dims):
            return f"'{name}' has rank {len(got)}, declared {len(dims)}"
        for i, d in enumerate(dims):
            if isinstance(d, int):
                if got[i] != d:
                    return f"'{name}' dim {i} is {got[i]}, declared {d}"
            elif d in env:
                if got[i] != env[d]:
                    return f"'{name}' dim {i} is {got[i]}, declared '{d}' = {env[d]}"
            elif d:
                if seen.setdefault(d, got[i]) != got[i]:
                    return f"'{name}' dim {i} is {got[i]}, declared '{d}' = {seen[d]} elsewhere"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="the onnx-lint executable")
    ap.add_argument("--ort-dir", required=True, help="folder with node_modules/onnxruntime-node")
    ap.add_argument("--sizes", help="JSON {model file name: {input dim name: export size}}")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    sizes_of = ort_common.load_sizes(args.sizes)
    ort_common.ort_modules(args.ort_dir)

    models = ort_common.model_files(args.models)
    lint = ort_common.lint_json(args.tool, models, "--select", RULE)
    jobs, plans = [], {}
    for path in models:
        model = onnx.load(path, load_external_data=False)
        inputs, envs = ort_common.size_plan(model, path, sizes_of)
        if not envs:
            continue  # no symbolic input dim
        runs = [{"feeds": ort_common.feeds(inputs, env)} for env in envs]
        declared = {o.name: [d.dim_value if d.HasField("dim_value") else d.dim_param
                             for d in o.type.tensor_type.shape.dim] for o in model.graph.output}
        findings = [d for d in lint[path]["diagnostics"] if d["rule"] == RULE]
        jobs.append({"id": path, "model": path, "runs": runs})
        plans[path] = (envs, declared, findings)
    results = ort_common.run_jobs(args.ort_dir, jobs) if jobs else {}

    confirmed, unconfirmed, clean, missed = [], [], [], []
    for path, (envs, declared, findings) in plans.items():
        base = os.path.basename(path)
        r = results[path]
        if not r["loaded"]:
            (unconfirmed if findings else missed).append(f"{base}: ORT refuses it: {r['error']}")
            continue
        why = [holds(run, declared, env) for run, env in zip(r["runs"], envs)]
        sizes = f"export {envs[0]}, second {envs[1]}"
        if findings:
            if why[0] is None and why[1] is not None:
                confirmed.append(f"{base} ({len(findings)} finding(s)): {sizes}: {why[1]}")
            else:
                unconfirmed.append(f"{base}: {sizes}: export size: {why[0] or 'holds'}; "
                                   f"second size: {why[1] or 'holds'}")
        elif why[0] is None and why[1] is None:
            clean.append(f"{base}: {sizes}")
        else:
            missed.append(f"{base}: {sizes}: {why[0] or why[1]}")

    print(f"{len(plans)} models with symbolic inputs")
    print(f"{RULE} findings confirmed by ORT: {len(confirmed)} of "
          f"{len(confirmed) + len(unconfirmed)}")
    for line in confirmed:
        print(f"  confirmed {line}")
    for line in unconfirmed:
        print(f"  UNCONFIRMED {line}")
    print(f"models without a finding that hold at both sizes: {len(clean)} of "
          f"{len(clean) + len(missed)}")
    for line in clean:
        print(f"  holds {line}")
    for line in missed:
        print(f"  MISSED {line}")
    return 1 if unconfirmed or missed else 0


if __name__ == "__main__":
    sys.exit(main())
