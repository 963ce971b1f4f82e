//! The committed reference exports in `encodings/dimacs/` must be exactly what the encoder
//! produces today. `UPDATE_ENCODINGS=1 cargo test --test encodings` rewrites them.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use std::io::BufReader;

use sudoku_lab::check;
use sudoku_lab::judge::Problem;
use sudoku_lab::sat::{dimacs, encode, reference};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn committed() -> PathBuf {
    root().join("encodings/dimacs")
}

fn cases() -> PathBuf {
    root().join("tests/data/cases")
}

fn updating() -> bool {
    std::env::var_os("UPDATE_ENCODINGS").is_some_and(|v| v != "0")
}

const HOW: &str = "regenerate with: UPDATE_ENCODINGS=1 cargo test --test encodings";

#[test]
fn committed_dimacs_exports_match_the_encoder() {
    if updating() {
        let written = reference::regenerate(&cases(), &committed()).unwrap();
        eprintln!(
            "rewrote {} files in {}",
            written.len(),
            committed().display()
        );
    }
    let fresh = tempfile::tempdir().unwrap();
    let written = reference::regenerate(&cases(), fresh.path()).unwrap();
    let mut drift = Vec::new();
    for path in &written {
        let name = path.file_name().unwrap();
        let old = committed().join(name);
        match fs::read(&old) {
            Ok(bytes) if bytes == fs::read(path).unwrap() => {}
            Ok(_) => drift.push(format!("{} differs", old.display())),
            Err(e) => drift.push(format!("{}: {e}", old.display())),
        }
    }
    let expected: BTreeSet<String> = reference::file_names(&cases())
        .unwrap()
        .into_iter()
        .collect();
    for entry in fs::read_dir(committed()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !expected.contains(&name) {
            drift.push(format!("{name} is not a reference file (stale?)"));
        }
    }
    assert!(
        drift.is_empty(),
        "encodings/dimacs drifted from the encoder:\n  {}\n{HOW}",
        drift.join("\n  ")
    );
    // The exports stay small enough to commit.
    let total: u64 = written.iter().map(|p| fs::metadata(p).unwrap().len()).sum();
    assert!(total < 8_000_000, "{total} bytes");
}

#[test]
fn the_readme_states_the_known_clause_counts() {
    if updating() {
        return; // the README is being rewritten concurrently; the drift test covers it
    }
    let readme = fs::read_to_string(committed().join("README.md")).unwrap();
    // Empty 9×9 with pairwise at-most-one (Lynce & Ouaknine): 8,829 / 11,745 / 11,988 clauses.
    for row in [
        "| 9×9 | minimal | 729 | 8,829 |",
        "| 9×9 | efficient | 729 | 11,745 |",
        "| 9×9 | extended | 729 | 11,988 |",
        "| 25×25 | pairwise | 15,625 | 752,500 |",
    ] {
        assert!(readme.contains(row), "README lacks {row:?}; {HOW}");
    }
}

#[test]
fn judge_puzzles_are_read_as_the_judge_reads_them() {
    let text = fs::read_to_string(cases().join("hdu4069/sample.in")).unwrap();
    let puzzles = reference::judge_puzzles(Problem::Hdu4069, &text).unwrap();
    assert_eq!(puzzles.len(), 3);
    // Jigsaw regions: not the 3×3 boxes.
    let standard = sudoku_lab::model::Shape::standard(9, false).unwrap();
    assert_ne!(puzzles[0].shape().regions(), standard.regions());
    let text = fs::read_to_string(cases().join("noip2009/sample0.in")).unwrap();
    let puzzles = reference::judge_puzzles(Problem::Noip2009, &text).unwrap();
    assert_eq!(puzzles.len(), 1);
    assert!(puzzles[0].weights().is_some());
}

#[test]
fn every_exported_judge_sample_solves_to_a_valid_grid() {
    let mut solved = 0;
    for &(problem, file, index) in reference::SAMPLES {
        let text = fs::read_to_string(cases().join(file)).unwrap();
        let puzzle = reference::judge_puzzles(problem, &text)
            .unwrap()
            .remove(index);
        let stem = file.trim_end_matches(".in").replace('/', "-");
        for entry in fs::read_dir(committed()).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with(&format!("{stem}.")) {
                continue;
            }
            let cnf = dimacs::read(BufReader::new(fs::File::open(&path).unwrap())).unwrap();
            let model = sudoku_lab::sat::varisat_model(&cnf)
                .unwrap()
                .unwrap_or_else(|| panic!("{name} is satisfiable"));
            let grid = encode::decode_dimacs_model(&puzzle, &Default::default(), &model);
            assert_eq!(check::verify(&puzzle, &grid), Ok(()), "{name}");
            solved += 1;
        }
    }
    // 5 samples × 4 encodings, plus the plain hdu1426 export.
    assert_eq!(solved, 21);
}
