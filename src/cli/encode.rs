//! `sudoku-lab encode`: one puzzle of the input written for external tools, as DIMACS CNF (or
//! its statistics), CPLEX LP, weighted MaxSAT (WCNF) or MiniZinc.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use sudoku_lab::backend::BackendError;
use sudoku_lab::backends::sat::DEFAULT_MEMORY_LIMIT as SAT_MEMORY_LIMIT;
use sudoku_lab::counted::counted;
use sudoku_lab::format::ReadOptions;
use sudoku_lab::sat::encode::EncodeOptions;
use sudoku_lab::weights::WeightSource;

use super::args::{mib, InputArgs, WeightsArg};
use super::batch;
use super::engine::CnfArgs;
use super::output::Output;
use super::UsageError;

/// Write a puzzle's encoding for external tools: DIMACS CNF (with a comment header giving
/// the variable numbering), a CPLEX LP integer program, weighted MaxSAT (WCNF), or a
/// MiniZinc model.
#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// Puzzle file (`-` or none: standard input).
    file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EncodeTarget::Dimacs)]
    to: EncodeTarget,
    /// Which puzzle of the file to encode (1-based, bad ones counted); needed when it holds
    /// several. It is encoded even when others are bad (they are reported; exit code 2).
    #[arg(long, value_name = "K")]
    index: Option<usize>,
    /// Write the encoding to this file instead of standard output (`-`: standard output).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print variables, clauses and literals per part of the CNF (instead of the CNF itself
    /// unless --output is given).
    #[arg(long)]
    stats: bool,
    /// Objective: maximise Σ weight × digit with `pyramid` or a weights file. LP, MiniZinc:
    /// none (feasibility only) when absent; WCNF: pyramid when absent.
    #[arg(long, value_name = "pyramid|FILE", value_parser = WeightsArg::pyramid_or_file)]
    weights: Option<WeightsArg>,
    /// DIMACS: also fix naked / hidden singles and locked candidates before encoding, as the
    /// in-process `sat` backend does, so the file is the formula that backend solves (the
    /// header lists the fixed digits needed to decode a model).
    #[arg(long)]
    propagate: bool,
    /// Largest export to build, in MiB (as estimated before building it): the CNF formula
    /// of DIMACS and WCNF, the integer program and its text for LP; larger puzzles are
    /// refused, as by the `sat` backends.
    #[arg(long, value_name = "MIB", default_value_t = (SAT_MEMORY_LIMIT >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    sat_memory_mib: u64,
    #[command(flatten)]
    cnf: CnfArgs,
    #[command(flatten)]
    input: InputArgs,
}

impl EncodeArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        let weights = self
            .weights
            .or((self.to == EncodeTarget::Wcnf).then_some(WeightsArg::Pyramid))
            .map(|w| w.resolve())
            .transpose()?;
        if self.stats && self.to != EncodeTarget::Dimacs {
            return Err(UsageError(
                "--stats describes the CNF: use it with --to dimacs".into(),
            ));
        }
        if self.propagate && (self.to != EncodeTarget::Dimacs || self.cnf.no_simplify) {
            return Err(UsageError(
                "--propagate simplifies the CNF further: use it with --to dimacs and without --no-simplify"
                    .into(),
            ));
        }
        let output = Output::resolve_opt(self.output, "-o")?;
        if self.stats && output.as_ref().is_some_and(Output::is_stdout) {
            return Err(UsageError(
                "--stats and -o - would both write to standard output: give -o a file".into(),
            ));
        }
        Ok(Config {
            files: self.file.into_iter().collect(),
            read: self.input.read_options(),
            to: self.to,
            index: self.index,
            output,
            stats: self.stats,
            weights,
            encode_options: EncodeOptions {
                propagate: self.propagate,
                ..self.cnf.encode_options()
            },
            memory_limit: mib(self.sat_memory_mib),
        })
    }
}

/// What `encode` was asked for.
pub struct Config {
    /// The input: one file, or none for standard input.
    files: Vec<PathBuf>,
    read: ReadOptions,
    to: EncodeTarget,
    index: Option<usize>,
    output: Option<Output>,
    stats: bool,
    weights: Option<WeightSource>,
    encode_options: EncodeOptions,
    /// The largest export to build, in bytes (`--sat-memory-mib`).
    memory_limit: usize,
}

