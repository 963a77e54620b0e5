//! Asynchronous copies made by a group or completed through a barrier or a pipeline (issue 55
//! item 2): `cooperative_groups::memcpy_async` with `cg::wait`/`cg::wait_prior` (`cg_*.cu`),
//! `cuda::memcpy_async` completed through a `cuda::barrier` (`barrier_*.cu`) or a two-stage
//! `cuda::pipeline<cuda::thread_scope_thread>` (`pipeline_*.cu`), each racy kernel
//! of `tests/kernels/async_copy` with its fixed twin; a tile's `cg::memcpy_async` is the
//! tile's copy (`cg_tile_copy*.cu`). Needs CUDA 12.8's headers and
//! clang 19 (scripts/install-deps.sh).

mod common;

use common::{check_kernel_dir, gpug};

/// Every kernel of `tests/kernels/async_copy` against its first line, with z3, cvc5 and
/// yices.
#[test]
fn async_copy_kernels_verdicts() {
    check_kernel_dir("tests/kernels/async_copy", 25);
}

/// The racy kernels' witnesses name the copy's call and say that it is in flight until its
/// wait, with z3 and yices.
#[test]
fn read_before_wait_names_the_copy() {
    for (file, call) in [
        ("cg_read_before_wait.cu", "cg::memcpy_async(block, tile"),
        ("barrier_read_before_wait.cu", "cuda::memcpy_async(block, tile"),
        ("pipeline_two_stage_race.cu", "cuda::memcpy_async(&tile[(b + 1) % 2][t]"),
    ] {
        for s in ["z3", "yices"] {
            let out = gpug(&[
                "--solver".into(),
                s.into(),
                "--blockDim=64".into(),
                "--gridDim=1".into(),
                format!("tests/kernels/async_copy/{file}"),
            ]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{file} {s}: {text}");
            assert!(text.contains("race on tile["), "{file} {s}: {text}");
            assert!(text.contains(call), "{file} {s}: {text}");
            assert!(
                text.contains("is an asynchronous copy's, in flight until the wait"),
                "{file} {s}: {text}"
            );
        }
    }
}
