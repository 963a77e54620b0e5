//! CUDA 12.8 with clang 19, the default front end for `.cu` files (issue 55 item 1): nvcc's
//! `__nv_atomic_*` built-ins, code under `#if CUDA_VERSION >= 12080`, `--cuda-version 11.8`,
//! and the fallback to 11.8 for texture references. CI installs clang-19 and both header
//! folders with scripts/install-deps.sh; without them these tests fail, as the solver tests
//! fail without the solvers.

mod common;

use common::{check_kernel_dir, gpug};

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = gpug(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every kernel of `tests/kernels/cuda12` against its first line, with z3, cvc5 and yices.
#[test]
fn cuda12_kernels_verdicts() {
    check_kernel_dir("tests/kernels/cuda12", 6);
}

/// The histogram fixed under `#if CUDA_VERSION >= 12080` with `__nv_atomic_fetch_add` is
/// verified by default (CUDA 12.8) and races in its older branch (`--cuda-version 11.8`).
#[test]
fn cuda_version_picks_the_branch() {
    let file = "tests/kernels/cuda12/nv_atomic_versioned.cu";
    for s in ["z3", "yices"] {
        let (code, out, err) = run(&["--solver", s, "--blockDim=64", "--gridDim=4", file]);
        assert_eq!(code, Some(0), "{s}: {out}{err}");
        assert!(out.contains("histogram: verified"), "{s}: {out}");
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--cuda-version",
            "11.8",
            "--blockDim=64",
            "--gridDim=4",
            file,
        ]);
        assert_eq!(code, Some(1), "{s}: {out}{err}");
        assert!(out.contains("race on bins["), "{s}: {out}");
    }
}

/// A block-scope `__nv_atomic_add` races only between blocks.
#[test]
fn nv_atomic_block_scope_within_one_block() {
    for s in ["z3", "yices"] {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim=64",
            "--gridDim=1",
            "tests/kernels/cuda12/nv_atomic_block_scope.cu",
        ]);
        assert_eq!(code, Some(0), "{s}: {out}{err}");
    }
}

/// A file with texture references is read with CUDA 11.8's headers, and the note says so.
#[test]
fn texture_references_fall_back_to_11_8() {
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim=64",
        "--gridDim=2",
        "tests/kernels/cuda12/texture_reference.cu",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains("which CUDA 12 removed: read with CUDA 11.8's headers"),
        "{err}"
    );
    // Asked for 12.8, the file does not parse: clang's error, exit 2.
    let (code, _, err) = run(&[
        "--cuda-version",
        "12.8",
        "--blockDim=64",
        "--gridDim=2",
        "tests/kernels/cuda12/texture_reference.cu",
    ]);
    assert_eq!(code, Some(2), "{err}");
}

/// A version gpug does not read is a usage error.
#[test]
fn unknown_cuda_version_is_a_usage_error() {
    let (code, _, err) = run(&["--cuda-version", "10.2", "examples/reduce.cu"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("gpug reads CUDA 12.8 or 11.8"), "{err}");
}
