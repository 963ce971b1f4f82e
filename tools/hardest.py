#!/usr/bin/env python3
"""Picks the hardest puzzles of a line-format file by the time a solving command took on each:
reads that command's `--json` output (JSON Lines with `line` and `time_us`) on standard input and
prints the N slowest puzzles' lines of FILE, in file order (docs/benchmarks.md, Killer sets).

usage: sudoku-lab unique --json --jobs 1 FILE | python3 tools/hardest.py N FILE > hardest.txt
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    n, path = int(sys.argv[1]), sys.argv[2]
    times = []
    for row in sys.stdin:
        rec = json.loads(row)
        if "time_us" not in rec:
            raise SystemExit(f"line {rec.get('line')}: no time (status {rec.get('status')})")
        times.append((rec["time_us"], rec["line"]))
    chosen = {line for _, line in sorted(times, reverse=True)[:n]}
    with open(path) as f:
        for i, text in enumerate(f, 1):
            if i in chosen:
                sys.stdout.write(text)


if __name__ == "__main__":
    main()
