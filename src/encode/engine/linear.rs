//! The linear race query: per array and barrier interval, thread 1 chooses one of its accesses
//! and thread 2 one of its own, each through a selector, and the race condition is stated once
//! over the two chosen accesses. Its size grows with the accesses, not with their pairs.
//!
//! This is GPUVerify's race instrumentation read as a formula (Betts et al. (OOPSLA 2012) §4;
//! Donaldson's ENS Lyon lecture 2, "Implementing LOG_READ_A"): there, each access of thread 1
//! is logged non-deterministically (the log keeps one of them, with its offset), and each
//! access of thread 2 is checked against the log. Here the log is the selector `sel1` with the
//! chosen access's attributes (offset, width, barrier count, kind, …), and the checks of thread
//! 2 are the selector `sel2` with its own. For every pair `(a, b)` of the pairwise query
//! (`races::push_pairwise_race`), the linear query with `sel1 = a`, `sel2 = b` asserts the same
//! condition, so both queries are satisfiable together: the encodings agree on every verdict.
//!
//! An attribute that every candidate of a side shares (one width, one barrier count, every
//! access a read) is that term itself, not a fresh constant: a kernel of one access per side
//! gives the pairwise query back.
//!
//! Locks and flags (`sync`) order pairs, not accesses: a kernel with them keeps the pairwise
//! query (`Encoder::race_checks`).

use super::barriers::warp_count;
use super::{Access, Benign, Check, Encoder, Property};
use crate::encode::AccessKind;
use crate::encode::nonlinear;
use crate::encode::property::RaceSides;
use crate::encode::terms::{and, app, atom, bvn, equal, f, not, or, t};
use crate::ir::{ArrayId, AtomicScope, Span};
use crate::solver::{Query, Sexp};
use num_bigint::BigUint;
use std::collections::HashMap;
use std::sync::Arc;

/// The most pairs of distinct offsets (thread 1's, thread 2's) whose mixed-radix lemmas a
/// linear query gets ([`nonlinear::Facts::offset_lemmas`]): the lemmas are valid facts that
/// only help the solver, so a count bounds their cost (quadratic in the offsets) without
/// changing any answer.
const LEMMA_PAIRS: usize = 256;

/// What the two sides of a linear race query are asked under.
#[derive(Clone, Copy, Debug)]
pub(in crate::encode) struct LinearRace {
    /// The array is global: threads of different blocks meet.
    pub global: bool,
    /// Barriers order this array's accesses (`ir::query::barriers_order`).
    pub ordered: bool,
    /// The cross-segment query of a global array: the two accesses lie in different
    /// top-level barrier segments, so only threads of different blocks race.
    pub cross: bool,
}

/// One side of a linear query: its thread's chosen access, as terms.
struct Chosen {
    /// The assertions that pick the access: one implication per candidate from its selector,
    /// and the selector's range (or the one candidate's conditions).
    picks: Vec<Sexp>,
    /// The selector (`None`: one candidate).
    sel: Option<Sexp>,
    off: Sexp,
    width: Sexp,
    interval: Sexp,
    grid: Sexp,
    warp: Sexp,
    span: Sexp,
    read: Sexp,
    atomic: Sexp,
    block_scope: Sexp,
    copy: Sexp,
    segment: Sexp,
    /// The candidate's write may be benign (`races::same_write`'s conditions on one side).
    benign: Sexp,
    /// Its written bits, zero-extended to the widest candidate's.
    value: Sexp,
    /// The offsets' templates shared by several candidates ([`Picker::templates`]), each with
    /// the widest of its candidates' widths.
    templates: Vec<(Sexp, u32)>,
}

