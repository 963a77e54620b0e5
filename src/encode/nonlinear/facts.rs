//! [`Facts`]: what the top level of a script says about its terms (definitions, widths,
//! bounds, strict orders), and the lemmas about offsets and products derived from them.

use super::*;

/// What the top level of a script says about its terms: definitions, bit widths, unsigned
/// bounds of declared constants (`(assert (bvule x C))`, `(bvult x y)`, …) and the strict
/// orders `x < y` between declared constants (`threadIdx.x < blockDim.x`).
pub(crate) struct Facts {
    /// Reading stopped because gpug's memory passed `--max-memory` ([`crate::memory`]): the
    /// facts are incomplete and must not be used.
    pub(crate) stopped: bool,
    pub(super) defs: HashMap<String, Sexp>,
    pub(super) widths: HashMap<String, u32>,
    pub(super) upper: HashMap<String, BigUint>,
    pub(super) lower: HashMap<String, BigUint>,
    pub(super) strict: HashSet<(String, String)>,
    /// A declared constant whose every value is a multiple of a literal (a linear race
    /// query's chosen literal among `4, 8, 12`): that literal ([`Facts::bound`]).
    pub(super) steps: HashMap<String, BigUint>,
}

/// Most nested decompositions followed by [`Facts::pair_lemmas`].
const LEMMA_DEPTH: u32 = 4;

/// Most summands of an offset read by [`Facts::scaled_terms`].
const SCALED_TERMS: usize = 16;

/// A summand of a byte offset and a literal it is a multiple of ([`Facts::scaled_terms`]).
enum Scaled {
    /// `y*c`.
    Times(Sexp, BigUint),
    /// A chosen literal (a declared constant) whose every value is a multiple of the literal.
    Chosen(Sexp, BigUint),
}

impl Scaled {
    fn scale(&self) -> &BigUint {
        match self {
            Scaled::Times(_, c) | Scaled::Chosen(_, c) => c,
        }
    }
}

