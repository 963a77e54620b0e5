//! Uniform variables (GPUVerify's uniformity analysis: Chong et al. (OOPSLA 2013) §3.3, "all
//! threads agree on the value of these variables at each barrier … GPUVerify infers such *uniform*
//! invariants automatically using static analysis"; the pair's lock-step execution, Bardsley and
//! Donaldson (NFM 2014) §2.3): a variable is *uniform* when every thread that reaches a point of
//! the kernel holds the same value in it there. Here: every assignment to it is of an expression of
//! uniform values only (literals, scalar parameters, `blockDim`, `gridDim`, `warpSize`, uniform
//! variables, pure functions of them; never a thread or block index, a value read from memory, an
//! atomic's, a shuffle's or a vote's result) and happens under uniform control only (every
//! enclosing `if` and loop test uniform, and no loop or block around it that a thread may leave
//! early under a condition that is not).
//!
//! What the pair model does with it: an abstracted loop havocs the variables it assigns, each
//! thread its own value; for a uniform one, two threads at the same iteration count whose
//! uniform variables agreed on entry hold the same value there (they ran the same iterations
//! from the same values), and so at the same exit count (and, after a `break` between
//! barriers, the same exit position). That is asserted as an implication, which every
//! execution satisfies: a uniform `break` or test then exits both threads together, and a
//! barrier after it is no divergence.
//!
//! A variable read before it is assigned holds an arbitrary value per thread: the premise
//! that the uniform variables the loop reads agree on entry keeps such values out.
//!
//! *Block-uniform* ([`Level::Block`]): the same rules with the block index uniform too, so the
//! values agree in every thread of one block; what follows from them is asserted only for two
//! threads of one block (`same_block`). A loop whose barriers all run under block-uniform
//! control (its test, its exits and every condition and nested loop around a barrier) runs the
//! same number of barriers per iteration in every thread of a block that enters it with the same
//! block-uniform values: [`LoopUniformity::barriers`], which lets the engine relate the two
//! threads' barrier counts in a loop whose count per iteration is not fixed (a loop around a
//! loop with barriers: `encode/engine/loops.rs`, `uniform_counts`).
//!
//! The pair model's: the engine's abstracted loops ask [`Encoder::loop_uniformity`], which says
//! nothing in the other models.

use crate::encode::engine::{Encoder, TState};
use crate::encode::terms::{and, app};
use crate::ir::query::expr_vars;
use crate::ir::query::{contains_barrier, defined_vars, has_exit, own_def, read_vars};
use crate::ir::visit::VarContext;
use crate::ir::{AbstractLoop, Builtin, ClosedForm, Expr, Kernel, Stmt, StmtKind, VarId};
use crate::solver::Sexp;
use std::collections::BTreeSet;

/// Which threads a uniform value is the same in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::encode) enum Level {
    /// Every thread of the grid: the block index is not uniform.
    Grid,
    /// Every thread of one block: the block index is uniform too.
    Block,
}

/// What [`Encoder::loop_uniformity`] finds of an abstracted loop at one [`Level`].
#[derive(Default)]
pub(in crate::encode) struct LoopUniformity {
    /// Its havocked variables that are uniform.
    pub havocked: Vec<VarId>,
    /// The uniform variables it reads (whose values on entry must agree in both threads).
    pub entry: Vec<VarId>,
    /// Whether its test and every early exit from it are uniform: two threads that enter it
    /// with the same values of `entry` leave it in the same iteration at the same place.
    pub control: bool,
    /// The uniform variables an iteration may read before it assigns them (in the order of
    /// the test, the body and the step): two threads whose values of these agree on entry run
    /// the same iterations, since every other uniform variable it reads it first computes from
    /// these. What `control` and `barriers` need agree on entry.
    pub exposed: Vec<VarId>,
    /// Whether, besides `control`, every barrier of it runs under uniform control (every `if`
    /// and nested loop around a barrier uniform): two such threads run the same barriers in
    /// each iteration.
    pub barriers: bool,
}

/// The uniform variables of `k` (a prepared kernel): the greatest set closed under the rules
/// of the module doc, found by removing variables until none changes.
pub(in crate::encode) fn uniform_vars(k: &Kernel, level: Level) -> BTreeSet<VarId> {
    let mut u: BTreeSet<VarId> = (0..k.vars.len()).map(VarId).collect();
    // Given a value other than by an assignment: not uniform.
    let mut other = BTreeSet::new();
    defined_vars(&k.body, |c| c.is_def() && c != VarContext::Assign, &mut other);
    for v in other {
        u.remove(&v);
    }
    // (Scalar parameters start uniform and are assigned nowhere else.)
    loop {
        let before = u.len();
        walk(&k.body, true, level, &mut u);
        if u.len() == before {
            return u;
        }
    }
}

