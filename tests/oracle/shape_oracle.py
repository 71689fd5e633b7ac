#!/usr/bin/env python3
"""Shape oracle: onnx-lint's per-dimension facts against ONNX's own shape inference.

For every model given (files or folders, searched for *.onnx), the model is loaded with
Debian's python3-onnx, its declared intermediate shapes are dropped (graph value_info and
the shapes of graph outputs, in every graph), and ONNX infers them again with
`infer_shapes(..., data_prop=True)`. Every dim ONNX infers as a number is compared with the
facts `onnxlint-dump-shapes` prints for the same value:

  contradiction  onnx-lint says a different number, or a different rank: a soundness bug
  missing        onnx-lint does not call the dim fixed (it is symbolic, data or unknown)
  agreed         the same number

Dims onnx-lint calls fixed where ONNX has no number are counted as `extra` and listed.

Element types are compared the same way: every type ONNX infers for a value (value_info and
graph outputs of the inferred model, in every graph) against the type onnx-lint infers
(`"type"`, with `"inferred": true`; a type only a declaration gave counts as missing):

  type contradiction  onnx-lint infers another type: a soundness bug
  type missing        onnx-lint does not infer one
  type agreed         the same type

Exit status 1 when there is any contradiction (dims or types), or when `missing` exceeds
--max-missing.
Cases where ONNX's own inference is wrong are listed in KNOWN_ONNX_ERRORS with the evidence.
"""
import argparse
import json
import os
import subprocess
import sys

import onnx
from onnx import shape_inference

# (model path suffix, graph key, value name): ONNX's number is wrong; the reason says why.
# onnx-lint must not claim ONNX's number there (that is counted as a contradiction).
KNOWN_ONNX_ERRORS = {
    ("corpus/torch_script_greedy_decode_op13.onnx", "main/4:body", "/Concat_output_0"):
        "ONNX types the Loop body's carried input `toks.11` with the initial value's shape [1] "
        "and so infers Concat(toks, next) = [2]; the carried tensor grows by one per iteration. "
        "ONNX Runtime 1.30 (tools/ort/run_model.js, input tok=[1]) returns toks of shape [21] "
        "and warns 'Expected shape from model of {2} does not match actual shape of {3}' ... "
        "'{21} for output /Concat_output_0'. onnx-lint: unknown, at least 2.",
}


def model_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith(".onnx"):
                        yield os.path.join(root, f)
        else:
            yield p


def subgraphs(g, key):
    yield key, g
    for i, n in enumerate(g.node):
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from subgraphs(a.g, f"{key}/{i}:{a.name}")


def strip(model):
    for _, g in subgraphs(model.graph, "main"):
        del g.value_info[:]
        for o in g.output:
            if o.type.HasField("tensor_type"):
                o.type.tensor_type.ClearField("shape")


def onnx_shapes(model):
    """{graph key: {value name: [int | None, ...]}} for tensor values with an inferred shape."""
    out = {}
    for key, g in subgraphs(model.graph, "main"):
        shapes = {}
        for vi in list(g.value_info) + list(g.output):
            t = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
            if t is None or not t.HasField("shape"):
                continue
            shapes[vi.name] = [d.dim_value if d.HasField("dim_value") else None
                               for d in t.shape.dim]
        out[key] = shapes
    return out


def type_text(tp):
    """The type as onnx-lint writes it: tensor(float), seq(tensor(int64)), optional(...)."""
    kind = tp.WhichOneof("value")
    if kind in ("tensor_type", "sparse_tensor_type"):
        elem = getattr(tp, kind).elem_type
        if not elem:
            return None
        name = onnx.TensorProto.DataType.Name(elem).lower()
        return f"{'tensor' if kind == 'tensor_type' else 'sparse_tensor'}({name})"
    if kind == "sequence_type":
        inner = type_text(tp.sequence_type.elem_type)
        return f"seq({inner})" if inner and inner.startswith("tensor(") else None
    if kind == "optional_type":
        inner = type_text(tp.optional_type.elem_type)
        return f"optional({inner})" if inner and inner.startswith(("tensor(", "seq(")) else None
    return None


def onnx_types(model):
    """{graph key: {value name: type text}} for values ONNX gives a tensor/seq/optional type."""
    out = {}
    for key, g in subgraphs(model.graph, "main"):
        types = {}
        for vi in list(g.value_info) + list(g.output):
            t = type_text(vi.type)
            if t is not None:
                types[vi.name] = t
        out[key] = types
    return out


