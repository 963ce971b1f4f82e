//! A reference solver for the `cmd` backend's line protocol (docs/backends.md), on nothing but
//! the standard library, so that it also builds alone: `rustc -O examples/line_solver.rs`.
//!
//! ```sh
//! cargo build --release --example line_solver
//! sudoku-lab solve --backend cmd --cmd target/release/examples/line_solver tests/data/samples/mixed.txt
//! ```
//!
//! It reads `ID solve PUZZLE` and `ID count LIMIT PUZZLE` lines and answers each with one line:
//! `ID SOLUTION`, `ID none`, `ID C [SOL [SOL]]` or `ID refused REASON`. PUZZLE is the line
//! format: n² symbols, region labels for a jigsaw, the word `diagonals` for an X-Sudoku. The
//! search is plain backtracking on the cell with the fewest candidates. Each answer ends with
//! the protocol's effort words: `guesses=G` (the nodes whose cell had two or more candidates)
//! and `nodes=N` (the search's calls).
//!
//! `--wrong diagonal` makes it a deliberately wrong solver for testing `fuzz` and `xcheck`: it
//! forgets the anti-diagonal of an X-Sudoku (its grids then fail the checker). `--wrong count`
//! misses one solution of every puzzle that has several (only a cross-check can tell).

use std::io::{self, BufRead, Write};

/// A deliberate fault, for tests.
#[derive(Clone, Copy, PartialEq)]
enum Wrong {
    None,
    Diagonal,
    Count,
}

struct Puzzle {
    n: usize,
    cells: Vec<u32>,
    /// For each cell, the houses (rows, columns, regions, diagonals) it is in.
    houses_of: Vec<Vec<usize>>,
    houses: usize,
}

fn value(c: char) -> Option<u32> {
    match c {
        '.' | '0' => Some(0),
        _ => c.to_digit(36).filter(|&v| v > 0),
    }
}

fn symbol(v: u32) -> char {
    std::char::from_digit(v, 36).map_or('?', |c| c.to_ascii_uppercase())
}

/// The standard boxes of side n: r×c with r ≤ c, r as large as possible.
fn boxes(n: usize) -> Option<(usize, usize)> {
    (1..=n)
        .rev()
        .find(|&r| n.is_multiple_of(r) && r <= n / r)
        .filter(|&r| r > 1 || n == 1)
        .map(|r| (r, n / r))
}

fn parse(words: &[&str], wrong: Wrong) -> Result<Puzzle, String> {
    let givens = words.first().ok_or("no puzzle")?;
    let cells: Vec<u32> = givens
        .chars()
        .map(value)
        .collect::<Option<_>>()
        .ok_or("bad symbol")?;
    let n = (1..=35)
        .find(|n| n * n == cells.len())
        .ok_or("not n² cells")?;
    let mut rest = &words[1..];
    let region: Vec<usize> = match rest.first() {
        Some(&labels) if labels != "diagonals" => {
            rest = &rest[1..];
            let mut seen: Vec<char> = Vec::new();
            labels
                .chars()
                .map(|c| {
                    let c = c.to_ascii_lowercase();
                    seen.iter().position(|&s| s == c).unwrap_or_else(|| {
                        seen.push(c);
                        seen.len() - 1
                    })
                })
                .collect()
        }
        _ => {
            let (r, c) = boxes(n).ok_or(format!("side {n} has no box shape"))?;
            (0..n * n).map(|i| i / n / r * r + i % n / c).collect()
        }
    };
    let diagonals = rest.first() == Some(&"diagonals");
    let mut houses_of: Vec<Vec<usize>> = (0..n * n)
        .map(|i| vec![i / n, n + i % n, 2 * n + region[i]])
        .collect();
    if diagonals {
        for i in 0..n {
            houses_of[i * n + i].push(3 * n);
            if wrong != Wrong::Diagonal {
                houses_of[i * n + n - 1 - i].push(3 * n + 1);
            }
        }
    }
    Ok(Puzzle {
        n,
        cells,
        houses_of,
        houses: 3 * n + 2,
    })
}

