//! The pair model (races, barrier divergence, the pair's assertions): the SSA engine
//! ([`super::ssa`]) run for two symbolic threads with the equality abstraction of shared
//! state, and every property check. A prepared kernel becomes one SMT-LIB2 script (its
//! transition formula for two symbolic threads) and one [`Check`] per property instance.
//!
//! Why two threads stand for all (GPUVerify lecture notes `002_…`, paper `000_…` §2.3; PUG
//! §5): the first race of any execution is between some pair of threads, and up to it that
//! pair sees exactly what the equality abstraction gives it (the interval's fresh memory and
//! its own writes). ARCHITECTURE.md "Soundness" gathers the argument with the other models'.
//!
//! Must not: import another model (`concrete`, `bank`); what the models share is in
//! [`super::ssa`].

#[cfg(doc)]
use super::ssa::Check;
use super::ssa::{Benign, EncodeOptions, Encoded, MemoryModel, encode_with};
use crate::ir::Kernel;
use crate::passes::Geometry;

impl EncodeOptions {
    /// The pair model with all checks.
    pub fn pair() -> EncodeOptions {
        EncodeOptions {
            threads: 2,
            memory: MemoryModel::EqualityAbstraction,
            checks: true,
            no_overflow: false,
            index_fits: None,
            benign: Benign::Adversarial,
            preferred: Vec::new(),
            lockstep: None,
            barrier_access_checks: true,
            split_invariants: false,
            only_intra_group: false,
            signed_no_overflow: Vec::new(),
            check_overflow: false,
        }
    }
}

/// Encodes `kernel` (after [`crate::passes::prepare`], so without loops) for the pair model
/// under `geometry`.
pub fn encode(kernel: &Kernel, geometry: &Geometry) -> Result<Encoded, crate::memory::Exceeded> {
    encode_with(kernel, geometry, &EncodeOptions::pair())
}
