//! Runs the stages for each command: front end, passes, encoding, solver sessions, verdicts.
//!
//! Owns: the one [`pipeline`] (read and lower a file once, then per kernel build the models
//! and ask the queries of one [`Command`]), the three commands ([`verify`]: races and
//! divergence; [`check`]: assertions in the concrete model; [`bank`]: bank conflicts), and the
//! one [`Error`] type at the driver's boundary; `verify`'s refinement loop of relaxed queries is
//! `refinement`. Results are [`crate::verdict`] data.
//! Must not: print (that is `report`'s and `cli`'s job) or build SMT terms itself.

pub mod bank;
pub mod check;
mod contracts;
pub mod pipeline;
mod refinement;
pub mod show;
pub mod verify;

pub use pipeline::{Command, RunOptions, run, run_reporting};
pub use verify::VerifyOptions;

use crate::encode::concrete::ConcreteError;
use crate::frontend::FrontendError;
use crate::solver::SolverError;

/// Errors that stop the analysis of a file (exit code 2): input the command cannot analyse,
/// the front end's errors, a solver that cannot be started or refuses the formula (one that
/// dies during a query makes the result inconclusive instead).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// clang missing or failing, an unsupported construct, no such kernel.
    #[error(transparent)]
    Frontend(#[from] FrontendError),
    /// A solver that cannot be started, or refused the formula when started.
    #[error("solver: {0}")]
    Solver(#[from] SolverError),
    /// The concrete model of `gpug check` cannot be built (a symbolic launch, too many
    /// threads, an unknown `--kernel-args` name).
    #[error("{0}")]
    Concrete(#[from] ConcreteError),
    /// `gpug bank` without `--blockDim`: which threads share a warp depends on the block's
    /// shape.
    #[error(
        "bank-conflict analysis needs a concrete block size: give --blockDim (warps are formed from linear thread ids, which depend on blockDim)"
    )]
    SymbolicBlock,
    /// The bank model cannot describe an access (e.g. one thread touching two words of one
    /// bank).
    #[error("{0}")]
    BankModel(String),
    /// gpug's memory passed `--max-memory` ([`crate::memory`]): the kernel being analysed is
    /// inconclusive with this reason ([`pipeline::run`]); before any kernel was read, the file.
    #[error(transparent)]
    Memory(#[from] crate::memory::Exceeded),
    /// A stage left a kernel's IR not well formed ([`crate::ir::validate`]): a bug of gpug,
    /// named with the pass and the statement, never a verdict.
    #[error(transparent)]
    Internal(#[from] Box<crate::ir::validate::Invalid>),
}

impl Error {
    /// Whether this is the memory bound ([`Error::Memory`], also as the front end's or the
    /// concrete model's error): an inconclusive result, not an input error.
    pub fn is_memory(&self) -> bool {
        self.memory().is_some()
    }

    /// The memory bound's reason, wherever it was raised.
    pub fn memory(&self) -> Option<&crate::memory::Exceeded> {
        match self {
            Error::Memory(e) | Error::Frontend(FrontendError::Memory(e)) => Some(e),
            Error::Concrete(ConcreteError::Memory(e)) => Some(e),
            _ => None,
        }
    }
}
