//! Recomposition of a mixed-radix decomposition (issue 56): the digits a kernel takes of a
//! linear index and adds back as an offset are the index again. llm.c's element-wise kernels
//! all read
//!
//! ```c
//! int bt = idx / C, b = bt / T, t = bt % T, c = idx % C;
//! out[b * T * C + t * C + c] = …;        // the byte offset is 4·(b·TC + t·C + c) = 4·idx
//! ```
//!
//! and a solver proves `idx1 ≠ idx2 ⇒ offset1 ≠ offset2` only by bit-blasting the divisions
//! (1.3 s a query with yices for `crossentropy_softmax_backward`, 0.09 s with the identity).
//! [`recompose`] rewrites such a sum, as [`super::Encoder::define`] makes it, into the equal
//! term the solver reads at once (`(bvmul ((_ sign_extend 32) idx) #x…04)`). Digits added back
//! in another order (llm.c's `permute`, 10 s) are not the index and stay as written.
//!
//! Every rewrite is an identity of SMT-LIB's bit-vector semantics (no assumption, no
//! over-approximation: the verdicts cannot change, only the time to reach them):
//! - modulo `2^w` (a term's own width), with `D`, `T`, `V` literals:
//!   `(x sdiv D)·(m·D) = m·(x − x srem D)` (truncated division, C's: `x = (x/D)·D + x%D`,
//!   which holds for every `x` and every `D`, also `D = 0` in SMT-LIB's total semantics);
//!   `(x sdiv V) sdiv T = x sdiv (T·V)` for `T, V > 0` with `T·V` below `2^(w−1)`;
//!   `((x sdiv V) srem T)·(m·V) = m·(x srem (T·V) − x srem V)` under the same condition;
//!   and the unsigned forms (`bvudiv`, `bvurem`, `T·V` below `2^w`);
//! - exactly, through a sign (zero) extension of a `w`-bit term to a wider one:
//!   `sext((x sdiv D)·D) = sext(x) − sext(x srem D)`, since `|(x/D)·D| ≤ |x|` so the product
//!   never wraps, and `sext(((x sdiv V) srem T)·V) = sext(x srem (T·V)) − sext(x srem V)`,
//!   since `|(x/V % T)·V| < T·V` fits; a `w`-bit term whose form modulo `2^w` is one atom
//!   (`(bt sdiv T)·T + bt srem T` is `bt`) extends as that atom.
//!
//! A sum is rewritten only when a rule fired and every remainder the rules made cancelled (the
//! digits added back whole); otherwise [`recompose`] leaves it (`None`). The module's tests check
//! every rule on every 8-bit value.
//!
//! Must not: assume anything of the values (ranges, no overflow), nor build a term that is not
//! equal to the one given for every value of its free symbols.

use super::fold::{lit, mk};
use crate::encode::terms::{app, atom};
use crate::solver::Sexp;

/// How many terms one recomposition may visit (names looked through and subterms): a bound on
/// the work done per definition, whatever the definitions chain.
const BUDGET: usize = 256;

/// How many levels of names a recomposition looks through.
const DEPTH: u32 = 4;

/// A `w`-bit term as `Σ coef·atom + constant`, modulo `2^w`.
#[derive(Clone, Debug)]
struct Form {
    atoms: Vec<(Sexp, u128)>,
    constant: u128,
}

impl Form {
    fn constant(c: u128, w: u32) -> Form {
        Form {
            atoms: Vec::new(),
            constant: c & mask(w),
        }
    }

    fn atom(t: Sexp) -> Form {
        Form {
            atoms: vec![(t, 1)],
            constant: 0,
        }
    }

    fn add(mut self, other: Form, w: u32) -> Form {
        for (t, k) in other.atoms {
            match self.atoms.iter_mut().find(|(u, _)| *u == t) {
                Some((_, c)) => *c = c.wrapping_add(k) & mask(w),
                None => self.atoms.push((t, k & mask(w))),
            }
        }
        self.atoms.retain(|(_, k)| *k != 0);
        self.constant = self.constant.wrapping_add(other.constant) & mask(w);
        self
    }

