//! Pictures: `sudoku_lab::render::svg` writes well-formed SVG in which every kind draws its
//! marks (counted per layer), the givens, sums and clues are there, and nothing the model
//! accepts makes it panic; `render` writes one file per puzzle and reports bad input by file and
//! line; `xcheck` and `fuzz --pictures` draw what they disagree on; and a real browser (headless
//! Chromium, when installed) draws a rendered picture.

mod common;
mod line_solver;

use std::path::Path;
use std::sync::Arc;

use common::browser::headless;
use common::{run, run_with, stderr, stdout};
use line_solver::line_solver;
use sudoku_lab::generate::{blank_solved, variants, GenRng};
use sudoku_lab::model::{
    Arrow, Cage, Constraint, ConstraintKind, Dot, DotRule, EdgeClue, Grid, IndexKind, Line,
    LittleKiller, Puzzle, Regions, Sandwich, Shape,
};
use sudoku_lab::render::{svg, RenderOptions};

/// An element of the parsed SVG.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
    /// The text directly inside, entities decoded.
    text: String,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    /// Every element below this one, depth first.
    fn descendants(&self) -> Vec<&Element> {
        let mut all = vec![];
        for c in &self.children {
            all.push(c);
            all.extend(c.descendants());
        }
        all
    }
    /// The layer `<g class="…">`, if drawn.
    fn layer(&self, class: &str) -> Option<&Element> {
        self.descendants()
            .into_iter()
            .find(|e| e.name == "g" && e.attr("class") == Some(class))
    }
    /// How many elements the layer holds (0 when it is not drawn).
    fn count(&self, class: &str) -> usize {
        self.layer(class).map_or(0, |g| g.descendants().len())
    }
    /// The texts of the layer's `<text>` elements.
    fn texts(&self, class: &str) -> Vec<String> {
        self.layer(class).map_or(vec![], |g| {
            g.descendants()
                .into_iter()
                .filter(|e| e.name == "text")
                .map(|e| e.text.clone())
                .collect()
        })
    }
}

/// Decodes the five entities XML predefines and character references; anything else that
/// starts with `&` is an error.
fn decode(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let end = rest[i..]
            .find(';')
            .ok_or_else(|| format!("'&' without ';' in {s:?}"))?;
        let entity = &rest[i + 1..i + end];
        let ch = match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = entity
                    .strip_prefix("#x")
                    .map(|h| u32::from_str_radix(h, 16))
                    .or_else(|| entity.strip_prefix('#').map(|d| d.parse()))
                    .and_then(Result::ok)
                    .and_then(char::from_u32);
                code.ok_or_else(|| format!("unknown entity &{entity};"))?
            }
        };
        out.push(ch);
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A small XML parser, enough for what the renderer writes: an optional `<?xml …?>` prolog,
/// then one root element; tags must balance, attributes be quoted and unique, text hold no
/// `<` and only known entities, and characters be ones XML allows.
fn parse(doc: &str) -> Result<Element, String> {
    if let Some(c) = doc
        .chars()
        .find(|&c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
    {
        return Err(format!("control character {c:?}"));
    }
    let mut rest = doc.trim_start();
    if rest.starts_with("<?xml") {
        let end = rest.find("?>").ok_or("unterminated prolog")?;
        rest = rest[end + 2..].trim_start();
    }
    let mut stack: Vec<Element> = vec![Element::default()];
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            stack.last_mut().unwrap().text.push_str(&decode(rest)?);
            break;
        };
        let text = &rest[..lt];
        if stack.len() == 1 && !text.trim().is_empty() {
            return Err(format!("text outside the root: {text:?}"));
        }
        stack.last_mut().unwrap().text.push_str(&decode(text)?);
        let gt = rest[lt..].find('>').ok_or("unterminated tag")? + lt;
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let done = stack
                .pop()
                .filter(|_| !stack.is_empty())
                .ok_or("stray end tag")?;
            if done.name != name.trim() {
                return Err(format!("</{name}> closes <{}>", done.name));
            }
            stack.last_mut().ok_or("stray end tag")?.children.push(done);
            continue;
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let mut el = Element {
            name: tag[..name_end].to_string(),
            ..Element::default()
        };
        if el.name.is_empty() || !el.name.chars().all(|c| c.is_alphanumeric() || c == '-') {
            return Err(format!("bad tag <{tag}>"));
        }
        let mut attrs = tag[name_end..].trim();
        while !attrs.is_empty() {
            let eq = attrs
                .find('=')
                .ok_or(format!("attribute without value in <{tag}>"))?;
            let name = attrs[..eq].trim();
            let value = attrs[eq + 1..]
                .strip_prefix('"')
                .ok_or(format!("unquoted attribute {name} in <{tag}>"))?;
            let close = value.find('"').ok_or("unterminated attribute")?;
            if value[..close].contains('<') {
                return Err(format!("'<' in attribute {name}"));
            }
            if el.attr(name).is_some() {
                return Err(format!("attribute {name} twice in <{tag}>"));
            }
            el.attrs.push((name.to_string(), decode(&value[..close])?));
            attrs = value[close + 1..].trim_start();
        }
        if empty {
            stack.last_mut().unwrap().children.push(el);
        } else {
            stack.push(el);
        }
    }
    let mut top = stack.pop().ok_or("no document")?;
    if !stack.is_empty() {
        return Err(format!("<{}> is never closed", top.name));
    }
    if top.children.len() != 1 {
        return Err(format!("{} root elements", top.children.len()));
    }
    Ok(top.children.remove(0))
}

