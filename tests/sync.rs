//! Fences, spin locks and flags (issue 22; `src/encode/pair/sync.rs`): what a lock orders
//! (critical sections of one word, with atomics and fences whose scopes hold both threads) and
//! what it does not (two lock words, a release before its fence, a lock array written
//! otherwise); what a flag orders (a release pattern observed by an acquire pattern, also in a
//! loop) and what it does not (another word, a block-scope read across blocks, a plain store,
//! a fence alone), and the inconclusive verdict when a flag word may be written twice; each
//! with z3, cvc5 and yices.

mod common;

use common::check_kernel_dir;

#[test]
fn fences_locks_and_flags() {
    check_kernel_dir("tests/kernels/sync", 11);
}
