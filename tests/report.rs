//! Report module: nearest-rank statistics on known inputs, the table / CSV / JSON writers read
//! back field by field, and the SVG plot's structure (panels, legend, edge cases).

use std::path::PathBuf;
use std::time::Duration;

use sudoku_lab::effort::Effort;
use sudoku_lab::report::{
    self, percentile, BenchRow, Outcome, PlotSeries, ReportError, RowRecord, Stats,
};

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}
fn us(v: u64) -> Duration {
    Duration::from_micros(v)
}

#[test]
fn stats_of_empty_input_are_zero() {
    let s = Stats::from_durations(&[]);
    assert_eq!(s, Stats::default());
    assert_eq!(
        (s.count, s.total, s.median, s.max),
        (0, ms(0), ms(0), ms(0))
    );
}

#[test]
fn stats_of_one_value_are_that_value() {
    let s = Stats::from_durations(&[ms(7)]);
    assert_eq!(s.count, 1);
    for v in [s.total, s.median, s.p90, s.max, s.min, s.mean] {
        assert_eq!(v, ms(7));
    }
}

#[test]
fn stats_use_nearest_rank_percentiles() {
    // 1..=10 ms, shuffled: median = rank ceil(5) = 5th, p90 = rank ceil(9) = 9th.
    let t: Vec<Duration> = [7, 3, 10, 1, 9, 2, 8, 5, 4, 6].map(ms).to_vec();
    let s = Stats::from_durations(&t);
    assert_eq!(s.count, 10);
    assert_eq!(s.total, ms(55));
    assert_eq!(s.mean, us(5500));
    assert_eq!(
        (s.min, s.median, s.p90, s.max),
        (ms(1), ms(5), ms(9), ms(10))
    );

    // Even count: the lower middle value; p90 of 4 is rank ceil(3.6) = 4.
    let s = Stats::from_durations(&[4, 1, 3, 2].map(ms));
    assert_eq!((s.median, s.p90), (ms(2), ms(4)));
    // Odd count: rank ceil(1.5) = 2 and ceil(2.7) = 3.
    let s = Stats::from_durations(&[30, 10, 20].map(ms));
    assert_eq!((s.median, s.p90), (ms(20), ms(30)));
    // 11 values: p90 is rank ceil(9.9) = 10.
    let t: Vec<Duration> = (1..=11).rev().map(ms).collect();
    assert_eq!(Stats::from_durations(&t).p90, ms(10));
    // Mean rounds down to the nanosecond.
    let s = Stats::from_durations(&[Duration::from_nanos(1), Duration::from_nanos(2)]);
    assert_eq!(s.mean, Duration::from_nanos(1));
}

#[test]
fn plot_series_from_durations_is_in_microseconds() {
    let s = PlotSeries::from_durations("f", "b", &[us(3), Duration::from_nanos(1500), ms(2)]);
    assert_eq!((s.file.as_str(), s.backend.as_str()), ("f", "b"));
    assert_eq!(s.times_us, [3.0, 1.5, 2000.0]);
}

#[test]
fn percentile_bounds_and_ranks() {
    let v: Vec<u32> = (1..=8).collect();
    assert_eq!(percentile(&v, 0), Some(1));
    assert_eq!(percentile(&v, 25), Some(2));
    assert_eq!(percentile(&v, 75), Some(6));
    assert_eq!(percentile(&v, 100), Some(8));
    assert_eq!(percentile(&v, 250), Some(8));
    let twenty: Vec<u32> = (1..=20).collect();
    assert_eq!(percentile(&twenty, 90), Some(18));
    assert_eq!(percentile::<u32>(&[], 50), None);
}

/// Two rows with known times: a bench row (no cross-check) and an xcheck row.
fn rows() -> Vec<BenchRow> {
    let bench = BenchRow::from_samples(
        "easy.txt",
        "dfs",
        "solve",
        &[
            (Outcome::Answered, us(100)),
            (Outcome::Answered, us(300)),
            (Outcome::TimedOut, us(2000)),
            (Outcome::Refused, us(50)),
            (Outcome::Failed, us(600)),
        ],
    );
    let xcheck = BenchRow::from_samples(
        "hard, \"quoted\".txt",
        "dlx",
        "count",
        &[
            (Outcome::Agreed, us(10)),
            (Outcome::Disagreed, us(20)),
            (Outcome::Agreed, us(30)),
        ],
    );
    vec![bench, xcheck]
}