/// The parsed picture of `puzzle`, which must be well-formed SVG.
fn picture(puzzle: &Puzzle, solution: Option<&Grid>, options: &RenderOptions) -> Element {
    let doc = svg(puzzle, solution, options);
    let root = parse(&doc).unwrap_or_else(|e| panic!("not well-formed: {e}\n{doc}"));
    assert_eq!(root.name, "svg");
    assert_eq!(root.attr("xmlns"), Some("http://www.w3.org/2000/svg"));
    root
}

fn draw(puzzle: &Puzzle) -> Element {
    picture(puzzle, None, &RenderOptions::default())
}

fn empty(n: usize) -> Puzzle {
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), vec![0; n * n]).unwrap()
}

fn with(rules: Vec<Constraint>) -> Puzzle {
    empty(9).with_constraints(rules).unwrap()
}

#[test]
fn the_parser_refuses_what_is_not_well_formed() {
    for bad in [
        "<svg><g></svg>",
        "<svg a=\"1\" a=\"2\"/>",
        "<svg a=1/>",
        "<svg>a & b</svg>",
        "<svg/><svg/>",
        "<svg>",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    assert!(parse("<?xml version=\"1.0\"?>\n<svg><g x=\"&lt;\">a &amp; b</g></svg>").is_ok());
}

#[test]
fn a_plain_grid_draws_its_lines_givens_and_solution() {
    let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let givens: Vec<u16> = line
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u16)
        .collect();
    let shape = Arc::new(Shape::standard(9, false).unwrap());
    let puzzle = Puzzle::new(shape, givens).unwrap();
    let pic = draw(&puzzle);
    // 8 thin lines each way; the box borders: 2 lines each way, one path, and the frame.
    assert_eq!(pic.count("grid"), 16);
    assert_eq!(pic.count("regions"), 2);
    let givens = pic.texts("givens");
    assert_eq!(givens.len(), 30);
    assert_eq!(givens[..3], ["5", "3", "7"]);
    assert_eq!(pic.count("solution"), 0);
    for absent in ["diagonals", "killer", "caption", "title"] {
        assert!(pic.layer(absent).is_none(), "{absent}");
    }
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let grid = Grid::new(
        9,
        solution
            .chars()
            .map(|c| c.to_digit(10).unwrap() as u16)
            .collect(),
    );
    let pic = picture(&puzzle, Some(&grid), &RenderOptions::default());
    assert_eq!(pic.texts("solution").len(), 81 - 30);
    assert_eq!(pic.texts("givens").len(), 30);
    // A solution of another side is left out.
    let pic = picture(
        &puzzle,
        Some(&Grid::new(4, vec![1; 16])),
        &Default::default(),
    );
    assert_eq!(pic.count("solution"), 0);
}

