//! Encoding: a prepared kernel (after [`crate::passes::prepare`]) becomes SMT-LIB2 scripts and
//! one query per property instance, under a thread model.
//!
//! Module map:
//!
//! - `terms`: shared term building (atoms, connectives, literals, sorts, symbols, the
//!   per-thread symbols of builtins), used by every model.
//! - `ssa`: the SSA engine every model runs (threads in lock step, their states and path
//!   conditions, the script and the property checks); entry point [`encode_with`], with its
//!   hooks for the concrete model: `fold` (constant folding, memory overlay), [`schedule`]
//!   (schedule IDs), `reads` (what an assertion read).
//! - `pair`: the pair model, the engine over two symbolic threads with the equality
//!   abstraction of shared state; entry point [`encode`].
//! - [`concrete`]: the concrete model of `gpug check`, every thread of a fixed launch; entry
//!   point [`concrete::encode_concrete`].
//!
//! The models (`pair`, [`concrete`], [`bank`]) import `ssa`, never one another.
//! - [`bank`]: shared-memory bank-conflict queries over k threads of one warp.
//! - [`nonlinear`]: mixed-radix lemmas and the linear relaxation of symbolic products.
//! - `float`: floats in SMT-LIB's FloatingPoint theory (`--float ieee`).
//! - `witness`: a solver's model read back into a [`Finding`].
//!
//! Owns SSA, the thread models and the SMT-LIB2 terms of each property instance. Does not run a
//! solver (`solver`), decide verdicts (`driver`) nor print (`report`).

pub mod bank;
pub mod concrete;
mod float;
pub mod nonlinear;
mod pair;
mod ssa;
mod terms;
mod witness;

pub use pair::encode;
pub use ssa::schedule;
pub use ssa::{Access, Benign, Check, EncodeOptions, Encoded, IndexFits, MemoryModel, Property, encode_with};
pub use terms::thread_symbol;
pub use witness::{AccessKind, Finding, FindingKind, WitnessAccess};

#[cfg(test)]
mod tests;
