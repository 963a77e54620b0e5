//! GPUVerify's two-thread annotations ("inter-thread predicates": `__other_int`, and through it
//! `__uniform_int`, `__distinct_int`, `__all`, `__same_group`, …) in the encoder.
//!
//! Source: the lecture notes (Donaldson's ENS Lyon lecture 1, "just two threads will do";
//! Donaldson's ENS Lyon lecture 1, "Duplicating local variable declarations": every expression `e`
//! of the kernel has a copy `e$1` for the first thread and `e$2` for the second, and lecture 2's
//! "Translating statements with predicates": each thread has a predicate saying whether it is
//! enabled). An annotation of thread 1 that reads `__other_int(e)` reads `e$2`, and the other way
//! round. Predicated execution keeps a disabled thread's variables as they were when it stopped;
//! here a disabled thread's variables are taken as arbitrary values instead (an over-approximation:
//! a condition must hold whatever they are), while its coordinates and its `__enabled()` (false)
//! stay exact.
//!
//! Where the other thread is:
//!
//! - at a statement, both threads are at the same program point (lock step): `Expr::Other`
//!   reads the other thread's state before the statement ([`Encoder::peers`]);
//! - with more than two threads (the concrete and bank models) an assertion or assumption that
//!   reads another thread is asked of every other thread in turn ([`Encoder::cond_term`]); any
//!   other expression that reads another thread gets an arbitrary value;
//! - at the head of an abstracted loop each thread is in its own arbitrary iteration; a
//!   relational invariant is about the two threads at the same iteration count (GPUVerify's
//!   predicated loops run both threads in lock step), see [`Encoder::relational_invariants`].
//!
//! Does not decide which annotations exist (the front end) nor encode plain expressions (`expr`).

use super::invariants::Reading;
use super::{Encoder, TState};
use crate::encode::terms::{and, app, atom, f, not, or, sort_of, sym, t};
use crate::ir::query::reads_other_thread;
use crate::ir::visit::Visitor;
use crate::ir::{AbstractLoop, Expr, LoopInvariant, Stmt, Ty};
use crate::solver::Sexp;

/// The states of an abstracted loop that its relational invariants are checked on.
pub(in crate::encode) struct LoopStates<'a> {
    /// Each thread's state on entry.
    pub(in crate::encode) entry: &'a [TState],
    /// Each thread's iteration count at the head.
    pub(in crate::encode) its: &'a [Sexp],
    /// Each thread's state at the head, once the invariants are assumed, before the test.
    pub(in crate::encode) head: &'a [TState],
    /// Each thread's state at the end of the iteration (the next head).
    pub(in crate::encode) next: &'a [TState],
    /// Whether each thread goes on to the next iteration from there.
    pub(in crate::encode) continues: &'a [Sexp],
}