#[test]
fn every_kind_draws_its_marks() {
    let dot = |a, b, rule| Constraint::Dot(Dot { a, b, rule });
    // Each rule alone, the layer it draws into, and how many elements it adds there.
    let cases: Vec<(Constraint, &str, usize)> = vec![
        // The outline, the sum's backing and the sum.
        (Constraint::Cage(Cage::new(vec![0, 1, 10], 12)), "killer", 3),
        (Constraint::ExtraRegion(vec![30, 31, 40]), "extra-region", 3),
        (Constraint::Odd(4), "odd", 1),
        (Constraint::Even(5), "even", 1),
        // The line and the bulb.
        (Constraint::Thermo(vec![0, 10, 11]), "thermo", 2),
        (Constraint::Thermo(vec![7]), "thermo", 2),
        // The line, the head, the circle.
        (
            Constraint::Arrow(Arrow {
                circle: vec![40],
                line: vec![41, 42],
            }),
            "arrow",
            3,
        ),
        // A pill: its outline and its inside.
        (
            Constraint::Arrow(Arrow {
                circle: vec![0, 1],
                line: vec![11, 21],
            }),
            "arrow",
            4,
        ),
        (
            Constraint::Whisper {
                cells: vec![0, 1, 2],
                gap: 5,
            },
            "whisper",
            1,
        ),
        (Constraint::Renban(vec![3, 4, 5]), "renban", 1),
        (Constraint::Palindrome(vec![6, 15, 24]), "palindrome", 1),
        (dot(0, 1, DotRule::Difference(1)), "kropki", 1),
        (dot(0, 9, DotRule::Ratio(2)), "kropki", 1),
        // A value beside the usual one is written in the dot.
        (dot(0, 1, DotRule::Difference(3)), "kropki", 2),
        (dot(0, 9, DotRule::Ratio(3)), "kropki", 2),
        (dot(0, 1, DotRule::Sum(10)), "xv", 2),
        (dot(0, 9, DotRule::Sum(5)), "xv", 2),
        // The sum, the arrow's shaft and head.
        (
            Constraint::LittleKiller(LittleKiller {
                cells: vec![1, 11, 21, 31, 41, 51, 61, 71],
                sum: 40,
            }),
            "little-killer",
            3,
        ),
        (
            Constraint::Sandwich(Sandwich {
                line: Line::Row(3),
                sum: 17,
            }),
            "sandwich",
            1,
        ),
        // The small digits.
        (
            Constraint::Candidates {
                cell: 4,
                digits: vec![1, 2],
            },
            "candidates",
            1,
        ),
        // The circle and two rows of digits.
        (
            Constraint::Quadruple {
                cells: vec![0, 1, 9, 10],
                digits: vec![1, 2, 3],
            },
            "quadruple",
            3,
        ),
        // The grey cell and four arrowheads.
        (Constraint::Minimum(40), "minimum", 5),
        (Constraint::Maximum(40), "maximum", 5),
        (
            Constraint::Indexer {
                cell: 3,
                kind: IndexKind::Column,
            },
            "indexer",
            1,
        ),
        // The line and the two ends.
        (Constraint::Between(vec![0, 1, 2, 3]), "between-line", 3),
        (
            Constraint::Lockout {
                cells: vec![0, 1, 2, 3],
                gap: 4,
            },
            "lockout",
            3,
        ),
        (Constraint::DoubleArrow(vec![0, 1, 2]), "double-arrow", 3),
        (Constraint::RegionSum(vec![2, 3, 4]), "region-sum", 1),
        (Constraint::Entropic(vec![2, 3, 4]), "entropic", 1),
        (Constraint::Modular(vec![2, 3, 4]), "modular", 1),
        (Constraint::Zipper(vec![2, 3, 4]), "zipper", 1),
        (Constraint::Nabner(vec![2, 3]), "nabner", 1),
        (Constraint::SlowThermo(vec![0, 10, 11]), "slow-thermo", 2),
        // Both lists' cells tinted.
        (
            Constraint::Clone {
                a: vec![0, 1],
                b: vec![30, 31],
            },
            "clone",
            4,
        ),
        (
            Constraint::Skyscraper(EdgeClue {
                line: Line::Col(2),
                from_end: true,
                value: 3,
            }),
            "skyscraper",
            1,
        ),
        (
            Constraint::XSum(EdgeClue {
                line: Line::Row(5),
                from_end: false,
                value: 12,
            }),
            "x-sum",
            1,
        ),
    ];
    let mut marked = vec![];
    for (rule, class, elements) in cases {
        marked.push(rule.kind());
        let what = format!("{rule:?}");
        let pic = draw(&with(vec![rule]));
        assert_eq!(pic.count(class), elements, "{what}");
        let layers = pic
            .children
            .iter()
            .filter(|e| e.name == "g")
            .filter_map(|e| e.attr("class"))
            .filter(|c| !["grid", "regions"].contains(c))
            .collect::<Vec<_>>();
        assert_eq!(layers, [class], "{what}: only its layer is added");
    }
    // The rules over the whole grid are named in the caption.
    let mut named = vec![];
    for (rule, words) in [
        (Constraint::AntiKnight, "Anti-knight"),
        (Constraint::AntiKing, "Anti-king"),
        (Constraint::DisjointGroups, "Disjoint groups"),
        (
            Constraint::Negative(DotRule::Difference(1)),
            "Non-consecutive",
        ),
        (
            Constraint::Negative(DotRule::Ratio(2)),
            "Negative black dots",
        ),
        (Constraint::Negative(DotRule::Sum(10)), "Negative X"),
        (Constraint::Negative(DotRule::Sum(5)), "Negative V"),
    ] {
        named.push(rule.kind());
        let pic = draw(&with(vec![rule]));
        let caption = pic.texts("caption").join(" ");
        assert!(caption.contains(words), "{words}: {caption}");
    }
    // Every kind has a case above.
    let covered: std::collections::BTreeSet<ConstraintKind> =
        marked.into_iter().chain(named).collect();
    assert_eq!(covered.len(), ConstraintKind::ALL.len(), "{covered:?}");
}

