//! `std::min`/`std::max` returning a reference (`const int &m = std::min(a, b);`, issue 55
//! item 4): the reference is the place of the smaller (larger) argument, so a later write to
//! it by another thread races with a read through the reference
//! (`tests/kernels/minmax_ref/`, each against the expectation on its first line).

mod common;

use common::check_kernel_dir;

/// Every kernel of `tests/kernels/minmax_ref` against its first line, with z3, cvc5 and
/// yices.
#[test]
fn minmax_ref_kernels_verdicts() {
    check_kernel_dir("tests/kernels/minmax_ref", 3);
}
