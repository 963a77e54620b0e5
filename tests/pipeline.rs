//! Asynchronous copies of `cuda_pipeline_primitives.h` (issue 55 item 2):
//! `__pipeline_memcpy_async` in flight until the `__pipeline_wait_prior` that covers its
//! commit group. Needs CUDA 12.8's headers and clang 19 (scripts/install-deps.sh).

mod common;

use common::{check_kernel_dir, gpug};

/// Every kernel of `tests/kernels/pipeline` against its first line, with z3, cvc5 and yices.
#[test]
fn pipeline_kernels_verdicts() {
    check_kernel_dir("tests/kernels/pipeline", 4);
}

/// The racy kernel's witness names the copy's call and the read before its wait, with z3
/// and yices.
#[test]
fn read_before_wait_names_the_copy() {
    for s in ["z3", "yices"] {
        let out = gpug(&[
            "--solver".into(),
            s.into(),
            "--blockDim=64".into(),
            "--gridDim=2".into(),
            "tests/kernels/pipeline/read_before_wait.cu".into(),
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{s}: {text}");
        assert!(text.contains("race on tile["), "{s}: {text}");
        assert!(text.contains("__pipeline_memcpy_async"), "{s}: {text}");
    }
}