#[test]
fn sums_and_clues_are_written_where_they_belong() {
    let puzzle = with(vec![
        Constraint::Cage(Cage::new(vec![0, 1], 17)),
        Constraint::Cage(Cage::new(vec![80], 9)),
        Constraint::LittleKiller(LittleKiller {
            cells: vec![72],
            sum: 4,
        }),
        Constraint::Sandwich(Sandwich {
            line: Line::Col(4),
            sum: 0,
        }),
        Constraint::Sandwich(Sandwich {
            line: Line::Row(8),
            sum: 35,
        }),
    ]);
    let pic = draw(&puzzle);
    assert_eq!(pic.texts("killer"), ["17", "9"]);
    assert_eq!(pic.texts("little-killer"), ["4"]);
    assert_eq!(pic.texts("sandwich"), ["0", "35"]);
    // The clues sit outside the grid: left of it and above it, so the grid moves in.
    let frame = pic
        .layer("regions")
        .unwrap()
        .children
        .iter()
        .find(|e| e.name == "rect")
        .unwrap();
    let x: f64 = frame.attr("x").unwrap().parse().unwrap();
    let y: f64 = frame.attr("y").unwrap().parse().unwrap();
    assert!(x >= 40.0 && y >= 40.0, "the grid starts at ({x}, {y})");
    let sandwich = &pic.layer("sandwich").unwrap().children;
    let sx: f64 = sandwich[1].attr("x").unwrap().parse().unwrap();
    assert!(sx < x, "a row's sandwich clue is left of the grid");
}

