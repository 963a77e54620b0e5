//! Race queries: for each array, the conflicting access pairs of one barrier segment (and, for
//! global arrays, of different segments across blocks) as one query each, with the
//! mixed-radix lemmas of their offsets ([`crate::encode::nonlinear`]). Accesses of one block
//! race only at equal barrier counts; accesses of different blocks (global arrays) only at
//! equal grid-barrier counts (always equal in a kernel without grid barriers).
//!
//! Does not record accesses (`memory`) nor read witnesses (`super::super::witness`).

use super::barriers::warp_count;
use super::linear::LinearRace;
use super::{Access, Benign, Check, Encoder, Property};
use crate::encode::AccessKind;
use crate::encode::nonlinear;
use crate::encode::property::RaceSides;
use crate::encode::property::SyncHint;
use crate::encode::terms::{and, app, atom, bvn, equal, f, not, or, sym, t};
use crate::ir::{ArrayId, Space};
use crate::solver::{Command, Query, Sexp};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

/// A race check's pair of accesses: thread 1's, thread 2's.
type AccessPair = (Arc<Access>, Arc<Access>);

/// The lemmas of a race query, each once, in the order first given: a hash index beside the
/// list, since a query over n pairs may have n lemmas (a linear search per lemma made the
/// encoding quadratic in the pairs).
#[derive(Default)]
struct Lemmas {
    list: Vec<Sexp>,
    /// Lemma hash to the positions in `list` of the lemmas with that hash.
    index: HashMap<u64, Vec<usize>>,
    hasher: RandomState,
}

impl Lemmas {
    /// Appends each of `lemmas` not already present.
    fn extend(&mut self, lemmas: Vec<Sexp>) {
        for l in lemmas {
            let at = self.index.entry(self.hasher.hash_one(&l)).or_default();
            if !at.iter().any(|&i| self.list[i] == l) {
                at.push(self.list.len());
                self.list.push(l);
            }
        }
    }
}

