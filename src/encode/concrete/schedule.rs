//! Schedule IDs: one formula for every interleaving of the threads' shared and global accesses (PUG
//! (Li and Gopalakrishnan, FSE 2010), §3 "encoding concurrency with schedule IDs"; ARCHITECTURE.md
//! "Schedule IDs").
//!
//! In the concrete model with schedule IDs, every shared or global access of every thread is an
//! [`Event`] with its own schedule ID (SID), a bit-vector variable `sid.K`. The constraints
//! (built by `Encoder::finish_schedule`) are PUG's ORDER constraints:
//!
//! - program order: the events of one thread have increasing SIDs;
//! - barriers: for each block `b` and barrier number `j` (1-based) a barrier SID `bsid.b.j`;
//!   an event of a thread of block `b` that has passed fewer than `j` barriers precedes it,
//!   one that has passed `j` or more follows it; `bsid.b.1 < bsid.b.2 < …`;
//! - all SIDs (events and barriers) are `distinct` and lie in `[0, total)`, `total` being their
//!   number, so the SIDs are a permutation of the time steps;
//! - per array (per array and block for a `__shared__` one: each block has its own) a
//!   timeline `M.a.s` of byte maps, `s` in `[0, total]`: `M.a.0` is the initial
//!   memory, and `M.a.(s+1)` is `store(M.a.s, …)` when the event with SID `s` writes `a`
//!   (and is enabled: its path condition holds), else `M.a.s` (`v[sid] = v[sid - 1]`). An
//!   event with SID `s` reads `M.a.s`. An atomic is one event: it reads `M.a.s` and writes
//!   `M.a.(s+1)`, a single read-modify-write step.
//!
//! The witness schedule is read back by sorting the enabled events by their SIDs' values.

use super::state::{Event, Timeline};
use crate::encode::AccessKind;
use crate::encode::engine::{Encoder, MemKey, TState};
use crate::encode::terms::{and, app, atom, bvn, mem_sort, not, sym};
use crate::ir::{ArrayId, Space, Span, Ty};
use crate::solver::Sexp;

