#!/usr/bin/env python3
"""Anchor for the variant-rule benchmarks (docs/benchmarks.md, "Variant rules"): OR-tools CP-SAT
with one worker counts each puzzle of an f-puzzles JSON Lines file to 2 solutions (solve +
uniqueness), as tools/cpsat_killer.py does for Killers, and prints the median, p90 and max
milliseconds per puzzle (model building excluded). A puzzle without exactly one solution is
printed as a failure (the sets of tools/variant_bench.sh are unique) and the exit code is 1;
a document the lab would refuse is an error (exit code 2).

Reads what the lab reads (src/format/fpuzzles.rs) with the meaning its checker gives each rule
(src/check.rs, src/model/variant.rs): houses, `region` (jigsaw), `diagonal+`/`diagonal-`,
`antiknight`, `antiking`, `disjointgroups`, `nonconsecutive`, `negative` (`ratio`, `xv`),
`killercage`, `extraregion`, `odd`, `even`, `thermometer`, `arrow` (a 2-3 cell pill reads as a
decimal number), `whispers` (gap `value`, default ceil(n/2)), `renban`, `palindrome`,
`difference`, `ratio`, `xv` (a dot exempts its pair from the negative rules of its family:
Kropki white and black, or X and V), `littlekillersum` (walked from its `cell` along
`direction`), `sandwichsum`. Drawing keys (`text`, `line`, `circle`, `rectangle`, `cage`) are
ignored; any other key that carries something is an error naming it.

A line that is an object with a `board` is the lab's own JSON (src/format/object.rs): `board`,
`boxes`, `regions`, `diagonals`, `cages`, `rules` (every kind the lab names, with the keys of
`object::keys`) and `count`/`solution`. It holds the kinds f-puzzles has no key for here too:
`candidates`, `quadruple`, `minimum`, `maximum`, `indexer` (the 1-5-9 rule and its row and box
forms), `between-line`, `lockout`, `region-sum`, `entropic`, `modular`, `zipper`,
`slow-thermo`, `nabner`, `double-arrow`, `clone`, `skyscraper`, `x-sum`, with the meanings of
src/model/variant.rs. Its `solution`, when given, must be CP-SAT's (a failure otherwise).

With `--lab BINARY`, every CP-SAT solution is also compared with the one
`BINARY solve -j 1 --backend BACKEND FILE` prints (`--lab-backend`, dfs by default; the lab's
checker has verified it; digits, so sides up to 9); the solutions are then read inside the timed
search, so time a run without it.

With `--per-puzzle`, each puzzle's line number, milliseconds, conflicts and branches are printed
too (CP-SAT's own counters; 0 conflicts and 0 branches: settled by presolve and root
propagation).

usage: python3 tools/cpsat_variants.py FILE [--max N] [--per-puzzle]
       [--lab BINARY [--lab-backend B]]
       (needs ortools)
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import time

from ortools.sat.python import cp_model

META = {"size", "grid", "title", "author", "ruleset", "solution", "disabledlogic",
        "truecandidatesoptions"}
DRAWING = {"text", "line", "circle", "rectangle", "cage"}
READ = {"diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups", "nonconsecutive",
        "negative", "killercage", "littlekillersum", "arrow", "thermometer", "difference",
        "ratio", "xv", "odd", "even", "sandwichsum", "palindrome", "extraregion", "whispers",
        "renban"}
# The kinds read from the lab's JSON only, as rule tuples (kind, ...).
NEW = {"candidates", "quadruple", "minimum", "maximum", "indexer", "between", "lockout",
       "regionsum", "entropic", "modular", "zipper", "slowthermo", "nabner", "doublearrow",
       "clone", "skyscraper", "xsum"}
KNIGHT = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
KING = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class BadInput(Exception):
    def __init__(self, key, message):
        super().__init__(f'"{key}": {message}' if key else message)


def holds(rule, a, b):
    """Whether digits a and b meet a dot rule (kind, k)."""
    kind, k = rule
    if kind == "difference":
        return abs(a - b) == k
    if kind == "ratio":
        return a == k * b or b == k * a
    return a + b == k  # "sum": X is 10, V is 5


def family(rule):
    return "xv" if rule[0] == "sum" else "kropki"


def number(key, v):
    """A number written as a JSON number or string; None when empty."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    if isinstance(v, str) and re.fullmatch(r"\+?\d+", v.strip()):
        return int(v.strip())
    raise BadInput(key, f"bad value {json.dumps(v)} (expected a number)")


