#!/usr/bin/env python3
"""The cmd backend's line protocol in about 30 lines of Python (docs/backends.md): solve and
count on grids with standard boxes, diagonals included; jigsaw puzzles are refused. Plain
backtracking: a demonstration of the protocol, not a solver to time.
    sudoku-lab xcheck --backends dfs,cmd --cmd "python3 examples/line_solver.py" puzzles.txt"""
import sys

SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def answer(words):
    task, limit = words[0], 1
    if task == "count":
        limit, words = int(words[1]), words[1:]
    givens, extra = words[1], words[2:]
    if extra and extra[0] != "diagonals":
        return "refused jigsaw regions"
    n = int(len(givens) ** 0.5)
    r = max(d for d in range(1, n + 1) if n % d == 0 and d * d <= n)  # box rows, n/r columns
    houses = [{i // n, n + i % n, 2 * n + i // n // r * r + i % n // (n // r)} for i in range(n * n)]
    for i in range(n) if extra else []:
        houses[i * n + i].add(3 * n)
        houses[i * n + n - 1 - i].add(3 * n + 1)
    peers = [[j for j in range(n * n) if j != i and houses[i] & houses[j]] for i in range(n * n)]
    cells, found = [SYMBOLS.index(c.upper()) for c in givens], []

    def search():
        free = [i for i, v in enumerate(cells) if v == 0]
        if not free:
            return found.append("".join(SYMBOLS[v] for v in cells))
        options = {i: set(range(1, n + 1)) - {cells[j] for j in peers[i]} for i in free}
        cell = min(free, key=lambda i: len(options[i]))
        for v in sorted(options[cell]):
            if len(found) < limit:
                cells[cell] = v
                search()
                cells[cell] = 0

    if not any(cells[i] and cells[i] == cells[j] for i in range(n * n) for j in peers[i]):
        search()
    if task == "solve":
        return found[0] if found else "none"
    return " ".join([str(len(found))] + found[:2])


for line in sys.stdin:
    qid, *words = line.split()
    print(qid, answer(words), flush=True)
