//! Runs the Ray tests (`scripts/raytests`: gen_data.py and match.py on a local Ray instance
//! confined to loopback, compared with the same runs in local processes, while the sockets of
//! every process of the run are checked to stay on loopback) with the Python in
//! `GORIN_RAY_PYTHON` (`python3` when unset) and `GORIN_BIN` set to the built binary.
//!
//! They need the `ray` package (scripts/requirements-ray.txt). A Python that cannot `import ray`
//! skips them with the reason printed, except under CI (the `CI` variable set), which installs
//! it (.ci/run) and so fails instead. The scheduling itself is tested without Ray, on a fake
//! executor, in `scripts/tests/test_dispatch.py`.

mod unittest;

/// Tests in `scripts/raytests` that must run; raise it when adding tests.
const MIN_TESTS_RUN: usize = 2;

#[test]
fn ray_tests_pass() {
    let Some(python) =
        unittest::python_with("GORIN_RAY_PYTHON", "ray", "scripts/requirements-ray.txt", "Ray tests")
    else {
        return;
    };
    unittest::discover(&python, "scripts/raytests", "scripts", MIN_TESTS_RUN);
}
