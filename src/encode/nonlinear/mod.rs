//! Products of two symbolic bit-vectors: mixed-radix lemmas and the linear relaxation.
//!
//! Under a symbolic geometry the pair model is full of products of two unknowns:
//! `blockIdx.x * blockDim.x + threadIdx.x`, and a normalized grid-stride loop's
//! `g + it * (blockDim.x * gridDim.x)` (PUG paper `003_…` §6.1). Bit-blasting solvers must then
//! reason about 64-bit (and, for trip bounds, 130-bit) multipliers, and a race query that is
//! instant at `--blockDim=1024` (a shift) runs out of time at `--blockDim=[*,1,1]`. Two things
//! make such queries as cheap as the concrete ones:
//!
//! * **Mixed-radix lemmas** (`Facts::pair_lemmas`): for two threads' values `x1 = u1 + m*v1`
//!   and `x2 = u2 + m*v2` over the same radix `m`, where `u < m` and no step wraps (both shown
//!   here from the script's top-level bounds, not assumed), `x1 = x2` implies `u1 = u2` and
//!   `v1 = v2`: a thread's linear id determines its coordinates, and a grid-stride index its
//!   thread and iteration. For an access pair whose byte offsets are `c*x1` and `c*x2` with
//!   both widths at most `c`, overlapping bytes imply `x1 = x2`. Every lemma is a valid fact
//!   of bit-vector arithmetic, so adding it to a query never changes its answer.
//! * **Relaxation** ([`relax`]): every product of two non-literal terms becomes an application
//!   of an uninterpreted function `nl.mulW` (the incremental-linearization abstraction of
//!   Cimatti et al., TOCL 2018, without refinement). Multiplication is one interpretation of
//!   that function, so a relaxed query that is unsatisfiable is unsatisfiable exactly; with
//!   the lemmas above the usual proofs need nothing more. A satisfiable or unknown relaxed
//!   answer says nothing: the driver then asks the exact query.

use super::Encoded;
use crate::solver::{Command, Query, Script, Sexp};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{BTreeSet, HashMap, HashSet};

pub(crate) mod products;
#[cfg(test)]
mod tests;

use products::{
    Division, LiteralSum, Product, Sum, division_lemmas, division_name, lemmas, literal_radix_lemmas, nowrap_name,
    radix_lemmas, width_lemmas,
};
pub use products::{Preferred, Probe, Refinement};
pub(crate) use products::{as_mul_no_overflow, mul_no_overflow};

/// The relaxed formula of a kernel: the script with symbolic products uninterpreted (and,
/// under `--no-overflow`, their no-wrap conditions), with the lemmas of [`products`], and one
/// query per check of the [`Encoded`] it came from (same order), named `<name>.relaxed`, each
/// with the [`Probe`] that checks its models against exact arithmetic.
#[derive(Clone, Debug)]
pub struct Relaxed {
    pub script: Script,
    pub queries: Vec<Query>,
    pub probes: Vec<Probe>,
    /// [`Encoded::preferred`] relaxed.
    pub preferred: Option<Preferred>,
}

impl Relaxed {
    /// Leaves out of the flat witness tier ([`Probe::small`]) the pin `blockDim.d = 1` of each
    /// dimension `d` whose `threadIdx.d` the kernel reads (`read_thread[d - 1]` for y and z),
    /// and `gridDim.d = 1` where it reads `blockIdx.d` (`read_block`): a kernel that indexes
    /// by `threadIdx.y` seldom has a defect in a launch one thread high, and the solver's proof
    /// of that costs as much as the witness (`matrix_2d_symbolic_transposed.cu` with cvc5:
    /// 0.33 s of 1.1 s). Changes the order of the witness search only, never a verdict.
    pub fn keep_read_dims(&mut self, read_thread: [bool; 2], read_block: [bool; 2]) {
        let read = |name: &str| match name {
            "blockDim.y" => read_thread[0],
            "blockDim.z" => read_thread[1],
            "gridDim.y" => read_block[0],
            "gridDim.z" => read_block[1],
            _ => false,
        };
        for probe in &mut self.probes {
            probe.flat.retain(|pin| match pin {
                Sexp::List(v) => !matches!(v.get(1), Some(Sexp::Atom(n)) if read(n)),
                _ => true,
            });
        }
    }
}

/// Whether a division by the literal `c` is relaxed (unsigned only): a literal above 1 that
/// is not a power of two (those are shifts, which solvers take apart at once), such as the
/// `WIDTH` of `(off / 4) % WIDTH`. Its lemmas ([`literal_radix_lemmas`]) say what bit-blasting
/// finds only slowly: the remainder of `v*c + u` with `u < c` is `u`.
fn radix_literal(c: &BigUint) -> bool {
    *c > BigUint::one() && c.count_ones() > 1
}

/// The bits of the uniform inputs of a small launch ([`Probe::small`]).
const SMALL_BITS: u32 = 8;

