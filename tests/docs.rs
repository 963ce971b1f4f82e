//! The user documentation that the command generates or that the README promises: shell
//! completions, man pages, and every `sudoku-lab` command of the README's quick tour run as
//! written.

mod common;
use common::{run, stdout};

use std::process::Command;

#[test]
fn completions_generate_for_every_shell() {
    // Each script must name the command and its subcommands and flags.
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef sudoku-lab"),
        ("fish", "complete -c sudoku-lab"),
        ("elvish", "sudoku-lab"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        assert!(script.contains(marker), "{shell}: no '{marker}'");
        for word in ["xcheck", "optimize", "backend", "timeout", "diagonals"] {
            assert!(script.contains(word), "{shell}: '{word}' missing");
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn man_pages_generate() {
    let o = run(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH sudoku-lab 1"),
        "{page}"
    );
    assert!(page.contains(".TH sudoku-lab 1"));
    for command in ["solve", "xcheck", "completions"] {
        assert!(page.contains(command), "main page lists {command}");
    }
    let o = run(&["man", "xcheck"]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(page.contains(".TH sudoku-lab-xcheck 1"));
    assert!(page.contains("backends"), "xcheck page lists its flags");
    let o = run(&["man", "no-such-command"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no command 'no-such-command'"));
}

/// The `sh` block of the README's "Quick tour", one command a line.
fn quick_tour() -> Vec<String> {
    let readme = include_str!("../README.md");
    let section = readme
        .split("## Quick tour")
        .nth(1)
        .expect("README has a Quick tour");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the Quick tour has an sh block");
    block
        .lines()
        .filter(|l| l.starts_with("sudoku-lab "))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_quick_tour_command_runs_as_written() {
    let commands = quick_tour();
    assert!(commands.len() >= 10, "{commands:?}");
    let seen: std::collections::BTreeSet<&str> = commands
        .iter()
        .filter_map(|c| c.split_whitespace().nth(1))
        .collect();
    for command in [
        "solve",
        "count",
        "unique",
        "optimize",
        "judge",
        "xcheck",
        "bench",
        "generate",
        "encode",
        "backends",
        "completions",
        "man",
    ] {
        assert!(
            seen.contains(command),
            "no example of `{command}` in the tour"
        );
    }
    // Run in a scratch folder that sees the repository's test data, so files the commands
    // write (plots, CSV, LP, completions) land there.
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests"),
        dir.path().join("tests"),
    )
    .unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &commands {
        let o = Command::new("sh")
            .args(["-c", &format!("set -e; {line}")])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "`{line}` failed:\n{}{}",
            stdout(&o),
            String::from_utf8_lossy(&o.stderr)
        );
        let wrote_file = line.contains(" > ") || line.contains(" -o ") || line.contains("--plot");
        assert!(
            wrote_file || !o.stdout.is_empty(),
            "`{line}` printed nothing"
        );
    }
    for file in [
        "bench.svg",
        "bench.csv",
        "sample0.lp",
        "sudoku-lab.bash",
        "sudoku-lab-xcheck.1",
    ] {
        let len = std::fs::metadata(dir.path().join(file)).map_or(0, |m| m.len());
        assert!(len > 0, "{file} was not written");
    }
}

/// The Markdown files of the repository: the README and everything under `docs/`, `encodings/`
/// and `tests/data/`.
fn markdown_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "encodings", "tests/data"] {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    files
}

/// The lines of a Markdown text, those of fenced code blocks left empty and inline code spans
/// blanked, so that line numbers stay those of the file.
fn prose_lines(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || line.trim_start().starts_with("```") {
            lines.push(String::new());
            continue;
        }
        // Blank every `code span`, so that brackets inside code are not read as links.
        let mut prose = String::with_capacity(line.len());
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                prose.push_str(part);
            } else {
                prose.push_str(&" ".repeat(part.len() + 2));
            }
        }
        lines.push(prose);
    }
    lines
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept, spaces made
/// `-`, everything else dropped; a repeated anchor gets `-1`, `-2`, ….
fn anchors(text: &str) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut out = std::collections::BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                '-' | '_' => Some(c),
                c if c.is_alphanumeric() => Some(c),
                _ => None,
            })
            .flat_map(char::to_lowercase)
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

/// Every relative link of the documentation reaches a file of the repository, and every
/// `#anchor` a heading of its target: a renamed heading, a moved file or a damaged document
/// shows here.
#[test]
fn every_relative_link_of_the_docs_resolves() {
    let files = markdown_files();
    assert!(files.len() >= 12, "{files:?}");
    let mut links = 0;
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in prose_lines(&text).iter().enumerate() {
            for target in line.split("](").skip(1) {
                let Some(end) = target.find(')') else {
                    continue;
                };
                let target = target[..end].split_whitespace().next().unwrap_or("");
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                links += 1;
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let dest = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().unwrap().join(path)
                };
                let place = format!("{}:{}: {target}", file.display(), n + 1);
                if !dest.exists() {
                    broken.push(format!("{place}: no such file"));
                } else if !anchor.is_empty() {
                    let heads = anchors(&std::fs::read_to_string(&dest).unwrap_or_default());
                    if !heads.contains(anchor) {
                        broken.push(format!("{place}: no heading with this anchor"));
                    }
                }
            }
        }
    }
    assert!(links >= 100, "only {links} relative links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_github() {
    let heads = anchors(
        "# The 9×9 band kernel\n## `sat` — CNF solved by varisat\n```\n# not a heading\n```\n\
         ## Hostile input (`fuzz --hostile`)\n## Cost\n## Cost\n",
    );
    let want = [
        "the-99-band-kernel",
        "sat--cnf-solved-by-varisat",
        "hostile-input-fuzz---hostile",
        "cost",
        "cost-1",
    ];
    assert_eq!(heads, want.iter().map(|s| s.to_string()).collect());
}
