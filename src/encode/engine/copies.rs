//! OpenCL's copies by a whole work-group (`async_work_group_copy`, OpenCL 1.2 section 6.12.10;
//! issue 13) in the pair model. The front end lowers a copy to a load of the source and a store
//! to the destination at one arbitrary index below the count, between
//! [`SyncEvent::CopyStart`] and [`SyncEvent::CopyEnd`]; `wait_group_events` is
//! [`SyncEvent::CopyWait`].
//!
//! - The copy happens at some time from its call to the wait for its event: each thread's
//!   instance of its accesses gets a barrier count of its own, `t<th>.copy<site>.bc`, at least
//!   the thread's count at the call and, once a wait whose events include the copy's is
//!   reached, at most the thread's count there (no wait: no bound). A race query asks for equal
//!   counts as for any access, so an access in any barrier interval between the call and the
//!   wait races with the copy (GPUVerify's `testsuite/OpenCL/async_work_group_copy`: a barrier
//!   between the copy and its wait does not order them). Its grid-barrier count
//!   (`copy<site>.gc`) is bounded alike, and so are its warp-barrier counts
//!   (`copy<site>.wc`): each grouping's count has passed at most as many warp barriers since
//!   the call as the thread has at the wait (counted modulo 2^16, as the counts are), so a
//!   `__syncwarp()` or a tile's `sync()` between the copy and its wait does not order it either.
//! - Two threads of one work-group make one copy: their instances of one copy do not race
//!   with each other (`races`); of two groups, they do (their copies are two).
//! - The destination is renewed after the copy (both threads see one fresh memory): what the
//!   copy wrote is not modelled, only that it may have changed anything there.
//! - In an abstracted loop the copy is left unbounded (never waited for): only more races.
//! - A copy and a wait are collective: one reached by some threads of a group and not by
//!   others is barrier divergence, and so is a copy given different events.
//!
//! CUDA's copies by a thread block (`cooperative_groups::memcpy_async`, `cuda::memcpy_async`
//! with a `thread_block`) are `collective` as OpenCL's are. A copy's event is either a commit
//! group (`CopyStart`'s `commit`: `__pipeline_memcpy_async`, `cg::memcpy_async`, a
//! `cuda::pipeline`'s), which only [`SyncEvent::CopyWaitPrior`] bounds, or an event (OpenCL's,
//! a `cuda::barrier`'s identity), which only [`SyncEvent::CopyWait`] bounds: neither kind of
//! wait completes the other kind's copies, whatever their numbers.
//!
//! CUDA's per-thread copies (`__pipeline_memcpy_async`, `CopyStart` not `collective`) are
//! timed the same way, each thread's its own: the instances of one copy in two threads are two
//! copies (they race where they overlap), no divergence check applies, and the wait that
//! bounds a copy is the thread's [`SyncEvent::CopyWaitPrior`] whose `committed - prior`
//! passes the copy's event (its commit group): `event < committed` and `prior < committed -
//! event`, without overflow.
//!
//! Sound: every interval an access of the copy may fall in is one its count may take.

use super::barriers::{MAX_WARP_GROUPINGS, warp_count};
use super::{Encoder, TState};
use crate::encode::terms::{and, app, atom, equal, mem_sort, not, or, sym, t};
use crate::ir::{Stmt, SyncEvent};
use crate::solver::Sexp;

/// The copies met so far by the encoder.
#[derive(Default)]
pub(in crate::encode) struct CopyState {
    /// The copy whose accesses are being encoded: its site and, per thread, its counts.
    pub(in crate::encode) open: Option<(u32, Vec<CopyCounts>)>,
    /// The copies not inside an abstracted loop: per thread, the copy's counts and event
    /// (BV32), and whether the event is a commit group (`CopyStart`'s `commit`).
    pending: Vec<(Vec<CopyCounts>, Vec<Sexp>, bool)>,
    /// Per thread: the event of the open copy (moved to `pending` at its end).
    event: Vec<Sexp>,
    /// Whether the open copy's event is a commit group.
    commit: bool,
    /// The destination array of the open copy.
    dst: Option<crate::ir::ArrayId>,
    /// The sites of the shared copies (`collective`): per site, when two threads share its
    /// instance (`same_block` for a block's copy, [`Encoder::one_warp`] of the tile's width
    /// for a tile's). A per-thread copy has none: its instances are each thread's own.
    shared: std::collections::BTreeMap<u32, Sexp>,
}

