//! The page of `explain --html`: its data (steps, boards, grade), that it fetches nothing and
//! carries its data as JSON that parses, the files the command writes and its errors, and a
//! headless Chromium that loads the page, steps to the end with the arrow key and shows the
//! solution with no script error.
//!
//! Without `/usr/bin/chromium` (or `chromium` on the `PATH`) the browser test says `skipped`,
//! unless the environment variable `CI` is set: there a missing browser is a failure.

mod common;

use std::path::Path;

use common::browser::{chromium, headless};
use common::{run, run_with, stderr, stdout};
use sudoku_lab::format::read_puzzles;
use sudoku_lab::logic::{solve, Ladder};
use sudoku_lab::model::Puzzle;
use sudoku_lab::report::html::{page, PageData};

const HARD: &str = "tests/data/logic/magictour_10.txt";
const EASY: &str = "tests/data/logic/17_clue_5.txt";

/// The first `count` lines of a file of the repository.
fn lines(file: &str, count: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().take(count).map(|l| format!("{l}\n")).collect()
}

fn first_puzzle(file: &str) -> Puzzle {
    read_puzzles(&lines(file, 1), &Default::default())
        .remove(0)
        .unwrap()
        .puzzle
}

/// The solution of `puzzle` row by row, as the page's `<output id="grid">` writes a full grid.
fn solution_text(puzzle: &Puzzle) -> String {
    let solution = sudoku_lab::task::unique_solution(puzzle).expect("one solution");
    solution.cells().iter().map(|d| d.to_string()).collect()
}

/// The JSON object of a page (`<script type="application/json" id="page-data">`).
fn page_json(html: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="page-data">"#;
    let start = html.find(open).expect("the data script") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("the page's data is JSON")
}

#[test]
fn the_data_holds_every_step_and_the_grade() {
    let puzzle = first_puzzle(HARD);
    let result = solve(&puzzle, &Ladder::default()).unwrap();
    let data = PageData::new(&puzzle, &result, "magictour:1").unwrap();
    assert_eq!(data.steps.len(), 98);
    assert_eq!(data.boards.len(), 99);
    assert_eq!(data.steps[0].record.text, "Hidden Single: r9c3=7");
    assert_eq!(data.steps[0].record.placements, [[9, 3, 7]]);
    // A hidden single: its house (box 7) shaded, its cell marked; its one premise candidate is
    // the placement, marked as such.
    assert_eq!(data.steps[0].houses.len(), 9);
    assert_eq!(data.steps[0].cells, [[9, 3]]);
    assert!(data.steps[0].premises.is_empty());
    let g = &data.grade;
    assert_eq!(
        (g.level, g.score, g.rating, g.hardest, g.steps),
        ("extreme", 6922, 8.5, "forcing-net-contradiction", 98)
    );
    assert_eq!(g.outcome, "solved in 98 steps");
    // Step 24 is a grouped AIC with 7 links, strong and weak alternating from a strong one.
    let aic = &data.steps[23];
    assert_eq!(aic.record.technique, "grouped-aic");
    let strong: Vec<bool> = aic.links.iter().map(|l| l.strong).collect();
    assert_eq!(strong, [true, false, true, false, true, false, true]);
    assert_eq!(aic.links[0].from, [[1, 9, 9]]);
    assert_eq!(aic.record.eliminations, [[1, 6, 9]]);
    // The last board is the solution.
    let last: String = data.boards[98]
        .values
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(last, solution_text(&puzzle));

    // A coloring step: its two colour classes, and no links.
    let ladder = Ladder::parse("singles,intersections,subsets,coloring").unwrap();
    let result = solve(&first_puzzle(HARD), &ladder).unwrap();
    let data = PageData::new(&first_puzzle(HARD), &result, "colours").unwrap();
    let trap = &data.steps[15];
    assert_eq!(
        trap.record.text,
        "Simple Colors Trap: 4 (r2c6,r3c7) / (r2c9,r6c7) => r6c6<>4"
    );
    assert_eq!(
        trap.colours,
        [[[2, 6, 4], [3, 7, 4]], [[2, 9, 4], [6, 7, 4]]]
    );
    assert!(trap.links.is_empty() && trap.premises.is_empty());

    // Singles alone stop on the first 17-clue puzzle: the grade says so.
    let puzzle = first_puzzle(EASY);
    let result = solve(&puzzle, &Ladder::parse("singles").unwrap()).unwrap();
    let data = PageData::new(&puzzle, &result, "17 clues").unwrap();
    assert_eq!(data.steps.len(), 8);
    assert_eq!(data.grade.level, "unsolved");
    assert_eq!(
        data.grade.outcome,
        "no logical step found after 8 steps, 56 cells empty"
    );
}