impl Encoder<'_> {
    /// Whether accesses to `array` are events of the timeline.
    pub(in crate::encode) fn scheduled(&self, array: ArrayId) -> bool {
        self.concrete.schedule.is_some() && !matches!(self.k.array(array).space, Space::Local | Space::Constant)
    }

    /// Adds an event for thread `th`; returns its index and the bytes it reads (a fresh
    /// variable, constrained by the timeline; for a plain write an unused one).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::encode) fn sched_access(
        &mut self,
        ts: &TState,
        th: usize,
        array: ArrayId,
        off: &Sexp,
        ty: Ty,
        kind: AccessKind,
        span: &Span,
    ) -> (usize, Sexp) {
        let k = self.concrete.schedule.as_ref().map(|s| s.events.len()).unwrap_or(0);
        let read = if kind == AccessKind::Write {
            None
        } else {
            Some(self.declare(&format!("ev.{k}.read"), Sexp::bv_sort(ty.bits())))
        };
        let sid = atom(format!("sid.{k}"));
        let ev = Event {
            thread: th,
            array,
            block: self.mem_key(ts, array).1,
            off: off.clone(),
            ty,
            pc: ts.pc.clone(),
            bc: ts.bc.clone(),
            kind,
            read: read.clone(),
            write: None,
            span: span.clone(),
            sid,
        };
        if let Some(s) = self.concrete.schedule.as_mut() {
            s.events.push(ev);
        }
        (k, read.unwrap_or_else(|| bvn(0, ty.bits())))
    }

    /// Sets the bytes event `ev` writes.
    pub(in crate::encode) fn sched_write(&mut self, ev: usize, bits: Sexp) {
        if let Some(e) = self.concrete.schedule.as_mut().and_then(|s| s.events.get_mut(ev)) {
            e.write = Some(bits);
        }
    }

    /// Emits the ORDER constraints and the timelines (see the module docs). `threads_per_block`
    /// groups the threads into blocks for barrier SIDs. Afterwards `self.global` holds each
    /// array's final memory and the encoder no longer schedules accesses.
    pub(in crate::encode) fn finish_schedule(&mut self, threads_per_block: usize) {
        let Some(mut tl) = self.concrete.schedule.take() else {
            return;
        };
        let n_events = tl.events.len();
        let barriers = self.barrier_count as usize;
        let blocks = self.n.div_ceil(threads_per_block.max(1));
        let total = n_events + blocks * barriers;
        let mut bits = 1;
        while (1usize << bits) <= total {
            bits += 1;
        }
        tl.sid_bits = bits;
        let sid_sort = Sexp::bv_sort(bits);
        let num = |v: usize| bvn(v as u64, bits);
        let mut all = Vec::new();
        for k in 0..n_events {
            let s = self.declare(&format!("sid.{k}"), sid_sort.clone());
            all.push(s);
        }
        let mut bsid = vec![Vec::new(); blocks];
        for (b, row) in bsid.iter_mut().enumerate() {
            for j in 1..=barriers {
                let s = self.declare(&format!("bsid.{b}.{j}"), sid_sort.clone());
                all.push(s.clone());
                row.push(s);
            }
        }
        for s in &all {
            self.assert(app("bvult", vec![s.clone(), num(total)]));
        }
        if all.len() >= 2 {
            self.assert(app("distinct", all.clone()));
        }
        // Program order.
        let mut last: Vec<Option<Sexp>> = vec![None; self.n];
        for e in &tl.events {
            if let Some(prev) = &last[e.thread] {
                self.assert(app("bvult", vec![prev.clone(), e.sid.clone()]));
            }
            last[e.thread] = Some(e.sid.clone());
        }
        // Barriers.
        for row in &bsid {
            for w in row.windows(2) {
                self.assert(app("bvult", vec![w[0].clone(), w[1].clone()]));
            }
        }
        for e in &tl.events {
            let b = e.thread / threads_per_block.max(1);
            for (j, bs) in bsid[b].iter().enumerate() {
                let before = app("bvult", vec![e.bc.clone(), bvn(j as u64 + 1, 32)]);
                let c = app(
                    "ite",
                    vec![
                        before,
                        app("bvult", vec![e.sid.clone(), bs.clone()]),
                        app("bvugt", vec![e.sid.clone(), bs.clone()]),
                    ],
                );
                self.assert(c);
            }
        }
        // SID ranges: with one block and every barrier count a literal, barrier interval k
        // occupies the steps after barrier k and before barrier k + 1, and program order
        // narrows each event's range further. Otherwise every step is possible.
        let mut range = vec![(0usize, total.saturating_sub(1)); n_events];
        let lits: Option<Vec<usize>> = tl
            .events
            .iter()
            .map(|e| e.bc.as_bv().and_then(|v| usize::try_from(v).ok()))
            .collect();
        if let (1, Some(lits)) = (blocks, lits) {
            let mut count = vec![0usize; barriers + 1];
            for &k in &lits {
                if k <= barriers {
                    count[k] += 1;
                }
            }
            if lits.iter().all(|&k| k <= barriers) {
                let mut start = vec![0usize; barriers + 1];
                for k in 1..=barriers {
                    start[k] = start[k - 1] + count[k - 1] + 1;
                }
                for (j, (bs, st)) in bsid[0].iter().zip(start.iter().skip(1)).enumerate() {
                    let _ = j;
                    self.assert(app("=", vec![bs.clone(), num(st - 1)]));
                }
                let mut before = vec![vec![0usize; barriers + 1]; self.n];
                let mut per_thread = vec![vec![0usize; barriers + 1]; self.n];
                for (e, &k) in tl.events.iter().zip(&lits) {
                    per_thread[e.thread][k] += 1;
                }
                for (i, (e, &k)) in tl.events.iter().zip(&lits).enumerate() {
                    let pos = before[e.thread][k];
                    before[e.thread][k] += 1;
                    let after = per_thread[e.thread][k] - pos - 1;
                    range[i] = (start[k] + pos, start[k] + count[k] - 1 - after);
                    self.assert(app("bvule", vec![num(range[i].0), e.sid.clone()]));
                    self.assert(app("bvule", vec![e.sid.clone(), num(range[i].1)]));
                }
            }
        }
        // Timelines, one per memory that has events (a `__shared__` array's: one per block).
        let mut keys: Vec<MemKey> = tl.events.iter().map(|e| (e.array, e.block)).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            self.timeline_of(&tl, key, &range, total, bits);
        }
        self.concrete.timeline = Some(tl);
    }

    /// The timeline of memory `key` (see the module docs): its byte maps over the `total`
    /// steps, each event's read tied to the map at its SID (within its SID `range`), and the
    /// last map as `key`'s final memory in `self.global`. SIDs are `bits` wide.
    fn timeline_of(&mut self, tl: &Timeline, key: MemKey, range: &[(usize, usize)], total: usize, bits: u32) {
        let num = |v: usize| bvn(v as u64, bits);
        let (a, block) = key;
        let name = match block {
            0 => sym(&self.k.array(a).name),
            b => format!("{}.b{b}", sym(&self.k.array(a).name)),
        };
        let mut cur = self.global.get(&key).cloned().unwrap_or_else(|| {
            let n = format!("mem.{name}.{}.init", a.0);
            self.declare(&n, mem_sort())
        });
        let mine: Vec<(usize, &Event)> = tl
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| (e.array, e.block) == key)
            .collect();
        let writes: Vec<&(usize, &Event)> = mine.iter().filter(|(_, e)| e.write.is_some()).collect();
        let mut states = vec![cur.clone()];
        for s in 0..total {
            let mut next = cur.clone();
            for (i, e) in writes.iter().rev() {
                if s < range[*i].0 || s > range[*i].1 {
                    continue;
                }
                let Some(w) = &e.write else { continue };
                let at = and(e.pc.clone(), app("=", vec![e.sid.clone(), num(s)]));
                let stored = Self::store_bytes(cur.clone(), &e.off, w, e.ty.bytes());
                next = app("ite", vec![at, stored, next]);
            }
            cur = self.define(&format!("M.{name}.{}", s + 1), mem_sort(), next);
            states.push(cur.clone());
        }
        for (i, e) in &mine {
            let Some(r) = &e.read else { continue };
            if writes.is_empty() {
                // Never written: every schedule reads the initial memory.
                let val = Self::load_bytes(&states[0], &e.off, e.ty.bytes());
                self.assert(app("=", vec![r.clone(), val]));
                continue;
            }
            let (lo, hi) = range[*i];
            for (s, m) in states.iter().enumerate().take(hi + 1).skip(lo) {
                let at = app("=", vec![e.sid.clone(), num(s)]);
                let val = Self::load_bytes(m, &e.off, e.ty.bytes());
                let c = app("or", vec![not(at), app("=", vec![r.clone(), val])]);
                self.assert(c);
            }
        }
        self.global.insert(key, cur);
    }
}
