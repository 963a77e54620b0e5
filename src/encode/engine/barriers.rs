//! Barriers: each thread's barrier count (`bc`, with the jump to the next iteration in an
//! abstracted loop with a fixed barrier count) and grid-barrier count (`gc`, likewise), the
//! divergence check (two threads of one block at equal counts, or for a grid barrier two
//! threads of different blocks at equal grid counts, one reaching the barrier and one not), and
//! the top-level segments.
//!
//! Does not decide what shared memory looks like after a barrier (`abstraction`) nor build race
//! queries (`races`).

use super::{Encoder, Property, TState};
use crate::encode::terms::{and, app, atom, bvn, equal, f, not, or, sym, t};
use crate::ir::{BarrierScope, Stmt, WarpLanes};
use crate::solver::Sexp;

impl Encoder<'_> {
    /// A barrier of `scope` reached by every thread of `st` under its path condition. A grid
    /// barrier is also a block barrier: it counts in `bc` as well as in `gc`.
    pub(in crate::encode) fn barrier(&mut self, s: &Stmt, scope: BarrierScope, st: &mut [TState]) {
        self.barrier_count += 1;
        let grid = scope == BarrierScope::Grid;
        // Divergence: two threads (of one block, or any two for a grid barrier) disagree on
        // reaching this barrier.
        if self.make_checks && self.model.pair() && !(st[0].pc == t() && st[1].pc == t()) {
            self.divergence_check(s, grid, st);
        }
        if !grid {
            self.check_barrier_invariants(st);
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
        self.assume_barrier_invariants(st);
        if self.depth == 0 {
            self.segment += 1;
        }
    }

    /// A warp barrier of `lanes` (issue 12: `__syncwarp(mask)`, a tile's `sync()`), reached by
    /// every thread of `st` under its path condition: in the pair model, outside abstracted
    /// loops, both threads' counts for this grouping of warp barriers go up and shared state is
    /// renewed as at a barrier (the equality abstraction: up to the first race, threads
    /// ordered by it see one memory). Two accesses of threads of one group race only at equal
    /// counts (`races`): a thread that has passed more of these barriers than another of its
    /// group made its access after the other's, since such a barrier completes only when every
    /// thread of the group reaches one. A thread of the group that does not reach it is
    /// barrier divergence (CUDA leaves it undefined; since Volta lanes may meet at different
    /// `__syncwarp` calls, which gpug reports as divergence too: a possible false alarm, never
    /// a missed race), and so is a thread that calls `__syncwarp(mask)` with its own lane
    /// outside the mask. Inside an abstracted loop, in the other models, and for groupings
    /// past the [`MAX_WARP_GROUPINGS`]th, it orders nothing (only more races are reported).
    pub(in crate::encode) fn warp_barrier(&mut self, s: &Stmt, lanes: WarpLanes, st: &mut [TState]) {
        if !self.model.pair() || self.abstract_depth > 0 {
            return;
        }
        let Some(k) = self.warp_grouping(lanes) else {
            return;
        };
        self.barrier_count += 1;
        let group = self.pair.warp_groups[k].1.clone();
        let outside: Vec<Sexp> = match lanes {
            WarpLanes::Mask(m) => (0..2)
                .map(|th| and(st[th].pc.clone(), not(Self::in_mask(m, th))))
                .collect(),
            WarpLanes::Tile(_) => vec![],
        };
        if self.make_checks && !(st[0].pc == t() && st[1].pc == t() && outside.is_empty()) {
            // Two threads of one group that have passed the same barriers and warp barriers
            // of this grouping, one reaching it and the other not; or a caller outside its mask.
            let same_count = and(
                and(group, equal(&st[0].bc, &st[1].bc)),
                equal(&warp_count(&st[0].wc, k), &warp_count(&st[1].wc, k)),
            );
            let diverge = and(same_count, not(app("=", vec![st[0].pc.clone(), st[1].pc.clone()])));
            self.divergence_query(s, diverge, None, st);
            if !outside.is_empty() {
                self.divergence_query(s, outside.into_iter().fold(f(), or), Some(OUTSIDE_MASK), st);
            }
        }
        let fresh = self.fresh_at_barrier();
        let step = bvn(1 << (16 * k), 64);
        for (th, ts) in st.iter_mut().enumerate() {
            let inc = app("bvadd", vec![ts.wc.clone(), step.clone()]);
            ts.wc = self.count_up(ts, &ts.wc.clone(), Some(inc), "wc", th);
            self.renew_shared(ts, th, &fresh);
        }
        self.forget_known();
    }

    /// The index of `lanes`' grouping in `warp_groups`, added (with its `warp.g<k>`) at its
    /// first barrier; `None` past [`MAX_WARP_GROUPINGS`] groupings.
    fn warp_grouping(&mut self, lanes: WarpLanes) -> Option<usize> {
        if let Some(k) = self.pair.warp_groups.iter().position(|(l, _)| *l == lanes) {
            return Some(k);
        }
        if self.pair.warp_groups.len() >= MAX_WARP_GROUPINGS {
            return None;
        }
        let k = self.pair.warp_groups.len();
        let name = format!("warp.g{k}");
        let group = match lanes {
            WarpLanes::Tile(n) => self.one_warp(&name, n.trailing_zeros()),
            WarpLanes::Mask(m) => {
                let warp = self.one_warp(&format!("{name}.warp"), 5);
                let both = and(warp, and(Self::in_mask(m, 0), Self::in_mask(m, 1)));
                self.define(&name, atom("Bool"), both)
            }
        };
        self.pair.warp_groups.push((lanes, group));
        Some(k)
    }

    /// Thread `th`'s lane (its linear thread id mod 32) has its bit set in `mask`.
    fn in_mask(mask: u32, th: usize) -> Sexp {
        let lane = app("bvand", vec![Self::linear_tid(th), bvn(31, 32)]);
        super::shuffle::names(&bvn(u64::from(mask), 32), &lane)
    }

    /// `lockstep_warp`: the two threads are of one block and one warp of `n` threads (`n` a
    /// power of two: the lock-step model's, [`super::EncodeOptions::lockstep`]), defined once.
    pub(in crate::encode) fn lockstep_warp(&mut self, n: u32) -> Sexp {
        if let Some(w) = &self.pair.lockstep_warp {
            return w.clone();
        }
        let w = self.one_warp("lockstep_warp", n.trailing_zeros());
        self.pair.lockstep_warp = Some(w.clone());
        w
    }

    /// Defines `name`: the two threads are of one block and their linear thread ids agree but
    /// for the last `bits` bits.
    pub(in crate::encode) fn one_warp(&mut self, name: &str, bits: u32) -> Sexp {
        let warp = |th: usize| app("bvlshr", vec![Self::linear_tid(th), bvn(u64::from(bits), 32)]);
        let value = and(atom("same_block"), app("=", vec![warp(0), warp(1)]));
        self.define(name, atom("Bool"), value)
    }

    /// Thread `th`'s linear thread id in its block, `x + blockDim.x*(y + blockDim.y*z)` (BV32).
    pub(in crate::encode) fn linear_tid(th: usize) -> Sexp {
        let b = |d| atom(Self::builtin_name(crate::ir::Builtin::BlockDim(d), 0));
        let tid = |d| atom(Self::builtin_name(crate::ir::Builtin::ThreadIdx(d), th));
        use crate::ir::Dim::{X, Y, Z};
        app(
            "bvadd",
            vec![
                tid(X),
                app(
                    "bvmul",
                    vec![b(X), app("bvadd", vec![tid(Y), app("bvmul", vec![b(Y), tid(Z)])])],
                ),
            ],
        )
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
    pub(in crate::encode) fn divergence_check(&mut self, s: &Stmt, grid: bool, st: &[TState]) {
        // Threads that have passed the same number of barriers (the first divergent
        // barrier of any execution is such a point; in abstracted loops this puts both
        // threads in the same iteration).
        let same_count = and(atom("same_block"), equal(&st[0].bc, &st[1].bc));
        let same_count = if grid {
            or(same_count, and(not(atom("same_block")), equal(&st[0].gc, &st[1].gc)))
        } else {
            same_count
        };
        self.diverge_where(s, same_count, st);
    }

    /// [`Self::divergence_check`] of a collective of the group `among` (a `Bool` term of the
    /// pair, implying `same_block`: a tile's copy) instead of the block.
    pub(in crate::encode) fn divergence_among(&mut self, s: &Stmt, among: Sexp, st: &[TState]) {
        let same_count = and(among, equal(&st[0].bc, &st[1].bc));
        self.diverge_where(s, same_count, st);
    }

    /// The divergence query of `s` for two threads meeting `same_count`, one reaching `s` and
    /// the other not.
    fn diverge_where(&mut self, s: &Stmt, same_count: Sexp, st: &[TState]) {
        let mut diverge = and(same_count, not(app("=", vec![st[0].pc.clone(), st[1].pc.clone()])));
        // Two threads that entered a loop around this barrier together pass its barriers in
        // lock step: they cannot diverge here (block-uniform barriers, `pair::uniform`).
        for together in &self.entered_together {
            diverge = and(diverge, not(together.clone()));
        }
        self.divergence_query(s, diverge, None, st);
    }

    /// The divergence check of barrier `s`: both threads' assumptions hold and `cond` (the
    /// divergence: two threads that should meet at `s`, one reaching it and the other not;
    /// with `reason`, a thread calling `__syncwarp(mask)` from outside its mask).
    pub(in crate::encode) fn divergence_query(
        &mut self,
        s: &Stmt,
        cond: Sexp,
        reason: Option<&'static str>,
        st: &[TState],
    ) {
        let both_assumed = and(st[0].assumed.clone(), st[1].assumed.clone());
        let div = and(cond, both_assumed);
        let property = Property::Divergence {
            span: s.span.clone(),
            reason,
        };
        let what = if reason.is_some() { "outside_mask" } else { "divergence" };
        let name = format!("{}.{what}.L{}", sym(&self.k.name), s.span.line);
        let own = vec![st[0].pc.clone(), st[1].pc.clone()];
        self.push_check(property, name, div, own, self.seen_abstract());
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

/// Most groupings of warp barriers (distinct masks and tile sizes) a kernel's counts keep
/// apart; the barriers of any further grouping order nothing.
pub(in crate::encode) const MAX_WARP_GROUPINGS: usize = 4;

/// The count of warp barriers of grouping `k` in a thread's warp-barrier counts `wc` (BV16):
/// bits `16k..16k+16`. A count that wraps past 2^16 compares equal to a smaller one, which
/// only makes two accesses look unordered (more races reported, none hidden).
pub(in crate::encode) fn warp_count(wc: &Sexp, k: usize) -> Sexp {
    let lo = 16 * k;
    Sexp::list(vec![
        app(
            "_",
            vec![atom("extract"), atom((lo + 15).to_string()), atom(lo.to_string())],
        ),
        wc.clone(),
    ])
}

/// Why a `__syncwarp(mask)` called from outside its mask is a finding.
const OUTSIDE_MASK: &str =
    "a thread calls `__syncwarp(mask)` with its own lane outside the mask (CUDA requires the caller's bit to be set)";
