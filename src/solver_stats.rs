//! Search effort read from what external programs print: the statistics of SAT solvers
//! (`sat-ext`, `maxsat-ext`), of MiniZinc's solvers (`minizinc`), and the effort words of the
//! `cmd` line protocol. Each is turned into an [`Effort`]; a program that prints no statistics
//! gives none, never zeros.
//!
//! The lines are recognised by their form, from one table ([`TABLE`]) of the figure names each
//! form carries and the [`Effort`] counter each one fills:
//!
//! | form | printed by | example |
//! |---|---|---|
//! | [`Form::Padded`] | MiniSat 2.2 (default verbosity; `-verb=0` prints none) | `conflicts             : 10             (3398 /sec)` |
//! | [`Form::Colon`] | CaDiCaL, Kissat (not with `-q`) | `c conflicts:                    33     98214.29    per second` |
//! | [`Form::CountFirst`] | PicoSAT with `-v` | `c 116 conflicts` |
//! | [`Form::MznStat`] | MiniZinc with `--statistics` | `%%%mzn-stat: failures=20` |
//!
//! Corrections, so that every counter means what [`Effort`] says:
//!
//! * **MiniSat** counts one decision too many per satisfiable answer: its search loop counts a
//!   decision before it picks the branching literal, and the pick that finds every variable
//!   assigned (the model) is counted too. A satisfiable answer's `decisions` is therefore one less
//!   than printed (an unsatisfiable one's is as printed). Its `restarts` line prints the number
//!   of searches started, the first included: the restarts are one less (none when it was
//!   solved by simplification). Givens are unit clauses or simplified away, propagated before the
//!   first search at level 0, so they are never decisions; no guess is `decisions = 0`.
//! * **CaDiCaL** and **Kissat** leave a counter out of their `[ statistics ]` section when it is
//!   zero: when the section is there, a counter of the table it lacks is 0.
//! * **MiniZinc**: `nodes`, `failures` (conflicts), `propagations` and `restarts`, as the solver
//!   counts them. For Gecode, whose depth-first search counts every node it explores, each
//!   failed, solved or branching, the branch points are `nodes − failures − solutions`
//!   ([`Effort::guesses`]); for Chuffed, whose `nodes` is one for the root plus one per decision,
//!   the decisions are `nodes − 1`. For other solvers only the four counters are read.
//!   `solveTime` and the compilation's figures are not effort counters and are left out.
//! * **`cmd`**: an answer line may end with words `NAME=N`, `NAME` one of the counter names of
//!   [`crate::effort::COUNTERS`] ([`split_effort_words`]).

use crate::effort::Effort;

/// The forms of statistics line (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `NAME   : N …`: the name at the start of the line, padded to a column, then the number
    /// (MiniSat 2.2).
    Padded,
    /// `c NAME: N …` (CaDiCaL, Kissat).
    Colon,
    /// `c N NAME` (PicoSAT).
    CountFirst,
    /// `%%%mzn-stat: NAME=N` (MiniZinc).
    MznStat,
}

/// Which figure of which form fills which counter: `(form, the program's name, the counter)`.
/// Gecode's `solutions` is read to derive its branch points and fills no counter itself.
pub const TABLE: &[(Form, &str, Option<&str>)] = &[
    (Form::Padded, "conflicts", Some("conflicts")),
    (Form::Padded, "decisions", Some("decisions")),
    (Form::Padded, "propagations", Some("propagations")),
    (Form::Padded, "restarts", Some("restarts")),
    (Form::Colon, "conflicts", Some("conflicts")),
    (Form::Colon, "decisions", Some("decisions")),
    (Form::Colon, "propagations", Some("propagations")),
    (Form::Colon, "restarts", Some("restarts")),
    (Form::CountFirst, "conflicts", Some("conflicts")),
    (Form::CountFirst, "decisions", Some("decisions")),
    (Form::CountFirst, "propagations", Some("propagations")),
    (Form::CountFirst, "restarts", Some("restarts")),
    (Form::MznStat, "nodes", Some("nodes")),
    (Form::MznStat, "failures", Some("conflicts")),
    (Form::MznStat, "propagations", Some("propagations")),
    (Form::MznStat, "restarts", Some("restarts")),
    (Form::MznStat, "solutions", None),
];

