//! `sudoku-lab fuzz --hostile`: runs the library's campaign ([`sudoku_lab::fuzz::hostile`]:
//! mutated documents through the reader and the backends, each under a watchdog) and prints
//! what it finds. Unlike the generated cases, the run goes on past a fault: each distinct fault
//! is printed once with a replay command, the documents showing it are saved, and at the end the
//! first of each is shrunk and saved beside it. The flags are read in [`super::fuzz`].
//!
//! Exit codes: 1 some fault was found, 0 none, 2 bad options.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use sudoku_lab::fuzz::hostile::campaign::{self, Campaign, Event, Seen, MAX_HUNG};
use sudoku_lab::fuzz::hostile::{self, Document, Fault};

/// A hostile run, resolved.
pub struct Config {
    pub campaign: Campaign,
    /// Where the documents that show a fault are saved.
    pub save_dir: PathBuf,
    /// The command without `--case` and `--puzzles`.
    pub replay: String,
}

pub fn run(config: Config) -> ExitCode {
    hostile::record_panic_places();
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let c = &config.campaign;
    let bar = bar(c.cases);
    let summary = campaign::run(c, &interrupted, |event| match event {
        Event::Done { distinct } => {
            if distinct > 0 {
                bar.set_message(format!("{distinct} distinct faults"));
            }
            bar.inc(1);
        }
        Event::Fault { fault, doc, first } => {
            let saved = save(&config.save_dir, &format!("case-{}", doc.case), doc);
            bar.suspend(|| {
                if first {
                    println!("{}", describe(&config, doc, fault));
                }
                match saved {
                    Ok(path) => println!("  saved: {}", path.display()),
                    Err(e) => eprintln!("sudoku-lab: error: {e}"),
                }
            });
        }
    });
    bar.finish_and_clear();
    let elapsed = summary.elapsed.as_secs_f64().max(1e-9);
    let kinds: Vec<String> = summary
        .by_kind()
        .iter()
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    println!(
        "{} documents (seed {}, from case {}), {:.0} documents/s: {} puzzles read, {} input \
         errors, {} answers timed out, {} refused; faults: {} ({} distinct)",
        summary.documents,
        c.seed,
        c.first,
        summary.documents as f64 / elapsed,
        summary.puzzles,
        summary.input_errors,
        summary.timeouts,
        summary.refusals,
        kinds.join(", "),
        summary.faults.len(),
    );
    if summary.hung >= MAX_HUNG {
        println!(
            "stopped after {} hung cases (their threads are still running)",
            summary.hung
        );
    }
    for (signature, seen) in &summary.faults {
        shrink_and_save(&config, signature, seen);
    }
    if summary.faults.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The fault, the document's origin and the replay command.
fn describe(config: &Config, doc: &Document, fault: &Fault) -> String {
    format!(
        "{} in case {} ({} from seed document {:?}; {}):\n  {}\n  replay: {} --case {} --puzzles 1",
        fault.kind.name(),
        doc.case,
        doc.form.name(),
        doc.seed,
        doc.mutations.join("; "),
        fault.what,
        config.replay,
        doc.case
    )
}

/// Writes the document's text as `DIR/NAME.json` (`.txt` for a link).
fn save(dir: &Path, name: &str, doc: &Document) -> Result<PathBuf, String> {
    let path = dir.join(format!("{name}.{}", doc.extension()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, &doc.text))
        .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
    Ok(path)
}

/// Prints a distinct fault, and shrinks its first document and saves the result beside it
/// ([`campaign::shrink_first`]).
fn shrink_and_save(config: &Config, signature: &str, seen: &Seen) {
    println!(
        "{signature}\n  {} times, first in case {}",
        seen.times, seen.first.case
    );
    let Some(shrunk) = campaign::shrink_first(&config.campaign, signature, seen) else {
        return;
    };
    let case = seen.first.case;
    let doc = Document {
        text: shrunk.text,
        ..seen.first.clone()
    };
    match save(&config.save_dir, &format!("case-{case}-min"), &doc) {
        Ok(path) => println!(
            "  shrunk in {} trials to {} bytes: {}",
            shrunk.trials,
            doc.text.len(),
            path.display()
        ),
        Err(e) => eprintln!("sudoku-lab: error: {e}"),
    }
}

/// Documents done, per second, and the distinct faults so far, on standard error when it is a
/// terminal.
fn bar(documents: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match documents {
        Some(m) => (
            ProgressBar::new(m),
            "{wide_bar} {pos}/{len} documents {per_sec} {msg} [{elapsed_precise}]",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {pos} documents {per_sec} {msg} [{elapsed_precise}]",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