/// The products found while relaxing, and the widths of the symbols used.
#[derive(Default)]
struct Collected {
    muls: BTreeSet<u32>,
    nowraps: BTreeSet<(u32, bool)>,
    products: Vec<Product>,
    index: HashMap<String, usize>,
    sums: Vec<Sum>,
    divisions: Vec<Division>,
    literal_sums: Vec<LiteralSum>,
    /// Whether a division by a non-literal was relaxed (those by a literal alone make no
    /// relaxation: the exact formula is as linear).
    symbolic_division: bool,
    /// `(width, signed)` of the divisions.
    divs: BTreeSet<(u32, bool)>,
    /// [`Facts::order_key`] of each definition.
    keys: HashMap<String, String>,
}

/// Longest [`Facts::order_key`].
const KEY_LIMIT: usize = 4096;

impl Collected {
    /// The counts of what was collected: products, sums, divisions and literal sums.
    fn counts(&self) -> [usize; 4] {
        [
            self.products.len(),
            self.sums.len(),
            self.divisions.len(),
            self.literal_sums.len(),
        ]
    }

    /// Removes what was collected after the script's (its [`Collected::counts`] `script`),
    /// appending its lemmas (against the script's) to `out`; returns its products and
    /// divisions.
    fn take_fresh(&mut self, script: [usize; 4], out: &mut Vec<Sexp>) -> (Vec<Product>, Vec<Division>) {
        let products = self.products.split_off(script[0]);
        for p in &products {
            self.index.remove(&format!("{} {}", p.x, p.y));
        }
        let sums = self.sums.split_off(script[1]);
        let divisions = self.divisions.split_off(script[2]);
        let literal_sums = self.literal_sums.split_off(script[3]);
        division_lemmas(&divisions, out);
        width_lemmas(&self.divisions, &divisions, out);
        literal_radix_lemmas((&self.divisions, &divisions), (&self.literal_sums, &literal_sums), out);
        lemmas(&self.products, &products, out);
        radix_lemmas(&self.sums, &sums, out);
        (products, divisions)
    }

    /// Records `p`, or upgrades the record of the same factors with its no-wrap condition.
    fn add(&mut self, p: Product) {
        let key = format!("{} {}", p.x, p.y);
        match self.index.get(&key) {
            Some(&i) => {
                if self.products[i].ok.is_none() {
                    self.products[i].ok = p.ok;
                }
            }
            None => {
                self.index.insert(key, self.products.len());
                self.products.push(p);
            }
        }
    }
}

/// The relaxation of `encoded`, or `None` when its formula has no product of two non-literal
/// terms and no division by a non-literal (then the relaxation would be the formula itself,
/// or differ only in its divisions by literals).
pub fn relax(encoded: &Encoded) -> Option<Relaxed> {
    let facts = Facts::new(&encoded.script.commands);
    if facts.stopped {
        // At the memory bound: no relaxation (the exact queries' check stops the kernel).
        return None;
    }
    let mut seen = Collected::default();
    let mut commands: Vec<Command> = encoded
        .script
        .commands
        .iter()
        .map(|c| match c {
            Command::DefineConst { name, sort, value } => Command::DefineConst {
                name: name.clone(),
                sort: sort.clone(),
                value: facts.relax_term(value, &mut seen),
            },
            Command::Assert(t) => Command::Assert(facts.relax_term(t, &mut seen)),
            other => other.clone(),
        })
        .collect();
    let script_len = seen.counts();
    let mut script_lemmas = Vec::new();
    division_lemmas(&seen.divisions, &mut script_lemmas);
    width_lemmas(&[], &seen.divisions, &mut script_lemmas);
    literal_radix_lemmas((&[], &seen.divisions), (&[], &seen.literal_sums), &mut script_lemmas);
    lemmas(&[], &seen.products, &mut script_lemmas);
    radix_lemmas(&[], &seen.sums, &mut script_lemmas);
    commands.extend(script_lemmas.into_iter().map(Command::Assert));
    // The preferred conditions like a check's assertion, but their products kept apart.
    let preferred = encoded.preferred.as_ref().map(|p| {
        let mut conj = vec![facts.relax_term(p, &mut seen)];
        let (products, divisions) = seen.take_fresh(script_len, &mut conj);
        Preferred {
            term: Sexp::app("and", conj),
            products,
            divisions,
        }
    });
    let mut small = Vec::new();
    let mut flat = Vec::new();
    let inputs: Vec<Sexp> = encoded
        .script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::DeclareConst { name, sort } if *sort == Sexp::atom("Bool") || facts.widths.contains_key(name) => {
                let c = Sexp::atom(name.as_str());
                if let Some(&w) = facts.widths.get(name)
                    && w > SMALL_BITS
                    && !products::mentions_thread(&c)
                {
                    let bound = Sexp::bv(&(BigUint::one() << SMALL_BITS), w);
                    small.push(Sexp::app("bvult", vec![c.clone(), bound]));
                    if matches!(name.as_str(), "blockDim.y" | "blockDim.z" | "gridDim.y" | "gridDim.z") {
                        flat.push(Sexp::app("=", vec![c.clone(), Sexp::bv(&BigUint::one(), w)]));
                    }
                }
                Some(c)
            }
            _ => None,
        })
        .collect();
    let mut queries = Vec::new();
    let mut probes = Vec::new();
    for c in &encoded.checks {
        let mut assertions: Vec<Sexp> = c
            .query
            .assertions
            .iter()
            .map(|a| facts.relax_term(a, &mut seen))
            .collect();
        let (fresh, fresh_divisions) = seen.take_fresh(script_len, &mut assertions);
        queries.push(Query {
            name: format!("{}.relaxed", c.query.name),
            assertions,
            get_values: Vec::new(),
        });
        probes.push(Probe {
            products: seen.products.iter().chain(&fresh).cloned().collect(),
            divisions: seen.divisions.iter().chain(&fresh_divisions).cloned().collect(),
            inputs: inputs.clone(),
            small: small.clone(),
            flat: flat.clone(),
        });
    }
    if seen.muls.is_empty() && seen.nowraps.is_empty() && !seen.symbolic_division {
        return None;
    }
    let decls = seen
        .muls
        .iter()
        .map(|w| Command::DeclareFun {
            name: mul_name(*w),
            args: vec![Sexp::bv_sort(*w), Sexp::bv_sort(*w)],
            ret: Sexp::bv_sort(*w),
        })
        .chain(seen.nowraps.iter().map(|(w, s)| Command::DeclareFun {
            name: nowrap_name(*w, *s),
            args: vec![Sexp::bv_sort(*w), Sexp::bv_sort(*w)],
            ret: Sexp::atom("Bool"),
        }))
        .chain(seen.divs.iter().flat_map(|(w, s)| {
            [false, true].map(|rem| Command::DeclareFun {
                name: division_name(*w, *s, rem),
                args: vec![Sexp::bv_sort(*w), Sexp::bv_sort(*w)],
                ret: Sexp::bv_sort(*w),
            })
        }));
    let decls: Vec<Command> = decls.collect();
    commands.splice(0..0, decls);
    Some(Relaxed {
        script: Script {
            logic: encoded.script.logic.clone(),
            commands,
        },
        queries,
        probes,
        preferred,
    })
}

