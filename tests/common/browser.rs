//! Headless Chromium for the browser tests (pictures and pages): where it is, and one run of it
//! with the flags that keep it off the network and quiet.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use wait_timeout::ChildExt;

/// Debian's `chromium` (`/usr/bin/chromium`, else on the `PATH`), when it is installed.
pub fn chromium() -> Option<PathBuf> {
    let usual = PathBuf::from("/usr/bin/chromium");
    if usual.exists() {
        return Some(usual);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromium"))
        .find(|p| p.exists())
}

/// Runs headless `chromium` on the file at `url` with `args` after the common flags, its
/// profile in `profile` and its standard output to `stdout`; 60 s at most, and it must succeed.
pub fn headless(chromium: &Path, profile: &Path, args: &[String], url: &str, stdout: Stdio) {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    match child.wait_timeout(Duration::from_secs(60)).unwrap() {
        Some(status) => assert!(status.success(), "chromium: {status}"),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took more than 60 s");
        }
    }
}
