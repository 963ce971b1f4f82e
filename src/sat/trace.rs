//! Search traces of the core-guided optimisation ([`super::maxsat`], [`super::optimize`]): the
//! library builds each line only when a program has installed a sink for its level, and never
//! prints. The command line installs one that writes to standard error when [`ENV`] is set (`1`:
//! a summary per search and each stage's offset; `2`: also a line per bound that moves).

use std::sync::OnceLock;

/// Environment variable the command line reads to install a sink ([`Level::from_env_value`]).
pub const ENV: &str = "SUDOKU_LAB_MAXSAT_TRACE";

/// How much is traced: each level includes the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// One line per search (calls, cores, strata, times) and per stage (its offset).
    Summary,
    /// Also a line for every lower or upper bound that moves.
    Bounds,
}

impl Level {
    /// The level a value of [`ENV`] asks for: `0` none, `2` [`Level::Bounds`], anything else
    /// [`Level::Summary`].
    pub fn from_env_value(value: &std::ffi::OsStr) -> Option<Level> {
        match value.to_str() {
            Some("0") => None,
            Some("2") => Some(Level::Bounds),
            _ => Some(Level::Summary),
        }
    }
}

type Sink = Box<dyn Fn(&str) + Send + Sync>;

static SINK: OnceLock<(Level, Sink)> = OnceLock::new();

/// Sends the lines of `level` and below to `sink`, for the rest of the process. Only the first
/// call installs; it returns whether this one did.
pub fn install(level: Level, sink: impl Fn(&str) + Send + Sync + 'static) -> bool {
    SINK.set((level, Box::new(sink))).is_ok()
}

/// Hands the line `line()` to the sink when `level` is traced (the line is built only then).
pub fn emit(level: Level, line: impl FnOnce() -> String) {
    if let Some((max, sink)) = SINK.get() {
        if level <= *max {
            sink(&line());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn environment_values_pick_a_level() {
        assert_eq!(Level::from_env_value(OsStr::new("0")), None);
        assert_eq!(Level::from_env_value(OsStr::new("1")), Some(Level::Summary));
        assert_eq!(Level::from_env_value(OsStr::new("2")), Some(Level::Bounds));
        assert_eq!(
            Level::from_env_value(OsStr::new("yes")),
            Some(Level::Summary)
        );
        assert!(Level::Summary < Level::Bounds);
    }
}
