//! Solver processes over easy-smt. (stub, being written)
pub mod sexp;
pub use sexp::{Answer, Command, Query, Script, Sexp};
// stub API (replaced by the real one)
#[derive(Clone, Debug, PartialEq)] pub struct SolverSpec { pub name: String, pub program: String, pub args: Vec<String> }
#[derive(Debug, thiserror::Error)] pub enum SolverError { #[error("x")] X }
pub struct SessionOptions { pub timeout: Option<std::time::Duration>, pub dump_dir: Option<std::path::PathBuf> }
pub struct Session;
impl Session { pub fn new(_: &SolverSpec, _: &Script, _: SessionOptions) -> Result<Session, SolverError> { Err(SolverError::X) } pub fn check(&mut self, _: &Query) -> Result<Answer, SolverError> { Err(SolverError::X) } }
pub fn by_name(_: &str) -> Result<SolverSpec, SolverError> { Err(SolverError::X) }
pub fn default_solver() -> Result<SolverSpec, SolverError> { Err(SolverError::X) }
pub fn from_command(_: &str) -> Result<SolverSpec, SolverError> { Err(SolverError::X) }
pub fn available() -> Vec<(SolverSpec, Result<String, SolverError>)> { vec![] }