/// One side's candidates as they are read: each one's condition, and the attributes that
/// differ between them.
struct Picker<'e, 'k> {
    enc: &'e mut Encoder<'k>,
    /// The side's thread: 0 or 1.
    th: usize,
    /// Per candidate: its thread's path condition and that its offset is a real address.
    conds: Vec<Sexp>,
    /// Each attribute that differs between candidates: its constant and per candidate its
    /// value.
    attrs: Vec<(Sexp, Vec<Sexp>)>,
    /// The templates of [`Picker::templates`], each with its candidates.
    templates: Vec<(Sexp, Vec<usize>)>,
    /// Each chosen literal of a template: its name, width, the least and greatest of its
    /// values (unsigned) and their greatest common divisor, for the mixed-radix lemmas of the
    /// templates ([`nonlinear::Facts::bound`]).
    bounds: Vec<(String, u32, u128, u128, BigUint)>,
}

impl Picker<'_, '_> {
    /// The chosen value of one attribute whose value for candidate `i` is `values[i]`: the
    /// common value when every candidate has the same one, else a fresh constant `t{th}.{base}`
    /// of `sort`, defined by the selector ([`select`]).
    fn attr(&mut self, base: &str, sort: Sexp, values: Vec<Sexp>) -> Sexp {
        if values.windows(2).all(|w| w[0] == w[1]) {
            return values.into_iter().next().unwrap_or_else(f);
        }
        let name = self.enc.fresh_name(&format!("race.t{}.{base}", self.th + 1));
        let c = self.enc.declare(&name, sort);
        self.attrs.push((c.clone(), values));
        c
    }
}

impl Picker<'_, '_> {
    /// The candidates' offsets `offsets` as templates: candidates whose offsets have one shape
    /// ([`shape`]: the same term but for its literals) share one term, in which each literal
    /// that differs between them is a chosen constant ([`Self::attr`]). An unrolled loop's
    /// accesses `k[base + j*48 + i]` are then one term `base + c` with `c` chosen among
    /// literals, instead of one term per access for the solver to tell apart (`ode_solver`'s
    /// query on `k`, 1,456 candidates a side: yices answered in 3 s instead of no answer in
    /// 60 s). Exact: for each candidate the template equals its offset. Offsets of no shared
    /// shape are left as they are.
    fn templates(&mut self, offsets: Vec<Sexp>) -> Vec<Sexp> {
        let shapes: Vec<(Sexp, Vec<Sexp>)> = offsets
            .iter()
            .map(|o| {
                let mut lits = Vec::new();
                let mut budget = SHAPE_NODES;
                let key = shape(&self.enc.defined, o, SHAPE_DEPTH, &mut lits, &mut budget);
                (key, lits)
            })
            .collect();
        let mut groups: HashMap<&Sexp, Vec<usize>> = HashMap::new();
        for (i, (key, lits)) in shapes.iter().enumerate() {
            if !lits.is_empty() {
                groups.entry(key).or_default().push(i);
            }
        }
        // A shape whose candidates differ in a literal: one template for them all (the others
        // keep their offsets, names of the script).
        let differ = |g: &&Vec<usize>| g.iter().any(|&m| shapes[m].1 != shapes[g[0]].1);
        let mut shared: Vec<&Vec<usize>> = groups.values().filter(differ).collect();
        shared.sort();
        let mut out = offsets;
        for (g, members) in shared.into_iter().enumerate() {
            let (key, first) = &shapes[members[0]];
            let mut fill = Vec::with_capacity(first.len());
            for (j, lit) in first.iter().enumerate() {
                let mut values = vec![lit.clone(); shapes.len()];
                for &m in members {
                    values[m] = shapes[m].1[j].clone();
                }
                let width = super::fold::lit(lit).map_or(64, |(_, w)| w);
                let range = values.iter().filter_map(|v| super::fold::lit(v).map(|(x, _)| x));
                let (lo, hi, step) = range.fold((u128::MAX, 0, BigUint::default()), |(lo, hi, step), x| {
                    (lo.min(x), hi.max(x), nonlinear::gcd(step, BigUint::from(x)))
                });
                let c = self.attr(&format!("off{g}.{j}"), Sexp::bv_sort(width), values);
                if let Sexp::Atom(name) = &c
                    && super::fold::lit(&c).is_none()
                {
                    self.bounds.push((name.to_string(), width, lo, hi, step));
                }
                fill.push(c);
            }
            let template = fill_shape(key, &mut fill.into_iter());
            for &m in members {
                out[m] = template.clone();
            }
            self.templates.push((template, members.clone()));
        }
        out
    }
}