/// The figures of `form` found in `text`, by the program's name; a name printed twice keeps its
/// last value.
fn figures(text: &str, form: Form) -> Vec<(&'static str, u64)> {
    let mut found: Vec<(&'static str, u64)> = Vec::new();
    for line in text.lines() {
        let Some((name, value)) = read_line(line, form) else {
            continue;
        };
        let Some(&(_, known, _)) = TABLE.iter().find(|(f, n, _)| *f == form && *n == name) else {
            continue;
        };
        match found.iter_mut().find(|(n, _)| *n == known) {
            Some(slot) => slot.1 = value,
            None => found.push((known, value)),
        }
    }
    found
}

/// The name and number of one line of `form`, if it is one.
fn read_line(line: &str, form: Form) -> Option<(&str, u64)> {
    let number = |s: &str| s.split_whitespace().next()?.parse::<u64>().ok();
    match form {
        Form::Padded => {
            let (name, rest) = line.split_once(':')?;
            // The padding: MiniSat aligns the colons, so the name is followed by spaces.
            if !name.ends_with(' ') || name.starts_with(char::is_whitespace) {
                return None;
            }
            Some((name.trim_end(), number(rest)?))
        }
        Form::Colon => {
            let (name, rest) = line.strip_prefix("c ")?.split_once(':')?;
            if name.contains(char::is_whitespace) {
                return None;
            }
            Some((name, number(rest)?))
        }
        Form::CountFirst => {
            let mut words = line.strip_prefix("c ")?.split_whitespace();
            let value = words.next()?.parse().ok()?;
            let name = words.next()?;
            words.next().is_none().then_some((name, value))
        }
        Form::MznStat => {
            let (name, value) = line.strip_prefix("%%%mzn-stat:")?.trim().split_once('=')?;
            Some((name, value.trim().parse().ok()?))
        }
    }
}

/// The effort a SAT solver printed on `output` (its standard output), for an answer that was
/// `satisfiable` or not; `None` when it printed no statistics this module reads.
pub fn sat_effort(output: &str, satisfiable: bool) -> Option<Effort> {
    let (form, found) = [Form::Padded, Form::Colon, Form::CountFirst]
        .into_iter()
        .map(|form| (form, figures(output, form)))
        .find(|(_, found)| !found.is_empty())?;
    let mut effort = counters(form, &found);
    match form {
        Form::Padded => {
            if satisfiable {
                effort.decisions = effort.decisions.map(|d| d.saturating_sub(1));
            }
            effort.restarts = effort.restarts.map(|r| r.saturating_sub(1));
        }
        Form::Colon if output.lines().any(|l| l.contains("[ statistics ]")) => {
            for &(_, _, counter) in TABLE.iter().filter(|(f, _, _)| *f == form) {
                if let Some(counter) = counter.filter(|c| effort.get(c).is_none()) {
                    effort.set(counter, 0);
                }
            }
        }
        _ => {}
    }
    Some(effort)
}

/// The effort MiniZinc's `solver` (the `--solver` name: `gecode`, `chuffed`, …) printed on
/// `output` with `--statistics`; `None` when there are no statistics.
pub fn minizinc_effort(output: &str, solver: &str) -> Option<Effort> {
    let found = figures(output, Form::MznStat);
    let mut effort = counters(Form::MznStat, &found);
    if effort.is_empty() {
        return None;
    }
    let raw = |name: &str| found.iter().find(|(n, _)| *n == name).map(|&(_, v)| v);
    let solver = solver.to_ascii_lowercase();
    if solver.contains("gecode") {
        if let (Some(nodes), Some(failures), Some(solutions)) =
            (raw("nodes"), raw("failures"), raw("solutions"))
        {
            effort.guesses = Some(nodes.saturating_sub(failures).saturating_sub(solutions));
        }
    } else if solver.contains("chuffed") {
        effort.decisions = raw("nodes").map(|n| n.saturating_sub(1));
    }
    Some(effort)
}

/// The counters `found` fills, by [`TABLE`].
fn counters(form: Form, found: &[(&str, u64)]) -> Effort {
    let mut effort = Effort::default();
    for &(name, value) in found {
        let counter = TABLE
            .iter()
            .find(|(f, n, _)| *f == form && *n == name)
            .and_then(|&(_, _, c)| c);
        if let Some(counter) = counter {
            effort.set(counter, value);
        }
    }
    effort
}

/// Splits the effort words off the end of a `cmd` answer: `1 23…9 guesses=3 nodes=12` gives
/// the answer `1 23…9` and those counters. A word with `=` that does not name a counter of
/// [`crate::effort::COUNTERS`] or whose value is not a whole number is an error; a word with `=`
/// before the answer's last word is too.
pub fn split_effort_words(answer: &str) -> Result<(&str, Effort), EffortWordError> {
    let mut effort = Effort::default();
    let mut rest = answer.trim_end();
    while let Some(word) = rest.rsplit(char::is_whitespace).next() {
        let Some((name, value)) = word.split_once('=') else {
            break;
        };
        let bad = |problem| EffortWordError::Word {
            word: word.to_string(),
            problem,
        };
        let value: u64 = value
            .parse()
            .map_err(|_| bad(WordProblem::NotWhole(value.to_string())))?;
        if effort.get(name).is_some() {
            return Err(bad(WordProblem::Twice(name.to_string())));
        }
        if !effort.set(name, value) {
            return Err(bad(WordProblem::NotACounter(name.to_string())));
        }
        rest = rest[..rest.len() - word.len()].trim_end();
    }
    if rest.contains('=') {
        return Err(EffortWordError::BeforeAnswer);
    }
    Ok((rest, effort))
}

/// A malformed effort word of a `cmd` answer ([`split_effort_words`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EffortWordError {
    #[error("effort word '{word}': {problem}")]
    Word { word: String, problem: WordProblem },
    #[error("effort words (NAME=N) go after the answer")]
    BeforeAnswer,
}

