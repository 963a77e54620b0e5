//! Abstracted loops (PUG §6; ARCHITECTURE.md "Loops"): one arbitrary iteration per thread at a
//! fresh iteration count, closed forms of loop-carried variables in that count, trip bounds from
//! the loop test, the step checks of derived closed forms, user invariants (base and step; the
//! relational ones are `relational`'s), and the state after the loop at a fresh exit count;
//! what uniformity says of two threads in it is `lockstep`'s.
//!
//! Does not derive closed forms nor decide which loops are abstracted (`passes`).

use super::invariants::{Reading, Seen};
use super::lockstep::UniformCounts;
use super::relational::LoopStates;
use super::trip::StrideAt;
use super::{Check, Encoder, Property, TState};
use crate::encode::terms::{and, app, atom, bvn, extend, f, mem_sort, not, or, sym, t};
use crate::ir::query::{
    barrier_statements, contains_barrier, exits_to, grid_barriers, has_exit, mentions, reads_other_thread,
};
use crate::ir::visit::{LabelContext, Visitor};
use crate::ir::{
    AbstractLoop, ArrayId, BinOp, BlockId, ClosedForm, Expr, LoopInvariant, Space, Stmt, StmtKind, Ty, VarId,
};
use crate::solver::{Query, Sexp};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// An abstracted loop whose iterations run a fixed number `nb > 0` of barriers, while its
/// iteration is encoded: its barriers count `bc_entry + it * 2^shift + k`, and the last one
/// jumps to the next iteration's base `bc_entry + (it + 1) * 2^shift`, so the accesses after it
/// share a barrier interval with the next iteration's first ones (the back edge), and equal
/// counts mean equal iterations through a shift rather than a multiplication.
pub(in crate::encode) struct LoopFrame {
    pub(in crate::encode) barriers: u32,
    pub(in crate::encode) shift: u32,
    pub(in crate::encode) seen: u32,
    /// Per thread: the barrier count on entry and the iteration count.
    pub(in crate::encode) base: Vec<(Sexp, Sexp)>,
    /// Grid barriers per iteration (at most `barriers`, so they share `shift`).
    pub(in crate::encode) grid_barriers: u32,
    pub(in crate::encode) grid_seen: u32,
    /// Per thread: the grid-barrier count on entry and the iteration count.
    pub(in crate::encode) grid_base: Vec<(Sexp, Sexp)>,
}

