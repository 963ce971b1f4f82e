#!/usr/bin/env python3
"""Two builds of sudoku-lab, the same puzzles, one run: `bench` (one thread) with each binary in
turn, RUNS rounds alternating which goes first, then the median over the rounds of each backend's
median µs and puzzles/s, and the ratio after/before. For a change that must leave speed as it was
(a restructuring): `python3 tools/same_run_bench.py BEFORE AFTER FILE [--backends dfs,sat,cp]`.

BEFORE and AFTER are sudoku-lab binaries (e.g. an older commit's `target/release/sudoku-lab`, copied
aside before building the new one), each optionally followed by flags after commas, to compare two
settings of one binary: `target/release/sudoku-lab,--no-probe`.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile


def run(side, path, backends, task):
    binary, *flags = side.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        subprocess.run([binary, "bench", *flags, "--backends", backends, "--task", task,
                        "--json", out, path], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return {r["backend"]: r for r in json.load(f)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("file")
    ap.add_argument("--backends", default="dfs,sat,cp")
    ap.add_argument("--task", default="unique")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    seen = {"before": [], "after": []}
    for i in range(args.runs):
        order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
        for name in order:
            seen[name].append(run(getattr(args, name), args.file, args.backends, args.task))
    print(f"{os.path.basename(args.file)}, task {args.task}, {args.runs} rounds, medians over rounds")
    print(f"{'backend':8} {'before µs':>10} {'after µs':>10} {'before max':>11} {'after max':>10} "
          f"{'before /s':>11} {'after /s':>11} {'after/before':>12} answered")
    for b in args.backends.split(","):
        med = {k: statistics.median(r[b]["median_us"] for r in v) for k, v in seen.items()}
        top = {k: statistics.median(r[b]["max_us"] for r in v) for k, v in seen.items()}
        rate = {k: statistics.median(r[b]["puzzles_per_sec"] for r in v) for k, v in seen.items()}
        answered = {k: {r[b]["answered"] for r in v} for k, v in seen.items()}
        print(f"{b:8} {med['before']:10.1f} {med['after']:10.1f} {top['before']:11.1f} "
              f"{top['after']:10.1f} {rate['before']:11.1f} "
              f"{rate['after']:11.1f} {rate['after'] / rate['before']:12.3f} "
              f"{sorted(answered['before'])} / {sorted(answered['after'])}")


if __name__ == "__main__":
    main()
