//! The Python module `sudoku_lab`: a thin binding over the `sudoku_lab` library. It converts
//! Python values into the library's types and back, and calls the library; every decision —
//! reading, solving, checking, encoding, cross-checking — is the library's.
//!
//! Names and defaults follow the command line (`docs/cli.md`): `read` is the input reader,
//! `solve`, `count`, `unique` and `optimize` the four tasks (`backend="dfs"`, engine options as
//! keywords spelled like the flags with `_` for `-`), `check` the independent checker,
//! `encode` the exports, `xcheck` and `bench` the cross-check and its timing rows (with the
//! effort columns), `strength` the root-strength table, `explain` and `grade` the logic
//! engine's steps and grades, `generate` and `render` the generator and the pictures.
//!
//! Long calls release the GIL and run on a worker thread while this thread waits for Python
//! signals ([`interruptible`]): on Ctrl-C the call sets the library's cancel flag
//! ([`sudoku_lab::backend::Cancel`]), waits for the search to stop (within milliseconds for the
//! backends that poll it), and raises `KeyboardInterrupt`.

use std::str::FromStr;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use sudoku_lab::backend::{Backend, BackendError, Cancel, Limits};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::bench::{self, Bench, Case};
use sudoku_lab::check;
use sudoku_lab::format::{self, fpuzzles, Format, ReadOptions};
use sudoku_lab::generate::{GenerateOptions, Generator, PuzzleSpec};
use sudoku_lab::model::{self, ConstraintKind, Expected, Regions, Weights};
use sudoku_lab::isolate::WorkerProgram;
use sudoku_lab::logic::{self, Ladder, LogicError};
use sudoku_lab::render::{self, RenderOptions};
use sudoku_lab::report::logic::{GradeRow, StepRecord};
use sudoku_lab::report::BenchRow;
use sudoku_lab::sat::encode::{self, Amo, EncodeOptions, Encoding};
use sudoku_lab::settings::{EngineSettings, Setting, SettingError};
use sudoku_lab::strength::table::{Level, Study};
use sudoku_lab::task::{self, RunError, Task, DEFAULT_COUNT_LIMIT};
use sudoku_lab::weights::WeightSource;
use sudoku_lab::xcheck::{self as cross, Batch};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A keyword's number of seconds (`timeout`, `budget`).
fn seconds(key: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
    s.map(|s| Duration::try_from_secs_f64(s).map_err(|_| value_error(format!("{key} {s}"))))
        .transpose()
}

// ---------------------------------------------------------------------------------------------
// Grids and puzzles

/// A grid of digits (a solution, or any filled grid to check). `str(grid)` is the command
/// line's text: one line of n² symbols.
#[pyclass(module = "sudoku_lab", frozen, eq)]
#[derive(Clone, PartialEq)]
struct Grid(model::Grid);

#[pymethods]
impl Grid {
    /// A grid from its line (n² symbols, `.` or `0` for empty) or from n rows of n integers.
    #[new]
    fn new(cells: &Bound<'_, PyAny>) -> PyResult<Grid> {
        grid_arg(cells)
    }
    /// The side n.
    #[getter]
    fn size(&self) -> usize {
        self.0.size()
    }
    /// The digits row by row (0 for an empty cell), as a list of n lists.
    #[getter]
    fn rows(&self) -> Vec<Vec<u16>> {
        self.0.rows().map(|r| r.to_vec()).collect()
    }
    /// The digit at (row, col), both from 1.
    fn get(&self, row: usize, col: usize) -> PyResult<u16> {
        let n = self.0.size();
        if !(1..=n).contains(&row) || !(1..=n).contains(&col) {
            return Err(PyValueError::new_err(format!(
                "row and column run from 1 to {n}, not ({row}, {col})"
            )));
        }
        Ok(self.0.get(row - 1, col - 1))
    }
    fn __str__(&self) -> String {
        self.0.to_string()
    }
    fn __repr__(&self) -> String {
        format!("Grid('{}')", self.0)
    }
}

/// A grid argument: a `Grid`, its line, or n rows of n integers, read by the library's reader
/// (line format, or grid format for the rows).
fn grid_arg(v: &Bound<'_, PyAny>) -> PyResult<Grid> {
    if let Ok(g) = v.downcast::<Grid>() {
        return Ok(g.get().clone());
    }
    let (text, format) = if let Ok(s) = v.extract::<String>() {
        (s.trim().to_string(), Format::Line)
    } else {
        let rows: Vec<Vec<u32>> = v.extract().map_err(|_| {
            PyTypeError::new_err("a grid is a Grid, its line, or a list of rows of integers")
        })?;
        let lines: Vec<String> = rows
            .iter()
            .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        (lines.join("\n"), Format::Grid)
    };
    let opts = ReadOptions {
        format: Some(format),
        diagonals: false,
    };
    let mut read = format::read_puzzles(&text, &opts);
    match (read.len(), read.pop()) {
        (1, Some(Ok(entry))) => {
            let p = entry.puzzle;
            Ok(Grid(model::Grid::new(p.size(), p.givens().to_vec())))
        }
        (1, Some(Err(e))) => Err(value_error(format!("grid:{}:{}: {}", e.line, e.col, e.message))),
        _ => Err(value_error("a grid is one square grid of digits")),
    }
}

/// A puzzle read by `read`: its geometry, givens and rules (and its known answer, if the input
/// gave one). In a notebook it draws itself.
#[pyclass(module = "sudoku_lab", frozen)]
#[derive(Clone)]
struct Puzzle {
    puzzle: model::Puzzle,
    expected: Option<Expected>,
    /// Where it was read: `file:line`.
    source: String,
}

