//! The statement interpreter: runs every thread in lock step over a block of the prepared
//! kernel, dispatching each statement kind (assignments, loads, stores, atomics, `if`, blocks
//! and their exits, barriers, assumptions, assertions, abstracted loops).
//!
//! Does not build terms of expressions (`expr`) nor model memory (`memory`).

use super::{Check, Encoder, MemoryModel, Property, TState};
use crate::encode::AccessKind;
use crate::encode::concrete;
use crate::encode::terms::{and, atom, f, not, or, sort_of, sym};
use crate::ir::{Expr, Stmt, StmtKind};
use crate::solver::{Query, Sexp};

impl Encoder<'_> {
    /// Runs `stmts` for every thread, stopping when no thread is live.
    pub(in crate::encode) fn block(&mut self, stmts: &[Stmt], st: &mut [TState]) {
        for s in stmts {
            if st.iter().all(|ts| ts.pc == f()) {
                return;
            }
            self.stmt(s, st);
        }
    }

    /// Runs one statement for every thread of `st`.
    pub(in crate::encode) fn stmt(&mut self, s: &Stmt, st: &mut [TState]) {
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
            StmtKind::Load { dst, array, offset, ty } => {
                let adversarial = self.adversarial.contains(array);
                let mut per = Vec::new();
                let mut valid = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let (off, ok) = self.offset(offset, ts, th);
                    valid.push(ok);
                    if adversarial {
                        self.havoc(*dst, ts, th);
                    } else {
                        let raw = match self.scheduled(*array) {
                            true => {
                                self.sched_access(ts, th, *array, &off, *ty, AccessKind::Read, &s.span)
                                    .1
                            }
                            false => self.mem_load(ts, *array, &off, ty.bytes()),
                        };
                        let v = Self::decode_loaded(raw, *ty);
                        let v = self.coerce(v, *ty, self.k.var(*dst).ty);
                        self.assign(*dst, v, ts, th);
                        self.load_origin.insert((th, *dst), (*array, off.clone()));
                    }
                    let reach = self.reach(ts, th);
                    per.push((reach, off, ts.bc.clone()));
                }
                self.record(*array, &s.span, AccessKind::Read, ty.bytes(), per, valid);
            }
            StmtKind::Store {
                array,
                offset,
                value,
                ty,
            } => {
                let mut per = Vec::new();
                let mut valid = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let (off, ok) = self.offset(offset, ts, th);
                    valid.push(ok);
                    let v = self.expr(value, ts, th);
                    let v = self.coerce(v, value.ty(), *ty);
                    let bits = Self::encode_stored(v, *ty);
                    let bits = self.define(&format!("t{}.val", th + 1), Sexp::bv_sort(ty.bits()), bits);
                    if self.scheduled(*array) {
                        let (ev, _) = self.sched_access(ts, th, *array, &off, *ty, AccessKind::Write, &s.span);
                        self.sched_write(ev, bits);
                    } else {
                        self.store(ts, th, *array, &off, &bits, ty.bytes());
                    }
                    let reach = self.reach(ts, th);
                    per.push((reach, off, ts.bc.clone()));
                }
                self.record(*array, &s.span, AccessKind::Write, ty.bytes(), per, valid);
            }
            StmtKind::Atomic {
                op,
                dst,
                array,
                offset,
                operands,
                ty,
            } => {
                let mut per = Vec::new();
                let mut valid = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let (off, ok) = self.offset(offset, ts, th);
                    valid.push(ok);
                    let ops: Vec<Sexp> = operands
                        .iter()
                        .map(|o| {
                            let v = self.expr(o, ts, th);
                            self.coerce(v, o.ty(), *ty)
                        })
                        .collect();
                    if self.adversarial.contains(array) {
                        // Adversarial abstraction: the old value is arbitrary.
                        if let Some(d) = dst {
                            self.havoc(*d, ts, th);
                        }
                    } else {
                        // With schedule IDs the read and the write are one event (one SID).
                        let (ev, raw) = match self.scheduled(*array) {
                            true => {
                                let (ev, raw) =
                                    self.sched_access(ts, th, *array, &off, *ty, AccessKind::Atomic, &s.span);
                                (Some(ev), raw)
                            }
                            false => (None, self.mem_load(ts, *array, &off, ty.bytes())),
                        };
                        let old = self.define(&format!("t{}.old", th + 1), sort_of(*ty), Self::decode_loaded(raw, *ty));
                        let new = self.atomic_value(*op, old.clone(), &ops, *ty);
                        let bits = Self::encode_stored(new, *ty);
                        let bits = self.define(&format!("t{}.val", th + 1), Sexp::bv_sort(ty.bits()), bits);
                        match ev {
                            Some(ev) => self.sched_write(ev, bits),
                            None => self.store(ts, th, *array, &off, &bits, ty.bytes()),
                        }
                        if let Some(d) = dst {
                            let v = self.coerce(old, *ty, self.k.var(*d).ty);
                            self.assign(*d, v, ts, th);
                        }
                    }
                    let reach = self.reach(ts, th);
                    per.push((reach, off, ts.bc.clone()));
                }
                self.record(*array, &s.span, AccessKind::Atomic, ty.bytes(), per, valid);
            }
            StmtKind::If { cond, then, els } => self.if_(cond, then, els, st),
            StmtKind::Block { id, body } => {
                self.exits.insert(*id, Vec::new());
                self.block(body, st);
                let exits = self.exits.remove(id).unwrap_or_default();
                if !exits.is_empty() {
                    for th in 0..self.n {
                        let mut all: Vec<TState> = exits.iter().map(|e| e[th].clone()).collect();
                        all.push(st[th].clone());
                        st[th] = self.merge_many(all, th);
                    }
                }
            }
            StmtKind::Exit(id) => {
                if let Some(v) = self.exits.get_mut(id) {
                    v.push(st.to_vec());
                }
                for ts in st.iter_mut() {
                    ts.pc = f();
                }
            }
            StmtKind::Return => {
                for ts in st.iter_mut() {
                    ts.pc = f();
                }
            }
            StmtKind::Barrier => self.barrier(s, st),
            StmtKind::Assume { cond } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    let c = self.expr(cond, ts, th);
                    self.assume(ts, th, c);
                }
            }
            StmtKind::Assert { cond } if self.checks => {
                // Pair model: the threads are symmetric, so thread 1 stands for both. Otherwise
                // any thread's failure counts; their indicators follow the common values.
                let checked = if self.memory == MemoryModel::EqualityAbstraction {
                    1
                } else {
                    self.n
                };
                let mut fails = Vec::new();
                let mut reads = Vec::new();
                for (th, ts) in st.iter_mut().enumerate().take(checked) {
                    if self.memory == MemoryModel::Serialized {
                        reads.push(self.assert_reads(cond, ts, th));
                    }
                    let c = self.expr(cond, ts, th);
                    let reach = self.reach(ts, th);
                    let fail = and(reach, not(c));
                    fails.push(self.define(&format!("t{}.fails", th + 1), atom("Bool"), fail));
                }
                let fail = fails.iter().cloned().reduce(or).unwrap_or_else(f);
                if self.memory == MemoryModel::Serialized {
                    self.assert_info.push(concrete::AssertInfo {
                        cond: cond.clone(),
                        reads,
                    });
                }
                let layout = self.layout.clone();
                let mut gv = layout.common();
                gv.extend(fails);
                self.check_list.push(Check {
                    property: Property::Assertion { span: s.span.clone() },
                    query: Query {
                        name: format!("{}.assert.L{}", sym(&self.k.name), s.span.line),
                        assertions: vec![fail],
                        get_values: gv,
                    },
                    pairs: Vec::new(),
                    layout,
                    possible: self.seen_abstract,
                });
                // The assertion is not assumed afterwards: the shared script is asserted for every
                // query, this one included.
            }
            StmtKind::Assert { .. } | StmtKind::Invariant { .. } => {}
            StmtKind::AbstractLoop(l) => self.abstract_loop(s, l, st),
            // Postconditions are checked by the concrete model after every thread's last
            // statement (`concrete`); the pair model ignores them.
            StmtKind::Ensures { .. } => {}
            StmtKind::Loop { .. } | StmtKind::Break | StmtKind::Continue => {
                // `passes::prepare` removes these or marks the kernel inconclusive, in which
                // case the driver does not encode it.
            }
        }
    }

    /// `if (cond) then else els`: both arms under their path conditions, then joined.
    pub(super) fn if_(&mut self, cond: &Expr, then: &[Stmt], els: &[Stmt], st: &mut [TState]) {
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
