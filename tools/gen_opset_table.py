#!/usr/bin/env python3
"""Generate the embedded ONNX operator table (C++) from the JSON data files.

Usage:
    gen_opset_table.py [--operators onnx-operators.json] [--versions onnx-versions.json] OUTPUT.cc

Reads rules/tables/onnx-operators.json and onnx-versions.json (defaults: next to this
repository's rules/tables/) and writes one C++ source file defining the data behind
include/onnxlint/opset_table.h: flat constant arrays of POD structs with string_view
literals, sorted so lookups are binary searches.

The output is deterministic (no timestamps, sorted keys, stable de-duplication) so rebuilding
from the same JSON gives byte-identical output. Standard library only.
"""

import argparse
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLES = os.path.join(HERE, "..", "rules", "tables")

ATTR_TYPES = {
    "UNDEFINED": "Undefined",
    "FLOAT": "Float",
    "INT": "Int",
    "STRING": "String",
    "TENSOR": "Tensor",
    "GRAPH": "Graph",
    "FLOATS": "Floats",
    "INTS": "Ints",
    "STRINGS": "Strings",
    "TENSORS": "Tensors",
    "GRAPHS": "Graphs",
    "SPARSE_TENSOR": "SparseTensor",
    "SPARSE_TENSORS": "SparseTensors",
    "TYPE_PROTO": "TypeProto",
    "TYPE_PROTOS": "TypeProtos",
}
OPTIONS = {"single": "Single", "optional": "Optional", "variadic": "Variadic"}
CONCRETE_TYPE = re.compile(r"^(tensor|seq|map|optional|sparse_tensor)\(")


class DataError(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise DataError(msg)


class JsonFloat(str):
    """A JSON number with a fraction or exponent, kept as its exact source text."""


def load_json(path):
    # Floats are kept as text: the README guarantees they are the shortest float32 decimal,
    # and re-printing through a Python double could change the spelling.
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=JsonFloat)


def cpp_str(s):
    """A C++ string_view literal. Non-printable / non-ASCII bytes become octal escapes."""
    out = []
    for b in s.encode("utf-8"):
        c = chr(b)
        if c in ('"', "\\"):
            out.append("\\" + c)
        elif 0x20 <= b < 0x7F:
            out.append(c)
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"sv'


def render_default(value):
    """Text form of an attribute default (see AttributeSchema::default_text)."""
    if isinstance(value, bool):
        raise DataError("boolean default is not an ONNX attribute value: %r" % (value,))
    if isinstance(value, JsonFloat):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "[" + ", ".join(render_list_item(v) for v in value) + "]"
    raise DataError("unsupported default %r" % (value,))


def render_list_item(value):
    if isinstance(value, str) and not isinstance(value, JsonFloat):
        return json.dumps(value)
    return render_default(value)


class Pool:
    """De-duplicates equal runs of rows into one flat array; returns (offset, count)."""

    def __init__(self):
        self.rows = []
        self.index = {}

    def add(self, run):
        run = tuple(run)
        if not run:
            return (0, 0)
        if run not in self.index:
            self.index[run] = len(self.rows)
            self.rows.extend(run)
        return (self.index[run], len(run))


def sort_key(s):
    # C++ compares string_views bytewise; match that exactly.
    return s.encode("utf-8")


