//! Runs the Python tests of `scripts/` (the match runner, its referee, the baseline brains):
//! `python3 -m unittest discover -s scripts/tests -t scripts -v` (`-t scripts` puts `scripts/` on
//! the path, so the tests import the `gorinkit` package and the scripts as they are), with
//! `GORIN_BIN` set to the binary cargo built, so the fault tests play against Gorin itself.
//!
//! The test fails when `python3` is missing, when unittest fails, and when fewer than
//! `MIN_TESTS_RUN` tests actually ran (skips not counted), so it cannot pass vacuously.

use std::path::Path;
use std::process::Command;

/// Tests in `scripts/tests` that must run (not be skipped: the one that needs GORIN_DATA, the one
/// that needs the `renju` package); raise it when adding tests.
const MIN_TESTS_RUN: usize = 45;

/// `(ran, skipped)` from unittest's summary: `Ran N tests in ...` and `OK (skipped=K)`.
fn counts(report: &str) -> Option<(usize, usize)> {
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

#[test]
fn python_script_tests_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "scripts/tests", "-t", "scripts", "-v"])
        .current_dir(root)
        .env("GORIN_BIN", env!("CARGO_BIN_EXE_pbrain-gorin"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("cannot run python3 (the scripts' tests need Python 3.11+ on PATH)");
    // unittest reports on stderr.
    let report =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "python unittest failed ({}):\n{report}", output.status);
    let (ran, skipped) = counts(&report).unwrap_or_else(|| panic!("no `Ran N tests` line in:\n{report}"));
    assert!(
        ran.saturating_sub(skipped) >= MIN_TESTS_RUN,
        "only {ran} tests ran ({skipped} skipped), expected at least {MIN_TESTS_RUN}:\n{report}"
    );
}

#[test]
fn unittest_counts_are_parsed() {
    assert_eq!(counts("...\nRan 28 tests in 20.1s\n\nOK (skipped=1)\n"), Some((28, 1)));
    assert_eq!(counts("Ran 3 tests in 0.1s\n\nOK\n"), Some((3, 0)));
    assert_eq!(counts("FAILED (failures=1, skipped=2)\nRan 5 tests"), Some((5, 2)));
    assert_eq!(counts("nothing"), None);
}
