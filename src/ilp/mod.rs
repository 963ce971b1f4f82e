//! Integer programming: the solver-free 0-1 program of a puzzle ([`model`]), its CPLEX LP
//! writer ([`lp`]), and the rows the others imply ([`implied`]), which the `ilp` backend leaves
//! out for microlp; and the solving of that program through good_lp ([`solve`], HiGHS's effort
//! read in `highs.rs`), so what is exported is what is solved. The `ilp` backend
//! ([`crate::backends::ilp`]) asks it the backend questions.

#[cfg(feature = "highs")]
mod highs;
pub mod implied;
pub mod lp;
pub mod model;
pub mod solve;

pub use model::IlpModel;
