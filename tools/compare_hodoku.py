#!/usr/bin/env python3
"""Levels and speed of `sudoku-lab grade` against hodoku-py (HoDoKu 2.2.0's solver ported to
Python) on the same puzzles in the same run (docs/logic.md): the share of puzzles graded at
exactly HoDoKu's level and within one level, the pairs of levels, and the time per puzzle (median
and max) and in total, `sudoku-lab`'s start-up included.

hodoku-py lives in a virtual environment outside this repository:
    python3 -m venv /tmp/hvenv && /tmp/hvenv/bin/pip install hodoku-py

usage: python3 tools/compare_hodoku.py FILE [--python /tmp/hvenv/bin/python]
           [--sudoku-lab target/release/sudoku-lab]
"""
import argparse
import statistics
import subprocess
import sys
import time
from collections import Counter

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]

# Runs in hodoku-py's interpreter: one line per puzzle, `level<TAB>seconds`.
HODOKU = """
import sys, time
from hodoku import Solver
s = Solver()
for line in open(sys.argv[1]):
    p = line.strip()
    if not p or p.startswith('#'):
        continue
    t = time.perf_counter()
    r = s.solve(p)
    print(f"{r.level.name.lower()}\\t{time.perf_counter() - t:.6f}", flush=True)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--python", default="/tmp/hvenv/bin/python")
    ap.add_argument("--sudoku-lab", default="target/release/sudoku-lab")
    a = ap.parse_args()
    t = time.perf_counter()
    ours = subprocess.run([a.sudoku_lab, "grade", "--csv", "--jobs", "1", a.file],
                          capture_output=True, text=True, check=True).stdout
    ours_total = time.perf_counter() - t
    rows = [l.split(",") for l in ours.splitlines()[1:]]
    t = time.perf_counter()
    theirs = subprocess.run([a.python, "-c", HODOKU, a.file],
                            capture_output=True, text=True, check=True).stdout
    theirs_total = time.perf_counter() - t
    hod = [l.split("\t") for l in theirs.splitlines()]
    if len(hod) != len(rows):
        sys.exit(f"{len(rows)} rows from sudoku-lab, {len(hod)} from hodoku-py")
    pairs = [(r[2], h[0]) for r, h in zip(rows, hod)]
    exact = sum(x == y for x, y in pairs)
    near = sum(abs(LEVELS.index(x) - LEVELS.index(y)) <= 1 for x, y in pairs
               if x in LEVELS and y in LEVELS)
    n = len(pairs)
    print(f"{a.file}: {n} puzzles, level exact {exact} ({100 * exact / n:.1f} %), "
          f"within one {near} ({100 * near / n:.1f} %)")
    print("pairs (sudoku-lab, hodoku-py):", dict(Counter(pairs).most_common()))
    ot = [float(r[10]) for r in rows]
    ht = [float(h[1]) for h in hod]
    print(f"time per puzzle, median / max: sudoku-lab {1e3 * statistics.median(ot):.2f} / "
          f"{1e3 * max(ot):.2f} ms, hodoku-py {1e3 * statistics.median(ht):.1f} / "
          f"{1e3 * max(ht):.1f} ms")
    print(f"total with start-up: sudoku-lab {ours_total:.2f} s, hodoku-py {theirs_total:.2f} s, "
          f"ratio {theirs_total / ours_total:.0f}x")


if __name__ == "__main__":
    main()
