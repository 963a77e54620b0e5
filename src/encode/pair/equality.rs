//! The pair model's abstraction of shared state (GPUVerify's equality abstraction): at each
//! barrier every shared and global array becomes a fresh array that both threads see (a
//! `__shared__` array only when they are of one block: each block has its own); arrays
//! touched by an atomic are adversarial, every read from them fresh. In every memory model,
//! arrays that a call without a body may write ([`StmtKind::Clobber`]) are adversarial too.
//!
//! Which arrays it sets apart is found beforehand (`adversarial`). Does not count barriers nor
//! check divergence (`engine/barriers.rs`).

use super::adversarial::{clobbered_arrays, has_compare_and_swap};
use crate::encode::engine::{Encoder, TState};
use crate::encode::terms::{app, atom, mem_sort, sym, t};
use crate::ir::{ArrayId, Space};
use crate::solver::Sexp;

impl Encoder<'_> {
    /// Under the equality abstraction, a fresh memory (declared here) for each shared and
    /// global array the kernel writes, at the barrier being encoded; none under other memory
    /// models.
    pub(in crate::encode) fn fresh_at_barrier(&mut self) -> Vec<(ArrayId, Sexp)> {
        let written = self.written_arrays().clone();
        self.k
            .arrays
            .iter()
            .enumerate()
            // An array no thread writes keeps its memory: nothing can have changed it.
            .filter(|(i, a)| {
                self.model.equality_abstraction()
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
    pub(in crate::encode) fn written_arrays(&mut self) -> &std::collections::BTreeSet<ArrayId> {
        self.pair.written.get_or_insert_with(|| {
            let mut w = std::collections::BTreeSet::new();
            crate::ir::query::written_arrays(&self.k.body, &mut w);
            w
        })
    }

    /// Thread `th` passes the barrier (if its path condition holds) and sees the `fresh`
    /// memories from there on ([`Self::block_view`]).
    pub(in crate::encode) fn renew_shared(&mut self, ts: &mut TState, th: usize, fresh: &[(ArrayId, Sexp)]) {
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
    pub(in crate::encode) fn block_view(&mut self, id: ArrayId, m: Sexp, th: usize, what: &str) -> Sexp {
        let one_block = self.g.grid_dim.iter().all(|d| *d == Some(1));
        if th == 0 || !self.model.pair() || one_block || self.k.array(id).space != Space::Shared {
            return m;
        }
        let name = self.fresh_name(&format!("t{}.mem.{}.{what}", th + 1, sym(&self.k.array(id).name)));
        let other = self.declare(&name, mem_sort());
        app("ite", vec![atom("same_block"), m, other])
    }

    /// Bardsley and Donaldson (NFM 2014) §3's equality abstraction for lock-step warps: after a
    /// statement that writes `array` (a shared or global one: a thread's local arrays are its own),
    /// the warp's other threads, which the pair model does not follow, have written it too, so both
    /// threads see a fresh memory of it from there on (an equal view: one memory, or one per block
    /// for a `__shared__` array, [`Self::block_view`]). Done whether or not the two threads
    /// themselves executed the write: other lanes may have. Reads between two such writes agree,
    /// which is what the abstraction keeps; a write by a thread of another warp in between is a
    /// race with the read, which the race checks ask.
    pub(in crate::encode) fn warp_havoc(&mut self, array: ArrayId, st: &mut [TState]) {
        let name = self.fresh_name(&format!("mem.{}.warp", sym(&self.k.array(array).name)));
        let m = self.declare(&name, mem_sort());
        for (th, ts) in st.iter_mut().enumerate() {
            let v = self.block_view(array, m.clone(), th, "warp");
            self.mem_set(ts, array, v);
        }
    }

    /// The refinement of Bardsley and Donaldson (NFM 2014) §4.2 for counters ([`counter_arrays`]):
    /// for every call of thread 1 and every call of thread 2 on a counter whose old value they
    /// keep, when both are made at one offset they return different values (asserted in the
    /// script); for a counter of block-scope atomics or in `__shared__` memory, when the threads
    /// are of one block.
    pub(in crate::encode) fn counter_values_differ(&mut self) {
        let calls = std::mem::take(&mut self.pair.counter_calls);
        for (a1, _, pc1, off1, old1) in calls.iter().filter(|c| c.1 == 0) {
            // One block's copy of a `__shared__` counter is not another block's: two threads
            // of different blocks may get the same value from theirs.
            let block_only = self.pair.counters.iter().any(|(a, b)| a == a1 && *b)
                || self.k.array(*a1).space == crate::ir::Space::Shared;
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
        self.pair.counter_calls = calls;
    }

    /// The report's notes on the abstraction: one for the lock-step warp model, one for
    /// compare-and-swap outside recognised locks (`passes::sync`), one per adversarial array.
    pub(in crate::encode) fn abstraction_notes(&self, notes: &mut Vec<String>) {
        let clobbered = clobbered_arrays(self.k);
        if has_compare_and_swap(self.k) {
            notes.push(
                "`atomicCAS` is one atomic read-modify-write here, outside any spin lock gpug recognises (`while (atomicCAS(&l, c, n) != c);`, a fence, the section, a fence, `atomicExch(&l, c)`, nothing else writing `l`): what it protects is reported as racing (possible false alarms, never a missed race)".to_string(),
            );
        }
        if let Some(n) = self.lockstep {
            notes.push(format!(
                "lock-step warps of {n} threads (--warp-sync={n}; Bardsley and Donaldson, NFM 2014, section 3): threads of one warp execute each statement together, reads before writes, so only two writes of one statement race between them; an array's values are forgotten after every statement that writes it (the other threads of the warp write it too), so a defect that depends on them may be a false alarm"
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
        let mut used: Vec<ArrayId> = self.pair.counter_calls.iter().map(|c| c.0).collect();
        used.sort();
        used.dedup();
        for a in used {
            let block_only = self.pair.counters.iter().any(|(c, b)| *c == a && *b);
            notes.push(format!(
                "`{}` is only ever changed by atomic additions (or only by subtractions) of positive constants: the values two calls {}return from one location are taken to differ (GPUVerify's counter refinement: Bardsley and Donaldson, NFM 2014, section 4.2), which holds unless the counter wraps around after 2^{} steps",
                self.k.array(a).name,
                if block_only { "of one block (its atomics have block scope) " } else { "" },
                self.k.array(a).elem.bits()
            ));
        }
    }
}