impl Picker<'_, '_> {
    /// The side's last step, once its attributes are made: the templates' literal bounds
    /// given to `facts`, each template with the widest of its candidates' widths, and the
    /// assertions that pick one candidate (its selector's range, the selected condition, each
    /// attribute's selected value), with the selector (`None`: one candidate).
    fn finish(
        self,
        facts: &mut nonlinear::Facts,
        cands: &[Arc<Access>],
    ) -> (Vec<Sexp>, Option<Sexp>, Vec<(Sexp, u32)>) {
        for (name, width, lo, hi, step) in self.bounds {
            facts.bound(&name, width, (BigUint::from(lo), BigUint::from(hi)), step);
        }
        let templates = self
            .templates
            .into_iter()
            .map(|(t, members)| (t, members.iter().map(|&m| cands[m].width).max().unwrap_or(1)))
            .collect();
        let n = self.conds.len();
        if n == 1 {
            return (self.conds.into_iter().filter(|c| *c != t()).collect(), None, templates);
        }
        let name = self.enc.fresh_name(&format!("race.t{}.sel", self.th + 1));
        let sel = self.enc.declare(&name, Sexp::bv_sort(32));
        let mut picks = vec![app("bvult", vec![sel.clone(), bvn(n as u64, 32)])];
        picks.push(select(&sel, &self.conds, 0));
        for (c, values) in self.attrs {
            picks.push(equal(&c, &select(&sel, &values, 0)));
        }
        (picks, Some(sel), templates)
    }
}

/// How many levels of definitions [`shape`] looks through: an offset's own definition and the
/// index it scales.
const SHAPE_DEPTH: u32 = 2;

/// The most term nodes a [`shape`] expands (offsets are small; this bounds a pathological one).
const SHAPE_NODES: usize = 256;

/// The placeholder of a literal in a [`shape`], followed by its width.
const HOLE: &str = "_lit";

/// `t` with each literal replaced by a placeholder (pushed to `lits`, in order) and each name
/// defined by `Encoder::define` replaced by its value, `depth` levels deep and within `budget`
/// nodes: two offsets with one shape differ only in their literals.
fn shape(defs: &super::state::Definitions, t: &Sexp, depth: u32, lits: &mut Vec<Sexp>, budget: &mut usize) -> Sexp {
    *budget = budget.saturating_sub(1);
    match t {
        Sexp::Atom(_) if let Some((_, width)) = super::fold::lit(t) => {
            lits.push(t.clone());
            atom(format!("{HOLE}{width}"))
        }
        Sexp::Atom(a) => match defs.value(a) {
            Some(v) if depth > 0 && *budget > 0 => shape(defs, v, depth - 1, lits, budget),
            _ => t.clone(),
        },
        Sexp::List(items) => match items.first() {
            // An indexed operator's indices are part of the shape.
            Some(Sexp::List(_)) | Some(Sexp::Atom(_)) => {
                let mut v = vec![items[0].clone()];
                v.extend(items[1..].iter().map(|x| shape(defs, x, depth, lits, budget)));
                Sexp::List(v)
            }
            None => t.clone(),
        },
    }
}

/// A [`shape`] with its placeholders filled, in order, from `fill`.
fn fill_shape(t: &Sexp, fill: &mut impl Iterator<Item = Sexp>) -> Sexp {
    match t {
        Sexp::Atom(a) if a.starts_with(HOLE) => fill.next().unwrap_or_else(|| t.clone()),
        Sexp::Atom(_) => t.clone(),
        Sexp::List(items) => Sexp::List(items.iter().map(|x| fill_shape(x, fill)).collect()),
    }
}