impl Encoder<'_> {
    /// Pushes the [`LoopFrame`] of loop `l` when its iterations run a fixed number of barriers
    /// (`entry`: each thread's state on entry, `its`: its iteration count); whether it did.
    fn push_frame(&mut self, l: &AbstractLoop, entry: &[TState], its: &[Sexp]) -> bool {
        let Some(nb) = l.barriers.filter(|nb| *nb > 0) else {
            return false;
        };
        let base = |count: fn(&TState) -> &Sexp| {
            entry
                .iter()
                .zip(its)
                .map(|(e, it)| (count(e).clone(), it.clone()))
                .collect()
        };
        self.frames.push(LoopFrame {
            barriers: nb,
            shift: barrier_shift(nb),
            seen: 0,
            base: base(|e| &e.bc),
            grid_barriers: grid_barriers(&l.body),
            grid_seen: 0,
            grid_base: base(|e| &e.gc),
        });
        true
    }

    /// One arbitrary iteration of an abstracted loop (PUG §6; ARCHITECTURE.md "Loops"). Each thread
    /// gets its own iteration count `it` (BV64, below 2^48), so two threads may be in different
    /// iterations (inter-iteration races); barrier counts at the head are `bc_entry + it *
    /// barriers`, so accesses of one block meet only in the same barrier interval, also across the
    /// back edge. Closed forms are exact in `it`; other loop-carried variables and the memory the
    /// loop may see changed are fresh. The state after the loop is built the same way for a fresh
    /// exit count, with the test false (loops are assumed to terminate).
    pub(in crate::encode) fn abstract_loop(&mut self, s: &Stmt, l: &AbstractLoop, st: &mut [TState]) {
        let line = s.span.line;
        self.read_initial_values(l, st);
        let entry: Vec<TState> = st.to_vec();
        let loop_pos = self.loop_position();
        // The user's invariants hold on entry (base case).
        for inv in &l.invariants {
            self.invariant_check(inv, &entry, "base", true);
        }
        self.depth += 1;
        self.abstract_depth += 1;
        let cause = self.loop_cause(line, l);
        self.rests_on(cause);
        // An arbitrary iteration: what the pair accessed before it is known there only as
        // `recall_known` says.
        let entry_known = self.known_now();
        let tail = tail_accesses(l);
        self.forget_known();
        let (mut head, its) = self.havoc_head(l, line, loop_pos, &entry, &entry_known, &tail);
        // Uniform havocked variables agree at equal iteration counts (`lockstep`).
        let uniform = self.uniformities(l);
        if let [a, b] = its.as_slice() {
            let same = app("=", vec![a.clone(), b.clone()]);
            self.agree_uniform(&uniform, &entry, same, &mut head);
        }
        let head_bc: Vec<Sexp> = head.iter().map(|h| h.bc.clone()).collect();
        // Two threads of one block that enter together a loop whose barriers all run under
        // block-uniform control pass its barriers in lock step (`lockstep`).
        let together = (its.len() == 2 && l.barriers != Some(0) && uniform.block.barriers)
            .then(|| self.entered_together(&uniform.block.exposed, &entry));
        self.entered_together.extend(together.clone());
        // Each thread's states at a count of this loop (the iteration, then the exit).
        let mut instances: Vec<Vec<(Sexp, TState)>> = head
            .iter()
            .zip(&its)
            .map(|(h, it)| vec![(it.clone(), h.clone())])
            .collect();
        // Plain invariants hold for each thread at its head; relational ones (reading the
        // other thread) for two threads at the same count (`relational`).
        let relational = self.pair_relational();
        self.assume_plain_invariants(l, relational, &mut head);
        if relational {
            self.assume_relational(l, &its, &mut head);
        }
        let at_head = head.clone();
        let tested = self.loop_iteration(s, l, &entry, &its, &mut head);
        // Step checks: the closed forms and the user's invariants hold at the next head.
        self.closed_form_checks(s, l, &instances, st, &mut head);
        for inv in &l.invariants {
            if !(relational && inv.reads_other_thread()) {
                self.invariant_check(inv, &head, "step", false);
            }
        }
        let next = head.clone();
        // The next test's accesses.
        self.block(&l.cond_stmts, &mut head);
        if relational {
            let states = LoopStates {
                entry: &entry,
                its: &its,
                head: &at_head,
                next: &next,
                continues: &self.continuing(l, &next, &mut head),
            };
            self.relational_invariants(s, l, &states);
        }
        if together.is_some() {
            self.entered_together.pop();
        }
        self.exits.remove(&l.brk);
        self.forget_known();
        let exit = self.loop_exit(l, line, loop_pos, relational, &entry, &mut instances);
        let LoopExit {
            mut post,
            exits,
            exit_at,
            mid_iteration,
        } = exit;
        // An iteration that passes its test comes before the exit, in a loop left only by its
        // test: a thread's exit count is past any iteration it runs (in every execution), so
        // what it does in the iteration comes before what it does after the loop.
        if !l.do_while && !exits_to(&l.body, l.brk) && !leaves_loop(&l.body, l.brk, l.cont) {
            for th in 0..its.len() {
                let before = app("bvult", vec![its[th].clone(), exits[th].clone()]);
                self.assert(app("=>", vec![tested[th].clone(), before]));
            }
        }
        if exits.len() == 2 {
            let mut same = app("=", vec![exits[0].clone(), exits[1].clone()]);
            if let [p1, p2] = exit_at.as_slice() {
                same = and(same, app("=", vec![p1.clone(), p2.clone()]));
            }
            self.leave_together(&uniform, &entry, same.clone());
            self.agree_uniform(&uniform, &entry, same, &mut post);
            if let Some(together) = together.filter(|_| l.barriers.is_none()) {
                let counts = UniformCounts {
                    entry: &entry,
                    its: &its,
                    head: &head_bc,
                    next: &next,
                    exits: &exits,
                    post: &post,
                };
                self.uniform_counts(together, &counts);
            }
        }
        if !mid_iteration {
            // (After a `break` between barriers the interval is not the one after an
            // iteration's last barrier: nothing is known there.)
            self.recall_at_count(l, &entry_known, &tail, &exits, &mut post);
        }
        self.closed_congruence(l, &entry, &instances);
        self.stride_lemmas(l, &instances);
        self.depth -= 1;
        self.abstract_depth -= 1;
        for (th, p) in post.into_iter().enumerate() {
            st[th] = p;
        }
    }

    /// Reads the variables the closed forms of `l` start from once on entry, so the head, the
    /// step check and the exit all see the same initial values.
    fn read_initial_values(&mut self, l: &AbstractLoop, st: &mut [TState]) {
        for (th, ts) in st.iter_mut().enumerate() {
            for (v, cf) in &l.closed {
                self.read_var(*v, ts, th);
                if let ClosedForm::Linear(k) = cf {
                    let _ = self.expr(k, ts, th);
                }
            }
        }
    }

    /// Each thread's state at the head of an arbitrary iteration of `l` (havocked from
    /// `entry`, with its fences), with each thread's iteration count; what was accessed before
    /// (`entry_known`, and the `tail` accesses of the loop's end) is recalled at that count.
    fn havoc_head(
        &mut self,
        l: &AbstractLoop,
        line: u32,
        loop_pos: u32,
        entry: &[TState],
        entry_known: &[Seen],
        tail: &[(ArrayId, Expr, Ty)],
    ) -> (Vec<TState>, Vec<Sexp>) {
        let mut head = entry.to_vec();
        let mut its = Vec::new();
        for (th, ts) in head.iter_mut().enumerate() {
            let it = self.iteration_state(l, line, "it", ts, th);
            self.loop_fences(l, loop_pos, line, ts, th);
            its.push(it);
        }
        self.recall_at_count(l, entry_known, tail, &its, &mut head);
        (head, its)
    }

    /// One iteration of `l` from `head`: the test (not for do-while: its head is the start of
    /// the body), the body, the step. Opens the loop's exits (closed by the caller). Returns
    /// each thread's path condition after the test (at the head, for a do-while loop).
    fn loop_iteration(
        &mut self,
        s: &Stmt,
        l: &AbstractLoop,
        entry: &[TState],
        its: &[Sexp],
        head: &mut [TState],
    ) -> Vec<Sexp> {
        self.exits.insert(l.brk, Vec::new());
        if !l.do_while {
            self.block(&l.cond_stmts, head);
            for (th, ts) in head.iter_mut().enumerate() {
                let c = self.expr(&l.cond, ts, th);
                let pc = and(ts.pc.clone(), c);
                ts.pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc);
            }
        }
        let tested = head.iter().map(|h| h.pc.clone()).collect();
        let body = Stmt {
            kind: StmtKind::Block {
                id: l.cont,
                body: l.body.clone(),
            },
            span: s.span.clone(),
        };
        let framed = self.push_frame(l, entry, its);
        self.stmt(&body, head);
        self.block(&l.step, head);
        if framed {
            self.frames.pop();
        }
        tested
    }

    /// Per thread of the pair: whether it goes on to the next head, when it finishes the
    /// iteration (`next`) and, in a do-while loop, passes the test that follows it (read in
    /// `head`, after the test's accesses).
    fn continuing(&mut self, l: &AbstractLoop, next: &[TState], head: &mut [TState]) -> Vec<Sexp> {
        let mut continues = Vec::new();
        for th in 0..2 {
            let go_on = if l.do_while {
                let done = self.reach(&head[th], th);
                let c = self.expr(&l.cond, &mut head[th], th);
                and(done, c)
            } else {
                self.reach(&next[th], th)
            };
            continues.push(go_on);
        }
        continues
    }

    /// After the loop: each thread's state at a fresh exit count (added to its `instances`),
    /// where the invariants hold when it leaves from a head.
    fn loop_exit(
        &mut self,
        l: &AbstractLoop,
        line: u32,
        loop_pos: u32,
        relational: bool,
        entry: &[TState],
        instances: &mut [Vec<(Sexp, TState)>],
    ) -> LoopExit {
        let has_break = exits_to(&l.body, l.brk) || exits_to(&l.cond_stmts, l.brk);
        let leaves = leaves_loop(&l.body, l.brk, l.cont);
        let mut post = entry.to_vec();
        let mut exits = Vec::new();
        // Without a `break` and with a plain test, a thread leaves the loop from a head (the
        // one whose test fails): the invariants hold there.
        let at_head = !has_break && l.cond_stmts.is_empty();
        // A loop with a fixed number of barriers per iteration that a `break` leaves after
        // some of them: the exit's count is past those too.
        let positions = match l.barriers {
            Some(nb) if nb > 0 && has_break => break_positions(l, nb),
            _ => BTreeSet::new(),
        };
        let mid_iteration = positions.iter().any(|p| *p != 0);
        let mut exit_at = Vec::new();
        for (th, ts) in post.iter_mut().enumerate() {
            let count = self.iteration_state(l, line, "exit", ts, th);
            if mid_iteration {
                exit_at.push(self.exit_position(&positions, line, ts, th));
            }
            self.loop_fences(l, loop_pos, line, ts, th);
            instances[th].push((count.clone(), ts.clone()));
            exits.push(count);
            if leaves {
                // Some iteration may have returned: whether this thread did is unknown.
                let r = self.fresh_name(&format!("t{}.left.L{line}", th + 1));
                let r = self.declare(&r, atom("Bool"));
                let pc = and(ts.pc.clone(), not(r));
                ts.pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc);
            }
            if at_head {
                let c = self.expr(&l.cond, ts, th);
                self.assume(ts, th, not(c));
            }
        }
        if at_head {
            self.assume_plain_invariants(l, relational, &mut post);
            if relational {
                self.assume_relational(l, &exits, &mut post);
            }
        }
        LoopExit {
            post,
            exits,
            exit_at,
            mid_iteration,
        }
    }

    /// Thread `th`'s state after a loop it may leave by a `break` between barriers: its count
    /// (at the exit count's iteration start) goes up by the barriers run before that exit,
    /// one of `positions`, which one unknown. Returns that number.
    fn exit_position(&mut self, positions: &BTreeSet<u32>, line: u32, ts: &mut TState, th: usize) -> Sexp {
        let name = self.fresh_name(&format!("t{}.exit_at.L{line}", th + 1));
        let p = self.declare(&name, Sexp::bv_sort(64));
        let one_of = positions
            .iter()
            .map(|q| app("=", vec![p.clone(), bvn(u64::from(*q), 64)]))
            .fold(f(), or);
        self.assert(one_of);
        let bc = app("bvadd", vec![ts.bc.clone(), p.clone()]);
        ts.bc = self.define(&format!("t{}.bc", th + 1), Sexp::bv_sort(64), bc);
        p
    }

    /// The step checks of the closed forms of `l` (the loop statement `s`): for each, whether
    /// the body can take a thread from the closed form's value at its iteration count (the
    /// first of `instances`) to anything but one step of its rule at the next head `head`.
    /// `st` holds the threads' states on entry, where the strides are read.
    fn closed_form_checks(
        &mut self,
        s: &Stmt,
        l: &AbstractLoop,
        instances: &[Vec<(Sexp, TState)>],
        st: &mut [TState],
        head: &mut [TState],
    ) {
        // In the pair model the two threads are symmetric (either may be any thread), so the
        // first one stands for both.
        let checked = self.model.checked_threads(self.n);
        for (v, cf) in &l.closed {
            let mut fails = Vec::new();
            for th in 0..checked {
                // The closed form at `it + 1`, written as one step of its rule from its value
                // at `it` (`v + k`, `v >> 1`, `v << 1`: the same value, see
                // `closed_form_next_is_one_step` in the tests), so that the query asks only
                // whether the body takes that step.
                let at_it = self.read_var(*v, &mut instances[th][0].1.clone(), th);
                let expect = self.one_step(*v, cf, at_it, &mut st[th], th);
                let got = self.read_var(*v, &mut head[th], th);
                let reach = self.reach(&head[th], th);
                fails.push(and(reach, not(app("=", vec![got, expect]))));
            }
            let name = format!(
                "{}.loop.L{}.{}",
                sym(&self.k.name),
                s.span.line,
                sym(&self.k.var(*v).name)
            );
            self.checks.push(Check {
                property: Property::ClosedForm {
                    loop_span: s.span.clone(),
                    var: *v,
                },
                query: Query {
                    unpinned: 0,
                    name,
                    assertions: vec![fails.into_iter().reduce(or).unwrap_or_else(f)],
                    get_values: vec![],
                },
                pairs: Vec::new(),
                sides: None,
                layout: self.layout.clone(),
                possible: false,
                abstractions: Vec::new(),
                benign: false,
                hints: Vec::new(),
                split: None,
            });
        }
    }

    /// Puts thread `th`'s state `ts` (the loop's entry state) at a fresh iteration count of the
    /// loop: closed forms at that count, other assigned variables and the memory the loop may
    /// change fresh, the barrier count advanced. Returns the count (BV64).
    pub(in crate::encode) fn iteration_state(
        &mut self,
        l: &AbstractLoop,
        line: u32,
        what: &str,
        ts: &mut TState,
        th: usize,
    ) -> Sexp {
        let mut entry = ts.clone();
        let it = self.fresh_name(&format!("t{}.{what}.L{line}", th + 1));
        let it = self.declare(&it, Sexp::bv_sort(64));
        self.assert(app("bvult", vec![it.clone(), bvn(1 << 48, 64)]));
        for (v, cf) in &l.closed {
            let v0 = self.read_var(*v, &mut entry, th);
            let value = self.closed_value(*v, cf, v0.clone(), &it, &mut entry, th);
            self.assign(*v, value, ts, th);
            // A logical right shift never grows a value (a valid fact): spares the solver
            // bounding `v0 >> it` through a shifter, e.g. that `tid + s` cannot wrap.
            if matches!(cf, ClosedForm::Halving) && !self.k.var(*v).ty.is_signed() {
                let now = self.read_var(*v, ts, th);
                self.assert(app("bvule", vec![now, v0]));
            }
        }
        for v in &l.havocked {
            self.havoc(*v, ts, th);
        }
        let barrier_loop = l.barriers != Some(0);
        let fresh_arrays: Vec<ArrayId> = (0..self.k.arrays.len())
            .map(ArrayId)
            .filter(|a| {
                l.written.contains(a)
                    || (barrier_loop && matches!(self.k.array(*a).space, Space::Shared | Space::Global))
            })
            .collect();
        for a in fresh_arrays {
            let name = self.fresh_name(&format!("t{}.mem.{}.L{line}", th + 1, sym(&self.k.array(a).name)));
            let m = self.declare(&name, mem_sort());
            self.mem_set(ts, a, m);
        }
        ts.bc = match l.barriers {
            Some(0) => ts.bc.clone(),
            Some(nb) => {
                let v = app(
                    "bvadd",
                    vec![
                        ts.bc.clone(),
                        app("bvshl", vec![it.clone(), bvn(barrier_shift(nb) as u64, 64)]),
                    ],
                );
                self.define(&format!("t{}.bc", th + 1), Sexp::bv_sort(64), v)
            }
            None => {
                let name = self.fresh_name(&format!("t{}.bc.L{line}", th + 1));
                self.declare(&name, Sexp::bv_sort(64))
            }
        };
        // Grid barriers count like barriers (with the same stride), in their own count.
        let ng = grid_barriers(&l.body) + grid_barriers(&l.cond_stmts) + grid_barriers(&l.step);
        ts.gc = match l.barriers {
            _ if ng == 0 => ts.gc.clone(),
            Some(nb) => {
                let v = app(
                    "bvadd",
                    vec![
                        ts.gc.clone(),
                        app("bvshl", vec![it.clone(), bvn(barrier_shift(nb) as u64, 64)]),
                    ],
                );
                self.define(&format!("t{}.gc", th + 1), Sexp::bv_sort(64), v)
            }
            None => {
                let name = self.fresh_name(&format!("t{}.gc.L{line}", th + 1));
                self.declare(&name, Sexp::bv_sort(64))
            }
        };
        let state = ts.clone();
        self.iteration_bounds(l, &it, &mut entry, &state, th);
        it
    }

    /// Constraints on thread `th`'s iteration count `it` from the loop test (PUG §6.1
    /// normalization): iteration `it >= 1` is reached only if the test passed at `it - 1`.
    /// Evaluated with the closed forms at `it - 1` when the test reads only closed-form and
    /// loop-invariant variables (exact in bit-vectors); and, for `i < ub` / `i <= ub` /
    /// `i > lb` / `i >= lb` with a linear `i`, the trip bound `i0 + (it-1)*k < ub` in wide
    /// arithmetic, under the condition that no step can wrap (`ub - 1 + k <= MAX`), which makes
    /// it exact too.
    pub(in crate::encode) fn iteration_bounds(
        &mut self,
        l: &AbstractLoop,
        it: &Sexp,
        entry: &mut TState,
        head: &TState,
        th: usize,
    ) {
        if !l.cond_stmts.is_empty() {
            return;
        }
        let closed: BTreeMap<VarId, ClosedForm> = l.closed.iter().cloned().collect();
        let havocked: BTreeSet<VarId> = l.havocked.iter().copied().collect();
        if mentions(&l.cond, &havocked) {
            return;
        }
        // A `while` head `it >= 1` passed the test on iteration `it - 1`'s head; a do-while
        // head `it >= 1` passed it on its own state (the test follows the body).
        let prev_it = if l.do_while {
            it.clone()
        } else {
            app("bvsub", vec![it.clone(), bvn(1, 64)])
        };
        let mut prev = head.clone();
        for (v, cf) in &l.closed {
            let v0 = self.read_var(*v, entry, th);
            let value = self.closed_value(*v, cf, v0, &prev_it, entry, th);
            self.assign(*v, value, &mut prev, th);
        }
        let c_prev = self.expr(&l.cond, &mut prev, th);
        let started = app("bvuge", vec![it.clone(), bvn(1, 64)]);
        self.assert(app("=>", vec![started.clone(), c_prev]));
        // The trip bound of each linear index the test compares: the test is a conjunction
        // when leading `if (d) break;`s were folded into it (`i < Tr && !(i*Br + tx >= N)`),
        // and each conjunct held at `it - 1`.
        let mut parts = Vec::new();
        conjuncts(&l.cond, &mut parts);
        for c in parts {
            if let Some(stride) = self.trip_bound(l, c, &closed, entry, &prev_it, &started, th) {
                self.strides.push(StrideAt {
                    key: l as *const AbstractLoop as usize,
                    th,
                    count: it.clone(),
                    stride,
                });
            }
        }
    }

    /// Pair model: a closed form is a function of the iteration count, the entry value and
    /// the stride, so two threads at equal counts (an iteration or the exit, `instances[th]`)
    /// from equal values agree on it (asserted, a valid fact). Saves the solver proving it
    /// through two shifters or multipliers, e.g. that both threads of a tree reduction see
    /// the same `s` when their barrier counts agree.
    pub(in crate::encode) fn closed_congruence(
        &mut self,
        l: &AbstractLoop,
        entry: &[TState],
        instances: &[Vec<(Sexp, TState)>],
    ) {
        if !self.model.pair() {
            return;
        }
        for (v, cf) in &l.closed {
            let mut start = Vec::new();
            for (th, e) in entry.iter().enumerate().take(2) {
                let mut e = e.clone();
                let v0 = self.read_var(*v, &mut e, th);
                let k = match cf {
                    ClosedForm::Linear(k) => Some(self.expr(k, &mut e, th)),
                    _ => None,
                };
                start.push((v0, k));
            }
            let mut premise = vec![app("=", vec![start[0].0.clone(), start[1].0.clone()])];
            if let (Some(a), Some(b)) = (&start[0].1, &start[1].1) {
                premise.push(app("=", vec![a.clone(), b.clone()]));
            }
            for (c1, s1) in &instances[0] {
                for (c2, s2) in &instances[1] {
                    let a = self.read_var(*v, &mut s1.clone(), 0);
                    let b = self.read_var(*v, &mut s2.clone(), 1);
                    if a == b {
                        continue;
                    }
                    let mut p = premise.clone();
                    p.push(app("=", vec![c1.clone(), c2.clone()]));
                    self.assert(app("=>", vec![app("and", p), app("=", vec![a, b])]));
                }
            }
        }
    }

    /// The value of `v` after `it` iterations, from its value `v0` on entry.
    pub(in crate::encode) fn closed_value(
        &mut self,
        v: VarId,
        cf: &ClosedForm,
        v0: Sexp,
        it: &Sexp,
        ts: &mut TState,
        th: usize,
    ) -> Sexp {
        let ty = self.k.var(v).ty;
        let w = ty.bits();
        let it_w = extend(it.clone(), 64, w, false);
        // Shifting by the width or more: as if by width (bvshl/bvlshr give 0, bvashr the sign).
        let capped = app(
            "ite",
            vec![
                app("bvuge", vec![it.clone(), bvn(w as u64, 64)]),
                bvn(w as u64, w),
                it_w.clone(),
            ],
        );
        match cf {
            ClosedForm::Linear(k) => {
                let kv = self.expr(k, ts, th);
                let kv = self.coerce_int(kv, k.ty(), ty);
                app("bvadd", vec![v0, app("bvmul", vec![it_w, kv])])
            }
            ClosedForm::Halving => app(if ty.is_signed() { "bvashr" } else { "bvlshr" }, vec![v0, capped]),
            ClosedForm::Doubling => app("bvshl", vec![v0, capped]),
        }
    }

    /// One iteration of a closed form's rule applied to `value`: `value + k`, `value >> 1`
    /// (arithmetic for signed types) or `value << 1`. For the value at `it` this is the closed
    /// form at `it + 1` (shifts by the width or more are clamped in [`Self::closed_value`], and
    /// one more step of a shifted-out value stays shifted out).
    pub(in crate::encode) fn one_step(
        &mut self,
        v: VarId,
        cf: &ClosedForm,
        value: Sexp,
        ts: &mut TState,
        th: usize,
    ) -> Sexp {
        let ty = self.k.var(v).ty;
        let one = bvn(1, ty.bits());
        match cf {
            ClosedForm::Linear(k) => {
                let kv = self.expr(k, ts, th);
                let kv = self.coerce_int(kv, k.ty(), ty);
                app("bvadd", vec![value, kv])
            }
            ClosedForm::Halving => app(if ty.is_signed() { "bvashr" } else { "bvlshr" }, vec![value, one]),
            ClosedForm::Doubling => app("bvshl", vec![value, one]),
        }
    }

    /// Assumes the invariants of `l` that do not read the other thread (all of them unless
    /// `relational`, see [`Self::pair_relational`]) for each thread of `st` (a head, or the
    /// exit), each over the thread's own view of memory.
    fn assume_plain_invariants(&mut self, l: &AbstractLoop, relational: bool, st: &mut [TState]) {
        for inv in &l.invariants {
            if relational && inv.reads_other_thread() {
                continue;
            }
            let terms = self.loop_invariant_terms(inv, st, st.len(), Reading::Own, false);
            for (th, c) in terms.into_iter().enumerate() {
                self.assume(&mut st[th], th, c);
            }
        }
    }

    /// The accesses known at a head or the exit of `l` (the threads `st`, at the counts
    /// `counts`), in the barrier interval that goes on there:
    ///
    /// - a barrier-free loop runs in the interval of its entry: the accesses known on entry
    ///   (`entry`);
    /// - a loop running a fixed number of barriers per iteration: at count 0 those known on
    ///   entry, at a count `c >= 1` those that iteration `c - 1` made after its last barrier
    ///   (`tail`, [`tail_accesses`]), at their addresses now;
    /// - otherwise none.
    fn recall_at_count(
        &mut self,
        l: &AbstractLoop,
        entry: &[Seen],
        tail: &[(ArrayId, Expr, Ty)],
        counts: &[Sexp],
        st: &mut [TState],
    ) {
        match l.barriers {
            Some(0) => self.recall_known(entry, &vec![t(); st.len()], st),
            Some(_) => {
                let first: Vec<Sexp> = counts.iter().map(|c| app("=", vec![c.clone(), bvn(0, 64)])).collect();
                self.recall_known(entry, &first, st);
                for (array, offset, ty) in tail {
                    for (th, ts) in st.iter_mut().enumerate() {
                        let (off, _) = self.offset(offset, ts, th);
                        let reach = self.reach(ts, th);
                        let later = app("bvuge", vec![counts[th].clone(), bvn(1, 64)]);
                        self.know(*array, th, and(reach, later), off, ty.bytes(), ts.bc.clone());
                    }
                }
            }
            None => {}
        }
    }

    /// A check that `inv` holds in `states` (on entry, or at the end of the iteration).
    pub(in crate::encode) fn invariant_check(
        &mut self,
        inv: &LoopInvariant,
        states: &[TState],
        what: &str,
        base: bool,
    ) {
        self.invariant_check_with(inv, states, what, base, t());
    }

    /// A check that `inv` holds in `states` where `premise` holds, over the memory both
    /// threads wrote ([`Reading::Both`]); an invariant that reads the other thread reads it in
    /// `states`.
    pub(in crate::encode) fn invariant_check_with(
        &mut self,
        inv: &LoopInvariant,
        states: &[TState],
        what: &str,
        base: bool,
        premise: Sexp,
    ) {
        let relational = self.reads_other && inv.reads_other_thread();
        let checked = self.model.checked_threads(self.n);
        let terms = self.loop_invariant_terms(inv, states, checked, Reading::Both, relational);
        let mut fails = Vec::new();
        for (th, c) in terms.into_iter().enumerate() {
            let reach = self.reach(&states[th], th);
            fails.push(and(and(reach, premise.clone()), not(c)));
        }
        let span = &inv.span;
        let property = Property::Invariant {
            span: span.clone(),
            base,
        };
        let name = format!("{}.invariant.{what}.L{}", sym(&self.k.name), span.line);
        let fail = fails.iter().cloned().reduce(or).unwrap_or_else(f);
        self.push_check(property, name, fail, fails, self.seen_abstract() && !base);
    }
}

