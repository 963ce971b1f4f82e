//! The logic engine: each finder on a position built for it (the exact step it must find),
//! and the default ladder on known puzzles (solved, every step true to the solution).

mod common;

use std::sync::Arc;

use sudoku_lab::logic::render::text;
use sudoku_lab::logic::step::Found;
use sudoku_lab::logic::verify::check_path;
use sudoku_lab::logic::{self, Board, Family, Grade, Ladder, Level, SolveOutcome, Step, Technique};
use sudoku_lab::model::{Puzzle, Regions, Shape};
use sudoku_lab::task::unique_solution;

fn puzzle(line: &str) -> Puzzle {
    common::parse_line(line)
}

/// `r1c5` → cell index on side 9.
fn cell(name: &str) -> usize {
    let b = name.as_bytes();
    (b[1] - b'1') as usize * 9 + (b[3] - b'1') as usize
}

/// An empty 9×9 board where each listed cell keeps only the listed digits, and each listed
/// (digit, row) keeps the digit only in the listed columns.
fn board(keep: &[(&str, &[u16])], rows: &[(u16, usize, &[usize])]) -> Board {
    let p = puzzle(&".".repeat(81));
    let mut elims = vec![];
    for &(name, ds) in keep {
        let c = cell(name);
        elims.extend((1..=9).filter(|d| !ds.contains(d)).map(|d| (c, d)));
    }
    for &(d, row, cols) in rows {
        elims.extend(
            (1..=9)
                .filter(|c| !cols.contains(c))
                .map(|c| ((row - 1) * 9 + c - 1, d)),
        );
    }
    Board::with_eliminations(&p, &elims).unwrap()
}

/// The first step `technique`'s finder finds, as text.
fn first(board: &Board, technique: Technique) -> String {
    let mut found = Found::new(1);
    sudoku_lab::logic::finders::finder(technique)(board, technique, &mut found);
    let step: &Step = found.steps.first().expect("a step");
    text(board.shape(), step)
}

/// True when `technique`'s finder finds nothing.
fn none(board: &Board, technique: Technique) -> bool {
    let mut found = Found::new(1);
    sudoku_lab::logic::finders::finder(technique)(board, technique, &mut found);
    found.steps.is_empty()
}

#[test]
fn singles() {
    let line = format!("12345678.{}", ".".repeat(72));
    let b = Board::new(&puzzle(&line)).unwrap();
    assert_eq!(first(&b, Technique::FullHouse), "Full House: r1c9=9");
    let b = board(&[("r5c5", &[7])], &[]);
    assert_eq!(first(&b, Technique::NakedSingle), "Naked Single: r5c5=7");
    let b = board(&[], &[(3, 4, &[6])]);
    assert_eq!(first(&b, Technique::HiddenSingle), "Hidden Single: r4c6=3");
}

#[test]
fn locked_candidates() {
    let rows: &[(u16, usize, &[usize])] =
        &[(8, 2, &[1, 2, 3, 4, 5, 6]), (8, 3, &[1, 2, 3, 4, 5, 6])];
    assert_eq!(
        first(&board(&[], rows), Technique::Pointing),
        "Locked Candidates Type 1 (Pointing): 8 in b3 => r1c123456<>8"
    );
    let b = board(&[], &[(5, 1, &[1, 2, 3])]);
    assert_eq!(
        first(&b, Technique::Claiming),
        "Locked Candidates Type 2 (Claiming): 5 in r1 => r23c123<>5"
    );
}

#[test]
fn subsets() {
    let b = board(&[("r1c1", &[1, 2]), ("r1c2", &[1, 2])], &[]);
    assert_eq!(
        first(&b, Technique::LockedPair),
        "Locked Pair: 1,2 in r1c12 => r1c3456789,r23c123<>1, r1c3456789,r23c123<>2"
    );
    // A locked pair is not a naked pair; a pair that clears one house only is not locked
    // (HoDoKu's classes), and a naked pair is cleared from every house its cells share.
    assert!(none(&b, Technique::NakedPair));
    let no_12 = [3, 4, 5, 6, 7, 8, 9];
    let box_cleared: Vec<(&str, &[u16])> = ["r1c3", "r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3"]
        .into_iter()
        .map(|c| (c, &no_12[..]))
        .chain([("r1c1", &[1, 2][..]), ("r1c2", &[1, 2])])
        .collect();
    let b = board(&box_cleared, &[]);
    assert!(none(&b, Technique::LockedPair));
    assert_eq!(
        first(&b, Technique::NakedPair),
        "Naked Pair: 1,2 in r1c12 => r1c456789<>1, r1c456789<>2"
    );
    let rows: Vec<(u16, usize, &[usize])> = vec![(1, 1, &[1, 2]), (2, 1, &[1, 2])];
    let b = board(&[("r1c1", &[1, 2]), ("r1c2", &[1, 2])], &rows);
    assert!(none(&b, Technique::LockedPair));
    assert_eq!(
        first(&b, Technique::NakedPair),
        "Naked Pair: 1,2 in r1c12 => r23c123<>1, r23c123<>2"
    );
    let rows: &[(u16, usize, &[usize])] = &[(1, 1, &[1, 5]), (2, 1, &[1, 5])];
    let text = first(&board(&[], rows), Technique::HiddenPair);
    assert_eq!(
        text,
        "Hidden Pair: 1,2 in r1c15 => r1c15<>3, r1c15<>4, r1c15<>5, r1c15<>6, r1c15<>7, \
         r1c15<>8, r1c15<>9"
    );
}