#[test]
fn bench_rows_tally_outcomes() {
    let [bench, xcheck] = <[BenchRow; 2]>::try_from(rows()).unwrap();
    assert_eq!(
        (
            bench.record.puzzles,
            bench.record.answered,
            bench.record.agreed,
            bench.record.timed_out,
            bench.record.refused,
            bench.record.failed
        ),
        (5, 2, None, 1, 1, 1)
    );
    assert_eq!(bench.stats.total, us(3050));
    assert_eq!(bench.stats.median, us(300));
    let pps = bench.puzzles_per_sec().unwrap();
    assert!((pps - 5.0 / 0.00305).abs() < 1e-6, "{pps}");
    assert_eq!(
        (
            xcheck.record.puzzles,
            xcheck.record.answered,
            xcheck.record.agreed,
            xcheck.record.timed_out,
            xcheck.record.refused,
            xcheck.record.failed
        ),
        (3, 3, Some(2), 0, 0, 0)
    );
    let none = BenchRow::from_samples("f", "b", "solve", &[]);
    assert_eq!(none.puzzles_per_sec(), None);
    let zero = BenchRow::from_samples("f", "b", "solve", &[(Outcome::Answered, ms(0))]);
    assert_eq!(zero.puzzles_per_sec(), None);
    let unanswered = BenchRow::from_samples(
        "f",
        "b",
        "solve",
        &[(Outcome::TimedOut, ms(200)), (Outcome::Failed, ms(3))],
    );
    assert_eq!(unanswered.puzzles_per_sec(), None);
}

#[test]
fn table_is_aligned_and_shows_the_numbers() {
    let mut out = Vec::new();
    report::write_table(&rows(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        [
            "file",
            "backend",
            "task",
            "puzzles",
            "answered",
            "agreed",
            "timeout",
            "refused",
            "failed",
            "puzzles/s",
            "total",
            "median",
            "µs",
            "p90",
            "µs",
            "max",
            "µs"
        ]
    );
    // Right-aligned numeric columns end at the same character column on every line.
    let width = |l: &str| l.chars().count();
    assert!(lines.iter().all(|l| width(l) == width(lines[0])), "{text}");
    // Left-aligned text columns start together.
    let col = |l: &str, s: &str| l[..l.find(s).unwrap()].chars().count();
    assert_eq!(col(lines[0], "backend"), col(lines[1], "dfs"));
    assert_eq!(col(lines[0], "backend"), col(lines[2], "dlx"));
    let bench: Vec<&str> = lines[1].split_whitespace().collect();
    // puzzles answered agreed timeout refused failed pps total median p90 max
    assert_eq!(
        bench[3..],
        ["5", "2", "-", "1", "1", "1", "1639.3", "3.05", "ms", "300", "2000", "2000"]
    );
    let xcheck: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(
        xcheck[xcheck.len() - 12..],
        ["3", "3", "2", "0", "0", "0", "50000.0", "60.0", "µs", "20.0", "30.0", "30.0"][..]
    );

    // Without cross-checked rows there is no agreed column.
    let mut out = Vec::new();
    report::write_table(&rows()[..1], &mut out).unwrap();
    assert!(!String::from_utf8(out).unwrap().contains("agreed"));
}

fn expected_records() -> Vec<RowRecord> {
    vec![
        RowRecord {
            file: "easy.txt".into(),
            backend: "dfs".into(),
            task: "solve".into(),
            puzzles: 5,
            answered: 2,
            agreed: None,
            timed_out: 1,
            refused: 1,
            failed: 1,
            puzzles_per_sec: Some(5.0 / 0.00305),
            not_run: 0,
            total_s: 0.00305,
            min_us: 50.0,
            mean_us: 610.0,
            median_us: 300.0,
            p90_us: 2000.0,
            max_us: 2000.0,
            ..RowRecord::default()
        },
        RowRecord {
            file: "hard, \"quoted\".txt".into(),
            backend: "dlx".into(),
            task: "count".into(),
            puzzles: 3,
            answered: 3,
            agreed: Some(2),
            timed_out: 0,
            refused: 0,
            failed: 0,
            puzzles_per_sec: Some(3.0 / 0.00006),
            not_run: 0,
            total_s: 0.00006,
            min_us: 10.0,
            mean_us: 20.0,
            median_us: 20.0,
            p90_us: 30.0,
            max_us: 30.0,
            ..RowRecord::default()
        },
    ]
}

fn assert_records_match(got: &[RowRecord]) {
    let want = expected_records();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        assert_eq!(
            (&g.file, &g.backend, &g.task, g.puzzles, g.answered, g.agreed),
            (&w.file, &w.backend, &w.task, w.puzzles, w.answered, w.agreed)
        );
        assert_eq!(
            (g.timed_out, g.refused, g.failed),
            (w.timed_out, w.refused, w.failed)
        );
        assert!(close(
            g.puzzles_per_sec.unwrap(),
            w.puzzles_per_sec.unwrap()
        ));
        for (a, b) in [
            (g.total_s, w.total_s),
            (g.min_us, w.min_us),
            (g.mean_us, w.mean_us),
            (g.median_us, w.median_us),
            (g.p90_us, w.p90_us),
            (g.max_us, w.max_us),
        ] {
            assert!(close(a, b), "{g:?} vs {w:?}");
        }
    }
}

