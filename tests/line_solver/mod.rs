//! The reference solver of the `cmd` backend (`examples/line_solver.rs`) as a program the tests
//! can start. It uses the standard library only, so it is compiled here with `rustc` alone (about
//! a second), whatever cargo built before: `cargo test --test cmd` does not build examples.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The path of a freshly compiled `line_solver`, built once per test binary.
pub fn line_solver() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        // One file per test binary: test binaries may run at the same time.
        let exe = dir.join(format!("line_solver-{}", env!("CARGO_CRATE_NAME")));
        // The rustc of the toolchain that runs the tests sits next to its cargo.
        let rustc = std::env::var_os("CARGO")
            .map(PathBuf::from)
            .and_then(|cargo| Some(cargo.parent()?.join("rustc")))
            .filter(|r| r.exists())
            .unwrap_or_else(|| "rustc".into());
        let source = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/line_solver.rs");
        let out = Command::new(rustc)
            .args(["-O", "--edition", "2021", source, "-o"])
            .arg(&exe)
            .output()
            .expect("rustc runs");
        assert!(
            out.status.success(),
            "compiling {source}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        exe.to_string_lossy().into_owned()
    })
}