#[test]
fn the_page_fetches_nothing_and_its_data_parses() {
    let puzzle = first_puzzle(HARD);
    let result = solve(&puzzle, &Ladder::default()).unwrap();
    let data = PageData::new(&puzzle, &result, "</script><b>title").unwrap();
    let html = page(&puzzle, &data).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in [
        "src=", "href=", "<link", "@import", "url(", "<iframe", "fetch(",
    ] {
        assert!(!html.contains(external), "the page holds {external}");
    }
    // The one `http` is the SVG namespace, a name and not an address to fetch.
    let svg_ns = "http://www.w3.org/2000/svg";
    assert_eq!(html.matches("http").count(), html.matches(svg_ns).count());
    assert_eq!(html.matches("<script").count(), 3);
    assert_eq!(html.matches("</script>").count(), 3);
    // The grid is the picture `render` draws, inline.
    assert!(html.contains(r#"<g class="givens">"#));
    let json = page_json(&html);
    assert_eq!(json, serde_json::to_value(&data).unwrap());
    assert_eq!(json["steps"].as_array().unwrap().len(), 98);
    assert_eq!(json["steps"][0]["text"], "Hidden Single: r9c3=7");
    assert_eq!(json["title"], "</script><b>title");
}

#[test]
fn explain_html_writes_a_page_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.html");
    let file_arg = file.to_str().unwrap();
    let one = lines(EASY, 1);
    let o = run_with(&["explain", "--html", file_arg], &one);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{}\n", file.display()));
    let json = page_json(&std::fs::read_to_string(&file).unwrap());
    assert_eq!(json["title"], "<stdin>:1");
    assert_eq!(json["grade"]["outcome"], "solved in 73 steps");

    // Two puzzles: two pages, numbered.
    let o = run_with(&["explain", "--html", file_arg], &lines(EASY, 2));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let named = |k: usize| dir.path().join(format!("page-{k}.html"));
    assert_eq!(
        stdout(&o),
        format!("{}\n{}\n", named(1).display(), named(2).display())
    );
    let second = page_json(&std::fs::read_to_string(named(2)).unwrap());
    assert_eq!(second["title"], "<stdin>:2");
}

#[test]
fn explain_html_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/folder/page.html");
    let o = run(&["explain", "--html", missing.to_str().unwrap(), EASY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(!missing.exists());
    let o = run(&["explain", "--html", dir.path().to_str().unwrap(), EASY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a folder"), "{}", stderr(&o));
    let page = dir.path().join("page.html");
    let o = run(&["explain", "--json", "--html", page.to_str().unwrap(), EASY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    assert!(!page.exists());
}

/// The DOM of `page` after its script ran, as headless Chromium dumps it.
fn dump_dom(chromium: &Path, page: &Path, fragment: &str, scratch: &Path) -> String {
    let out = scratch.join(format!("dom-{}.html", fragment.replace('=', "-")));
    let args = [
        "--virtual-time-budget=5000".to_string(),
        "--dump-dom".to_string(),
    ];
    let url = format!("file://{}#{fragment}", page.display());
    let stdout = std::fs::File::create(&out).unwrap();
    headless(
        chromium,
        &scratch.join("profile"),
        &args,
        &url,
        stdout.into(),
    );
    std::fs::read_to_string(&out).unwrap()
}

/// The opening tag of `<body>` in a dumped DOM.
fn body_tag(dom: &str) -> &str {
    let start = dom.find("<body").expect("a body");
    &dom[start..start + dom[start..].find('>').unwrap() + 1]
}

/// The text of `<output id="grid">`.
fn grid_output(dom: &str) -> &str {
    let open = r#"<output id="grid">"#;
    let start = dom.find(open).expect("the grid output") + open.len();
    &dom[start..start + dom[start..].find("</output>").unwrap()]
}

#[test]
fn a_browser_steps_to_the_solution_without_error() {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed, and CI is set: the browser test must run"
        );
        println!("skipped: chromium not installed");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.html");
    let o = run_with(
        &["explain", "--html", file.to_str().unwrap()],
        &lines(HARD, 1),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let puzzle = first_puzzle(HARD);
    let solution = solution_text(&puzzle);

    // The right arrow pressed 98 times, a click on step 1 in the list, End, back and forward:
    // the end, solved.
    let dom = dump_dom(&chromium, &file, "play", dir.path());
    let body = body_tag(&dom);
    assert!(!body.contains("data-error"), "script error: {body}");
    assert!(body.contains(r#"data-step="end""#), "{body}");
    assert!(body.contains(r#"data-trail="end,1,end,98,end""#), "{body}");
    assert_eq!(grid_output(&dom), solution);
    // The 63 digits the steps placed are drawn over the picture, which has the 18 givens.
    assert_eq!(dom.matches(r#"class="digit""#).count(), 63);
    assert!(dom.contains("solved in 98 steps"));

    // A step picked by the fragment: before step 24 (a grouped AIC), its chain drawn.
    let dom = dump_dom(&chromium, &file, "step=24", dir.path());
    let body = body_tag(&dom);
    assert!(!body.contains("data-error"), "script error: {body}");
    assert!(body.contains(r#"data-step="24""#), "{body}");
    assert_eq!(dom.matches(r#"class="link strong""#).count(), 4);
    assert_eq!(dom.matches(r#"class="link weak""#).count(), 3);
    assert_eq!(dom.matches(r#"class="strike""#).count(), 1);
    assert_ne!(grid_output(&dom), solution);
    assert!(dom.contains(r#"class="current">Grouped AIC: 9 r1c9"#));
}
