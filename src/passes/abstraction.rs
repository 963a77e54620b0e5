//! Loop abstraction (PUG §6, ARCHITECTURE.md "Loops"): a loop that is not unrolled is summarized by
//! one arbitrary iteration.
//!
//! Input: a `Loop` and the environment before it. Output: one [`AbstractLoop`] whose parts are
//! prepared (nested loops treated, `Break`/`Continue` made `Exit(brk)`/`Exit(cont)`), whose
//! leading `__invariant`s are taken out as invariants, whose leading `if (d) break;`
//! statements are folded into the test (`while (c && !d)`), and whose assigned variables are
//! split into closed forms ([`super::closed_form`]) and havocked ones; with the arrays it
//! writes and its barriers per iteration when that number is fixed. Nothing the loop assigns
//! is a known constant inside or after it.

use super::closed_form::closed_form;
use super::{LoopParts, LoopTreatment, Preparer, not};
use crate::ir::eval::Env;
use crate::ir::query::{assigned_vars, contains_barrier, grid_barriers, has_exit, leaves, mentions, written_arrays};
use crate::ir::{AbstractLoop, BinOp, BlockId, Expr, LoopInvariant, Stmt, StmtKind, Ty, VarId};
use std::collections::BTreeSet;

impl Preparer<'_> {
    /// Builds the abstraction of a loop that is not unrolled (PUG §6): nested loops are
    /// prepared first, `break`/`continue` become exits, and the loop-carried variables are
    /// classified into closed forms and havocked ones.
    pub(super) fn abstract_loop(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env) -> (Stmt, LoopTreatment) {
        let assigned = l.forget_assigned(env);
        let brk = self.kernel.new_block();
        let cont = self.kernel.new_block();
        let mut invariants = Vec::new();
        let mut head_env = env.clone();
        self.loop_targets.push((brk, cont));
        let cond_stmts = self.head(l.cond_stmts, &mut head_env, &mut invariants);
        let mut body = self.head(l.body, &mut head_env, &mut invariants);
        let step = self.block(l.step, &mut head_env);
        self.loop_targets.pop();
        self.exits.remove(&brk);
        self.exits.remove(&cont);
        // A test computed by statements that give the same values in every iteration (an
        // inlined `ceil_div(V, 8)`) runs once before the loop instead, so that the test is a
        // plain comparison with a trip bound (`encode/engine/loops.rs`).
        let mut in_loop = BTreeSet::new();
        assigned_vars(&body, &mut in_loop);
        assigned_vars(&step, &mut in_loop);
        let mut cond_stmts = cond_stmts;
        let mut hoisted = Vec::new();
        if !cond_stmts.is_empty() && invariant_stmts(&cond_stmts, &in_loop) {
            hoisted = std::mem::take(&mut cond_stmts);
        }
        let mut hoisted_vars = BTreeSet::new();
        assigned_vars(&hoisted, &mut hoisted_vars);
        let assigned: BTreeSet<VarId> = assigned.into_iter().filter(|v| !hoisted_vars.contains(v)).collect();
        let mut cond = l.cond.clone();
        if !l.do_while && cond_stmts.is_empty() {
            cond = fold_leading_breaks(cond, &mut body, brk);
        }
        let mut closed = Vec::new();
        let mut havocked = Vec::new();
        for v in &assigned {
            let derived = if self.opts.no_infer {
                None
            } else {
                closed_form(*v, &body, &step, &assigned, cont)
            };
            match derived {
                Some(cf) => closed.push((*v, cf)),
                None => havocked.push(*v),
            }
        }
        let mut written = BTreeSet::new();
        for part in [&cond_stmts, &body, &step] {
            written_arrays(part, &mut written);
        }
        let barriers = barrier_count(&body).filter(|_| {
            barrier_count(&cond_stmts) == Some(0)
                && barrier_count(&step) == Some(0)
                && (!leaves(&body) || breaks_only(&body, brk))
        });
        let treatment = self.treatment(&closed, &havocked, invariants.len());
        let abs = AbstractLoop {
            cond_stmts,
            cond,
            body,
            step,
            do_while: l.do_while,
            brk,
            cont,
            closed,
            havocked,
            written: written.into_iter().collect(),
            barriers,
            invariants,
        };
        let abstracted = Stmt {
            kind: StmtKind::AbstractLoop(Box::new(abs)),
            span: s.span.clone(),
        };
        if hoisted.is_empty() {
            return (abstracted, treatment);
        }
        hoisted.push(abstracted);
        (
            Stmt {
                kind: StmtKind::Block {
                    id: self.kernel.new_block(),
                    body: hoisted,
                },
                span: s.span.clone(),
            },
            treatment,
        )
    }

    /// What the report says about an abstracted loop (temporaries are not named).
    fn treatment<T>(&self, closed: &[(VarId, T)], havocked: &[VarId], invariants: usize) -> LoopTreatment {
        let name = |v: &VarId| self.kernel.var(*v).name.clone();
        LoopTreatment::Abstracted {
            closed: closed.iter().map(|(v, _)| name(v)).collect(),
            havocked: havocked
                .iter()
                .filter(|v| !self.kernel.var(**v).name.starts_with('$'))
                .map(name)
                .collect(),
            invariants,
        }
    }

    /// Prepares the statements at a loop head, taking the `__invariant`s at their start out.
    fn head(&mut self, stmts: &[Stmt], env: &mut Env, invariants: &mut Vec<LoopInvariant>) -> Vec<Stmt> {
        let mut rest = stmts;
        while let Some((first, tail)) = rest.split_first() {
            match &first.kind {
                StmtKind::Invariant { body, cond } => {
                    invariants.push(LoopInvariant {
                        body: body.clone(),
                        cond: cond.clone(),
                        span: first.span.clone(),
                    });
                    rest = tail;
                }
                _ => break,
            }
        }
        self.block(rest, env)
    }
}