def build(ops_doc, ver_doc):
    check(ops_doc.get("unbounded_arity") == 2147483647, "unbounded_arity must be INT32_MAX")
    domains = ops_doc["domains"]
    check("" in domains and "ai.onnx" not in domains, "default domain must be keyed by \"\"")

    allowed_pool = Pool()  # rows: type string
    constraint_pool = Pool()  # rows: (param, allowed_off, allowed_cnt)
    attr_pool = Pool()  # rows: (name, type, required, has_default, default_text)
    param_pool = Pool()  # rows: (name, option, type, min_arity, homogeneous)

    domain_rows = []
    schema_rows = []
    for dom in sorted(domains, key=sort_key):
        dd = domains[dom]
        check(isinstance(dd["min_opset"], int) and isinstance(dd["max_opset"], int),
              "domain %r: opsets must be ints" % dom)
        domain_rows.append((dom, dd["name"], dd["min_opset"], dd["max_opset"]))
        for op in sorted(dd["operators"], key=sort_key):
            versions = dd["operators"][op]
            check(versions, "%s:%s has no versions" % (dom, op))
            prev = None
            for v in versions:
                where = "%s:%s-%s" % (dom or "ai.onnx", op, v.get("since_version"))
                since, until = v["since_version"], v["until_version"]
                check(dd["min_opset"] <= since <= until <= dd["max_opset"], where + ": bad range")
                if prev is not None:
                    check(since > prev["since_version"], where + ": versions not ascending")
                    check(prev["until_version"] == since - 1, where + ": until mismatch")
                prev = v
                check(v["support_level"] in ("COMMON", "EXPERIMENTAL"), where + ": support_level")
                deprecated = bool(v["deprecated"])
                if v["inputs"] is None:
                    # The changelog publishes no signature for deprecated entries.
                    check(deprecated, where + ": null signature on a live schema")
                    arity = (0, 0, 0, 0)
                    attrs, ins, outs, cons = (0, 0), (0, 0), (0, 0), (0, 0)
                else:
                    arity = (v["min_input"], v["max_input"], v["min_output"], v["max_output"])
                    check(all(isinstance(a, int) and a >= 0 for a in arity), where + ": arity")
                    tcs = v["type_constraints"]
                    cons = constraint_pool.add(
                        (p, *allowed_pool.add(tcs[p])) for p in tcs)
                    attr_rows = []
                    for name in sorted(v["attributes"], key=sort_key):
                        a = v["attributes"][name]
                        check(a["type"] in ATTR_TYPES, where + ": attribute type " + a["type"])
                        has_def = "default" in a
                        check(not (has_def and a["required"]), where + ": required with default")
                        attr_rows.append((name, ATTR_TYPES[a["type"]], bool(a["required"]),
                                          has_def, render_default(a["default"]) if has_def else ""))
                    attrs = attr_pool.add(attr_rows)
                    ins = param_pool.add(param_rows(v["inputs"], tcs, where))
                    outs = param_pool.add(param_rows(v["outputs"], tcs, where))
                schema_rows.append(dict(
                    domain=dom, name=op, since=since, until=until, deprecated=deprecated,
                    experimental=v["support_level"] == "EXPERIMENTAL",
                    has_function=bool(v["has_function"]),
                    has_cdf=bool(v["has_context_dependent_function"]),
                    arity=arity, attrs=attrs, ins=ins, outs=outs, cons=cons))
            check(prev["until_version"] == dd["max_opset"], "%s:%s: last until != max" % (dom, op))

    releases = []
    for r in ver_doc["releases"]:
        releases.append((r["release"], r["ir_version"], r["ai.onnx"], r["ai.onnx.ml"] or 0,
                         r["ai.onnx.training"] or 0))
    for a, b in zip(releases, releases[1:]):
        check(b[1] >= a[1] and b[2] >= a[2] and b[3] >= a[3] and b[4] >= a[4],
              "releases must be in ascending order: %s, %s" % (a[0], b[0]))
    ir_max = max(e["value"] for e in ver_doc["ir_version_enum"])
    check(ir_max == ops_doc["ir_version"], "IR enum max != operators ir_version")
    check(releases[-1][1] == ir_max, "newest release IR != IR enum max")

    return dict(domains=domain_rows, schemas=schema_rows, releases=releases, ir_max=ir_max,
                onnx_version=ops_doc["onnx_version"], source=ops_doc["source"],
                allowed=allowed_pool.rows, constraints=constraint_pool.rows,
                attrs=attr_pool.rows, params=param_pool.rows)


def param_rows(params, tcs, where):
    rows = []
    for i, p in enumerate(params):
        opt = p["option"]
        check(opt in OPTIONS, where + ": option " + opt)
        check(opt != "variadic" or i == len(params) - 1, where + ": variadic not last")
        check(p["type"] in tcs or CONCRETE_TYPE.match(p["type"]), where + ": type " + p["type"])
        if opt == "variadic":
            min_arity, homogeneous = p["min_arity"], bool(p["homogeneous"])
        else:
            min_arity, homogeneous = (1 if opt == "single" else 0), True
        rows.append((p["name"], OPTIONS[opt], p["type"], min_arity, homogeneous))
    return rows


def b(x):
    return "true" if x else "false"


def span(array, off_cnt):
    off, cnt = off_cnt
    if cnt == 0:
        return "{}"
    return "{%s + %d, %d}" % (array, off, cnt)


