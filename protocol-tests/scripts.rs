//! Runs the Python tests of `scripts/` (the match runner, its referee, the baseline brains):
//! `python3 -m unittest discover -s scripts/tests -t scripts -v` (`-t scripts` puts `scripts/` on
//! the path, so the tests import the `gorinkit` package and the scripts as they are), with
//! `GORIN_BIN` set to the binary cargo built, so the fault tests play against Gorin itself.
//!
//! The test fails when `python3` is missing, when unittest fails, and when fewer than
//! `MIN_TESTS_RUN` tests actually ran (skips not counted), so it cannot pass vacuously.

mod unittest;

/// Tests in `scripts/tests` that must run (not be skipped: the one that needs GORIN_DATA, the one
/// that needs the `renju` package); raise it when adding tests.
const MIN_TESTS_RUN: usize = 111;

#[test]
fn python_script_tests_pass() {
    unittest::discover("python3", "scripts/tests", "scripts", MIN_TESTS_RUN);
}
