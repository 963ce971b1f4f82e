"""The Python module `sudoku_lab` end to end: reading, the four tasks, the checker, the CNF
export solved by PySAT, cross-checks and timing rows, time-outs, Ctrl-C and the GIL."""

import _thread
import os
import pathlib
import signal
import sys
import threading
import time

import pytest

import sudoku_lab as sl

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
# magictour_top1465's first puzzle: one solution.
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def grid_from_model(cnf, puzzle, model):
    """The grid a PySAT model puts in the cells, read through `Cnf.var` (givens from the puzzle:
    their variables appear in no clause)."""
    true = {lit for lit in model if lit > 0}
    n = puzzle.size
    rows = []
    for r in range(1, n + 1):
        row = []
        for c in range(1, n + 1):
            given = puzzle.givens[(r - 1) * n + (c - 1)]
            digits = [d for d in range(1, n + 1) if cnf.var(r, c, d) in true]
            row.append(given or (digits[0] if len(digits) == 1 else 0))
        rows.append(row)
    return sl.Grid(rows)


def test_done_when():
    """The issue's script: read, the same unique grid from dfs and sat, the checker accepts it,
    PySAT solves the exported clauses to the same grid, bench rows are dicts."""
    from pysat.solvers import Solver

    p = sl.read(str(DATA / "9x9" / "17_clue_first20.txt"))[0]
    a = sl.unique(p, backend="dfs")
    b = sl.unique(p, backend="sat")
    assert a.status == b.status == "unique"
    assert a.grid == b.grid
    assert sl.check(p, a.grid) == []

    cnf = sl.encode(p, to="cnf", encoding="extended")
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        model = s.get_model()
    assert grid_from_model(cnf, p, model) == a.grid
    assert cnf.decode(model) == a.grid
    # The encoding is exact: blocking the solution leaves nothing.
    block = [-cnf.var(r, c, a.grid.get(r, c)) for r in range(1, 10) for c in range(1, 10)
             if p.givens[(r - 1) * 9 + c - 1] == 0]
    with Solver(name="minisat22", bootstrap_with=cnf.clauses + [block]) as s:
        assert not s.solve()

    rows = sl.bench(sl.read(str(DATA / "9x9" / "17_clue_first20.txt"))[:3], backends=["dfs", "sat"])
    assert [r["backend"] for r in rows] == ["dfs", "sat"]
    assert all(isinstance(r, dict) and r["puzzles"] == 3 and r["answered"] == 3 for r in rows)
    assert all(r["failed"] == 0 and r["median_us"] > 0 for r in rows)


def test_every_encoding_decodes_through_var():
    from pysat.solvers import Solver

    p = sl.read(HARD)[0]
    want = sl.unique(p).grid
    for encoding in ["minimal", "efficient", "extended", "triad"]:
        cnf = sl.encode(p, encoding=encoding)
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
            assert s.solve(), encoding
            assert grid_from_model(cnf, p, s.get_model()) == want, encoding


def test_read_formats_and_errors(tmp_path):
    assert len(sl.read(str(DATA / "samples" / "mixed.txt"))) == 12
    # os.PathLike works too, and a string that names no file is the text itself.
    assert len(sl.read(DATA / "samples" / "mixed.txt")) == 12
    assert [p.size for p in sl.read("1...\n..3.\n.4..\n...2\n")] == [4]
    bad = tmp_path / "bad.txt"
    bad.write_text(HARD + "\n" + HARD[:-1] + "x\n")
    # The command's message: file, line, column.
    with pytest.raises(ValueError, match=r"^" + str(bad) + r":2:81: error: value 33 \('x'\)"):
        sl.read(str(bad))
    with pytest.raises(ValueError, match="unknown format"):
        sl.read(HARD, format="csv")


def test_fpuzzles_puzzle_draws_and_counts():
    p = sl.read(str(DATA / "fpuzzles" / "mixed6.json"))[0]
    assert p.size == 6 and p.rules["constraints"]
    assert "<svg" in p._repr_svg_()
    assert p._repr_html_().startswith("<div><svg") and "<?xml" not in p._repr_html_()
    assert sl.render(p) == p.svg()
    for backend in ["dfs", "sat", "cp"]:
        a = sl.count(p, backend=backend)
        assert (a.count, a.complete) == (2, True), backend
    # Written and read back, the rules stay: the same count.
    again = sl.read(p.to_fpuzzles())[0]
    assert sl.count(again).count == 2