    fn scale(mut self, k: u128, w: u32) -> Form {
        for (_, c) in &mut self.atoms {
            *c = c.wrapping_mul(k) & mask(w);
        }
        self.atoms.retain(|(_, c)| *c != 0);
        self.constant = self.constant.wrapping_mul(k) & mask(w);
        self
    }

    /// The one atom of a form `1·a + 0`.
    fn single(&self) -> Option<&Sexp> {
        match (self.atoms.as_slice(), self.constant) {
            ([(a, 1)], 0) => Some(a),
            _ => None,
        }
    }

    fn term(&self, w: u32) -> Sexp {
        let mut parts: Vec<Sexp> = self
            .atoms
            .iter()
            .map(|(t, k)| {
                if *k == 1 {
                    t.clone()
                } else {
                    app("bvmul", vec![t.clone(), mk(*k, w)])
                }
            })
            .collect();
        if self.constant != 0 || parts.is_empty() {
            parts.push(mk(self.constant, w));
        }
        let mut parts = parts.into_iter();
        let first = parts.next().expect("a form has a term");
        parts.fold(first, |acc, p| app("bvadd", vec![acc, p]))
    }
}

fn mask(w: u32) -> u128 {
    if w >= 128 { u128::MAX } else { (1u128 << w) - 1 }
}

/// The division or remainder `(op x D)` with a literal `D`, its operator's kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sign {
    Signed,
    Unsigned,
}

impl Sign {
    fn div(self) -> &'static str {
        match self {
            Sign::Signed => "bvsdiv",
            Sign::Unsigned => "bvudiv",
        }
    }
    fn rem(self) -> &'static str {
        match self {
            Sign::Signed => "bvsrem",
            Sign::Unsigned => "bvurem",
        }
    }
    fn extend(self) -> &'static str {
        match self {
            Sign::Signed => "sign_extend",
            Sign::Unsigned => "zero_extend",
        }
    }
    /// The largest product `T·V` of two radices for which `(x/V)/T = x/(T·V)` and
    /// `x % (T·V) = ((x/V) % T)·V + x % V` hold for every `w`-bit `x`: a positive divisor.
    fn radix_limit(self, w: u32) -> u128 {
        match self {
            Sign::Signed => mask(w - 1),
            Sign::Unsigned => mask(w),
        }
    }
}

/// A read of the definitions: the value behind a name.
struct Reader<'d> {
    value: &'d dyn Fn(&str) -> Option<&'d Sexp>,
    budget: usize,
    fired: bool,
    /// The atoms the rules made (remainders): a rewrite stands only when they all cancel.
    created: Vec<Sexp>,
}

impl<'d> Reader<'d> {
    /// `t` as an atom the rules made.
    fn made(&mut self, t: Sexp) -> Form {
        self.created.push(t.clone());
        Form::atom(t)
    }

    /// A rule's dividend as one atom (a literal as a constant), not read further: the sum of
    /// digits it recomposes is then that atom (`idx`, not `blockIdx.x·blockDim.x + threadIdx.x`).
    fn leaf(&mut self, t: &Sexp, depth: u32, w: u32) -> Form {
        match lit(t) {
            Some((v, _)) => Form::constant(v, w),
            None => Form::atom(self.canon(t, depth)),
        }
    }