#[test]
fn fish() {
    let rows: &[(u16, usize, &[usize])] = &[(4, 2, &[3, 7]), (4, 6, &[3, 7])];
    assert_eq!(
        first(&board(&[], rows), Technique::XWing),
        "X-Wing: 4 r26 c37 => r1345789c37<>4"
    );
    let rows: &[(u16, usize, &[usize])] = &[(4, 2, &[3, 7]), (4, 6, &[3, 7, 8])];
    let b = board(&[], rows);
    assert_eq!(
        first(&b, Technique::FinnedXWing),
        "Finned X-Wing: 4 r26 c37 fr6c8 => r45c7<>4"
    );
    let mut none = Found::new(1);
    sudoku_lab::logic::fish::find(&b, Technique::XWing, &mut none);
    assert!(none.steps.is_empty());
}

/// Every step `technique`'s finder finds, as texts.
fn all(board: &Board, technique: Technique) -> Vec<String> {
    let mut found = Found::new(usize::MAX);
    sudoku_lab::logic::finders::finder(technique)(board, technique, &mut found);
    found.steps.iter().map(|s| text(board.shape(), s)).collect()
}

/// Digit 1's places row by row (columns), the other digits everywhere: rows 1 and box 5 hold
/// 1 only in columns 4 and 6 (`r1c46`, `r4c4`, `r5c6`), a Franken X-wing, with `extra` added.
fn franken_board(extra: &[(usize, usize)]) -> Board {
    let mut places: Vec<Vec<usize>> = vec![
        vec![4, 6],
        vec![1, 8],
        vec![2, 9],
        vec![1, 4, 7],
        vec![3, 6, 8],
        vec![2, 9],
        vec![3, 5, 7],
        vec![4, 5, 8],
        vec![6, 7, 9],
    ];
    for &(row, col) in extra {
        places[row - 1].push(col);
    }
    let rows: Vec<(u16, usize, &[usize])> = (places.iter().enumerate())
        .map(|(i, cols)| (1, i + 1, cols.as_slice()))
        .collect();
    board(&[], &rows)
}

#[test]
fn franken_fish() {
    use Technique as T;
    // Row 1 and box 5 in columns 4 and 6: column 4 and 6 lose 1 outside them.
    let b = franken_board(&[]);
    assert_eq!(
        first(&b, T::FrankenXWing),
        "Franken X-Wing: 1 r1b5 c46 => r8c4,r9c6<>1"
    );
    // With a place in box 5 off the columns (r6c5), that X-wing is gone; finned, its fin
    // r6c5 sees no cover place outside the bases: nothing to take either.
    let b = franken_board(&[(6, 5)]);
    let none = |list: Vec<String>| list.iter().all(|s| !s.contains("r1b5 c46"));
    assert!(none(all(&b, T::FrankenXWing)));
    assert!(none(all(&b, T::FinnedFrankenXWing)));
    // A fin r1c5 in box 2 breaks it too. The first finned fish is cannibalistic: r3c6 lies in
    // both covers (column 6 and box 2), so were no fin (r3c2, r3c9) true, row 3 and row 1
    // would both need box 2's column 6 place.
    let b = franken_board(&[(1, 5), (3, 6)]);
    assert!(none(all(&b, T::FrankenXWing)));
    let finned = all(&b, T::FinnedFrankenXWing);
    assert_eq!(
        finned[0],
        "Finned Franken X-Wing: 1 r13 c6b2 fr3c29 => r3c6<>1"
    );
    // An endo fin: r7c3, box 7's only place, is in both bases.
    let endo = "Finned Franken X-Wing: 1 r7b7 c7b9 fr7c5 efr7c3 => r7c7<>1";
    assert!(finned.iter().any(|s| s == endo), "{finned:?}");
    // Size 3: rows 2 and 3 and box 7 lie in column 3 and boxes 1 and 3; every Franken fish has
    // a box among its sets (rows over columns alone are a basic fish).
    let b = franken_board(&[(1, 8)]);
    let swordfish = all(&b, T::FrankenSwordfish);
    assert_eq!(
        swordfish[0],
        "Franken Swordfish: 1 r23b7 c3b13 => r1c8,r5c3<>1"
    );
    let with_box = |s: &String| s.split(" => ").next().unwrap().contains('b');
    assert!(swordfish.iter().all(with_box), "{swordfish:?}");
    // Finned and cannibalistic: r1c8 lies in column 8 and box 3 and sees the fins r1c46.
    let finned = all(&b, T::FinnedFrankenSwordfish);
    assert_eq!(
        finned[0],
        "Finned Franken Swordfish: 1 r123 c8b13 fr1c46 => r1c8<>1"
    );
    // A basic X-wing's board (digit 4 in columns 3 and 7 of rows 2 and 6) has no Franken fish
    // without fins; with a fin, the finned X-wing with box 6 as a cover is one.
    let rows: &[(u16, usize, &[usize])] = &[(4, 2, &[3, 7]), (4, 6, &[3, 7])];
    let b = board(&[], rows);
    for t in [T::FrankenXWing, T::FrankenSwordfish] {
        assert_eq!(all(&b, t), Vec::<String>::new(), "{t:?}");
    }
    let rows: &[(u16, usize, &[usize])] = &[(4, 2, &[3, 7]), (4, 6, &[3, 7, 8])];
    assert_eq!(
        all(&board(&[], rows), T::FinnedFrankenXWing),
        ["Finned Franken X-Wing: 4 r26 c3b6 fr2c7 => r45c7<>4"]
    );
}

