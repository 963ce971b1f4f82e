#!/usr/bin/env python3
"""The empty 9x9 grid's formula in tdoku's "augmented" form, as DIMACS in the lab's numbering
(x(cell, digit) = cell*9 + digit is "cell holds digit"; triad variables from 730): each cell
exactly one digit; a triad variable per (row or column segment of a box, digit) with the clause
"segment holds the digit or not the triad" and pairwise at-most-one over the segment's cells and
the triad's negation; exactly one triad per (line, digit) and per (box, direction, digit); no
cell-level house clauses. docs/strength.md compares it with the lab's `triad` encoding:

    tools/tdoku_augmented_cnf.py > augmented.cnf
    minisat_harness augmented.cnf PUZZLES --units     # tools/minisat_harness.cc
"""
from itertools import combinations


def main():
    clauses = []

    def exactly_one(lits, at_least=True):
        if at_least:
            clauses.append(list(lits))
        clauses.extend([-a, -b] for a, b in combinations(lits, 2))

    def x(row, col, d):
        return (row * 9 + col) * 9 + d + 1

    def h_triad(row, seg, d):
        return 729 + d + 9 * (seg + 3 * row) + 1

    def v_triad(col, seg, d):
        return 729 + 243 + d + 9 * (seg + 3 * col) + 1

    for r in range(9):
        for c in range(9):
            exactly_one([x(r, c, d) for d in range(9)])
    for i in range(9):
        for seg in range(3):
            for d in range(9):
                exactly_one([x(i, 3 * seg + k, d) for k in range(3)] + [-h_triad(i, seg, d)])
                exactly_one([x(3 * seg + k, i, d) for k in range(3)] + [-v_triad(i, seg, d)])
    for i in range(9):
        for d in range(9):
            exactly_one([h_triad(i, seg, d) for seg in range(3)])
            exactly_one([v_triad(i, seg, d) for seg in range(3)])
            band, stack = 3 * (i // 3), i % 3
            exactly_one([h_triad(band + k, stack, d) for k in range(3)])
            exactly_one([v_triad(band + k, stack, d) for k in range(3)])
    print(f"p cnf {729 + 486} {len(clauses)}")
    for c in clauses:
        print(" ".join(map(str, c)), 0)


if __name__ == "__main__":
    main()
