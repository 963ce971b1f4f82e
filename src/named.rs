//! Option enums named by words (`--encoding extended`, `--cp-alldiff bounds`): one macro gives
//! such an enum its `FromStr` and `Display` from its `ALL` list and `name()`, with one error type
//! that lists the choices.

/// A word that names none of an option's choices.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{name}' (choose one of: {choices})")]
pub struct UnknownName {
    pub what: &'static str,
    pub name: String,
    pub choices: String,
}

/// `FromStr` and `Display` for an enum with `ALL` and `name()`; `$what` names the option in errors.
macro_rules! from_str_by_name {
    ($t:ty, $what:literal) => {
        impl std::str::FromStr for $t {
            type Err = $crate::named::UnknownName;
            fn from_str(s: &str) -> Result<Self, $crate::named::UnknownName> {
                <$t>::ALL
                    .into_iter()
                    .find(|v| v.name().eq_ignore_ascii_case(s))
                    .ok_or_else(|| $crate::named::UnknownName {
                        what: $what,
                        name: s.to_string(),
                        choices: <$t>::ALL.map(|v| v.name()).join(", "),
                    })
            }
        }
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use from_str_by_name;

/// The choice named `s` (any case) among `names`, or the error listing them: for option enums
/// that keep a `NAMES` table of `(value, word)` pairs.
pub fn by_name<T: Copy>(
    names: &[(T, &'static str)],
    what: &'static str,
    s: &str,
) -> Result<T, UnknownName> {
    names
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(s))
        .map(|&(v, _)| v)
        .ok_or_else(|| UnknownName {
            what,
            name: s.to_string(),
            choices: names.iter().map(|&(_, n)| n).collect::<Vec<_>>().join(", "),
        })
}