#[pymethods]
impl Puzzle {
    /// The side n of the grid.
    #[getter]
    fn size(&self) -> usize {
        self.puzzle.size()
    }
    /// The givens row by row, 0 for an empty cell (n² integers).
    #[getter]
    fn givens(&self) -> Vec<u16> {
        self.puzzle.givens().to_vec()
    }
    /// Where the puzzle was read (`file:line`).
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }
    /// A summary of the rules: regions (`boxes RxC` or `jigsaw`), diagonals, the number of
    /// constraints of each kind, weights, and the known number of solutions when given.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let shape = self.puzzle.shape();
        let regions = match shape.regions() {
            Regions::Boxes { rows, cols } => format!("boxes {rows}x{cols}"),
            Regions::Jigsaw(_) => "jigsaw".to_string(),
        };
        d.set_item("regions", regions)?;
        d.set_item("diagonals", shape.diagonals())?;
        let kinds = PyDict::new(py);
        for c in self.puzzle.constraints() {
            let k = c.kind().to_string();
            let before: usize = kinds.get_item(&k)?.map_or(Ok(0), |v| v.extract())?;
            kinds.set_item(k, before + 1)?;
        }
        d.set_item("constraints", kinds)?;
        d.set_item("weights", self.puzzle.weights().is_some())?;
        d.set_item("known_count", self.expected.as_ref().map(|e| e.count))?;
        Ok(d)
    }
    /// The puzzle as one line of the line format, as `read` takes it back.
    fn to_line(&self) -> PyResult<String> {
        format::to_line(&self.puzzle).map_err(value_error)
    }
    /// The puzzle as an f-puzzles JSON document (text).
    fn to_fpuzzles(&self) -> PyResult<String> {
        let doc = fpuzzles::to_json(&self.puzzle, None).map_err(value_error)?;
        Ok(doc.to_string())
    }
    /// The picture of the puzzle as an SVG document; with a solution, its digits too.
    #[pyo3(signature = (solution=None, cell=40.0, title=None))]
    fn svg(
        &self,
        solution: Option<&Bound<'_, PyAny>>,
        cell: f64,
        title: Option<String>,
    ) -> PyResult<String> {
        let solution = solution.map(grid_arg).transpose()?;
        let options = RenderOptions { cell, title };
        Ok(render::svg(
            &self.puzzle,
            solution.as_ref().map(|g| &g.0),
            &options,
        ))
    }
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(None, 40.0, None)
    }
    /// The picture inline in HTML (without the SVG document's XML declaration).
    fn _repr_html_(&self) -> PyResult<String> {
        let svg = self._repr_svg_()?;
        let inline = match svg.strip_prefix("<?xml") {
            Some(rest) => rest.split_once("?>").map_or(rest, |(_, s)| s).trim_start(),
            None => &svg,
        };
        Ok(format!("<div>{inline}</div>"))
    }
    fn __repr__(&self) -> String {
        let line = format::to_line(&self.puzzle).unwrap_or_else(|_| "…".into());
        format!("Puzzle({}x{}, '{line}')", self.size(), self.size())
    }
}

/// Reads every puzzle of a text or a file, in any format the command line reads (line, grid,
/// JSON, f-puzzles). `text_or_path` is a path when such a file exists, else the text itself.
/// `format` forces one (`"line"`, `"grid"`, `"json"`, `"fpuzzles"`); `diagonals` makes every
/// puzzle an X-Sudoku. A bad puzzle raises `ValueError` naming file, line and column.
#[pyfunction]
#[pyo3(signature = (text_or_path, format=None, diagonals=false))]
fn read(
    text_or_path: &Bound<'_, PyAny>,
    format: Option<&str>,
    diagonals: bool,
) -> PyResult<Vec<Puzzle>> {
    let format: Option<Format> = format.map(str::parse).transpose().map_err(value_error)?;
    // A str is a path when a file of that name exists; an os.PathLike always is.
    let path = match text_or_path.extract::<String>() {
        Ok(s) if s.contains('\n') || !std::path::Path::new(&s).is_file() => Err(s),
        Ok(s) => Ok(std::path::PathBuf::from(s)),
        Err(_) => Ok(text_or_path.extract::<std::path::PathBuf>()?),
    };
    let (name, text) = match path {
        Ok(path) => {
            let name = path.display().to_string();
            let bytes = std::fs::read(&path).map_err(|e| value_error(format!("{name}: {e}")))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| value_error(format!("{name}: input is not valid UTF-8 text")))?;
            (name, text)
        }
        Err(text) => ("<string>".to_string(), text),
    };
    let opts = ReadOptions { format, diagonals };
    format::read_puzzles(&text, &opts)
        .into_iter()
        .map(|entry| match entry {
            Ok(e) => Ok(Puzzle {
                puzzle: e.puzzle,
                expected: e.expected,
                source: format!("{name}:{}", e.line),
            }),
            Err(e) => Err(value_error(format!(
                "{name}:{}:{}: error: {}",
                e.line, e.col, e.message
            ))),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Backends and their options

/// The options of the engines, from the keywords (the flags' names with `_` for `-`), by the
/// library's settings ([`EngineSettings::set`]); `cp` searches in a worker process
/// ([`cp_worker`]) unless `cp_in_process=True`.
fn backend_options(
    py: Python<'_>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<BackendOptions> {
    let mut settings = EngineSettings::default();
    for (k, v) in options.into_iter().flat_map(|o| o.iter()) {
        let key: String = k.extract()?;
        let value = if let Ok(b) = v.downcast::<PyBool>() {
            Setting::Switch(b.is_true())
        } else if let Ok(n) = v.extract::<u64>() {
            Setting::Number(n)
        } else if let Ok(path) = v.extract::<std::path::PathBuf>() {
            Setting::Word(path.to_string_lossy().into_owned())
        } else {
            return Err(PyTypeError::new_err(format!(
                "{key}: expected True or False, a number or a string"
            )));
        };
        settings.set(&key, value).map_err(|e| match e {
            SettingError::Unknown(_) | SettingError::Kind { .. } => PyTypeError::new_err(e.to_string()),
            SettingError::Value { .. } => value_error(e),
        })?;
    }
    let worker = cp_worker(py)?;
    Ok(settings.options(|| worker))
}

/// The `cp` backend's worker process: this Python, with this process's module path, serving
/// requests with [`serve_worker`]. A crash inside huub ends that process, not the notebook's
/// kernel.
fn cp_worker(py: Python<'_>) -> PyResult<WorkerProgram> {
    let sys = py.import("sys")?;
    let python: std::path::PathBuf = sys.getattr("executable")?.extract()?;
    let path = sys.getattr("path")?.repr()?.to_string();
    let code = format!(
        "import sys; sys.path[:0] = {path}; import sudoku_lab as m; \
         serve = getattr(m, '_serve_worker', None) or m.sudoku_lab._serve_worker; \
         sys.exit(serve('cp'))"
    );
    Ok(WorkerProgram::new(python, ["-c", code.as_str()]))
}

/// Serves the requests of a worker process (`cp`) on standard input and output until standard
/// input ends; returns the exit status. Started by [`cp_worker`], not for direct use.
#[pyfunction]
fn _serve_worker(kind: &str) -> PyResult<i32> {
    let served: std::io::Result<()> = match kind {
        #[cfg(feature = "cp")]
        "cp" => sudoku_lab::backends::cp::serve_worker(),
        other => return Err(value_error(format!("unknown worker '{other}'"))),
    };
    Ok(if served.is_ok() { 0 } else { 1 })
}

/// The backend named `name`, with the options.
fn backend(name: &str, options: &BackendOptions) -> PyResult<Box<dyn Backend>> {
    let kind: BackendKind = name.parse().map_err(value_error)?;
    backends::create(kind, options).map_err(|e| value_error(format!("backend {kind}: {e}")))
}

/// The named backends, or every backend compiled in when `names` is `None`.
fn backend_list(
    names: Option<Vec<String>>,
    options: &BackendOptions,
) -> PyResult<Vec<Box<dyn Backend>>> {
    match names {
        Some(names) => names.iter().map(|n| backend(n, options)).collect(),
        None => BackendKind::all()
            .into_iter()
            .map(|k| backends::create(k, options).map_err(value_error))
            .collect(),
    }
}

/// The puzzle with the weights of `weights`: `"pyramid"`, a weights file, or n rows of n
/// integers. `None` keeps the puzzle's own weights, or gives it the pyramid.
fn weighted(p: &model::Puzzle, weights: Option<&Bound<'_, PyAny>>) -> PyResult<model::Puzzle> {
    let n = p.size();
    let w = match weights {
        None if p.weights().is_some() => return Ok(p.clone()),
        None => Weights::pyramid(n),
        Some(v) => match v.extract::<String>() {
            Ok(s) if s == "pyramid" => Weights::pyramid(n),
            Ok(path) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| value_error(format!("{path}: {e}")))?;
                let source = WeightSource::File { name: path, text };
                source.fixed(n).map_err(value_error)?
            }
            Err(_) => {
                let rows: Vec<Vec<i64>> = v.extract()?;
                Weights::new(n, rows.concat()).map_err(value_error)?
            }
        },
    };
    p.clone().with_weights(Arc::new(w)).map_err(value_error)
}