    /// `t`, or the value behind it when it is a name and `depth` allows.
    fn view<'a>(&self, t: &'a Sexp, depth: u32) -> (&'a Sexp, u32)
    where
        'd: 'a,
    {
        if depth > 0
            && let Sexp::Atom(a) = t
            && lit(t).is_none()
            && let Some(v) = (self.value)(a)
        {
            return (v, depth - 1);
        }
        (t, depth)
    }

    /// An atom's canonical term: a name for a division or remainder by a literal is that
    /// operation, so the digit `t` read through its name and the remainder a rule makes are
    /// one atom.
    fn canon(&mut self, t: &Sexp, depth: u32) -> Sexp {
        let (v, _) = self.view(t, depth);
        if divrem(v).is_some() { v.clone() } else { t.clone() }
    }

    /// `(x, D, sign)` for `x div D` with a literal `D` (a quotient of a quotient by positive
    /// literals read as one, when their product stays below the limit).
    fn quotient_as(&mut self, t: &Sexp, depth: u32, w: u32, merge: bool) -> Option<(Sexp, u128, Sign)> {
        let (v, depth) = self.view(t, depth);
        let (op, x, d) = divrem(v)?;
        let sign = [Sign::Signed, Sign::Unsigned].into_iter().find(|s| s.div() == op)?;
        if merge
            && d > 0
            && d <= sign.radix_limit(w)
            && let Some((y, e, inner)) = self.quotient_as(&x, depth, w, true)
            && inner == sign
            && e > 0
            && d.checked_mul(e).is_some_and(|p| p <= sign.radix_limit(w))
        {
            return Some((y, d * e, sign));
        }
        Some((x, d, sign))
    }

    /// `(x, V, T, sign)` for `(x div V) rem T` with literals `V`, `T > 0` whose product stays
    /// below the limit.
    fn digit(&mut self, t: &Sexp, depth: u32, w: u32) -> Option<(Sexp, u128, u128, Sign)> {
        let (v, depth) = self.view(t, depth);
        let (op, y, tt) = divrem(v)?;
        let sign = [Sign::Signed, Sign::Unsigned].into_iter().find(|s| s.rem() == op)?;
        let (x, vv, inner) = self.quotient_as(&y, depth, w, true)?;
        let ok = inner == sign && tt > 0 && vv > 0 && tt.checked_mul(vv).is_some_and(|p| p <= sign.radix_limit(w));
        ok.then_some((x, vv, tt, sign))
    }

    /// The form of the `w`-bit term `t`, modulo `2^w`.
    fn form(&mut self, t: &Sexp, depth: u32, w: u32) -> Form {
        if let Some((v, _)) = lit(t) {
            return Form::constant(v, w);
        }
        if self.budget == 0 {
            return Form::atom(t.clone());
        }
        self.budget -= 1;
        let (v, d) = self.view(t, depth);
        let Sexp::List(items) = &v else {
            return Form::atom(t.clone());
        };
        match (&items[0], items.len()) {
            (Sexp::Atom(op), n) if op == "bvadd" && n >= 2 => {
                let mut f = Form::constant(0, w);
                for x in &items[1..] {
                    let g = self.form(x, d, w);
                    f = f.add(g, w);
                }
                f
            }
            (Sexp::Atom(op), 3) if op == "bvsub" => {
                let a = self.form(&items[1], d, w);
                let b = self.form(&items[2], d, w).scale(mask(w), w);
                a.add(b, w)
            }
            (Sexp::Atom(op), 2) if op == "bvneg" => self.form(&items[1], d, w).scale(mask(w), w),
            (Sexp::Atom(op), 3) if op == "bvmul" => {
                let (x, k) = match (lit(&items[1]), lit(&items[2])) {
                    (_, Some((k, _))) => (&items[1], k),
                    (Some((k, _)), _) => (&items[2], k),
                    _ => return Form::atom(self.canon(t, depth)),
                };
                self.product(x, k, d, w)
            }
            (Sexp::List(h), 2)
                if let Some((sign, n)) = extension(h)
                    && n < w =>
            {
                self.extended(&items[1], sign, w - n, d, w)
            }
            _ => Form::atom(self.canon(t, depth)),
        }
    }

    /// The form of `x·k`, modulo `2^w`.
    fn product(&mut self, x: &Sexp, k: u128, depth: u32, w: u32) -> Form {
        // The quotient of a quotient as one division when `k` is a multiple of both divisors
        // (`b·T·C` of `b = x/C/T`), else as the outer one (`b·T` of the same).
        let merged = self
            .quotient_as(x, depth, w, true)
            .filter(|(_, d, _)| *d != 0 && k.is_multiple_of(*d));
        let quotient = merged.or_else(|| self.quotient_as(x, depth, w, false));
        if let Some((y, d, sign)) = quotient
            && d != 0
            && k.is_multiple_of(d)
        {
            // (y div D)·(m·D) = m·(y − y rem D)
            self.fired = true;
            let rem = self.made(app(sign.rem(), vec![y.clone(), mk(d, w)])).scale(mask(w), w);
            let f = self.leaf(&y, depth, w).add(rem, w);
            return f.scale(k / d, w);
        }
        if let Some((y, v, tt, sign)) = self.digit(x, depth, w)
            && k.is_multiple_of(v)
        {
            // ((y div V) rem T)·(m·V) = m·(y rem T·V − y rem V)
            self.fired = true;
            let big = self.made(app(sign.rem(), vec![y.clone(), mk(tt * v, w)]));
            let small = self.made(app(sign.rem(), vec![y, mk(v, w)])).scale(mask(w), w);
            return big.add(small, w).scale(k / v, w);
        }
        self.form(x, depth, w).scale(k, w)
    }

    /// The form, modulo `2^w`, of the `from`-bit term `x` extended to `w` bits.
    fn extended(&mut self, x: &Sexp, sign: Sign, from: u32, depth: u32, w: u32) -> Form {
        let ext = |t: Sexp| {
            Sexp::list(vec![
                app("_", vec![atom(sign.extend()), atom((w - from).to_string())]),
                t,
            ])
        };
        let (v, d) = self.view(x, depth);
        if let Sexp::List(items) = &v
            && items.len() == 3
            && matches!(&items[0], Sexp::Atom(op) if op == "bvmul")
            && let Some((q, k)) = match (lit(&items[1]), lit(&items[2])) {
                (_, Some((k, _))) => Some((&items[1], k)),
                (Some((k, _)), _) => Some((&items[2], k)),
                _ => None,
            }
        {
            let merged = self.quotient_as(q, d, from, true).filter(|(_, dd, _)| *dd == k);
            if let Some((y, dd, s)) = merged.or_else(|| self.quotient_as(q, d, from, false))
                && s == sign
                && dd == k
                && dd != 0
            {
                // ext((y div D)·D) = ext(y) − ext(y rem D): |(y/D)·D| <= |y| never wraps.
                self.fired = true;
                let f = self.extended(&y, sign, from, d, w);
                let rem = self.made(ext(app(sign.rem(), vec![y, mk(dd, from)]))).scale(mask(w), w);
                return f.add(rem, w);
            }
            if let Some((y, vv, tt, s)) = self.digit(q, d, from)
                && s == sign
                && vv == k
            {
                // ext(((y div V) rem T)·V) = ext(y rem T·V) − ext(y rem V): below T·V.
                self.fired = true;
                let big = self.made(ext(app(sign.rem(), vec![y.clone(), mk(tt * vv, from)])));
                let small = self.made(ext(app(sign.rem(), vec![y, mk(vv, from)]))).scale(mask(w), w);
                return big.add(small, w);
            }
        }
        let inner = self.form(x, depth, from);
        if inner.atoms.is_empty() {
            let value = super::fold::fold(&ext(mk(inner.constant, from)));
            return Form::constant(lit(&value).map_or(0, |(v, _)| v), w);
        }
        if let Some(a) = inner.single()
            && *a != *x
        {
            // The same bit-vector as `x`: extended alike.
            let a = a.clone();
            return self.extended(&a, sign, from, depth.saturating_sub(1), w);
        }
        Form::atom(ext(self.canon(x, depth)))
    }
}

