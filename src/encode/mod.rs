//! Encoding: a prepared kernel (after [`crate::passes::prepare`]) becomes SMT-LIB2 scripts and
//! one query per property instance, under a thread model.
//!
//! Module map:
//!
//! - `terms`: shared term building (atoms, connectives, literals, sorts, symbols, the
//!   per-thread symbols of builtins), used by every model.
//! - `pair`: the pair model, SSA over two symbolic threads with the equality abstraction of
//!   shared state; entry points [`encode`] and [`encode_with`] (k threads, for [`bank`]). Its
//!   encoder is also the engine of the concrete model.
//! - [`concrete`]: the concrete model of `gpug check`, every thread of a fixed launch, with
//!   [`schedule`] (schedule IDs) and `fold` (constant folding, memory overlay); entry point
//!   [`concrete::encode_concrete`].
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
mod terms;
mod witness;

pub use concrete::schedule;
pub use pair::{Access, Benign, Check, EncodeOptions, Encoded, MemoryModel, Property, encode, encode_with};
pub use terms::thread_symbol;
pub use witness::{AccessKind, Finding, FindingKind, WitnessAccess};

#[cfg(test)]
mod tests;