/// Whether `stmts` (a loop's test statements) give the same values in every iteration, so
/// that running them once before the loop changes nothing: assignments (whose expressions are
/// pure) of variables that the loop's body and step (`in_loop`) never assign, each assigned
/// once and read only after its assignment, from values the body and step never assign; and
/// blocks of such statements that an inlined `return` leaves (an `exit` of the block itself,
/// last). No load, barrier, call or other statement.
fn invariant_stmts(stmts: &[Stmt], in_loop: &BTreeSet<VarId>) -> bool {
    let mut mine = Vec::new();
    assigned_vars(stmts, &mut mine);
    let mut pending: BTreeSet<VarId> = mine.iter().copied().collect();
    if pending.len() != mine.len() || pending.iter().any(|v| in_loop.contains(v)) {
        return false;
    }
    fn walk(stmts: &[Stmt], in_loop: &BTreeSet<VarId>, pending: &mut BTreeSet<VarId>) -> bool {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    if mentions(value, in_loop) || mentions(value, pending) {
                        return false;
                    }
                    pending.remove(var);
                }
                StmtKind::Block { id, body } => {
                    let rest = match body.split_last() {
                        Some((last, rest)) if last.kind == StmtKind::Exit(*id) => rest,
                        _ => &body[..],
                    };
                    if !walk(rest, in_loop, pending) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        true
    }
    walk(stmts, in_loop, &mut pending)
}

/// `while (c) { if (d) break; … }` is `while (c && !d) { … }`: the test then bounds the
/// iterations (normalization needs the exit condition in the test). Takes those `if`s out of
/// `body` and returns the test.
fn fold_leading_breaks(mut cond: Expr, body: &mut Vec<Stmt>, brk: BlockId) -> Expr {
    while let Some(StmtKind::If { cond: d, then, els }) = body.first().map(|s| &s.kind) {
        if !(els.is_empty() && then.len() == 1 && then[0].kind == StmtKind::Exit(brk)) {
            break;
        }
        let not_d = not(d.clone());
        cond = match &cond {
            Expr::Const { ty: Ty::Bool, value } if *value == 1.into() => not_d,
            _ => Expr::Binary {
                op: BinOp::LAnd,
                lhs: Box::new(cond),
                rhs: Box::new(not_d),
                ty: Ty::Bool,
            },
        };
        body.remove(0);
    }
    cond
}

/// Whether `body` leaves its loop only by `break` (`Exit(brk)`), with no grid barrier: a
/// thread then runs every barrier of each iteration it finishes, so the count of barriers per
/// iteration stays fixed; one that breaks leaves after the barriers before its `break`, which
/// the encoder counts at the exit (`encode/engine/loops.rs`, `break_positions`).
fn breaks_only(body: &[Stmt], brk: BlockId) -> bool {
    let Some(first) = body.first() else {
        return true;
    };
    let wrapped = Stmt {
        kind: StmtKind::Block {
            id: brk,
            body: body.to_vec(),
        },
        span: first.span.clone(),
    };
    grid_barriers(body) == 0 && !leaves(std::slice::from_ref(&wrapped))
}

/// The number of barriers `stmts` run, when every one runs unconditionally (at the top level
/// or in blocks no exit leaves early); `None` when some barrier is under a condition, in a
/// loop, or in a block with an exit (an inlined `return`, a forward `goto`). Exits that leave
/// `stmts` themselves are the caller's to check ([`leaves`]).
fn barrier_count(stmts: &[Stmt]) -> Option<u32> {
    let mut n = 0;
    for s in stmts {
        match &s.kind {
            StmtKind::Barrier(..) => n += 1,
            StmtKind::Block { body, .. } if has_exit(body) && contains_barrier(body) => return None,
            StmtKind::Block { body, .. } => n += barrier_count(body)?,
            _ if contains_barrier(std::slice::from_ref(s)) => return None,
            _ => {}
        }
    }
    Some(n)
}