/// How often a long call lets Python handle its signals.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a scoped thread with the GIL released, waking every [`SIGNAL_POLL`] to let
/// Python handle signals. When a handler raises (Ctrl-C: `KeyboardInterrupt`), sets `cancel`,
/// which the work's limits carry, waits for the work to stop, and raises that error.
fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("sudoku-lab".into())
            .spawn_scoped(scope, move || {
                let _ = tx.send(work());
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let mut rx = rx;
        loop {
            let (back, received) = py.allow_threads(move || {
                let received = rx.recv_timeout(SIGNAL_POLL);
                (rx, received)
            });
            rx = back;
            match received {
                Ok(result) => return Ok(result),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        cancel.set();
                        py.allow_threads(move || drop(rx.recv()));
                        return Err(raised);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the solving thread stopped"))
                }
            }
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Answers

/// A checked answer (or a time-out). `status` is one of `none`, `solved`, `counted`,
/// `unique`, `multiple`, `optimal`, `feasible` (as the command line's JSON) or `timeout`.
#[pyclass(module = "sudoku_lab", frozen, get_all)]
struct Answer {
    /// The backend that answered.
    backend: String,
    status: String,
    /// The grid found (solve, unique, count: the first; optimize: the best), else None.
    grid: Option<Grid>,
    /// The second solution of a `multiple` answer.
    second: Option<Grid>,
    /// The number of solutions it establishes (count, unique; a time-out of a count: found so far).
    count: Option<u64>,
    /// Whether `count` is exact (False: "at least").
    complete: Option<bool>,
    /// The score Σ weight × digit of `optimize`.
    value: Option<i64>,
    /// An upper bound on the optimum, when known.
    bound: Option<i64>,
    /// Seconds taken, the independent check included.
    time: f64,
    /// What the engine did (nodes, decisions, conflicts, …): a dict of the counters it reports.
    effort: PyObject,
}

#[pymethods]
impl Answer {
    fn __repr__(&self) -> String {
        let grid = self.grid.as_ref().map(|g| format!(", grid='{}'", g.0));
        format!(
            "Answer(status='{}', backend='{}'{}{}{})",
            self.status,
            self.backend,
            self.count
                .map(|c| format!(", count={c}"))
                .unwrap_or_default(),
            self.value
                .map(|v| format!(", value={v}"))
                .unwrap_or_default(),
            grid.unwrap_or_default()
        )
    }
}

/// A Python object from anything serde writes (through `json.loads`).
fn to_python<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<PyObject> {
    let text = serde_json::to_string(value).map_err(value_error)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// The answer of `task` on `puzzle`: a time-out is an answer, a refusal a `ValueError`, a
/// failure (a solver's, or an answer the checker rejected) a `RuntimeError`.
fn run_task(
    py: Python<'_>,
    puzzle: model::Puzzle,
    task: Task,
    backend_name: &str,
    timeout: Option<f64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Answer> {
    let b = backend(backend_name, &backend_options(py, options)?)?;
    let timeout = seconds("timeout", timeout)?;
    let cancel = Cancel::new();
    let limits = || Limits::timeout_of(timeout).cancelled_by(cancel.clone());
    let task::Timed {
        result,
        time,
        effort,
    } = interruptible(py, &cancel, || task::time(b.as_ref(), &puzzle, task, limits, true))?;
    let mut answer = Answer {
        backend: backend_name.to_string(),
        status: "timeout".into(),
        grid: None,
        second: None,
        count: None,
        complete: None,
        value: None,
        bound: None,
        time: time.as_secs_f64(),
        effort: to_python(py, &effort)?,
    };
    match result {
        Ok(a) => {
            answer.status = a.status().to_string();
            answer.grid = a.grid().cloned().map(Grid);
            if let task::Answer::Multiple(_, g) = &a {
                answer.second = Some(Grid(g.clone()));
            }
            if let Some((c, complete)) = a.count() {
                (answer.count, answer.complete) = (Some(c), Some(complete));
            }
            if let task::Answer::Optimum { score, bound, .. } = a {
                (answer.value, answer.bound) = (Some(score), bound);
            }
        }
        Err(e) if e.timed_out() => {
            if let Some(found) = e.at_least() {
                (answer.count, answer.complete) = (Some(found), Some(false));
            }
        }
        Err(RunError::Backend(BackendError::Unsupported(why))) => {
            return Err(value_error(format!("{backend_name}: {why}")))
        }
        Err(e) => return Err(PyRuntimeError::new_err(format!("{backend_name}: {e}"))),
    }
    Ok(answer)
}

/// `solve` and `unique`: a task with no parameter of its own.
macro_rules! plain_task {
    ($(#[$doc:meta])* $name:ident, $task:expr) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (puzzle, backend="dfs", timeout=None, **options))]
        fn $name(
            py: Python<'_>,
            puzzle: &Puzzle,
            backend: &str,
            timeout: Option<f64>,
            options: Option<&Bound<'_, PyDict>>,
        ) -> PyResult<Answer> {
            run_task(py, puzzle.puzzle.clone(), $task, backend, timeout, options)
        }
    };
}

plain_task!(
    /// One solution of the puzzle (status `solved`), or status `none`.
    solve,
    Task::Solve
);

plain_task!(
    /// `none`, `unique` (with the grid) or `multiple` (with two different grids).
    unique,
    Task::Unique
);

// The default `limit` of `count` is written out so that `help()` shows it; it is the command's.
const _: () = assert!(DEFAULT_COUNT_LIMIT == 1_000_000);

/// The number of solutions, up to `limit` (status `counted`, `complete` False at the limit).
#[pyfunction]
#[pyo3(signature = (puzzle, limit=1_000_000, backend="dfs", timeout=None, **options))]
fn count(
    py: Python<'_>,
    puzzle: &Puzzle,
    limit: u64,
    backend: &str,
    timeout: Option<f64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Answer> {
    let task = Task::Count {
        limit: limit.max(1),
    };
    run_task(py, puzzle.puzzle.clone(), task, backend, timeout, options)
}

/// The maximum of Σ weight × digit (`value`), with a grid reaching it: status `optimal`, or
/// `feasible` when a time-out came before the proof. `weights`: `"pyramid"` (the default when the
/// puzzle has none), a weights file, or n rows of n integers.
#[pyfunction]
#[pyo3(signature = (puzzle, weights=None, backend="dfs", timeout=None, **options))]
fn optimize(
    py: Python<'_>,
    puzzle: &Puzzle,
    weights: Option<&Bound<'_, PyAny>>,
    backend: &str,
    timeout: Option<f64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Answer> {
    let p = weighted(&puzzle.puzzle, weights)?;
    run_task(py, p, Task::Optimize, backend, timeout, options)
}

/// The rules `grid` breaks in `puzzle`, by the independent checker: an empty list when the grid
/// solves it, else the first rule broken (as the checker reports it).
#[pyfunction]
#[pyo3(name = "check")]
fn check_grid(puzzle: &Puzzle, grid: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let g = grid_arg(grid)?;
    Ok(match check::verify(&puzzle.puzzle, &g.0) {
        Ok(()) => Vec::new(),
        Err(failure) => vec![failure.to_string()],
    })
}

// ---------------------------------------------------------------------------------------------
// Encodings

/// A CNF encoding of a puzzle, in the numbering of `sudoku-lab encode --to dimacs`.
#[pyclass(module = "sudoku_lab", frozen)]
struct Cnf {
    puzzle: model::Puzzle,
    options: EncodeOptions,
    /// The clauses as lists of DIMACS literals (what PySAT takes).
    #[pyo3(get)]
    clauses: Vec<Vec<i32>>,
    /// The number of variables (cell variables and auxiliary ones).
    #[pyo3(get)]
    nvars: u64,
}

#[pymethods]
impl Cnf {
    /// The variable of "row r, column c holds digit d" (all from 1).
    fn var(&self, r: usize, c: usize, d: usize) -> PyResult<i64> {
        let n = self.puzzle.size();
        let var = (r >= 1 && c >= 1).then(|| encode::dimacs_var(n, r - 1, c - 1, d));
        var.flatten().ok_or_else(|| {
            PyValueError::new_err(format!(
                "row, column and digit run from 1 to {n}, not ({r}, {c}, {d})"
            ))
        })
    }
    /// The grid of a model (the true literals, or a whole model as PySAT gives it); given cells
    /// come from the puzzle.
    fn decode(&self, model: Vec<i64>) -> Grid {
        Grid(encode::decode_dimacs_model(
            &self.puzzle,
            &self.options,
            &model,
        ))
    }
    /// The DIMACS text, with the header that says how to decode a model.
    fn dimacs(&self) -> PyResult<String> {
        let mut out = Vec::new();
        encode::to_dimacs(&self.puzzle, &self.options, &mut out).map_err(value_error)?;
        String::from_utf8(out).map_err(value_error)
    }
    fn __repr__(&self) -> String {
        format!(
            "Cnf({} variables, {} clauses, encoding {})",
            self.nvars,
            self.clauses.len(),
            self.options.encoding
        )
    }
}

/// The puzzle as `to="cnf"` (a `Cnf`), `"wcnf"` (weighted MaxSAT text; weights default to the
/// pyramid) or `"lp"` (CPLEX LP text; an objective only with `weights`). The encoding keywords are
/// those of `sudoku-lab encode`.
#[pyfunction]
#[pyo3(name = "encode")]
#[pyo3(signature = (puzzle, to="cnf", encoding="extended", amo="auto",
                    cage_encoding="combinations", pair_encoding="direct", sum_encoding="auto",
                    simplify=true, propagate=false, weights=None))]
#[allow(clippy::too_many_arguments)]
fn encode_puzzle(
    py: Python<'_>,
    puzzle: &Puzzle,
    to: &str,
    encoding: &str,
    amo: &str,
    cage_encoding: &str,
    pair_encoding: &str,
    sum_encoding: &str,
    simplify: bool,
    propagate: bool,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let settings = EngineSettings {
        encoding: encoding.parse().map_err(value_error)?,
        amo: amo.parse().map_err(value_error)?,
        cage_encoding: cage_encoding.parse().map_err(value_error)?,
        pair_encoding: pair_encoding.parse().map_err(value_error)?,
        sum_encoding: sum_encoding.parse().map_err(value_error)?,
        no_simplify: !simplify,
        no_propagate: !propagate,
        // As the command's `encode --propagate`: singles and locked candidates, no probing.
        no_probe: true,
        ..EngineSettings::default()
    };
    let options = settings.encode_options();
    let mut out = Vec::new();
    let text = |out: Vec<u8>| -> PyResult<PyObject> {
        Ok(String::from_utf8(out)
            .map_err(value_error)?
            .into_pyobject(py)?
            .into_any()
            .unbind())
    };
    match to {
        "cnf" | "dimacs" => {
            let mut cnf = sudoku_lab::sat::Cnf::new();
            let enc = encode::encode(
                &puzzle.puzzle,
                &options,
                encode::Numbering::Formula,
                &mut cnf,
            );
            let clauses = cnf
                .clauses()
                .map(|c| c.iter().map(|l| l.to_ipasir()).collect())
                .collect();
            let cnf = Cnf {
                puzzle: puzzle.puzzle.clone(),
                options,
                clauses,
                nvars: enc.stats.total().vars,
            };
            Ok(Py::new(py, cnf)?.into_any())
        }
        "wcnf" => {
            let p = weighted(&puzzle.puzzle, weights)?;
            sudoku_lab::sat::wcnf::to_wcnf(&p, &options, &mut out).map_err(value_error)?;
            text(out)
        }
        "lp" => {
            let p = match weights {
                Some(_) => weighted(&puzzle.puzzle, weights)?,
                None => puzzle.puzzle.clone(),
            };
            let objective = p.weights().is_some();
            sudoku_lab::ilp::lp::write_lp(&p, objective, &mut out).map_err(value_error)?;
            text(out)
        }
        other => Err(PyValueError::new_err(format!(
            "unknown target '{other}' (choose one of: cnf, wcnf, lp)"
        ))),
    }
}

// ---------------------------------------------------------------------------------------------
// Cross-checks and timing

/// What `xcheck` and `bench` run: the puzzles (weighted for `optimize`), the backends, the task.
struct Runs {
    puzzles: Vec<(model::Puzzle, Option<Expected>)>,
    backends: Vec<Box<dyn Backend>>,
    task: Task,
    timeout: Option<Duration>,
    /// Puzzles cross-checked at the same time (`bench` times one at a time).
    jobs: usize,
    /// Each backend's time over the puzzles (`bench`, as `--budget`).
    budget: Option<Duration>,
    /// Meter every run, for the effort columns of the rows (`bench`, unless `no_effort`).
    effort: bool,
}

impl Runs {
    /// The runs of `puzzles` through `backends` on `task`; `options` holds `limit`, `weights`,
    /// `timeout`, `budget` and `jobs` (taken out) and the engine options.
    fn new<'py>(
        py: Python<'py>,
        puzzles: Vec<PyRef<'py, Puzzle>>,
        backends: Option<Vec<String>>,
        task: &str,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Runs> {
        let take = |key: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
            let Some(v) = options.map(|o| o.get_item(key)).transpose()?.flatten() else {
                return Ok(None);
            };
            options.map(|o| o.del_item(key)).transpose()?;
            Ok(Some(v).filter(|v| !v.is_none()))
        };
        let limit: u64 = take("limit")?.map_or(Ok(DEFAULT_COUNT_LIMIT), |v| v.extract())?;
        let weights = take("weights")?;
        let weights = weights.as_ref();
        let secs = |key| -> PyResult<Option<Duration>> {
            seconds(key, take(key)?.map(|v| v.extract()).transpose()?)
        };
        let (timeout, budget) = (secs("timeout")?, secs("budget")?);
        let jobs: usize = take("jobs")?.map_or(Ok(1), |v| v.extract())?;
        let no_effort: bool = take("no_effort")?.map_or(Ok(false), |v| v.extract())?;
        let task = task.parse::<Task>().map_err(value_error)?.with_limit(limit);
        let puzzles = puzzles
            .iter()
            .map(|p| {
                let puzzle = match task {
                    Task::Optimize => weighted(&p.puzzle, weights)?,
                    _ => p.puzzle.clone(),
                };
                Ok((puzzle, p.expected.clone()))
            })
            .collect::<PyResult<_>>()?;
        Ok(Runs {
            puzzles,
            backends: backend_list(backends, &backend_options(py, options)?)?,
            task,
            timeout,
            jobs,
            budget,
            effort: !no_effort,
        })
    }

    /// Cross-checks every puzzle through every backend on `jobs` threads (GIL released),
    /// unmetered, and returns each puzzle's result in input order.
    fn cross_check(self, py: Python<'_>) -> PyResult<Vec<cross::Checked>> {
        let cancel = Cancel::new();
        interruptible(py, &cancel, || -> Result<_, String> {
            let batch = Batch {
                backends: &self.backends,
                task: self.task,
                timeout: self.timeout,
                budget: None,
                jobs: self.jobs.max(1),
                cancel: Some(cancel.clone()),
                effort: false,
            };
            let refs: Vec<_> = self.puzzles.iter().map(|(p, e)| (p, e.as_ref())).collect();
            let stop = std::sync::atomic::AtomicBool::new(false);
            let mut checked = Vec::new();
            cross::run_batch(&batch, &refs, &stop, |c| {
                checked.push(cross::Checked {
                    position: c.position,
                    ran: c.ran.clone(),
                    runs: c.runs.clone(),
                    verdict: c.verdict.clone(),
                })
            })
            .map_err(|e| e.to_string())?;
            checked.sort_by_key(|c| c.position);
            Ok(checked)
        })?
        .map_err(|e: String| PyRuntimeError::new_err(e))
    }

    /// Times every backend on every puzzle with the command's loop ([`bench::run`], GIL
    /// released): the rows of `sudoku-lab bench`, file `all`, puzzles numbered from 1.
    fn bench(self, py: Python<'_>) -> PyResult<Vec<BenchRow>> {
        let cancel = Cancel::new();
        interruptible(py, &cancel, || {
            let bench = Bench {
                backends: &self.backends,
                task: self.task,
                timeout: self.timeout,
                budget: self.budget,
                effort: self.effort,
                cancel: Some(cancel.clone()),
            };
            let cases: Vec<Case> = (self.puzzles.iter().enumerate())
                .map(|(i, (puzzle, expected))| Case {
                    index: i + 1,
                    puzzle,
                    expected: expected.as_ref(),
                })
                .collect();
            bench::run(&bench, "all", &cases, |_| {})
        })
    }
}

/// The rows of `xcheck` (its docstring is below): one per puzzle and backend, unmetered.
fn xcheck_rows<'py>(py: Python<'py>, runs: Runs) -> PyResult<Bound<'py, PyList>> {
    let checked = runs.cross_check(py)?;
    let rows = PyList::empty(py);
    for c in &checked {
        for r in &c.runs {
            let d = PyDict::new(py);
            d.set_item("puzzle", c.position + 1)?;
            d.set_item("backend", r.backend)?;
            let status = match &r.result {
                Ok(a) => a.status(),
                Err(_) if r.timed_out() => "timeout",
                Err(_) if r.refused() => "refused",
                Err(_) => "error",
            };
            d.set_item("status", status)?;
            d.set_item("answer", r.said())?;
            d.set_item("verdict", c.verdict.to_string())?;
            d.set_item("time", r.time.as_secs_f64())?;
            rows.append(d)?;
        }
    }
    Ok(rows)
}

/// The rows of `bench` (its docstring is below): one per backend, every run metered unless
/// `no_effort`.
fn timing_rows<'py>(py: Python<'py>, runs: Runs) -> PyResult<Bound<'py, PyList>> {
    let bench_rows = runs.bench(py)?;
    let rows = PyList::empty(py);
    for row in &bench_rows {
        rows.append(to_python(py, &row.record)?)?;
    }
    Ok(rows)
}