/// Encodes the puzzle asked for. An index past the input, or an input of several puzzles without
/// one, is a usage error; so is an export over the memory limit.
pub fn run(config: &Config) -> Result<ExitCode, UsageError> {
    let mut tally = batch::Tally::default();
    let mut items = Vec::new();
    let entries = batch::each_puzzle(
        &config.files,
        &config.read,
        config.weights.as_ref(),
        &mut tally,
        |it| items.push(it),
    );
    // With --index, only that puzzle matters: it is encoded even when others are bad (they
    // are reported, and the exit code is still 2). A bad puzzle K has been reported already.
    let item = match (config.index, items.len()) {
        (Some(i), _) => match items.iter().find(|it| it.index == i) {
            Some(it) => it,
            // Puzzle K itself is bad: reported already.
            None if (1..=entries).contains(&i) => return Ok(ExitCode::from(2)),
            None => {
                return Err(UsageError(format!(
                    "--index {i} is out of range: the input holds {} (bad ones counted), \
                     numbered from 1",
                    counted(entries, "puzzle")
                )))
            }
        },
        (None, _) if tally.bad_input => return Ok(ExitCode::from(2)),
        (None, 0) => return Err(UsageError("no puzzle in the input".into())),
        (None, 1) => &items[0],
        (None, k) => {
            return Err(UsageError(format!(
                "the input holds {k} puzzles: choose one with --index K"
            )))
        }
    };
    if config.to == EncodeTarget::Lp {
        let need = sudoku_lab::ilp::lp::estimated_bytes(&item.puzzle);
        if need > config.memory_limit as u64 {
            return Err(UsageError(format!(
                "{}: the integer program would take about {} MiB, over the memory limit of {} \
                 MiB (--sat-memory-mib)",
                item.place(),
                need.div_ceil(1 << 20),
                config.memory_limit >> 20
            )));
        }
    } else if config.to != EncodeTarget::Mzn {
        let sat = sudoku_lab::sat::options::SatOptions {
            encoding: config.encode_options.encoding,
            amo: config.encode_options.amo,
            cage: config.encode_options.cage,
            pair: config.encode_options.pair,
            simplify: config.encode_options.simplify,
            propagate: config.encode_options.propagate,
            memory_limit: config.memory_limit,
            ..Default::default()
        };
        let holder = sudoku_lab::sat::memory::Holder::Export;
        sudoku_lab::sat::memory::check_memory(&item.puzzle, &sat, holder, 1, "encode").map_err(
            |e| {
                let why = match e {
                    BackendError::Unsupported(why) => why,
                    e => e.to_string(),
                };
                UsageError(format!("{}: {why}", item.place()))
            },
        )?;
    }
    let mut buf = Vec::new();
    let encode_stats = match config.to {
        EncodeTarget::Dimacs => Some(
            sudoku_lab::sat::encode::to_dimacs(&item.puzzle, &config.encode_options, &mut buf)
                .map_err(|e| UsageError(e.to_string()))?,
        ),
        EncodeTarget::Wcnf => {
            sudoku_lab::sat::wcnf::to_wcnf(&item.puzzle, &config.encode_options, &mut buf)
                .map_err(|e| UsageError(e.to_string()))?;
            None
        }
        EncodeTarget::Lp => {
            let objective = item.puzzle.weights().is_some();
            sudoku_lab::ilp::lp::write_lp(&item.puzzle, objective, &mut buf)
                .map_err(|e| UsageError(e.to_string()))?;
            None
        }
        EncodeTarget::Mzn => {
            // Like LP: the objective is there only when --weights attached weights.
            sudoku_lab::cp::minizinc::write_puzzle(&item.puzzle, &mut buf)
                .map_err(|e| UsageError(format!("writing the MiniZinc model: {e}")))?;
            None
        }
    };
    match &config.output {
        Some(output) => output.write(&buf).map_err(UsageError)?,
        None if !config.stats => batch::write_stdout(&buf),
        None => {}
    }
    if let Some(st) = encode_stats.filter(|_| config.stats) {
        batch::write_stdout(st.to_string().as_bytes());
    }
    Ok(ExitCode::from(if tally.bad_input { 2 } else { 0 }))
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EncodeTarget {
    /// DIMACS CNF.
    Dimacs,
    /// CPLEX LP integer program (objective: the weights of --weights).
    Lp,
    /// Weighted MaxSAT (MaxSAT Evaluation WCNF: `h` hard clauses, weighted soft clauses): the
    /// DIMACS encoding plus the objective of --weights (default pyramid); the header says how
    /// a cost becomes a score.
    Wcnf,
    /// MiniZinc model (the `cp` backend's model: all_different per house and cage, cage sums,
    /// the variant rules, `solve maximize score` with --weights, `solve satisfy` without); run it with
    /// `minizinc --solver gecode FILE`.
    Mzn,
}