#[test]
fn csv_reads_back() {
    let mut out = Vec::new();
    report::write_csv(&rows(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(
        "file,backend,task,puzzles,answered,agreed,timed_out,refused,failed,puzzles_per_sec,total_s,"
    ));
    // The quoted file name survives; an absent `agreed` is an empty field.
    assert!(text.contains("\"hard, \"\"quoted\"\".txt\""), "{text}");
    assert!(text.contains("easy.txt,dfs,solve,5,2,,1,1,1,"), "{text}");
    let got: Vec<RowRecord> = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_records_match(&got);
}

#[test]
fn json_reads_back() {
    let mut out = Vec::new();
    report::write_json(&rows(), &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(value[0]["agreed"].is_null());
    assert_eq!(value[1]["agreed"], 2);
    assert_eq!(value[0]["median_us"], 300.0);
    let got: Vec<RowRecord> = serde_json::from_slice(&out).unwrap();
    assert_records_match(&got);
}

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn series(file: &str, backend: &str, times_us: Vec<f64>) -> PlotSeries {
    PlotSeries {
        file: file.into(),
        backend: backend.into(),
        times_us,
        unanswered: 0,
        timed_out: 0,
        refused: 0,
        effort: None,
    }
}

/// `<text>` elements whose content (trimmed) is exactly `s`.
fn text_elements(svg: &str, s: &str) -> usize {
    svg.split("</text>")
        .filter_map(|chunk| chunk.rsplit_once('>'))
        .filter(|(_, content)| content.trim() == s)
        .count()
}

#[test]
fn svg_has_one_panel_per_file_and_every_backend_in_the_legend() {
    let backends = ["dfs", "dlx", "sat"];
    let mut all = Vec::new();
    for (file, n) in [("easy.txt", 20), ("hard.txt", 300)] {
        for (k, b) in backends.iter().enumerate() {
            let times = (1..=n).map(|i| (i * (k + 1)) as f64).collect();
            all.push(series(file, b, times));
        }
    }
    let path = tmp("report_two_files.svg");
    report::plot_svg(&all, &path, "bench <solve>").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.trim_start().starts_with("<svg"), "{}", &svg[..100]);
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(text_elements(&svg, "bench &lt;solve&gt;"), 1);
    assert_eq!(text_elements(&svg, "easy.txt — 20 puzzles"), 1);
    assert_eq!(text_elements(&svg, "hard.txt — 300 puzzles"), 1);
    for b in backends {
        // Once in the legend, once as a row label in each of the two panels.
        assert_eq!(text_elements(&svg, b), 3, "{b}");
    }
    // Log axis: decade ticks, and the fastest backend's median in bold in each panel.
    assert_eq!(text_elements(&svg, "1 µs"), 2);
    assert_eq!(text_elements(&svg, "1 ms"), 2);
    assert_eq!(svg.matches("font-weight=\"bold\"").count(), 1 + 2 + 2);
    assert!(svg.contains("median 10.0 µs"), "easy/dfs median is 10 µs");
}

#[test]
fn svg_handles_zero_times_and_one_series() {
    let path = tmp("report_zero.svg");
    let mut zeros = PlotSeries::from_durations("only.txt", "dfs", &[Duration::ZERO; 3]);
    assert_eq!(zeros.times_us, [0.0; 3]);
    zeros.times_us.push(f64::NAN);
    let one = [zeros];
    report::plot_svg(&one, &path, "zeros").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text_elements(&svg, "only.txt — 3 puzzles"), 1);
    assert!(svg.contains("median 100 ns"), "zero is drawn at 0.1 µs");
    assert!(text_elements(&svg, "100 ns") >= 1);
}

