"""Type stubs of the extension module `sudoku_lab` (built from python/src/lib.rs)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

DEFAULT_COUNT_LIMIT: int

GridLike = Union["Grid", str, Sequence[Sequence[int]]]
WeightsLike = Union[str, Sequence[Sequence[int]]]

class Grid:
    """A grid of digits; `str(grid)` is one line of n² symbols, as the command line prints it."""
    def __init__(self, cells: GridLike) -> None: ...
    @property
    def size(self) -> int: ...
    @property
    def rows(self) -> List[List[int]]: ...
    def get(self, row: int, col: int) -> int:
        """The digit at (row, col), both from 1."""
    def __eq__(self, other: object) -> bool: ...

class Puzzle:
    """A puzzle read by `read`; draws itself in a notebook."""
    @property
    def size(self) -> int: ...
    @property
    def givens(self) -> List[int]: ...
    @property
    def source(self) -> str:
        """Where it was read: `file:line`."""
    @property
    def rules(self) -> Dict[str, Any]:
        """regions, diagonals, constraints (count per kind), weights, known_count."""
    def to_line(self) -> str: ...
    def to_fpuzzles(self) -> str: ...
    def svg(self, solution: Optional[GridLike] = None, cell: float = 40.0, title: Optional[str] = None) -> str: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...

class Answer:
    """A checked answer, or a time-out (`status == "timeout"`)."""
    backend: str
    status: str
    grid: Optional[Grid]
    second: Optional[Grid]
    count: Optional[int]
    complete: Optional[bool]
    value: Optional[int]
    bound: Optional[int]
    time: float
    effort: Dict[str, int]

class Cnf:
    """A CNF encoding in the numbering of `sudoku-lab encode --to dimacs`."""
    clauses: List[List[int]]
    nvars: int
    def var(self, r: int, c: int, d: int) -> int:
        """The variable of "row r, column c holds digit d" (all from 1)."""
    def decode(self, model: Sequence[int]) -> Grid: ...
    def dimacs(self) -> str: ...

def read(text_or_path: Union[str, "PathLike[str]"], format: Optional[str] = None, diagonals: bool = False) -> List[Puzzle]: ...
def solve(puzzle: Puzzle, backend: str = "dfs", timeout: Optional[float] = None, **options: Any) -> Answer: ...
def count(puzzle: Puzzle, limit: int = ..., backend: str = "dfs", timeout: Optional[float] = None, **options: Any) -> Answer: ...
def unique(puzzle: Puzzle, backend: str = "dfs", timeout: Optional[float] = None, **options: Any) -> Answer: ...
def optimize(puzzle: Puzzle, weights: Optional[WeightsLike] = None, backend: str = "dfs", timeout: Optional[float] = None, **options: Any) -> Answer: ...
def check(puzzle: Puzzle, grid: GridLike) -> List[str]: ...
def encode(
    puzzle: Puzzle,
    to: str = "cnf",
    encoding: str = "extended",
    amo: str = "auto",
    cage_encoding: str = "combinations",
    pair_encoding: str = "direct",
    sum_encoding: str = "auto",
    simplify: bool = True,
    propagate: bool = False,
    weights: Optional[WeightsLike] = None,
) -> Union[Cnf, str]: ...
def xcheck(puzzles: Sequence[Puzzle], backends: Optional[Sequence[str]] = None, task: str = "unique", **options: Any) -> List[Dict[str, Any]]:
    """Keywords: limit, weights, timeout, jobs, and the engine options."""
def bench(puzzles: Sequence[Puzzle], backends: Optional[Sequence[str]] = None, task: str = "unique", **options: Any) -> List[Dict[str, Any]]:
    """Keywords: limit, weights, timeout, budget, no_effort, and the engine options. Rows carry the
    effort columns (no_guess_pct, guesses_per_puzzle, nodes_per_puzzle, …; None when unmeasured)."""
def render(puzzle: Puzzle, solution: Optional[GridLike] = None, cell: float = 40.0, title: Optional[str] = None) -> str: ...
def generate(
    size: Optional[int] = None,
    count: int = 1,
    givens: Optional[int] = None,
    unique: bool = False,
    seed: Optional[int] = None,
    diagonals: bool = False,
    jigsaw: bool = False,
    boxes: Optional[Tuple[int, int]] = None,
    killer: bool = False,
    cage_sizes: Tuple[int, int] = (2, 5),
    variants: Optional[Sequence[str]] = None,
    with_answer: bool = False,
    weights: Optional[str] = None,
    backend: str = "dfs",
    budget: float = 120.0,
) -> List[Puzzle]:
    """As `sudoku-lab generate`: the same seed and options, the same puzzles."""
def strength(
    puzzles: Sequence[Puzzle],
    encodings: Union[str, Sequence[str], None] = None,
    levels: Union[str, Sequence[str], None] = None,
    amo: Union[str, Sequence[str], None] = None,
    cage_encoding: str = "combinations",
    pair_encoding: str = "direct",
    per_puzzle: bool = False,
    jobs: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """As `sudoku-lab strength` (defaults: encodings minimal,extended; levels up,flp; amo auto):
    one row per level and encoding, or with per_puzzle one row per puzzle and encoding. Levels
    include the model levels (naked, hidden, locked, dfs, cp-*) and the logic engine's technique
    levels (logic-singles … logic-forcing)."""
def explain(
    puzzle: Puzzle,
    techniques: Union[str, Sequence[str], None] = None,
    uniqueness: bool = True,
) -> List[Dict[str, Any]]:
    """As `sudoku-lab explain --json`: one dict per step (step, technique, name, text, placements,
    eliminations, score, rating); a path that stalls simply ends (the command's last record,
    `"outcome": "stuck"`, is not in the list)."""
def grade(
    puzzles: Sequence[Puzzle],
    techniques: Union[str, Sequence[str], None] = None,
    uniqueness: bool = True,
) -> List[Dict[str, Any]]:
    """As `sudoku-lab grade --json`'s rows: file, line, level, score, rating, pearl, diamond,
    hardest, steps, logic_only, time."""
def backend_names() -> List[str]: ...
