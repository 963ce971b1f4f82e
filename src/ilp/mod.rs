//! Integer programming: the solver-free 0-1 program of a puzzle ([`model`]), its CPLEX LP
//! writer ([`lp`]), and the rows the others imply ([`implied`]), which the `ilp` backend leaves
//! out for microlp. The `ilp` backend ([`crate::backends::ilp`]) solves the same [`IlpModel`]
//! through good_lp, so what is exported is what is solved.

pub mod implied;
pub mod lp;
pub mod model;

pub use model::IlpModel;
