//! The lock-step warp model (`--warp-sync=N`, Bardsley and Donaldson (NFM 2014) section 3): what it
//! orders inside a warp (statements, branches), what it does not (two writes of one statement,
//! threads of different warps), and what values it keeps (reads with no write between them agree; a
//! write by the warp forgets the array); warp barriers of part of a warp (`__syncwarp(mask)`, tiles
//! of 16) and what they order; shuffles' values (the other thread's when it is the source lane) and
//! masks naming lanes that do not call them; each with z3, cvc5 and yices.

mod common;

use common::check_kernel_dir;

#[test]
fn lockstep_warps() {
    check_kernel_dir("tests/kernels/warps", 15);
}