/// What a search found and what it cost.
#[derive(Default)]
struct Tally {
    /// Solutions found (up to the limit) and the first two of them.
    count: u64,
    found: Vec<String>,
    /// Search nodes (calls), and branch points: nodes whose cell had two or more candidates.
    nodes: u64,
    guesses: u64,
}

/// Counts solutions up to `limit`, keeping the first two.
fn search(p: &Puzzle, cells: &mut [u32], used: &mut [u64], limit: u64, t: &mut Tally) {
    t.nodes += 1;
    let full = (1u64 << p.n) - 1;
    let free = |i: usize, used: &[u64]| full & !p.houses_of[i].iter().fold(0, |m, &h| m | used[h]);
    let best = (0..cells.len())
        .filter(|&i| cells[i] == 0)
        .min_by_key(|&i| (free(i, used) << 1).count_ones());
    let Some(cell) = best else {
        t.count += 1;
        if t.found.len() < 2 {
            t.found.push(cells.iter().map(|&v| symbol(v)).collect());
        }
        return;
    };
    let mut options = free(cell, used) << 1;
    t.guesses += u64::from(options.count_ones() >= 2);
    while options != 0 && t.count < limit {
        let v = options.trailing_zeros();
        options &= options - 1;
        cells[cell] = v;
        p.houses_of[cell]
            .iter()
            .for_each(|&h| used[h] |= 1 << (v - 1));
        search(p, cells, used, limit, t);
        p.houses_of[cell]
            .iter()
            .for_each(|&h| used[h] &= !(1 << (v - 1)));
        cells[cell] = 0;
    }
}

/// The answer to one question (without its id).
fn answer(words: &[&str], wrong: Wrong) -> Result<String, String> {
    let (limit, rest) = match words {
        ["solve", rest @ ..] => (1, rest),
        ["count", limit, rest @ ..] => (limit.parse().map_err(|_| "bad limit")?, rest),
        _ => return Err("unknown task".into()),
    };
    let p = parse(rest, wrong)?;
    let mut used = vec![0u64; p.houses];
    for (i, &v) in p.cells.iter().enumerate().filter(|(_, &v)| v != 0) {
        if v as usize > p.n || p.houses_of[i].iter().any(|&h| used[h] & 1 << (v - 1) != 0) {
            return Ok(if words[0] == "solve" {
                "none".into()
            } else {
                "0".into()
            });
        }
        p.houses_of[i].iter().for_each(|&h| used[h] |= 1 << (v - 1));
    }
    // `--wrong count` searches one solution further and then reports one fewer.
    let extra = u64::from(wrong == Wrong::Count);
    let mut t = Tally::default();
    search(&p, &mut p.cells.clone(), &mut used, limit + extra, &mut t);
    let effort = format!("guesses={} nodes={}", t.guesses, t.nodes);
    let Tally {
        mut count,
        mut found,
        ..
    } = t;
    if words[0] == "solve" {
        let solution = found.into_iter().next().unwrap_or_else(|| "none".into());
        return Ok(format!("{solution} {effort}"));
    }
    if wrong == Wrong::Count && count >= 2 {
        count -= 1;
        found.truncate(count.min(2) as usize);
    }
    let count = count.min(limit);
    found.truncate(count.min(2) as usize);
    Ok(std::iter::once(count.to_string())
        .chain(found)
        .chain(std::iter::once(effort))
        .collect::<Vec<_>>()
        .join(" "))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wrong = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => Wrong::None,
        ["--wrong", "diagonal"] => Wrong::Diagonal,
        ["--wrong", "count"] => Wrong::Count,
        _ => {
            eprintln!("usage: line_solver [--wrong diagonal|count]");
            std::process::exit(2);
        }
    };
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line.expect("standard input");
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((id, question)) = words.split_first() else {
            continue;
        };
        let reply = answer(question, wrong).unwrap_or_else(|why| format!("refused {why}"));
        writeln!(out, "{id} {reply}")
            .and_then(|()| out.flush())
            .expect("standard output");
    }
}
