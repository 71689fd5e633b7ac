#!/usr/bin/env python3
"""Build a versioned OpenVINO ONNX-frontend target table from the frontend's own registration code.

Usage:
    extract_openvino_ops.py --ops-bridge ops_bridge.cpp [--transform-hpp transform.hpp]
        --onnx-max-opset N --release 2023.3 --runtime-version "OpenVINO 2023.3"
        --repo R --path P --commit C --provenance TEXT [--onnx-operators FILE] -o OUT.json

Input: src/frontends/onnx/frontend/src/ops_bridge.cpp of an OpenVINO source tree from the era when
every translator was registered in the OperatorsBridge constructor (up to the 2024.0 development
cycle): `register_operator("Abs", VersionRange{1, 5}, ...)`, `REGISTER_OPERATOR("Asin", 1, asin)`,
`REGISTER_OPERATOR_WITH_DOMAIN(MICROSOFT_DOMAIN, "Attention", 1, attention)`,
`register_operator_in_custom_domain("QuantizeLinear", VersionRange::since(1), ..., "com.microsoft")`.
Optionally src/frontends/onnx/frontend/src/core/transform.hpp, whose `onnx_functions_to_expand`
list names the ONNX ops the frontend converts by expanding their ONNX function body before
translation.

Output: the same schema and semantics as rules/tables/targets/openvino.json (version_semantics
model_opset; per-op registered_versions, registered_ranges, onnx_defined_versions,
newer_onnx_versions_not_registered; "unsupported" = ONNX default-domain ops defined up to the
bundled ONNX's opset that have neither a translator nor function expansion). The ONNX schema data
(since-versions, function bodies) come from rules/tables/onnx-operators.json, cut at
--onnx-max-opset (the opset of the ONNX library the release bundles).

As in the frontend's own supported_ops.md generator (check_supported_ops.py), a default-domain
translator registered below the op's first ONNX version is shown at that first version (OpenVINO
registered e.g. Asin under its internal set_1 namespace; ONNX defines Asin since 7).

Standard library only. Deterministic output (sorted keys where order carries no meaning).
"""

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ONNX_OPERATORS = os.path.join(HERE, "..", "rules", "tables", "onnx-operators.json")

DOMAIN_CONSTANTS = {
    "OPENVINO_ONNX_DOMAIN": "org.openvinotoolkit",
    "MICROSOFT_DOMAIN": "com.microsoft",
    "PYTORCH_ATEN_DOMAIN": "org.pytorch.aten",
    "MMDEPLOY_DOMAIN": "mmdeploy",
}

OPEN = None  # open upper bound (the frontend's LATEST_SUPPORTED_ONNX_OPSET_VERSION and beyond)


def fail(msg):
    sys.stderr.write(f"extract_openvino_ops: {msg}\n")
    sys.exit(1)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def constructor_body(text):
    m = re.search(r"OperatorsBridge::OperatorsBridge\(\)\s*\{", text)
    if not m:
        fail("OperatorsBridge constructor not found")
    depth, i = 1, m.end()
    while depth and i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[m.end():i - 1]


def split_statements(body):
    """Top-level calls of the constructor, whitespace collapsed. A call ends at its closing
    parenthesis: the registration macros expand to complete statements, so the source does not
    always put a ';' after them (2023.3: `REGISTER_OPERATOR("IsNaN", 1, is_nan)`)."""
    out, cur, depth = [], [], 0
    for ch in body:
        if ch == ";" and depth == 0:
            if " ".join("".join(cur).split()):
                fail(f"statement that is not a call: {''.join(cur).strip()}")
            cur = []
            continue
        cur.append(ch)
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0 and ch == ")":
                out.append(" ".join("".join(cur).split()))
                cur = []
    if " ".join("".join(cur).split()):
        fail("unterminated statement at the end of the constructor")
    return out


def parse_range(expr):
    """VersionRange expression -> (since, until or OPEN)."""
    expr = expr.strip()
    m = re.fullmatch(r"VersionRange\s*\{\s*(\d+)\s*,\s*(\d+)\s*\}", expr) or \
        re.fullmatch(r"VersionRange\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)", expr)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.fullmatch(r"VersionRange::(since|until|in)\(\s*(\d+)\s*\)", expr)
    if m:
        kind, v = m.group(1), int(m.group(2))
        return {"since": (v, OPEN), "until": (1, v), "in": (v, v)}[kind]
    if re.fullmatch(r"VersionRange::single_version_for_all_opsets\(\s*\)", expr):
        return 1, OPEN
    fail(f"unknown VersionRange expression: {expr}")


def split_args(s):
    args, cur, depth, quoted = [], [], 0, False
    for ch in s:
        if ch == '"':
            quoted = not quoted
        if not quoted:
            if ch in "({":
                depth += 1
            elif ch in ")}":
                depth -= 1
            elif ch == "," and depth == 0:
                args.append("".join(cur).strip())
                cur = []
                continue
        cur.append(ch)
    args.append("".join(cur).strip())
    return args


