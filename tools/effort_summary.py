#!/usr/bin/env python3
"""tdoku's two benchmark columns from the JSON Lines answers of `sudoku-lab solve|unique --json`.

Reads the answers on standard input and prints one row: puzzles, no_guess_pct (the share of
puzzles answered with no guess), guesses_per_puzzle (the mean) and conflicts_per_puzzle. A
puzzle's guesses are its `effort.guesses` when the backend counts branch points, else its
`effort.decisions` (src/effort.rs, `Effort::guesses_or_decisions`). An answer without either, or
that is not `solved`/`unique`, stops the script with exit code 2.

    sudoku-lab unique --json --backend sat-ext --sat-cmd "minisat -no-pre" --no-propagate \\
        --encoding extended puzzles.txt | tools/effort_summary.py extended
"""
import json
import sys


def main():
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    puzzles = no_guess = guesses = conflicts = 0
    for n, line in enumerate(sys.stdin, 1):
        answer = json.loads(line)
        effort = answer.get("effort", {})
        g = effort.get("guesses", effort.get("decisions"))
        if answer.get("status") not in ("solved", "unique") or g is None:
            print(f"answer {n}: not solved, or no guess count: {line.strip()[:300]}", file=sys.stderr)
            sys.exit(2)
        puzzles += 1
        no_guess += g == 0
        guesses += g
        conflicts += effort.get("conflicts", 0)
    if puzzles == 0:
        print("no answers", file=sys.stderr)
        sys.exit(2)
    print(
        f"{label}\t{puzzles}\t{100 * no_guess / puzzles:.1f}\t"
        f"{guesses / puzzles:.2f}\t{conflicts / puzzles:.2f}"
    )


if __name__ == "__main__":
    main()
