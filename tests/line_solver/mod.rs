//! The programs of the `cmd` backend in `examples/` (the reference solver `line_solver.rs`, the
//! adapter `line_adapter.rs`) as programs the tests can start. They use the standard library
//! only, so they are compiled here with `rustc` alone (about a second each), whatever cargo built
//! before: `cargo test --test cmd` does not build examples.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The path of a freshly compiled `examples/line_solver.rs`, built once per test binary.
pub fn line_solver() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| compile("line_solver"))
}

/// The path of a freshly compiled `examples/line_adapter.rs`, built once per test binary.
pub fn line_adapter() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| compile("line_adapter"))
}

/// Compiles `examples/NAME.rs` and returns the program's path.
fn compile(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    // One file per test binary: test binaries may run at the same time. Copies of one binary
    // may too, so each compiles to a file of its own (rustc names its intermediate files after
    // the output's stem, so the process id goes in the stem) and renames it into place: a
    // process running the program keeps the file it started, where rewriting it in place would
    // break it.
    let exe = dir.join(format!("{name}-{}", env!("CARGO_CRATE_NAME")));
    let fresh = dir.join(format!(
        "{name}-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    // The rustc of the toolchain that runs the tests sits next to its cargo.
    let rustc = std::env::var_os("CARGO")
        .map(PathBuf::from)
        .and_then(|cargo| Some(cargo.parent()?.join("rustc")))
        .filter(|r| r.exists())
        .unwrap_or_else(|| "rustc".into());
    let source = format!("{}/examples/{name}.rs", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(rustc)
        .args(["-O", "--edition", "2021", &source, "-o"])
        .arg(&fresh)
        .output()
        .expect("rustc runs");
    assert!(
        out.status.success(),
        "compiling {source}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&fresh, &exe).expect("the compiled program moves into place");
    exe.to_string_lossy().into_owned()
}
