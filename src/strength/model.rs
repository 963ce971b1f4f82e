//! Model-level deductions at the root: singles, locked candidates, `dfs`'s and `cp`'s root propagation.
