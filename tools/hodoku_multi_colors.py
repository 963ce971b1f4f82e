#!/usr/bin/env python3
"""Checks sudoku-lab's multi-colour steps against hodoku-py (HoDoKu 2.2.0's solver in Python,
installed as tools/hodoku_grade.py says): for each puzzle whose `sudoku-lab explain --json` path
takes a multi-colour step, the path is replayed on hodoku-py's grid and, at each such step,
hodoku-py's next step on the same board (its default ladder) is set beside ours.

    /tmp/venv-hodoku/bin/python tools/hodoku_multi_colors.py SUDOKU_LAB PUZZLES

Prints both steps (ours in HoDoKu's notation, hodoku-py's with its colour classes) and whether
they are the same (type and eliminations), then the counts.
"""
import json
import subprocess
import sys

from hodoku.config import DEFAULT_CONFIG
from hodoku.core.grid import Grid
from hodoku.solver.step_finder import SudokuStepFinder


def cell(row, col):
    return (row - 1) * 9 + col - 1


def name(c):
    return f"r{c // 9 + 1}c{c % 9 + 1}"


def paths(lab, path):
    """Our steps, per puzzle number (1-based over the file's puzzles)."""
    out = subprocess.run([lab, "explain", "--json", path], capture_output=True, text=True,
                         check=True).stdout
    steps = {}
    for record in map(json.loads, out.splitlines()):
        if "step" in record:
            steps.setdefault(record["puzzle"], []).append(record)
    return steps


def hodoku_next(grid):
    finder = SudokuStepFinder(grid, DEFAULT_CONFIG.solve_search)
    for config in DEFAULT_CONFIG.solver_steps:
        step = finder.get_step(config.solution_type)
        if step is not None:
            return step
    return None


def main():
    lab, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        lines = [l.strip()[:81] for l in f if l.strip() and not l.startswith("#")]
    same_count = other_count = 0
    for number, steps in sorted(paths(lab, path).items()):
        if not any(s["technique"].startswith("multi-colors") for s in steps):
            continue
        grid = Grid()
        grid.set_sudoku(lines[number - 1])
        for s in steps:
            if s["technique"].startswith("multi-colors"):
                theirs = hodoku_next(grid)
                ours = {(cell(r, c), d) for r, c, d in s["eliminations"]}
                removed = {(c.index, c.value) for c in theirs.candidates_to_delete}
                kind = theirs.type.name.lower().replace("_", "-")
                same = kind == s["technique"] and ours == removed
                same_count += same
                other_count += not same
                classes = {}
                for c, k in sorted(theirs.color_candidates.items()):
                    classes.setdefault(k, []).append(name(c))
                shown = ", ".join("(" + ",".join(classes[k]) + ")" for k in sorted(classes))
                print(f"#{number} step {s['step']}: {'same' if same else 'different'}")
                print(f"  sudoku-lab: {s['text']}")
                print(f"  hodoku-py:  {theirs}  colours {shown}")
            for r, c, d in s["placements"]:
                grid.set_cell(cell(r, c), d)
            for r, c, d in s["eliminations"]:
                grid.del_candidate(cell(r, c), d)
    print(f"{path}: {same_count} multi-colour steps the same in hodoku-py, {other_count} not")


if __name__ == "__main__":
    main()
