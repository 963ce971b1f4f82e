#!/usr/bin/env python3
"""Same-run speed of `dfs` against tdoku on the 9x9 sets (docs/benchmarks.md): for each set, runs
`sudoku-lab bench --backends dfs` (one thread, checker included, parsing outside the clock) and
tdoku's solving loop timed the same way, alternately, RUNS times each, and prints the median
puzzles/s of each and their ratio (with `--best`, a second row per set gives the best run of each:
on a machine shared with other jobs a run's total counts the time the process waited for a core,
which the best of several runs mostly leaves out). `--task unique` is solve + uniqueness check (tdoku: count limit 2);
serg_benchmark is counted in full (limit 1,000,000).

The tdoku binary comes from ../shared/tools/peer-bench/build-tdoku-rate.sh, run on a checkout of
tdoku kept outside this repository. `--other NAME=BINARY` adds another sudoku-lab binary (e.g. an
older build) to the same run; `--other NAME=BINARY,VAR=VALUE,...` runs it with those environment
variables, e.g. `--other pext=target/release/sudoku-lab,SUDOKU_LAB_KERNEL=pext` for one variant of
the 9x9 kernel (docs/backends.md). `--tdoku-also NAME=BINARY` adds another tdoku build to the
same run (e.g. `haswell=/tmp/tdoku-haswell`, built with MARCH=haswell), and `--pair LAB=NAME`
gives the ratio of that sudoku-lab entry against it instead of against TDOKU_RATE, e.g.
`--pair pext=haswell` for the AVX2 form of both.

usage: python3 tools/compare_tdoku.py TDOKU_RATE [--runs 5] [--best] [--data ../shared/data/9x9]
           [--sudoku-lab target/release/sudoku-lab] [--other NAME=BINARY[,VAR=VALUE...] ...]
           [--tdoku-also NAME=BINARY ...] [--pair LAB=NAME ...] [SET ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

SETS = ["17_clue", "magictour_top1465", "forum_hardest_1905_11plus", "forum_hardest_1106",
        "serg_benchmark"]
COUNT_ALL = 1_000_000


def lab_rate(lab, path, count_all):
    binary, *assignments = lab.split(",")
    env = dict(os.environ, **dict(a.split("=", 1) for a in assignments))
    task = ["--task", "count", "--limit", str(COUNT_ALL)] if count_all else ["--task", "unique"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        subprocess.run([binary, "bench", "--backends", "dfs", *task, "--json", out, path],
                       check=True, stdout=subprocess.DEVNULL, env=env)
        with open(out) as f:
            row = json.load(f)[0]
    if row["answered"] != row["puzzles"] or row["failed"]:
        raise SystemExit(f"{binary}: not every puzzle of {path} answered")
    return row["puzzles"] / row["total_s"]


def tdoku_rate(binary, path, count_all):
    with open(path) as f:
        out = subprocess.run([binary, str(COUNT_ALL if count_all else 2)], stdin=f, check=True,
                             capture_output=True, text=True).stdout.split()
    return float(out[out.index("puzzles") + 1]) / float(out[out.index("seconds") + 1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tdoku")
    p.add_argument("sets", nargs="*", default=SETS)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--best", action="store_true", help="a second row: the best run of each")
    p.add_argument("--data", default="../shared/data/9x9")
    p.add_argument("--sudoku-lab", default="target/release/sudoku-lab")
    p.add_argument("--other", action="append", default=[], metavar="NAME=BINARY[,VAR=VALUE...]")
    p.add_argument("--tdoku-also", action="append", default=[], metavar="NAME=BINARY",
                   help="another tdoku build in the same run")
    p.add_argument("--pair", action="append", default=[], metavar="LAB=NAME",
                   help="the ratio of sudoku-lab entry LAB against tdoku build NAME")
    a = p.parse_intermixed_args()
    labs = [("dfs", a.sudoku_lab)] + [tuple(o.split("=", 1)) for o in a.other]
    tdokus = [("tdoku", a.tdoku)] + [tuple(t.split("=", 1)) for t in a.tdoku_also]
    names = [n for n, _ in labs]
    peers = [n for n, _ in tdokus]
    against = dict(x.split("=", 1) for x in a.pair)
    unknown = [f"{k}={v}" for k, v in against.items() if k not in names or v not in peers]
    if unknown:
        raise SystemExit(f"--pair {unknown[0]}: no such sudoku-lab entry or tdoku build")
    vs = {n: against.get(n, "tdoku") for n in names}
    print("| set | " + " | ".join(f"`{n}` puzzles/s" for n in names) + " | "
          + " | ".join(f"{t} puzzles/s" for t in peers) + " | "
          + " | ".join(f"`{n}` / {vs[n]}" for n in names) + " |")
    print("|---|" + "---:|" * (2 * len(names) + len(peers)))
    for name in a.sets:
        path = os.path.join(a.data, name + ".txt")
        count_all = name == "serg_benchmark"
        rates = {n: [] for n in names + peers}
        for _ in range(a.runs):
            for n, binary in labs:
                rates[n].append(lab_rate(binary, path, count_all))
            for t, binary in tdokus:
                rates[t].append(tdoku_rate(binary, path, count_all))
        label = name + (" (full count)" if count_all else "")
        rows = [(label, statistics.median)] + [(label + ", best run", max)] * a.best
        for row, pick in rows:
            med = {n: pick(r) for n, r in rates.items()}
            print(f"| {row} | " + " | ".join(f"{med[n]:,.0f}" for n in names + peers) + " | "
                  + " | ".join(f"{med[n] / med[vs[n]]:.2f}" for n in names) + " |", flush=True)


if __name__ == "__main__":
    main()
