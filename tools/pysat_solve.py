#!/usr/bin/env python3
"""Runs one of PySAT's bundled SAT solvers on a DIMACS file and prints SAT-competition output
(`s` and `v` lines), so any of them can serve as `sudoku-lab solve --backend sat-ext --sat-cmd`;
the solving time goes to standard error. Used for the external-solver figures in
docs/hard-instances.md.

usage: python3 tools/pysat_solve.py SOLVER FILE.cnf      (needs `pip install python-sat`)
       SOLVER: a PySAT solver name, e.g. cadical195, glucose4, minisat22, maplechrono
"""
import sys
import time

from pysat.formula import CNF
from pysat.solvers import Solver


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    name, path = sys.argv[1], sys.argv[2]
    formula = CNF(from_file=path)
    start = time.monotonic()
    with Solver(name=name, bootstrap_with=formula.clauses) as solver:
        sat = solver.solve()
        seconds = time.monotonic() - start
        print(f"c {name}: {seconds:.2f} s", file=sys.stderr)
        if sat:
            print("s SATISFIABLE")
            print("v " + " ".join(str(lit) for lit in solver.get_model()) + " 0")
            return 10
        print("s UNSATISFIABLE")
        return 20


if __name__ == "__main__":
    sys.exit(main())
