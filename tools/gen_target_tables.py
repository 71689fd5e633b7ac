#!/usr/bin/env python3
"""Generate the embedded deployment-target tables of onnx-lint.

Usage: gen_target_tables.py TARGETS_DIR OUTPUT_CC

Reads every TARGETS_DIR/*.json target table (schema: TARGETS_DIR/README.md) and
TARGETS_DIR/extra_facts.json, validates them, and writes one C++ source file with flat constexpr
arrays that implements onnxlint::detail::generated_targets() (see include/onnxlint/targets.h).

The folder is globbed: adding or replacing a target table needs no change here. The output is
deterministic (targets sorted by id, ops by (domain, op); shared arrays are pooled). Standard
library only.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

EXTRA_FACTS_FILE = "extra_facts.json"
SEMANTICS = {
    None: "None",
    "op_since_version": "OpSinceVersion",
    "model_opset": "ModelOpset",
}
# extra_facts.json: per-target keys whose value is null or {"value": ..., "source": "..."}.
FACT_KEYS = {
    "requires_static_shapes": bool,
    "prefers_static_shapes": bool,
    "max_rank": int,
    "max_dim": int,
    "min_opset": dict,
    "max_opset": dict,
    "max_ir_version": int,
    "cpu_fallback": bool,
    "constant_folding": bool,
    "inlines_functions": bool,
    "extra_ops": list,
}
PLAIN_KEYS = {"display_name", "aliases", "comment", "version"}
# A versioned table ("tensorrt@8.6.json") takes these facts of its family's entry ("tensorrt")
# unless its own entry states them: properties of the runtime, not of one release. Opset and IR
# bounds and added operators belong to one release and are never inherited.
INHERITED_FACTS = ("requires_static_shapes", "prefers_static_shapes", "max_rank", "max_dim",
                   "cpu_fallback", "constant_folding", "inlines_functions")
VERSION_TEXT = re.compile(r"^[0-9]+(\.[0-9]+)*$")


class GenError(Exception):
    pass


def fail(msg: str) -> None:
    raise GenError(msg)


def cpp_str(s: str) -> str:
    """A C++ string_view literal. UTF-8 is kept as is; quotes, backslashes and controls escaped."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\%03o" % ord(ch))
        else:
            out.append(ch)
    out.append('"sv')
    return "".join(out)


def split_key(key: str, where: str) -> tuple[str, str]:
    if key.count("::") != 1:
        fail(f"{where}: key {key!r} is not '<domain>::<Op>'")
    domain, op = key.split("::")
    if not op:
        fail(f"{where}: key {key!r} has an empty op name")
    if domain == "ai.onnx":
        domain = ""
    return domain, op


def parse_range(r, where: str) -> tuple[int, int]:
    if not (isinstance(r, list) and len(r) == 2):
        fail(f"{where}: version range {r!r} is not [from, to|null]")
    lo, hi = r
    if not isinstance(lo, int) or isinstance(lo, bool) or lo < 1:
        fail(f"{where}: bad range start {lo!r}")
    if hi is None:
        return lo, 0
    if not isinstance(hi, int) or isinstance(hi, bool) or hi < lo:
        fail(f"{where}: bad range end {hi!r}")
    return lo, hi


def parse_opsets(value, where: str) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        fail(f"{where}: opset bounds must be an object {{domain: N}}")
    out = {}
    for dom, n in value.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            fail(f"{where}: bad opset {n!r} for domain {dom!r}")
        out["" if dom == "ai.onnx" else dom] = n
    return out