fn mul_name(w: u32) -> String {
    format!("nl.mul{w}")
}

/// What the top level of a script says about its terms: definitions, bit widths, unsigned
/// bounds of declared constants (`(assert (bvule x C))`, `(bvult x y)`, …) and the strict
/// orders `x < y` between declared constants (`threadIdx.x < blockDim.x`).
pub(crate) struct Facts {
    /// Reading stopped because gpug's memory passed `--max-memory` ([`crate::memory`]): the
    /// facts are incomplete and must not be used.
    pub(crate) stopped: bool,
    defs: HashMap<String, Sexp>,
    widths: HashMap<String, u32>,
    upper: HashMap<String, BigUint>,
    lower: HashMap<String, BigUint>,
    strict: HashSet<(String, String)>,
}

/// Most nested decompositions followed by [`Facts::pair_lemmas`].
const LEMMA_DEPTH: u32 = 4;

impl Facts {
    /// Reads the commands (in order) of a script or of a script under construction; stops
    /// ([`Facts::stopped`]) when gpug's memory passes `--max-memory`, as it copies the
    /// definitions.
    pub(crate) fn new<'c>(commands: impl IntoIterator<Item = &'c Command>) -> Facts {
        let mut f = Facts {
            stopped: false,
            defs: HashMap::new(),
            widths: HashMap::new(),
            upper: HashMap::new(),
            lower: HashMap::new(),
            strict: HashSet::new(),
        };
        let width_of = |s: &Sexp| match s {
            Sexp::List(v) if v.len() == 3 && v[1] == Sexp::atom("BitVec") => match &v[2] {
                Sexp::Atom(n) => n.parse::<u32>().ok(),
                _ => None,
            },
            _ => None,
        };
        let mut bounds = Vec::new();
        for c in commands {
            if crate::memory::over() {
                f.stopped = true;
                return f;
            }
            match c {
                Command::DeclareConst { name, sort } => {
                    if let Some(w) = width_of(sort) {
                        f.widths.insert(name.clone(), w);
                    }
                }
                Command::DefineConst { name, sort, value } => {
                    if let Some(w) = width_of(sort) {
                        f.widths.insert(name.clone(), w);
                    }
                    f.defs.insert(name.clone(), value.clone());
                }
                Command::Assert(t) => bounds.push(t.clone()),
                Command::DeclareFun { .. } => {}
            }
        }
        // Literal bounds first, then the strict orders (whose bounds use the literal ones).
        for strict_pass in [false, true] {
            for t in &bounds {
                let Sexp::List(v) = t else { continue };
                let [Sexp::Atom(op), a, b] = v.as_slice() else { continue };
                let strict = match op.as_str() {
                    "bvult" => true,
                    "bvule" => false,
                    _ => continue,
                };
                match (a, b) {
                    (Sexp::Atom(x), _) if !f.defs.contains_key(x) && f.widths.contains_key(x) => {
                        let lit = f.literal(b);
                        if strict_pass == lit.is_none() {
                            let m = f.max(b);
                            if strict && m.is_zero() {
                                continue;
                            }
                            let bound = if strict { m - 1u8 } else { m };
                            let e = f.upper.entry(x.clone()).or_insert_with(|| bound.clone());
                            if bound < *e {
                                *e = bound;
                            }
                            if strict && let Sexp::Atom(y) = b {
                                f.strict.insert((x.clone(), y.clone()));
                            }
                        }
                    }
                    (_, Sexp::Atom(x)) if !strict_pass && !f.defs.contains_key(x) && f.widths.contains_key(x) => {
                        if let Some(l) = f.literal(a) {
                            let bound = if strict { l + 1u8 } else { l };
                            let e = f.lower.entry(x.clone()).or_insert_with(|| bound.clone());
                            if bound > *e {
                                *e = bound;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        f
    }

    /// `t` with every atom that names a definition replaced by its value, at the top only.
    fn resolve<'a>(&'a self, mut t: &'a Sexp) -> &'a Sexp {
        while let Sexp::Atom(a) = t {
            match self.defs.get(a) {
                Some(v) => t = v,
                None => break,
            }
        }
        t
    }

    /// The value of `t` when it is a literal or names one.
    fn literal(&self, t: &Sexp) -> Option<BigUint> {
        let t = self.resolve(t);
        if let Some(v) = t.as_bv() {
            return Some(v);
        }
        let (op, args) = split(t)?;
        match (op, args) {
            (Op::Named(f @ ("bvadd" | "bvmul")), [_, ..]) => {
                let w = self.width(t)?;
                let mut acc = BigUint::from(u8::from(f == "bvmul"));
                for a in args {
                    let v = self.literal(a)?;
                    acc = if f == "bvmul" { acc * v } else { acc + v };
                }
                Some(acc % (BigUint::one() << w))
            }
            (Op::Ext(_, false), [x]) => self.literal(x),
            (Op::Ext(k, true), [x]) => {
                let (v, w) = (self.literal(x)?, self.width(x)?);
                Some(if v.bit(u64::from(w) - 1) {
                    v + (((BigUint::one() << k) - 1u8) << w)
                } else {
                    v
                })
            }
            _ => None,
        }
    }

    /// The bit width of a bit-vector term; `None` for other sorts and unknown symbols.
    fn width(&self, t: &Sexp) -> Option<u32> {
        match t {
            Sexp::Atom(a) => {
                if let Some(h) = a.strip_prefix("#x") {
                    Some(4 * h.len() as u32)
                } else if let Some(b) = a.strip_prefix("#b") {
                    Some(b.len() as u32)
                } else {
                    self.widths.get(a).copied()
                }
            }
            Sexp::List(_) => {
                let (op, args) = split(t)?;
                match op {
                    Op::Ext(k, _) => Some(k + self.width(args.first()?)?),
                    Op::Extract(hi, lo) => Some(hi - lo + 1),
                    Op::Named(n) => match n {
                        "concat" => args.iter().map(|a| self.width(a)).sum(),
                        "ite" => self.width(args.get(1)?),
                        "bvadd" | "bvsub" | "bvmul" | "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" | "bvsmod"
                        | "bvand" | "bvor" | "bvxor" | "bvnot" | "bvneg" | "bvshl" | "bvlshr" | "bvashr" => {
                            self.width(args.first()?)
                        }
                        // The relaxation's own symbols: `nl.mulW`, `nl.udivW`, `nl.sremW`, ….
                        _ => n
                            .strip_prefix("nl.")
                            .map(|r| r.trim_start_matches(|c: char| c.is_ascii_alphabetic()))
                            .and_then(|w| w.parse().ok()),
                    },
                }
            }
        }
    }

    fn full(&self, t: &Sexp) -> BigUint {
        match self.width(t) {
            Some(w) => (BigUint::one() << w) - 1u8,
            None => BigUint::from(u128::MAX) << 64,
        }
    }

    /// An upper bound of `t`'s unsigned value in every model of the script.
    fn max(&self, t: &Sexp) -> BigUint {
        let full = self.full(t);
        let t = self.resolve(t);
        if let Some(v) = t.as_bv() {
            return v;
        }
        if let Sexp::Atom(a) = t {
            return self.upper.get(a).cloned().unwrap_or(full);
        }
        let Some((op, args)) = split(t) else { return full };
        let fits = |v: BigUint| if v <= full { v } else { full.clone() };
        match (op, args) {
            (Op::Ext(_, false), [x]) => self.max(x),
            (Op::Ext(_, true), [x]) => {
                let m = self.max(x);
                match self.width(x) {
                    Some(w) if m < BigUint::one() << (w - 1) => m,
                    _ => full,
                }
            }
            (Op::Extract(hi, 0), [x]) => fits(self.max(x).min(BigUint::one() << (hi + 1))),
            (Op::Named("bvadd"), _) => fits(args.iter().map(|a| self.max(a)).sum()),
            (Op::Named("bvmul"), _) => fits(args.iter().map(|a| self.max(a)).product()),
            (Op::Named("bvudiv"), [a, _]) => self.max(a),
            (Op::Named("bvurem"), [a, b]) => {
                let mb = self.max(b);
                if mb.is_zero() {
                    self.max(a)
                } else {
                    self.max(a).min(mb - 1u8)
                }
            }
            (Op::Named("bvlshr"), [a, b]) => match self.literal(b).and_then(|s| s.to_u32()) {
                Some(s) => self.max(a) >> s,
                None => self.max(a),
            },
            (Op::Named("bvand"), _) => args.iter().map(|a| self.max(a)).min().unwrap_or(full),
            (Op::Named("ite"), [_, a, b]) => self.max(a).max(self.max(b)),
            _ => full,
        }
    }

    /// A lower bound of `t`'s unsigned value in every model of the script.
    fn min(&self, t: &Sexp) -> BigUint {
        let t = self.resolve(t);
        if let Some(v) = t.as_bv() {
            return v;
        }
        if let Sexp::Atom(a) = t {
            return self.lower.get(a).cloned().unwrap_or_default();
        }
        let Some((op, args)) = split(t) else {
            return BigUint::zero();
        };
        let no_wrap = |m: BigUint| m <= self.full(t);
        match (op, args) {
            (Op::Ext(_, false), [x]) => self.min(x),
            (Op::Named("bvadd"), _) if no_wrap(args.iter().map(|a| self.max(a)).sum()) => {
                args.iter().map(|a| self.min(a)).sum()
            }
            (Op::Named("bvmul"), _) if no_wrap(args.iter().map(|a| self.max(a)).product()) => {
                args.iter().map(|a| self.min(a)).product()
            }
            _ => BigUint::zero(),
        }
    }

    /// `t` without value-preserving zero extensions, and with definitions resolved.
    fn core<'a>(&'a self, mut t: &'a Sexp) -> &'a Sexp {
        loop {
            t = self.resolve(t);
            match split(t) {
                Some((Op::Ext(_, false), [x])) => t = x,
                _ => return t,
            }
        }
    }

    /// Whether `a < m` (unsigned values) holds in every model: an asserted strict order,
    /// bounds, or the radix bound `u + m1*v < m1*c` for `u < m1`, `v < c`, `m = m1*c` without
    /// wrapping.
    fn less(&self, a: &Sexp, m: &Sexp) -> bool {
        if let (Sexp::Atom(x), Sexp::Atom(y)) = (a, m)
            && self.strict.contains(&(x.clone(), y.clone()))
        {
            return true;
        }
        if self.max(a) < self.min(m) {
            return true;
        }
        let (ca, cm) = (self.core(a), self.core(m));
        if ca != a || cm != m {
            return self.less(ca, cm);
        }
        if let Some((_, m1, v)) = self.radix(a)
            && let Some((Op::Named("bvmul"), [f1, f2])) = split(cm)
            && self.max(f1) * self.max(f2) <= self.full(cm)
        {
            let m1 = self.core(&m1);
            for (f, c) in [(f1, f2), (f2, f1)] {
                if self.core(f) == m1 && self.less(&v, c) {
                    return true;
                }
            }
        }
        false
    }

    /// `x` as `u + m*v` with `u < m` and no wrapping in `x`'s width: `(u, m, v)`. A product
    /// alone is `0 + m*v` when `m >= 1`.
    fn radix(&self, x: &Sexp) -> Option<(Sexp, Sexp, Sexp)> {
        let w = self.width(x)?;
        let limit = BigUint::one() << w;
        let t = self.resolve(x);
        let (op, args) = split(t)?;
        let candidates: Vec<(Sexp, &Sexp)> = match (op, args) {
            (Op::Named("bvadd"), [p, q]) => vec![(p.clone(), q), (q.clone(), p)],
            (Op::Named("bvmul"), [_, _]) => vec![(Sexp::bv(&BigUint::zero(), w), t)],
            _ => return None,
        };
        for (u, prod) in candidates {
            let Some((Op::Named("bvmul"), [r, s])) = split(self.resolve(prod)) else {
                continue;
            };
            for (m, v) in [(r, s), (s, r)] {
                if self.literal(m).is_some() && self.literal(v).is_some() {
                    continue;
                }
                if self.max(&u) + self.max(m) * self.max(v) < limit && self.less(&u, m) {
                    return Some((u, m.clone(), v.clone()));
                }
            }
        }
        None
    }

    /// Valid lemmas for two threads' values `x1`, `x2` (same width): for each shared
    /// mixed-radix decomposition, `x1 = x2 => u1 = u2 and v1 = v2`, and the same for the
    /// parts, down to [`LEMMA_DEPTH`] levels.
    pub(crate) fn pair_lemmas(&self, x1: &Sexp, x2: &Sexp, out: &mut Vec<Sexp>) {
        self.pair_rec(x1, x2, out, LEMMA_DEPTH);
    }

    fn pair_rec(&self, x1: &Sexp, x2: &Sexp, out: &mut Vec<Sexp>, depth: u32) {
        if depth == 0 || x1 == x2 {
            return;
        }
        let (r1, r2) = (self.resolve(x1), self.resolve(x2));
        // Extensions by the same amount are injective: look through them.
        if let (Some((Op::Ext(k1, s1), [y1])), Some((Op::Ext(k2, s2), [y2]))) = (split(r1), split(r2))
            && (k1, s1) == (k2, s2)
        {
            return self.pair_rec(y1, y2, out, depth);
        }
        let (Some((u1, m1, v1)), Some((u2, m2, v2))) = (self.radix(x1), self.radix(x2)) else {
            return;
        };
        // Also for a literal radix: even a power of two (a shift) leaves the solver to find
        // that carries cannot make two sums equal, which the lemma states outright.
        if self.core(&m1) != self.core(&m2) {
            return;
        }
        out.push(Sexp::app(
            "=>",
            vec![
                Sexp::app("=", vec![x1.clone(), x2.clone()]),
                Sexp::app(
                    "and",
                    vec![
                        Sexp::app("=", vec![u1.clone(), u2.clone()]),
                        Sexp::app("=", vec![v1.clone(), v2.clone()]),
                    ],
                ),
            ],
        ));
        self.pair_rec(&u1, &u2, out, depth - 1);
        self.pair_rec(&v1, &v2, out, depth - 1);
    }

    /// For byte offsets `o1 = c*x1` (`w1` bytes) and `o2 = c*x2` (`w2` bytes) with the same
    /// literal `c >= w1, w2`: `x1, x2` within `±2^k` (so `c*x` does not wrap) and the bytes
    /// overlapping (signed, as the race queries compare) imply `x1 = x2` (which spares the
    /// solver the 64-bit comparisons even without a radix); then the mixed-radix lemmas of
    /// `(x1, x2)`. Nothing for other offsets.
    pub(crate) fn offset_lemmas(&self, o1: &Sexp, w1: u32, o2: &Sexp, w2: u32, out: &mut Vec<Sexp>) {
        let scaled = |o: &Sexp| -> Option<(Sexp, BigUint)> {
            match split(self.resolve(o))? {
                (Op::Named("bvmul"), [a, b]) => match (self.literal(a), self.literal(b)) {
                    (None, Some(c)) => Some((a.clone(), c)),
                    (Some(c), None) => Some((b.clone(), c)),
                    _ => None,
                },
                _ => None,
            }
        };
        let (Some((x1, c1)), Some((x2, c2))) = (scaled(o1), scaled(o2)) else {
            return;
        };
        if c1 != c2 || c1 < BigUint::from(w1.max(w2)) || self.width(&x1) != Some(64) || self.width(&x2) != Some(64) {
            return;
        }
        let k = 62 - c1.bits().min(62) as u32;
        let lo = (BigUint::one() << 64) - (BigUint::one() << k);
        let hi = BigUint::one() << k;
        let in_range = |x: &Sexp| {
            Sexp::app(
                "and",
                vec![
                    Sexp::app("bvsge", vec![x.clone(), Sexp::bv(&lo, 64)]),
                    Sexp::app("bvslt", vec![x.clone(), Sexp::bv(&hi, 64)]),
                ],
            )
        };
        let lt = |a: &Sexp, b: &Sexp, w: u32| {
            Sexp::app(
                "bvslt",
                vec![
                    a.clone(),
                    Sexp::app("bvadd", vec![b.clone(), Sexp::bv(&BigUint::from(w), 64)]),
                ],
            )
        };
        let mut radix = Vec::new();
        self.pair_lemmas(&x1, &x2, &mut radix);
        let first = Sexp::app(
            "=>",
            vec![
                Sexp::app(
                    "and",
                    vec![in_range(&x1), in_range(&x2), lt(o1, o2, w2), lt(o2, o1, w1)],
                ),
                Sexp::app("=", vec![x1, x2]),
            ],
        );
        for l in std::iter::once(first).chain(radix) {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }

    /// `x` as `p + c`, `c + p` or `p - c` with `c` a literal: (operator, `p`, `c`, whether `c`
    /// comes first), looking through a low `extract`, which commutes with `+` and `-`
    /// modulo its width (`extract(it + 1) = extract(it) + 1`).
    fn literal_summand(&self, x: &Sexp) -> Option<(&'static str, Sexp, Sexp, bool)> {
        match split(x)? {
            (Op::Named(op @ ("bvadd" | "bvsub")), [p, q]) => {
                let op = if op == "bvadd" { "bvadd" } else { "bvsub" };
                if self.literal(q).is_some() {
                    Some((op, p.clone(), q.clone(), false))
                } else if op == "bvadd" && self.literal(p).is_some() {
                    Some((op, q.clone(), p.clone(), true))
                } else {
                    None
                }
            }
            (Op::Extract(hi, 0), [inner]) => {
                let (op, p, c, first) = self.literal_summand(inner)?;
                let low = |t: Sexp| {
                    Sexp::List(vec![
                        Sexp::app(
                            "_",
                            vec![Sexp::atom("extract"), Sexp::atom(hi.to_string()), Sexp::atom("0")],
                        ),
                        t,
                    ])
                };
                Some((op, low(p), low(c), first))
            }
            _ => None,
        }
    }

    /// `t` with every product of two non-literal operands an application of `nl.mulW`
    /// (operands in a fixed order, since multiplication commutes), after distributing it over
    /// a literal summand (`(a + c) * b = a*b + c*b`, an identity modulo `2^W`, so that a
    /// closed form's step `v0 + (it+1)*k = (v0 + it*k) + k` stays provable), and every
    /// no-wrap condition of such a product ([`mul_no_overflow`]) an application of
    /// `nl.nowrap{u,s}W`; `seen` collects the products and the symbols used.
    fn relax_term(&self, t: &Sexp, seen: &mut Collected) -> Sexp {
        let Sexp::List(items) = t else { return t.clone() };
        if let Some((a, b, w, signed)) = as_mul_no_overflow(t)
            && self.literal(&a).is_none()
            && self.literal(&b).is_none()
        {
            let (a, b) = (self.relax_term(&a, seen), self.relax_term(&b, seen));
            let (a, b) = if self.order_key(&a, seen) <= self.order_key(&b, seen) {
                (a, b)
            } else {
                (b, a)
            };
            let ok = Sexp::app(&nowrap_name(w, signed), vec![a.clone(), b.clone()]);
            seen.nowraps.insert((w, signed));
            let p = self.relaxed_product(&a, &b, seen);
            seen.add(Product {
                x: a,
                y: b,
                p,
                w,
                ok: Some((ok.clone(), signed)),
            });
            return ok;
        }
        let items: Vec<Sexp> = items.iter().map(|i| self.relax_term(i, seen)).collect();
        match items.as_slice() {
            [Sexp::Atom(op), a, b] if op == "bvmul" => self.relaxed_product(a, b, seen),
            [Sexp::Atom(op), a, b]
                if matches!(op.as_str(), "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem") && self.literal(b).is_none() =>
            {
                self.relaxed_division(op, a, b, seen)
            }
            [Sexp::Atom(op), a, b]
                if matches!(op.as_str(), "bvudiv" | "bvurem") && self.literal(b).is_some_and(|c| radix_literal(&c)) =>
            {
                self.relaxed_division(op, a, b, seen)
            }
            [Sexp::Atom(op), a, b] if op == "bvadd" => {
                let x = Sexp::List(items.clone());
                for (p, u) in [(a, b), (b, a)] {
                    let Some((Op::Named("bvmul"), [f, g])) = split(p) else {
                        continue;
                    };
                    let (Some(w), Some((v, c))) = (
                        self.width(&x),
                        match (self.literal(f), self.literal(g)) {
                            (None, Some(c)) => Some((f, c)),
                            (Some(c), None) => Some((g, c)),
                            _ => None,
                        },
                    ) else {
                        continue;
                    };
                    let sum = LiteralSum {
                        x: x.clone(),
                        v: v.clone(),
                        u: u.clone(),
                        c,
                        w,
                    };
                    if radix_literal(&sum.c) && !seen.literal_sums.contains(&sum) {
                        seen.literal_sums.push(sum);
                    }
                }
                for (p, u) in [(a, b), (b, a)] {
                    let Some((Op::Named(f), [px, py])) = split(p) else {
                        continue;
                    };
                    if !f.starts_with("nl.mul") {
                        continue;
                    }
                    let found = seen.index.get(&format!("{px} {py}")).map(|&i| &seen.products[i]);
                    if let Some(prod) = found.filter(|r| r.ok.is_some()) {
                        let sum = Sum {
                            x: x.clone(),
                            prod: prod.clone(),
                            u: u.clone(),
                        };
                        if !seen.sums.contains(&sum) {
                            seen.sums.push(sum);
                        }
                    }
                }
                x
            }
            _ => Sexp::List(items),
        }
    }

    /// The key that orders the operands of a commutative relaxed symbol: the term's text with
    /// definitions expanded, so that `(nl.mul32 w t1.row)` and `(nl.mul32 w (nl.sdiv32 …))`
    /// (where `t1.row` names the quotient) are one application after the solver expands the
    /// definition. Beyond [`KEY_LIMIT`] characters the unexpanded text (consistent, only weaker).
    fn order_key(&self, t: &Sexp, seen: &mut Collected) -> String {
        fn go(f: &Facts, t: &Sexp, memo: &mut HashMap<String, String>, out: &mut String) -> bool {
            if out.len() > KEY_LIMIT {
                return false;
            }
            match t {
                Sexp::Atom(a) => match f.defs.get(a) {
                    Some(v) => {
                        if let Some(k) = memo.get(a) {
                            out.push_str(k);
                            return true;
                        }
                        let mut k = String::new();
                        if !go(f, v, memo, &mut k) {
                            return false;
                        }
                        out.push_str(&k);
                        memo.insert(a.clone(), k);
                        true
                    }
                    None => {
                        out.push_str(a);
                        true
                    }
                },
                Sexp::List(items) => {
                    out.push('(');
                    for (i, it) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(' ');
                        }
                        if !go(f, it, memo, out) {
                            return false;
                        }
                    }
                    out.push(')');
                    true
                }
            }
        }
        let mut k = String::new();
        if go(self, t, &mut seen.keys, &mut k) && k.len() <= KEY_LIMIT {
            k
        } else {
            t.to_string()
        }
    }

    /// `a op b` for a division or remainder by a non-literal `b`, or unsigned by a literal
    /// [`radix_literal`]: `nl.{u,s}{div,rem}W(a, b)`, the pair recorded (with the relaxed
    /// product `b*q`) for [`division_lemmas`].
    fn relaxed_division(&self, op: &str, a: &Sexp, b: &Sexp, seen: &mut Collected) -> Sexp {
        let exact = || Sexp::app(op, vec![a.clone(), b.clone()]);
        let Some(w) = self.width(a) else { return exact() };
        let signed = op.starts_with("bvs");
        let divisor = self.literal(b);
        seen.symbolic_division |= divisor.is_none();
        let q = Sexp::app(&division_name(w, signed, false), vec![a.clone(), b.clone()]);
        let r = Sexp::app(&division_name(w, signed, true), vec![a.clone(), b.clone()]);
        if seen.divs.insert((w, signed)) || !seen.divisions.iter().any(|d| d.q == q) {
            let p = self.relaxed_product(b, &q, seen);
            if !signed && divisor.is_none() {
                // `b*q <= a`: an unsigned quotient's product never wraps.
                let (x, y) = if self.order_key(b, seen) <= self.order_key(&q, seen) {
                    (b, &q)
                } else {
                    (&q, b)
                };
                seen.add(Product {
                    x: x.clone(),
                    y: y.clone(),
                    p: p.clone(),
                    w,
                    ok: Some((Sexp::atom("true"), false)),
                });
            }
            let step = match split(self.resolve(a)) {
                Some((Op::Named("bvadd"), [x, y])) if !signed => match (x, y) {
                    (Sexp::Atom(_), y) if y == b => Some(x.clone()),
                    (x, Sexp::Atom(_)) if x == b => Some(y.clone()),
                    _ => None,
                },
                _ => None,
            };
            seen.divisions.push(Division {
                a: a.clone(),
                b: b.clone(),
                q: q.clone(),
                r: r.clone(),
                p,
                w,
                signed,
                step,
                divisor,
            });
        }
        if op.ends_with("rem") { r } else { q }
    }

    fn relaxed_product(&self, a: &Sexp, b: &Sexp, seen: &mut Collected) -> Sexp {
        let product = |a: &Sexp, b: &Sexp| Sexp::app("bvmul", vec![a.clone(), b.clone()]);
        if self.literal(a).is_some() || self.literal(b).is_some() {
            return product(a, b);
        }
        let Some(w) = self.width(a) else { return product(a, b) };
        for (x, y) in [(a, b), (b, a)] {
            if let Some((op, p, q, literal_first)) = self.literal_summand(x) {
                let rest = self.relaxed_product(&p, y, seen);
                let lit = product(&q, y);
                let args = if literal_first {
                    vec![lit, rest]
                } else {
                    vec![rest, lit]
                };
                return Sexp::app(op, args);
            }
        }
        seen.muls.insert(w);
        let (a, b) = if self.order_key(a, seen) <= self.order_key(b, seen) {
            (a, b)
        } else {
            (b, a)
        };
        let p = Sexp::app(&mul_name(w), vec![a.clone(), b.clone()]);
        let ok = self.product_fits(a, b, w).then(|| (Sexp::atom("true"), false));
        seen.add(Product {
            x: a.clone(),
            y: b.clone(),
            p: p.clone(),
            w,
            ok,
        });
        p
    }
}

/// The operator of a term application.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op<'a> {
    /// `(_ zero_extend k)` (false) or `(_ sign_extend k)` (true).
    Ext(u32, bool),
    /// `(_ extract hi lo)`.
    Extract(u32, u32),
    Named(&'a str),
}

fn split(t: &Sexp) -> Option<(Op<'_>, &[Sexp])> {
    let Sexp::List(v) = t else { return None };
    let (head, args) = v.split_first()?;
    let op = match head {
        Sexp::Atom(a) => Op::Named(a.as_str()),
        Sexp::List(h) => match h.as_slice() {
            [Sexp::Atom(u), Sexp::Atom(k), Sexp::Atom(n)] if u == "_" => {
                let n: u32 = n.parse().ok()?;
                match k.as_str() {
                    "zero_extend" => Op::Ext(n, false),
                    "sign_extend" => Op::Ext(n, true),
                    _ => return None,
                }
            }
            [Sexp::Atom(u), Sexp::Atom(k), Sexp::Atom(hi), Sexp::Atom(lo)] if u == "_" && k == "extract" => {
                Op::Extract(hi.parse().ok()?, lo.parse().ok()?)
            }
            _ => return None,
        },
    };
    Some((op, args))
}
