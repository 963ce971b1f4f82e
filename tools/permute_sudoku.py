#!/usr/bin/env python3
"""Each 9x9 puzzle of standard input (81-character lines; others are skipped) in a random form
of its own: digits relabelled, rows permuted within bands, bands permuted, the same for columns
and stacks, and transposed half of the time. tdoku's benchmark transforms its puzzles this way
before timing them; the lab's figures in docs/strength.md use it to measure what the
transformation changes.

    tools/permute_sudoku.py SEED < puzzles.txt > permuted.txt
"""
import random
import sys


def order(rng):
    """A permutation of 0..8 that keeps the three bands (or stacks) of three."""
    bands = rng.sample(range(3), 3)
    return [3 * b + r for b in bands for r in rng.sample(range(3), 3)]


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    for line in sys.stdin:
        p = line.strip()
        if len(p) < 81 or p.startswith("#"):
            continue
        digits = rng.sample("123456789", 9)
        rows, cols, flip = order(rng), order(rng), rng.random() < 0.5
        out = []
        for r in range(9):
            for c in range(9):
                rr, cc = (cols[c], rows[r]) if flip else (rows[r], cols[c])
                ch = p[rr * 9 + cc]
                out.append(digits[int(ch) - 1] if ch in "123456789" else ".")
        print("".join(out))


if __name__ == "__main__":
    main()