/// Whether `t` reaches a division or remainder by a literal within `depth` levels of names and
/// `budget` terms: the rules need one, and this look allocates nothing.
fn divides<'d>(t: &Sexp, value: &'d dyn Fn(&str) -> Option<&'d Sexp>, depth: u32, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    match t {
        Sexp::Atom(a) => {
            depth > 0 && lit(t).is_none() && value(a).is_some_and(|v| divides(v, value, depth - 1, budget))
        }
        Sexp::List(v) => match v.first() {
            Some(Sexp::Atom(op)) if matches!(op.as_str(), "bvsdiv" | "bvsrem" | "bvudiv" | "bvurem") => {
                v.get(2).and_then(lit).is_some()
            }
            Some(Sexp::Atom(op)) if matches!(op.as_str(), "bvadd" | "bvsub" | "bvmul" | "bvneg") => {
                v[1..].iter().any(|x| divides(x, value, depth, budget))
            }
            Some(Sexp::List(h)) if extension(h).is_some() => v.get(1).is_some_and(|x| divides(x, value, depth, budget)),
            _ => false,
        },
    }
}

/// `(op, x, D)` for `(op x D)`, `op` a division or remainder, `D` a literal.
fn divrem(t: &Sexp) -> Option<(String, Sexp, u128)> {
    let Sexp::List(v) = t else { return None };
    let [Sexp::Atom(op), x, d] = v.as_slice() else {
        return None;
    };
    if !matches!(op.as_str(), "bvsdiv" | "bvsrem" | "bvudiv" | "bvurem") {
        return None;
    }
    Some((op.to_string(), x.clone(), lit(d)?.0))
}

