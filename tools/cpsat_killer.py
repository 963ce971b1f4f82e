#!/usr/bin/env python3
"""Anchor for the Killer and constraint-programming benchmarks (docs/benchmarks.md): OR-tools
CP-SAT with one worker counts each puzzle of a line-format file to 2 solutions (solve +
uniqueness), the way `sudoku-lab bench --task unique` does, and prints the median, p90 and max
milliseconds per puzzle (model building excluded). Reads standard 9x9 puzzles: plain lines of 81
symbols, or Killers (`GIVENS CAGE-LABELS SUMS`), either with jigsaw region labels after the
givens (`GIVENS REGIONS [CAGE-LABELS SUMS]`, as `generate --boxes 1x9` writes boxless grids).

usage: python3 tools/cpsat_killer.py FILE [--max N]   (needs `pip install ortools`)
"""
import argparse
import statistics
import time

from ortools.sat.python import cp_model


class Stop(cp_model.CpSolverSolutionCallback):
    def __init__(self):
        super().__init__()
        self.found = 0

    def on_solution_callback(self):
        self.found += 1
        if self.found >= 2:
            self.StopSearch()


def model(line):
    fields = line.split()
    givens = fields[0].split(":")[0]
    # GIVENS [REGIONS] [CAGE-LABELS SUMS]: 2 or 4 fields carry region labels.
    regions = fields[1] if len(fields) in (2, 4) else None
    rest = fields[2:] if regions else fields[1:]
    labels, sums = (rest[0], [int(s) for s in rest[1].split(",")]) if len(rest) == 2 else ("", [])
    m = cp_model.CpModel()
    x = [[m.NewIntVar(1, 9, f"x{r}{c}") for c in range(9)] for r in range(9)]
    for i in range(9):
        m.AddAllDifferent(x[i])
        m.AddAllDifferent([x[r][i] for r in range(9)])
        if regions is None:
            br, bc = 3 * (i // 3), 3 * (i % 3)
            m.AddAllDifferent([x[br + r][bc + c] for r in range(3) for c in range(3)])
    if regions is not None:
        by_label = {}
        for k, ch in enumerate(regions):
            by_label.setdefault(ch, []).append(x[k // 9][k % 9])
        for cells in by_label.values():
            m.AddAllDifferent(cells)
    for k, ch in enumerate(givens):
        if ch not in ".0":
            m.Add(x[k // 9][k % 9] == int(ch))
    order, cells = [], {}
    for k, ch in enumerate(labels):
        if ch == ".":
            continue
        if ch not in cells:
            order.append(ch)
            cells[ch] = []
        cells[ch].append(x[k // 9][k % 9])
    for ch, s in zip(order, sums):
        m.AddAllDifferent(cells[ch])
        m.Add(sum(cells[ch]) == s)
    return m


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--max", type=int, default=None)
    a = p.parse_args()
    lines = [l for l in open(a.file) if l.strip() and not l.startswith("#")][: a.max]
    times = []
    for line in lines:
        m = model(line)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        cb = Stop()
        t = time.perf_counter()
        solver.Solve(m, cb)
        times.append((time.perf_counter() - t) * 1000)
        if cb.found != 1:
            print(f"note: {cb.found} solutions found for {line.split()[0][:20]}...")
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"cp-sat puzzles {len(times)} median_ms {statistics.median(times):.2f} "
          f"p90_ms {p90:.2f} max_ms {times[-1]:.2f}")


if __name__ == "__main__":
    main()
