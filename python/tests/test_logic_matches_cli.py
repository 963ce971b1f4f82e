"""`sudoku_lab.explain` and `sudoku_lab.grade` against `sudoku-lab explain --json` and `sudoku-lab
grade --json` on the same puzzles: the same steps record by record, and the same rows column by
column (all but `time`)."""

import json
import subprocess

import pytest

import sudoku_lab as sl
from test_bench_matches_cli import DATA, ROOT, cli

EASY = DATA / "logic" / "17_clue_5.txt"
HARD = DATA / "logic" / "magictour_10.txt"


def cli_steps(path, *flags):
    """The records of `sudoku-lab explain --json PATH FLAGS`, grouped by puzzle, in input order,
    without the `puzzle` field."""
    done = subprocess.run([cli(), "explain", "--json", *flags, str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    paths = {}
    for line in done.stdout.splitlines():
        record = json.loads(line)
        paths.setdefault(record.pop("puzzle"), []).append(record)
    return [paths[k] for k in sorted(paths)]


def cli_grades(tmp_path, path, *flags):
    """The rows of `sudoku-lab grade PATH FLAGS --json`."""
    out = tmp_path / "grade.json"
    done = subprocess.run([cli(), "grade", *flags, str(path), "--json", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())["rows"]


@pytest.mark.parametrize("path", [EASY, HARD])
def test_explain_steps_are_the_commands(path):
    puzzles = sl.read(str(path))[:4]
    python = [sl.explain(p) for p in puzzles]
    assert python == cli_steps(path)[:4]


def test_explain_records_read_as_the_notation():
    steps = sl.explain(sl.read(str(HARD))[0])
    first = steps[0]
    assert first["step"] == 1
    assert (first["technique"], first["name"]) == ("hidden-single", "Hidden Single")
    assert first["text"] == "Hidden Single: r9c3=7"
    assert (first["placements"], first["eliminations"]) == ([[9, 3, 7]], [])
    assert any(s["technique"] == "forcing-net-contradiction" for s in steps)
    # Every cell gets its digit once: 81 cells, fewer givens.
    placed = [tuple(p[:2]) for s in steps for p in s["placements"]]
    assert len(placed) == len(set(placed)) == 81 - sum(1 for d in sl.read(str(HARD))[0].givens if d)


def test_explain_techniques_restrict_the_ladder():
    """Singles only: the first 17-clue puzzle stops after 8 steps, as `--techniques singles`."""
    p = sl.read(str(EASY))[0]
    for techniques in ["singles", ["singles"]]:
        steps = sl.explain(p, techniques=techniques)
        assert len(steps) == 8
        # The command ends a stalled path with one more record, what is left; the Python list
        # holds the steps.
        *records, stuck = cli_steps(EASY, "--techniques", "singles")[0]
        assert steps == records
        assert stuck["outcome"] == "stuck"
        assert stuck["text"] == "no logical step found after 8 steps, 56 cells empty"
    with pytest.raises(ValueError, match="unknown technique or family 'telepathy'"):
        sl.explain(p, techniques="telepathy")


def test_grade_rows_are_the_commands(tmp_path):
    puzzles = sl.read(str(HARD))
    python = sl.grade(puzzles)
    cli = cli_grades(tmp_path, HARD)
    assert len(python) == len(cli) == 10
    for c, p in zip(cli, python):
        assert set(c) == set(p)
        for column in sorted(set(c) - {"time"}):
            assert c[column] == p[column], (c["line"], column)
        assert p["time"] >= 0
    assert [r["line"] for r in python] == list(range(1, 11))
    assert {r["file"] for r in python} == {str(HARD)}
    assert [r["level"] for r in python] == (["extreme"] * 3 + ["hard"] + ["medium"] * 2 + ["extreme"]
                                            + ["hard"] * 3)
    assert [r["hardest"] for r in python][:4] == ["forcing-net-contradiction", "bifurcation",
                                                  "bifurcation", "hidden-pair"]
    assert [r["logic_only"] for r in python][:4] == [True, False, False, True]
    assert python[0]["rating"] == 8.5 and python[0]["score"] == 6922


def test_grade_without_uniqueness_is_no_uniqueness(tmp_path):
    puzzles = sl.read(str(EASY))
    python = sl.grade(puzzles, uniqueness=False, techniques="singles,intersections,subsets")
    cli = cli_grades(tmp_path, EASY, "--no-uniqueness", "--techniques",
                     "singles,intersections,subsets")
    strip = lambda rows: [{k: v for k, v in r.items() if k != "time"} for r in rows]
    assert strip(python) == strip(cli)


PUBLISHED = DATA / "published"
VARIANTS = [PUBLISHED / "aug-18-23-palindrome-killer.json", PUBLISHED / "august-9-2023-thermo.json"]


@pytest.mark.parametrize("path", VARIANTS)
def test_explain_on_setters_variant_puzzles_is_the_commands(path):
    """A Killer with palindromes and a thermometer puzzle (f-puzzles files): the same steps as
    the command, the rules' own steps named by their rule, and the grid completed by logic."""
    [puzzle] = sl.read(str(path))
    steps = sl.explain(puzzle)
    assert [steps] == cli_steps(path)
    rule_steps = [s for s in steps if s["technique"] == "rule"]
    assert rule_steps, "the rules take part"
    prefix = "[Killer cage " if "killer" in path.name else "[Thermometer "
    assert all(s["text"].startswith("[") for s in rule_steps)
    assert any(s["text"].startswith(prefix) for s in rule_steps)
    placed = {tuple(p[:2]) for s in steps for p in s["placements"]}
    assert len(placed) == 81 - sum(1 for d in puzzle.givens if d)


def test_grade_on_setters_variant_puzzles_is_the_commands(tmp_path):
    puzzles = [p for path in VARIANTS for p in sl.read(str(path))]
    python = sl.grade(puzzles)
    for path, p in zip(VARIANTS, python):
        [c] = cli_grades(tmp_path, path)
        assert {k: v for k, v in c.items() if k not in ("time", "file")} == \
               {k: v for k, v in p.items() if k not in ("time", "file")}
    assert [r["logic_only"] for r in python] == [True, True]
    assert [r["level"] for r in python] == ["hard", "easy"]
    assert [r["hardest"] for r in python] == ["locked-pair", "hidden-single"]