def test_counts_and_optimum():
    empty4 = sl.read("." * 16)[0]
    a = sl.count(empty4, limit=1000)
    assert (a.status, a.count, a.complete) == ("counted", 288, True)
    a = sl.count(empty4, limit=100, backend="dlx")
    assert (a.count, a.complete) == (100, False)
    m = sl.unique(empty4)
    assert m.status == "multiple" and m.grid != m.second
    noip = sl.read(str(DATA / "cases" / "noip2009" / "sample0.in"))[0]
    for backend in ["dfs", "sat"]:
        o = sl.optimize(noip, backend=backend)
        assert (o.status, o.value) == ("optimal", 2864), backend
        assert sl.check(noip, o.grid) == []
    for bound in ["reduced-costs", "none"]:
        o = sl.optimize(noip, backend="cp", cp_objective_bound=bound)
        assert (o.status, o.value) == ("optimal", 2864), bound


def test_check_names_the_broken_rule():
    p = sl.read(HARD)[0]
    g = sl.solve(p).grid
    rows = g.rows
    rows[0][1], rows[0][2] = rows[0][2], rows[0][1]
    broken = sl.check(p, rows)
    assert len(broken) == 1 and "column" in broken[0]
    assert sl.check(p, str(g)) == []


def test_engine_options_and_bad_names():
    p = sl.read(HARD)[0]
    want = sl.unique(p).grid
    assert sl.unique(p, backend="sat", encoding="minimal", amo="ladder").grid == want
    assert sl.unique(p, backend="cp", cp_alldiff="bounds").grid == want
    assert sl.unique(p, backend="cp", cp_drop_fixed=True).grid == want
    assert sl.unique(p, backend="cp", cp_in_process=True).grid == want
    with pytest.raises(TypeError, match="no_simplify: expected True or False"):
        sl.unique(p, backend="sat", no_simplify="yes")
    with pytest.raises(ValueError, match="unknown encoding 'nope'"):
        sl.unique(p, backend="sat", encoding="nope")
    with pytest.raises(TypeError, match="unknown engine option 'colour'"):
        sl.unique(p, colour="red")
    with pytest.raises(ValueError, match="unknown backend"):
        sl.unique(p, backend="quantum")


def test_cp_searches_in_a_worker_process(monkeypatch):
    """A crash inside huub ends a worker process, not the interpreter: `cp` searches in a Python
    started for it (`sys.executable`) unless `cp_in_process=True`."""
    if "cp" not in sl.backend_names():
        pytest.skip("cp is not compiled in")
    p = sl.read(HARD)[0]
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    with pytest.raises(RuntimeError, match="cannot start the worker /nonexistent/python"):
        sl.unique(p, backend="cp")
    assert sl.unique(p, backend="cp", cp_in_process=True).status == "unique"
    monkeypatch.undo()
    assert sl.unique(p, backend="cp").status == "unique"


def test_exports():
    p = sl.read(str(DATA / "cases" / "noip2009" / "sample0.in"))[0]
    cnf = sl.encode(p)
    dimacs = cnf.dimacs()
    header = next(line for line in dimacs.splitlines() if line.startswith("p cnf"))
    assert header.split()[2:] == [str(cnf.nvars), str(len(cnf.clauses))]
    assert sl.encode(p, to="wcnf").startswith("c ")
    assert "Maximize" in sl.encode(p, to="lp", weights="pyramid")
    with pytest.raises(ValueError):
        cnf.var(0, 1, 1)


def test_xcheck_rows():
    puzzles = sl.read(str(DATA / "9x9" / "test_puzzles.counts"))[:4]
    rows = sl.xcheck(puzzles, backends=["dfs", "dlx", "sat"], task="count", limit=10)
    assert len(rows) == 12
    assert {r["verdict"] for r in rows} == {"agreed"}
    assert [r["backend"] for r in rows[:3]] == ["dfs", "dlx", "sat"]


