#!/usr/bin/env python3
"""Hole profile of a grid-format puzzle (docs/hard-instances.md): open cells, the rows and
columns that are mostly empty, and whether the hole pattern is symmetric under a 180° turn.

usage: python3 tools/grid_profile.py ../shared/data/large/sudoku-64-1.txt
"""
import sys


def read_grid(path):
    rows = []
    with open(path) as f:
        for line in f:
            toks = line.split()
            if toks:
                rows.append([0 if t == "." else int(t) for t in toks])
    n = len(rows[0])
    if len(rows) == 1 and n > 1:  # a single line holding all n² values
        k = int(round(n ** 0.5))
        rows = [rows[0][i * k:(i + 1) * k] for i in range(k)]
    return rows


def main():
    grid = read_grid(sys.argv[1])
    n = len(grid)
    open_row = [sum(v == 0 for v in r) for r in grid]
    open_col = [sum(grid[r][c] == 0 for r in range(n)) for c in range(n)]
    total = sum(open_row)
    print(f"side {n}: {total} open cells of {n * n} ({100 * total / (n * n):.0f} %)")
    half_rows = [r for r in range(n) if open_row[r] > n / 2]
    half_cols = [c for c in range(n) if open_col[c] > n / 2]
    print(f"rows more than half empty: {len(half_rows)}"
          + (f" (open cells {min(open_row[r] for r in half_rows)}-{max(open_row[r] for r in half_rows)})"
             if half_rows else ""))
    print(f"columns more than half empty: {len(half_cols)}")
    print(f"columns without a given: {sum(v == n for v in open_col)}; rows without a given: "
          f"{sum(v == n for v in open_row)}")
    sym = all((grid[r][c] == 0) == (grid[n - 1 - r][n - 1 - c] == 0)
              for r in range(n) for c in range(n))
    row_sym = all(open_row[r] == open_row[n - 1 - r] for r in range(n))
    print(f"hole pattern symmetric under a 180° turn: {sym}; open counts per row symmetric: {row_sym}")


if __name__ == "__main__":
    main()
