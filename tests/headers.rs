//! NVIDIA's real CUDA headers (issue 10): kernels that need them (cooperative groups, glibc's
//! assert through them), `--cuda-path` and `--stub-headers`. CI installs the headers with
//! scripts/install-deps.sh; without them these tests fail, as the solver tests fail without
//! the solvers.

mod common;

use common::gpug;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = gpug(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

#[test]
fn thread_block_sync_is_a_barrier() {
    for s in SOLVERS {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim",
            "64",
            "--gridDim",
            "1",
            "tests/kernels/headers/block_sync.cu",
        ]);
        assert_eq!(code, Some(0), "{s}: {out}{err}");
        assert!(out.contains("shift: verified"), "{s}: {out}");
    }
}

#[test]
fn thread_block_without_sync_races() {
    for s in SOLVERS {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim",
            "64",
            "--gridDim",
            "1",
            "tests/kernels/headers/block_no_sync.cu",
        ]);
        assert_eq!(code, Some(1), "{s}: {out}{err}");
        assert!(out.contains("race on a["), "{s}: {out}");
    }
}

#[test]
fn grid_sync_is_a_grid_barrier() {
    for s in SOLVERS {
        for grid in ["1", "4"] {
            let (code, out, err) = run(&[
                "--solver",
                s,
                "--blockDim",
                "64",
                "--gridDim",
                grid,
                "tests/kernels/headers/grid_sync.cu",
            ]);
            assert_eq!(code, Some(0), "{s}: {out}{err}");
            assert!(out.contains("shift: verified"), "{s}: {out}");
        }
    }
}

#[test]
fn glibc_assert_is_an_assertion() {
    for s in SOLVERS {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim",
            "64",
            "--gridDim",
            "1",
            "tests/kernels/headers/assert_fails.cu",
        ]);
        assert_eq!(code, Some(1), "{s}: {out}{err}");
        assert!(out.contains("assert_fails.cu:5:"), "{s}: {out}");
    }
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim",
        "32",
        "--gridDim",
        "1",
        "tests/kernels/headers/assert_fails.cu",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn cuda_path_without_headers_is_an_error() {
    let (code, out, err) = run(&[
        "--cuda-path",
        "/nonexistent/cuda",
        "tests/kernels/headers/block_sync.cu",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("no CUDA headers: --cuda-path: /nonexistent/cuda has no include/cuda_runtime.h"),
        "{err}"
    );
}

#[test]
fn stub_headers_lack_cooperative_groups() {
    let (code, _, err) = run(&[
        "--stub-headers",
        "--solver",
        "z3",
        "tests/kernels/headers/block_sync.cu",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cooperative_groups.h"), "{err}");
    // The same file is read with NVIDIA's headers (the default, installed by install-deps.sh).
    let (code, _, err) = run(&[
        "--solver",
        "z3",
        "--blockDim",
        "64",
        "--gridDim",
        "1",
        "tests/kernels/headers/block_sync.cu",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("stub headers"), "{err}");
}

#[test]
fn libraries_reached_through_an_own_header_are_found() {
    // The file does not name cooperative groups: parsed first without them, then with them.
    for s in SOLVERS {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim",
            "64",
            "--gridDim",
            "1",
            "tests/kernels/headers/groups_through_own_header.cu",
        ]);
        assert_eq!(code, Some(0), "{s}: {out}{err}");
        assert!(out.contains("shift: verified"), "{s}: {out}");
    }
}

#[test]
fn host_code_with_launches_is_read_over_the_real_headers() {
    // A `<<<…>>>` launch needs clang to know the CUDA launch API (`__cudaPushCallConfiguration`).
    for s in SOLVERS {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim",
            "256",
            "--gridDim",
            "4",
            "tests/kernels/headers/host_launch.cu",
        ]);
        assert_eq!(code, Some(0), "{s}: {out}{err}");
        assert!(out.contains("scale: verified"), "{s}: {out}");
    }
    // The instantiation's block size disagrees with the launch checked: blocks overlap.
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim",
        "512",
        "--gridDim",
        "4",
        "tests/kernels/headers/host_launch.cu",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("race on data["), "{out}");
}