def unquote(s, what):
    m = re.fullmatch(r'"([^"]*)"', s.strip())
    if not m:
        fail(f"expected a string literal for {what}, got {s}")
    return m.group(1)


def parse_ops_bridge(text):
    """-> list of (domain, op, since, until_or_OPEN, warning)"""
    regs = []
    for st in split_statements(constructor_body(strip_comments(text))):
        m = re.fullmatch(r"(\w+)\s*\((.*)\)", st)
        if not m:
            fail(f"unrecognised statement in the constructor: {st}")
        fn, args = m.group(1), split_args(m.group(2))
        if fn == "REGISTER_OPERATOR":
            name, ver = unquote(args[0], fn), int(args[1])
            # One version registered; find() walks down from the model opset, so it serves every
            # later opset up to the next registration.
            regs.append(("", name, ver, OPEN, ""))
        elif fn == "REGISTER_OPERATOR_WITH_DOMAIN":
            dom = DOMAIN_CONSTANTS.get(args[0]) or unquote(args[0], "domain")
            regs.append((dom, unquote(args[1], fn), int(args[2]), OPEN, ""))
        elif fn == "register_operator":
            since, until = parse_range(args[1])
            warn = unquote(args[3], "warning") if len(args) > 3 else ""
            regs.append(("", unquote(args[0], fn), since, until, warn))
        elif fn == "register_operator_in_custom_domain":
            since, until = parse_range(args[1])
            dom = DOMAIN_CONSTANTS.get(args[3]) or unquote(args[3], "domain")
            warn = unquote(args[4], "warning") if len(args) > 4 else ""
            regs.append((dom, unquote(args[0], fn), since, until, warn))
        else:
            fail(f"unknown registration call {fn}: {st}")
    return regs


def parse_functions_to_expand(text):
    m = re.search(r"onnx_functions_to_expand\s*=\s*\{(.*?)\}", strip_comments(text), flags=re.S)
    if not m:
        fail("onnx_functions_to_expand not found")
    return re.findall(r'"([^"]+)"', m.group(1))


def onnx_schema(path, max_opset):
    """default domain: op -> list of (since_version, has_function_body) up to max_opset."""
    data = json.load(open(path))
    ops = {}
    for op, schemas in data["domains"][""]["operators"].items():
        vs = [(s["since_version"], bool(s.get("has_function") or s.get("has_context_dependent_function")),
               bool(s.get("deprecated")))
              for s in schemas if s["since_version"] <= max_opset]
        if vs:
            ops[op] = sorted(vs)
    return ops, data.get("onnx_version"), data.get("source")


def registered_starts(regs):
    """Registration start versions, and the highest covered opset when no registration is
    open-ended (VersionRange{a, b} / ::in / ::until only), else None."""
    starts = sorted({r[2] for r in regs})
    closed_at = None if any(r[3] is OPEN for r in regs) else max(r[3] for r in regs)
    return starts, closed_at


def ranges_from_starts(starts, closed_at):
    out = []
    for i, s in enumerate(starts):
        hi = starts[i + 1] - 1 if i + 1 < len(starts) else closed_at
        out.append([s, hi])
    return out