#[test]
fn edge_clues_quadruples_and_candidates_are_written_where_they_belong() {
    let edge = |line, from_end, value| EdgeClue {
        line,
        from_end,
        value,
    };
    let puzzle = with(vec![
        // Right of row 1, below column 1.
        Constraint::Skyscraper(edge(Line::Row(0), true, 4)),
        Constraint::XSum(edge(Line::Col(0), true, 23)),
        Constraint::Quadruple {
            cells: vec![0, 1],
            digits: vec![5, 6],
        },
        Constraint::Candidates {
            cell: 80,
            digits: vec![1, 3, 9],
        },
    ]);
    let pic = draw(&puzzle);
    assert_eq!(pic.texts("skyscraper"), ["4"]);
    assert_eq!(pic.texts("x-sum"), ["23"]);
    assert_eq!(pic.texts("quadruple"), ["5 6"]);
    assert_eq!(pic.texts("candidates"), ["139"]);
    let at = |class: &str, name: &str, attr: &str| -> f64 {
        let layer = pic.layer(class).unwrap();
        let e = layer.children.iter().find(|e| e.name == name).unwrap();
        e.attr(attr).unwrap().parse().unwrap()
    };
    // The grid of 9 cells of 40 starts at x0, y0; the skyscraper clue is right of it, the
    // X-sum clue below it, and the quadruple sits on the top edge between R1C1 and R1C2.
    let (x0, y0) = (at("regions", "rect", "x"), at("regions", "rect", "y"));
    assert!(at("skyscraper", "text", "x") > x0 + 360.0);
    assert!(at("x-sum", "text", "y") > y0 + 360.0);
    assert_eq!(
        (
            at("quadruple", "circle", "cx"),
            at("quadruple", "circle", "cy")
        ),
        (x0 + 40.0, y0)
    );
}

#[test]
fn large_sides_jigsaws_and_diagonals() {
    // 35×35: 5×7 boxes, numbers up to 35.
    let mut givens = vec![0u16; 35 * 35];
    givens[0] = 35;
    givens[36] = 10;
    let shape = Arc::new(Shape::standard(35, true).unwrap());
    let pic = draw(&Puzzle::new(shape, givens).unwrap());
    assert_eq!(pic.texts("givens"), ["35", "10"]);
    assert_eq!(pic.count("diagonals"), 2);
    assert_eq!(pic.count("grid"), 2 * 34);
    // A jigsaw's borders follow its regions.
    let map = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3];
    let shape = Arc::new(Shape::new(4, Regions::Jigsaw(map), false).unwrap());
    let doc = svg(
        &Puzzle::new(shape, vec![0; 16]).unwrap(),
        None,
        &Default::default(),
    );
    parse(&doc).unwrap();
    for border in ["M12,92L172,92", "M52,132L132,132", "M52,92L52,132"] {
        assert!(doc.contains(border), "{border}: {doc}");
    }
}

#[test]
fn text_is_escaped_and_odd_options_are_tamed() {
    let title = "a <b> & \"c\" 'd'\u{1}\u{7f} e".to_string();
    for cell in [40.0, 0.0, -3.0, f64::NAN, f64::INFINITY, 1e9] {
        let options = RenderOptions {
            cell,
            title: Some(title.clone()),
        };
        let pic = picture(&empty(4), None, &options);
        let text = pic.texts("title").join(" ");
        assert!(text.starts_with("a <b> & \"c\" 'd'"), "{cell}: {text}");
        let width: f64 = pic.attr("width").unwrap().parse().unwrap();
        assert!(width.is_finite() && width > 0.0, "{cell}: {width}");
    }
}

