//! The pair model (races, barrier divergence, the pair's assertions): the engine
//! ([`super::engine`]) run for two symbolic threads with the equality abstraction of shared
//! state, and every property check. A prepared kernel becomes one SMT-LIB2 script (its
//! transition formula for two symbolic threads) and one [`Check`] per property instance.
//!
//! Why two threads stand for all (Donaldson's ENS Lyon lecture 1, Bardsley and Donaldson (NFM 2014)
//! §2.3; PUG §5): the first race of any execution is between some pair of threads, and up to it
//! that pair sees exactly what the equality abstraction gives it (the interval's fresh memory and
//! its own writes). ARCHITECTURE.md "Soundness" gathers the argument with the other models'.
//!
//! The pair model's own parts of the interpretation live beside this file: `equality` (the
//! equality abstraction of shared state at barriers, copies and warp statements), `adversarial`
//! (which arrays it sets apart: adversarial, clobbered, counters), `uniform` (the uniformity
//! analysis of abstracted loops) and `no_wrap` (the whole-launch no-wrap facts of a launch
//! contract); `state` holds its state in the engine. The engine's `Model::pair` says where the pair's own checks and reasoning apply.
//!
//! Must not: import another model (`concrete`, `bank`); what the models share is in
//! [`super::engine`].

pub(in crate::encode) mod adversarial;
mod equality;
mod no_wrap;
pub(in crate::encode) mod state;
pub(in crate::encode) mod uniform;

#[cfg(doc)]
use super::Check;
use super::{EncodeOptions, Encoded, encode_with};
use crate::ir::Kernel;
use crate::ir::eval::Geometry;

impl EncodeOptions {
    /// The pair model with all checks (the [`Default`]).
    pub fn pair() -> EncodeOptions {
        EncodeOptions::default()
    }
}

/// Encodes `kernel` (after [`crate::passes::prepare`], so without loops) for the pair model
/// under `geometry`.
pub fn encode(kernel: &Kernel, geometry: &Geometry) -> Result<Encoded, crate::memory::Exceeded> {
    encode_with(kernel, geometry, &EncodeOptions::pair())
}
