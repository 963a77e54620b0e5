//! CUDA's warp matrix functions (`nvcuda::wmma`, tensor cores) end to end with z3, cvc5 and
//! yices (`tests/kernels/wmma/`, each against the expectation on its first line): fragments
//! and arrays of them as per-thread data, tile loads and stores as each lane's share of the
//! tile (disjoint per-warp tiles verify; overlapping tiles, a leading dimension narrower than
//! the tile, a shifted in-place store and shared-memory staging without a barrier or
//! `__syncwarp` are races), the element types from half to double, and the sub-byte types
//! refused.

mod common;

use common::check_kernel_dir;

#[test]
fn warp_matrix_functions() {
    check_kernel_dir("tests/kernels/wmma", 12);
}