#[test]
fn random_rules_of_every_kind_give_well_formed_pictures() {
    for (n, seeds) in [(4, 0..12), (6, 0..6), (9, 0..6)] {
        for seed in seeds {
            let mut rng = GenRng::seed(seed);
            let shape = Arc::new(Shape::standard(n, seed % 2 == 0).unwrap());
            let Ok((puzzle, grid)) = blank_solved(&shape, &mut rng, n) else {
                continue;
            };
            let mut rules = vec![];
            for &kind in variants::drawn_kinds() {
                let count = variants::default_count(kind, n);
                rules.extend(variants::draw(kind, &shape, &grid, count, &mut rng));
            }
            let kinds: Vec<ConstraintKind> = rules.iter().map(Constraint::kind).collect();
            let puzzle = puzzle.with_constraints(rules).unwrap();
            let pic = picture(&puzzle, Some(&grid), &Default::default());
            for kind in kinds {
                let global =
                    variants::global_rule(kind).is_some() || kind == ConstraintKind::Negative;
                let class = if global { "caption" } else { kind.name() };
                assert!(pic.count(class) > 0, "{n}×{n}, seed {seed}: {class}");
            }
        }
    }
}

/// A scratch folder that the test removes.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn read_picture(path: &Path) -> Element {
    let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&doc).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const MIXED6: &str = "tests/data/fpuzzles/mixed6.json";

