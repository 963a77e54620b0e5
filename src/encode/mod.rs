//! Encoding: a prepared kernel (after [`crate::passes::prepare`]) becomes SMT-LIB2 scripts and
//! one query per property instance, under a thread model.
//!
//! An engine and its models. The engine (`engine`) is the lock-step symbolic interpreter every
//! model runs: threads execute the kernel statement by statement, each with its own SSA state
//! and path condition, building one script and the checks. What differs between the models is
//! asked of one `engine::Model` (two symbolic threads or k of them, the equality abstraction
//! or one serialized memory, which threads a check asks about), never by counting threads.
//! The models are its clients, each in its own room with its own state:
//!
//! - `pair`: the pair model, two symbolic threads standing for any two, with the equality
//!   abstraction of shared state (`pair/equality.rs`, the adversarial arrays and counters in
//!   `pair/adversarial.rs`), the uniformity analysis and the launch contracts' no-wrap
//!   facts; entry point [`encode`].
//! - [`concrete`]: the concrete model of `gpug check`, every thread of a fixed launch pinned,
//!   with its memory overlay, schedule IDs (`concrete/schedule.rs`) and what an assertion read
//!   (`concrete/state.rs` holds its state); entry point [`concrete::encode_concrete`].
//! - [`bank`]: shared-memory bank-conflict queries over k threads of one warp
//!   ([`encode_with`] with `threads: k`).
//!
//! Beside them: `options` ([`EncodeOptions`], whose default is the pair model), `property`
//! (what the queries ask: [`Property`], [`Check`], [`Access`], [`Encoded`]), `terms` (shared
//! term building: atoms, connectives, literals, sorts, symbols), [`nonlinear`] (mixed-radix
//! lemmas and the linear relaxation of symbolic products), `float` (floats in SMT-LIB's
//! FloatingPoint theory, `--float ieee`) and `witness` (a solver's model read back into a
//! [`Finding`]).
//!
//! The models import the engine, never one another. The engine holds the rooms' state types
//! and calls their parts of the interpretation (methods of its one `Encoder`, such as the
//! equality abstraction at a barrier or the concrete overlay's loads) where its `Model` says
//! so; of their code it imports only the pair room's kernel analyses (`pair/adversarial.rs`).
//!
//! Owns the thread models and the SMT-LIB2 terms of each property instance. Does not run a
//! solver (`solver`), decide verdicts (`driver`) nor print (`report`).

pub mod bank;
pub mod concrete;
mod engine;
mod float;
pub mod nonlinear;
mod options;
mod pair;
mod property;
mod terms;
mod witness;

pub use engine::{SIGNED_OK, encode_with};
pub use options::{Benign, EncodeOptions, IndexFits, MemoryModel};
pub use pair::encode;
pub use property::{Access, Check, Encoded, InvariantCheck, Property};
pub use terms::thread_symbol;
pub use witness::{AccessKind, Finding, FindingKind, WitnessAccess};

#[cfg(test)]
mod tests;