def test_generate_is_seeded_and_unique():
    made = sl.generate(size=6, count=3, unique=True, seed=1)
    again = sl.generate(size=6, count=3, unique=True, seed=1)
    assert [p.to_line() for p in made] == [p.to_line() for p in again]
    assert len({p.to_line() for p in made}) == 3
    for p in made:
        assert p.size == 6 and sl.unique(p, backend="sat").status == "unique"
    with pytest.raises(ValueError):
        sl.generate(size=0)


def test_bench_rows_carry_the_effort_columns():
    puzzles = sl.read(str(DATA / "9x9" / "17_clue_first20.txt"))[:3]
    rows = {r["backend"]: r for r in sl.bench(puzzles, backends=["dfs", "sat"])}
    dfs, sat = rows["dfs"], rows["sat"]
    assert dfs["answered"] == sat["answered"] == 3
    assert dfs["nodes_per_puzzle"] >= 1 and dfs["guesses_per_puzzle"] is not None
    assert 0 <= dfs["no_guess_pct"] <= 100
    assert sat["conflicts_per_puzzle"] is not None and sat["nodes_per_puzzle"] is None
    bare = sl.bench(puzzles, backends=["dfs"], no_effort=True)[0]
    assert bare["answered"] == 3 and bare["nodes_per_puzzle"] is None
    # The answer of one call carries its effort too.
    assert sl.unique(puzzles[0]).effort["nodes"] >= 1


def test_strength_rows_are_the_commands():
    """The figures of `sudoku-lab strength tests/data/9x9/17_clue_first20.txt --levels up,flp`."""
    puzzles = sl.read(str(DATA / "9x9" / "17_clue_first20.txt"))
    rows = sl.strength(puzzles, encodings=["minimal", "extended"], levels="up,flp", jobs=2)
    assert [(r["encoding"], r["amo"], r["level"], r["solved_pct"]) for r in rows] == [
        ("minimal", "auto", "up", 0.0),
        ("minimal", "auto", "flp", 35.0),
        ("extended", "auto", "up", 65.0),
        ("extended", "auto", "flp", 100.0),
    ]
    assert rows[0]["puzzles"] == 20 and rows[3]["unassigned_pct"] is None
    model = sl.strength(puzzles[:2], levels=["naked"], encodings="minimal")
    assert [(r["encoding"], r["level"]) for r in model] == [("-", "naked")]
    weakest = sl.strength(puzzles, encodings="extended", levels="up,flp", per_puzzle=True)
    assert [w["weakest"] for w in weakest].count("up") == 13
    assert {w["weakest"] for w in weakest} == {"up", "flp"}
    assert weakest[0]["puzzle"] == 1 and weakest[0]["source"].endswith("17_clue_first20.txt:1")
    with pytest.raises(ValueError, match="unknown level"):
        sl.strength(puzzles, levels=["up", "nonsense"])


def test_generate_takes_the_commands_options():
    killers = sl.generate(size=4, count=2, killer=True, cage_sizes=(2, 3), unique=True,
                          with_answer=True, seed=5)
    for p in killers:
        assert p.rules["constraints"]["killer"] >= 1 and p.rules["known_count"] == 1
        assert sl.unique(p, backend="sat").status == "unique"
    assert {r["verdict"] for r in sl.xcheck(killers, backends=["dfs", "sat"])} == {"agreed"}
    variants = sl.generate(count=1, variants="thermo,kropki".split(","), unique=True, seed=2)[0]
    assert {"thermo", "kropki"} <= set(variants.rules["constraints"])
    boxed = sl.generate(boxes=(2, 3), count=1, seed=1)[0]
    assert boxed.size == 6 and boxed.rules["regions"] == "boxes 2x3"
    weighted = sl.generate(count=1, weights="pyramid", seed=1)[0]
    assert weighted.rules["weights"]
    for bad in [dict(variants=["killer"]), dict(with_answer=True), dict(size=9, boxes=(2, 3)),
                dict(killer=True, cage_sizes=(3, 2)), dict(variants=["nonsense"])]:
        with pytest.raises(ValueError):
            sl.generate(**bad)