#[test]
fn svg_marks_missing_backends_and_rejects_empty_input() {
    let path = tmp("report_missing.svg");
    let s = [
        series("a.txt", "dfs", vec![5.0, 7.0]),
        series("a.txt", "sat", vec![50.0]),
        series("b.txt", "dfs", vec![9.0]),
    ];
    report::plot_svg(&s, &path, "missing").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text_elements(&svg, "no data"), 1);
    assert_eq!(text_elements(&svg, "b.txt — 1 puzzle"), 1);

    let err = report::plot_svg(&[], &path, "empty").unwrap_err();
    assert!(matches!(err, ReportError::NoData), "{err}");
    let nan = [series("a.txt", "dfs", vec![f64::NAN])];
    assert!(matches!(
        report::plot_svg(&nan, &path, "nan"),
        Err(ReportError::NoData)
    ));
    let bad = tmp("no-such-dir/plot.svg");
    let s = [series("a.txt", "dfs", vec![1.0])];
    assert!(matches!(
        report::plot_svg(&s, &bad, "bad path"),
        Err(ReportError::Plot(_))
    ));
}

#[test]
fn svg_shows_unanswered_puzzles_and_never_crowns_a_backend_that_missed_some() {
    let path = tmp("report_unanswered.svg");
    let samples = |outcomes: &[(Outcome, u64)]| -> Vec<(Outcome, Duration)> {
        outcomes.iter().map(|&(o, t)| (o, us(t))).collect()
    };
    let s = [
        // Refused in microseconds: fastest, but it answered nothing.
        PlotSeries::from_samples(
            "big.txt",
            "dfs",
            &samples(&[(Outcome::Refused, 3), (Outcome::Refused, 4)]),
        ),
        // One fast answer, one time-out.
        PlotSeries::from_samples(
            "big.txt",
            "dlx",
            &samples(&[(Outcome::Answered, 20), (Outcome::TimedOut, 10_000_000)]),
        ),
        // Slower, but it answered both.
        PlotSeries::from_samples(
            "big.txt",
            "sat",
            &samples(&[(Outcome::Answered, 300), (Outcome::Answered, 500)]),
        ),
        // Nothing in time; then one of each kind of miss.
        PlotSeries::from_samples(
            "big.txt",
            "ilp",
            &samples(&[(Outcome::TimedOut, 10), (Outcome::TimedOut, 10)]),
        ),
        PlotSeries::from_samples(
            "big.txt",
            "sat-ext",
            &samples(&[(Outcome::TimedOut, 10), (Outcome::Failed, 10)]),
        ),
        PlotSeries::from_samples(
            "big.txt",
            "isotope",
            &samples(&[(Outcome::Refused, 10), (Outcome::Failed, 10)]),
        ),
    ];
    assert_eq!((s[0].times_us.len(), s[0].unanswered), (0, 2));
    assert_eq!((s[1].times_us.clone(), s[1].unanswered), (vec![20.0], 1));
    assert_eq!((s[0].timed_out, s[1].timed_out), (0, 1));
    assert_eq!((s[0].refused, s[4].refused, s[5].refused), (2, 0, 1));
    report::plot_svg(&s, &path, "unanswered").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text_elements(&svg, "big.txt — 2 puzzles"), 1);
    assert_eq!(text_elements(&svg, "no answer (2 refused)"), 1);
    assert_eq!(text_elements(&svg, "no answer (2 timed out)"), 1);
    assert_eq!(text_elements(&svg, "no answer (1 timed out, 1 failed)"), 1);
    assert_eq!(text_elements(&svg, "no answer (1 refused, 1 failed)"), 1);
    assert_eq!(text_elements(&svg, "p90 20.0 µs · 1 unanswered"), 1);
    // Title, caption, and sat's median: the only backend that answered everything.
    assert_eq!(svg.matches("font-weight=\"bold\"").count(), 3, "{svg}");
    let bold_median = svg
        .split("</text>")
        .filter(|c| c.contains("font-weight=\"bold\"") && c.contains("median"))
        .map(|c| c.rsplit_once('>').unwrap().1.trim().to_string())
        .collect::<Vec<_>>();
    assert_eq!(bold_median, ["median 300 µs"]);

    // Nothing answered at all is still a plot.
    let none = [PlotSeries::from_samples(
        "x.txt",
        "dfs",
        &samples(&[(Outcome::TimedOut, 1_000_000)]),
    )];
    report::plot_svg(&none, &path, "none").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text_elements(&svg, "no answer (1 timed out)"), 1);
}

