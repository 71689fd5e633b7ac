#!/usr/bin/env python3
"""The JSON report's model facts against ONNX's own protobuf parser and Python's hashlib.

For every model under the given folders, `onnx-lint --format json --hash` must report what
`onnx.load` (Debian python3-onnx) finds in the file: ir_version, opset imports, producer,
model_version, graph name, metadata_props, doc_string (cut at 4096 bytes), the signature
(inputs that are not initializers, outputs; element type and declared dims) and the op
histogram over every graph (subgraphs and function bodies included), plus the SHA-256 of the
file. Models that ONNX's parser rejects, and those onnx-lint reads as unreadable, are skipped
and counted. Prints a summary; exits 1 on any disagreement.
"""
import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys

import onnx
from onnx import TensorProto

DOC_LIMIT = 4096


def elem_name(t):
    # TensorProto.DataType names, lowercased as ONNX writes them in type strings.
    return TensorProto.DataType.Name(t).lower() if t else "?"


def type_string(tp):
    """(ONNX type string as onnx-lint writes it, the TensorTypeProto whose dims are declared)."""
    kind = tp.WhichOneof("value")
    if kind is None:
        return None, None
    if kind == "tensor_type":
        return f"tensor({elem_name(tp.tensor_type.elem_type)})", tp.tensor_type
    if kind == "sparse_tensor_type":
        return f"sparse_tensor({elem_name(tp.sparse_tensor_type.elem_type)})", tp.sparse_tensor_type
    if kind == "map_type":
        return "map", None
    if kind in ("sequence_type", "optional_type"):
        inner = getattr(tp, kind).elem_type
        inner_str = type_string(inner)[0] if inner.WhichOneof("value") else "?"
        return f"{'seq' if kind == 'sequence_type' else 'optional'}({inner_str})", None
    return None, None


def signature(vi):
    type_str, tensor = type_string(vi.type)
    dims = None
    if tensor is not None and tensor.HasField("shape"):
        dims = []
        for d in tensor.shape.dim:
            which = d.WhichOneof("value")
            dims.append(d.dim_value if which == "dim_value" else
                        d.dim_param if which == "dim_param" and d.dim_param else None)
    return {"name": vi.name, "type": type_str, "dims": dims}


def all_graphs(model):
    stack = [model.graph]
    for f in model.functions:
        stack.append(f)  # FunctionProto: has .node
    while stack:
        g = stack.pop()
        yield g
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    stack.append(a.g)
                elif a.type == onnx.AttributeProto.GRAPHS:
                    stack.extend(a.graphs)


def expected(path, model):
    ops = collections.defaultdict(collections.Counter)
    for g in all_graphs(model):
        for n in g.node:
            ops[n.domain if n.domain not in ("", "ai.onnx") else "ai.onnx"][n.op_type] += 1
    init = {t.name for t in model.graph.initializer} | {
        t.values.name for t in model.graph.sparse_initializer}
    opsets = {}
    for imp in model.opset_import:
        opsets[imp.domain or "ai.onnx"] = imp.version
    doc = model.doc_string.encode("utf-8")
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return {
        "ir_version": model.ir_version,
        "opset_imports": opsets,
        "producer": {"name": model.producer_name, "version": model.producer_version},
        "model_version": model.model_version,
        "graph_name": model.graph.name,
        "metadata_props": {p.key: p.value for p in model.metadata_props},
        "doc_string_bytes": len(doc),
        "doc_string": doc[:DOC_LIMIT].decode("utf-8", errors="replace"),
        "inputs": [signature(v) for v in model.graph.input if v.name not in init],
        "outputs": [signature(v) for v in model.graph.output],
        "ops": {d: dict(c) for d, c in ops.items()},
        "sha256": digest,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("folders", nargs="+")
    args = ap.parse_args()
    paths = sorted(os.path.join(root, f) for folder in args.folders
                   for root, _, files in os.walk(folder) for f in files if f.endswith(".onnx"))
    compared = skipped = 0
    problems = []
    batch = 200
    for start in range(0, len(paths), batch):
        chunk = paths[start:start + batch]
        run = subprocess.run([args.tool, "--format", "json", "--hash", "--select", "model",
                              "--fail-on", "never", *chunk], capture_output=True)
        report = json.loads(run.stdout)
        for path, entry in zip(chunk, report["files"]):
            assert entry["path"] == path, (entry["path"], path)
            try:
                model = onnx.load(path, load_external_data=False)
            except Exception:  # noqa: BLE001 - ONNX rejects it: nothing to compare with
                skipped += 1
                continue
            if entry["model"] is None:
                skipped += 1
                continue
            want = expected(path, model)
            got = entry["model"]
            for key, value in want.items():
                seen = got.get(key)
                if key in ("inputs", "outputs"):
                    seen = [{k: v for k, v in s.items() if k != "analysis"} for s in seen]
                if seen != value:
                    problems.append(f"{path}: {key}: onnx-lint {seen!r} != onnx {value!r}")
            compared += 1
    for p in problems[:40]:
        print(p)
    print(f"report oracle: {compared} models compared, {skipped} skipped (unreadable to one "
          f"side), {len(problems)} disagreements")
    return 1 if problems or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