/// `xcheck` and `bench`: the puzzles through the backends on a task, the keywords read by
/// [`Runs::new`], the rows made by `$rows`.
macro_rules! batch_function {
    ($(#[$doc:meta])* $name:ident, $rows:ident) => {
        #[pyfunction]
        $(#[$doc])*
        #[pyo3(signature = (puzzles, backends=None, task="unique", **options))]
        fn $name<'py>(
            py: Python<'py>,
            puzzles: Vec<PyRef<'py, Puzzle>>,
            backends: Option<Vec<String>>,
            task: &str,
            options: Option<&Bound<'py, PyDict>>,
        ) -> PyResult<Bound<'py, PyList>> {
            $rows(py, Runs::new(py, puzzles, backends, task, options)?)
        }
    };
}

batch_function!(
    /// Cross-checks every puzzle through every backend (default: all compiled in): one dict per
    /// puzzle and backend, with `puzzle` (from 1), `backend`, `status` (the answer's, or
    /// `timeout`, `refused`, `error`), `answer` (what it said), `verdict` (`agreed`,
    /// `disagreement: …`, `failure: …`, the same for every backend of the puzzle) and `time` in
    /// seconds. A puzzle read with its known answer is held against it too. Keywords: `limit`
    /// (count), `weights` (optimize), `timeout` (each run), `jobs` (puzzles at a time, default
    /// 1) and the engine options.
    xcheck,
    xcheck_rows
);

