//! Root strength: what each propagation level derives from a puzzle before any search.

pub mod cages;
pub mod cnf;
pub mod model;
