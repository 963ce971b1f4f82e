//! sudoku-lab: one shared model of Sudoku-family puzzles ([`model`]), interchangeable solving
//! backends behind one trait ([`backend`], [`backends`]), and one independent checker ([`check`])
//! that every answer passes through ([`task`]).
//!
//! ```
//! use std::sync::Arc;
//! use sudoku_lab::{backends, model::{Shape, Puzzle}, task::{self, Task, Answer}, backend::Limits};
//!
//! let shape = Arc::new(Shape::standard(4, false).unwrap());
//! let puzzle = Puzzle::new(shape, vec![0; 16]).unwrap();
//! let dfs = backends::create(backends::BackendKind::Dfs, &Default::default()).unwrap();
//! let answer = task::run(dfs.as_ref(), &puzzle, Task::Count { limit: 1000 }, &Limits::none()).unwrap();
//! assert_eq!(answer.count(), Some((288, true)));
//! ```

// Module docs are written for readers of the source and link its private items; build the docs
// with `cargo doc --document-private-items` to follow those links.
#![allow(rustdoc::private_intra_doc_links)]

pub mod backend;
pub mod backends;
pub mod check;
pub mod exact_cover;
pub mod format;
pub mod generate;
pub mod ilp_model;
pub mod judge;
pub mod lp_writer;
pub mod model;
pub mod propagate;
pub mod report;
pub mod sat;
pub mod task;
pub mod xcheck;