def default_boxes(n):
    if n == 1:
        return (1, 1)
    best, r = None, 2
    while r * r <= n:
        if n % r == 0:
            best = (r, n // r)
        r += 1
    return best


class Puzzle:
    """An f-puzzles document as the lab reads it: side, givens, houses and rules over row-major
    cell indices."""

    def __init__(self, doc):
        if not isinstance(doc, dict):
            raise BadInput(None, "an f-puzzles document is a JSON object")
        self.doc = doc
        n = self.n = number("size", doc.get("size", 9)) or 0
        if n < 1 or n > 64:
            raise BadInput("size", f"side {n} is not supported")
        for key, v in doc.items():
            empty = v is None or v is False or v == [] or v == ""
            if key in META or key in READ or empty or key in DRAWING:
                continue
            raise BadInput(key, "a rule the lab does not know; refusing rather than dropping it")
        self.givens, self.houses, self.rules = [0] * (n * n), [], []
        self.read_grid()
        self.read_rules()
        self.validate()

    def name(self, key, v, inside=True):
        m = re.fullmatch(r"[Rr]([+-]?\d+)[Cc]([+-]?\d+)", v) if isinstance(v, str) else None
        if not m:
            raise BadInput(key, f"bad cell name {json.dumps(v)} (expected R<row>C<column>)")
        r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
        if inside and not (0 <= r < self.n and 0 <= c < self.n):
            raise BadInput(key, f"cell {v} is outside the {self.n}x{self.n} grid")
        return r, c

    def cell(self, key, v):
        r, c = self.name(key, v)
        return r * self.n + c

    def cells(self, key, v):
        if not isinstance(v, list):
            raise BadInput(key, 'expected "cells": an array of cell names')
        return [self.cell(key, c) for c in v]

    def entries(self, key):
        v = self.doc.get(key)
        if v is None:
            return []
        if not isinstance(v, list) or not all(isinstance(e, dict) for e in v):
            raise BadInput(key, "expected an array of objects")
        return v

    def lines(self, key, e):
        if not isinstance(e.get("lines"), list):
            raise BadInput(key, 'expected "lines": an array of lines of cell names')
        return [self.cells(key, line) for line in e["lines"]]

    def flag(self, key):
        v = self.doc.get(key)
        if v is None or isinstance(v, bool):
            return bool(v)
        raise BadInput(key, f"expected true or false, found {json.dumps(v)}")

    def read_grid(self):
        n, rows = self.n, self.doc.get("grid")
        if not isinstance(rows, list) or len(rows) != n:
            raise BadInput("grid", f"expected an array of {n} rows")
        boxes = default_boxes(n)
        box = (lambda c: (c // n // boxes[0]) * (n // boxes[1]) + (c % n) // boxes[1]) \
            if boxes else None
        region = [None] * (n * n)
        for i, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != n:
                raise BadInput("grid", f"row {i + 1} is not an array of {n} cells")
            for j, cell in enumerate(row):
                if not isinstance(cell, dict):
                    raise BadInput("grid", f"row {i + 1}, column {j + 1}: not an object")
                value = number("grid", cell.get("value")) or 0
                if value > n:
                    raise BadInput("grid", f"row {i + 1}, column {j + 1}: value {value} is "
                                           f"out of 1..={n}")
                if cell.get("given") is True:
                    self.givens[i * n + j] = value
                if cell.get("givenPencilMarks"):
                    raise BadInput("grid", f"row {i + 1}, column {j + 1}: given pencil marks "
                                           "restrict the cell, a rule the lab does not know")
                region[i * n + j] = number("grid", cell.get("region"))
        if any(r is not None for r in region):
            if box is None and any(r is None for r in region):
                raise BadInput("grid", "some cells have a region and others none")
            region = [box(c) if r is None else r for c, r in enumerate(region)]
            self.jigsaw = box is None or any(region[c] != box(c) for c in range(n * n))
        elif box is None:
            raise BadInput("grid", f"side {n} has no box shape: every cell needs a region")
        else:
            region, self.jigsaw = [box(c) for c in range(n * n)], False
        self.boxes, self.region = boxes, region
        groups = {}
        for c, r in enumerate(region):
            groups.setdefault(r, []).append(c)
        if len(groups) != n or any(len(g) != n for g in groups.values()):
            raise BadInput("grid", f"the regions are not {n} regions of {n} cells")
        self.houses += [[r * n + c for c in range(n)] for r in range(n)]
        self.houses += [[r * n + c for r in range(n)] for c in range(n)]
        self.houses += list(groups.values())

    def read_rules(self):
        n, rules = self.n, self.rules
        plus = [i * n + (n - 1 - i) for i in range(n)]
        minus = [i * n + i for i in range(n)]
        for key, cells in (("diagonal+", plus), ("diagonal-", minus)):
            if self.flag(key):
                rules.append(("distinct", cells))  # both: two houses, one: an extra region
        if self.flag("antiknight"):
            rules.append(("chess", KNIGHT))
        if self.flag("antiking"):
            rules.append(("chess", KING))
        if self.flag("disjointgroups"):
            if self.jigsaw:
                raise BadInput("grid", "disjoint groups need box regions, not a jigsaw")
            br, bc = self.boxes
            groups = {}
            for c in range(n * n):
                groups.setdefault((c // n % br) * bc + c % n % bc, []).append(c)
            rules += [("distinct", g) for g in groups.values()]
        if self.flag("nonconsecutive"):
            rules.append(("negative", ("difference", 1)))
        negative = self.doc.get("negative")
        if negative is not None:
            if not isinstance(negative, list):
                raise BadInput("negative", f"expected an array, found {json.dumps(negative)}")
            for item in negative:
                if item == "ratio":
                    rules.append(("negative", ("ratio", 2)))
                elif item == "xv":
                    rules += [("negative", ("sum", 5)), ("negative", ("sum", 10))]
                else:
                    raise BadInput("negative", f"unknown negative rule {json.dumps(item)} "
                                               '(the lab reads "ratio" and "xv")')
        for e in self.entries("killercage"):
            cells = self.cells("killercage", e.get("cells"))
            total = number("killercage", e.get("value"))
            rules.append(("distinct", cells) if total is None else ("cage", cells, total))
        for e in self.entries("extraregion"):
            rules.append(("distinct", self.cells("extraregion", e.get("cells"))))
        for key in ("odd", "even"):
            for e in self.entries(key):
                rules.append((key, self.cell(key, e.get("cell"))))
        for key in ("thermometer", "palindrome", "renban"):
            rules += [(key, line) for e in self.entries(key) for line in self.lines(key, e)]
        for e in self.entries("whispers"):
            gap = number("whispers", e.get("value"))
            gap = (n + 1) // 2 if gap is None else gap
            rules += [("whispers", line, gap) for line in self.lines("whispers", e)]
        for e in self.entries("arrow"):
            circle = self.cells("arrow", e.get("cells"))
            for line in self.lines("arrow", e):
                rules.append(("arrow", circle, [c for c in line if c not in circle]))
        for key, default in (("difference", 1), ("ratio", 2)):
            for e in self.entries(key):
                k = number(key, e.get("value"))
                rules.append(self.dot(key, e, (key, default if k is None else k)))
        for e in self.entries("xv"):
            v = e.get("value")
            v = v.strip().upper() if isinstance(v, str) else v
            if v not in ("X", "V"):
                raise BadInput("xv", f'value {json.dumps(e.get("value"))}: expected "X" or "V"')
            rules.append(self.dot("xv", e, ("sum", 10 if v == "X" else 5)))
        for e in self.entries("littlekillersum"):
            total = number("littlekillersum", e.get("value"))
            if total is None:
                continue  # the lab ignores a clue without a value, with a note
            r, c = self.name("littlekillersum", e.get("cell"), inside=False)
            steps = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}
            if e.get("direction") not in steps:
                raise BadInput("littlekillersum", f"direction {json.dumps(e.get('direction'))}: "
                                                  "expected UL, UR, DL or DR")
            dr, dc = steps[e["direction"]]
            inside = lambda r, c: 0 <= r < n and 0 <= c < n
            if not inside(r, c):
                r, c = r + dr, c + dc
            elif inside(r - dr, c - dc) and inside(r + dr, c + dc):
                raise BadInput("littlekillersum", "a little killer's diagonal must run from edge "
                                                  "to edge")
            cells = []
            while inside(r, c):
                cells.append(r * n + c)
                r, c = r + dr, c + dc
            if not cells:
                raise BadInput("littlekillersum", "a little killer needs at least one cell")
            rules.append(("littlekiller", cells, total))
        for e in self.entries("sandwichsum"):
            total = number("sandwichsum", e.get("value"))
            if total is None:
                continue  # ignored by the lab, with a note
            r, c = self.name("sandwichsum", e.get("cell"), inside=False)
            edge = lambda x: x in (-1, n)
            if edge(r) and 0 <= c < n:
                line = [i * n + c for i in range(n)]
            elif edge(c) and 0 <= r < n:
                line = [r * n + i for i in range(n)]
            else:
                raise BadInput("sandwichsum", "a sandwich clue sits just outside a row or column")
            rules.append(("sandwich", line, total))

    def validate(self):
        """The lab's refusals of a well-formed document (src/model.rs, src/model/variant.rs), so
        that a puzzle the lab would not take is not timed here."""
        n = self.n

        def touch(a, b, diagonal):
            dr, dc = abs(a // n - b // n), abs(a % n - b % n)
            return max(dr, dc) == 1 and (diagonal or dr + dc == 1)

        caged = set()
        for kind, *args in self.rules:
            if kind in NEW:
                continue  # the lab's JSON only; the lab validated what it wrote

            def fail(message):
                return BadInput(None, f"{kind}: {message}")
            cells = (args[0] + args[1] if kind == "arrow" else args[:2] if kind == "dot" else
                     args[0] if kind not in ("chess", "negative", "odd", "even") else [])
            if len(set(cells)) != len(cells):
                raise fail("a cell is on it twice")
            if kind in ("distinct", "thermometer", "renban", "cage") and not 0 < len(cells) <= n:
                raise fail(f"{len(cells)} cells: it holds 1 to {n} distinct digits")
            if kind in ("thermometer", "whispers") and \
                    not all(touch(a, b, True) for a, b in zip(cells, cells[1:])):
                raise fail("consecutive cells of a line must touch")
            if kind in ("whispers", "palindrome") and len(cells) < 2:
                raise fail("a line needs at least 2 cells")
            if kind == "cage":
                k = len(cells)
                if caged & set(cells):
                    raise fail("a cell is in two cages")
                caged |= set(cells)
                if not k * (k + 1) // 2 <= args[1] <= k * (2 * n + 1 - k) // 2:
                    raise fail(f"sum {args[1]} cannot be made of {k} distinct digits")
            elif kind == "whispers" and not 0 < args[1] < n:
                raise fail(f"gap {args[1]}: it must be 1 to {n - 1}")
            elif kind == "arrow" and not (0 < len(args[0]) <= (3 if n <= 9 else 1) and args[1]):
                raise fail("a circle holds 1 to 3 cells (a pill needs side <= 9), a line 1 or more")
            elif kind == "dot" and not touch(args[0], args[1], False):
                raise fail("a dot joins orthogonal neighbours")
            if kind in ("dot", "negative"):
                rule = args[-1]
                if rule[1] < {"difference": 1, "ratio": 2, "sum": 3}[rule[0]]:
                    raise fail(f"{rule}: no two distinct digits can meet it")
            elif kind == "littlekiller" and not 0 < args[1] <= n * len(cells):
                raise fail(f"sum {args[1]} cannot be made of {len(cells)} digits")
            elif kind == "sandwich" and (n < 2 or args[1] > max(n * (n + 1) // 2 - n - 1, 0)):
                raise fail(f"sum {args[1]} is out of reach between 1 and {n}")

    def dot(self, key, e, rule):
        cells = self.cells(key, e.get("cells"))
        if len(cells) != 2:
            raise BadInput(key, f"a dot joins 2 cells, not {len(cells)}")
        return ("dot", cells[0], cells[1], rule)


class LabPuzzle(Puzzle):
    """A puzzle in the lab's own JSON (src/format/object.rs), as the same rule tuples plus the
    kinds of NEW."""

    def __init__(self, doc):
        self.doc = doc
        board = doc.get("board")
        if not isinstance(board, list) or not board:
            raise BadInput("board", "expected n rows of n values")
        n = self.n = len(board)
        self.givens, self.houses, self.rules = [0] * (n * n), [], []
        for i, row in enumerate(board):
            if not isinstance(row, list) or len(row) != n:
                raise BadInput("board", f"row {i + 1} is not {n} values")
            for j, v in enumerate(row):
                self.givens[i * n + j] = self.value(v)
        boxes = doc.get("boxes") or default_boxes(n)
        regions = doc.get("regions")
        if regions:
            region = [r - 1 for row in regions for r in row]
            self.jigsaw, self.boxes = True, None
        else:
            br, bc = boxes
            region = [(c // n // br) * (n // bc) + (c % n) // bc for c in range(n * n)]
            self.jigsaw, self.boxes = False, tuple(boxes)
        self.region = region
        groups = {}
        for c, r in enumerate(region):
            groups.setdefault(r, []).append(c)
        self.houses += [[r * n + c for c in range(n)] for r in range(n)]
        self.houses += [[r * n + c for r in range(n)] for c in range(n)]
        self.houses += list(groups.values())
        if doc.get("diagonals"):
            self.houses += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
        for cage in doc.get("cages") or []:
            self.rules.append(("cage", self.at(cage["cells"]), cage["sum"]))
        for rule in doc.get("rules") or []:
            self.read_rule(rule)
        self.solution = None
        if doc.get("solution") is not None:
            self.solution = "".join(str(self.value(v)) for row in doc["solution"] for v in row)
        self.validate()

    def value(self, v):
        if isinstance(v, int):
            return v
        if v in (".", "0", ""):
            return 0
        return int(v) if v.isdigit() else ord(v.upper()) - ord("A") + 10

    def at(self, cells):
        return [(r - 1) * self.n + c - 1 for r, c in cells]

    def edge(self, e):
        """The cells of a clue's row or column, from the clue inwards."""
        n = self.n
        if "row" in e:
            cells = [(e["row"] - 1) * n + i for i in range(n)]
        else:
            cells = [i * n + e["column"] - 1 for i in range(n)]
        return cells[::-1] if e.get("from") in ("right", "bottom") else cells

    def read_rule(self, e):
        n, kind, add = self.n, e.get("kind"), self.rules.append
        dot = next(((k, e[k]) for k in ("difference", "ratio", "sum") if k in e), None)
        simple = {"thermo": "thermometer", "renban": "renban", "palindrome": "palindrome",
                  "extra-region": "distinct", "between-line": "between",
                  "region-sum": "regionsum", "entropic": "entropic", "modular": "modular",
                  "zipper": "zipper", "slow-thermo": "slowthermo", "nabner": "nabner",
                  "double-arrow": "doublearrow"}
        if kind in simple:
            add((simple[kind], self.at(e["cells"])))
        elif kind in ("anti-knight", "anti-king"):
            add(("chess", KNIGHT if kind == "anti-knight" else KING))
        elif kind == "disjoint-groups":
            br, bc = self.boxes
            groups = {}
            for c in range(n * n):
                groups.setdefault((c // n % br) * bc + c % n % bc, []).append(c)
            self.rules += [("distinct", g) for g in groups.values()]
        elif kind == "nonconsecutive":
            add(("negative", ("difference", 1)))
        elif kind == "negative":
            add(("negative", dot))
        elif kind in ("kropki", "xv"):
            a, b = self.at(e["cells"])
            add(("dot", a, b, dot))
        elif kind in ("odd", "even"):
            add((kind, self.at([e["cell"]])[0]))
        elif kind == "whisper":
            add(("whispers", self.at(e["cells"]), e.get("gap", (n + 1) // 2)))
        elif kind == "arrow":
            add(("arrow", self.at(e["circle"]), self.at(e["line"])))
        elif kind == "little-killer":
            add(("littlekiller", self.at(e["cells"]), e["sum"]))
        elif kind == "sandwich":
            add(("sandwich", self.edge(e), e["sum"]))
        elif kind in ("candidates", "quadruple"):
            cells = self.at([e["cell"]] if kind == "candidates" else e["cells"])
            add((kind, cells, e["digits"]))
        elif kind in ("minimum", "maximum"):
            add((kind, self.at([e["cell"]])[0]))
        elif kind == "indexer":
            add(("indexer", self.at([e["cell"]])[0], e["house"]))
        elif kind == "lockout":
            add(("lockout", self.at(e["cells"]), e.get("gap", (n - 1) // 2)))
        elif kind == "clone":
            add(("clone", self.at(e["cells"]), self.at(e["clone"])))
        elif kind in ("skyscraper", "x-sum"):
            add((kind.replace("-", ""), self.edge(e), e["count" if kind == "skyscraper" else "sum"]))
        else:
            raise BadInput("rules", f"unknown kind {json.dumps(kind)}")


def model(p):
    """The CP-SAT model of a puzzle and its cell variables (row-major)."""
    n, m = p.n, cp_model.CpModel()
    x = [m.NewIntVar(1, n, f"x{c // n + 1}_{c % n + 1}") for c in range(n * n)]
    digits = range(1, n + 1)
    for c, v in enumerate(p.givens):
        if v:
            m.Add(x[c] == v)
    for house in p.houses:
        m.AddAllDifferent([x[c] for c in house])
    dots = {}  # {cell pair: families of the dots on it}
    for rule in p.rules:
        if rule[0] == "dot":
            dots.setdefault(frozenset(rule[1:3]), set()).add(family(rule[3]))
    negatives = [r[1] for r in p.rules if r[0] == "negative"]
    for rule in p.rules:
        kind, args = rule[0], rule[1:]
        if kind == "distinct":
            m.AddAllDifferent([x[c] for c in args[0]])
        elif kind == "cage":
            m.AddAllDifferent([x[c] for c in args[0]])
            m.Add(sum(x[c] for c in args[0]) == args[1])
        elif kind == "chess":
            for a in range(n * n):
                for dr, dc in args[0]:
                    r, c = a // n + dr, a % n + dc
                    if 0 <= r < n and 0 <= c < n and a < r * n + c:
                        m.Add(x[a] != x[r * n + c])
        elif kind in ("odd", "even"):
            allowed = [d for d in digits if d % 2 == (kind == "odd")]
            m.AddLinearExpressionInDomain(x[args[0]], cp_model.Domain.FromValues(allowed))
        elif kind == "thermometer":
            for a, b in zip(args[0], args[0][1:]):
                m.Add(x[a] < x[b])
        elif kind == "palindrome":
            line = args[0]
            for i in range(len(line) // 2):
                m.Add(x[line[i]] == x[line[-1 - i]])
        elif kind == "renban":
            line = [x[c] for c in args[0]]
            lo, hi = m.NewIntVar(1, n, ""), m.NewIntVar(1, n, "")
            m.AddAllDifferent(line)
            m.AddMinEquality(lo, line)
            m.AddMaxEquality(hi, line)
            m.Add(hi - lo == len(line) - 1)
        elif kind == "whispers":
            line, gap = args
            pairs = [(a, b) for a in digits for b in digits if abs(a - b) >= gap]
            for a, b in zip(line, line[1:]):
                m.AddAllowedAssignments([x[a], x[b]], pairs)
        elif kind == "arrow":
            circle, line = args
            pill = sum(10 ** (len(circle) - 1 - i) * x[c] for i, c in enumerate(circle))
            m.Add(sum(x[c] for c in line) == pill)
        elif kind == "dot":
            a, b, dot = args
            m.AddAllowedAssignments([x[a], x[b]],
                                    [(u, v) for u in digits for v in digits if holds(dot, u, v)])
        elif kind == "littlekiller":
            m.Add(sum(x[c] for c in args[0]) == args[1])
        elif kind == "sandwich":
            sandwich(m, [x[c] for c in args[0]], args[1], n)
        elif kind in NEW:
            extra(m, x, p, kind, args)
    if negatives:
        # Orthogonal neighbours without a dot of a negative rule's family must not meet it.
        for a in range(n * n):
            for b in (a + 1 if a % n + 1 < n else None, a + n if a + n < n * n else None):
                if b is None:
                    continue
                marked = dots.get(frozenset((a, b)), set())
                rules = [r for r in negatives if family(r) not in marked]
                banned = [(u, v) for u in digits for v in digits
                          if any(holds(r, u, v) for r in rules)]
                if banned:
                    m.AddForbiddenAssignments([x[a], x[b]], banned)
    return m, x


def extra(m, x, p, kind, args):
    """Posts one rule of the kinds in NEW (src/model/variant.rs gives their meaning)."""
    n = p.n
    digits = range(1, n + 1)

    def never():
        m.Add(m.NewConstant(0) >= 1)

    def neighbours(c):
        r, k = divmod(c, n)
        return [a * n + b for a, b in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
                if 0 <= a < n and 0 <= b < n]

    def is_digit(v, d):
        b = m.NewBoolVar("")
        m.Add(v == d).OnlyEnforceIf(b)
        m.Add(v != d).OnlyEnforceIf(b.Not())
        return b

    def near_pairs(line):  # cells at distance 1 or 2 along a line
        return [(a, b) for i, a in enumerate(line) for b in line[i + 1:i + 3]]

    if kind == "candidates":
        (cell,), listed = args
        allowed = sorted({d for d in listed if 1 <= d <= n})
        if not allowed:
            never()
        else:
            m.AddLinearExpressionInDomain(x[cell], cp_model.Domain.FromValues(allowed))
    elif kind == "quadruple":
        cells, listed = args
        for d in sorted(set(listed)):
            if not 1 <= d <= n or listed.count(d) > len(cells):
                never()
            else:
                m.Add(sum(is_digit(x[c], d) for c in cells) >= listed.count(d))
    elif kind in ("minimum", "maximum"):
        (cell,) = args
        # Neighbours that are cells of the same kind are not compared (f-puzzles).
        same = {r[1] for r in p.rules if r[0] == kind}
        for o in neighbours(cell):
            if o in same:
                continue
            m.Add(x[cell] < x[o]) if kind == "minimum" else m.Add(x[cell] > x[o])
    elif kind == "indexer":
        cell, house = args
        r, c = divmod(cell, n)
        if house == "row":  # its column; its digit is a row
            cells = [i * n + c for i in range(n)]
        elif house == "column":  # its row; its digit is a column
            cells = [r * n + i for i in range(n)]
        else:
            br, bc = p.boxes
            r0, c0 = r // br * br, c // bc * bc
            cells = [(r0 + i) * n + c0 + j for i in range(br) for j in range(bc)]
        position = cells.index(cell) + 1
        index = m.NewIntVar(0, n - 1, "")
        m.Add(index == x[cell] - 1)
        m.AddElement(index, [x[o] for o in cells], position)
    elif kind in ("between", "lockout"):
        cells = args[0]
        a, b, inner = x[cells[0]], x[cells[-1]], cells[1:-1]
        lo, hi = m.NewIntVar(1, n, ""), m.NewIntVar(1, n, "")
        m.AddMinEquality(lo, [a, b])
        m.AddMaxEquality(hi, [a, b])
        if kind == "lockout":
            m.Add(hi - lo >= min(args[1], n))
        for c in inner:
            if kind == "between":
                m.Add(lo < x[c])
                m.Add(x[c] < hi)
            else:
                below = m.NewBoolVar("")
                m.Add(x[c] < lo).OnlyEnforceIf(below)
                m.Add(x[c] > hi).OnlyEnforceIf(below.Not())
    elif kind == "regionsum":
        segments = []
        for c in args[0]:
            if segments and p.region[segments[-1][-1]] == p.region[c]:
                segments[-1].append(c)
            else:
                segments.append([c])
        for seg in segments[1:]:
            m.Add(sum(x[c] for c in seg) == sum(x[c] for c in segments[0]))
    elif kind == "entropic":
        third = n // 3
        group = {c: m.NewIntVar(0, 2, "") for c in args[0]}
        for c, g in group.items():
            m.AddDivisionEquality(g, x[c] - 1, third)
        for a, b in near_pairs(args[0]):
            m.Add(group[a] != group[b])
    elif kind == "modular":
        residue = {c: m.NewIntVar(0, 2, "") for c in args[0]}
        for c, g in residue.items():
            m.AddModuloEquality(g, x[c], 3)
        for a, b in near_pairs(args[0]):
            m.Add(residue[a] != residue[b])
    elif kind == "zipper":
        line = args[0]
        k = len(line)
        pair = lambda i: x[line[i]] + x[line[k - 1 - i]]
        for i in range(k // 2):
            m.Add(pair(i) == (x[line[k // 2]] if k % 2 else pair(0)))
    elif kind == "slowthermo":
        for a, b in zip(args[0], args[0][1:]):
            m.Add(x[a] <= x[b])
    elif kind == "nabner":
        pairs = [(u, v) for u in digits for v in digits if abs(u - v) >= 2]
        for i, a in enumerate(args[0]):
            for b in args[0][i + 1:]:
                m.AddAllowedAssignments([x[a], x[b]], pairs)
    elif kind == "doublearrow":
        line = args[0]
        m.Add(sum(x[c] for c in line[1:-1]) == x[line[0]] + x[line[-1]])
    elif kind == "clone":
        for a, b in zip(*args):
            m.Add(x[a] == x[b])
    elif kind == "skyscraper":
        line, count = [x[c] for c in args[0]], args[1]
        seen, top = [1], line[0]
        for v in line[1:]:
            s = m.NewBoolVar("")
            m.Add(v > top).OnlyEnforceIf(s)
            m.Add(v <= top).OnlyEnforceIf(s.Not())
            higher = m.NewIntVar(1, n, "")
            m.AddMaxEquality(higher, [top, v])
            seen.append(s)
            top = higher
        m.Add(sum(seen) == count)
    elif kind == "xsum":
        line, total = [x[c] for c in args[0]], args[1]
        terms = []
        for i, v in enumerate(line):
            counted = m.NewBoolVar("")  # the first cell's digit reaches position i + 1
            m.Add(line[0] >= i + 1).OnlyEnforceIf(counted)
            m.Add(line[0] <= i).OnlyEnforceIf(counted.Not())
            t = m.NewIntVar(0, n, "")
            m.Add(t == v).OnlyEnforceIf(counted)
            m.Add(t == 0).OnlyEnforceIf(counted.Not())
            terms.append(t)
        m.Add(sum(terms) == total)


def sandwich(m, line, total, n):
    """The digits strictly between the 1 and the n of `line` add up to `total`: booleans for
    where the 1 and the n are, their positions, and each cell's term (its digit when it lies
    between them, else 0)."""
    k = len(line)
    pos = []
    for digit in (1, n):
        at = [m.NewBoolVar("") for _ in line]
        for b, v in zip(at, line):
            m.Add(v == digit).OnlyEnforceIf(b)
            m.Add(v != digit).OnlyEnforceIf(b.Not())
        m.AddExactlyOne(at)
        p = m.NewIntVar(0, k - 1, "")
        m.Add(p == sum(i * b for i, b in enumerate(at)))
        pos.append(p)
    lo, hi = m.NewIntVar(0, k - 1, ""), m.NewIntVar(0, k - 1, "")
    m.AddMinEquality(lo, pos)
    m.AddMaxEquality(hi, pos)
    terms = []
    for i, v in enumerate(line):
        after, before, inside = m.NewBoolVar(""), m.NewBoolVar(""), m.NewBoolVar("")
        m.Add(lo < i).OnlyEnforceIf(after)
        m.Add(lo >= i).OnlyEnforceIf(after.Not())
        m.Add(hi > i).OnlyEnforceIf(before)
        m.Add(hi <= i).OnlyEnforceIf(before.Not())
        m.AddBoolAnd([after, before]).OnlyEnforceIf(inside)
        m.AddBoolOr([after.Not(), before.Not()]).OnlyEnforceIf(inside.Not())
        t = m.NewIntVar(0, n, "")
        m.Add(t == v).OnlyEnforceIf(inside)
        m.Add(t == 0).OnlyEnforceIf(inside.Not())
        terms.append(t)
    m.Add(sum(terms) == total)


class Stop(cp_model.CpSolverSolutionCallback):
    def __init__(self, cells=None):
        super().__init__()
        self.found, self.cells, self.solutions = 0, cells, []

    def on_solution_callback(self):
        self.found += 1
        if self.cells is not None:
            self.solutions.append("".join(str(self.Value(v)) for v in self.cells))
        if self.found >= 2:
            self.StopSearch()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--max", type=int, default=None)
    p.add_argument("--lab", metavar="BINARY",
                   help="compare each solution with `BINARY solve -j 1 --backend B FILE`")
    p.add_argument("--lab-backend", metavar="B", default="dfs")
    p.add_argument("--per-puzzle", action="store_true",
                   help="print each puzzle's time, conflicts and branches")
    a = p.parse_args()
    numbered = [(i + 1, l) for i, l in enumerate(open(a.file)) if l.strip()][: a.max]
    puzzles = []
    for lineno, line in numbered:
        try:
            doc = json.loads(line)
            lab = isinstance(doc, dict) and "board" in doc
            puzzles.append((lineno, LabPuzzle(doc) if lab else Puzzle(doc)))
        except (BadInput, json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            print(f"{a.file}:{lineno}: {e}", file=sys.stderr)
            sys.exit(2)
    expected = None
    if a.lab:
        out = subprocess.run([a.lab, "solve", "-j", "1", "--backend", a.lab_backend, a.file],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        expected = [l.strip() for l in out if l.strip()]
    times, failures, same = [], 0, 0
    for k, (lineno, puzzle) in enumerate(puzzles):
        m, x = model(puzzle)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        known = getattr(puzzle, "solution", None)
        cb = Stop(x if expected is not None or known else None)
        t = time.perf_counter()
        solver.Solve(m, cb)
        times.append((time.perf_counter() - t) * 1000)
        if a.per_puzzle:
            print(f"{a.file}:{lineno}: {times[-1]:.2f} ms, conflicts {solver.NumConflicts()}, "
                  f"branches {solver.NumBranches()}")
        if cb.found != 1:
            failures += 1
            print(f"failure: {a.file}:{lineno}: {cb.found} solutions found, expected 1")
        if known and cb.solutions and cb.solutions[0] != known:
            failures += 1
            print(f"failure: {a.file}:{lineno}: CP-SAT's solution {cb.solutions[0]} is not "
                  f"the document's {known}")
        if expected is not None and cb.solutions:
            lab = expected[k] if k < len(expected) else "(none)"
            if cb.solutions[0] == lab:
                same += 1
            else:
                failures += 1
                print(f"failure: {a.file}:{lineno}: CP-SAT's solution {cb.solutions[0]} is not "
                      f"the lab's {lab}")
    if expected is not None:
        print(f"lab solutions equal: {same} of {len(puzzles)}")
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"cp-sat puzzles {len(times)} median_ms {statistics.median(times):.2f} "
          f"p90_ms {p90:.2f} max_ms {times[-1]:.2f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
