"""`sudoku_lab.bench` and `sudoku-lab bench --json` on the same puzzles give the same rows: every
column but the timings, field by field, the classes (answered, agreed, timed out, refused,
failed) and the effort counters included.

The command is `$SUDOKU_LAB` when set, else the repository's `target/debug/sudoku-lab`, built
with cargo from the sources beside these tests."""

import functools
import json
import os
import pathlib
import shutil
import subprocess

import pytest

import sudoku_lab as sl

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# The columns that measure time: they differ from run to run.
TIMINGS = {"puzzles_per_sec", "total_s", "min_us", "mean_us", "median_us", "p90_us", "max_us"}


@functools.lru_cache(maxsize=None)
def cli():
    """The `sudoku-lab` command (see the module's docstring)."""
    if os.environ.get("SUDOKU_LAB"):
        return os.environ["SUDOKU_LAB"]
    if shutil.which("cargo") is None:
        pytest.skip("no sudoku-lab command (set SUDOKU_LAB) and no cargo to build it")
    # Built from the sources beside these tests (a no-op when up to date), so that an older
    # binary left in target/ is never the one compared.
    subprocess.run(["cargo", "build", "-q", "--bin", "sudoku-lab"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "sudoku-lab")


def cli_rows(tmp_path, path, *flags, status=0):
    """The rows of `sudoku-lab bench PATH FLAGS --json`, without their samples; the command ends
    with `status` (3: some run timed out)."""
    out = tmp_path / "rows.json"
    done = subprocess.run([cli(), "bench", str(path), *flags, "--json", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == status, done.stderr
    rows = json.loads(out.read_text())
    return [{k: v for k, v in r.get("record", r).items() if k != "samples"} for r in rows]


def assert_same_rows(cli, python, effort=True):
    """Every column but the timings and the file's name; the effort counters too unless a run
    stopped at its deadline (the work done by then varies)."""
    assert [r["backend"] for r in cli] == [r["backend"] for r in python]
    for c, p in zip(cli, python):
        assert set(c) == set(p), c["backend"]
        skip = TIMINGS | {"file"}
        if not effort:
            skip |= {k for k in c if k.endswith("_per_puzzle") or k == "no_guess_pct"}
        for column in sorted(set(c) - skip):
            assert c[column] == p[column], (c["backend"], column)
        for column in TIMINGS:
            assert (c[column] is None) == (p[column] is None), (c["backend"], column)


def test_bench_rows_are_the_commands(tmp_path):
    """Puzzles with their known counts: answered and agreed, by three backends."""
    path = DATA / "9x9" / "test_puzzles.counts"
    backends = ["dfs", "dlx", "sat"]
    python = sl.bench(sl.read(str(path))[:8], backends=backends, task="count", limit=10)
    cli = cli_rows(tmp_path, path, "--backends", ",".join(backends), "--task", "count",
                   "--limit", "10", "--max-puzzles", "8")
    assert_same_rows(cli, python)
    assert [(r["answered"], r["agreed"]) for r in python] == [(8, 8)] * 3


def test_an_unproved_optimum_is_a_time_out_in_both(tmp_path):
    """An optimum the deadline stopped before its proof is a time-out, not an answer: within a
    second, `sat` reaches a grid of the empty 16×16 far below its bound, `dfs` none."""
    path = tmp_path / "empty16.txt"
    path.write_text("." * 256 + "\n")
    backends = ["dfs", "sat"]
    python = sl.bench(sl.read(str(path)), backends=backends, task="optimize", timeout=1)
    cli = cli_rows(tmp_path, path, "--backends", ",".join(backends), "--task", "optimize",
                   "--timeout", "1", status=3)
    assert_same_rows(cli, python, effort=False)
    assert [(r["answered"], r["timed_out"]) for r in python] == [(0, 1)] * 2
