//! The judge problems' samples in `tests/data/cases/<problem>/`: `X.in` ↔ `X.out`,
//! `X.in.json` ↔ `X.out.json`, with the expected output as the judge writes it.

use std::fs;
use std::path::{Path, PathBuf};

use sudoku_lab::judge::Problem;

pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases")
}

/// One sample: its problem, input file, input text and expected output.
pub struct Sample {
    pub problem: Problem,
    pub input: PathBuf,
    pub text: String,
    pub expected: String,
}

/// Every sample of every problem, in name order. The LeetCode sample files disagree on a final
/// newline: example1's expected board has one, testcase_noahdragon's (like LeetCode's own
/// display) has none, and the board is written without one; example1's is checked and dropped.
pub fn judge_samples() -> Vec<Sample> {
    let mut out = vec![];
    for problem in Problem::ALL {
        let dir = cases_dir().join(problem.name());
        let mut pairs: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter_map(|p| {
                let name = p.file_name()?.to_str()?.to_string();
                let out = if let Some(stem) = name.strip_suffix(".in.json") {
                    format!("{stem}.out.json")
                } else {
                    format!("{}.out", name.strip_suffix(".in")?)
                };
                Some((p.clone(), dir.join(out)))
            })
            .collect();
        pairs.sort();
        for (input, output) in pairs {
            let mut expected = fs::read_to_string(&output).unwrap();
            if input.ends_with("leetcode37/example1.in.json") {
                assert_eq!(expected.pop(), Some('\n'), "{}", output.display());
            }
            out.push(Sample {
                problem,
                text: fs::read_to_string(&input).unwrap(),
                input,
                expected,
            });
        }
    }
    out
}
