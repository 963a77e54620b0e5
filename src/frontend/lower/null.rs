//! OpenCL's null pointers (GPUVerify's `testsuite/OpenCL/null_pointers`): a null pointer
//! (`0`, `NULL`) points into an array of its own, [`NULL`], of private memory (so it never
//! races), and every load, store or atomic on it is preceded by an assertion of `false`: a
//! thread that can reach it makes a defect ("assertion may fail" at the access, with a witness),
//! whatever path led the pointer there (a pointer that is null on one path is a pointer into
//! one of two arrays, `target.rs`, and only that path's access asserts).
//!
//! CUDA kernels keep refusing a null pointer used as a pointer (`None` in `Lower::null`).

use crate::ir::visit::insert_before_accesses;
use crate::ir::{ArrayId, Expr, Kernel, Stmt, StmtKind};

/// The name of the array null pointers point into.
pub(super) const NULL: &str = "NULL";

/// Inserts `assert(false)` before every access of `k` to `null`, with a note naming the
/// accesses; does nothing when there is none.
pub(super) fn check_accesses(k: &mut Kernel, null: ArrayId) {
    let mut lines = Vec::new();
    insert_before_accesses(&mut k.body, &mut |s| match &s.kind {
        StmtKind::Load { array, .. } | StmtKind::Store { array, .. } | StmtKind::Atomic { array, .. }
            if *array == null =>
        {
            lines.push(s.span.line);
            Some(Stmt {
                kind: StmtKind::Assert {
                    cond: Expr::bool(false),
                },
                span: s.span.clone(),
            })
        }
        _ => None,
    });
    lines.dedup();
    if !lines.is_empty() {
        let at: Vec<String> = lines.iter().map(|l| format!("line {l}")).collect();
        k.notes.push(format!(
            "a null pointer may be accessed ({}): such an access is reported as an assertion that fails there",
            at.join(", ")
        ));
    }
}
