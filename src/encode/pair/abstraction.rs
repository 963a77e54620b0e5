//! The pair model's abstraction of shared state (GPUVerify's equality abstraction): at each
//! barrier every shared and global array becomes a fresh array that both threads see; arrays
//! touched by an atomic are adversarial, every read from them fresh.
//!
//! Does not count barriers nor check divergence (`barriers`).

use crate::ir::{ArrayId, Stmt, StmtKind};

/// The arrays that an atomic of `stmts` touches (with repetitions), appended to `out`.
pub(super) fn collect_atomic_arrays(stmts: &[Stmt], out: &mut Vec<ArrayId>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Atomic { array, .. } => out.push(*array),
            StmtKind::If { then, els, .. } => {
                collect_atomic_arrays(then, out);
                collect_atomic_arrays(els, out);
            }
            StmtKind::Block { body, .. } => collect_atomic_arrays(body, out),
            StmtKind::Loop {
                cond_stmts, body, step, ..
            } => {
                collect_atomic_arrays(cond_stmts, out);
                collect_atomic_arrays(body, out);
                collect_atomic_arrays(step, out);
            }
            _ => {}
        }
    }
}
