//! The pair model's abstraction of shared state (GPUVerify's equality abstraction): at each
//! barrier every shared and global array becomes a fresh array that both threads see (a
//! `__shared__` array only when they are of one block: each block has its own); arrays
//! touched by an atomic are adversarial, every read from them fresh. In every memory model,
//! arrays that a call without a body may write ([`StmtKind::Clobber`]) are adversarial too.
//!
//! Does not count barriers nor check divergence (`barriers`).

use super::{Encoder, MemoryModel, TState};
use crate::encode::terms::{app, atom, mem_sort, sym, t};
use crate::ir::visit::{AccessContext, Visitor};
use crate::ir::{ArrayId, Kernel, Space, Stmt, StmtKind};
use crate::solver::Sexp;

impl Encoder<'_> {
    /// Under the equality abstraction, a fresh memory (declared here) for each shared and
    /// global array the kernel writes, at the barrier being encoded; none under other memory
    /// models.
    pub(super) fn fresh_at_barrier(&mut self) -> Vec<(ArrayId, Sexp)> {
        let written = self.written_arrays().clone();
        self.k
            .arrays
            .iter()
            .enumerate()
            // An array no thread writes keeps its memory: nothing can have changed it.
            .filter(|(i, a)| {
                self.memory == MemoryModel::EqualityAbstraction
                    && matches!(a.space, Space::Shared | Space::Global)
                    && written.contains(&ArrayId(*i))
            })
            .map(|(i, a)| (ArrayId(i), a.name.clone()))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(id, name)| {
                let n = self.fresh_name(&format!("mem.{}.bar{}", sym(&name), self.barrier_count));
                (id, self.declare(&n, mem_sort()))
            })
            .collect()
    }

    /// The arrays some statement of the kernel writes (computed once).
    pub(super) fn written_arrays(&mut self) -> &std::collections::BTreeSet<ArrayId> {
        self.written.get_or_insert_with(|| {
            let mut w = std::collections::BTreeSet::new();
            crate::ir::query::written_arrays(&self.k.body, &mut w);
            w
        })
    }

    /// Thread `th` passes the barrier (if its path condition holds) and sees the `fresh`
    /// memories from there on ([`Self::block_view`]).
    pub(super) fn renew_shared(&mut self, ts: &mut TState, th: usize, fresh: &[(ArrayId, Sexp)]) {
        for (id, m) in fresh {
            let m = &self.block_view(*id, m.clone(), th, &format!("bar{}", self.barrier_count));
            let v = if ts.pc == t() {
                m.clone()
            } else {
                app("ite", vec![ts.pc.clone(), m.clone(), ts.mem[id].clone()])
            };
            let v = self.define(&format!("t{}.mem", th + 1), mem_sort(), v);
            ts.mem.insert(*id, v);
        }
    }

    /// The memory `m` of array `id` that both threads of the pair see, as thread `th` sees it:
    /// for the second thread of a pair and a `__shared__` array, `m` when both threads are of
    /// one block and otherwise a fresh memory (`what` names it), since each block has its own
    /// shared memory. `m` itself in every other case, and when the launch has one block.
    pub(super) fn block_view(&mut self, id: ArrayId, m: Sexp, th: usize, what: &str) -> Sexp {
        let one_block = self.g.grid_dim.iter().all(|d| *d == Some(1));
        if th == 0
            || self.n != 2
            || one_block
            || self.memory != MemoryModel::EqualityAbstraction
            || self.k.array(id).space != Space::Shared
        {
            return m;
        }
        let name = self.fresh_name(&format!("t{}.mem.{}.{what}", th + 1, sym(&self.k.array(id).name)));
        let other = self.declare(&name, mem_sort());
        app("ite", vec![atom("same_block"), m, other])
    }

    /// Paper `000_…` §3's equality abstraction for lock-step warps: after a statement that
    /// writes `array` (a shared or global one: a thread's local arrays are its own), the warp's other threads, which the pair model does not follow, have
    /// written it too, so both threads see a fresh memory of it from there on (an equal view:
    /// one memory, or one per block for a `__shared__` array, [`Self::block_view`]). Done
    /// whether or not the two threads themselves executed the write: other lanes may have.
    /// Reads between two such writes agree, which is what the abstraction keeps; a write by a
    /// thread of another warp in between is a race with the read, which the race checks ask.
    pub(super) fn warp_havoc(&mut self, array: ArrayId, st: &mut [TState]) {
        let name = self.fresh_name(&format!("mem.{}.warp", sym(&self.k.array(array).name)));
        let m = self.declare(&name, mem_sort());
        for (th, ts) in st.iter_mut().enumerate() {
            let v = self.block_view(array, m.clone(), th, "warp");
            self.mem_set(ts, array, v);
        }
    }

    /// The refinement of paper `000_…` §4.2 for counters ([`counter_arrays`]): for every call
    /// of thread 1 and every call of thread 2 on a counter whose old value they keep, when
    /// both are made at one offset they return different values (asserted in the script); for
    /// a counter of block-scope atomics or in `__shared__` memory, when the threads are of one
    /// block.
    pub(super) fn counter_values_differ(&mut self) {
        let calls = std::mem::take(&mut self.counter_calls);
        for (a1, _, pc1, off1, old1) in calls.iter().filter(|c| c.1 == 0) {
            // One block's copy of a `__shared__` counter is not another block's: two threads
            // of different blocks may get the same value from theirs.
            let block_only =
                self.counters.iter().any(|(a, b)| a == a1 && *b) || self.k.array(*a1).space == crate::ir::Space::Shared;
            for (_, _, pc2, off2, old2) in calls.iter().filter(|c| c.1 == 1 && c.0 == *a1) {
                let mut both = vec![pc1.clone(), pc2.clone(), app("=", vec![off1.clone(), off2.clone()])];
                if block_only {
                    both.push(atom("same_block"));
                }
                let both = app("and", both);
                let differ = app("not", vec![app("=", vec![old1.clone(), old2.clone()])]);
                self.assert(app("=>", vec![both, differ]));
            }
        }
        self.counter_calls = calls;
    }

    /// The report's notes on the abstraction: one for the lock-step warp model, one for
    /// compare-and-swap outside recognised locks (`passes::sync`), one per adversarial array.
    pub(super) fn abstraction_notes(&self, notes: &mut Vec<String>) {
        let clobbered = clobbered_arrays(self.k);
        if has_compare_and_swap(self.k) {
            notes.push(
                "`atomicCAS` is one atomic read-modify-write here, outside any spin lock gpug recognises (`while (atomicCAS(&l, c, n) != c);`, a fence, the section, a fence, `atomicExch(&l, c)`, nothing else writing `l`): what it protects is reported as racing (possible false alarms, never a missed race)".to_string(),
            );
        }
        if let Some(n) = self.lockstep {
            notes.push(format!(
                "lock-step warps of {n} threads (--warp-sync={n}, paper 000 section 3): threads of one warp execute each statement together, reads before writes, so only two writes of one statement race between them; an array's values are forgotten after every statement that writes it (the other threads of the warp write it too), so a defect that depends on them may be a false alarm"
            ));
        }
        for a in &self.adversarial {
            let name = &self.k.array(*a).name;
            notes.push(match clobbered.iter().find(|(c, _)| c == a) {
                Some((_, call)) => format!(
                    "array `{name}` may be written by `{call}`, a call without a body: its values are arbitrary (adversarial), so a defect that depends on them is possible"
                ),
                None => format!(
                    "array `{name}` is touched by atomics: its values are abstracted (adversarial), so a race that depends on them may be a false alarm"
                ),
            });
        }
        let mut used: Vec<ArrayId> = self.counter_calls.iter().map(|c| c.0).collect();
        used.sort();
        used.dedup();
        for a in used {
            let block_only = self.counters.iter().any(|(c, b)| *c == a && *b);
            notes.push(format!(
                "`{}` is only ever changed by atomic additions (or only by subtractions) of positive constants: the values two calls {}return from one location are taken to differ (GPUVerify's counter refinement, paper 000 section 4.2), which holds unless the counter wraps around after 2^{} steps",
                self.k.array(a).name,
                if block_only { "of one block (its atomics have block scope) " } else { "" },
                self.k.array(a).elem.bits()
            ));
        }
    }
}

