//! The seed documents mutations start from: the f-puzzles files of the test data, and puzzles
//! generated for every rule kind and shape, as puzzle objects and f-puzzles JSON.

use serde_json::Value as J;

use crate::backend::Backend;
use crate::format::{fpuzzles, object};
use crate::generate::{GenerateOptions, Generator, PuzzleSpec};
use crate::model::ConstraintKind;

/// How a document is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The lab's own puzzle object (`convert --to json`).
    Object,
    /// f-puzzles JSON (`convert --to fpuzzles`).
    Fpuzzles,
    /// An f-puzzles link: the JSON compressed (`convert --to fpuzzles-link`).
    Link,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::Object => "object",
            Form::Fpuzzles => "f-puzzles",
            Form::Link => "f-puzzles link",
        }
    }
}

/// A document mutations start from.
#[derive(Debug, Clone, PartialEq)]
pub struct Seed {
    /// Where it comes from: a test data file or the generator's options.
    pub name: String,
    /// [`Form::Object`] or [`Form::Fpuzzles`] (an f-puzzles seed may be written as a link).
    pub form: Form,
    pub doc: J,
}

/// The f-puzzles documents of the test data, each once a fault of some backend.
const DATA_FILES: [(&str, &str); 7] = [
    (
        "antiking6-pairs.json",
        include_str!("../../../tests/data/fpuzzles/antiking6-pairs.json"),
    ),
    (
        "antiking6.json",
        include_str!("../../../tests/data/fpuzzles/antiking6.json"),
    ),
    (
        "arrow-alias4.json",
        include_str!("../../../tests/data/fpuzzles/arrow-alias4.json"),
    ),
    (
        "littlekiller-none4.json",
        include_str!("../../../tests/data/fpuzzles/littlekiller-none4.json"),
    ),
    (
        "mixed6.json",
        include_str!("../../../tests/data/fpuzzles/mixed6.json"),
    ),
    (
        "sandwich-none4.json",
        include_str!("../../../tests/data/fpuzzles/sandwich-none4.json"),
    ),
    (
        "sandwich9.json",
        include_str!("../../../tests/data/fpuzzles/sandwich9.json"),
    ),
];

/// The generated seeds: side, rules, Killer cages, jigsaw, diagonals.
fn generated_specs() -> Vec<PuzzleSpec> {
    use ConstraintKind as K;
    let mut specs = vec![];
    let spec = |size: usize, variants: Vec<K>| PuzzleSpec {
        variants,
        ..PuzzleSpec::new(size)
    };
    for kind in ConstraintKind::ALL {
        if kind == K::Killer {
            continue;
        }
        // No 4×4 grid keeps anti-king or non-consecutive.
        let small = if matches!(kind, K::AntiKing | K::NonConsecutive) {
            6
        } else {
            4
        };
        specs.push(spec(small, vec![kind]));
        specs.push(spec(6, vec![kind]));
    }
    specs.push(spec(4, vec![K::Thermo, K::Kropki, K::Xv, K::Arrow]));
    specs.push(spec(
        4,
        vec![K::LittleKiller, K::Sandwich, K::Whisper, K::Renban],
    ));
    specs.push(spec(6, vec![K::Palindrome, K::Negative, K::Odd, K::Even]));
    specs.push(spec(9, vec![K::Thermo, K::Kropki, K::Arrow, K::Sandwich]));
    specs.push(spec(9, vec![K::Xv, K::Renban, K::LittleKiller]));
    for size in [4, 6, 9] {
        specs.push(PuzzleSpec {
            killer: Some((2, 4)),
            ..PuzzleSpec::new(size)
        });
        specs.push(PuzzleSpec::new(size));
    }
    specs.push(PuzzleSpec {
        jigsaw: true,
        ..PuzzleSpec::new(6)
    });
    specs.push(PuzzleSpec {
        diagonals: true,
        ..PuzzleSpec::new(4)
    });
    specs.push(PuzzleSpec {
        boxes: Some((3, 2)),
        ..PuzzleSpec::new(6)
    });
    specs
}

/// Every seed document: the test data's f-puzzles files, then each generated puzzle as a puzzle
/// object and, when f-puzzles can express it, as f-puzzles JSON with its full grid as the
/// `solution`. The same list every time; `reference` (pass `dfs`) is the generator's backend.
pub fn seeds(reference: &dyn Backend) -> Vec<Seed> {
    let mut out: Vec<Seed> = DATA_FILES
        .iter()
        .filter_map(|(name, text)| {
            Some(Seed {
                name: (*name).to_string(),
                form: Form::Fpuzzles,
                doc: serde_json::from_str(text).ok()?,
            })
        })
        .collect();
    for (i, spec) in generated_specs().into_iter().enumerate() {
        let name = spec_name(&spec);
        let opts = GenerateOptions {
            seed: i as u64 + 1,
            ..GenerateOptions::of(spec)
        };
        let Ok(mut generator) = Generator::new(opts, reference) else {
            continue;
        };
        let Ok((puzzle, grid)) = generator.generate_with_solution() else {
            continue;
        };
        out.push(Seed {
            name: name.clone(),
            form: Form::Object,
            doc: object::to_json(&puzzle, None),
        });
        if let Ok(doc) = fpuzzles::to_json(&puzzle, Some(&grid)) {
            out.push(Seed {
                name,
                form: Form::Fpuzzles,
                doc,
            });
        }
    }
    out
}

/// `6x6 thermo,kropki`, `9x9 killer`, `6x6 jigsaw`…
fn spec_name(o: &PuzzleSpec) -> String {
    let mut parts: Vec<&str> = o.variants.iter().map(|k| k.name()).collect();
    if o.killer.is_some() {
        parts.push("killer");
    }
    if o.jigsaw {
        parts.push("jigsaw");
    }
    if o.diagonals {
        parts.push("diagonals");
    }
    if o.boxes.is_some() {
        parts.push("3x2 boxes");
    }
    format!("{0}x{0} {1}", o.size, parts.join(","))
        .trim_end()
        .to_string()
}