impl Encoder<'_> {
    /// One query per (array, segment) for accesses in one segment, and one per global array
    /// for accesses of different segments (different blocks only).
    pub(in crate::encode) fn race_checks(&mut self) {
        self.flag_checks();
        // The script so far, moved out while the checks read its facts, which borrow its
        // definitions instead of holding a copy (most of a large kernel's memory); the
        // checks' own commands follow it, in order.
        let (mut decls, mut cmds) = (std::mem::take(&mut self.decls), std::mem::take(&mut self.cmds));
        self.race_checks_reading(nonlinear::Facts::new(decls.iter().chain(&cmds)), &cmds);
        decls.append(&mut self.decls);
        cmds.append(&mut self.cmds);
        (self.decls, self.cmds) = (decls, cmds);
    }

    /// [`Encoder::race_checks`] with `facts` and `cmds`, the script's commands before them.
    fn race_checks_reading(&mut self, mut facts: nonlinear::Facts<'_>, cmds: &[Command]) {
        if facts.stopped {
            self.stopped = Some(crate::memory::exceeded(crate::memory::Activity::Lemmas));
            return;
        }
        if self.benign == Benign::Adversarial && self.accesses.iter().any(|a| !a.written.is_empty()) {
            self.reads_memory = memory_readers(cmds);
        }
        // Locks and flags order pairs of accesses, not accesses: their kernels keep the
        // pairwise query (`linear`).
        let linear = !self.pairwise_races && self.sync.orders_nothing();
        // Each access once behind an `Arc`: a segment of n accesses has up to n²/2 pairs, which
        // share them instead of holding copies of their terms.
        let mut by_array: BTreeMap<ArrayId, Vec<Arc<Access>>> = BTreeMap::new();
        for a in &self.accesses {
            by_array.entry(a.array).or_default().push(Arc::new(a.clone()));
        }
        for (array, accs) in by_array {
            let global = self.k.array(array).space == Space::Global;
            // Some barrier leaves this memory out (OpenCL's fence flags): no barrier orders
            // its accesses, so every pair is one query, at any barrier counts (sound: only
            // more pairs race; a barrier that fences it is then not used to order them).
            let ordered = crate::ir::query::barriers_order(&self.k.body, self.k.array(array).space);
            // A work-group copy's accesses lie in any interval up to its wait (`copies`): the
            // top-level segments do not order them.
            let by_segment = ordered && accs.iter().all(|a| a.copy.is_none());
            if linear {
                self.linear_checks(
                    &mut facts,
                    array,
                    &accs,
                    LinearRace {
                        global,
                        ordered,
                        cross: false,
                    },
                    by_segment,
                );
                if self.stopped.is_some() {
                    return;
                }
                continue;
            }
            let mut groups: BTreeMap<u32, Vec<AccessPair>> = BTreeMap::new();
            let mut cross: Vec<AccessPair> = Vec::new();
            let mut pairs = 0u64;
            for i in 0..accs.len() {
                if crate::memory::over() {
                    self.stopped = Some(crate::memory::exceeded(crate::memory::Activity::RaceCheck {
                        array: self.k.array(array).name.clone(),
                        pairs,
                    }));
                    return;
                }
                for j in i..accs.len() {
                    let (a, b) = (&accs[i], &accs[j]);
                    if !conflicting(a, b, global) {
                        continue;
                    }
                    if a.per_thread[0].0 == f() || b.per_thread[1].0 == f() {
                        continue;
                    }
                    pairs += 1;
                    let pair = || (Arc::clone(a), Arc::clone(b));
                    if !by_segment {
                        groups.entry(0).or_default().push(pair());
                    } else if a.segment == b.segment {
                        groups.entry(a.segment).or_default().push(pair());
                    } else if global {
                        cross.push(pair());
                    }
                }
            }
            let name = sym(&self.k.array(array).name);
            for (seg, pairs) in groups {
                if self.stopped.is_some() {
                    return;
                }
                self.push_pairwise_race(
                    &facts,
                    array,
                    &format!("{}.race.{}.seg{}", sym(&self.k.name), name, seg),
                    pairs,
                    global,
                    true,
                );
            }
            if !cross.is_empty() && self.stopped.is_none() {
                self.push_pairwise_race(
                    &facts,
                    array,
                    &format!("{}.race.{}.cross", sym(&self.k.name), name),
                    cross,
                    global,
                    false,
                );
            }
        }
    }

    /// The linear queries of `array` (`linear`): per top-level segment (or one for all, when
    /// not `by_segment`), thread 1 choosing among the segment's accesses it may make and thread
    /// 2 among its own; for a global array with accesses in several segments, one more query
    /// in which the two lie in different segments (threads of different blocks).
    fn linear_checks(
        &mut self,
        facts: &mut nonlinear::Facts,
        array: ArrayId,
        accs: &[Arc<Access>],
        how: LinearRace,
        by_segment: bool,
    ) {
        let name = format!("{}.race.{}", sym(&self.k.name), sym(&self.k.array(array).name));
        let segments: BTreeSet<u32> = match by_segment {
            true => accs.iter().map(|a| a.segment).collect(),
            false => BTreeSet::from([0]),
        };
        let side = |th: usize, seg: Option<u32>| -> Vec<Arc<Access>> {
            let mut seen = HashSet::new();
            let mut out = Vec::new();
            for a in accs {
                if seg.is_none_or(|s| a.segment == s)
                    && a.per_thread[th].0 != f()
                    && seen.insert(self.same_race_key(a, th))
                {
                    out.push(Arc::clone(a));
                }
            }
            out
        };
        let mut queries: Vec<(String, RaceSides, LinearRace)> = Vec::new();
        for &seg in &segments {
            let only = by_segment.then_some(seg);
            let sides = RaceSides {
                first: side(0, only),
                second: side(1, only),
            };
            if may_conflict(&sides, how.global) {
                queries.push((format!("{name}.seg{seg}"), sides, how));
            }
        }
        if how.global && by_segment && segments.len() > 1 {
            let sides = RaceSides {
                first: side(0, None),
                second: side(1, None),
            };
            if may_conflict(&sides, true) {
                queries.push((format!("{name}.cross"), sides, LinearRace { cross: true, ..how }));
            }
        }
        for (name, sides, how) in queries {
            self.push_linear_race(facts, array, &name, sides, how);
            if self.stopped.is_some() {
                return;
            }
        }
    }

    /// Step 2 of [`Self::push_pairwise_race`] for one pair: the condition under which thread 1's access
    /// `a` and thread 2's `b` are not ordered. Both in one barrier interval of one block (for a
    /// `global` array, of the grid's intervals in different blocks; `ordered`: barriers order
    /// this array's accesses; `same_segment`: the pair can share a grid interval), and not
    /// ordered by a warp barrier, lock-step warps, one work-group copy, atomics' scope or a
    /// lock or flag (`sync`).
    fn unordered(&mut self, a: &Access, b: &Access, ordered: bool, global: bool, same_segment: bool) -> Sexp {
        let same_interval = match ordered {
            true => equal(&a.per_thread[0].2, &b.per_thread[1].2),
            false => t(),
        };
        let same_grid_interval = equal(&a.grid[0], &b.grid[1]);
        let order = match (global, same_segment) {
            (false, _) => and(atom("same_block"), same_interval),
            // `ite(same_block, same_interval, same_grid_interval)`, simplified.
            (true, true) if same_grid_interval == t() => or(not(atom("same_block")), same_interval),
            (true, true) => app("ite", vec![atom("same_block"), same_interval, same_grid_interval]),
            (true, false) => and(not(atom("same_block")), same_grid_interval),
        };
        // Two threads of one group of a warp barrier at different counts of its barriers
        // are ordered.
        let order = match a.warp[0] != b.warp[1] {
            true => self
                .pair
                .warp_groups
                .iter()
                .enumerate()
                .fold(order, |order, (k, (_, group))| {
                    let same = equal(&warp_count(&a.warp[0], k), &warp_count(&b.warp[1], k));
                    and(order, or(not(group.clone()), same))
                }),
            false => order,
        };
        // Lock-step warps: two threads of one warp race only at one statement, both writing.
        let order = match self.lockstep {
            Some(n) => {
                let one_warp = self.lockstep_warp(n);
                let same_statement = a.span == b.span && a.kind != AccessKind::Read && b.kind != AccessKind::Read;
                if same_statement {
                    order
                } else {
                    and(order, not(one_warp))
                }
            }
            None => order,
        };
        // One work-group copy made by two threads of one group is one copy (a per-thread
        // copy is each thread's own).
        let order = match (a.copy, b.copy) {
            (Some(x), Some(y)) if x == y => match self.copies.shared_by(x) {
                Some(shared) => and(not(shared.clone()), order),
                None => order,
            },
            _ => order,
        };
        // Two atomics race only across the scope of one of them: in different blocks.
        let order = if a.kind == AccessKind::Atomic && b.kind == AccessKind::Atomic {
            and(not(atom("same_block")), order)
        } else {
            order
        };
        // A lock or a message passed through a flag (`sync`).
        match self.sync_order(a, b, global) {
            o if o == f() => order,
            o => and(order, not(o)),
        }
    }

    /// The pairwise race query (PUG's): one disjunct per pair in `pairs`, with the mixed-radix lemmas of each pair's offsets
    /// ([`nonlinear`]) as further assertions; under [`super::EncodeOptions::benign`], when a
    /// write-write pair may be benign, its [`Property::HarmfulRace`] variant right after it.
    ///
    /// The order (every race first, the harmful ones only when a race is found) keeps the usual
    /// case, a kernel without races, at one query per check; and the first check's query is
    /// the one made without benign races (same name, same assertions).
    pub(in crate::encode) fn push_pairwise_race(
        &mut self,
        facts: &nonlinear::Facts,
        array: ArrayId,
        name: &str,
        pairs: Vec<AccessPair>,
        global: bool,
        same_segment: bool,
    ) {
        let mut disj = Vec::new();
        let mut lemmas = Lemmas::default();
        let layout = self.layout.clone();
        let ordered = crate::ir::query::barriers_order(&self.k.body, self.k.array(array).space);
        let mut gv = layout.common();
        // Per pair: the condition under which its writes are the same (it can be benign).
        let mut same_writes: Vec<Option<Sexp>> = Vec::with_capacity(pairs.len());
        let mut any_benign = false;
        for (a, b) in &pairs {
            if crate::memory::over() {
                self.stopped = Some(crate::memory::exceeded(crate::memory::Activity::RaceCheck {
                    array: self.k.array(array).name.clone(),
                    pairs: pairs.len() as u64,
                }));
                return;
            }
            let (pa, oa, _) = &a.per_thread[0];
            let (pb, ob, _) = &b.per_thread[1];
            let mut mine = Vec::new();
            facts.offset_lemmas(oa, a.width, ob, b.width, &mut mine);
            lemmas.extend(mine);
            let overlap = and(
                and(a.valid[0].clone(), b.valid[1].clone()),
                bytes_overlap((oa, a.width), (ob, b.width)),
            );
            let order = self.unordered(a, b, ordered, global, same_segment);
            let c = and(and(pa.clone(), pb.clone()), and(overlap, order));
            gv.push(c.clone());
            gv.push(oa.clone());
            gv.push(ob.clone());
            let same = self.same_write(a, b);
            any_benign |= same.is_some();
            same_writes.push(same);
            disj.push(c);
        }
        if crate::memory::over() {
            self.stopped = Some(crate::memory::exceeded(crate::memory::Activity::RaceCheck {
                array: self.k.array(array).name.clone(),
                pairs: pairs.len() as u64,
            }));
            return;
        }
        let line = pairs.first().map(|(a, _)| a.span.line).unwrap_or(0);
        let name = format!("{name}.L{line}");
        let benign = any_benign && self.benign != Benign::Off;
        // Per pair: its condition when it is not benign (the condition itself when it cannot
        // be); built only when some pair can be.
        let harmful: Vec<Sexp> = match benign {
            true => disj
                .iter()
                .zip(&same_writes)
                .map(|(c, same)| match same {
                    Some(same) => and(c.clone(), not(same.clone())),
                    None => c.clone(),
                })
                .collect(),
            false => Vec::new(),
        };
        let hints: Vec<SyncHint> = pairs.iter().map(|(a, b)| self.sync_hint(a, b)).collect();
        let harmful_check = benign.then(|| {
            // The same layout: each pair's (harmful) condition and both offsets.
            let mut hv = layout.common();
            for (h, (a, b)) in harmful.iter().zip(&pairs) {
                hv.push(h.clone());
                hv.push(a.per_thread[0].1.clone());
                hv.push(b.per_thread[1].1.clone());
            }
            let mut assertions = Vec::with_capacity(1 + lemmas.list.len());
            assertions.push(disjunction(harmful.clone()));
            assertions.extend(lemmas.list.iter().cloned());
            Check {
                split: None,
                property: Property::HarmfulRace { array },
                query: Query {
                    unpinned: 0,
                    name: format!("{name}.harmful"),
                    assertions,
                    get_values: hv,
                },
                pairs: pairs.clone(),
                sides: None,
                layout: layout.clone(),
                possible: false,
                abstractions: self.abstractions.clone(),
                benign: false,
                hints: hints.clone(),
            }
        });
        gv.extend(harmful);
        let mut assertions = Vec::with_capacity(1 + lemmas.list.len());
        assertions.push(disjunction(disj));
        assertions.extend(lemmas.list);
        self.checks.push(Check {
            property: Property::Race { array },
            query: Query {
                unpinned: 0,
                name,
                assertions,
                get_values: gv,
            },
            pairs,
            sides: None,
            layout,
            possible: false,
            abstractions: self.abstractions.clone(),
            benign,
            hints,
            split: None,
        });
        self.checks.extend(harmful_check);
    }

    /// When `a` (thread 1's) and `b` (thread 2's) are plain writes whose values are known, of
    /// one width, in a kernel that calls no function without a body that may not be a function of
    /// its arguments ([`crate::ir::Kernel::impure`])
    /// ([`super::EncodeOptions::benign`] says why), and, under [`Benign::Adversarial`], values
    /// that read no memory: the condition that they write the same value at the same offset,
    /// which makes their race benign. `None`: never benign.
    fn same_write(&self, a: &Access, b: &Access) -> Option<Sexp> {
        let (Some(va), Some(vb)) = (a.written.first(), b.written.get(1)) else {
            return None;
        };
        if self.benign == Benign::Off
            || a.kind != AccessKind::Write
            || b.kind != AccessKind::Write
            || a.clobber
            || b.clobber
            || a.width != b.width
            || !self.k.impure.is_empty()
        {
            return None;
        }
        if self.benign == Benign::Adversarial && (self.reads_memory(va) || self.reads_memory(vb)) {
            return None;
        }
        Some(and(equal(&a.per_thread[0].1, &b.per_thread[1].1), equal(va, vb)))
    }

    /// What a linear query asks of thread `th`'s access `a` (`linear`): two accesses with the
    /// same key race with the same accesses of the other thread, in the same models, so a side
    /// keeps the first of them (in program order) and its witness names that one. Straight-line
    /// code that reads `y[off + 14]` a hundred times is one candidate, not a hundred.
    fn same_race_key<'a>(&self, a: &'a Access, th: usize) -> SameRace<'a> {
        let benign = self.may_write_benignly(a, th);
        SameRace {
            terms: vec![
                &a.per_thread[th].0,
                &a.per_thread[th].1,
                &a.per_thread[th].2,
                &a.valid[th],
                &a.grid[th],
                &a.warp[th],
                match benign {
                    true => &a.written[th],
                    false => &a.per_thread[th].1,
                },
            ],
            kind: a.kind,
            scope: a.atomic.map(|x| x.1),
            width: a.width,
            segment: a.segment,
            copy: a.copy,
            benign,
            // Each source location stays a candidate of its own: lock-step warps order
            // accesses by statement, and a witness names its pair of locations (issue 53
            // item 5). The same location's repeated accesses (an unrolled loop's iterations)
            // at one offset are one candidate.
            span: Some(a.span.clone()),
            // A possible finding names its abstracted access.
            abstracted: a.abstracted > 0,
        }
    }

    /// Whether thread `th`'s write `a` may be one of a benign pair ([`Self::same_write`]'s
    /// conditions on one side): a plain store whose value is known, in a kernel that calls no
    /// function without a body of [`crate::ir::Kernel::impure`], and, under [`Benign::Adversarial`], a value that reads no
    /// memory.
    pub(super) fn may_write_benignly(&self, a: &Access, th: usize) -> bool {
        let Some(v) = a.written.get(th) else { return false };
        self.benign != Benign::Off
            && a.kind == AccessKind::Write
            && !a.clobber
            && self.k.impure.is_empty()
            && !(self.benign == Benign::Adversarial && self.reads_memory(v))
    }

    /// Whether `term` reads memory (a `select`), directly or through a name of
    /// `self.reads_memory`.
    fn reads_memory(&self, term: &Sexp) -> bool {
        reads(term, &self.reads_memory)
    }
}

