#!/usr/bin/env python3
"""Grades 9x9 puzzles with hodoku-py (a Python port of HoDoKu 2.2.0's solver, from the Python
package registry) and writes one JSON object per puzzle: the anchor that docs/logic.md sets
`sudoku-lab grade` against. hodoku-py is installed in a virtual environment outside the repository;
the lab's tests never need it.

    python3 -m venv /tmp/venv-hodoku && /tmp/venv-hodoku/bin/pip install hodoku-py
    /tmp/venv-hodoku/bin/python tools/hodoku_grade.py PUZZLES [--first N] [--every K] > hodoku.jsonl

Each row: `puzzle` (81 characters), `solved`, `level` (easy|medium|hard|unfair|extreme), `score`,
`hardest` (the step type with the highest level, then the highest score), `steps`, `time` (s, the
solve call alone). The start-up of the interpreter and the import are printed at the end, on
standard error, so a total over a sample can include them.
"""
import argparse
import json
import sys
import time

START = time.perf_counter()
from hodoku import Solver  # noqa: E402  (timed: the import is part of the tool's start-up)
from hodoku.config import DEFAULT_CONFIG  # noqa: E402

IMPORTED = time.perf_counter()


def puzzles(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            yield line[:81]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--first", type=int, default=None, help="only the first N puzzles")
    ap.add_argument("--every", type=int, default=1, help="take every K-th puzzle")
    args = ap.parse_args()
    solver = Solver()
    config = DEFAULT_CONFIG.step_config
    taken = 0
    for i, p in enumerate(puzzles(args.file)):
        if i % args.every:
            continue
        if args.first is not None and taken >= args.first:
            break
        taken += 1
        t = time.perf_counter()
        r = solver.solve(p)
        elapsed = time.perf_counter() - t
        hardest = None
        key = None
        for step in r.steps:
            cfg = config.get(step.type)
            if cfg is None:
                continue
            k = (cfg.level.value, cfg.base_score)
            if key is None or k > key:
                key, hardest = k, step.type.name.lower()
        print(json.dumps({
            "puzzle": p,
            "solved": r.solved,
            "level": r.level.name.lower(),
            "score": r.score,
            "hardest": hardest,
            "steps": len(r.steps),
            "time": round(elapsed, 6),
        }), flush=True)
    print(f"start-up {IMPORTED - START:.3f} s, total {time.perf_counter() - START:.3f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