def emit(t):
    o = []
    w = o.append
    w("// GENERATED by tools/gen_opset_table.py from rules/tables/onnx-operators.json and")
    w("// onnx-versions.json (ONNX %s, %s). DO NOT EDIT." % (t["onnx_version"], t["source"]))
    w("// clang-format off")
    w("#include <span>")
    w("#include <string_view>")
    w("")
    w("#include \"onnxlint/opset_table.h\"")
    w("")
    w("namespace onnxlint {")
    w("namespace {")
    w("using namespace std::string_view_literals;")
    w("")
    # Pools first: the schema rows hold spans into them.
    w("// Allowed type strings of every distinct type-constraint list, concatenated.")
    w("constexpr std::string_view kAllowed[] = {")
    for s in t["allowed"]:
        w("  %s," % cpp_str(s))
    w("};")
    w("")
    w("// Distinct type-constraint lists, concatenated: {param, allowed types}.")
    w("constexpr TypeConstraint kConstraints[] = {")
    for param, off, cnt in t["constraints"]:
        w("  {%s, %s}," % (cpp_str(param), span("kAllowed", (off, cnt))))
    w("};")
    w("")
    w("// Distinct attribute lists (each sorted by name), concatenated:")
    w("// {name, type, required, has_default, default_text}.")
    w("constexpr AttributeSchema kAttributes[] = {")
    for name, typ, req, has_def, text in t["attrs"]:
        w("  {%s, AttrType::%s, %s, %s, %s}," % (cpp_str(name), typ, b(req), b(has_def),
                                                cpp_str(text)))
    w("};")
    w("")
    w("// Distinct formal-parameter lists, concatenated: {name, option, type, min_arity,")
    w("// homogeneous}.")
    w("constexpr ParamSchema kParams[] = {")
    for name, opt, typ, min_arity, hom in t["params"]:
        w("  {%s, ParamOption::%s, %s, %d, %s}," % (cpp_str(name), opt, cpp_str(typ), min_arity,
                                                   b(hom)))
    w("};")
    w("")
    w("// Every schema version, sorted by (domain, name, since_version): binary-searchable.")
    w("// Fields: domain, name, since, until, deprecated, experimental, has_function,")
    w("// has_context_dependent_function, min_input, max_input, min_output, max_output,")
    w("// attributes, inputs, outputs, type_constraints.")
    w("constexpr OpSchema kSchemas[] = {")
    for s in t["schemas"]:
        w("  {%s, %s, %d, %d, %s, %s, %s, %s, %d, %d, %d, %d," % (
            cpp_str(s["domain"]), cpp_str(s["name"]), s["since"], s["until"], b(s["deprecated"]),
            b(s["experimental"]), b(s["has_function"]), b(s["has_cdf"]), *s["arity"]))
        w("   %s, %s, %s, %s}," % (span("kAttributes", s["attrs"]), span("kParams", s["ins"]),
                                  span("kParams", s["outs"]),
                                  span("kConstraints", s["cons"])))
    w("};")
    w("")
    w("// Registered domains, sorted by key: {domain, name, min_opset, max_opset}.")
    w("constexpr DomainInfo kDomains[] = {")
    for dom, name, lo, hi in t["domains"]:
        w("  {%s, %s, %d, %d}," % (cpp_str(dom), cpp_str(name), lo, hi))
    w("};")
    w("")
    w("// ONNX releases, oldest first: {release, ir_version, ai.onnx, ai.onnx.ml,")
    w("// ai.onnx.training} (0 = domain did not exist yet).")
    w("constexpr OnnxRelease kReleases[] = {")
    for rel, ir, a, ml, tr in t["releases"]:
        w("  {%s, %d, %d, %d, %d}," % (cpp_str(rel), ir, a, ml, tr))
    w("};")
    w("")
    w("}  // namespace")
    w("")
    w("std::span<const OpSchema> all_schemas() { return kSchemas; }")
    w("std::span<const DomainInfo> all_domains() { return kDomains; }")
    w("std::span<const OnnxRelease> onnx_releases() { return kReleases; }")
    w("int max_known_ir_version() { return %d; }" % t["ir_max"])
    w("std::string_view onnx_data_version() { return %s; }" % cpp_str(t["onnx_version"]))
    w("")
    w("}  // namespace onnxlint")
    w("")
    return "\n".join(o)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--operators", default=os.path.join(DEFAULT_TABLES, "onnx-operators.json"))
    ap.add_argument("--versions", default=os.path.join(DEFAULT_TABLES, "onnx-versions.json"))
    ap.add_argument("output", help="path of the C++ file to write")
    args = ap.parse_args(argv)
    try:
        tables = build(load_json(args.operators), load_json(args.versions))
    except (DataError, KeyError, TypeError, ValueError) as e:
        print("gen_opset_table.py: invalid table data: %s: %s" % (type(e).__name__, e),
              file=sys.stderr)
        return 1
    text = emit(tables)
    out_dir = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(out_dir, exist_ok=True)
    # Write-then-rename so an interrupted build never leaves a truncated source behind.
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".opset_table_data.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