class Pools:
    """Deduplicated constexpr arrays, emitted before the targets that reference them."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[tuple, str] = {}

    def _add(self, kind: str, ctype: str, items: tuple, render) -> str:
        if not items:
            return "{}"
        key = (kind, items)
        name = self.names.get(key)
        if name is None:
            name = f"k{kind}{len(self.names)}"
            self.names[key] = name
            body = ", ".join(render(x) for x in items)
            self.lines.append(f"constexpr {ctype} {name}[] = {{{body}}};")
        return name

    def strings(self, items) -> str:
        return self._add("S", "std::string_view", tuple(items), cpp_str)

    def ints(self, items) -> str:
        return self._add("I", "int", tuple(items), str)

    def ranges(self, items) -> str:
        return self._add("V", "VersionRange", tuple(items), lambda r: f"{{{r[0]}, {r[1]}}}")

    def params(self, items) -> str:
        # items: tuple of (param, types-tuple), sorted by param
        for _, types in items:
            self.strings(types)
        return self._add("P", "TypeParamTypes", tuple(items),
                         lambda p: f"{{.param = {cpp_str(p[0])}, .types = {self.strings(p[1])}}}")

    def typed_ranges(self, items) -> str:
        # items: tuple of ((from, to), types-tuple, params-tuple)
        def render(item):
            (lo, hi), types, params = item
            return (f"{{.versions = {{{lo}, {hi}}}, .types = {self.strings(types)}, "
                    f".params = {self.params(params)}}}")

        # Make sure the nested pools are emitted first.
        for _, types, params in items:
            self.strings(types)
            self.params(params)
        return self._add("T", "TypedRange", tuple(items), render)

    def opsets(self, items) -> str:
        return self._add("D", "DomainOpset", tuple(items), lambda d: f"{{{cpp_str(d[0])}, {d[1]}}}")

    def facts(self, items) -> str:
        return self._add("F", "FactSource", tuple(items),
                         lambda f: f"{{{cpp_str(f[0])}, {cpp_str(f[1])}}}")


def load_json(path: pathlib.Path):
    try:
        with path.open(encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: {e}")


def load_extra_facts(path: pathlib.Path) -> dict:
    if not path.exists():
        return {}
    data = load_json(path)
    if data.get("schema_version") != 1:
        fail(f"{path}: schema_version must be 1")
    targets = data.get("targets")
    if not isinstance(targets, dict):
        fail(f"{path}: 'targets' must be an object")
    for tid, facts in targets.items():
        where = f"{path.name}: {tid}"
        if not isinstance(facts, dict):
            fail(f"{where}: must be an object")
        for key, val in facts.items():
            if key in PLAIN_KEYS:
                continue
            if key not in FACT_KEYS:
                fail(f"{where}: unknown key {key!r}")
            if val is None:
                continue
            if not (isinstance(val, dict) and set(val) == {"value", "source"}):
                fail(f"{where}.{key}: must be null or {{\"value\": ..., \"source\": \"...\"}}")
            if not isinstance(val["source"], str) or not val["source"].strip():
                fail(f"{where}.{key}: a stated fact needs a non-empty source")
            want = FACT_KEYS[key]
            v = val["value"]
            if want is int and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
                fail(f"{where}.{key}: value must be a positive integer")
            if want is bool and not isinstance(v, bool):
                fail(f"{where}.{key}: value must be true or false")
            if want is dict:
                parse_opsets(v, f"{where}.{key}")
            if want is list:
                if not isinstance(v, list) or not v:
                    fail(f"{where}.{key}: value must be a non-empty list")
                for item in v:
                    if not (isinstance(item, dict) and set(item) == {"op", "versions"}):
                        fail(f"{where}.{key}: each entry must be {{\"op\": \"<domain>::<Op>\", "
                             f"\"versions\": [[from, to|null], ...] | null}}")
        aliases = facts.get("aliases", [])
        if not (isinstance(aliases, list) and all(isinstance(a, str) and a for a in aliases)):
            fail(f"{where}: aliases must be a list of non-empty strings")
        if any("@" in a for a in aliases):
            fail(f"{where}: an alias may not contain '@' (it separates a target from a version)")
        if "version" in facts and not VERSION_TEXT.match(str(facts["version"])):
            fail(f"{where}: version {facts['version']!r} is not dotted numbers")
    return targets


def split_target_id(tid: str) -> tuple[str, str]:
    """("tensorrt", "8.6") for "tensorrt@8.6"; (tid, "") for an unversioned id."""
    if "@" not in tid:
        return tid, ""
    family, version = tid.split("@", 1)
    if not family or not VERSION_TEXT.match(version):
        fail(f"{tid}: a versioned table is named '<family>@<dotted version>'")
    return family, version


def facts_for(tid: str, extra: dict) -> dict:
    """The extra facts of one table: its own entry, plus, for a versioned table, the
    runtime-wide facts of its family's entry (INHERITED_FACTS) that its own entry leaves out."""
    family, version = split_target_id(tid)
    own = dict(extra.get(tid, {}))
    if not version:
        return own
    if "aliases" in own:
        fail(f"{EXTRA_FACTS_FILE}: {tid}: a versioned table has no aliases of its own "
             f"(every name of {family!r} takes '@{version}')")
    base = extra.get(family, {})
    for key in INHERITED_FACTS:
        if key not in own and base.get(key) is not None:
            own[key] = base[key]
    own["version"] = version
    if "display_name" not in own:
        # "TensorRT 10.15" -> "TensorRT 8.6"; a family name without its version gets one.
        name = base.get("display_name") or family
        newest = str(base.get("version", ""))
        if newest and name.endswith(newest):
            own["display_name"] = name[: -len(newest)] + version
        else:
            own["display_name"] = f"{name} {version}"
    return own


