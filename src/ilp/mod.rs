//! Integer programming: the solver-free 0-1 program of a puzzle ([`model`]) and its CPLEX LP
//! writer ([`lp`]). The `ilp` backend ([`crate::backends::ilp`]) solves the same [`IlpModel`]
//! through good_lp, so what is exported is what is solved.

pub mod lp;
pub mod model;

pub use model::IlpModel;