def build(args):
    text = open(args.ops_bridge, encoding="utf-8").read()
    regs = parse_ops_bridge(text)
    raw_calls = len(re.findall(r"\b(REGISTER_OPERATOR|REGISTER_OPERATOR_WITH_DOMAIN|register_operator|"
                               r"register_operator_in_custom_domain)\s*\(",
                               constructor_body(strip_comments(text))))
    if raw_calls != len(regs):
        fail(f"parsed {len(regs)} registrations but the constructor has {raw_calls} calls")
    expand = parse_functions_to_expand(open(args.transform_hpp).read()) if args.transform_hpp else []
    schema, onnx_version, onnx_source = onnx_schema(args.onnx_operators, args.onnx_max_opset)

    by_key = {}
    for dom, op, since, until, warn in regs:
        by_key.setdefault((dom, op), []).append((dom, op, since, until, warn))

    operators = {}
    for (dom, op), rs in sorted(by_key.items()):
        starts, closed_at = registered_starts(rs)
        entry = {}
        defined = [v for v, _, _ in schema.get(op, [])] if dom == "" else []
        if defined:
            first = defined[0]
            if first not in starts:
                starts = sorted({max(s, first) for s in starts})
            if closed_at is not None and closed_at < first:
                fail(f"{op}: registered only below its first ONNX version")
        rr = ranges_from_starts(starts, closed_at)
        entry["versions"] = [[starts[0], closed_at]]
        entry["registered_versions"] = starts
        entry["registered_ranges"] = rr
        if defined:
            entry["onnx_defined_versions"] = defined
            newer = [v for v in defined if v not in starts and v > starts[0]
                     and (closed_at is None or v <= closed_at)]
            if newer:
                entry["newer_onnx_versions_not_registered"] = newer
        warns = sorted({w for *_, w in rs if w})
        if warns:
            entry["notes"] = "; ".join(w.rstrip(";. ") for w in warns)
        if dom == "" and op not in schema:
            entry.setdefault("notes", "")
            entry["notes"] = (entry["notes"] + "; " if entry["notes"] else "") + \
                f"not an ONNX default-domain op name ({onnx_version_label(args)})"
        operators[f"{dom}::{op}"] = entry

    for op in expand:
        key = f"::{op}"
        fn_versions = [v for v, has_fn, _ in schema.get(op, []) if has_fn]
        if not fn_versions:
            continue  # no function body at any opset this ONNX defines: nothing to expand
        defined = [v for v, _, _ in schema[op]]
        if key in operators:
            operators[key]["notes"] = (operators[key].get("notes", "") + "; " if operators[key].get("notes")
                                       else "") + "also expanded from its ONNX function body"
            continue
        operators[key] = {
            "versions": [[fn_versions[0], None]],
            "registered_versions": [],
            "registered_ranges": [],
            "onnx_defined_versions": defined,
            "expanded_onnx_function_versions": fn_versions,
            "notes": "no translator: the frontend expands the ONNX function body (onnx_functions_to_expand)",
        }
        nonfn = [v for v in defined if v > fn_versions[0] and v not in fn_versions]
        if nonfn:
            operators[key]["newer_onnx_versions_not_registered"] = nonfn

    supported_ops = {k.split("::", 1)[1] for k in operators if k.startswith("::")}
    unsupported = sorted(f"::{op}" for op in schema if op not in supported_ops)

    counts = {}
    for k in operators:
        d = k.split("::", 1)[0] or "ai.onnx"
        counts[d] = counts.get(d, 0) + 1

    table = {
        "schema_version": 1,
        "target": f"openvino@{args.release}",
        "runtime": "Intel OpenVINO ONNX frontend",
        "runtime_version": args.runtime_version,
        "source": {
            "repo": args.repo,
            "path": args.path,
            "commit_or_version": args.commit,
            "provenance": args.provenance,
            "extractor": "tools/extract_openvino_ops.py (registrations in the OperatorsBridge constructor"
                         + (", onnx_functions_to_expand in core/transform.hpp" if expand else "") + ")",
            "onnx_schema": f"rules/tables/onnx-operators.json (ONNX {onnx_version}, {onnx_source}) "
                           f"cut at opset {args.onnx_max_opset}, the opset of the ONNX library the release bundles"
                           + (f" ({args.bundled_onnx})" if args.bundled_onnx else ""),
        },
        "versions_specified": True,
        "version_semantics": "model_opset",
        "global_notes": [
            "ONNX frontend picks the translator with the largest registered version <= the model opset, so an op "
            "is accepted at any opset >= its lowest registered version; 'newer_onnx_versions_not_registered' lists "
            "ONNX schema versions handled by an older translator (new attributes/types of those versions may be "
            "unsupported)",
            f"default-domain opsets above {args.onnx_max_opset} fall back to the opset-{args.onnx_max_opset} "
            "translators with a warning (LATEST_SUPPORTED_ONNX_OPSET_VERSION = the bundled ONNX's opset)",
            "extracted from the translator registrations, not from a support document: no limitation notes "
            "beyond the registration warnings; 'unsupported' lists the ONNX default-domain ops (up to the bundled "
            "opset) with neither a translator nor function expansion",
            "legacy models may use the org.openvinotoolkit ops (DetectionOutput, PriorBox, ...) in the default "
            "domain: the frontend moves them to org.openvinotoolkit before translation",
            "no per-op data types are documented; device plugins (CPU/GPU/NPU) add their own limits",
        ],
        "operators": operators,
        "unsupported": unsupported,
    }
    return table, counts, len(regs)


def onnx_version_label(args):
    return args.bundled_onnx or f"opset {args.onnx_max_opset}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ops-bridge", required=True)
    p.add_argument("--transform-hpp")
    p.add_argument("--onnx-operators", default=DEFAULT_ONNX_OPERATORS)
    p.add_argument("--onnx-max-opset", type=int, required=True)
    p.add_argument("--bundled-onnx", default="", help="e.g. 'ONNX 1.15.0'")
    p.add_argument("--release", required=True)
    p.add_argument("--runtime-version", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--path", required=True)
    p.add_argument("--commit", required=True)
    p.add_argument("--provenance", required=True)
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args()
    table, counts, nregs = build(args)
    with open(args.output, "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    print(f"{args.output}: {len(table['operators'])} ops {dict(sorted(counts.items()))} from {nregs} "
          f"registrations; {len(table['unsupported'])} unsupported")


if __name__ == "__main__":
    main()
