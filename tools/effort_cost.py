#!/usr/bin/env python3
"""What counting search effort costs `dfs` (docs/benchmarks.md): runs `sudoku-lab bench --backends dfs`
(`--task unique`, one thread, checker included) with two binaries, alternately, RUNS times each on
each set, and prints for each binary the median over the runs of the total time (the sum of the
per-puzzle times of a run), the sum over the puzzles of each puzzle's median time over the runs
(which a preemption in one run hardly moves, where it moves that run's total), and the ratios.

BASE is a build without the effort counters (for example the commit before them, built in another
directory outside the repository), NEW the build to measure. The sets are forum_hardest_1106 (every
puzzle) and the first 10,000 puzzles of 17_clue.

On a shared machine the clock is noisy; `--callgrind` instead runs each binary once under
valgrind's callgrind and prints the instructions executed (deterministic) inside the 9x9 kernel
(`band9::count`) and inside what `bench` times (`task::run`: solve, uniqueness, check, and the
meter's one report per puzzle).

usage: python3 tools/effort_cost.py BASE NEW [--runs 15] [--callgrind] [--data ../shared/data/9x9]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

SETS = [("forum_hardest_1106", None), ("17_clue", 10_000)]


def times_ns(binary, path, max_puzzles):
    """Every puzzle's time (ns) in one `bench` run, by index; every puzzle must be answered."""
    limit = ["--max-puzzles", str(max_puzzles)] if max_puzzles else []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        subprocess.run([binary, "bench", "--backends", "dfs", "--task", "unique", *limit,
                        "--json", out, path], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            row = json.load(f)[0]
    if row["answered"] != row["puzzles"] or row["failed"]:
        raise SystemExit(f"{binary}: not every puzzle of {path} answered")
    return {s["index"]: s["time_ns"] for s in row["samples"]}


def instructions(binary, path, max_puzzles):
    """Instructions (callgrind's Ir, inclusive) of `band9::count` and `task::run` in one run."""
    limit = ["--max-puzzles", str(max_puzzles)] if max_puzzles else []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary,
                        "bench", "--backends", "dfs", "--task", "unique", *limit, path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], check=True,
                              capture_output=True, text=True).stdout
    found = {}
    for name in ["band9::count", "task::run"]:
        m = re.search(r"^\s*([\d,]+) .*::" + re.escape(name) + r" \[", text, re.M)
        if not m:
            raise SystemExit(f"{binary}: no {name} in callgrind's output")
        found[name] = int(m.group(1).replace(",", ""))
    return found


def callgrind(a):
    print("| set | puzzles | `band9::count` base | new | new / base "
          "| `task::run` base | new | new / base |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, max_puzzles in SETS:
        path = os.path.join(a.data, name + ".txt")
        base = instructions(a.base, path, max_puzzles)
        new = instructions(a.new, path, max_puzzles)
        puzzles = f"{max_puzzles:,} (first)" if max_puzzles else "all"
        cells = [f"{base[k]:,} | {new[k]:,} | {new[k] / base[k]:.4f}"
                 for k in ["band9::count", "task::run"]]
        print(f"| {name} | {puzzles} | " + " | ".join(cells) + " |", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("base")
    p.add_argument("new")
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--callgrind", action="store_true")
    p.add_argument("--data", default="../shared/data/9x9")
    a = p.parse_args()
    if a.callgrind:
        return callgrind(a)
    print("| set | puzzles | median total, base | new | new / base "
          "| sum of puzzle medians, base | new | new / base |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, max_puzzles in SETS:
        path = os.path.join(a.data, name + ".txt")
        runs = {"base": [], "new": []}
        for i in range(a.runs):
            # Alternate which goes first, so that neither always runs on a warmer machine.
            order = [("base", a.base), ("new", a.new)]
            for key, binary in order if i % 2 == 0 else order[::-1]:
                runs[key].append(times_ns(binary, path, max_puzzles))
        figures = {}
        for key, per_run in runs.items():
            total = statistics.median(sum(r.values()) for r in per_run)
            medians = sum(statistics.median(r[i] for r in per_run) for i in per_run[0])
            figures[key] = (total / 1e6, medians / 1e6)
        (bt, bm), (nt, nm) = figures["base"], figures["new"]
        puzzles = f"{max_puzzles:,} (first)" if max_puzzles else "all"
        print(f"| {name} | {puzzles} | {bt:.2f} ms | {nt:.2f} ms | {nt / bt:.3f} "
              f"| {bm:.2f} ms | {nm:.2f} ms | {nm / bm:.3f} |", flush=True)


if __name__ == "__main__":
    main()