#[test]
fn single_digit_patterns() {
    let rows: &[(u16, usize, &[usize])] = &[(1, 1, &[1, 5]), (1, 5, &[1, 6])];
    assert_eq!(
        first(&board(&[], rows), Technique::Skyscraper),
        "Skyscraper: 1 in r1c5,r5c6 (connected by r1c1,r5c1) => r23c6,r46c5<>1"
    );
}

#[test]
fn wings() {
    let b = board(
        &[("r1c1", &[1, 2]), ("r1c5", &[1, 3]), ("r5c1", &[2, 3])],
        &[],
    );
    assert_eq!(
        first(&b, Technique::XyWing),
        "XY-Wing: 1/2/3 in r1c15,r5c1 => r5c5<>3"
    );
}

#[test]
fn unique_rectangle_type_1() {
    let b = board(
        &[("r1c1", &[1, 2]), ("r1c2", &[1, 2]), ("r4c1", &[1, 2])],
        &[],
    );
    assert_eq!(
        first(&b, Technique::UniqueRectangle1),
        "Uniqueness Test 1: 1/2 in r14c12 => r4c2<>1, r4c2<>2"
    );
}

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .collect()
}

/// Solves and grades, and checks every step against the solution.
fn graded(p: &Puzzle, ladder: &Ladder) -> Grade {
    let (result, grade) = logic::grade(p, ladder).unwrap();
    assert_eq!(result.outcome, SolveOutcome::Solved);
    let solution = unique_solution(p).expect("one solution");
    check_path(solution.cells(), &result.steps).unwrap();
    assert_eq!(result.board.values(), solution.cells());
    grade
}

#[test]
fn ladder_solves_hard_puzzles_with_true_steps() {
    let ladder = Ladder::default();
    let mut guessed = 0;
    for line in lines("tests/data/logic/magictour_10.txt") {
        let grade = graded(&puzzle(&line), &ladder);
        // HoDoKu's rule: the level of the hardest step, raised while the score passes it.
        let hardest = grade.hardest.unwrap().info().level;
        assert!(grade.level >= hardest && grade.score <= grade.level.max_score() as u64);
        assert!(grade.level > Level::Easy, "{line}");
        guessed += !grade.logic_only as usize;
    }
    // The first of the ten needs a guess without chains (as every puzzle of magictour does
    // for Sudoku Explainer's rating 9+).
    assert!((1..10).contains(&guessed), "{guessed}");
    for line in lines("tests/data/logic/17_clue_5.txt") {
        graded(&puzzle(&line), &ladder);
    }
}

#[test]
fn als_xy_chain_takes_hodokus_elimination() {
    // A puzzle of magictour_top1465 whose path reaches, after three ALS-XZ rules and three
    // ALS-XY-wings, a board where only a chain of four almost locked sets (or a forcing chain)
    // goes on: the chain removes 3 from r3c4 and r7c6, as HoDoKu 2.2.0's path does there.
    let line = "37.6.......9.......2..8.16......5....9..1..8....4......58.6..9.......3.......7.42";
    let p = puzzle(line);
    let grade = graded(&p, &Ladder::default());
    let (result, _) = logic::grade(&p, &Ladder::default()).unwrap();
    let texts: Vec<String> = result.steps.iter().map(|s| text(p.shape(), s)).collect();
    let chain = texts
        .iter()
        .find(|t| t.starts_with("Almost Locked Set XY-Chain: "))
        .expect("an ALS-XY-chain step");
    assert!(chain.ends_with(" => r3c4,r7c6<>3"), "{chain}");
    assert_eq!(grade.hardest, Some(Technique::AlsXyChain), "{texts:#?}");
    // Without it the path needs a forcing net.
    let without = Ladder::of(
        Ladder::default()
            .techniques()
            .iter()
            .copied()
            .filter(|&t| t != Technique::AlsXyChain)
            .collect(),
    );
    let hardest = graded(&p, &without).hardest.unwrap();
    assert_eq!(hardest.info().family, Family::Forcing, "{hardest:?}");
}