/// Whether `e` has the same value in every thread (of the grid or of one block, `level`),
/// given the uniform variables `u`.
fn uniform_expr(e: &Expr, level: Level, u: &BTreeSet<VarId>) -> bool {
    let uniform = |e: &Expr| uniform_expr(e, level, u);
    match e {
        Expr::Const { .. } => true,
        Expr::Var { id, .. } => u.contains(id),
        Expr::Builtin(Builtin::BlockIdx(_)) => level == Level::Block,
        Expr::Builtin(b) => matches!(b, Builtin::BlockDim(_) | Builtin::GridDim(_) | Builtin::WarpSize),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => uniform(arg),
        Expr::Binary { lhs, rhs, .. } => uniform(lhs) && uniform(rhs),
        Expr::Select { cond, then, els, .. } => uniform(cond) && uniform(then) && uniform(els),
        Expr::Opaque { args, .. } => args.iter().all(uniform),
        Expr::Other(_) | Expr::Enabled => false,
    }
}

/// Whether a thread may leave some enclosing construct early from `stmts` under a condition
/// that is not uniform (`ctrl`: whether the control reaching `stmts` is uniform).
fn nonuniform_exit(stmts: &[Stmt], ctrl: bool, level: Level, u: &BTreeSet<VarId>) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Exit(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Return => !ctrl,
        StmtKind::If { cond, then, els } => {
            let c = ctrl && uniform_expr(cond, level, u);
            nonuniform_exit(then, c, level, u) || nonuniform_exit(els, c, level, u)
        }
        StmtKind::Block { body, .. } => nonuniform_exit(body, ctrl, level, u),
        kind => loop_parts(kind).is_some_and(|(cond, parts)| {
            let c = ctrl && uniform_expr(cond, level, u);
            parts.iter().any(|p| nonuniform_exit(p, c, level, u))
        }),
    })
}

/// Whether every block barrier of `stmts` runs under uniform control (given the uniform
/// variables `u` at `level`): each `if` and loop around one has a uniform test and no exit
/// under control that is not. Exits of `stmts` themselves are the caller's to check.
fn uniform_barriers(stmts: &[Stmt], level: Level, u: &BTreeSet<VarId>) -> bool {
    stmts.iter().all(|s| {
        if !contains_barrier(std::slice::from_ref(s)) {
            return true;
        }
        match &s.kind {
            StmtKind::Barrier(..) => true,
            StmtKind::If { cond, then, els } => {
                uniform_expr(cond, level, u) && uniform_barriers(then, level, u) && uniform_barriers(els, level, u)
            }
            StmtKind::Block { body, .. } => uniform_barriers(body, level, u),
            kind => loop_parts(kind).is_some_and(|(cond, parts)| {
                uniform_expr(cond, level, u)
                    && parts
                        .iter()
                        .all(|p| !nonuniform_exit(p, true, level, u) && uniform_barriers(p, level, u))
            }),
        }
    })
}

/// A loop's test and its three statement lists (condition statements, body, step), for a
/// `Loop` and an `AbstractLoop` alike; `None` for any other statement.
fn loop_parts(kind: &StmtKind) -> Option<(&Expr, [&[Stmt]; 3])> {
    match kind {
        StmtKind::Loop {
            cond_stmts,
            cond,
            body,
            step,
            ..
        } => Some((cond, [cond_stmts, body, step])),
        StmtKind::AbstractLoop(l) => Some((&l.cond, [&l.cond_stmts, &l.body, &l.step])),
        _ => None,
    }
}

