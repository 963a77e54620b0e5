//! Fences, spin locks and flags in the pair model (docs/modelling.md "Fences, flags and locks";
//! issue 22; PTX ISA, "Memory Consistency Model": morally strong operations, release and acquire
//! patterns, fence-fence synchronisation, causality order).
//!
//! Each thread keeps the program-order position of its last fence of any scope and of its last
//! fence of device or system scope (`TState::fence`). Positions number accesses, fences and the
//! markers of `passes::sync` in the order the encoder meets them: along any path of one thread
//! they increase (the arms of an `if` are numbered one after the other, and a path takes one),
//! and every point of an abstracted loop's one iteration lies between the loop's own position
//! and what follows the loop. So a fence lies between a thread's point at position `p` and a
//! later point `q` of that thread exactly when `q`'s last fence is above `p`. At the head of an
//! abstracted loop (and after it) whose body fences, the last fence is either the one before
//! the loop or one of an earlier iteration, which is before everything of this iteration: the
//! loop's own position stands for it.
//!
//! Two facts order a pair of conflicting accesses `a` (thread 1) and `b` (thread 2), and the
//! race query asks for a pair that neither orders ([`Encoder::sync_order`]):
//! - **Lock**: both lie in critical sections of one lock word (same array, same offset), each
//!   with a fence after its acquisition and before it, and a fence after it before the release,
//!   which the thread reaches; the lock's atomics and the fences have scopes that hold both
//!   threads. Mutual exclusion (`passes::sync` checks that only the lock's acquire and release
//!   write the array) puts one section before the other; the first thread's release pattern
//!   (fence; release) synchronises with the second's acquire pattern (its successful
//!   compare-and-swap reads the release or a later write; fence), so `a` happens before `b` or
//!   `b` before `a`.
//! - **Message**: `a` is followed by a fence and then by an atomic write `F` of a flag word that
//!   thread 1 reaches; thread 2 observed that word non-zero in a spin-wait `O` followed by a
//!   fence and then `b` (or the same with the threads' roles swapped); the fences' and atomics'
//!   scopes hold both threads. Premise: every word of the flag's array is 0 at launch (said in
//!   the report) and is written at most once in the whole execution (atomics outside loops,
//!   checked by `passes::sync`, and no two writes to one word: the `FlagWriters` query, whose
//!   `sat` makes the verdict inconclusive). Then the value thread 2 saw was written by `F`, so
//!   thread 1's release pattern synchronises with thread 2's acquire pattern.
//!
//! Anything else orders nothing: a fence without a flag or a lock, a spin-wait on a flag of
//! another shape, a lock whose array is also written otherwise.

use super::races::bytes_overlap;
use super::{Access, Check, Encoder, Property, TState};
use crate::encode::AccessKind;
use crate::encode::property::{SyncHint, SyncPoint};
use crate::encode::terms::{and, app, atom, bvn, equal, f, or, sym};
use crate::ir::visit::Visitor;
use crate::ir::{AbstractLoop, ArrayId, AtomicScope, Space, Stmt, StmtKind, SyncEvent};
use crate::solver::{Query, Sexp};

/// Positions, locks and flags met so far.
#[derive(Clone, Debug, Default)]
pub(in crate::encode) struct SyncState {
    /// The last position given.
    pos: u32,
    /// Every lock acquisition met (one per acquire loop encoded).
    locks: Vec<LockRecord>,
    /// The acquisitions whose release is not met yet, innermost last.
    held: Vec<usize>,
    /// Every spin-wait on a flag met.
    observed: Vec<Observed>,
    /// Every fence met: its position, scope and line (for the witnesses' hints).
    fences: Vec<(u32, AtomicScope, u32)>,
}

/// One acquisition of a lock word ([`SyncEvent::Lock`]) and its release ([`SyncEvent::Unlock`]).
#[derive(Clone, Debug)]
struct LockRecord {
    array: ArrayId,
    scope: AtomicScope,
    pos: u32,
    line: u32,
    /// Per thread: the lock word's byte offset (BV64).
    offset: Vec<Sexp>,
    /// Per thread at the release: whether it reaches it, and its last fences there.
    release: Option<Vec<(Sexp, (Sexp, Sexp))>>,
    /// The release's position (0 until it is met).
    release_pos: u32,
}

