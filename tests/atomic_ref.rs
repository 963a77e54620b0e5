//! libcu++'s `cuda::atomic_ref` at each thread scope, joined to the scoped-atomics model
//! (issue 55 item 3): block scope on global memory shared between blocks races, device scope
//! does not, block scope on `__shared__` memory suffices (`tests/kernels/atomic_ref/`, each
//! against the expectation on its first line). Needs CUDA 12.8's headers and clang 19.

mod common;

use common::{check_kernel_dir, gpug};

/// Every kernel of `tests/kernels/atomic_ref` against its first line, with z3, cvc5 and
/// yices.
#[test]
fn atomic_ref_kernels_verdicts() {
    check_kernel_dir("tests/kernels/atomic_ref", 5);
}

/// The block-scope race across blocks says why, with z3 and yices.
#[test]
fn block_scope_across_blocks_says_why() {
    for s in ["z3", "yices"] {
        let out = gpug(&[
            "--solver".into(),
            s.into(),
            "--blockDim=128".into(),
            "--gridDim=4".into(),
            "tests/kernels/atomic_ref/block_scope_global.cu".into(),
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{s}: {text}");
        assert!(text.contains("race on hist["), "{s}: {text}");
        assert!(
            text.contains("block scope does not order threads of different blocks"),
            "{s}: {text}"
        );
    }
}
