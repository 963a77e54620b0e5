//! The relaxation of a query's nonlinear terms ([`Facts::relax_term`]): products of two
//! non-literal operands and divisions as uninterpreted functions with their lemmas.

use super::*;

impl Facts<'_> {
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
            let low_zeros = self.product_low_zeros(&a, &b);
            seen.add(Product {
                x: a,
                y: b,
                p,
                w,
                ok: Some((ok.clone(), signed)),
                low_zeros,
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
        fn go(f: &Facts<'_>, t: &Sexp, memo: &mut HashMap<String, String>, out: &mut String) -> bool {
            if out.len() > KEY_LIMIT {
                return false;
            }
            match t {
                Sexp::Atom(a) => match f.defs.get(a.as_str()) {
                    Some(v) => {
                        if let Some(k) = memo.get(a.as_str()) {
                            out.push_str(k);
                            return true;
                        }
                        let mut k = String::new();
                        if !go(f, v, memo, &mut k) {
                            return false;
                        }
                        out.push_str(&k);
                        memo.insert(a.to_string(), k);
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
                    low_zeros: self.product_low_zeros(x, y),
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
            low_zeros: self.product_low_zeros(a, b),
        });
        p
    }

    /// [`Product::low_zeros`] of `a * b`.
    fn product_low_zeros(&self, a: &Sexp, b: &Sexp) -> u32 {
        const DEPTH: u32 = 8;
        self.low_zeros(a, DEPTH) + self.low_zeros(b, DEPTH)
    }
}