/// One thread's instance of a copy: when its accesses happen, as the barrier counts of an
/// access (`bc`, `gc`, `wc`), and the thread's warp-barrier counts at the call (`wc_call`),
/// from which the wait bounds how many warp barriers `wc` may have passed.
#[derive(Clone)]
pub(in crate::encode) struct CopyCounts {
    /// The block-barrier count of the copy's accesses.
    pub(in crate::encode) bc: Sexp,
    /// Their grid-barrier count.
    pub(in crate::encode) gc: Sexp,
    /// Their warp-barrier counts (BV64, one 16-bit field per grouping).
    pub(in crate::encode) wc: Sexp,
    /// The thread's warp-barrier counts at the call.
    wc_call: Sexp,
}

impl CopyState {
    /// When two threads make one instance of the copy `site` (a `Bool` term of the pair):
    /// `None` for a per-thread copy, whose instances are two copies.
    pub(in crate::encode) fn shared_by(&self, site: u32) -> Option<&Sexp> {
        self.shared.get(&site)
    }

    /// The shared copies' sites with [`Self::shared_by`]'s terms.
    pub(in crate::encode) fn shared(&self) -> impl Iterator<Item = (u32, &Sexp)> {
        self.shared.iter().map(|(s, p)| (*s, p))
    }
}

impl CopyCounts {
    /// The copy's accesses happen before the thread's point `ts` (a wait that covers it): at
    /// most its barrier counts there, and in each warp grouping at most as many warp barriers
    /// past the call as the thread has passed (modulo 2^16, [`warp_count`]).
    fn bound(&self, ts: &TState) -> Sexp {
        let mut b = and(
            app("bvule", vec![self.bc.clone(), ts.bc.clone()]),
            app("bvule", vec![self.gc.clone(), ts.gc.clone()]),
        );
        for k in 0..MAX_WARP_GROUPINGS {
            let since = |c: &Sexp| app("bvsub", vec![warp_count(c, k), warp_count(&self.wc_call, k)]);
            b = and(b, app("bvule", vec![since(&self.wc), since(&ts.wc)]));
        }
        b
    }
}

/// Why work-items of one group that give a copy different events is a finding.
const EVENT_DIFFERS: &str =
    "the work-items of a work-group give `async_work_group_copy` different events (OpenCL requires the same arguments)";