/// What is wrong with one effort word `NAME=N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WordProblem {
    /// The value.
    #[error("'{0}' is not a whole number")]
    NotWhole(String),
    /// The name.
    #[error("{0} given twice")]
    Twice(String),
    /// The name.
    #[error("'{0}' is not a counter ({counters})", counters = crate::effort::COUNTERS.join(", "))]
    NotACounter(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_each_form() {
        assert_eq!(
            read_line(
                "conflicts             : 10             (3398 /sec)",
                Form::Padded
            ),
            Some(("conflicts", 10))
        );
        // Only the table's names count: Glucose's `c conflicts : 10` is not MiniSat's line.
        assert!(figures("c conflicts : 10", Form::Padded).is_empty());
        assert_eq!(
            read_line("CPU time              : 0.002943 s", Form::Padded),
            None
        );
        assert_eq!(
            read_line("c decisions:   650   1934523.81    per second", Form::Colon),
            Some(("decisions", 650))
        );
        assert_eq!(read_line("c total process time: 0.00", Form::Colon), None);
        assert_eq!(
            read_line("c 689 decisions", Form::CountFirst),
            Some(("decisions", 689))
        );
        assert_eq!(read_line("c 34 failed literals", Form::CountFirst), None);
        assert_eq!(
            read_line("%%%mzn-stat: nodes=44", Form::MznStat),
            Some(("nodes", 44))
        );
        assert_eq!(
            read_line("%%%mzn-stat: solveTime=0.00047", Form::MznStat),
            None
        );
    }

    #[test]
    fn effort_words() {
        let (answer, e) = split_effort_words("123 guesses=2 nodes=7").unwrap();
        assert_eq!(answer, "123");
        assert_eq!((e.guesses, e.nodes, e.decisions), (Some(2), Some(7), None));
        let (answer, e) = split_effort_words("2 12 21").unwrap();
        assert_eq!((answer, e.is_empty()), ("2 12 21", true));
        for bad in [
            "123 guesses=x",
            "123 speed=3",
            "123 guesses=1 guesses=2",
            "guesses=1 123",
            "123 guesses=-1",
        ] {
            assert!(split_effort_words(bad).is_err(), "{bad}");
        }
    }
}
