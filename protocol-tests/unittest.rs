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

/// The Python named by the environment variable `var` (else `python3`) when it imports
/// `modules` (`import` syntax, e.g. `"torch, numpy"`); otherwise `None`, after saying why the
/// `what` tests are skipped, or a panic under CI (`CI` set), where `.ci/run` installs them.
/// `install` says what to install. (scripts.rs includes this file too and needs no such module.)
#[allow(dead_code)]
pub fn python_with(var: &str, modules: &str, install: &str, what: &str) -> Option<String> {
    let python = std::env::var(var).unwrap_or_else(|_| "python3".to_owned());
    let probe = Command::new(&python).args(["-c", &format!("import {modules}")]).output();
    let missing = match probe {
        Ok(out) if out.status.success() => return Some(python),
        Ok(out) => String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("").to_owned(),
        Err(e) => e.to_string(),
    };
    let reason = format!(
        "{python} cannot import {modules} ({missing}): install {install} and set {var} to that Python"
    );
    assert!(std::env::var_os("CI").is_none(), "CI needs the {what}: {reason}");
    println!("{what} skipped: {reason}");
    None
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