#[test]
fn merged_shards_give_exactly_the_rows_of_one_run() {
    // 101 puzzles with distinct times and every outcome, split round robin into three shards:
    // the merged medians, percentiles and totals are those of the whole, not of the shards.
    let samples: Vec<(Outcome, std::time::Duration)> = (0..101u64)
        .map(|i| {
            let outcome =
                [Outcome::Answered, Outcome::TimedOut, Outcome::Refused][(i % 7 % 3) as usize];
            (
                outcome,
                std::time::Duration::from_nanos(1000 + (i * 7919) % 100_003),
            )
        })
        .collect();
    let whole = BenchRow::from_samples("f.txt", "dfs", "solve", &samples);
    let mut medians: Vec<std::time::Duration> = Vec::new();
    let shards: Vec<(String, String)> = (0..3)
        .map(|k| {
            let part: Vec<report::Sample> = whole
                .samples
                .iter()
                .filter(|s| (s.index - 1) % 3 == k)
                .copied()
                .collect();
            let row = BenchRow::from_indexed("f.txt", "dfs", "solve", &part);
            medians.push(row.stats.median);
            let mut out = Vec::new();
            report::write_json(&[row], &mut out).unwrap();
            (format!("shard{k}.json"), String::from_utf8(out).unwrap())
        })
        .collect();
    assert!(
        medians.iter().any(|&m| m != whole.stats.median),
        "the shards' own medians are not the whole's: {medians:?}"
    );
    let merged = report::merge(&shards).unwrap();
    assert_eq!(merged.rows, vec![whole]);
    assert_eq!(merged.xcheck, None);
    let twice = [shards[0].clone(), shards[0].clone()];
    let e = report::merge(&twice).unwrap_err();
    assert!(matches!(e, report::MergeError::BenchTwice { .. }), "{e:?}");
    assert!(e.to_string().contains("in another input too"), "{e}");
}