/// The puzzle of `line` and the texts of its path on `ladder`.
fn path_texts(line: &str, ladder: &Ladder) -> (Puzzle, Vec<String>) {
    let p = puzzle(line);
    let (result, _) = logic::grade(&p, ladder).unwrap();
    let texts = result.steps.iter().map(|s| text(p.shape(), s)).collect();
    (p, texts)
}

#[test]
fn sue_de_coq_comes_before_the_chains() {
    // On magictour #1, after 33 steps, column 4 and box 2 meet in r13c4 {4,5,7,8,9}: with
    // r489c4 {3,5,7,8} in the column and r2c6 {4,9} in the box, 4 and 9 leave r3c6. Without
    // Sue de Coq the path takes two grouped AICs for the same two eliminations.
    let (_, texts) = path_texts(
        &lines("tests/data/logic/magictour_10.txt")[0],
        &Ladder::default(),
    );
    let sdc = "Sue de Coq: r13c4 - {45789} (r489c4 - {3578}, r2c6 - {49}) => r3c6<>4, r3c6<>9";
    let at = texts
        .iter()
        .position(|t| t == sdc)
        .expect("the Sue de Coq step");
    assert_eq!(at, 33, "{texts:#?}");
    let without = Ladder::default().techniques().to_vec();
    let without = Ladder::of(
        without
            .into_iter()
            .filter(|&t| t != Technique::SueDeCoq)
            .collect(),
    );
    let (_, texts) = path_texts(&lines("tests/data/logic/magictour_10.txt")[0], &without);
    assert!(
        texts[at].starts_with("Grouped AIC: ") && texts[at].ends_with("r3c6<>4"),
        "{}",
        texts[at]
    );
}

#[test]
fn the_als_xy_wing_is_the_first_in_hodokus_order() {
    // On magictour #1 two ALS-XY-wings apply after 24 steps. HoDoKu takes the first in its list
    // of restricted commons (r3c7<>2), though the other (r2c9<>7) has the lower weighted sum,
    // and the second one next.
    let (_, texts) = path_texts(
        &lines("tests/data/logic/magictour_10.txt")[0],
        &Ladder::default(),
    );
    let wings: Vec<(usize, &str)> = texts
        .iter()
        .enumerate()
        .filter(|(_, t)| t.starts_with("Almost Locked Set XY-Wing"))
        .map(|(i, t)| (i, t.rsplit(" => ").next().unwrap()))
        .collect();
    assert_eq!(wings[..2], [(24, "r3c7<>2"), (25, "r2c9<>7")], "{texts:#?}");
}

#[test]
fn the_xy_chain_is_the_one_removing_the_most() {
    // A magictour puzzle (line 273 of the file) whose path takes three XY-chains: HoDoKu takes, of all
    // chains, the one removing the most candidates, not the shortest (its path takes the same
    // three; the shortest chain at step 26 removes r4c8<>7 alone).
    let p =
        puzzle(".2.4....94..18.......36..5......63..3..94.5.......8.1........4.8.2......96......7");
    let (result, _) = logic::grade(&p, &Ladder::default()).unwrap();
    let chains: Vec<(usize, String)> = (result.steps.iter().enumerate())
        .filter(|(_, s)| s.technique == Technique::XyChain)
        .map(|(i, s)| {
            (
                i + 1,
                text(p.shape(), s)
                    .rsplit(" => ")
                    .next()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    let expected = [
        (26, "r2c7,r4c8<>7"),
        (37, "r1c8,r78c7<>6"),
        (40, "r7c2,r8c6<>3"),
    ];
    assert_eq!(chains, expected.map(|(i, t)| (i, t.to_string())));
}

#[test]
fn an_easy_puzzle_needs_singles_only() {
    // The second puzzle of the 17-clue set (the first needs locked candidates).
    let line = &lines("tests/data/logic/17_clue_5.txt")[1];
    let grade = graded(&puzzle(line), &Ladder::parse("singles").unwrap());
    assert!(grade.logic_only);
    assert_eq!(grade.steps, 64);
}

#[test]
fn jigsaw_diagonal_and_16x16_grids() {
    let strips: Vec<u32> = (0..16).map(|c| c / 4).collect();
    let shape = Arc::new(Shape::new(4, Regions::Jigsaw(strips), false).unwrap());
    // Rows are regions here: the region of each cell is its row.
    let p = Puzzle::new(shape, vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]).unwrap();
    let (result, _) = logic::grade(&p, &Ladder::default()).unwrap();
    assert_ne!(result.outcome, SolveOutcome::Stuck);
    let x = Puzzle::new(Arc::new(Shape::standard(4, true).unwrap()), vec![0; 16]).unwrap();
    let (result, grade) = logic::grade(&x, &Ladder::default()).unwrap();
    assert_eq!(result.outcome, SolveOutcome::Solved);
    assert!(!grade.logic_only);
    assert!(sudoku_lab::check::verify(
        &x,
        &sudoku_lab::model::Grid::new(4, result.board.values().to_vec())
    )
    .is_ok());
}

#[test]
fn unknown_technique_is_an_error() {
    assert!(Ladder::parse("singles,fish").is_ok());
    assert!(Ladder::parse("x-wing,telepathy").is_err());
}

#[test]
fn logic_backend_solves_and_proves_only_what_logic_decides() {
    use sudoku_lab::backend::{BackendError, Limits};
    use sudoku_lab::backends::{create, BackendKind};
    use sudoku_lab::task::{run, Answer, RunError, Task};
    let logic = create(BackendKind::Logic, &Default::default()).unwrap();
    let none = Limits::none();
    let hard = puzzle(&lines("tests/data/logic/magictour_10.txt")[1]);
    let solved = run(logic.as_ref(), &hard, Task::Solve, &none).unwrap();
    assert!(matches!(solved, Answer::Solved(_)), "{solved:?}");
    // The second magictour puzzle needs bifurcation after forcing nets: no proof of uniqueness.
    match run(logic.as_ref(), &hard, Task::Unique, &none) {
        Err(RunError::Backend(BackendError::Unsupported(m))) => assert!(m.contains("cannot prove")),
        other => panic!("{other:?}"),
    }
    let easy = puzzle(&lines("tests/data/logic/17_clue_5.txt")[1]);
    let unique = run(logic.as_ref(), &easy, Task::Unique, &none).unwrap();
    assert!(matches!(unique, Answer::Unique(_)), "{unique:?}");
    let mut clash = vec![0; 16];
    (clash[0], clash[1]) = (1, 1);
    let clash = Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), clash).unwrap();
    let answer = run(logic.as_ref(), &clash, Task::Unique, &none).unwrap();
    assert!(matches!(answer, Answer::NoSolution), "{answer:?}");
}

