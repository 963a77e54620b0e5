//! [`Facts`]: what the top level of a script says about its terms (definitions, widths,
//! bounds, strict orders). The lemmas derived from them are in `lemmas.rs` (offsets and
//! mixed-radix sums) and `relax.rs` (the relaxation of products and divisions).

use super::*;

/// What the top level of a script says about its terms: definitions, bit widths, unsigned
/// bounds of declared constants (`(assert (bvule x C))`, `(bvult x y)`, …) and the strict
/// orders `x < y` between declared constants (`threadIdx.x < blockDim.x`).
///
/// The definitions are borrowed from the commands read: a large kernel's definitions are most
/// of gpug's memory, and a copy would hold them twice.
pub(crate) struct Facts<'c> {
    /// Reading stopped because gpug's memory passed `--max-memory` ([`crate::memory`]): the
    /// facts are incomplete and must not be used.
    pub(crate) stopped: bool,
    pub(super) defs: HashMap<String, &'c Sexp>,
    pub(super) widths: HashMap<String, u32>,
    pub(super) upper: HashMap<String, BigUint>,
    pub(super) lower: HashMap<String, BigUint>,
    pub(super) strict: HashSet<(String, String)>,
    /// A declared constant whose every value is a multiple of a literal (a linear race
    /// query's chosen literal among `4, 8, 12`): that literal ([`Facts::bound`]).
    pub(super) steps: HashMap<String, BigUint>,
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

impl<'c> Facts<'c> {
    /// Reads the commands (in order) of a script, borrowing its definitions; stops
    /// ([`Facts::stopped`]) when gpug's memory passes `--max-memory`.
    pub(crate) fn new(commands: impl IntoIterator<Item = &'c Command>) -> Facts<'c> {
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
                    f.defs.insert(name.clone(), value);
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
                    (Sexp::Atom(x), _) if !f.defs.contains_key(x.as_str()) && f.widths.contains_key(x.as_str()) => {
                        let lit = f.literal(b);
                        if strict_pass == lit.is_none() {
                            let m = f.max(b);
                            if strict && m.is_zero() {
                                continue;
                            }
                            let bound = if strict { m - 1u8 } else { m };
                            let e = f.upper.entry(x.to_string()).or_insert_with(|| bound.clone());
                            if bound < *e {
                                *e = bound;
                            }
                            if strict && let Sexp::Atom(y) = b {
                                f.strict.insert((x.to_string(), y.to_string()));
                            }
                        }
                    }
                    (_, Sexp::Atom(x))
                        if !strict_pass && !f.defs.contains_key(x.as_str()) && f.widths.contains_key(x.as_str()) =>
                    {
                        if let Some(l) = f.literal(a) {
                            let bound = if strict { l + 1u8 } else { l };
                            let e = f.lower.entry(x.to_string()).or_insert_with(|| bound.clone());
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
            match self.defs.get(a.as_str()) {
                Some(v) => t = v,
                None => break,
            }
        }
        t
    }

    /// How many low bits of `t` are zero whatever its symbols' values, from its shape:
    /// a literal's trailing zeros, their sum over a product, the minimum over a sum or
    /// difference, a left shift by a literal, through extensions and extracts; 0 when
    /// unknown. Looks at most `depth` operators deep.
    pub(super) fn low_zeros(&self, t: &Sexp, depth: u32) -> u32 {
        let Some(w) = self.width(t) else { return 0 };
        if let Some(v) = self.literal(t) {
            return v.trailing_zeros().map_or(w, |z| (z as u32).min(w));
        }
        if depth == 0 {
            return 0;
        }
        let t = self.resolve(t);
        let z = |x: &Sexp| self.low_zeros(x, depth - 1);
        let found = match split(t) {
            Some((Op::Named("bvmul"), args)) => args.iter().map(z).sum(),
            Some((Op::Named("bvadd" | "bvsub"), args)) => args.iter().map(z).min().unwrap_or(0),
            Some((Op::Named("bvneg"), [x])) => z(x),
            Some((Op::Named("bvshl"), [x, k])) => match self.literal(k).and_then(|k| k.to_u32()) {
                Some(k) => z(x).saturating_add(k),
                None => z(x),
            },
            Some((Op::Ext(_, _), [x])) => {
                // An extension of zero is zero; otherwise its low bits are the operand's.
                let (zx, wx) = (z(x), self.width(x).unwrap_or(0));
                if zx >= wx { w } else { zx }
            }
            Some((Op::Extract(_, lo), [x])) => z(x).saturating_sub(lo),
            _ => 0,
        };
        found.min(w)
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
                    self.widths.get(a.as_str()).copied()
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
            return self.upper.get(a.as_str()).cloned().unwrap_or(full);
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
            return self.lower.get(a.as_str()).cloned().unwrap_or_default();
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
            && self.strict.contains(&(x.to_string(), y.to_string()))
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
}