/// The kind and amount of an extension head `(_ sign_extend n)`.
fn extension(h: &[Sexp]) -> Option<(Sign, u32)> {
    let [Sexp::Atom(u), Sexp::Atom(op), Sexp::Atom(n)] = h else {
        return None;
    };
    if u != "_" {
        return None;
    }
    let sign = match op.as_str() {
        "sign_extend" => Sign::Signed,
        "zero_extend" => Sign::Unsigned,
        _ => return None,
    };
    Some((sign, n.parse().ok()?))
}

/// `term`, a `w`-bit sum, product or extension, rewritten by the recomposition rules (module docs) when the
/// remainders they make all cancel; `None` otherwise. `value` gives the value behind a defined
/// name ([`super::state::Definitions::value`]).
pub(super) fn recompose<'d>(term: &Sexp, w: u32, value: &'d dyn Fn(&str) -> Option<&'d Sexp>) -> Option<Sexp> {
    let arithmetic = match term {
        Sexp::List(v) => match v.first() {
            Some(Sexp::Atom(op)) => matches!(op.as_str(), "bvadd" | "bvsub" | "bvmul"),
            Some(Sexp::List(h)) => extension(h).is_some(),
            _ => false,
        },
        Sexp::Atom(_) => false,
    };
    let mut look = BUDGET;
    if !(8..=64).contains(&w) || !arithmetic || !divides(term, value, DEPTH, &mut look) {
        return None;
    }
    let mut reader = Reader {
        value,
        budget: BUDGET,
        fired: false,
        created: Vec::new(),
    };
    let f = reader.form(term, DEPTH, w);
    let cancelled = f.atoms.iter().all(|(a, _)| !reader.created.contains(a));
    (reader.fired && reader.budget > 0 && cancelled).then(|| f.term(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The encoder's test reader of S-expressions.
    fn p(s: &str) -> Sexp {
        crate::encode::tests::parse_sexp(s)
    }

    /// `t` with the names of `defs` replaced by their values and `x` by `value`, folded.
    fn eval(t: &Sexp, defs: &HashMap<String, Sexp>, x: &Sexp) -> Sexp {
        fn subst(t: &Sexp, defs: &HashMap<String, Sexp>, x: &Sexp) -> Sexp {
            match t {
                Sexp::Atom(a) if a == "x" => x.clone(),
                Sexp::Atom(a) => match defs.get(a.as_str()) {
                    Some(v) => subst(v, defs, x),
                    None => t.clone(),
                },
                Sexp::List(v) => Sexp::List(v.iter().map(|u| subst(u, defs, x)).collect()),
            }
        }
        super::super::fold::fold(&subst(t, defs, x))
    }

    /// Rewrites `term` under `defs`, and checks the result equal to it for every 8-bit `x`.
    fn check(defs: &[(&str, &str)], term: &str, w: u32) -> Option<Sexp> {
        let defs: HashMap<String, Sexp> = defs.iter().map(|(n, v)| (n.to_string(), p(v))).collect();
        let term = p(term);
        let look = |n: &str| defs.get(n);
        let out = recompose(&term, w, &look)?;
        for v in 0..256u128 {
            let x = mk(v, 8);
            assert_eq!(
                eval(&term, &defs, &x),
                eval(&out, &defs, &x),
                "x = {v}: {term} vs {out}"
            );
        }
        Some(out)
    }

    #[test]
    fn llm_c_digits_recompose_to_the_index() {
        // bt = x/3, b = bt/5, t = bt%5, c = x%3; 2·(sext(b·15) + sext(t·3) + sext(c)) = 2·sext(x)
        let defs = [
            ("bt", "(bvsdiv x #x03)"),
            ("b", "(bvsdiv bt #x05)"),
            ("t", "(bvsrem bt #x05)"),
            ("c", "(bvsrem x #x03)"),
        ];
        let sum = "(bvadd (bvadd (bvmul ((_ sign_extend 8) (bvmul b #x0f)) #x0002) (bvmul ((_ sign_extend 8) (bvmul t #x03)) #x0002)) (bvmul ((_ sign_extend 8) c) #x0002))";
        assert_eq!(check(&defs, sum, 16), Some(p("(bvmul ((_ sign_extend 8) x) #x0002)")));
        // The unsigned spelling, and the row-major `b·T + t` inside one extension.
        let udefs = [
            ("bt", "(bvudiv x #x03)"),
            ("b", "(bvudiv bt #x05)"),
            ("t", "(bvurem bt #x05)"),
        ];
        let row = "(bvadd (bvmul ((_ zero_extend 8) (bvadd (bvmul b #x05) t)) #x0004) #x0010)";
        assert_eq!(
            check(&udefs, row, 16),
            Some(p("(bvadd (bvmul ((_ zero_extend 8) (bvudiv x #x03)) #x0004) #x0010)"))
        );
        let srow = "(bvadd (bvmul ((_ sign_extend 8) (bvadd (bvmul (bvsdiv (bvsdiv x #x03) #x05) #x05) (bvsrem (bvsdiv x #x03) #x05))) #x0004) #x0010)";
        assert!(check(&defs, srow, 16).is_some());
    }

    #[test]
    fn a_rule_holds_for_every_value_and_divisor() {
        // Each rule alone, every 8-bit x, divisors including negative and wide ones.
        for d in [1u128, 2, 3, 7, 16, 100, 127, 128, 200, 255] {
            let h = format!("#x{d:02x}");
            for sign in ["s", "u"] {
                let ext = if sign == "s" { "sign_extend" } else { "zero_extend" };
                let mod8 = format!("(bvadd (bvmul (bv{sign}div x {h}) {h}) (bv{sign}rem x {h}))");
                assert_eq!(check(&[], &mod8, 8), Some(p("x")), "{mod8}");
                let wide =
                    format!("(bvadd ((_ {ext} 8) (bvmul (bv{sign}div x {h}) {h})) ((_ {ext} 8) (bv{sign}rem x {h})))");
                assert_eq!(check(&[], &wide, 16), Some(p(&format!("((_ {ext} 8) x)"))), "{wide}");
                for t in [2u128, 3, 5, 40] {
                    let th = format!("#x{t:02x}");
                    let digit = format!(
                        "(bvadd ((_ {ext} 8) (bvmul (bv{sign}rem (bv{sign}div x {h}) {th}) {h})) ((_ {ext} 8) (bv{sign}rem x {h})))"
                    );
                    // Rewritten only where T·V stays below the limit; equal wherever it is.
                    let _ = check(&[], &digit, 16);
                    if (t * d) & 0xff == 0 {
                        continue; // `fold` leaves a division by zero unevaluated
                    }
                    let nested = format!(
                        "(bvadd (bvmul (bv{sign}div (bv{sign}div x {h}) {th}) #x{:02x}) (bv{sign}rem x #x{:02x}))",
                        (t * d) & 0xff,
                        (t * d) & 0xff
                    );
                    let limit = if sign == "s" { 127 } else { 255 };
                    let out = check(&[], &nested, 8);
                    if t * d <= limit {
                        assert_eq!(out, Some(p("x")), "{nested}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_sum_the_rules_do_not_shorten_is_left() {
        // x/3·4 + x%3 is not x: no rule applies to a multiplier that is not the divisor's.
        assert_eq!(
            check(&[], "(bvadd (bvmul (bvsdiv x #x03) #x04) (bvsrem x #x03))", 8),
            None
        );
        // A permutation of the digits keeps as many atoms: left as written.
        let perm = "(bvadd (bvmul (bvsrem x #x03) #x05) (bvsrem (bvsdiv x #x03) #x05))";
        assert_eq!(check(&[], perm, 8), None);
    }
}
