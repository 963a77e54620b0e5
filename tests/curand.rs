//! cuRAND's device API (issue 10), end to end with z3, cvc5 and yices: the kernels of
//! `tests/kernels/curand/`, NVIDIA's real headers (`scripts/install-deps.sh`) being installed.
//!
//! Each kernel starts with `// expect: verified | race on NAME | divergence` and a
//! `// --flags` line: `verified` is exit 0; `race on NAME` is exit 1 with race findings, every
//! one on the array `NAME`; `divergence` is exit 1 with a barrier-divergence finding.
//! `layouts.cu` also holds the `static_assert`s that clang checks against NVIDIA's headers and
//! a unit test of `frontend::types` against gpug's layouts.

mod common;

use common::{check_kernel_dir, gpug};

#[test]
fn curand_kernels_have_their_expected_verdicts() {
    check_kernel_dir("tests/kernels/curand", 12);
}

/// The notes name each modelled call once, with the model.
#[test]
fn notes_say_how_calls_are_treated() {
    let out = gpug(&[
        "--solver".into(),
        "z3".into(),
        "--blockDim=128".into(),
        "--gridDim=4".into(),
        "tests/kernels/curand/xorwow_own_state.cu".into(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    for name in [
        "curand_init",
        "curand",
        "curand_uniform",
        "curand_normal2",
        "skipahead",
        "curand_normal",
    ] {
        let head = format!("note: `{name}` (");
        assert_eq!(text.matches(&head).count(), 1, "{name}: {text}");
    }
    assert!(text.contains("the 48 bytes of `curandStateXORWOW`"), "{text}");
    let out = gpug(&[
        "--solver".into(),
        "z3".into(),
        "--blockDim=[16,16]".into(),
        "--gridDim=4".into(),
        "tests/kernels/curand/mtgp32_per_block.cu".into(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("s[t mod 256]"), "{text}");
}
