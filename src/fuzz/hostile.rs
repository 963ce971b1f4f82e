//! Hostile input: mutated puzzle documents through the real reader, then through the backends,
//! each case under a watchdog, so that what a stranger's file can do to the lab is tried before
//! a stranger does it.
//!
//! **Documents.** The seeds ([`seeds`]) are f-puzzles documents, raw JSON and in the compressed
//! form of f-puzzles links, and the lab's own puzzle objects ([`crate::format::object`]): the
//! f-puzzles files of the test data, and puzzles generated as `generate … | convert --to
//! json|fpuzzles` would write them (mostly 4×4 and 6×6, some 9×9, every variant rule, Killer
//! cages, jigsaw regions, diagonals). [`mutate`] draws case `i` of a run seeded `S` from its own
//! seed ([`crate::fuzz::case_seed`]), so any case is replayed alone: one seed document, then
//! one to four changes of its JSON tree. Half the cases only nudge the rules' numbers and cells
//! (mostly within the grid's range, sometimes far past it), so that the document often still
//! reads and its puzzle reaches the backends; the others change anything — hostile numbers (past `u32`, past `i64`, floats, exponents),
//! cells outside the grid, repeated cells, lines that cross themselves, wrong types, empty arrays,
//! deep nesting, unknown, removed, renamed and duplicate keys, unicode, pieces of other
//! documents — then, now and then, changes of the text (cut short, characters inserted or
//! removed, a byte-order mark, several documents in one), and for an f-puzzles document written
//! as a link, changes of the compressed string that decode to garbage.
//!
//! **Cases.** [`run_case`] reads the text as the command line does ([`crate::format::puzzles`],
//! format detected) and answers each puzzle read (at most [`MAX_PUZZLES_PER_DOCUMENT`]) with
//! every backend, each answer through the checker ([`crate::task::run`]), all before the case's
//! deadline. The reading and solving run on a thread of their own under a watchdog: a case that
//! has not ended [`HANG_GRACE`] after its deadline is reported as a hang and left behind, and
//! the campaign goes on. A case fails ([`FaultKind`]) on a panic (caught, with its message and
//! where it was raised), a hang, a wrong answer (backends disagree, the checker rejects an
//! answer, a solver fails), or an input error that would leave the user without a useful
//! message: no message, or a line and column that are not in the text.
//!
//! **Minimal documents.** [`shrink`] cuts a document that shows a fault down while the fault's
//! [`Fault::signature`] stays the same: object keys and array items removed, values replaced by
//! smaller ones, on the JSON tree (a compressed link is decompressed first when its JSON shows
//! the same fault).

//!
//! **Campaigns.** [`campaign::run`] runs cases on worker threads, counts every fault under its
//! signature and goes on past it; [`campaign::shrink_first`] shrinks the first document of each
//! distinct fault. The `fuzz --hostile` command only reads its flags and prints.
//!
//! The parts, by concern: [`seeding`], [`mutation`] (with the JSON paths of `tree`), [`case`],
//! [`shrinking`], [`campaign`].

use std::time::Duration;

pub mod campaign;
pub mod case;
pub mod mutation;
pub mod seeding;
pub mod shrinking;
mod tree;

pub use case::{
    read_document, record_panic_places, run_case, CaseOptions, CaseReport, Fault, FaultKind,
    Reader, CASE_THREAD,
};
pub use mutation::{mutate, Document};
pub use seeding::{seeds, Form, Seed};
pub use shrinking::{shrink, Shrunk};

/// Puzzles of one document that are answered (a JSON array or JSON Lines may hold many).
pub const MAX_PUZZLES_PER_DOCUMENT: usize = 4;

/// How long past its deadline a case may run before it is a hang. The `cp` backend's worker
/// process is killed two seconds past a deadline; this leaves room for that.
pub const HANG_GRACE: Duration = Duration::from_secs(5);

/// Count limit of a hostile run unless the task is `count` with its own: small, since the
/// documents are small grids that often have many solutions.
pub const HOSTILE_COUNT_LIMIT: u64 = 20;