impl Encoder<'_> {
    /// The value of `arg` in the thread that `Expr::Other` reads from thread `th`: the other
    /// of two threads, or [`Encoder::other_thread`]; read from its state before the statement
    /// being encoded ([`Encoder::peers`]), its variables arbitrary where it is not enabled. An
    /// arbitrary value when there is no such state (a model of more than two threads outside
    /// an assertion or assumption, or `__other_int` of `__other_int`).
    pub(in crate::encode) fn other_value(&mut self, arg: &Expr, th: usize) -> Sexp {
        let j = self.other_thread.or((self.n == 2).then(|| 1 - th));
        let peer = match j {
            Some(j) if j != th && self.peer_guard.is_none() => self.peers.get(j).cloned().map(|s| (j, s)),
            _ => None,
        };
        let Some((j, mut ps)) = peer else {
            return self.arbitrary(arg.ty());
        };
        self.peer_guard = Some(ps.pc.clone());
        let v = self.expr(arg, &mut ps, j);
        self.peer_guard = None;
        v
    }

    /// `v`, a variable's value read while the other thread's side of an `Expr::Other` is
    /// encoded: arbitrary where that thread is not enabled.
    pub(in crate::encode) fn guard_peer_value(&mut self, v: Sexp, ty: Ty) -> Sexp {
        match self.peer_guard.clone() {
            Some(g) if g != t() => {
                let x = self.arbitrary(ty);
                app("ite", vec![g, v, x])
            }
            _ => v,
        }
    }

    /// A fresh arbitrary value of type `ty`.
    fn arbitrary(&mut self, ty: Ty) -> Sexp {
        let name = self.fresh_name("other.arbitrary");
        self.declare(&name, sort_of(ty))
    }

    /// Before statement `s`: when one of its own expressions reads another thread, every
    /// thread's state as the peers `Expr::Other` reads. Returns whether it did.
    pub(in crate::encode) fn enter_peers(&mut self, s: &Stmt, st: &[TState]) -> bool {
        if !self.reads_other || self.n < 2 || !reads_other_shallow(s) {
            return false;
        }
        self.peers = st.to_vec();
        true
    }

    /// The term of the condition `cond` (of an assertion or assumption) for thread `th`: with
    /// more than two threads and a condition that reads another thread, the conjunction over
    /// every other thread (GPUVerify's annotations hold for every pair of threads).
    pub(in crate::encode) fn cond_term(&mut self, cond: &Expr, ts: &mut TState, th: usize) -> Sexp {
        if self.n <= 2 || !self.reads_other || !reads_other_thread(cond) {
            return self.expr(cond, ts, th);
        }
        let mut parts = Vec::new();
        for j in (0..self.n).filter(|&j| j != th) {
            self.other_thread = Some(j);
            parts.push(self.expr(cond, ts, th));
        }
        self.other_thread = None;
        parts.into_iter().reduce(and).unwrap_or_else(t)
    }

    /// Whether the relational invariants of abstracted loops are encoded as such: the pair
    /// model (two symbolic threads, equality abstraction). Elsewhere `Expr::Other` in an
    /// invariant is an arbitrary value (assumed: no constraint; checked: must hold whatever
    /// it is).
    pub(in crate::encode) fn pair_relational(&self) -> bool {
        self.model.pair()
    }

    /// Assumes the relational invariants of `l` at a head (`head`, counts `its`; or at the
    /// exit, with the exit counts): for each thread, where the other thread is there at the
    /// same count, the invariant with the other thread's values (the induction hypothesis of
    /// [`Self::relational_invariants`]), each thread reading its own view of memory.
    pub(in crate::encode) fn assume_relational(&mut self, l: &AbstractLoop, its: &[Sexp], head: &mut [TState]) {
        let same = app("=", vec![its[0].clone(), its[1].clone()]);
        for inv in l.invariants.iter().filter(|inv| inv.reads_other_thread()) {
            let terms = self.loop_invariant_terms(inv, head, 2, Reading::Own, true);
            for (th, c) in terms.into_iter().enumerate() {
                let premise = and(same.clone(), head[1 - th].pc.clone());
                self.assume(&mut head[th], th, app("=>", vec![premise, c]));
            }
        }
    }

    /// The checks of the relational invariants of `l` (the loop statement `s`) besides the base
    /// case (GPUVerify runs both threads of the pair through the loop in lock step, Donaldson's ENS
    /// Lyon lecture 2 "Translating statements with predicates"; here each has its own count):
    ///
    /// - step: two threads at the head at the same count, the invariants assumed, both going
    ///   on to the next head: the invariant holds there (for the first thread where it
    ///   finishes the iteration, as for plain invariants);
    /// - a thread left behind: when one thread may be at the loop while the other is not (it
    ///   never entered, or the two were at the same count and only one went on), the first
    ///   thread's invariant must hold with the other one disabled and its values arbitrary,
    ///   at any head state the plain invariants allow.
    ///
    /// With the base case (the entry states) the first check makes the invariant an inductive
    /// fact of every pair at equal counts, which is what the head assumes.
    pub(in crate::encode) fn relational_invariants(&mut self, s: &Stmt, l: &AbstractLoop, ls: &LoopStates<'_>) {
        let rel: Vec<&LoopInvariant> = l.invariants.iter().filter(|inv| inv.reads_other_thread()).collect();
        if rel.is_empty() {
            return;
        }
        let same = app("=", vec![ls.its[0].clone(), ls.its[1].clone()]);
        for inv in &rel {
            let both = and(same.clone(), ls.continues[1].clone());
            self.invariant_check_with(inv, ls.next, "step", false, both);
        }
        // A thread left behind: at the loop on entry while the other is not, or one going on
        // from a head where both were at the same count.
        let reach_entry = self.reach(&ls.entry[0], 0);
        let apart_entry = and(reach_entry, not(ls.entry[1].pc.clone()));
        let reach_head: Vec<Sexp> = (0..2).map(|th| self.reach(&ls.head[th], th)).collect();
        let one_goes_on = app("xor", vec![ls.continues[0].clone(), ls.continues[1].clone()]);
        let apart_step = and(
            and(same, and(reach_head[0].clone(), reach_head[1].clone())),
            one_goes_on,
        );
        let apart = self.define("apart", atom("Bool"), or(apart_entry, apart_step));
        let line = s.span.line;
        let mut alone = ls.entry[0].clone();
        self.iteration_state(l, line, "alone", &mut alone, 0);
        for inv in l.invariants.iter().filter(|inv| !inv.reads_other_thread()) {
            let c = self.loop_invariant_terms(inv, std::slice::from_ref(&alone), 1, Reading::Own, false);
            for c in c {
                self.assume(&mut alone, 0, c);
            }
        }
        let mut gone = ls.entry[1].clone();
        gone.pc = f();
        for inv in &rel {
            let pair = [alone.clone(), gone.clone()];
            let c = self.loop_invariant_terms(inv, &pair, 1, Reading::Own, true);
            let c = c.into_iter().next().unwrap_or_else(t);
            let span = &inv.span;
            let reach = self.reach(&alone, 0);
            let fail = and(and(apart.clone(), reach), not(c));
            let property = super::Property::Invariant {
                span: span.clone(),
                base: false,
            };
            let name = format!("{}.invariant.alone.L{}", sym(&self.k.name), span.line);
            self.push_check(property, name, fail.clone(), vec![fail], true);
        }
    }
}

/// Whether an expression of `s` itself (not of the statements it contains) reads another
/// thread.
fn reads_other_shallow(s: &Stmt) -> bool {
    struct Shallow(bool);
    impl Visitor for Shallow {
        fn visit_block(&mut self, _stmts: &[Stmt]) {}
        fn visit_expr(&mut self, e: &Expr) {
            self.0 = self.0 || reads_other_thread(e);
        }
    }
    let mut v = Shallow(false);
    v.super_stmt(s);
    v.0
}
