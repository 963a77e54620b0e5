//! What differs between the thread models the engine runs ([`Model`]). The engine asks the
//! model, never "how many threads": each question is one match here.
//!
//! - The pair model (`pair/`): two symbolic threads that stand for any two, shared state under
//!   the equality abstraction, and the pair's own checks and reasoning (races, divergence,
//!   barrier and relational invariants, warp barriers, shuffles between the two). The bank
//!   model's encoding for two threads is this one without checks.
//! - The bank model (`bank.rs`): k symbolic threads (k ≠ 2) of one warp under the equality
//!   abstraction, no checks: only their accesses are read.
//! - The concrete model (`concrete/`): every thread of a launch pinned to its coordinates, one
//!   serialized memory, assertion checks per thread.

use crate::encode::options::{EncodeOptions, MemoryModel};

/// The thread model an encoding runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::encode) enum Model {
    /// Two symbolic threads, equality abstraction.
    Pair,
    /// k symbolic threads (k ≠ 2), equality abstraction.
    Bank,
    /// Every thread of a concrete launch, one serialized memory.
    Concrete,
}

impl Model {
    /// The model of an encoding with `opts`.
    pub(in crate::encode) fn of(opts: &EncodeOptions) -> Model {
        match (opts.memory, opts.threads) {
            (MemoryModel::Serialized, _) => Model::Concrete,
            (MemoryModel::EqualityAbstraction, 2) => Model::Pair,
            (MemoryModel::EqualityAbstraction, _) => Model::Bank,
        }
    }

    /// Two symbolic threads that stand for any two: the pair's checks (races, divergence,
    /// collectives), barrier invariants, relational loop invariants, warp barriers ordering
    /// accesses, the other thread as a shuffle's source, the uniformity analysis, the second
    /// thread's own shared memory when it is of another block.
    pub(in crate::encode) fn pair(self) -> bool {
        match self {
            Model::Pair => true,
            Model::Bank | Model::Concrete => false,
        }
    }

    /// Shared state under the equality abstraction (`pair/equality.rs`): fresh arrays at
    /// barriers and work-group copies, adversarial atomics, counters, fences, locks and flags
    /// ordering accesses; otherwise one serialized memory that no fence changes.
    pub(in crate::encode) fn equality_abstraction(self) -> bool {
        match self {
            Model::Pair | Model::Bank => true,
            Model::Concrete => false,
        }
    }

    /// Every thread is pinned to its coordinates (once the concrete model has pinned them):
    /// a shuffle's source lane is exact.
    pub(in crate::encode) fn pinned(self) -> bool {
        match self {
            Model::Concrete => true,
            Model::Pair | Model::Bank => false,
        }
    }

    /// How many of the `n` threads a check of one thread's property (an assertion, a signed
    /// overflow, a loop invariant) asks about, from thread 1 on: one where the threads are
    /// symmetric symbolic ones (thread 1 stands for all), every thread where they are pinned.
    pub(in crate::encode) fn checked_threads(self, n: usize) -> usize {
        match self {
            Model::Pair | Model::Bank => 1,
            Model::Concrete => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_decide_the_model() {
        let of = |threads, memory| {
            Model::of(&EncodeOptions {
                threads,
                memory,
                ..Default::default()
            })
        };
        assert_eq!(Model::of(&EncodeOptions::default()), Model::Pair);
        // The bank model's encoding for two threads is the pair model's, without checks.
        assert_eq!(of(2, MemoryModel::EqualityAbstraction), Model::Pair);
        assert_eq!(of(4, MemoryModel::EqualityAbstraction), Model::Bank);
        assert_eq!(of(2, MemoryModel::Serialized), Model::Concrete);
        assert_eq!(Model::Pair.checked_threads(2), 1);
        assert_eq!(Model::Concrete.checked_threads(8), 8);
        assert!(Model::Bank.equality_abstraction() && !Model::Bank.pair() && !Model::Bank.pinned());
    }
}
