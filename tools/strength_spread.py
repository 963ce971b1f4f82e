#!/usr/bin/env python3
"""How much a level's solved share depends on which puzzles of a file are measured.

Reads the per-puzzle lines of `sudoku-lab strength --per-puzzle` (index, file, line, encoding,
amo, weakest level) for one file, with `--levels` given weakest first, and prints for every
encoding and level:

* the solved share in consecutive blocks of the file (`--block` puzzles each), which shows how
  the share changes along the file's order;
* the spread of the solved share over random subsets of `--size` puzzles made of whole runs of
  `--run` consecutive puzzles (`--draws` subsets, fixed seed): mean, standard deviation, the
  range, and the share of subsets at or above each `--at-least` given.

With `--given ENCODING:LEVEL:PCT`, the subsets are also kept only when that encoding's share at
that level lies within `--within` points of PCT, and the same spread is printed for them: the
levels' shares on puzzle sets that match a published figure at one level.

Usage:
  sudoku-lab strength ../shared/data/9x9/17_clue.txt --encodings minimal,extended \\
      --levels up,flp1,flp,hbr --per-puzzle --jobs 2 > per.tsv
  tools/strength_spread.py per.tsv --levels up,flp1,flp,hbr --size 24260 --run 1000 \\
      --given extended:up:47 --at-least minimal:hbr:25
"""

import argparse
import random
import statistics
import sys


def read(path, levels):
    """{encoding: [rank of the weakest level that solves puzzle i, or len(levels)]}."""
    rank = {name: k for k, name in enumerate(levels)}
    by_encoding = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6 or not fields[0].isdigit():
                continue
            index, _, _, encoding, _, weakest = fields
            if weakest not in rank and weakest not in ("none", "refuted"):
                sys.exit(f"{path}: level '{weakest}' is not in --levels")
            by_encoding.setdefault(encoding, {})[int(index)] = rank.get(weakest, len(levels))
    return {e: [r[i] for i in sorted(r)] for e, r in by_encoding.items()}


def spec(text, levels, encodings):
    try:
        encoding, level, pct = text.split(":")
        pct = float(pct)
    except ValueError:
        sys.exit(f"'{text}': expected ENCODING:LEVEL:PCT")
    if encoding not in encodings or level not in levels:
        sys.exit(f"'{text}': no such encoding or level in the input")
    return encoding, levels.index(level), pct


def describe(shares, bounds):
    line = "mean %6.2f  sd %5.2f  range %6.2f-%6.2f" % (
        statistics.mean(shares),
        statistics.pstdev(shares),
        min(shares),
        max(shares),
    )
    for bound in bounds:
        line += "  at least %.2f: %.2f%% of subsets" % (
            bound,
            100 * sum(s >= bound for s in shares) / len(shares),
        )
    return line


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("per_puzzle")
    p.add_argument("--levels", required=True, help="the --levels given to strength, in order")
    p.add_argument("--block", type=int, default=4000)
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--run", type=int, default=1000)
    p.add_argument("--draws", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--given", help="ENCODING:LEVEL:PCT a subset must match")
    p.add_argument("--within", type=float, default=0.5)
    p.add_argument("--at-least", action="append", default=[],
                   help="ENCODING:LEVEL:PCT: share of subsets at or above PCT (may be repeated)")
    a = p.parse_args()
    levels = a.levels.split(",")
    ranks = read(a.per_puzzle, levels)
    if not ranks:
        sys.exit(f"{a.per_puzzle}: no per-puzzle lines")
    encodings = sorted(ranks)
    n = len(next(iter(ranks.values())))
    if a.size > n:
        sys.exit(f"--size {a.size} exceeds the {n} puzzles of the input")
    given = spec(a.given, levels, encodings) if a.given else None
    at_least = [spec(t, levels, encodings) for t in a.at_least]

    def solved(e, k, lo, hi):
        return sum(r <= k for r in ranks[e][lo:hi])

    print(f"{n} puzzles; blocks of {a.block}")
    for e in encodings:
        for k, level in enumerate(levels):
            blocks = [
                100 * solved(e, k, lo, min(lo + a.block, n)) / (min(lo + a.block, n) - lo)
                for lo in range(0, n, a.block)
            ]
            print(f"{e:9} {level:8} " + " ".join("%5.1f" % b for b in blocks))

    # Per run: (puzzles, solved count per encoding and level).
    runs = []
    for lo in range(0, n, a.run):
        hi = min(lo + a.run, n)
        runs.append((hi - lo, {(e, k): solved(e, k, lo, hi) for e in encodings
                               for k in range(len(levels))}))
    rng = random.Random(a.seed)
    draws, kept = [], []
    for _ in range(a.draws):
        order = list(range(len(runs)))
        rng.shuffle(order)
        total, counts = 0, dict.fromkeys(runs[0][1], 0)
        for j in order:
            if total >= a.size:
                break
            total += runs[j][0]
            for key, c in runs[j][1].items():
                counts[key] += c
        shares = {key: 100 * c / total for key, c in counts.items()}
        draws.append(shares)
        if given and abs(shares[given[:2]] - given[2]) <= a.within:
            kept.append(shares)

    def report(title, sample):
        print(f"\n{title}")
        for e in encodings:
            for k, level in enumerate(levels):
                bounds = [b[2] for b in at_least if b[:2] == (e, k)]
                print(f"{e:9} {level:8} " + describe([s[(e, k)] for s in sample], bounds))

    report(f"{a.draws} subsets of about {a.size} puzzles made of runs of {a.run} (seed {a.seed})",
           draws)
    if given:
        if kept:
            report(f"the {len(kept)} of them with {a.given} (within {a.within} points)", kept)
        else:
            print(f"\nno subset has {a.given} within {a.within} points")


if __name__ == "__main__":
    main()
