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
const MIN_TESTS_RUN: usize = 21;

#[test]
fn trainer_tests_pass() {
    let Some(python) = unittest::python_with(
        "GORIN_TRAIN_PYTHON",
        "torch, numpy",
        "scripts/train/requirements.txt",
        "trainer's tests",
    ) else {
        return;
    };
    unittest::discover(&python, "scripts/train/tests", "scripts", MIN_TESTS_RUN);
}