/// A spin-wait that saw a flag word non-zero ([`SyncEvent::Observed`]).
#[derive(Clone, Debug)]
struct Observed {
    array: ArrayId,
    scope: AtomicScope,
    pos: u32,
    line: u32,
    /// Per thread: whether it got past the wait, and the flag word's byte offset (BV64).
    per_thread: Vec<(Sexp, Sexp)>,
}

impl SyncState {
    /// No lock and no flag orders any pair of accesses: a kernel without them.
    pub(in crate::encode) fn orders_nothing(&self) -> bool {
        self.locks.is_empty() && self.observed.is_empty()
    }
}

impl Encoder<'_> {
    /// The next program-order position.
    fn next_pos(&mut self) -> u32 {
        self.sync.pos += 1;
        self.sync.pos
    }

    /// Where the access about to be recorded lies: a new position, each thread's last fences,
    /// the locks held.
    pub(in crate::encode) fn sync_point(&mut self, st: &[TState]) -> SyncPoint {
        SyncPoint {
            pos: self.next_pos(),
            fences: st.iter().map(|ts| ts.fence.clone()).collect(),
            locks: self.sync.held.clone(),
            writes: false,
        }
    }

    /// A fence of `scope`: each thread that reaches it has it as its last fence (of device
    /// scope too, unless `scope` is the block).
    pub(in crate::encode) fn fence(&mut self, s: &Stmt, scope: AtomicScope, st: &mut [TState]) {
        let at = self.next_pos();
        self.sync.fences.push((at, scope, s.span.line));
        let pos = bvn(u64::from(at), 32);
        for (th, ts) in st.iter_mut().enumerate() {
            let reach = self.reach(ts, th);
            let any = app("ite", vec![reach.clone(), pos.clone(), ts.fence.0.clone()]);
            ts.fence.0 = self.define(&format!("t{}.fence", th + 1), Sexp::bv_sort(32), any);
            if scope != AtomicScope::Block {
                let dev = app("ite", vec![reach, pos.clone(), ts.fence.1.clone()]);
                ts.fence.1 = self.define(&format!("t{}.fence.dev", th + 1), Sexp::bv_sort(32), dev);
            }
        }
    }

    /// A marker of `passes::sync`.
    pub(in crate::encode) fn sync_event(&mut self, s: &Stmt, ev: &SyncEvent, st: &mut [TState]) {
        let line = s.span.line;
        match ev {
            SyncEvent::CopyStart { .. }
            | SyncEvent::CopyEnd
            | SyncEvent::CopyWait { .. }
            | SyncEvent::CopyWaitPrior { .. } => self.copy_event(s, ev, st),
            SyncEvent::Lock { array, offset, scope } => {
                let pos = self.next_pos();
                let offset = st
                    .iter_mut()
                    .enumerate()
                    .map(|(th, ts)| self.offset(offset, ts, th).0)
                    .collect();
                self.sync.locks.push(LockRecord {
                    array: *array,
                    scope: *scope,
                    pos,
                    line,
                    offset,
                    release: None,
                    release_pos: 0,
                });
                self.sync.held.push(self.sync.locks.len() - 1);
            }
            SyncEvent::Unlock => {
                let pos = self.next_pos();
                let at: Vec<(Sexp, (Sexp, Sexp))> = st
                    .iter()
                    .enumerate()
                    .map(|(th, ts)| (self.reach(ts, th), ts.fence.clone()))
                    .collect();
                if let Some(i) = self.sync.held.pop() {
                    self.sync.locks[i].release = Some(at);
                    self.sync.locks[i].release_pos = pos;
                }
            }
            SyncEvent::Observed { array, offset, scope } => {
                let pos = self.next_pos();
                let per_thread = st
                    .iter_mut()
                    .enumerate()
                    .map(|(th, ts)| {
                        let off = self.offset(offset, ts, th).0;
                        (self.reach(ts, th), off)
                    })
                    .collect();
                self.sync.observed.push(Observed {
                    array: *array,
                    scope: *scope,
                    pos,
                    line,
                    per_thread,
                });
            }
        }
    }

    /// The position standing for an abstracted loop's earlier iterations (see the module
    /// documentation), taken when the loop is entered.
    pub(in crate::encode) fn loop_position(&mut self) -> u32 {
        self.next_pos()
    }

    /// At the head of (or after) the abstracted loop `l` entered at position `pos`: a thread's
    /// last fence is the one before the loop or one of the loop's, which `pos` stands for.
    pub(in crate::encode) fn loop_fences(&mut self, l: &AbstractLoop, pos: u32, line: u32, ts: &mut TState, th: usize) {
        let (any, dev) = fences_in(&[&l.cond_stmts, &l.body, &l.step]);
        for (fences, device) in [(any, false), (dev, true)] {
            if !fences {
                continue;
            }
            let name = self.fresh_name(&format!("t{}.fenced.L{line}", th + 1));
            let fenced = self.declare(&name, atom("Bool"));
            let old = if device { ts.fence.1.clone() } else { ts.fence.0.clone() };
            let v = app("ite", vec![fenced, bvn(u64::from(pos), 32), old]);
            let v = self.define(&format!("t{}.fence", th + 1), Sexp::bv_sort(32), v);
            if device {
                ts.fence.1 = v;
            } else {
                ts.fence.0 = v;
            }
        }
    }

    /// When thread 1's `a` and thread 2's `b` (conflicting, of `global` memory or not) are
    /// ordered by a lock or a message (module documentation); `false` when nothing can.
    pub(in crate::encode) fn sync_order(&self, a: &Access, b: &Access, global: bool) -> Sexp {
        let mut orders = Vec::new();
        for &i in &a.sync.locks {
            for &j in &b.sync.locks {
                if let Some(o) = self.lock_order(i, j, a, b, global) {
                    orders.push(o);
                }
            }
        }
        for (x, y, first) in [(a, b, 0), (b, a, 1)] {
            orders.extend(self.message_order(x, y, first, global));
        }
        orders.into_iter().reduce(or).unwrap_or_else(f)
    }

    /// `a` and `b` lie in sections of the lock acquisitions `i` (thread 1's) and `j` (thread
    /// 2's) of one lock word, with the fences of a release and an acquire pattern each.
    fn lock_order(&self, i: usize, j: usize, a: &Access, b: &Access, global: bool) -> Option<Sexp> {
        let (l1, l2) = (&self.sync.locks[i], &self.sync.locks[j]);
        if l1.array != l2.array {
            return None;
        }
        let (r1, r2) = (l1.release.as_ref()?, l2.release.as_ref()?);
        let shared_lock = self.k.array(l1.array).space == Space::Shared;
        let mut c = equal(&l1.offset[0], &l2.offset[1]);
        if shared_lock || l1.scope == AtomicScope::Block || l2.scope == AtomicScope::Block {
            c = and(c, atom("same_block"));
        }
        c = and(c, fenced(l1.pos, &a.sync.fences[0], global));
        c = and(c, and(r1[0].0.clone(), fenced(a.sync.pos, &r1[0].1, global)));
        c = and(c, fenced(l2.pos, &b.sync.fences[1], global));
        c = and(c, and(r2[1].0.clone(), fenced(b.sync.pos, &r2[1].1, global)));
        Some(c)
    }

    /// Thread `first` (0 or 1) makes `x`, then a fence, then the release write of a flag word
    /// that the other thread observed in a spin-wait followed by a fence and then `y`.
    fn message_order(&self, x: &Access, y: &Access, first: usize, global: bool) -> Vec<Sexp> {
        let second = 1 - first;
        let mut out = Vec::new();
        for o in self.sync.observed.iter().filter(|o| o.pos < y.sync.pos) {
            for w in self
                .accesses
                .iter()
                .filter(|w| w.array == o.array && w.sync.writes && w.sync.pos > x.sync.pos)
            {
                let w_scope = w.atomic.map_or(AtomicScope::Block, |(_, s)| s);
                let mut c = and(w.per_thread[first].0.clone(), o.per_thread[second].0.clone());
                c = and(c, equal(&w.per_thread[first].1, &o.per_thread[second].1));
                if self.k.array(o.array).space == Space::Shared
                    || w_scope == AtomicScope::Block
                    || o.scope == AtomicScope::Block
                {
                    c = and(c, atom("same_block"));
                }
                c = and(c, fenced(x.sync.pos, &w.sync.fences[first], global));
                c = and(c, fenced(o.pos, &y.sync.fences[second], global));
                out.push(c);
            }
        }
        out
    }

    /// Why the lock or the flag around thread 1's `a` and thread 2's `b` may not order them,
    /// as a witness can say it: block scopes across blocks, and the scopes of the fences met
    /// between the points of the pattern (program order; a fence on another branch counts,
    /// so this is a hint for the report, never a fact of the query).
    pub(in crate::encode) fn sync_hint(&self, a: &Access, b: &Access) -> SyncHint {
        let name = |array: ArrayId| self.k.array(array).name.clone();
        let mut hint = SyncHint::default();
        if let Some(&i) = a.sync.locks.last().or(b.sync.locks.last()) {
            let l = &self.sync.locks[i];
            let (lock, line) = (name(l.array), l.line);
            if a.sync.locks.is_empty() || b.sync.locks.is_empty() {
                hint.same_block = Some(format!(
                    "only one of the two accesses is inside a critical section of `{lock}` (line {line})"
                ));
                hint.cross_block = hint.same_block.clone();
            } else if self.k.array(l.array).space == Space::Shared {
                hint.cross_block = Some(format!("`{lock}` is in `__shared__` memory: one lock per block"));
            } else if l.scope == AtomicScope::Block {
                hint.cross_block = Some(format!(
                    "the lock `{lock}` (line {line}) is taken with block-scope atomics, which do not exclude threads of different blocks"
                ));
            } else {
                for x in [a, b] {
                    let spans = [
                        ("the acquire of", l.pos, x.sync.pos),
                        ("the access at line {x} and the release of", x.sync.pos, l.release_pos),
                    ];
                    for (what, from, to) in spans {
                        let what = what.replace("{x}", &x.span.line.to_string());
                        let scopes = self.fences_between(from, to);
                        if scopes.is_empty() {
                            hint.same_block = Some(match from == l.pos {
                                true => format!(
                                    "no fence between {what} `{lock}` (line {line}) and the access at line {}",
                                    x.span.line
                                ),
                                false => format!("no fence between {what} `{lock}`"),
                            });
                        } else if scopes.iter().all(|s| *s == AtomicScope::Block) {
                            hint.cross_block = Some(format!(
                                "the fences of the critical section of `{lock}` (line {line}) have block scope, which does not order threads of different blocks"
                            ));
                        }
                    }
                }
            }
            if hint.cross_block.is_none() {
                hint.cross_block = hint.same_block.clone();
            }
            return hint;
        }
        for (x, y) in [(a, b), (b, a)] {
            let Some(o) = self.sync.observed.iter().rev().find(|o| o.pos < y.sync.pos) else {
                continue;
            };
            let flag = name(o.array);
            if o.scope == AtomicScope::Block {
                hint.cross_block = Some(format!(
                    "the flag `{flag}` is read with block scope (line {}), which does not synchronise with a write of another block",
                    o.line
                ));
                return hint;
            }
            let after = self.fences_between(o.pos, y.sync.pos);
            if after.is_empty() {
                hint.same_block = Some(format!(
                    "no fence between the read of the flag `{flag}` (line {}) and the access at line {}",
                    o.line, y.span.line
                ));
            } else if after.iter().all(|s| *s == AtomicScope::Block) {
                hint.cross_block = Some(format!(
                    "the flag `{flag}` is read (line {}) before a fence of block scope, which does not order the access at line {} for threads of other blocks",
                    o.line, y.span.line
                ));
            }
            let write = self
                .accesses
                .iter()
                .find(|w| w.array == o.array && w.sync.writes && w.sync.pos > x.sync.pos);
            if let Some(w) = write {
                let before = self.fences_between(x.sync.pos, w.sync.pos);
                if before.is_empty() {
                    hint.same_block = Some(format!(
                        "no fence between the access at line {} and the write of the flag `{flag}` (line {})",
                        x.span.line, w.span.line
                    ));
                } else if before.iter().all(|s| *s == AtomicScope::Block) && hint.cross_block.is_none() {
                    hint.cross_block = Some(format!(
                        "the flag `{flag}` is written (line {}) after a fence of block scope only, which does not order the access at line {} for threads of other blocks",
                        w.span.line, x.span.line
                    ));
                }
            }
            if hint.same_block.is_some() {
                hint.cross_block = hint.cross_block.or(hint.same_block.clone());
            }
            return hint;
        }
        hint
    }

    /// The scopes of the fences met between positions `from` and `to`.
    fn fences_between(&self, from: u32, to: u32) -> Vec<AtomicScope> {
        self.sync
            .fences
            .iter()
            .filter(|(p, _, _)| *p > from && *p < to)
            .map(|(_, s, _)| *s)
            .collect()
    }

    /// The premise of message passing for each flag array: no two writes (of two threads, or
    /// two sites of one thread) store to one word. One [`Property::FlagWriters`] check per
    /// array observed by a spin-wait.
    pub(in crate::encode) fn flag_checks(&mut self) {
        let mut arrays: Vec<ArrayId> = self.sync.observed.iter().map(|o| o.array).collect();
        arrays.sort();
        arrays.dedup();
        for array in arrays {
            let writes: Vec<&Access> = self
                .accesses
                .iter()
                .filter(|w| w.array == array && (w.sync.writes || w.kind == AccessKind::Write))
                .collect();
            let overlap = |x: &Access, tx: usize, y: &Access, ty: usize| {
                bytes_overlap((&x.per_thread[tx].1, x.width), (&y.per_thread[ty].1, y.width))
            };
            let mut disj = Vec::new();
            for (i, x) in writes.iter().enumerate() {
                for (j, y) in writes.iter().enumerate().skip(i) {
                    let mut two = and(x.per_thread[0].0.clone(), y.per_thread[1].0.clone());
                    if self.k.array(array).space == Space::Shared {
                        two = and(two, atom("same_block"));
                    }
                    disj.push(and(two, overlap(x, 0, y, 1)));
                    if j > i {
                        let one = and(x.per_thread[0].0.clone(), y.per_thread[0].0.clone());
                        disj.push(and(one, overlap(x, 0, y, 0)));
                    }
                }
            }
            let cond = disj.into_iter().reduce(or).unwrap_or_else(f);
            if cond == f() {
                continue;
            }
            let layout = self.layout.clone();
            self.checks.push(Check {
                property: Property::FlagWriters { array },
                query: Query {
                    unpinned: 0,
                    name: format!("{}.flag.{}", sym(&self.k.name), sym(&self.k.array(array).name)),
                    assertions: vec![cond],
                    get_values: layout.common(),
                },
                pairs: Vec::new(),
                sides: None,
                layout,
                possible: false,
                abstractions: Vec::new(),
                benign: false,
                hints: Vec::new(),
                split: None,
            });
        }
    }
}

/// A fence between the point at `pos` and a later point whose last fences are `at`, of a scope
/// that holds both threads: any scope when they are of one block, device or system scope
/// otherwise (`global` memory: either may be the case).
fn fenced(pos: u32, at: &(Sexp, Sexp), global: bool) -> Sexp {
    let p = bvn(u64::from(pos), 32);
    let any = app("bvugt", vec![at.0.clone(), p.clone()]);
    if !global {
        return any;
    }
    let dev = app("bvugt", vec![at.1.clone(), p]);
    app("ite", vec![atom("same_block"), any, dev])
}

/// Whether `blocks` hold a fence of any scope, and one of device or system scope.
fn fences_in(blocks: &[&Vec<Stmt>]) -> (bool, bool) {
    /// Finds the fences.
    struct Fences(bool, bool);
    impl Visitor for Fences {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Fence(scope) = s.kind {
                self.0 = true;
                self.1 |= scope != AtomicScope::Block;
            }
            self.super_stmt(s);
        }
    }
    let mut v = Fences(false, false);
    for b in blocks {
        v.visit_block(b);
    }
    (v.0, v.1)
}
