#!/usr/bin/env python3
"""Checks onnx-lint's fixed dims and known elements against ONNX Runtime itself.

Every main-graph value whose dims (or, for small integer vectors, elements) onnx-lint calls
fixed (onnxlint-dump-shapes) is made a graph output; the model runs in ONNX Runtime on inputs of
two sizes for each dynamic input dim (2 and 3, or 64 and 96 for dims named H/W/height/width),
and every fixed claim must equal what ORT computes. Models ORT cannot run at a size (custom ops, sizes the model does not accept) are
listed and skipped.

  npm install --ignore-scripts onnxruntime-node@1.30.0      # in a scratch folder, once
  /usr/bin/python3 tools/ort/check_fixed_dims.py --ort-dir SCRATCH \\
      --tool build/tests/oracle/onnxlint-dump-shapes MODEL.onnx...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import onnx
from onnx import shape_inference

SIZES = [(2, 64), (3, 96)]  # (any dim, spatial dim) for each run
SPATIAL = {"h", "w", "height", "width"}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--ort-dir", required=True, help="folder with node_modules/onnxruntime-node")
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_model.js")
    work = tempfile.mkdtemp(prefix="onnxlint-ort-")
    checked = mismatches = 0
    checked_elems = [0]
    for path in args.models:
        doc = json.loads(subprocess.check_output([args.tool, path]).decode().splitlines()[0])
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
            fixed = {i: d for i, d in enumerate(dims) if isinstance(d, int)}
            elems = {i: e for i, e in enumerate(v.get("elems") or []) if isinstance(e, int)}
            if (not fixed and not elems) or t.tensor_type.elem_type == 0:
                continue
            claims[name] = (len(dims), fixed, dims, elems)
            if name not in outputs:
                model.graph.output.append(
                    onnx.helper.make_tensor_value_info(name, t.tensor_type.elem_type, None))
        if not claims:
            continue
        probe = os.path.join(work, "probe.onnx")
        onnx.save(model, probe)
        for run, (any_dim, spatial_dim) in enumerate(SIZES):
            feeds = {}
            for inp in model.graph.input:
                if inp.name in inits:
                    continue
                tt = inp.type.tensor_type
                shape = [d.dim_value if d.HasField("dim_value") else
                         (spatial_dim if d.dim_param.lower() in SPATIAL else any_dim)
                         for d in tt.shape.dim]
                feeds[inp.name] = {"type": tt.elem_type, "dims": shape}
            spec = os.path.join(work, "spec.json")
            with open(spec, "w") as f:
                json.dump({"model": probe, "feeds": feeds, "outputs": list(claims),
                           "values": [n for n, c in claims.items() if c[3]]}, f)
            env = dict(os.environ, NODE_PATH=os.path.join(os.path.abspath(args.ort_dir),
                                                          "node_modules"))
            r = subprocess.run(["node", runner, spec], capture_output=True, text=True, env=env)
            if r.returncode != 0:
                print(f"skipped {path} at run {run}: {r.stderr.strip().splitlines()[-1][:160]}")
                continue
            got = json.loads(r.stdout)
            for name, (rank, fixed, ours, elems) in claims.items():
                if name not in got:
                    continue
                checked += 1
                dims = got[name]["dims"]
                if len(dims) != rank or any(dims[i] != d for i, d in fixed.items()):
                    mismatches += 1
                    print(f"MISMATCH {path} '{name}': onnx-lint {ours}, ORT {dims} (run {run})")
                data = got[name].get("data")
                # int64 comes as exact decimal strings; anything else compares as a float
                # (3.5 is not the integer 3).
                data = None if data is None else [
                    int(x) if x.lstrip("-").isdigit() else float(x) for x in data]
                if elems and data is not None:
                    checked_elems[0] += 1
                    if len(data) <= max(elems) or any(data[i] != e for i, e in elems.items()):
                        mismatches += 1
                        print(f"MISMATCH {path} '{name}' elements: onnx-lint "
                              f"{values[name]['elems']}, ORT {data} (run {run})")
    print(f"checked {checked} value runs ({checked_elems[0]} with known elements): "
          f"{mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