batch_function!(
    /// Times every backend (default: all compiled in) on the puzzles, one at a time so figures
    /// compare, each answer checked: one dict per backend with the columns of `sudoku-lab bench
    /// --json` (`backend`, `task`, `puzzles`, `answered`, `agreed`, `timed_out`, `refused`,
    /// `failed`, `puzzles_per_sec`, `total_s`, `min_us`, `mean_us`, `median_us`, `p90_us`,
    /// `max_us`, `not_run`, then the effort columns `no_guess_pct`, `guesses_per_puzzle` and
    /// the counters' means `nodes_per_puzzle`, `decisions_per_puzzle`, `conflicts_per_puzzle`,
    /// `propagations_per_puzzle`, `restarts_per_puzzle`, `lp_iterations_per_puzzle`,
    /// `bb_nodes_per_puzzle`, None where the backend measures nothing), ready for
    /// `pandas.DataFrame`: the command's own loop, so the same classes (an optimum the deadline
    /// stopped before its proof is a time-out) and the same timing (`sat` timed without its
    /// proof meter, then counted apart). Keywords as `xcheck` (`jobs` is always 1), `budget`
    /// (each backend's seconds over the puzzles, as `--budget`), and `no_effort=True` to time
    /// without the effort meter (as `--no-effort`).
    #[pyo3(name = "bench")]
    bench_fn,
    timing_rows
);

