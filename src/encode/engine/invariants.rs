//! Barrier invariants in the pair model ("Barrier Invariants", Chong et al. (OOPSLA 2013)): a
//! [`StmtKind::BarrierInvariant`] waits for the next block barrier, where it is *checked* (rule
//! A-BAR-ERR of §3.2, as GPUVerify's `KernelDualiser` asserts it) and then *assumed* over the fresh
//! shared state after the barrier, once per instantiation and thread (rule A-BAR-INV with §3.3's
//! instantiation expressions).
//!
//! The check evaluates the invariant for thread 1 (thread 2 by symmetry; a binary one only when
//! both threads are of one block and at the barrier) over the memory both threads wrote since the
//! last barrier: thread 1's view, with the bytes thread 2 of the same block wrote taken from thread
//! 2's (up to a race, which the race checks report, the value of the canonical serialization of PUG
//! (Li and Gopalakrishnan, FSE 2010) §5). Three queries per invariant:
//!
//! - *holds*: the invariant may be false there (a finding, exit 1);
//! - *access*: a location it reads may be one neither thread accessed since the last barrier
//!   (§3.2's *unknown* locations, whose value a third thread may have changed without any
//!   race of the pair; GPUVerify's `barrier_invariant_access_check`, which §3.3's `u_i`
//!   variables encode; `--no-barrier-access-checks` drops it as GPUVerify's flag does). A
//!   read under `__implies`/`__ite`/`&&` is asked only where its branch is taken;
//! - *uniform*: a variable it reads (other than the built-in thread coordinates) may differ
//!   between two threads of one block. Instantiating the invariant at another thread keeps this
//!   thread's variables (§3.3; GPUVerify refuses any variable it cannot prove uniform), so this
//!   must be unsatisfiable for the assumption to be sound.
//!
//! The assumption, for each instance `[e]` (unary) or `[e1, e2]` (binary) and each thread
//! whose path reaches the barrier: where `0 <= e < blockDim.x` (and `e1 != e2`), the invariant
//! with `threadIdx.x` replaced by `e` (by `e1`, and the other thread's by `e2`), read from the
//! thread's memory after the barrier (GPUVerify's `UnaryBarrierInvariantDescriptor`,
//! `BinaryBarrierInvariantDescriptor`).
//!
//! The locations known in an interval are those of the accesses encoded since the last barrier
//! outside abstracted loops (the list is emptied at every barrier and at the entry and exit of
//! an abstracted loop): fewer known locations only add access-check failures, never hide one.
//!
//! Only the pair model under the equality abstraction reads barrier invariants; the concrete
//! model, whose memory is exact, ignores them.

use super::{Encoder, Property, TState};
use crate::encode::property::InvariantCheck;
use crate::encode::terms::{and, app, atom, bvn, extend, f, not, or, t};
use crate::ir::visit::{VarContext, Visitor};
use crate::ir::{ArrayId, BarrierInvariant, Builtin, Dim, Expr, LoopInvariant, Space, Span, Stmt, StmtKind, VarId};
use crate::solver::Sexp;
use std::collections::BTreeSet;

/// How many ranges of the checking thread's `threadIdx.x` an access check is split into
/// under `--split-invariants` ([`Encoder::push_split_check`]).
const ACCESS_CASES: u32 = 8;

/// One access of the current barrier interval: array, thread, reached (`pc ∧ assumed`), byte
/// offset, width in bytes, whether it writes (a location known from an earlier interval
/// position, [`Encoder::recall_known`], is not taken as a write), the thread's barrier count
/// (BV64) there.
#[derive(Clone, Debug)]
pub(in crate::encode) struct Seen {
    array: ArrayId,
    th: usize,
    reach: Sexp,
    off: Sexp,
    width: u32,
    write: bool,
    bc: Sexp,
}

/// How an invariant's loads read memory.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::encode) enum Reading {
    /// At the check: the evaluating thread's view, with the bytes the other thread of its
    /// block wrote in this interval taken from that thread's view.
    Both,
    /// After the barrier: the thread's own view.
    Own,
}