impl Encoder<'_> {
    /// A copy or a wait is made by the whole work-group (OpenCL 1.2 section 6.12.10: "must be
    /// encountered by all work-items in a work-group"): two threads of one group at equal
    /// barrier counts, one reaching it and the other not, is barrier divergence.
    ///
    /// A tile's copy is the tile's: `among` (the two threads are of one tile) replaces `same_block`.
    fn collective_check(&mut self, s: &Stmt, among: Option<&Sexp>, st: &[TState]) {
        if self.make_checks && self.model.pair() && !(st[0].pc == t() && st[1].pc == t()) {
            match among {
                None => self.divergence_check(s, false, st),
                Some(group) => self.divergence_among(s, group.clone(), st),
            }
        }
    }

    /// [`SyncEvent::CopyStart`], [`SyncEvent::CopyEnd`] and [`SyncEvent::CopyWait`] for every
    /// thread of `st` (see the module docs).
    pub(in crate::encode) fn copy_event(&mut self, s: &Stmt, ev: &SyncEvent, st: &mut [TState]) {
        match ev {
            SyncEvent::CopyStart {
                site,
                event,
                dst,
                collective,
                tile,
                commit,
            } => {
                // Two threads of one block, or of one tile, share the copy.
                let group = match tile {
                    Some(n) if *collective => {
                        let name = self.fresh_name(&format!("copy{site}.tile"));
                        Some(self.one_warp(&name, n.trailing_zeros()))
                    }
                    _ => None,
                };
                if *collective {
                    self.collective_check(s, group.as_ref(), st);
                    let shared = group.clone().unwrap_or_else(|| atom("same_block"));
                    self.copies.shared.insert(*site, shared);
                }
                let mut counts = Vec::new();
                let mut events = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let mut count = |what: &str, at_call: Option<&Sexp>| {
                        let name = self.fresh_name(&format!("t{}.copy{site}.{what}", th + 1));
                        let c = self.declare(&name, Sexp::bv_sort(64));
                        if let Some(at) = at_call {
                            self.assert(app("bvuge", vec![c.clone(), at.clone()]));
                        }
                        c
                    };
                    let bc = count("bc", Some(&ts.bc));
                    let gc = count("gc", Some(&ts.gc));
                    let wc = count("wc", None);
                    counts.push(CopyCounts {
                        bc,
                        gc,
                        wc,
                        wc_call: ts.wc.clone(),
                    });
                    events.push(self.expr(event, ts, th));
                }
                // One copy of the group: every work-item gives it the same event.
                if *collective && self.make_checks && self.model.pair() {
                    let differ = and(
                        and(
                            group.clone().unwrap_or_else(|| atom("same_block")),
                            equal(&st[0].bc, &st[1].bc),
                        ),
                        and(
                            and(st[0].pc.clone(), st[1].pc.clone()),
                            not(app("=", vec![events[0].clone(), events[1].clone()])),
                        ),
                    );
                    self.divergence_query(s, differ, Some(EVENT_DIFFERS), st);
                }
                self.copies.open = Some((*site, counts));
                self.copies.event = events;
                self.copies.commit = *commit;
                self.copies.dst = Some(*dst);
            }
            SyncEvent::CopyEnd => {
                if let Some((_, counts)) = self.copies.open.take() {
                    let events = std::mem::take(&mut self.copies.event);
                    if self.abstract_depth == 0 {
                        self.copies.pending.push((counts, events, self.copies.commit));
                    }
                }
                if let Some(dst) = self.copies.dst.take()
                    && self.model.equality_abstraction()
                {
                    let name = self.fresh_name(&format!("mem.{}.copy", sym(&self.k.array(dst).name)));
                    let fresh = vec![(dst, self.declare(&name, mem_sort()))];
                    for (th, ts) in st.iter_mut().enumerate() {
                        self.renew_shared(ts, th, &fresh);
                    }
                }
            }
            SyncEvent::CopyWait { events } => {
                self.collective_check(s, None, st);
                for (th, ts) in st.iter_mut().enumerate() {
                    let waited: Vec<Sexp> = events.iter().map(|e| self.expr(e, ts, th)).collect();
                    for (counts, evs, _) in self.copies.pending.clone().into_iter().filter(|c| !c.2) {
                        let hit = waited.iter().fold(crate::encode::terms::f(), |acc, w| {
                            or(acc, app("=", vec![evs[th].clone(), w.clone()]))
                        });
                        let done = and(self.reach(ts, th), hit);
                        let bound = counts[th].bound(ts);
                        self.assert(app("=>", vec![done, bound]));
                    }
                }
            }
            SyncEvent::CopyWaitPrior { committed, prior } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    let c = self.expr(committed, ts, th);
                    let p = self.expr(prior, ts, th);
                    for (counts, evs, _) in self.copies.pending.clone().into_iter().filter(|c| c.2) {
                        let e = evs[th].clone();
                        let covered = and(
                            app("bvult", vec![e.clone(), c.clone()]),
                            app("bvult", vec![p.clone(), app("bvsub", vec![c.clone(), e])]),
                        );
                        let done = and(self.reach(ts, th), covered);
                        let bound = counts[th].bound(ts);
                        self.assert(app("=>", vec![done, bound]));
                    }
                }
            }
            _ => {}
        }
    }
}
