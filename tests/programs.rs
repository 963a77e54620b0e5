//! Real programs as written (issue 42): host code clang rejects (skipped with a note, never
//! stopping a kernel), C++17 by default with `--std`/`-std=` and `--clang-arg`, the library
//! headers real programs include found with no flag (CI installs them with
//! scripts/install-deps.sh), a missing one named with its package, `--assume` and
//! `--kernel-args` for a kernel defined in an `#include`d header, and a program split over
//! files verified through the file that includes the fragment (`tests/kernels/programs/`).

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

const DIR: &str = "tests/kernels/programs";

#[test]
fn host_code_errors_leave_the_kernel_verified_with_a_note() {
    let file = format!("{DIR}/host_errors.cu");
    let (code, out, err) = run(&[&file]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("scale: verified"), "{out}");
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note: clang reported")).collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(
        notes[0].contains("4 errors in host code")
            && notes[0].contains("`seconds_since` (tests/kernels/programs/host_errors.cu:8)")
            && notes[0].contains("`main` (tests/kernels/programs/host_errors.cu:10)"),
        "{err}"
    );
}

#[test]
fn an_error_in_device_code_still_refuses_the_file() {
    let (code, out, err) = run(&[&format!("{DIR}/device_error.cu")]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("device_error.cu:2:53: error: use of undeclared identifier 'undeclared_offset'"),
        "{err}"
    );
    assert!(!err.contains("note: clang reported"), "{err}");
}

#[test]
fn cxx17_is_the_default_and_std_selects_another() {
    let file = format!("{DIR}/cxx17.cu");
    let (code, out, err) = run(&[&file]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("apply: verified"), "{out}");
    for std in [vec!["-std=c++14"], vec!["--std", "c++14"]] {
        let mut args = std.clone();
        args.push(&file);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{std:?}: {out}{err}");
        assert!(err.contains("is_same_v"), "{std:?}: {err}");
    }
}

