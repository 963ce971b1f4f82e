//! Constraint programming: the solver-free CP model of a puzzle ([`model`]), the drivers that
//! solve it with the in-process lazy-clause-generation solver huub ([`huub`]), and the MiniZinc
//! writer ([`minizinc`]) that hands the same model to any MiniZinc solver, with what the
//! `minizinc` backend asks of it and checks in its answers ([`mzn_question`]). [`worker`] carries
//! huub's drivers across the `cp` backend's worker process. Before any solver sees the model,
//! [`crate::propagate::probe`] narrows its root domains (singleton arc consistency with the
//! rules' narrowing).
//!
//! The model is the one most people write first: one integer variable per cell with domain
//! `1..=n`, one all-different per house and per Killer cage, a linear sum per cage, the givens
//! fixed, and `Σ weight × digit` as the objective of `optimize`. Options that change how the
//! solver sees it (the all-different propagation strength, redundant "every digit somewhere in
//! the house" constraints, the branching) are in [`CpOptions`]. The sound ones never change the
//! solutions; `domain` all-different is unsound in huub 100.1 (it answers "no solution" to
//! puzzles that have one) and is refused unless [`CpOptions::allow_unsound`] is set.

#[cfg(feature = "cp")]
pub mod huub;
pub mod minizinc;
pub mod model;
pub mod mzn_question;
#[cfg(feature = "cp")]
pub mod worker;

pub use model::{
    AllDiffLevel, Branching, CpModel, CpOptions, HouseCover, ObjectiveBound, Searches,
};

/// Default memory limit of the `cp` backend (`--cp-memory-mib`), in MiB.
pub const DEFAULT_MEMORY_MIB: u64 = 1024;