/// An empty 9×9 board with the listed candidates removed: `(digit, cells)`.
fn without(removed: &[(u16, &[&str])]) -> Board {
    let p = puzzle(&".".repeat(81));
    let elims: Vec<(usize, u16)> = removed
        .iter()
        .flat_map(|&(d, cells)| cells.iter().map(move |&c| (cell(c), d)))
        .collect();
    Board::with_eliminations(&p, &elims).unwrap()
}

/// The cells of a row or column (`r3`, `c5`) but the listed ones.
fn all_but(line: &str, keep: &[&str]) -> Vec<String> {
    let i = line[1..].parse::<usize>().unwrap();
    (1..=9)
        .map(|j| match &line[..1] {
            "r" => format!("r{i}c{j}"),
            _ => format!("r{j}c{i}"),
        })
        .filter(|c| !keep.contains(&c.as_str()))
        .collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn two_string_kite() {
    let (row, col) = (
        all_but("r3", &["r3c2", "r3c7"]),
        all_but("c1", &["r1c1", "r8c1"]),
    );
    let b = without(&[(4, &refs(&row)), (4, &refs(&col))]);
    assert_eq!(
        first(&b, Technique::TwoStringKite),
        "2-String Kite: 4 in r3c7,r8c1 (connected by r3c2,r1c1) => r8c7<>4"
    );
}

#[test]
fn xyz_and_w_wings() {
    let b = board(
        &[("r5c5", &[1, 2, 3]), ("r5c1", &[1, 3]), ("r4c6", &[2, 3])],
        &[],
    );
    assert_eq!(
        first(&b, Technique::XyzWing),
        "XYZ-Wing: 1/2/3 in r4c6,r5c15 => r5c46<>3"
    );
    let b = board(&[("r1c1", &[1, 2]), ("r9c9", &[1, 2])], &[(2, 5, &[1, 9])]);
    assert_eq!(
        first(&b, Technique::WWing),
        "W-Wing: 1/2 in r1c1,r9c9 connected by 2 in r5c1,r5c9 => r1c9,r9c1<>1"
    );
}

#[test]
fn simple_colors_trap() {
    let rows: &[(u16, usize, &[usize])] = &[(7, 1, &[1, 5]), (7, 6, &[3, 5])];
    let col = all_but("c5", &["r1c5", "r6c5"]);
    let p = puzzle(&".".repeat(81));
    let mut elims: Vec<(usize, u16)> = refs(&col).iter().map(|&c| (cell(c), 7)).collect();
    for &(d, row, cols) in rows {
        elims.extend(
            (1..=9)
                .filter(|c| !cols.contains(c))
                .map(|c| ((row - 1) * 9 + c - 1, d)),
        );
    }
    let b = Board::with_eliminations(&p, &elims).unwrap();
    assert_eq!(
        first(&b, Technique::SimpleColorsTrap),
        "Simple Colors Trap: 7 (r1c1,r6c5) / (r1c5,r6c3) => r23c3,r45c1<>7"
    );
}

/// A board where digit 5 keeps, in each listed line (`r1`, `c2`), only the listed cells, and
/// leaves the cells of `gone`.
fn fives(lines: &[(&str, &[&str])], gone: &[&str]) -> Board {
    let mut removed: Vec<String> = lines
        .iter()
        .flat_map(|&(line, keep)| all_but(line, keep))
        .collect();
    removed.extend(gone.iter().map(|c| c.to_string()));
    without(&[(5, &refs(&removed))])
}

/// Two clusters of 5: r1c1 = r1c5 (row 1) and r2c2 = r5c2 (column 2). r1c1 and r2c2 share a
/// box, so r1c5 or r5c2 holds the 5, and r5c5, which sees both, does not.
fn multi_colors_type_1_board(gone: &[&str]) -> Board {
    fives(
        &[("r1", &["r1c1", "r1c5"]), ("c2", &["r2c2", "r5c2"])],
        gone,
    )
}

#[test]
fn multi_colors_type_1() {
    let b = multi_colors_type_1_board(&[]);
    assert_eq!(
        first(&b, Technique::MultiColors1),
        "Multi Colors 1: 5 (r1c1) / (r1c5), (r2c2) / (r5c2) => r5c5<>5"
    );
    // Nothing for type 2, and not a simple colours step (each cluster alone removes nothing).
    for t in [
        Technique::MultiColors2,
        Technique::SimpleColorsTrap,
        Technique::SimpleColorsWrap,
    ] {
        let mut found = Found::new(1);
        sudoku_lab::logic::finders::finder(t)(&b, t, &mut found);
        assert!(found.steps.is_empty(), "{t:?}");
    }
    // Both rows on the ladder: the same step, from the first row.
    let both = Ladder::parse("multi-colors-1,multi-colors-2").unwrap();
    let step = both.next_step(&b).unwrap();
    assert_eq!(step.technique, Technique::MultiColors1);
}

#[test]
fn multi_colors_not_without_a_target() {
    // The same clusters with 5 gone from r5c5: the two clusters remove nothing.
    let b = multi_colors_type_1_board(&["r5c5"]);
    for t in [Technique::MultiColors1, Technique::MultiColors2] {
        let mut found = Found::new(1);
        sudoku_lab::logic::finders::finder(t)(&b, t, &mut found);
        assert!(found.steps.is_empty(), "{t:?}");
    }
    let both = Ladder::parse("multi-colors-1,multi-colors-2").unwrap();
    assert_eq!(both.next_step(&b), None);
}

/// Cluster A: r1c3 = r3c3 (column 3) = r3c9 (row 3); cluster B: r2c2 = r2c8 (row 2). The class
/// {r1c3, r3c9} of A sees r2c2 (box 1) and r2c8 (box 3), one of which holds the 5: the class is
/// false.
fn multi_colors_type_2_board() -> Board {
    fives(
        &[
            ("c3", &["r1c3", "r3c3"]),
            ("r3", &["r3c3", "r3c9"]),
            ("r2", &["r2c2", "r2c8"]),
        ],
        &[],
    )
}

#[test]
fn multi_colors_type_2() {
    let b = multi_colors_type_2_board();
    let two = "Multi Colors 2: 5 (r1c3,r3c9) / (r3c3), (r2c2) / (r2c8) => r1c3,r3c9<>5";
    assert_eq!(first(&b, Technique::MultiColors2), two);
    // Type 1 alone on the same pair, all four pairings of a class of A with one of B seeing
    // it: r1c3 sees r2c2 (r3c3 or r2c8 holds the 5: r2c2, r3c9 go), r3c9 sees r2c8 (r3c3 or
    // r2c2: r1c12 and r1c3 of the other class go), r3c3 sees r2c2 (r1c3, r3c9 or r2c8: r1c789).
    // hodoku-py 0.2.1's coloring solver finds the same two steps on this board.
    let one = "Multi Colors 1: 5 (r1c3,r3c9) / (r3c3), (r2c2) / (r2c8) => r1c123789,r2c2,r3c9<>5";
    assert_eq!(first(&b, Technique::MultiColors1), one);
    // With both rows, HoDoKu's order: type 2 before type 1 on each ordered pair of clusters,
    // (A, B) then (B, A), all found by the first row (the second adds nothing). On (B, A), r2c2
    // sees both classes of A; type 1 on (B, A) repeats (A, B)'s and is left out.
    let both = Ladder::parse("multi-colors-1,multi-colors-2").unwrap();
    let steps = both.steps(&b, 10);
    let texts: Vec<String> = steps.iter().map(|s| text(b.shape(), s)).collect();
    let back = "Multi Colors 2: 5 (r2c2) / (r2c8), (r1c3,r3c9) / (r3c3) => r2c2<>5";
    assert_eq!(texts, [two, one, back]);
    // Every step true on a solution: r3c3 = 5, r2c8 = 5 fit both clusters.
    for s in &steps {
        let wrong = ["r3c3", "r2c8"].map(cell);
        assert!(
            s.eliminations
                .iter()
                .all(|e| !wrong.contains(&(e.cell as usize))),
            "{texts:?}"
        );
    }
}

#[test]
fn unique_rectangle_type_2() {
    let b = board(
        &[
            ("r1c1", &[1, 2]),
            ("r1c2", &[1, 2]),
            ("r4c1", &[1, 2, 3]),
            ("r4c2", &[1, 2, 3]),
        ],
        &[],
    );
    assert_eq!(
        first(&b, Technique::UniqueRectangle2),
        "Uniqueness Test 2: 1/2 in r14c12 => r4c3456789,r56c123<>3"
    );
}

#[test]
fn unique_rectangle_type_3() {
    // The roof r1c12 acts as one cell of 3 and 4, a naked pair with r1c3 {3,4}: as in HoDoKu,
    // the three cells lie in row 1 and box 1, and both lose 3 and 4 elsewhere.
    let keep: &[(&str, &[u16])] = &[
        ("r1c1", &[1, 2, 3]),
        ("r1c2", &[1, 2, 4]),
        ("r4c1", &[1, 2]),
        ("r4c2", &[1, 2]),
        ("r1c3", &[3, 4]),
    ];
    assert_eq!(
        first(&board(keep, &[]), Technique::UniqueRectangle3),
        "Uniqueness Test 3: 1/2 in r14c12 => r1c456789,r23c123<>3, r1c456789,r23c123<>4"
    );
    // A cell holding 1 or 2 does not join the subset (HoDoKu's rule): r1c3 {1,3,4} and
    // r1c4 {1,3,4} would make a naked triple of 1, 3 and 4 with the roof.
    let keep: &[(&str, &[u16])] = &[
        ("r1c1", &[1, 2, 3]),
        ("r1c2", &[1, 2, 4]),
        ("r4c1", &[1, 2]),
        ("r4c2", &[1, 2]),
        ("r1c3", &[1, 3, 4]),
        ("r1c4", &[1, 3, 4]),
    ];
    let mut found = Found::new(1);
    let t = Technique::UniqueRectangle3;
    sudoku_lab::logic::finders::finder(t)(&board(keep, &[]), t, &mut found);
    assert!(found.steps.is_empty(), "{:?}", found.steps);
}

/// Digit `d` keeps, in column `col`, only the rows listed.
fn column_only(d: u16, col: usize, rows: &[usize]) -> Vec<(u16, usize, &'static [usize])> {
    const OTHERS: [&[usize]; 9] = [
        &[2, 3, 4, 5, 6, 7, 8, 9],
        &[1, 3, 4, 5, 6, 7, 8, 9],
        &[1, 2, 4, 5, 6, 7, 8, 9],
        &[1, 2, 3, 5, 6, 7, 8, 9],
        &[1, 2, 3, 4, 6, 7, 8, 9],
        &[1, 2, 3, 4, 5, 7, 8, 9],
        &[1, 2, 3, 4, 5, 6, 8, 9],
        &[1, 2, 3, 4, 5, 6, 7, 9],
        &[1, 2, 3, 4, 5, 6, 7, 8],
    ];
    (1..=9)
        .filter(|r| !rows.contains(r))
        .map(|r| (d, r, OTHERS[col - 1]))
        .collect()
}

#[test]
fn unique_rectangle_types_5_and_6_and_the_hidden_rectangle() {
    // Two diagonal corners with the one extra 3: cells seeing both lose it.
    let b = board(
        &[
            ("r1c1", &[1, 2]),
            ("r1c2", &[1, 2, 3]),
            ("r4c1", &[1, 2, 3]),
            ("r4c2", &[1, 2]),
        ],
        &[],
    );
    assert_eq!(
        first(&b, Technique::UniqueRectangle5),
        "Uniqueness Test 5: 1/2 in r14c12 => r23c1,r56c2<>3"
    );
    // Extras on r1c1 and r4c2; 1 only on the corners in rows 1 and 4 and columns 1 and 2.
    let keep: &[(&str, &[u16])] = &[
        ("r1c1", &[1, 2, 3]),
        ("r1c2", &[1, 2]),
        ("r4c1", &[1, 2]),
        ("r4c2", &[1, 2, 4]),
    ];
    let mut rows = vec![(1, 1, &[1usize, 2][..]), (1, 4, &[1, 2][..])];
    rows.extend(column_only(1, 1, &[1, 4]));
    rows.extend(column_only(1, 2, &[1, 4]));
    assert_eq!(
        first(&board(keep, &rows), Technique::UniqueRectangle6),
        "Uniqueness Test 6: 1/2 in r14c12 => r1c1,r4c2<>1"
    );
    // One corner of 1 and 2 alone; 1 only on the corners in the opposite corner's row and
    // column: the opposite corner cannot be 2.
    let keep: &[(&str, &[u16])] = &[
        ("r1c1", &[1, 2]),
        ("r1c2", &[1, 2, 3]),
        ("r4c1", &[1, 2, 3]),
        ("r4c2", &[1, 2, 3]),
    ];
    let mut rows = vec![(1, 4, &[1usize, 2][..])];
    rows.extend(column_only(1, 2, &[1, 4]));
    assert_eq!(
        first(&board(keep, &rows), Technique::HiddenRectangle),
        "Hidden Rectangle: 1/2 in r14c12 => r4c2<>2"
    );
}

#[test]
fn rectangles_count_corners_that_lost_a_digit() {
    // A puzzle of magictour_top1465 whose path, after 22 steps, has 7 and 9 on r46c29 with
    // r6c9 {7,9}, r4c9 {3,7,9}, r4c2 {5,7,9} and r6c2 {5,9}: r6c2 lost 7 to an empty
    // rectangle, but no 7 is placed in its houses. As in HoDoKu 2.2.0 the rectangle counts: 9
    // lies only on the corners in row 4 and column 2, so r4c2 cannot be 7 (HoDoKu's step 23).
    let line = ".3.6..8........7.5...5...126..4......149.....8.2.6...........7.....8.2.19.1....4.";
    let p = puzzle(line);
    graded(&p, &Ladder::default());
    let (result, _) = logic::grade(&p, &Ladder::default()).unwrap();
    let texts: Vec<String> = result.steps.iter().map(|s| text(p.shape(), s)).collect();
    assert_eq!(
        texts[21],
        "XY-Chain: 9 r2c3(9=6) -6- r2c8(6=3) -3- r6c8(3=5) -5- r6c2(5=9) => r23c2,r4c3<>9"
    );
    assert_eq!(texts[22], "Hidden Rectangle: 7/9 in r46c29 => r4c2<>7");
    assert_eq!(
        result.steps[22].eliminations,
        vec![logic::Candidate::new(cell("r4c2"), 7)]
    );

    // Type 2 with a roof corner that lost 1: both roof corners still have the one extra 3.
    let keep: &[(&str, &[u16])] = &[
        ("r1c1", &[1, 2]),
        ("r1c2", &[1, 2]),
        ("r4c1", &[2, 3]),
        ("r4c2", &[1, 2, 3]),
    ];
    assert_eq!(
        first(&board(keep, &[]), Technique::UniqueRectangle2),
        "Uniqueness Test 2: 1/2 in r14c12 => r4c3456789,r56c123<>3"
    );
    // With 1 placed in row 4, r4c1 and r4c2 cannot hold 1: no deadly pattern of 1 and 2, no
    // step (3 placed in row 1 keeps r1c12 out of one of 2 and 3).
    let b = placed(&[("r4c9", 1), ("r1c9", 3)], keep);
    let mut found = Found::new(1);
    let t = Technique::UniqueRectangle2;
    sudoku_lab::logic::finders::finder(t)(&b, t, &mut found);
    assert!(found.steps.is_empty(), "{:?}", found.steps);
}

/// An empty 9×9 board with digits placed by steps (not givens) and candidates kept.
fn placed(values: &[(&str, u16)], keep: &[(&str, &[u16])]) -> Board {
    let mut b = board(keep, &[]);
    let mut step = Step::new(Technique::NakedSingle);
    step.placements = values
        .iter()
        .map(|&(name, d)| logic::Candidate::new(cell(name), d))
        .collect();
    assert!(b.apply(&step));
    b
}

#[test]
fn avoidable_rectangles_read_placed_cells_never_givens() {
    let b = placed(
        &[("r1c1", 2), ("r1c2", 1), ("r4c1", 1)],
        &[("r4c2", &[2, 5])],
    );
    assert_eq!(
        first(&b, Technique::AvoidableRectangle1),
        "Avoidable Rectangle Type 1: 1/2 in r14c12 => r4c2<>2"
    );
    let b = placed(
        &[("r1c1", 1), ("r1c2", 2)],
        &[("r4c1", &[2, 3]), ("r4c2", &[1, 3])],
    );
    assert_eq!(
        first(&b, Technique::AvoidableRectangle2),
        "Avoidable Rectangle Type 2: 1/2 in r14c12 => r4c3456789,r56c123<>3"
    );
    // The same digits given: no avoidable rectangle.
    let mut line = ".".repeat(81).into_bytes();
    for (name, d) in [("r1c1", b'2'), ("r1c2", b'1'), ("r4c1", b'1')] {
        line[cell(name)] = d;
    }
    let p = puzzle(std::str::from_utf8(&line).unwrap());
    let elims: Vec<(usize, u16)> = (3..=9).map(|d| (cell("r4c2"), d)).collect();
    let b = Board::with_eliminations(&p, &elims).unwrap();
    let mut found = Found::new(1);
    let t = Technique::AvoidableRectangle1;
    sudoku_lab::logic::finders::finder(t)(&b, t, &mut found);
    assert!(found.steps.is_empty(), "{:?}", found.steps);
}