/// The picture of a puzzle as an SVG document (`sudoku-lab render`), with a solution's digits
/// when given.
#[pyfunction]
#[pyo3(name = "render")]
#[pyo3(signature = (puzzle, solution=None, cell=40.0, title=None))]
fn render_svg(
    puzzle: &Puzzle,
    solution: Option<&Bound<'_, PyAny>>,
    cell: f64,
    title: Option<String>,
) -> PyResult<String> {
    puzzle.svg(solution, cell, title)
}

/// `count` new puzzles, as `sudoku-lab generate` makes them, with its options: side `size`
/// (default 9) with its standard boxes, or `boxes=(rows, cols)`, or `jigsaw` regions;
/// `diagonals`; `killer` cages of `cage_sizes=(smallest, largest)` cells (no givens unless
/// asked); `variants`, the kinds of variant rules drawn from each full grid (`["thermo",
/// "arrow", "kropki"]`, see docs/variants.md); `givens` clues (default about two fifths of the
/// cells, or as few as uniqueness allows with `unique`); `unique` (clues kept, or cages split,
/// only while the solution stays unique, checked by `backend`); `with_answer` (needs `unique`:
/// each puzzle carries its solution as its known answer, which `xcheck` holds backends
/// against); `weights="pyramid"`; `seed` (default: from the clock; the same seed gives the same
/// puzzles); each puzzle's uniqueness checks get at most `budget` seconds together.
#[pyfunction]
#[pyo3(signature = (size=None, count=1, givens=None, unique=false, seed=None, diagonals=false,
                    jigsaw=false, boxes=None, killer=false, cage_sizes=(2, 5), variants=None,
                    with_answer=false, weights=None, backend="dfs", budget=120.0))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    size: Option<usize>,
    count: usize,
    givens: Option<usize>,
    unique: bool,
    seed: Option<u64>,
    diagonals: bool,
    jigsaw: bool,
    boxes: Option<(usize, usize)>,
    killer: bool,
    cage_sizes: (usize, usize),
    variants: Option<Vec<String>>,
    with_answer: bool,
    weights: Option<&str>,
    backend: &str,
    budget: f64,
) -> PyResult<Vec<Puzzle>> {
    if with_answer && !unique {
        return Err(value_error("with_answer needs unique=True"));
    }
    let variants = variants
        .unwrap_or_default()
        .iter()
        .map(|k| k.parse::<ConstraintKind>().map_err(value_error))
        .collect::<PyResult<Vec<_>>>()?;
    let side = boxes.map(|(r, c)| r.saturating_mul(c));
    let spec = PuzzleSpec {
        size: size.or(side).unwrap_or(9),
        boxes,
        jigsaw,
        diagonals,
        killer: killer.then_some(cage_sizes),
        variants,
    };
    spec.validate().map_err(value_error)?;
    let weights = match weights {
        None => None,
        Some("pyramid") => Some(WeightSource::Pyramid),
        Some(other) => {
            return Err(value_error(format!(
                "unknown weights '{other}' (known: pyramid)"
            )))
        }
    };
    let options = GenerateOptions {
        givens,
        unique,
        seed: seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        }),
        weights,
        ..GenerateOptions::of(spec)
    };
    let budget = Duration::try_from_secs_f64(budget).map_err(value_error)?;
    let checker = self::backend(backend, &backend_options(py, None)?)?;
    let cancel = Cancel::new();
    let made = interruptible(py, &cancel, || {
        let mut generator = Generator::new(options, checker.as_ref())
            .map_err(|e| e.to_string())?
            .with_puzzle_budget(Some(budget))
            .with_limits(Limits::none().cancelled_by(cancel.clone()));
        (1..=count)
            .map(|i| {
                generator
                    .generate_with_solution()
                    .map_err(|e| format!("puzzle {i}: {e}"))
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    let made = made.map_err(PyValueError::new_err)?;
    Ok(made
        .into_iter()
        .enumerate()
        .map(|(i, (puzzle, solution))| Puzzle {
            puzzle,
            expected: with_answer.then_some(Expected {
                count: 1,
                solution: Some(solution),
            }),
            source: format!("generate:{}", i + 1),
        })
        .collect())
}

/// Root strength (`sudoku-lab strength`): what each propagation level derives from each puzzle
/// before any search, for every CNF encoding × at-most-one encoding of `encodings` and `amo`
/// (lists, or comma-separated words) and every level of `levels`, weakest first (CNF levels
/// `up`, `flp1`, `flp`, `flp-both`, `hbr`, `hbr-eq`, `binflr1`, `binflr`, `pairs1`, `pairs`;
/// model levels `naked`, `hidden`, `locked`, `dfs`, `cp-value`, `cp-bounds`, `cp-domain`;
/// docs/strength.md).
/// Returns the command's rows as dicts, one per level and encoding (model levels once, with
/// encoding `-`): `file` (`all`), `encoding`, `amo`, `level`, `puzzles`, `solved_pct`,
/// `unassigned_pct`, `unassigned_vars_pct`, `contradictions`. With `per_puzzle=True`, instead
/// one dict per puzzle and encoding (as `--per-puzzle`): `puzzle` (from 1), `source`,
/// `encoding`, `amo`, `weakest` (the first level that solves it, `refuted`, or `none`). A
/// puzzle whose formula would not fit in memory raises `ValueError`. `jobs`: puzzles at a time
/// (default: every core).
#[pyfunction]
#[pyo3(signature = (puzzles, encodings=None, levels=None, amo=None, cage_encoding="combinations",
                    pair_encoding="direct", per_puzzle=false, jobs=None))]
