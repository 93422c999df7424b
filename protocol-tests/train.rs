//! Runs the trainer's tests (`scripts/train/tests`: GRN1 records, the GNN1 export and its integer
//! reference, training on synthetic data, and on `gen-data` output when the engine has it) with
//! the Python in `GORIN_TRAIN_PYTHON` (`python3` when unset) and `GORIN_BIN` set to the built
//! binary.
//!
//! They need PyTorch (scripts/train/requirements.txt). A Python that cannot `import torch, numpy`
//! skips them with the reason printed, except under CI (the `CI` variable set), which installs
//! the requirements (.ci/run) and so fails instead.

mod unittest;

/// Tests in `scripts/train/tests` that must run (the gen-data one may skip); raise it when adding tests.
const MIN_TESTS_RUN: usize = 14;

#[test]
fn trainer_tests_pass() {
    let python = std::env::var("GORIN_TRAIN_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let probe = std::process::Command::new(&python).args(["-c", "import torch, numpy"]).output();
    let missing = match probe {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("").to_owned()),
        Err(e) => Some(e.to_string()),
    };
    if let Some(why) = missing {
        let reason = format!(
            "{python} cannot import torch and numpy ({why}): install scripts/train/requirements.txt \
             and set GORIN_TRAIN_PYTHON to that Python"
        );
        assert!(std::env::var_os("CI").is_none(), "CI needs the trainer's tests: {reason}");
        println!("trainer tests skipped: {reason}");
        return;
    }
    unittest::discover(&python, "scripts/train/tests", "scripts", MIN_TESTS_RUN);
}
