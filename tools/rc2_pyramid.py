#!/usr/bin/env python3
"""Anchor for docs/benchmarks.md: PySAT's RC2 MaxSAT solver (stratified, Glucose 4) proving the
NOIP 2009 pyramid optimum of the empty 9x9 grid (2906) on a plain pairwise one-hot encoding, where
cell c holding digit d violates a soft clause of cost weight(c) * (9 - d).

usage: python3 tools/rc2_pyramid.py [--runs 5] [--solver g4] [--wcnf FILE]
       (needs `pip install python-sat`; --wcnf solves that WCNF file instead)
"""
import argparse
import statistics
import time

from pysat.examples.rc2 import RC2Stratified
from pysat.formula import WCNF


def pyramid_wcnf():
    n = 9

    def x(r, c, d):
        return (r * n + c) * n + d  # d in 1..9

    w = WCNF()
    houses = []
    for i in range(n):
        houses.append([(i, j) for j in range(n)])
        houses.append([(j, i) for j in range(n)])
        br, bc = 3 * (i // 3), 3 * (i % 3)
        houses.append([(br + a, bc + b) for a in range(3) for b in range(3)])
    for r in range(n):
        for c in range(n):
            w.append([x(r, c, d) for d in range(1, n + 1)])
            for d in range(1, n + 1):
                for e in range(d + 1, n + 1):
                    w.append([-x(r, c, d), -x(r, c, e)])
    for h in houses:
        for d in range(1, n + 1):
            w.append([x(r, c, d) for r, c in h])
            for i in range(len(h)):
                for j in range(i + 1, len(h)):
                    w.append([-x(*h[i], d), -x(*h[j], d)])
    for r in range(n):
        for c in range(n):
            weight = 6 + min(r, c, n - 1 - r, n - 1 - c)
            for d in range(1, n):
                w.append([-x(r, c, d)], weight=weight * (n - d))
    return w, sum(6 + min(r, c, 8 - r, 8 - c) for r in range(9) for c in range(9)) * 9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--solver", default="g4")
    p.add_argument("--wcnf")
    p.add_argument("--amx", action="store_true",
                   help="RC2's -amx: AtMost1 detection, core exhaustion, core minimisation")
    a = p.parse_args()
    if a.wcnf:
        formula, full = WCNF(from_file=a.wcnf), None
    else:
        formula, full = pyramid_wcnf()
    times = []
    for _ in range(a.runs):
        start = time.monotonic()
        with RC2Stratified(formula, solver=a.solver, adapt=a.amx, exhaust=a.amx,
                           minz=a.amx) as rc2:
            rc2.compute()
            cost = rc2.cost
        times.append(time.monotonic() - start)
    what = f"score {full - cost}" if full is not None else f"cost {cost}"
    print(f"RC2Stratified ({a.solver}): optimum {what}, median {statistics.median(times):.3f} s "
          f"over {a.runs} runs (min {min(times):.3f} s)")


if __name__ == "__main__":
    main()