#[allow(clippy::too_many_arguments)]
fn strength<'py>(
    py: Python<'py>,
    puzzles: Vec<PyRef<'py, Puzzle>>,
    encodings: Option<&Bound<'py, PyAny>>,
    levels: Option<&Bound<'py, PyAny>>,
    amo: Option<&Bound<'py, PyAny>>,
    cage_encoding: &str,
    pair_encoding: &str,
    per_puzzle: bool,
    jobs: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let encodings: Vec<Encoding> = words(encodings, "minimal,extended")?;
    let amo: Vec<Amo> = words(amo, "auto")?;
    let levels: Vec<Level> = words(levels, "up,flp")?;
    let study = Study::new(
        &encodings,
        &amo,
        cage_encoding.parse().map_err(value_error)?,
        pair_encoding.parse().map_err(value_error)?,
        levels,
    );
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let refs: Vec<&model::Puzzle> = puzzles.iter().map(|p| &p.puzzle).collect();
    let cancel = Cancel::new();
    let derived = interruptible(py, &cancel, || {
        study.derive_all(&refs, jobs.max(1), Some(&cancel), &|| {})
    })?;
    let roots = derived
        .into_iter()
        .zip(&puzzles)
        .map(|(r, p)| r.map_err(|e| value_error(format!("{}: {e}", p.source))))
        .collect::<PyResult<Vec<_>>>()?;
    let out = PyList::empty(py);
    if !per_puzzle {
        let roots: Vec<_> = roots.into_iter().map(Some).collect();
        for row in study.rows("all", &roots) {
            out.append(to_python(py, &row)?)?;
        }
        return Ok(out);
    }
    for (i, (r, p)) in roots.iter().zip(&puzzles).enumerate() {
        for (opts, weakest) in study.weakest(r) {
            let d = PyDict::new(py);
            d.set_item("puzzle", i + 1)?;
            d.set_item("source", &p.source)?;
            d.set_item("encoding", opts.encoding.name())?;
            d.set_item("amo", opts.amo.name())?;
            d.set_item("weakest", weakest)?;
            out.append(d)?;
        }
    }
    Ok(out)
}