/// The pair model's barrier-invariant state.
#[derive(Clone, Debug, Default)]
pub(in crate::encode) struct InvariantState {
    /// The invariants met since the last barrier, with their spans.
    pending: Vec<(Span, BarrierInvariant)>,
    /// The accesses of the current barrier interval.
    pub(in crate::encode) seen: Vec<Seen>,
    /// While an invariant is evaluated: per evaluating position, the thread whose built-ins it
    /// reads and the value that replaces its `threadIdx.x` (`BV32`), if any.
    view: Option<[(usize, Option<Sexp>); 2]>,
    /// While an invariant is checked: the threads' states at the barrier (whose memories the
    /// other thread's writes are read from).
    states: Vec<TState>,
    /// While an invariant is checked: the loads made (reached, array, byte offset, width,
    /// position).
    loads: Vec<(Sexp, ArrayId, Sexp, u32, usize)>,
}

impl Encoder<'_> {
    /// Whether barrier invariants are read in this model.
    fn invariants_on(&self) -> bool {
        self.model.pair()
    }

    /// A [`StmtKind::BarrierInvariant`]: kept for the next barrier.
    pub(in crate::encode) fn stmt_barrier_invariant(&mut self, s: &Stmt, bi: &BarrierInvariant) {
        if self.invariants_on() {
            self.invariants.pending.push((s.span.clone(), bi.clone()));
        }
    }

    /// Records the accesses of a statement for the access checks (shared and global arrays):
    /// per thread its reach and byte offset (`per`), and its barrier count (`bcs`).
    pub(in crate::encode) fn note_interval_access(
        &mut self,
        array: ArrayId,
        per: &[(Sexp, Sexp, Sexp)],
        bcs: &[Sexp],
        width: u32,
        write: bool,
    ) {
        if !self.invariants_on() || !matches!(self.k.array(array).space, Space::Shared | Space::Global) {
            return;
        }
        for (th, ((reach, off, _), bc)) in per.iter().zip(bcs).enumerate() {
            self.invariants.seen.push(Seen {
                array,
                th,
                reach: reach.clone(),
                off: off.clone(),
                width,
                write,
                bc: bc.clone(),
            });
        }
    }

    /// The accesses known in the current interval (to be recalled where the interval goes on,
    /// [`Self::recall_known`]).
    pub(in crate::encode) fn known_now(&self) -> Vec<Seen> {
        self.invariants.seen.clone()
    }

    /// Makes `items` (accesses of this interval made before the point the threads `st` are
    /// at, e.g. the head or the exit of an abstracted loop) known again, each where `when`
    /// holds for its thread, at that thread's barrier count now; as known locations only, not
    /// as writes whose values a check would read from the other thread.
    pub(in crate::encode) fn recall_known(&mut self, items: &[Seen], when: &[Sexp], st: &[TState]) {
        if !self.invariants_on() {
            return;
        }
        for s in items {
            let (Some(w), Some(ts)) = (when.get(s.th), st.get(s.th)) else {
                continue;
            };
            self.know(
                s.array,
                s.th,
                and(s.reach.clone(), w.clone()),
                s.off.clone(),
                s.width,
                ts.bc.clone(),
            );
        }
    }

    /// Records that thread `th` (now at barrier count `bc`) accessed the `width` bytes of
    /// `array` at `off` in this interval where `reach` holds (a known location only, see
    /// [`Self::recall_known`]).
    pub(in crate::encode) fn know(&mut self, array: ArrayId, th: usize, reach: Sexp, off: Sexp, width: u32, bc: Sexp) {
        if !self.invariants_on() || !matches!(self.k.array(array).space, Space::Shared | Space::Global) {
            return;
        }
        self.invariants.seen.push(Seen {
            array,
            th,
            reach,
            off,
            width,
            write: false,
            bc,
        });
    }

    /// Whether an access of thread `th` at barrier count `bc` lies in the interval that the
    /// invariant being evaluated at position `pos` reads: its own thread's, or the other
    /// thread's when both are of one block and have passed the same barriers.
    fn same_interval(&self, th: usize, bc: &Sexp, pos: usize) -> Sexp {
        if th == pos {
            return t();
        }
        // Before any abstracted loop (or opaque call) the two threads run barrier by barrier
        // in lock-step, and `seen` holds only the current interval's accesses: both are in
        // it. (A thread skipping a barrier the other reaches is barrier divergence, a finding
        // of its own.) Saying so keeps the counts out of every byte the check reads.
        if !self.seen_abstract() {
            return atom("same_block");
        }
        match self.invariants.states.get(pos) {
            Some(ts) => and(atom("same_block"), crate::encode::terms::equal(bc, &ts.bc)),
            None => atom("same_block"),
        }
    }

    /// The value of built-in `b` for position `th` while an invariant is evaluated at another
    /// thread (`None`: not evaluating one, or no replacement).
    pub(in crate::encode) fn invariant_builtin(&self, b: Builtin, th: usize) -> Option<Sexp> {
        let view = self.invariants.view.as_ref()?;
        let (thread, lid) = view.get(th)?;
        if let (Builtin::ThreadIdx(Dim::X), Some(l)) = (b, lid) {
            return Some(l.clone());
        }
        Some(atom(Self::builtin_name(b, *thread)))
    }

    /// At a block barrier, before the threads pass it: the checks of the pending invariants.
    pub(in crate::encode) fn check_barrier_invariants(&mut self, st: &mut [TState]) {
        if !self.invariants_on() || self.invariants.pending.is_empty() || !self.make_checks {
            return;
        }
        let pending = self.invariants.pending.clone();
        self.invariants.states = st.to_vec();
        for (span, bi) in &pending {
            // Both threads evaluate the body (the other thread's values are `Expr::Other`'s).
            let mut ev = st.to_vec();
            self.invariants.loads.clear();
            // The body's own `Expr::Other`s read the other thread as it is at the barrier.
            let saved = std::mem::replace(&mut self.peers, st.to_vec());
            for (th, ts) in ev.iter_mut().enumerate() {
                self.invariant_body(&bi.body, ts, th, Reading::Both);
            }
            self.peers = saved;
            let loads = std::mem::take(&mut self.invariants.loads);
            let saved = std::mem::replace(&mut self.peers, ev.clone());
            let c = self.cond_term(&bi.cond, &mut ev[0], 0);
            self.peers = saved;
            let mut premise = vec![self.reach(&st[0], 0)];
            if bi.binary {
                // Both threads at this barrier: of one block, with the same barriers passed
                // (in an abstracted loop, at the same iteration).
                premise.push(atom("same_block"));
                premise.push(crate::encode::terms::equal(&st[0].bc, &st[1].bc));
                premise.push(self.reach(&st[1], 1));
            }
            let premise = premise.into_iter().reduce(and).unwrap_or_else(t);
            let name = format!(
                "{}.barrier_invariant.L{}",
                crate::encode::terms::sym(&self.k.name),
                span.line
            );
            let fail = and(premise.clone(), not(c));
            let holds = Property::BarrierInvariant {
                span: span.clone(),
                check: InvariantCheck::Holds,
            };
            self.push_split_check(holds, &name, fail, u32::MAX);
            if self.barrier_access_checks {
                let unknown = loads
                    .iter()
                    .map(|(reach, array, off, width, pos)| {
                        let known = self.known(*array, off, *width, *pos);
                        and(reach.clone(), not(known))
                    })
                    .reduce(or)
                    .unwrap_or_else(f);
                if unknown != f() {
                    let access = Property::BarrierInvariant {
                        span: span.clone(),
                        check: InvariantCheck::Access,
                    };
                    self.push_split_check(
                        access,
                        &format!("{name}.access"),
                        and(premise.clone(), unknown),
                        ACCESS_CASES,
                    );
                }
            }
            // A unary invariant instantiated only at the thread itself keeps the thread's own
            // variables where they belong: nothing to ask of them (as GPUVerify's testsuite
            // writes `__barrier_invariant(temp == A[tid], tid)` over a private `temp`).
            let own_only = !bi.binary
                && bi
                    .instances
                    .iter()
                    .all(|inst| matches!(inst.as_slice(), [e] if is_own_index(e)));
            if !bi.instances.is_empty() && !own_only {
                for v in free_vars(bi) {
                    let x1 = self.read_var(v, &mut st[0], 0);
                    let x2 = self.read_var(v, &mut st[1], 1);
                    let r1 = self.reach(&st[0], 0);
                    let r2 = self.reach(&st[1], 1);
                    let differ = and(and(atom("same_block"), and(r1, r2)), not(app("=", vec![x1, x2])));
                    self.push_check(
                        Property::BarrierInvariant {
                            span: span.clone(),
                            check: InvariantCheck::Uniform(self.k.var(v).name.clone()),
                        },
                        format!("{name}.uniform"),
                        differ,
                        vec![],
                        self.seen_abstract(),
                    );
                }
            }
        }
        self.invariants.states.clear();
    }

    /// Pushes the check that `fail` is unsatisfiable, named `name`: one query, or with
    /// `--split-invariants` and a concrete `blockDim.x` one query per range of thread 1's
    /// `threadIdx.x`, at most `max_cases` ranges of consecutive values (`name.tX` for one
    /// value, `name.tX-Y` for X..=Y), which together cover every thread of the block since
    /// `threadIdx.x < blockDim.x` holds in each. The cases share [`super::Check::split`], so
    /// that the driver asks no other case once one fails. Used for an invariant's holds check
    /// (one case per thread: sums over ranges that depend on the thread are ground once it is
    /// fixed) and its access check (locations affine in the thread, which a few ranges make
    /// small enough for cvc5, without a query per thread: each query costs the solver a pass
    /// over the kernel's assertions, 1.8 times the whole run for Kogge-Stone at 64 threads).
    fn push_split_check(&mut self, property: Property, name: &str, fail: Sexp, max_cases: u32) {
        match self.g.block_dim[0].filter(|_| self.split_invariants) {
            Some(size) => {
                let tid = atom(Self::builtin_name(Builtin::ThreadIdx(Dim::X), 0));
                let first = self.checks.len();
                let cases = size.clamp(1, max_cases.max(1));
                let width = size.div_ceil(cases);
                let mut lo = 0;
                while lo < size {
                    let hi = (lo + width).min(size) - 1;
                    let (range, label) = if lo == hi {
                        (app("=", vec![tid.clone(), bvn(u64::from(lo), 32)]), format!("t{lo}"))
                    } else {
                        let from = app("bvuge", vec![tid.clone(), bvn(u64::from(lo), 32)]);
                        let to = app("bvule", vec![tid.clone(), bvn(u64::from(hi), 32)]);
                        (and(from, to), format!("t{lo}-{hi}"))
                    };
                    let case = and(fail.clone(), range);
                    self.push_check(
                        property.clone(),
                        format!("{name}.{label}"),
                        case,
                        vec![],
                        self.seen_abstract(),
                    );
                    if let Some(c) = self.checks.last_mut() {
                        c.split = Some(first);
                    }
                    lo = hi + 1;
                }
            }
            None => self.push_check(property, name.to_owned(), fail, vec![], self.seen_abstract()),
        }
    }

    /// After a block barrier, once the threads of `st` see the fresh memories: the pending
    /// invariants assumed at each instance, for each thread; then none is pending and no
    /// location is known.
    pub(in crate::encode) fn assume_barrier_invariants(&mut self, st: &mut [TState]) {
        let pending = std::mem::take(&mut self.invariants.pending);
        self.invariants.seen.clear();
        if !self.invariants_on() {
            return;
        }
        for (_, bi) in &pending {
            for inst in &bi.instances {
                for th in 0..st.len() {
                    if st[th].pc == f() {
                        continue;
                    }
                    // The instantiation expressions, in the thread's own state (where
                    // `__other_int` is the other thread of the pair).
                    let saved = std::mem::replace(&mut self.peers, st.to_vec());
                    let es: Vec<Sexp> = inst
                        .iter()
                        .map(|e| {
                            let v = self.expr(e, &mut st[th], th);
                            extend(v, e.ty().bits(), 64, e.ty().is_signed())
                        })
                        .collect();
                    self.peers = saved;
                    let size = extend(atom(Self::builtin_name(Builtin::BlockDim(Dim::X), th)), 32, 64, false);
                    let mut bounds: Vec<Sexp> = es
                        .iter()
                        .map(|e| {
                            and(
                                app("bvsge", vec![e.clone(), bvn(0, 64)]),
                                app("bvslt", vec![e.clone(), size.clone()]),
                            )
                        })
                        .collect();
                    if let [a, b] = es.as_slice() {
                        bounds.push(not(app("=", vec![a.clone(), b.clone()])));
                    }
                    let lid = |e: &Sexp| app("(_ extract 31 0)", vec![e.clone()]);
                    let lids: Vec<Sexp> = es.iter().map(lid).collect();
                    self.invariants.view = Some([(th, lids.first().cloned()), (th, lids.get(1).cloned())]);
                    let mut ev = vec![st[th].clone(), st[th].clone()];
                    let positions = if bi.binary { 2 } else { 1 };
                    let saved = std::mem::replace(&mut self.peers, ev.clone());
                    for (pos, ts) in ev.iter_mut().enumerate().take(positions) {
                        self.invariant_body(&bi.body, ts, pos, Reading::Own);
                    }
                    self.peers = saved;
                    let saved = std::mem::replace(&mut self.peers, ev.clone());
                    let c = self.cond_term(&bi.cond, &mut ev[0], 0);
                    self.peers = saved;
                    self.invariants.view = None;
                    self.invariants.loads.clear();
                    let premise = bounds.into_iter().reduce(and).unwrap_or_else(t);
                    self.assume(&mut st[th], th, app("=>", vec![premise, c]));
                }
            }
        }
    }

    /// Forgets the locations known in this interval (at the entry and exit of an abstracted
    /// loop).
    pub(in crate::encode) fn forget_known(&mut self) {
        self.invariants.seen.clear();
    }

    /// Whether the `width` bytes at `off` of `array`, read at position `pos`, were all accessed
    /// by one access of that thread, or of the other thread of its block, since the last
    /// barrier.
    fn known(&mut self, array: ArrayId, off: &Sexp, width: u32, pos: usize) -> Sexp {
        // An array no thread writes keeps its memory (`fresh_at_barrier`): no third thread can
        // have changed what the invariant reads there.
        if !self.written_arrays().contains(&array) {
            return t();
        }
        let end = app("bvadd", vec![off.clone(), bvn(u64::from(width), 64)]);
        self.invariants
            .seen
            .iter()
            .filter(|s| s.array == array)
            .map(|s| {
                let s_end = app("bvadd", vec![s.off.clone(), bvn(u64::from(s.width), 64)]);
                let covers = and(
                    app("bvule", vec![s.off.clone(), off.clone()]),
                    app("bvule", vec![end.clone(), s_end]),
                );
                and(self.same_interval(s.th, &s.bc, pos), and(s.reach.clone(), covers))
            })
            .reduce(or)
            .unwrap_or_else(f)
    }

    /// The terms of the loop invariant `inv` (`__invariant`, PUG §6) for the first `positions`
    /// threads of `states`: its body run on a copy of each thread's state, its loads reading
    /// memory as `reading` says ([`Reading::Both`] only in the pair model under the equality
    /// abstraction, [`Reading::Own`] elsewhere) and recorded as no access. With `peers`, its
    /// `Expr::Other`s read the other thread in `states` (the bodies of both run first, so the
    /// condition may read the other's values).
    ///
    /// A check reads [`Reading::Both`]: the memory both threads of the pair wrote in this
    /// interval, as GPUVerify's lock-step pair reads its one memory of the group (a relational
    /// invariant `A[tid] != A[__other_int(tid)]` holds only there). An assumption reads each
    /// thread's own view, which may always be taken as that same memory (the threads' views
    /// differ only where the other thread wrote in this interval, which reading would race).
    pub(in crate::encode) fn loop_invariant_terms(
        &mut self,
        inv: &LoopInvariant,
        states: &[TState],
        positions: usize,
        reading: Reading,
        peers: bool,
    ) -> Vec<Sexp> {
        let reading = if self.invariants_on() { reading } else { Reading::Own };
        let saved_states = std::mem::replace(&mut self.invariants.states, states.to_vec());
        let saved_peers = std::mem::replace(&mut self.peers, if peers { states.to_vec() } else { Vec::new() });
        let mut ev = states.to_vec();
        let ran = if peers { ev.len() } else { positions.min(ev.len()) };
        for (th, ts) in ev.iter_mut().enumerate().take(ran) {
            self.invariant_body(&inv.body, ts, th, reading);
        }
        if peers {
            self.peers = ev.clone();
        }
        let mut terms = Vec::new();
        for (th, ts) in ev.iter_mut().enumerate().take(positions) {
            terms.push(self.cond_term(&inv.cond, ts, th));
        }
        self.invariants.loads.clear();
        self.peers = saved_peers;
        self.invariants.states = saved_states;
        terms
    }

    /// Runs an invariant's `body` for position `th` (loads into its temporaries, assignments,
    /// branches), reading memory as `reading` says; nothing is recorded as an access.
    fn invariant_body(&mut self, body: &[Stmt], ts: &mut TState, th: usize, reading: Reading) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    let v = self.expr(value, ts, th);
                    self.assign(*var, v, ts, th);
                }
                StmtKind::Havoc { var } => self.havoc(*var, ts, th),
                StmtKind::Load { dst, array, offset, ty } => {
                    let (off, _) = self.offset(offset, ts, th);
                    if self.adversarial.contains(array) {
                        self.havoc(*dst, ts, th);
                        continue;
                    }
                    let width = ty.bytes();
                    let raw = match reading {
                        Reading::Both => self.load_both(*array, &off, width, ts, th),
                        Reading::Own => Self::load_bytes(&self.mem_get(ts, *array), &off, width),
                    };
                    if reading == Reading::Both && matches!(self.k.array(*array).space, Space::Shared | Space::Global) {
                        let reach = self.reach(ts, th);
                        self.invariants.loads.push((reach, *array, off.clone(), width, th));
                    }
                    let v = Self::decode_loaded(raw, *ty);
                    let v = self.coerce(v, *ty, self.k.var(*dst).ty);
                    self.assign(*dst, v, ts, th);
                }
                StmtKind::If { cond, then, els } => {
                    let c = self.expr(cond, ts, th);
                    let c = self.define(&format!("t{}.cond", th + 1), atom("Bool"), c);
                    let mut a = ts.clone();
                    let mut b = ts.clone();
                    a.pc = and(ts.pc.clone(), c.clone());
                    b.pc = and(ts.pc.clone(), not(c.clone()));
                    self.invariant_body(then, &mut a, th, reading);
                    self.invariant_body(els, &mut b, th, reading);
                    let pc = ts.pc.clone();
                    *ts = self.merge2(&c, &a, &b, th);
                    ts.pc = pc;
                }
                StmtKind::Block { body, .. } => self.invariant_body(body, ts, th, reading),
                // Bounds and null-pointer guards the passes put before accesses: the
                // invariant's reads are not the thread's accesses.
                _ => {}
            }
        }
    }

    /// At the check: the `width` bytes of `array` at `off` as position `th` reads them, each
    /// from the other thread's view where that thread (of the same block) wrote it in this
    /// interval, from its own otherwise.
    fn load_both(&mut self, array: ArrayId, off: &Sexp, width: u32, ts: &TState, th: usize) -> Sexp {
        let mine = self.mem_get(ts, array);
        let other = 1 - th;
        let Some(theirs) = self.peer_memory(array, other) else {
            return Self::load_bytes(&mine, off, width);
        };
        let writes = self.writes_of_other(array, other, th);
        if writes.is_empty() {
            return Self::load_bytes(&mine, off, width);
        }
        Self::bytes_at(off, width, |addr| {
            let wrote = writes
                .iter()
                .map(|(s, together)| {
                    let s_end = app("bvadd", vec![s.off.clone(), bvn(u64::from(s.width), 64)]);
                    and(
                        together.clone(),
                        and(
                            s.reach.clone(),
                            and(
                                app("bvule", vec![s.off.clone(), addr.clone()]),
                                app("bvult", vec![addr.clone(), s_end]),
                            ),
                        ),
                    )
                })
                .reduce(or)
                .unwrap_or_else(f);
            app(
                "ite",
                vec![
                    wrote,
                    app("select", vec![theirs.clone(), addr.clone()]),
                    app("select", vec![mine.clone(), addr]),
                ],
            )
        })
    }

    /// The writes of `array` by thread `other` known in this interval, each with the condition
    /// that it lies in the interval position `th` reads ([`Self::same_interval`]).
    fn writes_of_other(&self, array: ArrayId, other: usize, th: usize) -> Vec<(Seen, Sexp)> {
        self.invariants
            .seen
            .iter()
            .filter(|s| s.array == array && s.th == other && s.write)
            .map(|s| (s.clone(), self.same_interval(s.th, &s.bc, th)))
            .collect()
    }

    /// The memory of `array` that thread `th` of `st` copies in an array snapshot
    /// ([`StmtKind::ArraySnapshot`]): its own view, and under the equality abstraction of the
    /// pair, the bytes the other thread of its block wrote in this interval (the writes known
    /// here) from the other thread's view.
    pub(in crate::encode) fn snapshot_view(&mut self, array: ArrayId, st: &[TState], th: usize) -> Sexp {
        let mine = self.mem_get(&st[th], array);
        if !self.invariants_on() || st.len() != 2 {
            return mine;
        }
        let other = 1 - th;
        let theirs = self.mem_get(&st[other], array);
        let saved = std::mem::replace(&mut self.invariants.states, st.to_vec());
        let writes = self.writes_of_other(array, other, th);
        self.invariants.states = saved;
        let mut m = mine;
        for (s, together) in writes {
            let bytes = Self::load_bytes(&theirs, &s.off, s.width);
            let stored = Self::store_bytes(m.clone(), &s.off, &bytes, s.width);
            m = app("ite", vec![and(together, s.reach.clone()), stored, m]);
        }
        m
    }

    /// The memory of `array` as thread `th` of the pair sees it now (while checking: the
    /// state the check started from).
    fn peer_memory(&self, array: ArrayId, th: usize) -> Option<Sexp> {
        let ts = self.invariants.states.get(th)?;
        Some(self.mem_get(ts, array))
    }
}

/// Whether the instantiation expression `e` is the thread's own `threadIdx.x` (up to casts).
fn is_own_index(e: &Expr) -> bool {
    match e {
        Expr::Cast { arg, .. } => is_own_index(arg),
        Expr::Builtin(Builtin::ThreadIdx(Dim::X)) => true,
        _ => false,
    }
}

/// The variables `bi` reads that its body does not compute (the thread's own variables, which
/// an instantiation at another thread keeps).
fn free_vars(bi: &BarrierInvariant) -> BTreeSet<VarId> {
    #[derive(Default)]
    struct Uses {
        read: BTreeSet<VarId>,
        defined: BTreeSet<VarId>,
    }
    impl Visitor for Uses {
        fn visit_var(&mut self, var: VarId, ctx: VarContext) {
            if ctx.is_def() {
                self.defined.insert(var);
            } else {
                self.read.insert(var);
            }
        }
    }
    let mut u = Uses::default();
    u.visit_block(&bi.body);
    u.visit_expr(&bi.cond);
    u.read.difference(&u.defined).copied().collect()
}