/// Whether `term` has a `select` or an atom of `readers`.
fn reads(term: &Sexp, readers: &HashSet<String>) -> bool {
    match term {
        Sexp::Atom(a) => readers.contains(a.as_str()),
        Sexp::List(items) => {
            matches!(items.first(), Some(Sexp::Atom(h)) if h == "select") || items.iter().any(|x| reads(x, readers))
        }
    }
}

/// The names defined in `cmds` whose value reads memory, directly (a `select`) or through a
/// name defined before it (definitions come in program order, each after what it uses).
fn memory_readers(cmds: &[Command]) -> HashSet<String> {
    let mut readers = HashSet::new();
    for c in cmds {
        if let Command::DefineConst { name, value, .. } = c
            && reads(value, &readers)
        {
            readers.insert(name.clone());
        }
    }
    readers
}

/// Whether `width_a` bytes from the byte offset `oa` (BV64) and `width_b` bytes from `ob`
/// share a byte. Signed comparisons: within the ±2^47 of a real address (`Encoder::offset`)
/// `o + width` cannot wrap.
pub(in crate::encode) fn bytes_overlap((oa, width_a): (&Sexp, u32), (ob, width_b): (&Sexp, u32)) -> Sexp {
    and(
        app(
            "bvslt",
            vec![oa.clone(), app("bvadd", vec![ob.clone(), bvn(u64::from(width_b), 64)])],
        ),
        app(
            "bvslt",
            vec![ob.clone(), app("bvadd", vec![oa.clone(), bvn(u64::from(width_a), 64)])],
        ),
    )
}

