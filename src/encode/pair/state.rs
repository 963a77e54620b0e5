//! The pair model's own state in the engine ([`PairState`]): the equality abstraction's
//! counters and written arrays, and the pair's groupings of warps. Types only: the engine
//! holds one, `equality` and the engine's barrier and shuffle files fill it in.

use crate::ir::{ArrayId, WarpLanes};
use crate::solver::Sexp;
use std::collections::BTreeSet;

/// The pair model's part of the engine's state (empty in the other models).
#[derive(Default)]
pub(in crate::encode) struct PairState {
    /// The adversarial arrays that are counters (`adversarial::counter_arrays`), and each
    /// call on them whose old value a thread keeps: (array, thread, path condition, byte
    /// offset, old value).
    pub(in crate::encode) counters: Vec<(ArrayId, bool)>,
    pub(in crate::encode) counter_calls: Vec<(ArrayId, usize, Sexp, Sexp, Sexp)>,
    /// The arrays the kernel writes anywhere (stores, atomics, clobbers), computed at the
    /// first barrier: the others keep their memory across barriers (`equality`).
    pub(in crate::encode) written: Option<BTreeSet<ArrayId>>,
    /// The groupings of the warp barriers met so far (at most the engine's
    /// `MAX_WARP_GROUPINGS`), each with its `warp.g<k>` (the two threads are of one group of
    /// it, both members), defined at its first barrier. Grouping `k` counts in bits
    /// `16k..16k+16` of each thread's `wc`.
    pub(in crate::encode) warp_groups: Vec<(WarpLanes, Sexp)>,
    /// `same_warp` (the two threads are of one block and one warp of 32), defined at the
    /// first shuffle that needs it.
    pub(in crate::encode) same_warp: Option<Sexp>,
    /// `lockstep_warp` (the two threads are of one warp of `EncodeOptions::lockstep`'s size),
    /// once defined.
    pub(in crate::encode) lockstep_warp: Option<Sexp>,
}
