#!/usr/bin/env python3
"""Wall time of whole batches (docs/benchmarks.md, "Batches on every core"): for each set, runs
`sudoku-lab unique --jobs J FILE > /dev/null` (read, parse, solve, check, print) for each J, and
tdoku's solving loop alone on the same file (the time tdoku-rate reports, parsing excluded),
alternately, RUNS times each, and prints the median seconds.

The tdoku binary comes from ../shared/tools/peer-bench/build-tdoku-rate.sh, run on a checkout of
tdoku kept outside this repository.

usage: python3 tools/jobs_wall.py TDOKU_RATE [--runs 5] [--jobs 1,2] [--data ../shared/data/9x9]
           [--sudoku-lab target/release/sudoku-lab] [SET ...]
"""
import argparse
import os
import statistics
import subprocess
import time

SETS = ["17_clue", "forum_hardest_1905_11plus"]


def lab_wall(binary, path, jobs):
    start = time.perf_counter()
    subprocess.run([binary, "unique", "--jobs", str(jobs), path], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def tdoku_loop(binary, path):
    with open(path) as f:
        out = subprocess.run([binary, "2"], stdin=f, check=True, capture_output=True,
                             text=True).stdout.split()
    return float(out[out.index("seconds") + 1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tdoku")
    p.add_argument("sets", nargs="*", default=SETS)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--jobs", default="1,2")
    p.add_argument("--data", default="../shared/data/9x9")
    p.add_argument("--sudoku-lab", default="target/release/sudoku-lab")
    a = p.parse_intermixed_args()
    jobs = [int(j) for j in a.jobs.split(",")]
    print("| set | " + " | ".join(f"`unique --jobs {j}`, s" for j in jobs)
          + " | tdoku solving loop, s |")
    print("|---|" + "---:|" * (len(jobs) + 1))
    for name in a.sets:
        path = os.path.join(a.data, name + ".txt")
        times = {j: [] for j in jobs}
        tdoku = []
        for _ in range(a.runs):
            for j in jobs:
                times[j].append(lab_wall(a.sudoku_lab, path, j))
            tdoku.append(tdoku_loop(a.tdoku, path))
        print(f"| {name} | " + " | ".join(f"{statistics.median(times[j]):.3f}" for j in jobs)
              + f" | {statistics.median(tdoku):.3f} |", flush=True)


if __name__ == "__main__":
    main()