/// `values[sel]` for a BV32 selector below `values.len()`, as a balanced tree of `ite`s on
/// `bvult` (depth log2 of the candidates): solvers take a selected term far better than one
/// implication per candidate (yices answered a query of 5 candidates a side in 0.4 s this way,
/// and not within 30 s with implications). A subtree whose leaves are one term is that term.
fn select(sel: &Sexp, values: &[Sexp], lo: usize) -> Sexp {
    match values.len() {
        0 => f(),
        1 => values[0].clone(),
        n => {
            let mid = n / 2;
            let (low, high) = (select(sel, &values[..mid], lo), select(sel, &values[mid..], lo + mid));
            if low == high {
                return low;
            }
            app(
                "ite",
                vec![app("bvult", vec![sel.clone(), bvn((lo + mid) as u64, 32)]), low, high],
            )
        }
    }
}

impl Encoder<'_> {
    /// Thread `th`'s side of a linear query over `cands` (each with a path condition that is
    /// not `false` for `th`).
    /// `spans` numbers the source spans of both sides' candidates.
    fn choose(
        &mut self,
        facts: &mut nonlinear::Facts,
        th: usize,
        cands: &[Arc<Access>],
        how: LinearRace,
        (benign, value_bits): (bool, u32),
        spans: &HashMap<Span, u64>,
    ) -> Chosen {
        let conds: Vec<Sexp> = cands
            .iter()
            .map(|a| and(a.per_thread[th].0.clone(), a.valid[th].clone()))
            .collect();
        let lockstep = self.lockstep.is_some();
        let warps = !self.pair.warp_groups.is_empty();
        let copies = cands.iter().any(|a| a.copy.is_some());
        let same_write = |a: &Access| benign && self.may_write_benignly(a, th);
        let ben_values: Vec<Sexp> = cands.iter().map(|a| bool_term(same_write(a))).collect();
        let values: Vec<Sexp> = cands
            .iter()
            .map(|a| match same_write(a) {
                true => widen(&a.written[th], 8 * a.width, value_bits),
                false => bvn(0, value_bits),
            })
            .collect();
        let mut p = Picker {
            enc: self,
            th,
            conds,
            attrs: Vec::new(),
            templates: Vec::new(),
            bounds: Vec::new(),
        };
        let bv64 = || Sexp::bv_sort(64);
        let offsets = p.templates(cands.iter().map(|a| a.per_thread[th].1.clone()).collect());
        let off = p.attr("off", bv64(), offsets);
        let width = p.attr(
            "width",
            bv64(),
            cands.iter().map(|a| bvn(u64::from(a.width), 64)).collect(),
        );
        let interval = match how.ordered {
            true => p.attr(
                "interval",
                bv64(),
                cands.iter().map(|a| a.per_thread[th].2.clone()).collect(),
            ),
            false => t(),
        };
        let grid = match how.global {
            true => p.attr("grid", bv64(), cands.iter().map(|a| a.grid[th].clone()).collect()),
            false => t(),
        };
        let warp = match warps {
            true => p.attr("warp", bv64(), cands.iter().map(|a| a.warp[th].clone()).collect()),
            false => t(),
        };
        let span = match lockstep {
            true => p.attr(
                "span",
                Sexp::bv_sort(32),
                cands
                    .iter()
                    .map(|a| bvn(spans.get(&a.span).copied().unwrap_or(0), 32))
                    .collect(),
            ),
            false => t(),
        };
        let read = p.attr(
            "read",
            atom("Bool"),
            cands.iter().map(|a| bool_term(a.kind == AccessKind::Read)).collect(),
        );
        let atomic = p.attr(
            "atomic",
            atom("Bool"),
            cands.iter().map(|a| bool_term(a.kind == AccessKind::Atomic)).collect(),
        );
        let block_scope = p.attr(
            "block_scope",
            atom("Bool"),
            cands
                .iter()
                .map(|a| bool_term(matches!(a.atomic, Some((_, AtomicScope::Block)))))
                .collect(),
        );
        let copy = match copies {
            true => p.attr(
                "copy",
                Sexp::bv_sort(32),
                cands
                    .iter()
                    .map(|a| bvn(a.copy.map_or(0, |c| u64::from(c) + 1), 32))
                    .collect(),
            ),
            false => bvn(0, 32),
        };
        let segment = match how.cross {
            true => p.attr(
                "segment",
                Sexp::bv_sort(32),
                cands.iter().map(|a| bvn(u64::from(a.segment), 32)).collect(),
            ),
            false => bvn(0, 32),
        };
        let (benign, value) = match benign {
            true => (
                p.attr("benign", atom("Bool"), ben_values),
                p.attr("value", Sexp::bv_sort(value_bits), values),
            ),
            false => (f(), bvn(0, 8)),
        };
        let (picks, sel, templates) = p.finish(facts, cands);
        Chosen {
            picks,
            sel,
            off,
            width,
            interval,
            grid,
            warp,
            span,
            read,
            atomic,
            block_scope,
            copy,
            segment,
            benign,
            value,
            templates,
        }
    }

    /// One linear race query on `array` between thread 1's candidates `first` and thread 2's
    /// `second` (each non-empty), named `name`; with its [`Property::HarmfulRace`] variant
    /// right after it when a write of each side may be benign (as `races::push_pairwise_race`
    /// does for pairs). The witness values after the common ones: both chosen offsets, the
    /// chosen pair's harmful condition (with a variant), then each selector of a side with
    /// more than one candidate ([`RaceSides`]).
    pub(in crate::encode) fn push_linear_race(
        &mut self,
        facts: &mut nonlinear::Facts,
        array: ArrayId,
        name: &str,
        sides: RaceSides,
        how: LinearRace,
    ) {
        let benign = self.benign != Benign::Off
            && sides.first.iter().any(|a| self.may_write_benignly(a, 0))
            && sides.second.iter().any(|a| self.may_write_benignly(a, 1));
        let value_bits = sides
            .first
            .iter()
            .chain(&sides.second)
            .map(|a| 8 * a.width)
            .max()
            .unwrap_or(8);
        let sides = RaceSides {
            first: self.by_shape(&sides.first, 0),
            second: self.by_shape(&sides.second, 1),
        };
        let spans = span_ids(&sides);
        let one = self.choose(facts, 0, &sides.first, how, (benign, value_bits), &spans);
        let two = self.choose(facts, 1, &sides.second, how, (benign, value_bits), &spans);
        if crate::memory::over() {
            self.stopped = Some(crate::memory::exceeded(crate::memory::Activity::RaceCheck {
                array: self.k.array(array).name.clone(),
                pairs: (sides.first.len() + sides.second.len()) as u64,
            }));
            return;
        }
        let overlap = and(
            app(
                "bvslt",
                vec![one.off.clone(), app("bvadd", vec![two.off.clone(), two.width.clone()])],
            ),
            app(
                "bvslt",
                vec![two.off.clone(), app("bvadd", vec![one.off.clone(), one.width.clone()])],
            ),
        );
        let race = and(
            overlap,
            and(self.conflict(&one, &two, how), self.linear_order(&one, &two, how)),
        );
        let mut lemmas = offset_lemmas(facts, &sides);
        // The templates' lemmas: valid for every candidate of a template (its chosen literals
        // within their bounds), so for the chosen one.
        for (oa, wa) in &one.templates {
            for (ob, wb) in &two.templates {
                let mut mine = Vec::new();
                facts.offset_lemmas(oa, *wa, ob, *wb, &mut mine);
                for l in mine {
                    if !lemmas.contains(&l) {
                        lemmas.push(l);
                    }
                }
            }
        }
        let line = sides.first.first().map(|a| a.span.line).unwrap_or(0);
        let name = format!("{name}.L{line}");
        let harmful = benign.then(|| {
            let same = and(
                and(one.benign.clone(), two.benign.clone()),
                and(
                    and(equal(&one.off, &two.off), equal(&one.width, &two.width)),
                    equal(&one.value, &two.value),
                ),
            );
            and(race.clone(), not(same))
        });
        let picks: Vec<Sexp> = one.picks.iter().chain(&two.picks).cloned().collect();
        let mut gv = self.layout.common();
        gv.push(one.off.clone());
        gv.push(two.off.clone());
        let sels: Vec<Sexp> = one.sel.iter().chain(&two.sel).cloned().collect();
        let sides = Arc::new(sides);
        let assertions = |condition: &Sexp| -> Vec<Sexp> {
            let mut a = picks.clone();
            a.push(condition.clone());
            a.extend(lemmas.iter().cloned());
            a
        };
        let check =
            |property: Property, name: String, assertions: Vec<Sexp>, get_values: Vec<Sexp>, benign: bool| Check {
                property,
                query: Query {
                    unpinned: 0,
                    name,
                    assertions,
                    get_values,
                },
                pairs: Vec::new(),
                sides: Some(Arc::clone(&sides)),
                layout: self.layout.clone(),
                possible: false,
                abstractions: self.abstractions.clone(),
                benign,
                hints: Vec::new(),
                split: None,
            };
        let mut race_values = gv.clone();
        race_values.extend(harmful.iter().cloned());
        race_values.extend(sels.iter().cloned());
        let main = check(
            Property::Race { array },
            name.clone(),
            assertions(&race),
            race_values,
            harmful.is_some(),
        );
        let variant = harmful.as_ref().map(|h| {
            let mut values = gv.clone();
            values.push(h.clone());
            values.extend(sels.iter().cloned());
            check(
                Property::HarmfulRace { array },
                format!("{name}.harmful"),
                assertions(h),
                values,
                false,
            )
        });
        self.checks.push(main);
        self.checks.extend(variant);
    }

    /// `cands` with those whose offsets have one shape ([`shape`]) together, in the order of
    /// each shape's first candidate: the selected offset ([`select`]) is then one subtree per
    /// shape.
    fn by_shape(&self, cands: &[Arc<Access>], th: usize) -> Vec<Arc<Access>> {
        let mut first: HashMap<Sexp, usize> = HashMap::new();
        let mut keyed: Vec<(usize, usize)> = Vec::with_capacity(cands.len());
        for (i, a) in cands.iter().enumerate() {
            let (mut lits, mut budget) = (Vec::new(), SHAPE_NODES);
            let key = shape(&self.defined, &a.per_thread[th].1, SHAPE_DEPTH, &mut lits, &mut budget);
            let n = first.len();
            keyed.push((*first.entry(key).or_insert(n), i));
        }
        keyed.sort();
        keyed.into_iter().map(|(_, i)| Arc::clone(&cands[i])).collect()
    }

    /// The chosen accesses may conflict: not both reads, and not two atomics each in the
    /// other's scope (`races::conflicting`, over the chosen kinds).
    fn conflict(&self, one: &Chosen, two: &Chosen, how: LinearRace) -> Sexp {
        let both_read = and(one.read.clone(), two.read.clone());
        let scope_race = match how.global {
            true => or(one.block_scope.clone(), two.block_scope.clone()),
            false => f(),
        };
        let both_atomic = and(and(one.atomic.clone(), two.atomic.clone()), not(scope_race));
        and(not(both_read), not(both_atomic))
    }

    /// The chosen accesses are not ordered: `races::unordered` over the chosen attributes
    /// (locks and flags aside: a kernel with them has pairwise queries).
    fn linear_order(&mut self, one: &Chosen, two: &Chosen, how: LinearRace) -> Sexp {
        let same_interval = equal(&one.interval, &two.interval);
        let same_grid_interval = equal(&one.grid, &two.grid);
        let mut order = match (how.global, how.cross) {
            (false, _) => and(atom("same_block"), same_interval),
            (true, false) if same_grid_interval == t() => or(not(atom("same_block")), same_interval),
            (true, false) => app("ite", vec![atom("same_block"), same_interval, same_grid_interval]),
            (true, true) => and(
                not(equal(&one.segment, &two.segment)),
                and(not(atom("same_block")), same_grid_interval),
            ),
        };
        if one.warp != two.warp {
            for k in 0..self.pair.warp_groups.len() {
                let group = self.pair.warp_groups[k].1.clone();
                let same = equal(&warp_count(&one.warp, k), &warp_count(&two.warp, k));
                order = and(order, or(not(group), same));
            }
        }
        if let Some(n) = self.lockstep {
            let one_warp = self.lockstep_warp(n);
            let same_statement = and(
                equal(&one.span, &two.span),
                and(not(one.read.clone()), not(two.read.clone())),
            );
            order = and(order, or(same_statement, not(one_warp)));
        }
        // One shared copy made by two threads that share it is one copy (a per-thread copy is
        // each thread's own).
        if one.copy != bvn(0, 32) || two.copy != bvn(0, 32) {
            let one_copy = self.copies.shared().fold(f(), |acc, (site, shared)| {
                let this = bvn(u64::from(site) + 1, 32);
                let both = and(equal(&one.copy, &this), equal(&two.copy, &this));
                or(acc, and(both, shared.clone()))
            });
            order = and(order, not(one_copy));
        }
        let both_atomic = and(one.atomic.clone(), two.atomic.clone());
        and(order, or(not(both_atomic), not(atom("same_block"))))
    }
}

