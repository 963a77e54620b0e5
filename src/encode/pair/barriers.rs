//! Barriers: each thread's barrier count (`bc`, with the jump to the next iteration in an
//! abstracted loop with a fixed barrier count) and grid-barrier count (`gc`, likewise), the
//! divergence check (two threads of one block at equal counts, or for a grid barrier two
//! threads of different blocks at equal grid counts, one reaching the barrier and one not), and
//! the top-level segments.
//!
//! Does not decide what shared memory looks like after a barrier (`abstraction`) nor build race
//! queries (`races`).

use super::races::equal;
use super::{Encoder, MemoryModel, Property, TState};
use crate::encode::terms::{and, app, atom, bvn, not, or, sym, t};
use crate::ir::{BarrierScope, Stmt};
use crate::solver::Sexp;

impl Encoder<'_> {
    /// A barrier of `scope` reached by every thread of `st` under its path condition. A grid
    /// barrier is also a block barrier: it counts in `bc` as well as in `gc`.
    pub(super) fn barrier(&mut self, s: &Stmt, scope: BarrierScope, st: &mut [TState]) {
        self.barrier_count += 1;
        let grid = scope == BarrierScope::Grid;
        // Divergence: two threads (of one block, or any two for a grid barrier) disagree on
        // reaching this barrier.
        if self.checks && self.n == 2 && !(st[0].pc == t() && st[1].pc == t()) {
            self.divergence_check(s, grid, st);
        }
        let fresh = self.fresh_at_barrier();
        // The last barrier of an iteration of an abstracted loop jumps to the next iteration.
        let jump = self.iteration_jump(false);
        let grid_jump = if grid { self.iteration_jump(true) } else { None };
        for (th, ts) in st.iter_mut().enumerate() {
            ts.bc = self.count_up(ts, &ts.bc.clone(), jump.as_ref().map(|j| j[th].clone()), "bc", th);
            if grid {
                let gc = ts.gc.clone();
                ts.gc = self.count_up(ts, &gc, grid_jump.as_ref().map(|j| j[th].clone()), "gc", th);
            }
            self.renew_shared(ts, th, &fresh);
        }
        if self.depth == 0 {
            self.segment += 1;
        }
    }

    /// `__syncwarp()` with the full mask (issue 12), reached by every thread of `st` under its
    /// path condition: in the pair model, outside abstracted loops, both threads' warp-barrier
    /// counts go up and shared state is renewed as at a barrier (the equality abstraction: up
    /// to the first race, threads ordered by it see one memory). Two accesses of one warp race
    /// only at equal counts (`races`): a lane that has passed more warp barriers than another
    /// made its access after the other lane's, since a full-mask `__syncwarp` completes only
    /// when every lane of the warp reaches one. A lane of the warp that does not reach it is
    /// barrier divergence (CUDA leaves it undefined; since Volta lanes may meet at different
    /// `__syncwarp` calls, which gpug reports as divergence too: a possible false alarm, never
    /// a missed race). Inside an abstracted loop, and in the other models, it orders nothing
    /// (only more races are reported).
    pub(super) fn warp_barrier(&mut self, s: &Stmt, st: &mut [TState]) {
        if self.memory != MemoryModel::EqualityAbstraction || self.abstract_depth > 0 || self.n != 2 {
            return;
        }
        self.barrier_count += 1;
        let same_warp = self.same_warp();
        if self.checks && !(st[0].pc == t() && st[1].pc == t()) {
            // Two lanes of one warp that have passed the same barriers and warp barriers.
            let same_count = and(and(same_warp, equal(&st[0].bc, &st[1].bc)), equal(&st[0].wc, &st[1].wc));
            self.divergence_query(s, same_count, st);
        }
        let fresh = self.fresh_at_barrier();
        for (th, ts) in st.iter_mut().enumerate() {
            ts.wc = self.count_up(ts, &ts.wc.clone(), None, "wc", th);
            self.renew_shared(ts, th, &fresh);
        }
    }

    /// `same_warp`: the two threads are of one block and one warp (their linear thread ids
    /// `x + y*blockDim.x + z*blockDim.x*blockDim.y` agree but for the last 5 bits; warps of 32
    /// threads), defined once.
    pub(super) fn same_warp(&mut self) -> Sexp {
        if let Some(w) = &self.same_warp {
            return w.clone();
        }
        let w = self.one_warp("same_warp", 5);
        self.same_warp = Some(w.clone());
        w
    }

    /// `lockstep_warp`: the two threads are of one block and one warp of `n` threads (`n` a
    /// power of two: the lock-step model's, [`super::EncodeOptions::lockstep`]), defined once.
    pub(super) fn lockstep_warp(&mut self, n: u32) -> Sexp {
        if let Some(w) = &self.lockstep_warp {
            return w.clone();
        }
        let w = self.one_warp("lockstep_warp", n.trailing_zeros());
        self.lockstep_warp = Some(w.clone());
        w
    }

    /// Defines `name`: the two threads are of one block and their linear thread ids agree but
    /// for the last `bits` bits.
    fn one_warp(&mut self, name: &str, bits: u32) -> Sexp {
        let warp = |th: usize| {
            let b = |d| atom(Self::builtin_name(crate::ir::Builtin::BlockDim(d), 0));
            let tid = |d| atom(Self::builtin_name(crate::ir::Builtin::ThreadIdx(d), th));
            use crate::ir::Dim::{X, Y, Z};
            let lin = app(
                "bvadd",
                vec![
                    tid(X),
                    app(
                        "bvmul",
                        vec![b(X), app("bvadd", vec![tid(Y), app("bvmul", vec![b(Y), tid(Z)])])],
                    ),
                ],
            );
            app("bvlshr", vec![lin, bvn(u64::from(bits), 32)])
        };
        let value = and(atom("same_block"), app("=", vec![warp(0), warp(1)]));
        self.define(name, atom("Bool"), value)
    }

    /// The count `count` of thread `th` after it passes a barrier under its path condition:
    /// `target` (an iteration jump) or `count + 1`; defined as `t<th>.<what>`.
    fn count_up(&mut self, ts: &TState, count: &Sexp, target: Option<Sexp>, what: &str, th: usize) -> Sexp {
        let inc = target.unwrap_or_else(|| app("bvadd", vec![count.clone(), bvn(1, 64)]));
        let v = if ts.pc == t() {
            inc
        } else {
            app("ite", vec![ts.pc.clone(), inc, count.clone()])
        };
        self.define(&format!("t{}.{what}", th + 1), Sexp::bv_sort(64), v)
    }

    /// The divergence check of the barrier `s`: two threads of one block that have passed the
    /// same number of barriers, one reaching `s` and the other not; for a grid barrier
    /// (`grid`), also two threads of different blocks that have passed the same number of grid
    /// barriers.
    fn divergence_check(&mut self, s: &Stmt, grid: bool, st: &[TState]) {
        // Threads that have passed the same number of barriers (the first divergent
        // barrier of any execution is such a point; in abstracted loops this puts both
        // threads in the same iteration).
        let same_count = and(atom("same_block"), equal(&st[0].bc, &st[1].bc));
        let same_count = if grid {
            or(same_count, and(not(atom("same_block")), equal(&st[0].gc, &st[1].gc)))
        } else {
            same_count
        };
        self.divergence_query(s, same_count, st);
    }

    /// The divergence check of barrier `s` between two threads that `same_count` pairs up:
    /// both threads' assumptions hold and one reaches `s` while the other does not.
    fn divergence_query(&mut self, s: &Stmt, same_count: Sexp, st: &[TState]) {
        let both_assumed = and(st[0].assumed.clone(), st[1].assumed.clone());
        let div = and(
            and(same_count, both_assumed),
            not(app("=", vec![st[0].pc.clone(), st[1].pc.clone()])),
        );
        let property = Property::Divergence { span: s.span.clone() };
        let name = format!("{}.divergence.L{}", sym(&self.k.name), s.span.line);
        let own = vec![st[0].pc.clone(), st[1].pc.clone()];
        self.push_check(property, name, div, own, self.seen_abstract);
    }

    /// Per thread, the barrier count (the grid-barrier count when `grid`) after the last
    /// barrier (grid barrier) of an iteration of the innermost abstracted loop with a fixed
    /// barrier count: the next iteration's base. `None` for any other barrier (the count then
    /// goes up by one).
    fn iteration_jump(&mut self, grid: bool) -> Option<Vec<Sexp>> {
        self.frames.last_mut().and_then(|fr| {
            let (seen, total, base) = if grid {
                (&mut fr.grid_seen, fr.grid_barriers, &fr.grid_base)
            } else {
                (&mut fr.seen, fr.barriers, &fr.base)
            };
            *seen += 1;
            (*seen == total).then(|| {
                base.iter()
                    .map(|(bc0, it)| {
                        let next = app("bvadd", vec![it.clone(), bvn(1, 64)]);
                        app(
                            "bvadd",
                            vec![bc0.clone(), app("bvshl", vec![next, bvn(fr.shift as u64, 64)])],
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    }
}