#[test]
fn clang_arg_passes_a_flag_to_clang() {
    let file = format!("{DIR}/unused_variable.cu");
    let (code, out, err) = run(&[&file]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = run(&["--clang-arg=-Werror=unused-variable", &file]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("unused_variable.cu:3:7: error: unused variable 'unused'"),
        "{err}"
    );
}

#[test]
fn library_headers_are_found_without_a_flag() {
    let file = format!("{DIR}/libraries.cu");
    let (code, out, err) = run(&["--blockDim=64", "--gridDim=8", &file]);
    assert_eq!(code, Some(0), "{out}{err}");
    // The program's kernel only: thrust's kernels, instantiated by the host code, are the
    // library's.
    assert!(out.contains("block_sum: verified"), "{out}");
    assert_eq!(out.matches(": verified").count(), 1, "{out}");
    assert!(
        err.lines().any(|l| l.contains("defined in library headers")
            && l.ends_with("not verified: the library's, not the program's")),
        "{err}"
    );
}

#[test]
fn a_missing_library_header_is_named_with_its_package() {
    let (code, out, err) = run(&["--stub-headers", &format!("{DIR}/libraries.cu")]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("fatal error: 'cublas_v2.h' file not found"), "{err}");
    assert!(
        err.contains("note: 'cublas_v2.h' comes with NVIDIA's cuBLAS (PyPI nvidia-cublas-cu11)"),
        "{err}"
    );
}

#[test]
fn assume_and_kernel_args_reach_a_kernel_in_an_included_header() {
    let file = format!("{DIR}/assume_header/main.cu");
    let (code, out, err) = run(&["--blockDim=64", "--gridDim=1", &file]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("race on a["), "{out}");
    assert!(out.contains("kernels/strided.cuh:6:3: write"), "{out}");
    let (code, out, err) = run(&[
        "--blockDim=64",
        "--gridDim=1",
        "--assume",
        "stride > 0 && stride < 1024",
        &file,
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("strided: verified"), "{out}");
    assert!(out.contains("assumes `stride > 0 && stride < 1024` on entry"), "{out}");
    for (value, want) in [("0", 1), ("3", 0)] {
        let args = format!("strided,{value}");
        let (code, out, err) = run(&["--blockDim=64", "--gridDim=1", "--kernel-args", &args, &file]);
        assert_eq!(code, Some(want), "{value}: {out}{err}");
    }
}

#[test]
fn a_fragment_included_by_a_verified_file_is_reported_under_it() {
    let dir = format!("{DIR}/split");
    let (code, out, err) = run(&["--blockDim=64", "--gridDim=4", &dir]);
    assert_eq!(code, Some(0), "{out}{err}");
    let row = out
        .lines()
        .find(|l| l.contains("program_kernel.cu"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        row.contains("included") && row.ends_with("by tests/kernels/programs/split/program.cu"),
        "{row}"
    );
    assert!(out.contains("1 verified through a file that includes them"), "{out}");
    assert!(out.contains("0 files with an error"), "{out}");
    let host_only = out
        .lines()
        .find(|l| l.contains("host_only.cu"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(host_only.contains("no kernel"), "{host_only}");
    assert!(
        err.contains("note: tests/kernels/programs/split/program_kernel.cu is #included by tests/kernels/programs/split/program.cu"),
        "{err}"
    );
    let (code, out, err) = run(&["--json", "--blockDim=64", "--gridDim=4", &dir]);
    assert_eq!(code, Some(0), "{out}{err}");
    let fragment: serde_json::Value = out
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["file"].as_str().is_some_and(|f| f.ends_with("program_kernel.cu")))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        fragment["included_by"], "tests/kernels/programs/split/program.cu",
        "{out}"
    );
    // Alone, the fragment is an error, as before.
    let (code, _, err) = run(&[&format!("{dir}/program_kernel.cu")]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn a_platform_header_only_host_code_needs_is_read_as_empty() {
    let (code, out, err) = run(&[&format!("{DIR}/platform_header.cu")]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("scale: verified"), "{out}");
    assert!(
        err.contains("note: header 'gpug_test_window_toolkit.h' not found: read as empty"),
        "{err}"
    );
    assert!(
        err.contains("skipped the host function `main` (tests/kernels/programs/platform_header.cu:14)")
            && err.contains("the declaration `Window` (no device code names it)"),
        "{err}"
    );
    // A kernel that takes the struct the header's type is in: refused, the missing header the
    // reason.
    let (code, out, err) = run(&[&format!("{DIR}/platform_header_device.cu")]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("platform_header_device.cu:5:10: fatal error: 'gpug_test_window_toolkit.h' file not found"),
        "{err}"
    );
    assert!(!err.contains("read as empty"), "{err}");
}

/// Device code of real programs (NVIDIA's cuda-samples, llm.c) that gpug refused: surfaces,
/// CUDA's null pointers, llm.c's `Packed128`, the runtime's records, cuRAND states in
/// registers (`tests/kernels/real/`, each against its first line, under three solvers).
#[test]
fn device_code_of_real_programs() {
    check_kernel_dir("tests/kernels/real", 16);
}

/// llm.c's `crossentropy_softmax_backward_kernel1` (`tests/kernels/chains/`): a thread per
/// element of a `B × T × V` tensor, its coordinates rebuilt from its linear index by
/// `i / (T*V)`, `(i / V) % T` and `i % V`, at the launch llm.c's `main` makes. With yices (the
/// default solver) the relaxation's division-chain lemma proves the writes distinct; when each
/// thread writes element `v / 2` of its row, two threads race, with every solver.
#[test]
fn coordinates_rebuilt_by_division_chains() {
    let dir = "tests/kernels/chains";
    let launch = [
        "--blockDim=256",
        "--gridDim=1608224",
        "--kernel-args",
        "B=8,T=1024,V=50257",
    ];
    let with = |solver: &str, file: &str| {
        let mut args = vec!["--solver", solver];
        args.extend(launch);
        let file = format!("{dir}/{file}");
        args.push(&file);
        run(&args)
    };
    let (code, out, err) = with("yices", "index_coordinates.cu");
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("coordinates: verified"), "{out}");
    for solver in ["yices", "z3", "cvc5"] {
        let (code, out, err) = with(solver, "index_coordinates_race.cu");
        assert_eq!(code, Some(1), "{solver}: {out}{err}");
        assert!(out.contains("race on dlogits["), "{solver}: {out}");
        assert!(out.contains("index_coordinates_race.cu:10:9"), "{solver}: {out}");
    }
}