def build_target(index: int, path: pathlib.Path, facts: dict, pools: Pools) -> tuple[str, str, dict]:
    """Returns (id, C++ initializer of one TargetInfo, summary)."""
    d = load_json(path)
    where = path.name
    tid = d.get("target")
    if tid != path.stem:
        fail(f"{where}: 'target' is {tid!r}, expected the file name {path.stem!r}")
    family, _ = split_target_id(tid)
    if d.get("schema_version") != 1:
        fail(f"{where}: schema_version must be 1")
    sem = d.get("version_semantics")
    if sem not in SEMANTICS:
        fail(f"{where}: unknown version_semantics {sem!r}")
    versions_specified = bool(d.get("versions_specified"))
    if versions_specified and sem is None:
        fail(f"{where}: versions_specified is true but version_semantics is missing")
    operators = d.get("operators")
    if not isinstance(operators, dict):
        fail(f"{where}: 'operators' must be an object")

    # Operators the source document misses, added by extra_facts.json with their own source.
    extra_ops = facts.get("extra_ops")
    operators = dict(operators)
    if extra_ops is not None:
        for item in extra_ops["value"]:
            if item["op"] in operators:
                fail(f"{EXTRA_FACTS_FILE}: {tid}.extra_ops: {item['op']} is already in the table")
            operators[item["op"]] = {"versions": item["versions"]}

    op_entries = []
    domains = set()
    for key in operators:
        o = operators[key]
        domain, op = split_key(key, where)
        domains.add(domain)
        w = f"{where}: {key}"
        versions = o.get("versions")
        if versions is None:
            known = False
            vr = ()
        else:
            if not isinstance(versions, list) or not versions:
                fail(f"{w}: versions must be a non-empty list or null")
            known = True
            vr = tuple(sorted(parse_range(r, w) for r in versions))
        if known and sem is None:
            fail(f"{w}: has versions but the table has no version_semantics")
        types = o.get("types", [])
        if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
            fail(f"{w}: types must be a list of strings")
        typed = []
        for r in o.get("ranges", []):
            lo_hi = parse_range(r.get("versions"), w)
            constraints = r.get("type_constraints", {})
            if not isinstance(constraints, dict) or not all(
                    isinstance(ts, list) and all(isinstance(t, str) for t in ts)
                    for ts in constraints.values()):
                fail(f"{w}: type_constraints must map a type parameter to a list of strings")
            union = sorted({t for ts in constraints.values() for t in ts})
            # Per type parameter (e.g. Pad's T), so that a fixed-type input such as Pad's int64
            # `pads` is never checked against T's list.
            params = tuple(sorted((p, tuple(sorted(set(ts)))) for p, ts in constraints.items()))
            typed.append((lo_hi, tuple(union), params))
        typed.sort()
        newer = o.get("newer_onnx_versions_not_registered", [])
        if not all(isinstance(n, int) for n in newer):
            fail(f"{w}: newer_onnx_versions_not_registered must be integers")
        # Every field is spelled out (GCC's -Wmissing-field-initializers also fires for
        # designated initializers that rely on default member initializers).
        def text(k):
            return cpp_str(str(o[k])) if o.get(k) else '""sv'

        fields = [
            f".domain = {cpp_str(domain)}",
            f".op = {cpp_str(op)}",
            f".versions_known = {'true' if known else 'false'}",
            f".versions = {pools.ranges(vr)}",
            f".types = {pools.strings(types)}",
            f".typed_ranges = {pools.typed_ranges(tuple(typed))}",
            f".notes = {text('notes')}",
            f".status = {text('status')}",
            f".has_constraints = {'true' if o.get('has_constraints') else 'false'}",
            f".custom_op_fallback = {'true' if o.get('custom_op_fallback') else 'false'}",
            f".unregistered_newer_versions = {pools.ints(sorted(newer))}",
            f".min_hw_level = {text('min_nnpa_level')}",
            f".max_hw_level = {text('max_nnpa_level')}",
        ]
        op_entries.append(((domain, op), "{" + ", ".join(fields) + "}"))

    op_entries.sort(key=lambda e: e[0])
    for a, b in zip(op_entries, op_entries[1:]):
        if a[0] == b[0]:
            fail(f"{where}: duplicate operator {a[0]!r}")

    unsupported = []
    supported_keys = {e[0] for e in op_entries}
    for key in d.get("unsupported") or []:
        domain, op = split_key(key, where)
        domains.add(domain)
        if (domain, op) in supported_keys:
            fail(f"{where}: {key} is both supported and listed unsupported")
        unsupported.append(f"{domain}::{op}")
    unsupported = sorted(set(unsupported))

    # Target-wide opset bounds: the table's own values, plus extra facts for other domains.
    fact_sources = []
    bounds = {}
    for key in ("min_opset", "max_opset"):
        merged = parse_opsets(d.get(key), f"{where}: {key}")
        fact = facts.get(key)
        if fact is not None:
            for dom, n in parse_opsets(fact["value"], f"{EXTRA_FACTS_FILE}: {tid}.{key}").items():
                if dom in merged and merged[dom] != n:
                    fail(f"{EXTRA_FACTS_FILE}: {tid}.{key}[{dom!r}] = {n} contradicts the "
                         f"table's {merged[dom]}")
                merged[dom] = n
            fact_sources.append((key, fact["source"]))
        bounds[key] = tuple(sorted(merged.items()))

    def fact_value(key, default):
        fact = facts.get(key)
        if fact is None:
            return default
        fact_sources.append((key, fact["source"]))
        return fact["value"]

    requires_static = fact_value("requires_static_shapes", False)
    prefers_static = fact_value("prefers_static_shapes", False)
    max_rank = fact_value("max_rank", 0)
    max_dim = fact_value("max_dim", 0)
    max_ir = fact_value("max_ir_version", 0)
    cpu_fallback = fact_value("cpu_fallback", False)
    constant_folding = fact_value("constant_folding", False)
    inlines_functions = fact_value("inlines_functions", False)
    if extra_ops is not None:
        fact_sources.append(("extra_ops", extra_ops["source"]))
    fact_sources.sort()

    src = d.get("source") or {}
    if not isinstance(src, dict):
        fail(f"{where}: 'source' must be an object")
    display = facts.get("display_name") or f"{d.get('runtime', tid)} {d.get('runtime_version', '')}"
    ops_name = f"kOps{index}"
    pools.lines.append(f"constexpr TargetOp {ops_name}[] = {{")
    pools.lines.extend(f"    {e[1]}," for e in op_entries)
    pools.lines.append("};")

    notes = d.get("global_notes") or []
    fields = [
        f".id = {cpp_str(tid)}",
        f".display_name = {cpp_str(display.strip())}",
        f".runtime = {cpp_str(str(d.get('runtime', '')))}",
        f".runtime_version = {cpp_str(str(d.get('runtime_version', '')))}",
        f".family = {cpp_str(family)}",
        f".version = {cpp_str(str(facts.get('version', '')))}",
        f".source_repo = {cpp_str(str(src.get('repo', '')))}",
        f".source_path = {cpp_str(str(src.get('path', '')))}",
        f".source_version = {cpp_str(str(src.get('commit_or_version', '')))}",
        f".aliases = {pools.strings(facts.get('aliases', []))}",
        f".semantics = VersionSemantics::{SEMANTICS[sem]}",
        f".versions_specified = {'true' if versions_specified else 'false'}",
        f".min_opset = {pools.opsets(bounds['min_opset'])}",
        f".max_opset = {pools.opsets(bounds['max_opset'])}",
        f".max_ir_version = {max_ir}",
        f".requires_static_shapes = {'true' if requires_static else 'false'}",
        f".prefers_static_shapes = {'true' if prefers_static else 'false'}",
        f".max_rank = {max_rank}",
        f".max_dim = {max_dim}",
        f".cpu_fallback = {'true' if cpu_fallback else 'false'}",
        f".constant_folding = {'true' if constant_folding else 'false'}",
        f".inlines_functions = {'true' if inlines_functions else 'false'}",
        f".global_notes = {pools.strings(notes)}",
        f".ops = {ops_name if op_entries else '{}'}",
        f".unsupported = {pools.strings(unsupported)}",
        f".covered_domains = {pools.strings(sorted(domains))}",
        f".extra_fact_sources = {pools.facts(fact_sources)}",
    ]
    init = "    {\n" + "".join(f"        {f},\n" for f in fields) + "    }"
    summary = {"ops": len(op_entries), "unsupported": len(unsupported),
               "aliases": list(facts.get("aliases", []))}
    return tid, init, summary