/// [`Encoder::same_race_key`]: what a linear query reads of one thread's access.
#[derive(PartialEq, Eq, Hash)]
struct SameRace<'a> {
    /// By reference: a key must not copy the terms (a long kernel's offsets are large).
    terms: Vec<&'a Sexp>,
    kind: AccessKind,
    scope: Option<crate::ir::AtomicScope>,
    width: u32,
    segment: u32,
    copy: Option<u32>,
    benign: bool,
    span: Option<crate::ir::Span>,
    abstracted: bool,
}

/// Whether some access of `sides.first` and one of `sides.second` may conflict
/// ([`conflicting`]), by their kinds and scopes (each kind once).
fn may_conflict(sides: &RaceSides, global: bool) -> bool {
    fn classes(side: &[Arc<Access>]) -> Vec<&Access> {
        let mut out: Vec<&Access> = Vec::new();
        for a in side {
            if !out
                .iter()
                .any(|b| b.kind == a.kind && b.atomic.map(|x| x.1) == a.atomic.map(|x| x.1))
            {
                out.push(a);
            }
        }
        out
    }
    let (ones, twos) = (classes(&sides.first), classes(&sides.second));
    ones.iter().any(|a| twos.iter().any(|b| conflicting(a, b, global)))
}

/// `(or terms…)`, or the one term, or `false`.
fn disjunction(mut terms: Vec<Sexp>) -> Sexp {
    if terms.len() == 1 {
        terms.pop().unwrap_or_else(f)
    } else {
        app("or", terms)
    }
}

/// Whether two accesses may conflict: not both reads, and not two atomics each in the
/// other's scope. Two atomics of a global array conflict when one has block scope (threads of
/// different blocks then race: [`scope_race`]); a `__shared__` array is only ever shared by
/// one block, which every scope covers.
pub(in crate::encode) fn conflicting(a: &Access, b: &Access, global: bool) -> bool {
    use AccessKind::*;
    match (a.kind, b.kind) {
        (Read, Read) => false,
        (Atomic, Atomic) => global && scope_race(a, b),
        _ => true,
    }
}

/// Whether two atomic accesses race when their threads lie in different blocks: one of them is
/// atomic only for its own block (`atomicAdd_block`; CUDA C++ Programming Guide, "Atomic
/// Functions").
pub(in crate::encode) fn scope_race(a: &Access, b: &Access) -> bool {
    [a, b]
        .iter()
        .any(|x| matches!(x.atomic, Some((_, crate::ir::AtomicScope::Block))))
}