/// Words of a keyword that takes a list of names or one comma-separated string, each parsed;
/// `default` (the command's) when absent.
fn words<T: FromStr>(v: Option<&Bound<'_, PyAny>>, default: &str) -> PyResult<Vec<T>>
where
    T::Err: std::fmt::Display,
{
    let names: Vec<String> = match v {
        None => vec![default.to_string()],
        Some(v) => match v.extract::<String>() {
            Ok(s) => vec![s],
            Err(_) => v.extract()?,
        },
    };
    names
        .iter()
        .flat_map(|n| n.split(','))
        .map(|w| w.trim().parse().map_err(value_error))
        .collect()
}

/// The ladder of the keywords `techniques` (keys and families, a list or one comma-separated
/// string as `--techniques`; `None`: the whole ladder) and `uniqueness` (`False`: as
/// `--no-uniqueness`).
fn ladder(techniques: Option<&Bound<'_, PyAny>>, uniqueness: bool) -> PyResult<Ladder> {
    let ladder = match techniques {
        None => Ladder::default(),
        Some(v) => {
            let list = match v.extract::<String>() {
                Ok(s) => s,
                Err(_) => v.extract::<Vec<String>>()?.join(","),
            };
            Ladder::parse(&list).map_err(value_error)?
        }
    };
    Ok(if uniqueness {
        ladder
    } else {
        ladder.without_uniqueness()
    })
}

/// A puzzle the logic engine refuses (too large) as a `ValueError` naming it.
fn refused(p: &Puzzle, e: LogicError) -> PyErr {
    value_error(format!("{}: {e}", p.source))
}

/// The puzzle solved step by step with human techniques (`sudoku-lab explain --json`): one
/// dict per step with `step` (from 1), `technique` (its key), `name`, `text` (HoDoKu's
/// notation, `Hidden Single: r9c3=7`), `placements` and `eliminations` (`[row, column,
/// digit]`, 1-based), `score` (HoDoKu's) and `rating` (Sudoku Explainer style). The path stops
/// where the ladder finds no step. `techniques` restricts the ladder (keys and families, as
/// `--techniques`); `uniqueness=False` leaves out unique rectangles and BUG+1. Killer cages and
/// variant rules take part (a rule's step names it: `[Killer cage r1c1 17] r1c2<>9`).
#[pyfunction]
#[pyo3(signature = (puzzle, techniques=None, uniqueness=true))]
fn explain<'py>(
    py: Python<'py>,
    puzzle: &Puzzle,
    techniques: Option<&Bound<'py, PyAny>>,
    uniqueness: bool,
) -> PyResult<PyObject> {
    let ladder = ladder(techniques, uniqueness)?;
    let cancel = Cancel::new();
    let result = interruptible(py, &cancel, || logic::solve(&puzzle.puzzle, &ladder))?
        .map_err(|e| refused(puzzle, e))?;
    to_python(py, &StepRecord::path(&puzzle.puzzle, &result.steps))
}

/// Grades every puzzle with human techniques (`sudoku-lab grade --json`'s rows), one at a
/// time in input order: one dict per puzzle with `file` and `line` (where it was read),
/// `level` (`easy`, `medium`, `hard`, `unfair`, `extreme`: HoDoKu's, or `unsolved` when the
/// ladder stops), `score` (HoDoKu's), `rating`, `pearl` and `diamond` (Sudoku Explainer
/// style), `hardest` (the technique's key), `steps`, `logic_only` (no bifurcation needed) and
/// `time` (s), ready for `pandas.DataFrame`. Keywords as `explain`.
#[pyfunction]
#[pyo3(signature = (puzzles, techniques=None, uniqueness=true))]
fn grade<'py>(
    py: Python<'py>,
    puzzles: Vec<PyRef<'py, Puzzle>>,
    techniques: Option<&Bound<'py, PyAny>>,
    uniqueness: bool,
) -> PyResult<PyObject> {
    let ladder = ladder(techniques, uniqueness)?;
    let refs: Vec<&Puzzle> = puzzles.iter().map(|p| &**p).collect();
    let cancel = Cancel::new();
    let rows = interruptible(py, &cancel, || {
        let mut rows = Vec::with_capacity(refs.len());
        for p in &refs {
            if cancel.is_set() {
                break;
            }
            let (_, g) = logic::grade(&p.puzzle, &ladder).map_err(|e| refused(p, e))?;
            let (file, line) = p.source.rsplit_once(':').unwrap_or((&p.source, "0"));
            rows.push(GradeRow::new(file, line.parse().unwrap_or(0), &g));
        }
        Ok::<_, PyErr>(rows)
    })??;
    to_python(py, &rows)
}

/// The names of the backends this build has, as `backend=` takes them.
#[pyfunction]
fn backend_names() -> Vec<&'static str> {
    BackendKind::all()
        .into_iter()
        .map(BackendKind::name)
        .collect()
}

/// sudoku-lab: read Sudoku-family puzzles, solve, count and optimise them with interchangeable
/// backends (every answer checked by one independent checker), encode them for SAT, MaxSAT and
/// LP solvers, cross-check and time backends.
#[pymodule]
#[pyo3(name = "sudoku_lab")]
fn sudoku_lab_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Puzzle>()?;
    m.add_class::<Grid>()?;
    m.add_class::<Answer>()?;
    m.add_class::<Cnf>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(unique, m)?)?;
    m.add_function(wrap_pyfunction!(optimize, m)?)?;
    m.add_function(wrap_pyfunction!(check_grid, m)?)?;
    m.add_function(wrap_pyfunction!(encode_puzzle, m)?)?;
    m.add_function(wrap_pyfunction!(xcheck, m)?)?;
    m.add_function(wrap_pyfunction!(bench_fn, m)?)?;
    m.add_function(wrap_pyfunction!(render_svg, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(strength, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(grade, m)?)?;
    m.add_function(wrap_pyfunction!(backend_names, m)?)?;
    m.add_function(wrap_pyfunction!(_serve_worker, m)?)?;
    m.add("DEFAULT_COUNT_LIMIT", DEFAULT_COUNT_LIMIT)?;
    Ok(())
}
