#!/usr/bin/env python3
"""ort.expressions: the evaluator of onnx-lint's dim expressions in tools/ort/check_fixed_dims.py
(the forms lib/analysis/provenance.cc renders), and a mismatch it must report."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "ort"))
from check_fixed_dims import Unevaluable, parse_expr  # noqa: E402

ENV = {"N": 3, "H": 97, "W": 64, "seq": 5, "past": 7, "batch": 2, "L": 5}
CASES = [
    ("N", 3), ("(H-2)/2+1", 48), ("(W-2)/2+1", 32), ("seq+past", 12), ("8*batch", 16),
    ("16*batch/batch", 16), ("ceil(L/2)", 3), ("max(seq, past)", 7), ("min(seq, past)", 5),
    ("seq-past", -2), ("(seq-past)/2", -1),  # Div truncates toward zero
    ("seq%past", 5), ("(seq-past)%3", 1),  # Mod takes the divisor's sign
    ("N*(H-1)", 288), ("N-(H-W)", -30), ("2*N+1", 7),
]
NOT_EVALUABLE = ["f(H, W)", "?", "N+", "unknown_dim+1", "H/(N-3)", "ceil(H)", "N N", "a.b"]


def main():
    failures = 0
    for text, want in CASES:
        fn = parse_expr(text)
        got = None if fn is None else fn(ENV)
        ok = got == want
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {text} = {got} (want {want})")
    for text in NOT_EVALUABLE:
        fn = parse_expr(text)
        try:
            got = None if fn is None else fn(ENV)
        except Unevaluable:
            got = None
        ok = got is None
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {text} is not evaluated (got {got})")
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
