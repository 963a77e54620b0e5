//! Collectives' values (issue 53 item 6): the result of `cg::reduce` over a tile and of
//! `__reduce_*_sync` is the same in every lane of its group at one call, so lanes storing it
//! to one place race benignly, while lanes of different groups (other warps, other tiles of
//! one warp) or lanes that change it race; each with z3, cvc5 and yices. A tile's shuffle of a
//! struct (cuda-samples' shfl_scan) is a value not modelled, its argument read.

mod common;

use common::check_kernel_dir;

#[test]
fn collective_results_are_shared_by_their_group() {
    check_kernel_dir("tests/kernels/collectives", 11);
}
