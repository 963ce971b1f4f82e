//! Writes the reference CPLEX LP exports of the NOIP 2009 samples into `encodings/`
//! (`noip2009-sampleK.lp`), the same files `sudoku-lab encode --to lp` writes. `tests/ilp.rs`
//! checks they are current.
//!
//! ```text
//! cargo run --example lp_export
//! ```

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::sync::Arc;

use sudoku_lab::ilp::lp::write_lp;
use sudoku_lab::model::{Puzzle, Shape, Weights};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out_dir = root.join("encodings");
    std::fs::create_dir_all(&out_dir)?;
    for k in 0..3 {
        let input = root.join(format!("tests/data/cases/noip2009/sample{k}.in"));
        let givens = std::fs::read_to_string(&input)?
            .split_whitespace()
            .map(|t| t.parse())
            .collect::<Result<Vec<u16>, _>>()?;
        let puzzle = Puzzle::new(Arc::new(Shape::standard(9, false)?), givens)?
            .with_weights(Arc::new(Weights::pyramid(9)))?;
        let path = out_dir.join(format!("noip2009-sample{k}.lp"));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
        write_lp(&puzzle, true, &mut file)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
