#!/usr/bin/env python3
"""Levels, hardest techniques and speed of `sudoku-lab grade` against hodoku-py (HoDoKu 2.2.0's
solver ported to Python) on the same puzzles in the same run (docs/logic.md): the share of
puzzles graded at exactly HoDoKu's level and within one level, the pairs of levels, the hardest
technique side by side, and the time per puzzle (median and max) and in total, each program's
start-up included, and each program's start-up alone (the same command on an empty input).

hodoku-py lives in a virtual environment outside this repository; its side is
tools/hodoku_grade.py, run in that environment's interpreter:
    python3 -m venv /tmp/venv-hodoku && /tmp/venv-hodoku/bin/pip install hodoku-py

usage: python3 tools/compare_hodoku.py FILE... [--python /tmp/venv-hodoku/bin/python]
           [--sudoku-lab target/release/sudoku-lab] [--every K] [--per-level K]
Each FILE holds 9x9 puzzles, one per line; `--every K` takes every K-th of each file (both
programs the same ones). `--per-level K` first grades those with sudoku-lab (not timed) and keeps
the first K of each of its levels, a sample spread across the levels.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

LEVELS = ["easy", "medium", "hard", "unfair", "extreme"]
HERE = os.path.dirname(os.path.abspath(__file__))


def sample(paths, every, out):
    lines = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines += [l.strip()[:81] for l in f if l.strip() and not l.startswith("#")][::every]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def grade(binary, puzzles):
    out = subprocess.run([binary, "grade", "--csv", "--jobs", "1", puzzles],
                         capture_output=True, text=True, check=True).stdout
    head, *rows = [l.split(",") for l in out.splitlines()]
    return [dict(zip(head, r)) for r in rows]


def per_level(binary, lines, puzzles, k):
    """Keeps, in `puzzles`, the first k lines of each level sudoku-lab gives."""
    kept = {level: [] for level in LEVELS}
    for line, row in zip(lines, grade(binary, puzzles)):
        if len(kept[row["level"]]) < k:
            kept[row["level"]].append(line)
    with open(puzzles, "w") as f:
        f.write("\n".join(l for level in LEVELS for l in kept[level]) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--python", default="/tmp/venv-hodoku/bin/python")
    ap.add_argument("--sudoku-lab", default="target/release/sudoku-lab")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--per-level", type=int)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        puzzles = os.path.join(tmp, "puzzles.txt")
        lines = sample(a.files, a.every, puzzles)
        if a.per_level:
            per_level(a.sudoku_lab, lines, puzzles, a.per_level)
        t = time.perf_counter()
        ours = subprocess.run([a.sudoku_lab, "grade", "--csv", "--jobs", "1", puzzles],
                              capture_output=True, text=True, check=True).stdout
        ours_total = time.perf_counter() - t
        t = time.perf_counter()
        theirs = subprocess.run([a.python, os.path.join(HERE, "hodoku_grade.py"), puzzles],
                                capture_output=True, text=True, check=True).stdout
        theirs_total = time.perf_counter() - t
        # Each program's start-up alone: the same commands on an empty input.
        empty = os.path.join(tmp, "empty.txt")
        open(empty, "w").close()
        t = time.perf_counter()
        subprocess.run([a.sudoku_lab, "grade", "--csv", "--jobs", "1", empty], capture_output=True)
        ours_start = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([a.python, os.path.join(HERE, "hodoku_grade.py"), empty],
                       capture_output=True, check=True)
        theirs_start = time.perf_counter() - t
    head, *rows = [l.split(",") for l in ours.splitlines()]
    rows = [dict(zip(head, r)) for r in rows]
    hod = [json.loads(l) for l in theirs.splitlines()]
    if len(hod) != len(rows):
        sys.exit(f"{len(rows)} rows from sudoku-lab, {len(hod)} from hodoku-py")
    pairs = [(r["level"], h["level"]) for r, h in zip(rows, hod)]
    exact = sum(x == y for x, y in pairs)
    near = sum(abs(LEVELS.index(x) - LEVELS.index(y)) <= 1 for x, y in pairs
               if x in LEVELS and y in LEVELS)
    n = len(pairs)
    print(f"{' '.join(a.files)} (every {a.every}, per level {a.per_level}): {n} puzzles, level exact {exact} "
          f"({100 * exact / n:.1f} %), within one {near} ({100 * near / n:.1f} %)")
    print("levels (sudoku-lab, hodoku-py):", dict(Counter(pairs).most_common()))
    hardest = Counter((r["hardest"], (h["hardest"] or "-").replace("_", "-"))
                      for r, h in zip(rows, hod))
    print("hardest technique (sudoku-lab, hodoku-py), most common pairs:")
    for (x, y), k in hardest.most_common(12):
        print(f"  {k:4}  {x:30} {y}")
    ot = [float(r["time"]) for r in rows]
    ht = [h["time"] for h in hod]
    print(f"time per puzzle, median / max: sudoku-lab {1e3 * statistics.median(ot):.2f} / "
          f"{1e3 * max(ot):.2f} ms, hodoku-py {1e3 * statistics.median(ht):.1f} / "
          f"{1e3 * max(ht):.1f} ms")
    print(f"sum of puzzle times: sudoku-lab {1e3 * sum(ot):.1f} ms, hodoku-py {1e3 * sum(ht):.0f} ms, "
          f"ratio {sum(ht) / sum(ot):.0f}x")
    print("sum of puzzle times by sudoku-lab's level (puzzles, sudoku-lab, hodoku-py, ratio):")
    for level in LEVELS:
        both = [(o, h) for o, h, r in zip(ot, ht, rows) if r["level"] == level]
        if both:
            so, sh = sum(o for o, _ in both), sum(h for _, h in both)
            print(f"  {level:8} {len(both):4}  {1e3 * so:8.2f} ms  {1e3 * sh:9.0f} ms  {sh / so:6.0f}x")
    print(f"start-up alone (an empty input): sudoku-lab {1e3 * ours_start:.1f} ms, hodoku-py "
          f"{1e3 * theirs_start:.0f} ms")
    print(f"total with start-up: sudoku-lab {1e3 * ours_total:.1f} ms, hodoku-py "
          f"{1e3 * theirs_total:.0f} ms, ratio {theirs_total / ours_total:.0f}x")


if __name__ == "__main__":
    main()