def lint_facts(tool, files):
    facts = {}
    for i in range(0, len(files), 200):
        chunk = files[i:i + 200]
        res = subprocess.run([tool] + chunk, capture_output=True, text=True, check=True)
        for line in res.stdout.splitlines():
            doc = json.loads(line)
            facts[doc["file"]] = doc
    return facts


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="path of onnxlint-dump-shapes")
    ap.add_argument("--max-missing", type=int, default=-1,
                    help="fail when more ONNX-fixed dims than this are not fixed in onnx-lint")
    ap.add_argument("--list", type=int, default=20, help="how many cases of each kind to print")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    files = sorted(set(model_files(args.paths)))
    facts = lint_facts(args.tool, files)
    stats = dict(models=0, skipped=0, values=0, fixed=0, agreed=0, missing=0,
                 contradictions=0, extra=0, onnx_wrong=0, types=0, types_agreed=0,
                 types_missing=0, type_contradictions=0)
    cases = {"contradiction": [], "missing": [], "extra": [], "skipped": [],
             "type contradiction": [], "type missing": []}
    types_missing_by_op = {}
    missing_by_op = {}

    for path in files:
        try:
            model = onnx.load(path, load_external_data=False)
            strip(model)
            inferred = shape_inference.infer_shapes(model, check_type=False, strict_mode=False,
                                                    data_prop=True)
        except Exception as e:  # noqa: BLE001 - ONNX cannot infer this model: not compared
            stats["skipped"] += 1
            cases["skipped"].append(f"{path}: {type(e).__name__}: {str(e)[:120]}")
            continue
        doc = facts.get(path)
        if doc is None or "error" in doc:
            stats["skipped"] += 1
            cases["skipped"].append(f"{path}: onnx-lint: {doc and doc.get('error')}")
            continue
        stats["models"] += 1
        ours_by_key = {g["key"]: g["values"] for g in doc["graphs"]}
        producers = {(key, o): n.op_type for key, g in subgraphs(model.graph, "main")
                     for n in g.node for o in n.output}
        for key, shapes in onnx_shapes(inferred).items():
            ours_values = ours_by_key.get(key, {})
            for name, dims in shapes.items():
                known = KNOWN_ONNX_ERRORS.get((os.path.basename(os.path.dirname(path)) + "/" +
                                               os.path.basename(path), key, name))
                ours = (ours_values.get(name) or {}).get("dims")
                if known:
                    stats["onnx_wrong"] += 1
                    if ours == dims:
                        stats["contradictions"] += 1
                        cases["contradiction"].append(
                            f"{path} {key} '{name}': onnx-lint repeats ONNX's known error {dims}")
                    continue
                stats["values"] += 1
                where = f"{path} {key} '{name}': onnx {dims} onnx-lint {ours}"
                if ours is not None and len(ours) != len(dims):
                    stats["contradictions"] += 1
                    cases["contradiction"].append(where + " (rank)")
                    continue
                for j, d in enumerate(dims):
                    mine = ours[j] if ours is not None else None
                    mine_fixed = isinstance(mine, int) and not isinstance(mine, bool)
                    if d is None:
                        if mine_fixed:
                            stats["extra"] += 1
                            cases["extra"].append(f"{where} (dim {j})")
                        continue
                    stats["fixed"] += 1
                    if not mine_fixed:
                        stats["missing"] += 1
                        cases["missing"].append(f"{where} (dim {j})")
                        op = producers.get((key, name), "(graph input)")
                        missing_by_op[op] = missing_by_op.get(op, 0) + 1
                    elif mine != d:
                        stats["contradictions"] += 1
                        cases["contradiction"].append(f"{where} (dim {j})")
                    else:
                        stats["agreed"] += 1

        for key, types in onnx_types(inferred).items():
            ours_values = ours_by_key.get(key, {})
            for name, t in types.items():
                ours = ours_values.get(name) or {}
                stats["types"] += 1
                mine = ours.get("type") if ours.get("inferred") else None
                where = f"{path} {key} '{name}': onnx {t} onnx-lint {ours.get('type')}"
                if mine is None or mine == "?" or "?" in mine:
                    stats["types_missing"] += 1
                    cases["type missing"].append(where)
                    op = producers.get((key, name), "(graph input)")
                    types_missing_by_op[op] = types_missing_by_op.get(op, 0) + 1
                elif mine != t:
                    stats["type_contradictions"] += 1
                    cases["type contradiction"].append(where)
                else:
                    stats["types_agreed"] += 1

    for kind, items in cases.items():
        if items:
            print(f"{kind}: {len(items)}")
            for c in items[:args.list]:
                print(f"  {c}")
    if missing_by_op:
        print("missing by producing op: " + ", ".join(
            f"{op} {n}" for op, n in sorted(missing_by_op.items(), key=lambda x: (-x[1], x[0]))))
    if types_missing_by_op:
        print("types missing by producing op: " + ", ".join(
            f"{op} {n}" for op, n in sorted(types_missing_by_op.items(),
                                            key=lambda x: (-x[1], x[0]))))
    print("summary: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    if stats["fixed"]:
        print(f"agreement on ONNX-fixed dims: {100.0 * stats['agreed'] / stats['fixed']:.2f}%")
    ok = stats["contradictions"] == 0 and stats["type_contradictions"] == 0
    if args.max_missing >= 0 and stats["missing"] > args.max_missing:
        print(f"FAIL: {stats['missing']} ONNX-fixed dims not fixed in onnx-lint "
              f"(at most {args.max_missing} allowed)")
        ok = False
    if stats["contradictions"]:
        print(f"FAIL: {stats['contradictions']} contradictions")
    if stats["type_contradictions"]:
        print(f"FAIL: {stats['type_contradictions']} element-type contradictions")
    print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
