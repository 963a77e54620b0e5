//! GPUVerify's access logs, the instrumentation behind `__read(p)`, `__write(p)`,
//! `__read_offset_bytes(p)`, … (Donaldson's ENS Lyon lecture 1, "Race checking instrumentation",
//! and lecture 2, "Implementing LOG_READ_A"): for each array an annotation asks about, each thread
//! keeps
//!
//! - `READ_HAS_OCCURRED_A` (`has`): it has logged a read of `A` since the last barrier;
//! - `READ_OFFSET_A` (`off`): the byte offset of the logged read.
//!
//! Each read of `A` is logged or not, by a nondeterministic choice (`if (*) { has = true; off
//! = offset; }`), so a condition over the log that holds on every path holds for every read
//! since the barrier; `barrier()` empties the log (`has = false`, "Implementing barrier()"),
//! and so does the kernel's entry ("Initially, no reads or writes are logged"). Writes and
//! atomics have logs of their own. The logs are ordinary variables of the kernel, so the
//! passes treat them like any other (an abstracted loop that accesses `A` makes them arbitrary
//! at its head, where its invariants constrain them, as in GPUVerify).
//!
//! The log of an access is taken just before it, where its offset has the value the access
//! uses. Loads and stores of `__ensures` bodies are not accesses of the kernel (they read the
//! final memory) and are not logged. Knows nothing of clang's AST: it rewrites lowered
//! statements.

use crate::frontend::lower::builtin::table::LogKind;
use crate::ir::{ArrayId, Expr, Span, Stmt, StmtKind, Ty, VarId};

/// The log of one kind of access to one array, as variables of the kernel.
#[derive(Clone, Debug)]
pub(in crate::frontend) struct AccessLog {
    pub(in crate::frontend) array: ArrayId,
    pub(in crate::frontend) kind: LogKind,
    /// `Bool`: an access has been logged since the last barrier.
    pub(in crate::frontend) has: VarId,
    /// `unsigned long`: the logged access's byte offset.
    pub(in crate::frontend) off: VarId,
    /// `Bool`: the nondeterministic choice to log an access.
    pub(in crate::frontend) choice: VarId,
}

/// The unsigned 64-bit type of byte offsets in the logs (`size_t`).
pub(in crate::frontend) const OFFSET_TY: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

/// `body` with every access to a logged array logged just before it, every log emptied after
/// each barrier and at the start.
pub(in crate::frontend) fn instrument(body: Vec<Stmt>, logs: &[AccessLog]) -> Vec<Stmt> {
    if logs.is_empty() {
        return body;
    }
    let mut out = Vec::new();
    if let Some(first) = body.first() {
        out.extend(empty(logs, first));
    }
    out.extend(block(body, logs));
    out
}

fn block(stmts: Vec<Stmt>, logs: &[AccessLog]) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        stmt(s, logs, &mut out);
    }
    out
}

/// Appends `s` to `out`, with the logging of its access before it, its blocks instrumented,
/// and the logs emptied after it if it is a barrier.
fn stmt(mut s: Stmt, logs: &[AccessLog], out: &mut Vec<Stmt>) {
    let take = |v: &mut Vec<Stmt>| block(std::mem::take(v), logs);
    let span = s.span.clone();
    match &mut s.kind {
        StmtKind::Load { array, offset, .. } => log(logs, *array, LogKind::Read, Some(offset), &span, out),
        StmtKind::Store { array, offset, .. } => log(logs, *array, LogKind::Write, Some(offset), &span, out),
        StmtKind::Atomic { array, offset, .. } => log(logs, *array, LogKind::Atomic, Some(offset), &span, out),
        // A possible write anywhere in the array (a call without a body): logged as a write at
        // an arbitrary offset, so `__no_write` cannot be proven across it.
        StmtKind::Clobber { array, .. } => log(logs, *array, LogKind::Write, None, &span, out),
        StmtKind::If { then, els, .. } => {
            *then = take(then);
            *els = take(els);
        }
        StmtKind::Loop {
            cond_stmts, body, step, ..
        } => {
            *cond_stmts = take(cond_stmts);
            *body = take(body);
            *step = take(step);
        }
        StmtKind::Block { body, .. } => *body = take(body),
        // Made by the passes, after the front end: nothing to do, kept exhaustive.
        StmtKind::AbstractLoop(l) => {
            l.cond_stmts = take(&mut l.cond_stmts);
            l.body = take(&mut l.body);
            l.step = take(&mut l.step);
        }
        StmtKind::Barrier(..) => {
            let reset = empty(logs, &s);
            out.push(s);
            out.extend(reset);
            return;
        }
        // An invariant's reads are the check's, not the thread's, and a snapshot is no
        // access (GPUVerify logs neither): not logged.
        StmtKind::Ensures { .. }
        | StmtKind::ArraySnapshot { .. }
        | StmtKind::BarrierInvariant(_)
        | StmtKind::Assign { .. }
        | StmtKind::Havoc { .. }
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::WarpBarrier(_)
        | StmtKind::Fence(_)
        | StmtKind::Sync(_)
        | StmtKind::Shuffle { .. }
        | StmtKind::Vote { .. }
        | StmtKind::Assert { .. }
        | StmtKind::Assume { .. }
        | StmtKind::Exit(_)
        | StmtKind::Return
        | StmtKind::Invariant { .. } => {}
    }
    out.push(s);
}

/// `LOG_KIND_A(offset)` for the access at `span` when `array`'s `kind` is logged:
/// `choice = *; if (choice) { has = true; off = offset; }`. With no offset (a clobber, logged
/// as a write anywhere: `LOG_WRITE_A(*)`) the logged offset is arbitrary: `off = *`.
fn log(logs: &[AccessLog], array: ArrayId, kind: LogKind, offset: Option<&Expr>, span: &Span, out: &mut Vec<Stmt>) {
    let Some(l) = logs.iter().find(|l| l.array == array && l.kind == kind) else {
        return;
    };
    let at = |kind: StmtKind| Stmt {
        kind,
        span: span.clone(),
    };
    out.push(at(StmtKind::Havoc { var: l.choice }));
    let off = match offset {
        Some(offset) => StmtKind::Assign {
            var: l.off,
            value: Expr::Cast {
                arg: Box::new(offset.clone()),
                ty: OFFSET_TY,
            },
        },
        None => StmtKind::Havoc { var: l.off },
    };
    let then = vec![
        at(StmtKind::Assign {
            var: l.has,
            value: Expr::bool(true),
        }),
        at(off),
    ];
    out.push(at(StmtKind::If {
        cond: Expr::Var {
            id: l.choice,
            ty: Ty::Bool,
        },
        then,
        els: Vec::new(),
    }));
}

/// `has = false` for every log, at `s`'s span.
fn empty(logs: &[AccessLog], s: &Stmt) -> Vec<Stmt> {
    logs.iter()
        .map(|l| Stmt {
            kind: StmtKind::Assign {
                var: l.has,
                value: Expr::bool(false),
            },
            span: s.span.clone(),
        })
        .collect()
}
