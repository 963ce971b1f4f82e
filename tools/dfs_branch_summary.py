#!/usr/bin/env python3
"""Summary of tools/dfs_branch_bench.sh: for each set, each rule's guesses per puzzle and the
median over the runs of each run's median and maximum time per puzzle, from the CSV files
DIR/RULE-I.csv that `sudoku-lab bench --csv` wrote.

usage: tools/dfs_branch_summary.py DIR RULE [RULE ...]
"""
import csv
import glob
import os
import statistics
import sys


def fmt_us(us):
    if us >= 1000:
        return f"{us / 1000:.3g} ms"
    return f"{us:.3g} µs"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    folder, rules = sys.argv[1], sys.argv[2:]
    rows = {}  # (set, rule) -> list of (guesses, median, max)
    for rule in rules:
        paths = sorted(glob.glob(os.path.join(folder, f"{rule}-*.csv")))
        if not paths:
            sys.exit(f"no {rule}-*.csv in {folder}")
        for path in paths:
            with open(path) as f:
                for r in csv.DictReader(f):
                    if r["file"] == "all":
                        continue
                    name = r["file"].rsplit("-", 1)[0]
                    rows.setdefault((name, rule), []).append(
                        (float(r["guesses_per_puzzle"]), float(r["median_us"]),
                         float(r["max_us"])))
    sets = sorted({s for s, _ in rows})
    head = ["set"] + [f"{what}, {rule}" for what in ("guesses/puzzle", "median", "max")
                      for rule in rules]
    print("| " + " | ".join(head) + " |")
    print("|---" + "|---:" * (len(head) - 1) + "|")
    for s in sets:
        runs = {rule: rows.get((s, rule), []) for rule in rules}
        cells = [s]
        cells += [f"{statistics.median(g for g, _, _ in runs[r]):,.1f}" for r in rules]
        cells += [fmt_us(statistics.median(m for _, m, _ in runs[r])) for r in rules]
        cells += [fmt_us(statistics.median(x for _, _, x in runs[r])) for r in rules]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
