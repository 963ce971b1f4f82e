//! sudoku-lab: one shared model of Sudoku-family puzzles ([`model`]), interchangeable solving
//! backends behind one trait ([`backend`], [`backends`]), and one independent checker ([`check`])
//! that every answer passes through ([`task`]).
//!
//! A puzzle is a [`model::Shape`] (side, boxes or jigsaw regions, optional diagonals) plus givens
//! and optional weights (from a [`weights::WeightSource`]). [`backends::create`] builds any
//! backend by name; [`task::run`] asks it one of the four tasks (solve, count, unique, optimize)
//! and verifies the answer before returning it.
//! [`format`](mod@format) reads and writes the text formats, [`xcheck`] compares backends, [`report`] turns
//! timings into tables and plots, [`fuzz`] generates puzzles until backends disagree and shrinks what it finds,
//! [`render`] draws a puzzle as an SVG picture.
//!
//! ```
//! use std::sync::Arc;
//! use sudoku_lab::backend::Limits;
//! use sudoku_lab::backends::{self, BackendKind};
//! use sudoku_lab::model::{Puzzle, Shape};
//! use sudoku_lab::task::{self, Answer, Task};
//!
//! // A 4×4 puzzle (2×2 boxes), row by row, 0 for an empty cell.
//! let shape = Arc::new(Shape::standard(4, false).unwrap());
//! let puzzle = Puzzle::new(shape, vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]).unwrap();
//!
//! // Any backend, by kind; the options are each backend's defaults.
//! let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
//!
//! // The answer comes back only once the independent checker has accepted it.
//! let answer = task::run(dfs.as_ref(), &puzzle, Task::Unique, &Limits::none()).unwrap();
//! let Answer::Unique(grid) = &answer else { panic!("expected one solution, got {answer:?}") };
//! println!("{}: {grid}", answer.status()); // "unique: 1324423124133142" (line format)
//! assert_eq!(grid.to_string(), "1324423124133142");
//!
//! // The empty 4×4 grid has 288 solutions.
//! let empty = Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), vec![0; 16]).unwrap();
//! let answer = task::run(dfs.as_ref(), &empty, Task::Count { limit: 1000 }, &Limits::none()).unwrap();
//! assert_eq!(answer.count(), Some((288, true)));
//! ```

// Module docs are written for readers of the source and link its private items; build the docs
// with `cargo doc --document-private-items` to follow those links.
#![allow(rustdoc::private_intra_doc_links)]

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// Both bring their own copy of CaDiCaL (huub's and rustsat's), and the two cannot be linked into
// one program.
#[cfg(all(feature = "cp", feature = "cadical"))]
compile_error!(
    "the features `cp` (on by default) and `cadical` each link their own CaDiCaL: build the \
     cadical backend with `--no-default-features --features cadical`"
);

pub mod answer;
pub mod backend;
pub mod backends;
pub mod bench;
pub mod budget;
pub mod cancel;
pub mod check;
pub mod counted;
pub mod cp;
pub mod dfs;
pub mod effort;
pub mod exact_cover;
pub mod format;
pub mod fuzz;
pub mod generate;
pub mod ilp;
pub mod isolate;
pub mod isotope;
pub mod judge;
pub mod line_protocol;
pub mod logic;
pub mod model;
pub mod named;
pub mod process;
pub mod propagate;
pub mod render;
pub mod report;
pub mod rng;
pub mod sat;
pub mod settings;
pub mod shard;
pub mod solver_stats;
pub mod strength;
pub mod task;
pub mod weights;
pub mod xcheck;