/// The greatest common divisor (`gcd(0, c) = c`).
pub(crate) fn gcd(mut a: BigUint, mut b: BigUint) -> BigUint {
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

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
            steps: HashMap::new(),
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

    /// Records that the declared constant `name` (`width` bits) lies in `[lo, hi]` in every
    /// model of the queries that use these facts: a constant a query defines (a linear race
    /// query's chosen literal, `engine::linear`), whose bounds the script cannot state.
    /// Its values are also multiples of `step` (the greatest common divisor of the literals
    /// it is chosen among; 0 when all are 0), which [`Facts::offset_lemmas`] divides by.
    pub(crate) fn bound(&mut self, name: &str, width: u32, (lo, hi): (BigUint, BigUint), step: BigUint) {
        self.widths.insert(name.to_string(), width);
        self.lower.insert(name.to_string(), lo);
        self.upper.insert(name.to_string(), hi);
        if step > BigUint::one() {
            self.steps.insert(name.to_string(), step);
        }
    }

    /// The division chains by literals among `terms` (each walked once, definitions by
    /// name): a division of a quotient by a literal, `(a / c1) / c2` or `(a / c1) % c2`
    /// (through a name or not), beside a division of the same `a` by the literal `c1*c2`, of
    /// one signedness and width, every divisor above 1 and `c1*c2` below `2^(w-1)` (signed) or
    /// `2^w`. These are the divisions [`Facts::relax_term`] relaxes for [`chain_lemmas`].
    pub(super) fn division_chains<'t>(&self, terms: impl IntoIterator<Item = &'t Sexp>) -> Vec<Chain> {
        // Every division by a literal, and each nested one: (outer, inner's dividend).
        let mut all: HashSet<DivisionKey> = HashSet::new();
        let mut nested: Vec<(DivisionKey, Sexp, BigUint)> = Vec::new();
        let mut stack: Vec<&Sexp> = terms.into_iter().collect();
        while let Some(t) = stack.pop() {
            let Sexp::List(items) = t else { continue };
            stack.extend(items.iter());
            let [Sexp::Atom(op), a, b] = items.as_slice() else {
                continue;
            };
            let signed = match op.as_str() {
                "bvsdiv" | "bvsrem" => true,
                "bvudiv" | "bvurem" => false,
                _ => continue,
            };
            let Some(c) = self.literal(b).filter(|c| *c > BigUint::one()) else {
                continue;
            };
            let key = (signed, a.to_string(), c.clone());
            if let Some((Op::Named(inner), [x, y])) = split(self.resolve(a))
                && inner == (if signed { "bvsdiv" } else { "bvudiv" })
                && let Some(c1) = self.literal(y).filter(|c| *c > BigUint::one())
                && self.width(x).is_some_and(|w| {
                    let whole = &c1 * &c;
                    whole < (BigUint::one() << (if signed { w - 1 } else { w }))
                })
            {
                nested.push((key.clone(), x.clone(), c1));
            }
            all.insert(key);
        }
        let mut out = Vec::new();
        for ((signed, outer, c2), x, c1) in nested {
            let whole = (signed, x.to_string(), &c1 * &c2);
            let inner = (signed, x.to_string(), c1);
            if all.contains(&whole) && all.contains(&inner) {
                let chain = Chain {
                    inner,
                    outer: (signed, outer, c2),
                    whole,
                };
                if !out.contains(&chain) {
                    out.push(chain);
                }
            }
        }
        out
    }

    /// `t` with every atom that names a definition replaced by its value, at the top only.
    pub(super) fn resolve<'a>(&'a self, mut t: &'a Sexp) -> &'a Sexp {
        while let Sexp::Atom(a) = t {
            match self.defs.get(a) {
                Some(v) => t = v,
                None => break,
            }
        }
        t
    }

    /// The value of `t` when it is a literal or names one.
    pub(super) fn literal(&self, t: &Sexp) -> Option<BigUint> {
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
            // Any other operator of literals (`(_ extract 31 0) (bvudiv #x10 #x02)`, a
            // `constexpr` quotient such as `16 / sizeof(T)`): its value by constant folding.
            _ => {
                let Sexp::List(items) = t else { return None };
                let mut lits = vec![items[0].clone()];
                for a in args {
                    let (v, w) = (self.literal(a)?, self.width(a)?);
                    lits.push(Sexp::bv(&v, w));
                }
                let folded = crate::encode::engine::fold::fold(&Sexp::List(lits));
                crate::encode::engine::fold::lit(&folded).map(|(v, _)| BigUint::from(v))
            }
        }
    }

    /// The bit width of a bit-vector term; `None` for other sorts and unknown symbols.
    pub(super) fn width(&self, t: &Sexp) -> Option<u32> {
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

    pub(super) fn full(&self, t: &Sexp) -> BigUint {
        match self.width(t) {
            Some(w) => (BigUint::one() << w) - 1u8,
            None => BigUint::from(u128::MAX) << 64,
        }
    }

    /// An upper bound of `t`'s unsigned value in every model of the script.
    pub(super) fn max(&self, t: &Sexp) -> BigUint {
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
    pub(super) fn min(&self, t: &Sexp) -> BigUint {
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
    pub(super) fn core<'a>(&'a self, mut t: &'a Sexp) -> &'a Sexp {
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
    pub(super) fn less(&self, a: &Sexp, m: &Sexp) -> bool {
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
    pub(super) fn radix(&self, x: &Sexp) -> Option<(Sexp, Sexp, Sexp)> {
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

    /// The ways to read `x` as `u + m*v` ([`Facts::radix`]), each with the conditions under
    /// which it holds where the script's bounds cannot show that `u < m` or that `x` does not
    /// wrap (`u`, `m`, `v`, conditions): `u < m` (unsigned) and `v <= K`,
    /// `K = floor(2^w / max(m)) - 1`, for then `u + m*v < m*(v + 1) <= 2^w`. The conditions are
    /// what the thread's own path condition usually implies (a loop guard `i < n`, an index
    /// `4*i + k` below a row's length), which the bounds of the script's top level do not
    /// show; a lemma premised on them is valid in every model, and spares the solver the
    /// search for the products' carries. Fewest conditions first, a literal radix before a
    /// symbolic one.
    pub(super) fn guarded_radixes(&self, x: &Sexp) -> Vec<(Sexp, Sexp, Sexp, Vec<Sexp>)> {
        if let Some((u, m, v)) = self.radix(x) {
            return vec![(u, m, v, Vec::new())];
        }
        let mut out = Vec::new();
        let Some(w) = self.width(x) else { return out };
        let limit = BigUint::one() << w;
        let t = self.resolve(x);
        let candidates: Vec<(Sexp, &Sexp)> = match split(t) {
            Some((Op::Named("bvadd"), [p, q])) => vec![(p.clone(), q), (q.clone(), p)],
            Some((Op::Named("bvmul"), [_, _])) => vec![(Sexp::bv(&BigUint::zero(), w), t)],
            _ => return out,
        };
        for (u, prod) in candidates {
            let Some((Op::Named("bvmul"), [r, s])) = split(self.resolve(prod)) else {
                continue;
            };
            for (m, v) in [(r, s), (s, r)] {
                let max_m = self.max(m);
                if (self.literal(m).is_some() && self.literal(v).is_some()) || max_m.is_zero() {
                    continue;
                }
                let k = &limit / &max_m;
                if k.is_zero() {
                    continue;
                }
                let k = k - 1u8;
                let mut conditions = Vec::new();
                if !self.less(&u, m) {
                    conditions.push(Sexp::app("bvult", vec![u.clone(), m.clone()]));
                }
                if self.max(v) > k {
                    conditions.push(Sexp::app("bvule", vec![v.clone(), Sexp::bv(&k, w)]));
                }
                out.push((u.clone(), m.clone(), v.clone(), conditions));
            }
        }
        out.sort_by_key(|(_, m, _, c)| (c.len(), self.literal(m).is_none()));
        out
    }

    /// Valid lemmas for two threads' values `x1`, `x2` (same width): for each shared
    /// mixed-radix decomposition, `x1 = x2 => u1 = u2 and v1 = v2`, and the same for the
    /// parts, down to [`LEMMA_DEPTH`] levels. A decomposition the script's bounds do not
    /// show ([`Facts::guarded_radixes`]) adds its conditions to the premise.
    pub(crate) fn pair_lemmas(&self, x1: &Sexp, x2: &Sexp, out: &mut Vec<Sexp>) {
        self.pair_rec(x1, x2, out, LEMMA_DEPTH);
    }

    pub(super) fn pair_rec(&self, x1: &Sexp, x2: &Sexp, out: &mut Vec<Sexp>, depth: u32) {
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
        // The first reading of `x1` that `x2` shares the radix of (the same term: `blockDim.x`,
        // not each thread's own value). Also for a literal radix: even a power of two (a
        // shift) leaves the solver to find that carries cannot make two sums equal, which the
        // lemma states outright.
        let (ones, twos) = (self.guarded_radixes(x1), self.guarded_radixes(x2));
        let Some(((u1, _, v1, c1), (u2, _, v2, c2))) = ones.into_iter().find_map(|one| {
            let m1 = self.core(&one.1).clone();
            let two = twos.iter().find(|two| *self.core(&two.1) == m1)?.clone();
            Some((one, two))
        }) else {
            return;
        };
        let equal = Sexp::app("=", vec![x1.clone(), x2.clone()]);
        let premise = if c1.is_empty() && c2.is_empty() {
            equal
        } else {
            Sexp::app("and", std::iter::once(equal).chain(c1).chain(c2).collect())
        };
        out.push(Sexp::app(
            "=>",
            vec![
                premise,
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
    /// `(x1, x2)`. `c` is the greatest common divisor of both offsets' scales
    /// ([`Facts::scaled_terms`]): a row's byte offset `b*(4*P)` plus an element's `sext(4*i)*4`
    /// plus a vector's member `12` is `4*(b*P + sext(4*i) + 3)`. Nothing for other offsets.
    pub(crate) fn offset_lemmas(&self, o1: &Sexp, w1: u32, o2: &Sexp, w2: u32, out: &mut Vec<Sexp>) {
        let (Some(t1), Some(t2)) = (self.scaled_terms(o1), self.scaled_terms(o2)) else {
            return;
        };
        // The greatest common scale of both offsets' terms.
        let c1 = t1
            .iter()
            .chain(&t2)
            .fold(BigUint::zero(), |g, t| gcd(g, t.scale().clone()));
        if c1 < BigUint::from(w1.max(w2)) {
            return;
        }
        // Offsets of one or two terms (`c*x`, `c*a + d*b`) get the lemma as it is; offsets of
        // more terms only with a mixed-radix or row-major lemma after it. Alone, such a lemma
        // gives the solver one more disjunction over the same products and no structure: llm.c's
        // `crossentropy_softmax_backward_kernel1` (`4*(b*T*V) + 4*(t*V) + 4*v`, the division
        // chain's coordinates) went from 1.4 s to over 25 s under yices with it.
        let as_before = t1.len() <= 2 && t2.len() <= 2;
        let (x1, x2) = (Facts::unscaled(t1, &c1), Facts::unscaled(t2, &c1));
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
        radix.extend(self.row_major_lemma(&x1, &x2));
        if radix.is_empty() && !as_before {
            return;
        }
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

    /// `t` as `x * c` or `c * x` with `c` a literal and `x` not: (`x`, `c`).
    fn by_literal(&self, t: &Sexp) -> Option<(Sexp, BigUint)> {
        match split(self.resolve(t))? {
            (Op::Named("bvmul"), [a, b]) => match (self.literal(a), self.literal(b)) {
                (None, Some(c)) => Some((a.clone(), c)),
                (Some(c), None) => Some((b.clone(), c)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A 64-bit byte offset as a sum of terms, each a multiple of a literal scale: `y*c`, or a
    /// chosen literal whose values are all multiples of one ([`Facts::bound`]). At most
    /// [`SCALED_TERMS`] terms; `None` for a term of no known scale, a literal summand, or an
    /// offset not 64 bits wide.
    fn scaled_terms(&self, o: &Sexp) -> Option<Vec<Scaled>> {
        if self.width(o) != Some(64) {
            return None;
        }
        let mut stack = vec![o];
        let mut out = Vec::new();
        while let Some(t) = stack.pop() {
            if out.len() + stack.len() >= SCALED_TERMS {
                return None;
            }
            if let Some((y, c)) = self.by_literal(t) {
                out.push(Scaled::Times(y, c));
            } else if self.literal(t).is_some() {
                // A field's literal offset (`28*i + 23`, a struct's bytes): no lemma, as
                // before scales were combined; the queries of struct copies (cvc5 on
                // `cxx/struct_array_copy_race.cu`) grew past their limit with one per pair.
                return None;
            } else if let Sexp::Atom(a) = self.resolve(t)
                && let Some(step) = self.steps.get(a)
            {
                out.push(Scaled::Chosen(t.clone(), step.clone()));
            } else {
                match split(self.resolve(t))? {
                    (Op::Named("bvadd"), args) => stack.extend(args.iter().rev()),
                    _ => return None,
                }
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The sum of [`Facts::scaled_terms`]' terms divided by `c` (which divides every scale),
    /// the term of the greatest scale first (`x = b*P + (sext(4*i) + 3)`, so that its
    /// mixed-radix reading is the row and the rest): `y*(s/c)`, a chosen literal divided by `c`
    /// (exact: its values are multiples of `c`).
    fn unscaled(mut terms: Vec<Scaled>, c: &BigUint) -> Sexp {
        terms.sort_by(|a, b| b.scale().cmp(a.scale()));
        let mut parts: Vec<Sexp> = Vec::new();
        for t in terms {
            match t {
                Scaled::Times(y, s) => {
                    let q = s / c;
                    parts.push(if q.is_one() {
                        y
                    } else {
                        Sexp::app("bvmul", vec![y, Sexp::bv(&q, 64)])
                    });
                }
                Scaled::Chosen(y, _) => parts.push(Sexp::app("bvudiv", vec![y, Sexp::bv(c, 64)])),
            }
        }
        let mut rest = parts.pop().unwrap_or_else(|| Sexp::bv(&BigUint::zero(), 64));
        while let Some(p) = parts.pop() {
            rest = Sexp::app("bvadd", vec![p, rest]);
        }
        rest
    }

    /// For 64-bit element offsets `x1 = sext(i1*C) + sext(j1)` and `x2 = sext(i2*C) + sext(j2)`
    /// (either extension may be a zero extension) of 32-bit `i`, `j` and one literal row length `0 < C < 2^31` (a row-major index: `out +
    /// i*C` indexed by `j`): `0 <= i1, i2 < K`, `0 <= j1, j2 < C` and `x1 = x2` imply `i1 = i2`
    /// and `j1 = j2`, where `K = (2^31 - C) / C + 1` keeps `i*C + j` below 2^31 (so neither the
    /// product nor the sums wrap, and the equality is one of integers, whose remainder by `C`
    /// is unique). A valid fact: it spares the solver refuting `i1*C + j1 = i2*C + j2` by bit
    /// blasting the products (llm.c's softmax rows: yices could not in 60 s). `None` for other
    /// offsets.
    fn row_major_lemma(&self, x1: &Sexp, x2: &Sexp) -> Option<Sexp> {
        // A 32-bit value extended to 64 bits, by sign or by zeros: the lemma's premises keep
        // `i` and `j` non-negative, where both extensions give the same value (a column
        // `min(C - 1, i + u*blockDim.x)` is unsigned, so zero-extended: llm.c's softmax).
        let sext32 = |t: &Sexp| -> Option<Sexp> {
            match split(self.resolve(t))? {
                (Op::Ext(32, _), [inner]) if self.width(inner) == Some(32) => Some(inner.clone()),
                _ => None,
            }
        };
        let times = |t: &Sexp| self.by_literal(t);
        let row = |x: &Sexp| -> Option<(Sexp, Sexp, BigUint)> {
            let (p, q) = match split(self.resolve(x))? {
                (Op::Named("bvadd"), [p, q]) => (sext32(p)?, sext32(q)?),
                // `sext(i*C + j)`: the sum taken in 32 bits (`out[i * C + j]`), which the
                // bounds below keep from wrapping as well.
                (Op::Ext(32, _), [inner]) if self.width(inner) == Some(32) => match split(self.resolve(inner))? {
                    (Op::Named("bvadd"), [p, q]) => (p.clone(), q.clone()),
                    _ => return None,
                },
                _ => return None,
            };
            match (times(&p), times(&q)) {
                (Some((i, c)), _) => Some((i, q, c)),
                (None, Some((i, c))) => Some((i, p, c)),
                _ => None,
            }
        };
        let ((i1, j1, c1), (i2, j2, c2)) = (row(x1)?, row(x2)?);
        let top = BigUint::one() << 31;
        if c1 != c2 || c1 == BigUint::from(0u32) || c1 >= top {
            return None;
        }
        let k = (&top - &c1) / &c1 + BigUint::one();
        let c = Sexp::bv(&c1, 32);
        let zero = Sexp::bv(&BigUint::from(0u32), 32);
        let within = |t: &Sexp, bound: Sexp| {
            Sexp::app(
                "and",
                vec![
                    Sexp::app("bvsle", vec![zero.clone(), t.clone()]),
                    Sexp::app("bvslt", vec![t.clone(), bound]),
                ],
            )
        };
        let kb = Sexp::bv(&k, 32);
        Some(Sexp::app(
            "=>",
            vec![
                Sexp::app(
                    "and",
                    vec![
                        within(&i1, kb.clone()),
                        within(&i2, kb),
                        within(&j1, c.clone()),
                        within(&j2, c),
                        Sexp::app("=", vec![x1.clone(), x2.clone()]),
                    ],
                ),
                Sexp::app("and", vec![Sexp::app("=", vec![i1, i2]), Sexp::app("=", vec![j1, j2])]),
            ],
        ))
    }

    /// `x` as `p + c`, `c + p` or `p - c` with `c` a literal: (operator, `p`, `c`, whether `c`
    /// comes first), looking through a low `extract`, which commutes with `+` and `-`
    /// modulo its width (`extract(it + 1) = extract(it) + 1`).
    pub(super) fn literal_summand(&self, x: &Sexp) -> Option<(&'static str, Sexp, Sexp, bool)> {
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
    pub(super) fn relax_term(&self, t: &Sexp, seen: &mut Collected) -> Sexp {
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
        let exact = items;
        let items: Vec<Sexp> = items.iter().map(|i| self.relax_term(i, seen)).collect();
        // A division by a literal as the chains name it.
        let key = |op: &str, b: &Sexp| -> Option<DivisionKey> {
            let c = self.literal(b)?;
            Some((op.starts_with("bvs"), exact.get(1)?.to_string(), c))
        };
        match items.as_slice() {
            [Sexp::Atom(op), a, b] if op == "bvmul" => self.relaxed_product(a, b, seen),
            [Sexp::Atom(op), a, b]
                if matches!(op.as_str(), "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem") && self.literal(b).is_none() =>
            {
                self.relaxed_division(op, a, b, None, seen)
            }
            [Sexp::Atom(op), a, b]
                if matches!(op.as_str(), "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem")
                    && key(op, b)
                        .is_some_and(|k| seen.chains.iter().any(|c| c.outer == k || c.whole == k || c.inner == k)) =>
            {
                seen.chained = true;
                self.relaxed_division(op, a, b, key(op, b), seen)
            }
            [Sexp::Atom(op), a, b]
                if matches!(op.as_str(), "bvudiv" | "bvurem") && self.literal(b).is_some_and(|c| radix_literal(&c)) =>
            {
                self.relaxed_division(op, a, b, key(op, b), seen)
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
    pub(super) fn order_key(&self, t: &Sexp, seen: &mut Collected) -> String {
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
    pub(super) fn relaxed_division(
        &self,
        op: &str,
        a: &Sexp,
        b: &Sexp,
        key: Option<DivisionKey>,
        seen: &mut Collected,
    ) -> Sexp {
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
                key,
            });
        }
        if op.ends_with("rem") { r } else { q }
    }

    pub(super) fn relaxed_product(&self, a: &Sexp, b: &Sexp, seen: &mut Collected) -> Sexp {
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