/// What [`Encoder::loop_exit`] leaves: each thread's state after the loop, its exit count,
/// where a `break` between barriers left it (when one may), and whether one may.
struct LoopExit {
    post: Vec<TState>,
    exits: Vec<Sexp>,
    exit_at: Vec<Sexp>,
    mid_iteration: bool,
}

/// The accesses that every iteration of `l` makes after its last barrier, in the barrier
/// interval that the next head (or the exit) is in: those of the statements after the body's
/// last barrier and of the step, at the top level (or in blocks), whose address reads no
/// variable the loop assigns (so that it is the same at the head that follows). Only for a
/// loop running a fixed number `> 0` of barriers per iteration whose body and step cannot
/// leave early (a `continue` could skip them); none otherwise. As (array, byte offset, type).
pub(in crate::encode) fn tail_accesses(l: &AbstractLoop) -> Vec<(ArrayId, Expr, Ty)> {
    if !matches!(l.barriers, Some(n) if n > 0) || has_exit(&l.body) || has_exit(&l.step) {
        return Vec::new();
    }
    let Some(last) = l.body.iter().rposition(|s| matches!(s.kind, StmtKind::Barrier(..))) else {
        return Vec::new();
    };
    let rest: Vec<&Stmt> = l.body[last + 1..].iter().chain(&l.step).collect();
    if rest.iter().any(|s| contains_barrier(std::slice::from_ref(*s))) {
        return Vec::new();
    }
    let assigned: BTreeSet<VarId> = l
        .closed
        .iter()
        .map(|(v, _)| *v)
        .chain(l.havocked.iter().copied())
        .collect();
    fn collect(s: &Stmt, assigned: &BTreeSet<VarId>, out: &mut Vec<(ArrayId, Expr, Ty)>) {
        match &s.kind {
            StmtKind::Load { array, offset, ty, .. }
            | StmtKind::Store { array, offset, ty, .. }
            | StmtKind::Atomic { array, offset, ty, .. }
                if !mentions(offset, assigned) && !reads_other_thread(offset) =>
            {
                out.push((*array, offset.clone(), *ty));
            }
            StmtKind::Block { body, .. } => {
                for s in body {
                    collect(s, assigned, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in rest {
        collect(s, &assigned, &mut out);
    }
    out
}

/// `log2` of the barrier-count stride of a loop running `nb` barriers per iteration: the
/// smallest power of two `>= nb`.
pub(in crate::encode) fn barrier_shift(nb: u32) -> u32 {
    nb.max(1).next_power_of_two().trailing_zeros()
}

/// The positions (barriers of the iteration run before it, modulo `nb`: a `break` after the
/// last barrier is at the next iteration's start) at which a thread leaves `l`, whose
/// iterations each run `nb` barriers and which it leaves only by `break` or its test
/// (`passes/abstraction.rs`: every barrier of the body is then at its top level or in plain
/// blocks, and a statement holding a `break` holds no barrier). Its test fails at position 0
/// (always counted, even for a test that cannot fail: an over-approximation).
fn break_positions(l: &AbstractLoop, nb: u32) -> BTreeSet<u32> {
    // The test: at an iteration's start, or (do-while) at the next one's; so is a `break` in
    // the test's statements.
    let mut out = BTreeSet::from([0]);
    let mut before = 0u32;
    for s in &l.body {
        let one = std::slice::from_ref(s);
        if exits_to(one, l.brk) {
            out.insert(before % nb);
        }
        before += barrier_statements(one);
    }
    out
}

/// Whether `stmts` (a loop body) can leave the loop other than by `break` or `continue`: a
/// `return`, or an exit of a block around the loop.
pub(in crate::encode) fn leaves_loop(stmts: &[Stmt], brk: BlockId, cont: BlockId) -> bool {
    let mut w = LoopExits {
        inner: HashSet::from([brk, cont]),
        exits: Vec::new(),
        returns: false,
        in_head: 0,
    };
    w.visit_block(stmts);
    w.returns || w.exits.iter().any(|x| !w.inner.contains(x))
}

/// What [`leaves_loop`] collects from a loop body (not from `__ensures` bodies): the labels
/// declared inside it (blocks, nested loops' `brk` and `cont`), the exits, whether it returns.
/// Labels declared in a nested loop's test or step are not counted as inside (`in_head`), so
/// an exit to one of them counts as leaving: conservative, and kept so.
struct LoopExits {
    inner: HashSet<BlockId>,
    exits: Vec<BlockId>,
    returns: bool,
    in_head: usize,
}

impl Visitor for LoopExits {
    fn visit_stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Return => self.returns = true,
            StmtKind::Ensures { .. } => {}
            StmtKind::AbstractLoop(l) => {
                self.visit_label(l.brk, LabelContext::Break);
                self.visit_label(l.cont, LabelContext::Continue);
                self.visit_block(&l.body);
                self.in_head += 1;
                self.visit_block(&l.cond_stmts);
                self.visit_block(&l.step);
                self.in_head -= 1;
            }
            _ => self.super_stmt(s),
        }
    }

    fn visit_label(&mut self, id: BlockId, ctx: LabelContext) {
        if ctx == LabelContext::Exit {
            self.exits.push(id);
        } else if self.in_head == 0 {
            self.inner.insert(id);
        }
    }
}

/// The conjuncts of `e` (`a && b && c` gives `a`, `b`, `c`; anything else is one), in order.
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Binary {
            op: BinOp::LAnd,
            lhs,
            rhs,
            ..
        } => {
            conjuncts(lhs, out);
            conjuncts(rhs, out);
        }
        _ => out.push(e),
    }
}
