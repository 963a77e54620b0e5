//! Solver processes over easy-smt. (stub, being written)
pub mod sexp;
pub use sexp::{Answer, Command, Query, Script, Sexp};