/// The mixed-radix lemmas of the sides' offsets, for at most [`LEMMA_PAIRS`] pairs of
/// distinct (offset, width) of thread 1 and of thread 2, in candidate order.
fn offset_lemmas(facts: &nonlinear::Facts, sides: &RaceSides) -> Vec<Sexp> {
    fn distinct(cands: &[Arc<Access>], th: usize) -> Vec<(&Sexp, u32)> {
        let mut seen: HashMap<(&Sexp, u32), ()> = HashMap::new();
        let mut out = Vec::new();
        for a in cands {
            let key = (&a.per_thread[th].1, a.width);
            if seen.insert(key, ()).is_none() {
                out.push(key);
            }
        }
        out
    }
    let (ones, twos) = (distinct(&sides.first, 0), distinct(&sides.second, 1));
    let mut lemmas = Vec::new();
    let mut index: HashMap<Sexp, ()> = HashMap::new();
    for (oa, wa) in ones.iter().take(LEMMA_PAIRS) {
        if crate::memory::over() {
            break;
        }
        for (ob, wb) in twos.iter().take((LEMMA_PAIRS / ones.len().max(1)).max(1)) {
            let mut mine = Vec::new();
            facts.offset_lemmas(oa, *wa, ob, *wb, &mut mine);
            for l in mine {
                if index.insert(l.clone(), ()).is_none() {
                    lemmas.push(l);
                }
            }
        }
    }
    lemmas
}

/// A number for each distinct source span of both sides' candidates , in order of first appearance.
fn span_ids(sides: &RaceSides) -> HashMap<Span, u64> {
    let mut ids: HashMap<Span, u64> = HashMap::new();
    for a in sides.first.iter().chain(&sides.second) {
        let n = ids.len() as u64;
        ids.entry(a.span.clone()).or_insert(n);
    }
    ids
}

/// `true` or `false`.
fn bool_term(b: bool) -> Sexp {
    if b { t() } else { f() }
}

/// `v` (`from` bits) zero-extended to `to` bits.
fn widen(v: &Sexp, from: u32, to: u32) -> Sexp {
    if from >= to {
        return v.clone();
    }
    Sexp::list(vec![
        app("_", vec![atom("zero_extend"), atom((to - from).to_string())]),
        v.clone(),
    ])
}
