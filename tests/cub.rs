//! CUB's `cub::BlockReduce` by its documented contract (issue 55 item 3): its `TempStorage`
//! reused without a `__syncthreads()` races, with one does not, and a call some threads of
//! the block skip is barrier divergence (`tests/kernels/cub/`, each against the expectation
//! on its first line). Needs CUDA 12.8's headers (CCCL) and clang 19.

mod common;

use common::check_kernel_dir;

/// Every kernel of `tests/kernels/cub` against its first line, with z3, cvc5 and yices.
#[test]
fn cub_kernels_verdicts() {
    check_kernel_dir("tests/kernels/cub", 3);
}
