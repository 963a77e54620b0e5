//! Pointers converted to integers and back (issue 55 item 4; llm.c's `atomicAddX` in
//! `dev/cuda/layernorm_backward.cu`): an array's address is a kernel parameter `NAME$addr`
//! aligned to its element, a pointer's integer value is that plus the byte offset, and an
//! integer computed from one pointer is a pointer into its array again
//! (`src/frontend/lower/addr.rs`). Each kernel of `tests/kernels/ptr_int/` against the
//! expectation on its first line.

mod common;

use common::check_kernel_dir;

/// Every kernel of `tests/kernels/ptr_int` against its first line, with z3, cvc5 and yices.
#[test]
fn pointer_integer_kernels_verdicts() {
    check_kernel_dir("tests/kernels/ptr_int", 5);
}