/// Adds to `exposed` the variables `stmts` may read before they assign them, where those in
/// `assigned` are assigned already; adds to `assigned` those `stmts` assign on every path
/// through them. Conservative: a nested loop assigns nothing for what follows it, and a block
/// that an exit may leave early assigns nothing either.
fn exposed_reads(stmts: &[Stmt], assigned: &mut BTreeSet<VarId>, exposed: &mut BTreeSet<VarId>) {
    let reads_of = |s: &Stmt, assigned: &BTreeSet<VarId>, exposed: &mut BTreeSet<VarId>| {
        let mut reads = BTreeSet::new();
        read_vars(std::slice::from_ref(s), &mut reads);
        exposed.extend(reads.into_iter().filter(|v| !assigned.contains(v)));
    };
    for s in stmts {
        match &s.kind {
            StmtKind::If { cond, then, els } => {
                let mut reads = Vec::new();
                expr_vars(cond, &mut reads);
                exposed.extend(reads.into_iter().filter(|v| !assigned.contains(v)));
                let mut a = assigned.clone();
                exposed_reads(then, &mut a, exposed);
                let mut b = assigned.clone();
                exposed_reads(els, &mut b, exposed);
                assigned.extend(a.intersection(&b).copied().collect::<Vec<_>>());
            }
            StmtKind::Block { body, .. } => {
                let mut a = assigned.clone();
                exposed_reads(body, &mut a, exposed);
                if !has_exit(body) {
                    *assigned = a;
                }
            }
            // A nested loop: what its iterations read before they assign it, from what is
            // assigned before it; what it assigns may not be (no iteration).
            StmtKind::Loop { .. } | StmtKind::AbstractLoop(_) => {
                let Some((cond, [cond_stmts, body, step])) = loop_parts(&s.kind) else {
                    continue;
                };
                let do_while = match &s.kind {
                    StmtKind::Loop { do_while, .. } => *do_while,
                    StmtKind::AbstractLoop(l) => l.do_while,
                    _ => false,
                };
                let mut a = assigned.clone();
                if let StmtKind::AbstractLoop(l) = &s.kind {
                    // Read on entry: the closed forms' strides and the invariants.
                    let mut reads = Vec::new();
                    for (_, cf) in &l.closed {
                        if let ClosedForm::Linear(k) = cf {
                            expr_vars(k, &mut reads);
                        }
                    }
                    for inv in &l.invariants {
                        expr_vars(&inv.cond, &mut reads);
                        read_vars(&inv.body, &mut reads);
                    }
                    exposed.extend(reads.into_iter().filter(|v| !a.contains(v)));
                }
                let test = |a: &mut BTreeSet<VarId>, exposed: &mut BTreeSet<VarId>| {
                    exposed_reads(cond_stmts, a, exposed);
                    let mut reads = Vec::new();
                    expr_vars(cond, &mut reads);
                    exposed.extend(reads.into_iter().filter(|v| !a.contains(v)));
                };
                if !do_while {
                    test(&mut a, exposed);
                }
                exposed_reads(body, &mut a, exposed);
                exposed_reads(step, &mut a, exposed);
                if do_while {
                    test(&mut a, exposed);
                }
            }
            _ => {
                reads_of(s, assigned, exposed);
                assigned.extend(own_def(s));
            }
        }
    }
}

/// Removes from `u` the variables `stmts` assign a value that is not uniform, or under
/// control that is not (`ctrl`).
fn walk(stmts: &[Stmt], ctrl: bool, level: Level, u: &mut BTreeSet<VarId>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { var, value } if !(ctrl && uniform_expr(value, level, u)) => {
                u.remove(var);
            }
            StmtKind::If { cond, then, els } => {
                let c = ctrl && uniform_expr(cond, level, u);
                walk(then, c, level, u);
                walk(els, c, level, u);
            }
            // A block or loop that a thread may leave early under a condition that is not
            // uniform: what follows the exit inside it runs in some threads only.
            StmtKind::Block { body, .. } => {
                let c = ctrl && !nonuniform_exit(body, ctrl, level, u);
                walk(body, c, level, u);
            }
            // Annotation bodies compute temporaries: not uniform.
            StmtKind::Ensures { body, .. } | StmtKind::Invariant { body, .. } => {
                let mut defs = BTreeSet::new();
                defined_vars(body, |_| true, &mut defs);
                for v in defs {
                    u.remove(&v);
                }
            }
            // A loop, as a block, and its test must be uniform too; other statements give
            // values only by loads, atomics, shuffles, votes and havocs (removed up front).
            kind => {
                if let Some((cond, parts)) = loop_parts(kind) {
                    let c = ctrl
                        && uniform_expr(cond, level, u)
                        && !parts.iter().any(|p| nonuniform_exit(p, ctrl, level, u));
                    for p in parts {
                        walk(p, c, level, u);
                    }
                }
            }
        }
    }
}