/// The arrays whose values are adversarial under `memory` (sorted, once each): under the
/// equality abstraction, those an atomic of `k` touches; in every model, those a call without
/// a body may write ([`clobbered_arrays`]). (Under the lock-step warp model the others are
/// forgotten after each write instead, [`Encoder::warp_havoc`].)
pub(super) fn adversarial_arrays(k: &Kernel, memory: MemoryModel) -> Vec<ArrayId> {
    let mut adversarial = Vec::new();
    if memory == MemoryModel::EqualityAbstraction {
        collect_atomic_arrays(&k.body, &mut adversarial);
    }
    adversarial.extend(clobbered_arrays(k).into_iter().map(|(a, _)| a));
    adversarial.sort();
    adversarial.dedup();
    adversarial
}

/// The arrays of `k`'s [`StmtKind::Clobber`]s, each once with the first call that may write
/// it, anywhere in the kernel (in loops and `__ensures` bodies too).
pub(super) fn clobbered_arrays(k: &Kernel) -> Vec<(ArrayId, String)> {
    struct Calls(Vec<(ArrayId, String)>);
    impl Visitor for Calls {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Clobber { array, call } = &s.kind
                && !self.0.iter().any(|(a, _)| a == array)
            {
                self.0.push((*array, call.clone()));
            }
            self.super_stmt(s);
        }
    }
    let mut c = Calls(Vec::new());
    c.visit_block(&k.body);
    c.0
}