#[test]
fn effort_columns_summarise_the_answered_puzzles_and_survive_every_output() {
    let sample = |index, outcome, effort| report::Sample {
        index,
        outcome,
        time_ns: 1_000,
        effort,
    };
    let search = |guesses, nodes| Effort {
        guesses: Some(guesses),
        nodes: Some(nodes),
        ..Effort::default()
    };
    let cdcl = Effort {
        decisions: Some(4),
        conflicts: Some(2),
        ..Effort::default()
    };
    let samples = [
        sample(1, Outcome::Answered, search(0, 1)),
        sample(2, Outcome::Answered, search(3, 7)),
        // Not answered: left out, whatever it measured.
        sample(3, Outcome::TimedOut, search(100, 100)),
        // Answered, but nothing measured: left out of every mean.
        sample(4, Outcome::Answered, Effort::default()),
        // Decisions stand in for guesses.
        sample(5, Outcome::Agreed, cdcl),
    ];
    let row = BenchRow::from_indexed("f.txt", "mixed", "solve", &samples);
    let r = &row.record;
    let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
    assert!(close(r.no_guess_pct, 100.0 / 3.0), "{r:?}");
    assert!(close(r.guesses_per_puzzle, 7.0 / 3.0), "{r:?}");
    assert!(close(r.nodes_per_puzzle, 4.0), "{r:?}");
    assert!(close(r.decisions_per_puzzle, 4.0), "{r:?}");
    assert!(close(r.conflicts_per_puzzle, 2.0), "{r:?}");
    assert_eq!(
        (r.propagations_per_puzzle, r.restarts_per_puzzle),
        (None, None)
    );
    assert_eq!(
        (r.lp_iterations_per_puzzle, r.bb_nodes_per_puzzle),
        (None, None)
    );

    // A row whose backend measured nothing has no figure at all, never 0.
    let plain = BenchRow::from_samples("f.txt", "cmd", "solve", &[(Outcome::Answered, ms(1))]);
    assert!(plain
        .record
        .effort_columns()
        .iter()
        .all(|(_, v)| v.is_none()));

    // Text: the columns some row has, `-` where a row has none.
    let mut out = Vec::new();
    report::write_table(&[row.clone(), plain.clone()], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0]
        .ends_with("no guess %  guesses/puzzle  nodes/puzzle  decisions/puzzle  conflicts/puzzle"));
    assert!(!lines[0].contains("restarts"), "{text}");
    let cells: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        cells[cells.len() - 5..],
        ["33.3", "2.33", "4.00", "4.00", "2.00"]
    );
    let cells: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(cells[cells.len() - 5..], ["-"; 5], "{text}");

    // CSV: empty fields where nothing was measured; both read back.
    let mut out = Vec::new();
    report::write_csv(&[row.clone(), plain.clone()], &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().next().unwrap().ends_with(
        "not_run,no_guess_pct,guesses_per_puzzle,nodes_per_puzzle,decisions_per_puzzle,\
         conflicts_per_puzzle,propagations_per_puzzle,restarts_per_puzzle,\
         lp_iterations_per_puzzle,bb_nodes_per_puzzle"
    ));
    assert!(
        text.lines().nth(2).unwrap().ends_with(",0,,,,,,,,,"),
        "{text}"
    );
    let got: Vec<RowRecord> = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(got[0].effort_columns(), row.record.effort_columns());
    assert_eq!(got[1].effort_columns(), plain.record.effort_columns());

    // JSON: null where nothing was measured; each sample keeps its effort, so shards merge
    // into the same figures.
    let shards: Vec<(String, String)> = [&samples[..2], &samples[2..]]
        .iter()
        .enumerate()
        .map(|(k, part)| {
            let mut out = Vec::new();
            report::write_json(
                &[BenchRow::from_indexed("f.txt", "mixed", "solve", part)],
                &mut out,
            )
            .unwrap();
            (format!("shard{k}.json"), String::from_utf8(out).unwrap())
        })
        .collect();
    let value: serde_json::Value = serde_json::from_str(&shards[0].1).unwrap();
    assert_eq!(value[0]["no_guess_pct"], 50.0);
    assert!(value[0]["conflicts_per_puzzle"].is_null());
    assert_eq!(value[0]["samples"][1]["effort"]["guesses"], 3);
    let merged = report::merge(&shards).unwrap();
    assert_eq!(merged.rows, vec![row]);
}

#[test]
fn svg_rows_say_their_effort_when_measured() {
    let path = tmp("report_effort.svg");
    let s = [
        PlotSeries {
            effort: Some((109.67, 0.0)),
            ..series("hard.txt", "dfs", vec![50.0, 70.0])
        },
        PlotSeries {
            effort: Some((0.382, 82.91)),
            ..series("easy.txt", "dfs", vec![2.0, 3.0])
        },
        series("hard.txt", "cmd", vec![90.0]),
    ];
    report::plot_svg(&s, &path, "effort").unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text_elements(&svg, "110 guesses · 0.0% no guess"), 1);
    assert_eq!(text_elements(&svg, "0.38 guesses · 82.9% no guess"), 1);
    // A backend that measured nothing says nothing of it.
    assert_eq!(svg.matches("guesses").count(), 2, "{svg}");
}