impl Encoder<'_> {
    /// What the uniformity analysis at `level` says of `l` in the pair model (nothing
    /// elsewhere).
    pub(in crate::encode) fn loop_uniformity(&self, l: &AbstractLoop, level: Level) -> LoopUniformity {
        let mut out = LoopUniformity::default();
        if !self.model.pair() {
            return out;
        }
        let u = uniform_vars(self.k, level);
        out.havocked = l.havocked.iter().copied().filter(|v| u.contains(v)).collect();
        let parts = [&l.cond_stmts, &l.body, &l.step];
        out.control = uniform_expr(&l.cond, level, &u) && !parts.iter().any(|p| nonuniform_exit(p, true, level, &u));
        out.barriers = out.control && parts.iter().all(|p| uniform_barriers(p, level, &u));
        if out.havocked.is_empty() && !out.control {
            return out;
        }
        let mut read = BTreeSet::new();
        for part in parts {
            read_vars(part, &mut read);
        }
        let mut cond_reads = Vec::new();
        expr_vars(&l.cond, &mut cond_reads);
        read.extend(cond_reads);
        out.entry = read.into_iter().filter(|v| u.contains(v)).collect();
        let mut exposed = BTreeSet::new();
        let mut assigned = BTreeSet::new();
        let cond = |a: &mut BTreeSet<VarId>, e: &mut BTreeSet<VarId>| {
            exposed_reads(&l.cond_stmts, a, e);
            let mut reads = Vec::new();
            expr_vars(&l.cond, &mut reads);
            e.extend(reads.into_iter().filter(|v| !a.contains(v)));
        };
        if !l.do_while {
            cond(&mut assigned, &mut exposed);
        }
        exposed_reads(&l.body, &mut assigned, &mut exposed);
        exposed_reads(&l.step, &mut assigned, &mut exposed);
        if l.do_while {
            cond(&mut assigned, &mut exposed);
        }
        out.exposed = exposed.into_iter().filter(|v| u.contains(v)).collect();
        out
    }

    /// Whether the uniform variables `entry_vars` agree in the two threads' states `entry`
    /// (a loop's entry states).
    pub(in crate::encode) fn entry_agrees(&mut self, entry_vars: &[VarId], entry: &mut [TState]) -> Sexp {
        let mut premise = crate::encode::terms::t();
        if entry.len() == 2 {
            for v in entry_vars {
                let a = self.read_var(*v, &mut entry[0], 0);
                let b = self.read_var(*v, &mut entry[1], 1);
                premise = and(premise, app("=", vec![a, b]));
            }
        }
        premise
    }

    /// For the uniform variables `vars` of the two threads' states `st`: equal where `same`
    /// (the threads are at the same count of the loop) and the uniform variables `entry_vars`
    /// agreed in the loop's entry states `entry`.
    pub(in crate::encode) fn uniform_agree(
        &mut self,
        vars: &[VarId],
        entry_vars: &[VarId],
        entry: &mut [TState],
        same: Sexp,
        st: &mut [TState],
    ) {
        if vars.is_empty() || st.len() != 2 || entry.len() != 2 {
            return;
        }
        let premise = and(same, self.entry_agrees(entry_vars, entry));
        for v in vars {
            let a = self.read_var(*v, &mut st[0], 0);
            let b = self.read_var(*v, &mut st[1], 1);
            self.assert(app("=>", vec![premise.clone(), app("=", vec![a, b])]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Dim, Ty};

    fn var(id: usize) -> Expr {
        Expr::Var {
            id: VarId(id),
            ty: Ty::I32,
        }
    }

    fn assign(v: usize, value: Expr) -> Stmt {
        Stmt {
            kind: StmtKind::Assign { var: VarId(v), value },
            span: crate::ir::Span::point(std::sync::Arc::from("t.cu"), 1, 1),
        }
    }

    fn add(a: Expr, b: Expr) -> Expr {
        Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(a),
            rhs: Box::new(b),
            ty: Ty::I32,
        }
    }

    /// `a = a + blockDim.x` is uniform; `b = a + threadIdx.x` is not, nor is `c = b`, nor `d`
    /// assigned under `if (b)`.
    #[test]
    fn thread_indices_and_what_they_reach_are_not_uniform() {
        let block_dim = Expr::Builtin(Builtin::BlockDim(Dim::X));
        let tid = Expr::Builtin(Builtin::ThreadIdx(Dim::X));
        let body = vec![
            assign(0, add(var(0), block_dim)),
            assign(1, add(var(0), tid)),
            assign(2, var(1)),
            Stmt {
                kind: StmtKind::If {
                    cond: Expr::Cast {
                        arg: Box::new(var(1)),
                        ty: Ty::Bool,
                    },
                    then: vec![assign(3, var(0))],
                    els: vec![],
                },
                span: crate::ir::Span::point(std::sync::Arc::from("t.cu"), 1, 1),
            },
        ];
        let mut u: BTreeSet<VarId> = (0..4).map(VarId).collect();
        loop {
            let n = u.len();
            walk(&body, true, Level::Grid, &mut u);
            if u.len() == n {
                break;
            }
        }
        assert_eq!(u, BTreeSet::from([VarId(0)]));
    }
}