/// Whether an `atomicCAS` appears anywhere in `k` (in loops too).
fn has_compare_and_swap(k: &Kernel) -> bool {
    /// The arrays of compare-and-swaps, and those of recognised locks.
    #[derive(Default)]
    struct Cas(Vec<ArrayId>, Vec<ArrayId>);
    impl Visitor for Cas {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Sync(crate::ir::SyncEvent::Lock { array, .. }) = &s.kind {
                self.1.push(*array);
            }
            self.super_stmt(s);
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            if ctx == AccessContext::Atomic(crate::ir::AtomicOp::Cas) {
                self.0.push(array);
            }
        }
    }
    let mut c = Cas::default();
    c.visit_block(&k.body);
    c.0.iter().any(|a| !c.1.contains(a))
}

/// The arrays that an atomic of `stmts` touches (with repetitions), appended to `out`. Not
/// those of atomics inside an abstracted loop or an `__ensures` body, which are not walked.
fn collect_atomic_arrays(stmts: &[Stmt], out: &mut Vec<ArrayId>) {
    struct Atomics<'a>(&'a mut Vec<ArrayId>);
    impl Visitor for Atomics<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            if !matches!(s.kind, StmtKind::AbstractLoop(_) | StmtKind::Ensures { .. }) {
                self.super_stmt(s);
            }
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            if let AccessContext::Atomic(_) = ctx {
                self.0.push(array);
            }
        }
    }
    Atomics(out).visit_block(stmts);
}

/// The counters of `k` (paper `000_…` §4.2, "repetition-free" atomics): the arrays that the
/// kernel touches only with atomic additions of positive literals, or only with atomic
/// subtractions of positive literals, all of one type, and nowhere else (no plain load or
/// store, no other atomic, no call without a body). Each such call moves its location strictly
/// one way, so the values two calls return from one location differ (as long as the counter
/// does not wrap around, which the paper, and gpug with it, sets aside). Each with whether
/// that holds only for two threads of one block: a global array some of whose atomics have
/// block scope (two blocks' calls are not atomic with respect to each other).
pub(super) fn counter_arrays(k: &Kernel) -> Vec<(ArrayId, bool)> {
    use crate::ir::{AtomicOp, Expr, Ty};
    use std::collections::BTreeMap;
    /// Per array: the one (operation, type) of its atomics so far; `None` once disqualified.
    struct Uses<'k>(BTreeMap<ArrayId, Option<(AtomicOp, Ty)>>, &'k Kernel, Vec<ArrayId>);
    fn positive(e: &Expr) -> bool {
        match e {
            Expr::Const { value, ty } => !matches!(ty, Ty::Float { .. } | Ty::Bool) && *value > 0.into(),
            Expr::Cast { arg, ty } => {
                // A literal converted without changing its value.
                matches!(ty, Ty::Int { .. })
                    && positive(arg)
                    && matches!(&**arg, Expr::Const { value, .. } if *value < (num_bigint::BigInt::from(1) << (ty.bits() - 1)))
            }
            _ => false,
        }
    }
    impl Visitor for Uses<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Atomic {
                op,
                scope,
                array,
                operands,
                ty,
                ..
            } = &s.kind
            {
                // A block-scope atomic is atomic for its own block only: on a global array two
                // blocks' calls may return one value.
                if *scope == crate::ir::AtomicScope::Block && self.1.array(*array).space != Space::Shared {
                    self.2.push(*array);
                }
                let ok = matches!(op, AtomicOp::Add | AtomicOp::Sub) && operands.len() == 1 && positive(&operands[0]);
                let entry = self.0.entry(*array).or_insert(Some((*op, *ty)));
                if !ok || *entry != Some((*op, *ty)) {
                    *entry = None;
                }
            }
            self.super_stmt(s);
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            if matches!(ctx, AccessContext::Load | AccessContext::Store | AccessContext::Clobber) {
                self.0.insert(array, None);
            }
        }
    }
    let mut uses = Uses(BTreeMap::new(), k, Vec::new());
    uses.visit_block(&k.body);
    uses.0
        .into_iter()
        .filter(|(a, u)| u.is_some() && k.array(*a).space != Space::Local)
        .map(|(a, _)| (a, uses.2.contains(&a)))
        .collect()
}
