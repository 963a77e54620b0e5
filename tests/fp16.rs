//! CUDA's 16-bit floats as real programs use them (issue 42 item 4), end to end with z3, cvc5
//! and yices: `__half`, `__half2`, `__nv_bfloat16` and `__nv_bfloat162` from NVIDIA's headers in
//! arrays, structs and registers, with their conversions, arithmetic and lanes; accesses through
//! them are exact (2-byte elements, 16-byte packs), their values uninterpreted (an index
//! computed from one is arbitrary); value-only inline assembly (the headers' and the kernel's own) is modelled,
//! asm that touches memory stays refused (`tests/kernels/fp16/`, each against the expectation on its
//! first line).

mod common;

use common::check_kernel_dir;

#[test]
fn fp16_and_bf16() {
    check_kernel_dir("tests/kernels/fp16", 18);
}
