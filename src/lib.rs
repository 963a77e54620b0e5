//! gpug: a verifier for CUDA kernels in the style of PUG (FSE 2010).
//!
//! The pipeline (DESIGN.md): [`frontend`] (clang's JSON AST to [`ir`]) → [`passes`] →
//! [`encode`] (SSA to SMT-LIB2 queries) → [`solver`] (solver processes) → [`verdict`] (plain
//! result data) → [`report`].
//! [`driver`] runs it for the command line in [`cli`].

pub mod cli;
pub mod driver;
pub mod encode;
pub mod frontend;
pub mod ir;
pub mod passes;
pub mod report;
pub mod solver;
pub mod verdict;