def test_timeout_is_an_answer():
    empty9 = sl.read("." * 81)[0]
    a = sl.count(empty9, limit=10**15, timeout=0.2)
    assert a.status == "timeout"
    assert a.count > 0 and a.complete is False
    assert a.time < 5


def test_gil_is_released_while_solving():
    empty9 = sl.read("." * 81)[0]
    worker = threading.Thread(target=sl.count, args=(empty9,),
                              kwargs={"limit": 10**15, "timeout": 1.5})
    worker.start()
    time.sleep(0.1)
    spins, start = 0, time.monotonic()
    while time.monotonic() - start < 0.5:
        spins += 1
    assert worker.is_alive()
    worker.join()
    # With the GIL held for the whole count, this thread could not have spun at all.
    assert spins > 10_000


def assert_idle():
    """Nothing runs on in the background: the process takes next to no CPU time while this
    thread sleeps (a search left running would take a good part of a core). A helper thread that
    `sat` abandons on the flag ends at its next look at it: a moment's grace first."""
    time.sleep(0.3)
    cpu = time.process_time()
    time.sleep(1)
    assert time.process_time() - cpu < 0.05


@pytest.fixture
def python_handles_sigint():
    """Python's own SIGINT handler for the test, whatever the process inherited: a process that
    a non-interactive shell starts in the background has SIGINT ignored, and then neither a
    SIGINT nor `_thread.interrupt_main` reaches Python."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("backend", ["dfs", "sat", "cp"])
@pytest.mark.usefixtures("python_handles_sigint")
def test_ctrl_c_stops_the_search(backend):
    """SIGINT during a count that would run for ages: `KeyboardInterrupt` comes within two
    seconds, well before the time-out, the search has stopped, and the next call works."""
    if backend not in sl.backend_names():
        pytest.skip(f"{backend} is not compiled in")
    empty25 = sl.read("." * 625)[0]
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sl.count(empty25, limit=2**63, backend=backend, timeout=60)
    assert time.monotonic() - start < 2.5
    timer.join()
    assert_idle()
    assert sl.unique(sl.read(HARD)[0], backend=backend).status == "unique"


@pytest.mark.usefixtures("python_handles_sigint")
def test_ctrl_c_stops_a_cross_check():
    empty25 = sl.read("." * 625)[0]
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sl.xcheck([empty25], backends=["dfs", "dlx"], task="count", limit=2**63, timeout=60)
    assert time.monotonic() - start < 2.5
    timer.join()
    assert_idle()


def test_docstrings_for_help():
    assert "solution" in sl.solve.__doc__
    assert "limit=1000000" in sl.count.__text_signature__.replace("_", "")
    assert "file, line and column" in sl.read.__doc__
    assert sl.Cnf.var.__doc__
    # The stubs are installed beside the module.
    stubs = pathlib.Path(sl.__file__).with_name("__init__.pyi")
    assert "def encode" in stubs.read_text()


def run_python_blocks(doc, at_least):
    """Runs every ```python block of `doc`, in order, in one namespace, from the repository's
    root."""
    blocks, block, inside = [], [], False
    for line in doc.read_text().splitlines():
        if line.strip() == "```python":
            inside, block = True, []
        elif line.strip() == "```" and inside:
            inside = False
            blocks.append("\n".join(block))
        elif inside:
            block.append(line)
    assert len(blocks) >= at_least
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace = {}
        for code in blocks:
            exec(compile(code, str(doc), "exec"), namespace)
    finally:
        os.chdir(cwd)


def test_walkthrough_runs():
    """docs/python.md."""
    pytest.importorskip("pandas")
    run_python_blocks(ROOT / "docs" / "python.md", 4)


def test_readme_example_runs():
    run_python_blocks(ROOT / "README.md", 1)


def test_sum_encoding_keyword():
    # Arrows: sums of variant rules, written as order-encoded partial sums or a binary adder.
    p = sl.read(str(DATA / "published" / "deflation.json"))[0]
    order, adder = (sl.encode(p, sum_encoding=e) for e in ("order", "adder"))
    assert len(order.clauses) != len(adder.clauses)
    assert len(sl.encode(p).clauses) == len(order.clauses)  # auto is order on a 9x9
    with pytest.raises(ValueError):
        sl.encode(p, sum_encoding="nonsense")
