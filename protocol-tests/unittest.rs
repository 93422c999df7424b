//! Shared by scripts.rs, train.rs and ray.rs: runs a Python unittest discovery from the
//! repository root, with `GORIN_BIN` set to the binary cargo built, and checks its report.
//!
//! A run fails when the interpreter is missing, when unittest fails, and when fewer than the
//! given number of tests actually ran (skips not counted), so it cannot pass vacuously.

use std::path::Path;
use std::process::Command;

/// `(ran, skipped)` from unittest's summary: `Ran N tests in ...` and `OK (skipped=K)`.
pub fn counts(report: &str) -> Option<(usize, usize)> {
    let ran = report.lines().find_map(|l| l.strip_prefix("Ran ")?.split_whitespace().next()?.parse().ok())?;
    let skipped = report
        .lines()
        .find_map(|l| {
            let rest = &l[l.find("skipped=")? + "skipped=".len()..];
            rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        })
        .unwrap_or(0);
    Some((ran, skipped))
}

/// `python -m unittest discover -s <tests> -t <top> -v`; panics with the report unless it passes
/// with at least `min_run` tests run.
pub fn discover(python: &str, tests: &str, top: &str, min_run: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(python)
        .args(["-m", "unittest", "discover", "-s", tests, "-t", top, "-v"])
        .current_dir(root)
        .env("GORIN_BIN", env!("CARGO_BIN_EXE_pbrain-gorin"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python} ({e}): the Python tests need it"));
    // unittest reports on stderr.
    let report =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "python unittest failed ({}):\n{report}", output.status);
    let (ran, skipped) = counts(&report).unwrap_or_else(|| panic!("no `Ran N tests` line in:\n{report}"));
    assert!(
        ran.saturating_sub(skipped) >= min_run,
        "only {ran} tests ran ({skipped} skipped), expected at least {min_run}:\n{report}"
    );
}

#[test]
fn unittest_counts_are_parsed() {
    assert_eq!(counts("...\nRan 28 tests in 20.1s\n\nOK (skipped=1)\n"), Some((28, 1)));
    assert_eq!(counts("Ran 3 tests in 0.1s\n\nOK\n"), Some((3, 0)));
    assert_eq!(counts("FAILED (failures=1, skipped=2)\nRan 5 tests"), Some((5, 2)));
    assert_eq!(counts("nothing"), None);
}