#[test]
fn render_writes_a_picture_per_puzzle() {
    let dir = scratch();
    let out = dir.path().to_str().unwrap();
    let o = run(&["render", MIXED6, "--out", out, "--solve", "dfs"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let file = dir.path().join("mixed6-1.svg");
    assert_eq!(stdout(&o), format!("{}\n", file.display()));
    let pic = read_picture(&file);
    assert_eq!(pic.texts("givens"), ["1", "2"]);
    assert_eq!(pic.texts("solution").len(), 34);
    for class in [
        "thermo",
        "arrow",
        "kropki",
        "xv",
        "odd",
        "little-killer",
        "sandwich",
    ] {
        assert!(pic.count(class) > 0, "{class}");
    }
    assert_eq!(pic.texts("little-killer"), ["11"]);
    assert_eq!(pic.texts("sandwich"), ["7"]);

    // A known answer in the input is drawn; -o takes the one puzzle --index picks.
    let lines = "1....4....3....1:1:1243341221344321\n4..........1...3\n";
    let one = dir.path().join("one.svg");
    let o = run_with(
        &["render", "-o", one.to_str().unwrap(), "--index", "1", "-"],
        lines,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let pic = read_picture(&one);
    assert_eq!(pic.texts("givens"), ["1", "4", "3", "1"]);
    assert_eq!(pic.texts("solution").len(), 12);
    // Standard input's pictures are named after it.
    let o = run_with(&["render", "--out", out, "-"], lines);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for k in [1, 2] {
        assert!(dir.path().join(format!("stdin-{k}.svg")).exists());
    }
}

#[test]
fn render_reports_bad_input_and_draws_the_rest() {
    let dir = scratch();
    let out = dir.path().to_str().unwrap();
    let input = dir.path().join("three.txt");
    std::fs::write(
        &input,
        "1...........3..2\n1..x............\n4..........1...3\n",
    )
    .unwrap();
    let o = run(&["render", input.to_str().unwrap(), "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("three.txt:2:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(dir.path().join("three-1.svg").exists());
    assert!(!dir.path().join("three-2.svg").exists());
    assert!(dir.path().join("three-3.svg").exists());

    // -o with several puzzles, an index past the input, a missing file, a bad backend.
    let one = dir.path().join("one.svg");
    let one = one.to_str().unwrap();
    for (args, words) in [
        (vec!["-o", one], "takes one picture"),
        (
            vec!["--index", "9", "--out", out],
            "--index 9: the input holds 3",
        ),
        (vec!["--solve", "nope", "--out", out], "nope"),
        (vec!["--cell", "0", "--out", out], "--cell"),
    ] {
        let mut all = vec!["render", input.to_str().unwrap()];
        all.extend(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        assert!(stderr(&o).contains(words), "{all:?}: {}", stderr(&o));
    }
    let o = run(&["render", "no/such/file.txt", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.txt"), "{}", stderr(&o));
    // A puzzle without a solution is drawn with its givens.
    let o = run_with(
        &["render", "--out", out, "--solve", "dfs", "-"],
        "11..............\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("no solution"), "{}", stderr(&o));
    assert_eq!(
        read_picture(&dir.path().join("stdin-1.svg")).count("solution"),
        0
    );
}

#[test]
fn xcheck_and_fuzz_draw_what_backends_disagree_on() {
    let dir = scratch();
    let pictures = dir.path().join("pictures");
    let p = pictures.to_str().unwrap();
    // A wrong known count: every backend disagrees with it.
    let wrong = format!("{}:1\n", ".".repeat(16));
    let o = run_with(
        &[
            "xcheck",
            "--task",
            "count",
            "--backends",
            "dfs",
            "--pictures",
            p,
            "-",
        ],
        &wrong,
    );
    assert_eq!(o.status.code(), Some(1));
    let file = pictures.join("disagreement-1.svg");
    assert!(
        stdout(&o).contains(&format!("picture: {}", file.display())),
        "{}",
        stdout(&o)
    );
    let pic = read_picture(&file);
    assert!(pic.texts("title").join(" ").contains("expected exactly 1"));

    // A solver that misses a solution, caught by fuzz.
    let cmd = format!("{} --wrong count", line_solver());
    let mut args: Vec<&str> = "fuzz --backends dfs,cmd --size 4 --task count --seed 1 -j 1"
        .split(' ')
        .collect();
    args.extend(["--seconds", "30", "--cmd", &cmd, "--pictures", p]);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("picture: "))
        .unwrap_or_else(|| panic!("no picture: {out}"));
    let pic = read_picture(Path::new(line));
    assert!(pic.texts("title").join(" ").contains("disagreement"));
}

/// Runs headless Chromium on `svg`, writing a screenshot to `png` (60 s at most).
fn screenshot(chromium: &Path, svg: &Path, png: &Path, profile: &Path) {
    let args = [
        format!("--screenshot={}", png.display()),
        "--window-size=600,700".to_string(),
    ];
    let url = format!("file://{}", svg.display());
    headless(chromium, profile, &args, &url, std::process::Stdio::null());
}

#[test]
fn a_browser_draws_the_picture() {
    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        println!("skipped: chromium not installed");
        return;
    }
    let dir = scratch();
    let out = dir.path().to_str().unwrap();
    let o = run(&["render", MIXED6, "--out", out, "--solve", "dfs"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let blank = dir.path().join("blank.svg");
    std::fs::write(
        &blank,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>",
    )
    .unwrap();
    let mut sizes = vec![];
    for (svg, png) in [("mixed6-1.svg", "puzzle.png"), ("blank.svg", "blank.png")] {
        let png = dir.path().join(png);
        let profile = dir.path().join(format!("profile-{svg}"));
        screenshot(chromium, &dir.path().join(svg), &png, &profile);
        let bytes = std::fs::read(&png).expect("a screenshot is written");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", png.display());
        // The header: 600 × 700 pixels.
        assert_eq!(bytes[16..24], [0, 0, 2, 88, 0, 0, 2, 188]);
        sizes.push(bytes.len());
    }
    // A drawn grid with digits compresses far worse than a white page.
    assert!(sizes[0] > 3 * sizes[1], "{sizes:?}");
}