def generate(targets_dir: pathlib.Path) -> str:
    extra = load_extra_facts(targets_dir / EXTRA_FACTS_FILE)
    files = sorted((p for p in targets_dir.glob("*.json") if p.name != EXTRA_FACTS_FILE),
                   key=lambda p: p.stem)
    if not files:
        fail(f"{targets_dir}: no target tables (*.json)")
    ids = {p.stem for p in files}
    for tid in extra:
        if tid not in ids:
            fail(f"{EXTRA_FACTS_FILE}: facts for unknown target {tid!r}")
    # Every versioned table belongs to an unversioned one (the newest, what '--target tensorrt'
    # means; it states its own release when its source names one), and no two tables of a
    # family share a version.
    versions: dict[str, dict[str, str]] = {}
    for tid in sorted(ids):
        family, version = split_target_id(tid)
        if not version:
            version = str(extra.get(tid, {}).get("version", ""))
            if not version:
                continue
        elif family not in ids:
            fail(f"{tid}: no table {family!r} for the family of this versioned table")
        seen = versions.setdefault(family, {})
        if version in seen:
            fail(f"{tid}: version {version} of {family!r} is also {seen[version]!r}")
        seen[version] = tid

    pools = Pools()
    inits = []
    seen_names: dict[str, str] = {}
    for index, p in enumerate(files):
        tid, init, summary = build_target(index, p, facts_for(p.stem, extra), pools)
        # An alias may repeat the target's own id (e.g. "tensorrt"); other clashes are errors.
        names = [tid] + [a for a in summary["aliases"] if a != tid]
        for name in names:
            if name in seen_names:
                fail(f"name {name!r} is used by both {seen_names[name]!r} and {tid!r}")
            seen_names[name] = tid
        inits.append(init)

    out = [
        "// GENERATED by tools/gen_target_tables.py from rules/tables/targets/*.json. DO NOT EDIT.",
        "// NOLINTBEGIN",
        '#include <span>',
        '#include <string_view>',
        "",
        '#include "onnxlint/targets.h"',
        "",
        "namespace onnxlint {",
        "namespace {",
        "",
        "using namespace std::string_view_literals;",
        "",
    ]
    out.extend(pools.lines)
    out.append("")
    out.append("constexpr TargetInfo kTargets[] = {")
    out.extend(i + "," for i in inits)
    out.append("};")
    out.append("")
    out.append("}  // namespace")
    out.append("")
    out.append("namespace detail {")
    out.append("std::span<const TargetInfo> generated_targets() { return kTargets; }")
    out.append("}  // namespace detail")
    out.append("}  // namespace onnxlint")
    out.append("// NOLINTEND")
    out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    targets_dir = pathlib.Path(argv[1])
    output = pathlib.Path(argv[2])
    try:
        text = generate(targets_dir)
    except GenError as e:
        print(f"gen_target_tables.py: error: {e}", file=sys.stderr)
        return 1
    output.parent.mkdir(parents=True, exist_ok=True)
    # Always (re)write: the build system compares the output's timestamp with its inputs.
    output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
