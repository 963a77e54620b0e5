//! The statement interpreter: runs every thread in lock step over a block of the prepared
//! kernel, dispatching each statement kind (assignments, loads, stores, atomics, `if`, blocks
//! and their exits, barriers, assumptions, assertions, abstracted loops).
//!
//! Does not build terms of expressions (`expr`) nor model memory (`access`).

use super::{Encoder, Property, TState};
use crate::encode::AccessKind;
use crate::encode::concrete::state::AssertInfo;
use crate::encode::terms::{and, app, atom, bvn, f, mem_sort, not, or, sort_of, sym, t};
use crate::ir::{ArrayId, AtomicOp, AtomicScope, BlockId, Expr, Space, Stmt, StmtKind, Ty, VarId};
use crate::solver::Sexp;

impl Encoder<'_> {
    /// Runs `stmts` for every thread, stopping when no thread is live.
    pub(in crate::encode) fn block(&mut self, stmts: &[Stmt], st: &mut [TState]) {
        for s in stmts {
            if st.iter().all(|ts| ts.pc == f()) || self.stop_at_memory_bound() {
                return;
            }
            self.stmt(s, st);
        }
    }

    /// Whether the walk stops: gpug's memory passed `--max-memory` now or earlier
    /// ([`Encoder::stopped`]).
    fn stop_at_memory_bound(&mut self) -> bool {
        if self.stopped.is_none() && crate::memory::over() {
            self.stopped = Some(crate::memory::exceeded(crate::memory::Activity::Encoding));
        }
        self.stopped.is_some()
    }

    /// Runs one statement for every thread of `st`.
    pub(in crate::encode) fn stmt(&mut self, s: &Stmt, st: &mut [TState]) {
        let peers = self.enter_peers(s, st);
        // The program's own computation; an annotation's or a loop abstraction's terms are not.
        let on_trace = matches!(
            s.kind,
            StmtKind::Assign { .. }
                | StmtKind::Load { .. }
                | StmtKind::Store { .. }
                | StmtKind::Atomic { .. }
                | StmtKind::If { .. }
        );
        let outer = std::mem::replace(&mut self.on_trace, on_trace);
        self.stmt_kind(s, st);
        self.on_trace = outer;
        if peers {
            self.peers.clear();
        }
    }

    /// Runs one statement for every thread of `st` (the dispatch of [`Self::stmt`]).
    fn stmt_kind(&mut self, s: &Stmt, st: &mut [TState]) {
        match &s.kind {
            StmtKind::Assign { var, value } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    let v = self.expr(value, ts, th);
                    self.assign(*var, v, ts, th);
                }
            }
            StmtKind::Havoc { var } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    self.havoc(*var, ts, th);
                }
            }
            StmtKind::Load { dst, array, offset, ty } => self.stmt_load(s, *dst, *array, offset, *ty, st),
            StmtKind::Store {
                array,
                offset,
                value,
                ty,
            } => self.stmt_store(s, *array, offset, value, *ty, st),
            StmtKind::Atomic {
                op,
                scope,
                dst,
                array,
                offset,
                operands,
                ty,
            } => self.stmt_atomic(s, (*op, *scope), *dst, *array, offset, operands, *ty, st),
            StmtKind::If { cond, then, els } => self.if_(cond, then, els, st),
            StmtKind::Block { id, body } => self.stmt_block(*id, body, st),
            StmtKind::Exit(id) => {
                if let Some(v) = self.exits.get_mut(id) {
                    v.push(st.to_vec());
                }
                for ts in st.iter_mut() {
                    ts.pc = f();
                }
            }
            StmtKind::Return => {
                self.note_return(st);
                for ts in st.iter_mut() {
                    ts.pc = f();
                }
            }
            StmtKind::Barrier(scope, _) => self.barrier(s, *scope, st),
            StmtKind::WarpBarrier(lanes) => self.warp_barrier(s, *lanes, st),
            StmtKind::Shuffle {
                dst,
                mode,
                mask,
                value,
                lane,
                width,
            } => self.shuffle(s, *dst, *mode, mask.as_ref(), (value, lane, width), st),
            StmtKind::Vote { dst, op, mask, arg } => self.vote(s, *dst, *op, mask.as_ref(), arg, st),
            StmtKind::Assume { cond } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    let c = self.cond_term(cond, ts, th);
                    self.assume(ts, th, c);
                }
            }
            StmtKind::Assert { cond } if self.make_checks => self.stmt_assert(s, cond, st),
            StmtKind::Assert { .. } | StmtKind::Invariant { .. } => {}
            StmtKind::AbstractLoop(l) => self.abstract_loop(s, l, st),
            // Postconditions are checked by the concrete model after every thread's last
            // statement (`concrete`); the pair model ignores them.
            StmtKind::Ensures { .. } => {}
            StmtKind::BarrierInvariant(bi) => self.stmt_barrier_invariant(s, bi),
            StmtKind::Clobber { array, call } => self.stmt_clobber(s, *array, call, st),
            StmtKind::ArraySnapshot { dst, src } => self.array_snapshot(*dst, *src, st),
            // Fences and the idioms they make order accesses between threads of the pair model;
            // the concrete model runs one serialization, which no fence changes.
            StmtKind::Fence(scope) if self.model.equality_abstraction() => self.fence(s, *scope, st),
            StmtKind::Sync(ev) if self.model.equality_abstraction() => self.sync_event(s, ev, st),
            StmtKind::Fence(_) | StmtKind::Sync(_) => {}
            StmtKind::Loop { .. } | StmtKind::Break | StmtKind::Continue => {
                // `passes::prepare` removes these or marks the kernel inconclusive, in which
                // case the driver does not encode it.
            }
        }
    }

    /// An access of `kind` to `ty.bytes()` bytes of `array` at `offset`, for every thread: its
    /// byte offset and validity, then `body` (the thread's load, store or read-modify-write at
    /// that offset, returning the bits a plain store writes), then whether it is reached;
    /// recorded for the race and bank queries.
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        s: &Stmt,
        array: ArrayId,
        offset: &Expr,
        ty: Ty,
        kind: AccessKind,
        st: &mut [TState],
        mut body: impl FnMut(&mut Self, &mut TState, usize, &Sexp) -> Option<Sexp>,
    ) {
        let point = self.sync_point(st);
        let mut per = Vec::new();
        let mut valid = Vec::new();
        let mut grid = Vec::new();
        let mut warp = Vec::new();
        let mut written = Vec::new();
        let mut bcs = Vec::new();
        for (th, ts) in st.iter_mut().enumerate() {
            bcs.push(ts.bc.clone());
            let (off, ok) = self.offset(offset, ts, th);
            valid.push(ok);
            written.extend(body(self, ts, th, &off));
            let reach = self.reach(ts, th);
            // An access of a copy has barrier counts of its own (`copies`).
            let (bc, gc, wc) = match &self.copies.open {
                Some((_, counts)) => (counts[th].bc.clone(), counts[th].gc.clone(), counts[th].wc.clone()),
                None => (ts.bc.clone(), ts.gc.clone(), ts.wc.clone()),
            };
            per.push((reach, off, bc));
            grid.push(gc);
            warp.push(wc);
        }
        let before = self.accesses.len();
        self.note_interval_access(array, &per, &bcs, ty.bytes(), kind != AccessKind::Read);
        self.record(array, &s.span, kind, ty.bytes(), per, grid, warp, valid);
        if let Some(a) = self.accesses.get_mut(before) {
            a.sync = point;
            if written.len() == self.n {
                a.written = written;
            }
        }
    }

    /// A call without a body that may write `array`, for every thread: a write of one byte at
    /// a fresh offset, for the race checks. Its values need no update: the array is
    /// adversarial ([`super::abstraction::adversarial_arrays`]). What follows depends on a
    /// call gpug does not know, so a defect found from here on is possible, not certain.
    fn stmt_clobber(&mut self, s: &Stmt, array: ArrayId, call: &str, st: &mut [TState]) {
        let name = &self.k.array(array).name;
        self.rests_on(format!(
            "the call of `{call}` at line {}, which has no body: it may write any bytes of `{name}`",
            s.span.line
        ));
        let point = self.sync_point(st);
        let mut per = Vec::new();
        let mut valid = Vec::new();
        let mut grid = Vec::new();
        let mut warp = Vec::new();
        for (th, ts) in st.iter_mut().enumerate() {
            let name = self.fresh_name(&format!("t{}.clobber.off", th + 1));
            let off = self.declare(&name, Sexp::bv_sort(64));
            // Within the array (from its start) and within ±2^47, as for any real address.
            let ok = and(
                app("bvsge", vec![off.clone(), bvn(0, 64)]),
                app("bvslt", vec![off.clone(), bvn(1 << 47, 64)]),
            );
            valid.push(ok);
            let reach = self.reach(ts, th);
            per.push((reach, off, ts.bc.clone()));
            grid.push(ts.gc.clone());
            warp.push(ts.wc.clone());
        }
        let before = self.accesses.len();
        self.record(array, &s.span, AccessKind::Write, 1, per, grid, warp, valid);
        if let Some(a) = self.accesses.get_mut(before) {
            a.clobber = true;
            a.sync = point;
        }
    }

    /// `dst = array[offset]` (as `ty`) for every thread.
    fn stmt_load(&mut self, s: &Stmt, dst: VarId, array: ArrayId, offset: &Expr, ty: Ty, st: &mut [TState]) {
        let adversarial = self.adversarial.contains(&array);
        if adversarial && self.clobbered.contains(&array) {
            // The value is arbitrary because of a call without a body.
            let name = &self.k.array(array).name;
            self.rests_on(format!("the values of `{name}`, which a call without a body may write"));
        }
        self.access(s, array, offset, ty, AccessKind::Read, st, |e, ts, th, off| {
            if adversarial {
                e.havoc(dst, ts, th);
            } else {
                let raw = match e.scheduled(array) {
                    true => e.sched_access(ts, th, array, off, ty, AccessKind::Read, &s.span).1,
                    false => e.mem_load(ts, array, off, ty.bytes()),
                };
                let v = Self::decode_loaded(raw, ty);
                let v = e.coerce(v, ty, e.k.var(dst).ty);
                e.assign(dst, v, ts, th);
                e.load_origin.insert((th, dst), (array, off.clone()));
            }
            None
        });
    }

    /// `array[offset] = value` (as `ty`) for every thread.
    fn stmt_store(&mut self, s: &Stmt, array: ArrayId, offset: &Expr, value: &Expr, ty: Ty, st: &mut [TState]) {
        self.access(s, array, offset, ty, AccessKind::Write, st, |e, ts, th, off| {
            let v = e.expr(value, ts, th);
            let v = e.coerce(v, value.ty(), ty);
            let bits = Self::encode_stored(v, ty);
            let bits = e.define(&format!("t{}.val", th + 1), Sexp::bv_sort(ty.bits()), bits);
            if e.scheduled(array) {
                let (ev, _) = e.sched_access(ts, th, array, off, ty, AccessKind::Write, &s.span);
                e.sched_write(ev, bits.clone());
            } else {
                e.store(ts, th, array, off, &bits, ty.bytes());
            }
            Some(bits)
        });
        if self.lockstep.is_some()
            && self.model.equality_abstraction()
            && !self.adversarial.contains(&array)
            && matches!(self.k.array(array).space, Space::Shared | Space::Global)
        {
            self.warp_havoc(array, st);
        }
    }

    /// `__array_snapshot(dst, src)` for every thread (GPUVerify's `$$dst := $$src`): where the
    /// thread runs, `dst` becomes the memory of `src` as it sees it, in one step and without
    /// any access. In the pair model under the equality abstraction that is the memory of the
    /// pair's block as GPUVerify's lock-step pair has it: the thread's own view, with the bytes
    /// the other thread of its block wrote in this interval taken from that thread's view (as
    /// a barrier invariant's check reads them, `invariants`). An array touched by atomics or
    /// by calls without a body has no memory to copy: `dst` becomes arbitrary.
    fn array_snapshot(&mut self, dst: ArrayId, src: ArrayId, st: &mut [TState]) {
        if dst == src {
            return;
        }
        if self.fold {
            for ts in st.iter() {
                for a in [src, dst] {
                    let key = self.mem_key(ts, a);
                    self.materialize(key);
                }
            }
        }
        let mut copies = Vec::new();
        for th in 0..st.len() {
            let m = if self.adversarial.contains(&src) {
                let name = self.fresh_name(&format!("t{}.snapshot.{}", th + 1, sym(&self.k.array(src).name)));
                self.declare(&name, mem_sort())
            } else {
                self.snapshot_view(src, st, th)
            };
            copies.push(m);
        }
        for (th, (ts, m)) in st.iter_mut().zip(copies).enumerate() {
            let old = self.mem_get(ts, dst);
            let v = if ts.pc == t() {
                m
            } else {
                app("ite", vec![ts.pc.clone(), m, old])
            };
            let name = format!("t{}.mem.{}", th + 1, sym(&self.k.array(dst).name));
            let v = self.define(&name, mem_sort(), v);
            self.mem_set(ts, dst, v);
        }
    }

    /// `dst = atomicOp(&array[offset], operands…)` (as `ty`) for every thread.
    #[allow(clippy::too_many_arguments)]
    fn stmt_atomic(
        &mut self,
        s: &Stmt,
        (op, scope): (AtomicOp, AtomicScope),
        dst: Option<VarId>,
        array: ArrayId,
        offset: &Expr,
        operands: &[Expr],
        ty: Ty,
        st: &mut [TState],
    ) {
        let recorded = self.accesses.len();
        self.access(s, array, offset, ty, AccessKind::Atomic, st, |e, ts, th, off| {
            let ops: Vec<Sexp> = operands
                .iter()
                .map(|o| {
                    let v = e.expr(o, ts, th);
                    e.coerce(v, o.ty(), ty)
                })
                .collect();
            if e.adversarial.contains(&array) {
                // Adversarial abstraction: the old value is arbitrary (for a counter, one that
                // no other thread's call on the location returns).
                if let Some(d) = dst {
                    e.havoc(d, ts, th);
                    if e.pair.counters.iter().any(|c| c.0 == array) && e.read_vars.contains(&d) {
                        let old = e.read_var(d, ts, th);
                        e.pair.counter_calls.push((array, th, ts.pc.clone(), off.clone(), old));
                    }
                }
            } else {
                // With schedule IDs the read and the write are one event (one SID).
                let (ev, raw) = match e.scheduled(array) {
                    true => {
                        let (ev, raw) = e.sched_access(ts, th, array, off, ty, AccessKind::Atomic, &s.span);
                        (Some(ev), raw)
                    }
                    false => (None, e.mem_load(ts, array, off, ty.bytes())),
                };
                let old = e.define(&format!("t{}.old", th + 1), sort_of(ty), Self::decode_loaded(raw, ty));
                let new = e.atomic_value(op, old.clone(), &ops, ty);
                let bits = Self::encode_stored(new, ty);
                let bits = e.define(&format!("t{}.val", th + 1), Sexp::bv_sort(ty.bits()), bits);
                match ev {
                    Some(ev) => e.sched_write(ev, bits),
                    None => e.store(ts, th, array, off, &bits, ty.bytes()),
                }
                if let Some(d) = dst {
                    let v = e.coerce(old, ty, e.k.var(d).ty);
                    e.assign(d, v, ts, th);
                }
            }
            // What an atomic writes depends on the memory it reads: never benign.
            None
        });
        let writes = !crate::ir::query::atomic_read_only(op, operands);
        for a in &mut self.accesses[recorded..] {
            a.atomic = Some((op, scope));
            a.sync.writes = writes;
        }
    }

    /// The block `id`: its body, then each thread's state merged with those at its exits.
    fn stmt_block(&mut self, id: BlockId, body: &[Stmt], st: &mut [TState]) {
        self.exits.insert(id, Vec::new());
        self.block(body, st);
        let exits = self.exits.remove(&id).unwrap_or_default();
        if !exits.is_empty() {
            for th in 0..self.n {
                let mut all: Vec<TState> = exits.iter().map(|e| e[th].clone()).collect();
                all.push(st[th].clone());
                st[th] = self.merge_many(all, th);
            }
        }
    }

    /// The check of `assert(cond)` at `s`.
    fn stmt_assert(&mut self, s: &Stmt, cond: &Expr, st: &mut [TState]) {
        // Pair model: the threads are symmetric, so thread 1 stands for both. Otherwise
        // any thread's failure counts; their indicators follow the common values.
        let checked = self.model.checked_threads(self.n);
        let mut fails = Vec::new();
        let mut reads = Vec::new();
        for (th, ts) in st.iter_mut().enumerate().take(checked) {
            if self.model.pinned() {
                reads.push(self.assert_reads(cond, ts, th));
            }
            let c = self.cond_term(cond, ts, th);
            let reach = self.reach(ts, th);
            let fail = and(reach, not(c));
            fails.push(self.define(&format!("t{}.fails", th + 1), atom("Bool"), fail));
        }
        let fail = fails.iter().cloned().reduce(or).unwrap_or_else(f);
        if self.model.pinned() {
            self.concrete.assert_info.push(AssertInfo {
                cond: cond.clone(),
                reads,
            });
        }
        let property = Property::Assertion { span: s.span.clone() };
        let name = format!("{}.assert.L{}", sym(&self.k.name), s.span.line);
        self.push_check(property, name, fail, fails, self.seen_abstract());
        // The assertion is not assumed afterwards: the shared script is asserted for every
        // query, this one included.
    }

    /// `if (cond) then else els`: both arms under their path conditions, then joined.
    pub(in crate::encode) fn if_(&mut self, cond: &Expr, then: &[Stmt], els: &[Stmt], st: &mut [TState]) {
        let mut conds = Vec::new();
        for (th, ts) in st.iter_mut().enumerate() {
            let c = self.expr(cond, ts, th);
            let c = self.define(&format!("t{}.cond", th + 1), atom("Bool"), c);
            conds.push(c);
        }
        let mut st_then = st.to_vec();
        let mut st_else = st.to_vec();
        for th in 0..self.n {
            let pc_t = and(st[th].pc.clone(), conds[th].clone());
            st_then[th].pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc_t);
            let pc_e = and(st[th].pc.clone(), not(conds[th].clone()));
            st_else[th].pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc_e);
        }
        let starts: Vec<(Sexp, Sexp)> = (0..self.n)
            .map(|th| (st_then[th].pc.clone(), st_else[th].pc.clone()))
            .collect();
        self.depth += 1;
        self.block(then, &mut st_then);
        self.block(els, &mut st_else);
        self.depth -= 1;
        for th in 0..self.n {
            let pre_pc = st[th].pc.clone();
            // Neither arm left early: the path condition after the `if` is the one before.
            let kept = st_then[th].pc == starts[th].0 && st_else[th].pc == starts[th].1;
            st[th] = self.merge2(&conds[th], &st_then[th], &st_else[th], th);
            if kept {
                st[th].pc = pre_pc;
            }
        }
    }
}
