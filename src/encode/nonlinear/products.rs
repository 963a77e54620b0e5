//! Products of two symbolic values that cannot wrap: the linear lemmas of their abstraction,
//! and the counterexample-guided refinement of a spurious model.
//!
//! Under `--no-overflow` (PUG (Li and Gopalakrishnan, FSE 2010) §7, its `+O` flag) every product
//! `x*y` of two non-literal `w`-bit values carries the side condition that it does not wrap,
//! [`mul_no_overflow`]: exactly, `x*y` redone in `2w` bits fits back in `w` bits. In the relaxation
//! ([`super::relax`]) that condition becomes an uninterpreted predicate `nl.nowrap{u,s}W(x, y)` and
//! the product an uninterpreted `nl.mulW(x, y)`; what the two mean together is given by the linear
//! lemmas of [`lemmas`] (each one valid when both symbols take their exact meaning, so adding them
//! keeps every exact model and an unsatisfiable relaxed query is unsatisfiable exactly). A
//! satisfiable relaxed query is checked against exact arithmetic on its model's values
//! ([`Probe::refine`]): a product or predicate the model got wrong gets the lemmas that pin it at
//! that point (linear, since one factor is a literal there), and the query is asked again; a model
//! with every product right is an exact model. This is the incremental linearization of Cimatti et
//! al. (TOCL 2018), on bit-vectors.

use super::{Facts, Op, split};
use crate::solver::{Query, Sexp};
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, Zero};

/// The exact condition that `a * b` (two `bits`-wide bit-vectors, as signed or unsigned
/// numbers) does not wrap: redone in `2*bits` bits, the product fits back. Recognized by
/// [`as_mul_no_overflow`], which the relaxation uses to make it `nl.nowrap…`. With a literal
/// factor, the equivalent range of the other one.
pub(crate) fn mul_no_overflow(a: &Sexp, b: &Sexp, bits: u32, signed: bool) -> Sexp {
    // By a literal: a range of the other factor (linear, no double-width multiplier).
    if let Some(c) = b.as_bv() {
        return range(&c, a, bits, signed);
    }
    if let Some(c) = a.as_bv() {
        return range(&c, b, bits, signed);
    }
    let wide = |x: &Sexp| ext(x.clone(), bits, signed);
    let exact = Sexp::app("bvmul", vec![wide(a), wide(b)]);
    let narrow = Sexp::List(vec![
        Sexp::app(
            "_",
            vec![
                Sexp::atom("extract"),
                Sexp::atom((bits - 1).to_string()),
                Sexp::atom("0"),
            ],
        ),
        exact.clone(),
    ]);
    Sexp::app("=", vec![ext(narrow, bits, signed), exact])
}

/// `(_ sign_extend bits)` or `(_ zero_extend bits)` of `x`.
fn ext(x: Sexp, bits: u32, signed: bool) -> Sexp {
    let op = if signed { "sign_extend" } else { "zero_extend" };
    Sexp::List(vec![
        Sexp::app("_", vec![Sexp::atom(op), Sexp::atom(bits.to_string())]),
        x,
    ])
}

/// `(a, b, bits, signed)` when `t` is [`mul_no_overflow`]`(a, b, bits, signed)`.
pub(crate) fn as_mul_no_overflow(t: &Sexp) -> Option<(Sexp, Sexp, u32, bool)> {
    let (Op::Named("="), [lhs, exact]) = split(t)? else {
        return None;
    };
    let (Op::Ext(k, signed), [narrow]) = split(lhs)? else {
        return None;
    };
    let (Op::Extract(hi, 0), [inner]) = split(narrow)? else {
        return None;
    };
    if inner != exact || hi + 1 != k {
        return None;
    }
    let (Op::Named("bvmul"), [wa, wb]) = split(exact)? else {
        return None;
    };
    let (Some((Op::Ext(ka, sa), [a])), Some((Op::Ext(kb, sb), [b]))) = (split(wa), split(wb)) else {
        return None;
    };
    (ka == k && kb == k && sa == signed && sb == signed).then(|| (a.clone(), b.clone(), k, signed))
}

/// The name of the relaxed no-wrap predicate of `w`-bit products.
pub(super) fn nowrap_name(w: u32, signed: bool) -> String {
    format!("nl.nowrap{}{w}", if signed { "s" } else { "u" })
}

/// One product `x*y` of the relaxed formula: its factors, a term equal to it in every model of
/// the exact formula (`nl.mulW(x, y)`, or a sum of such and literal products), and the term
/// that says it does not wrap, if known.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Product {
    pub x: Sexp,
    pub y: Sexp,
    pub p: Sexp,
    pub w: u32,
    /// The no-wrap condition and whether it is signed: a `nl.nowrap…` application (asserted
    /// where the exact formula assumes it), `true` when the factors' bounds prove it, or
    /// `None` (nothing is known: the product may wrap).
    pub ok: Option<(Sexp, bool)>,
    /// How many low bits of the product are known zero from its factors' shapes (the sum of
    /// the factors' [`Facts::low_zeros`], at most `w`): a product with an even factor is even.
    pub low_zeros: u32,
}

/// A sum `x = p + u` of the relaxed formula whose summand `p` is a product: the shape of a
/// linear index (`blockIdx.x * blockDim.x + threadIdx.x`, `row * width + col`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sum {
    pub x: Sexp,
    pub prod: Product,
    pub u: Sexp,
}

/// The mixed-radix lemmas of pairs of sums (the fresh ones against themselves and `old`): for
/// `x1 = v1*m + u1` and `x2 = v2*m + u2` over a shared factor `m`, when neither product nor
/// sum wraps and `0 ≤ u1, u2 < m`, `x1 = x2 ⇒ v1 = v2 ∧ u1 = u2` (Euclidean division is
/// unique). Every premise is part of the lemma, so it is valid; under `--no-overflow` the
/// formula assumes them. The monotonicity lemmas of [`lemmas`] imply the same, but only
/// through a case split that bit-blasting solvers find slowly: stated outright, a 2-D
/// `row * width + col` race query takes 0.04 s instead of 5 s (z3).
pub(crate) fn radix_lemmas(old: &[Sum], fresh: &[Sum], out: &mut Vec<Sexp>) {
    let mut pairs = Vec::new();
    for (j, s2) in fresh.iter().enumerate() {
        for s1 in old.iter().chain(fresh.iter().take(j)) {
            pairs.push((s1, s2));
        }
    }
    for (s1, s2) in pairs {
        if out.len() >= MAX_LEMMAS || s1.prod.w != s2.prod.w || s1.x == s2.x {
            continue;
        }
        let (Some((ok1, sg1)), Some((ok2, sg2))) = (&s1.prod.ok, &s2.prod.ok) else {
            continue;
        };
        if sg1 != sg2 {
            continue;
        }
        let (signed, w) = (*sg1, s1.prod.w);
        let zero = Sexp::bv(&BigUint::zero(), w);
        let max = if signed {
            (BigUint::one() << (w - 1)) - 1u8
        } else {
            (BigUint::one() << w) - 1u8
        };
        let max = Sexp::bv(&max, w);
        let (lt, le) = if signed { ("bvslt", "bvsle") } else { ("bvult", "bvule") };
        let cmp = |op: &str, a: &Sexp, b: &Sexp| Sexp::app(op, vec![a.clone(), b.clone()]);
        for (v1, m1) in [(&s1.prod.x, &s1.prod.y), (&s1.prod.y, &s1.prod.x)] {
            for (v2, m2) in [(&s2.prod.x, &s2.prod.y), (&s2.prod.y, &s2.prod.x)] {
                if m1 != m2 {
                    continue;
                }
                let m = m1;
                let mut premise = vec![ok1.clone(), ok2.clone()];
                for s in [s1, s2] {
                    if signed {
                        premise.push(cmp("bvsle", &zero, &s.u));
                    }
                    premise.push(cmp(lt, &s.u, m));
                    premise.push(cmp(le, &s.prod.p, &Sexp::app("bvsub", vec![max.clone(), s.u.clone()])));
                }
                premise.retain(|p| *p != Sexp::atom("true"));
                out.push(Sexp::app(
                    "=>",
                    vec![
                        Sexp::app("and", premise),
                        Sexp::app(
                            "=>",
                            vec![
                                Sexp::app("=", vec![s1.x.clone(), s2.x.clone()]),
                                Sexp::app(
                                    "and",
                                    vec![
                                        Sexp::app("=", vec![v1.clone(), v2.clone()]),
                                        Sexp::app("=", vec![s1.u.clone(), s2.u.clone()]),
                                    ],
                                ),
                            ],
                        ),
                    ],
                ));
            }
        }
    }
}

/// A division `q = a / b` and remainder `r = a % b` of the relaxed formula by a non-literal
/// divisor (`i / width`, `i % width`): both uninterpreted (`nl.{u,s}{div,rem}W(a, b)`), with
/// `p`, the relaxed product `b*q`, for [`division_lemmas`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Division {
    pub a: Sexp,
    pub b: Sexp,
    pub q: Sexp,
    pub r: Sexp,
    pub p: Sexp,
    pub w: u32,
    pub signed: bool,
    /// Unsigned, when the dividend is `x + b` (the divisor added to a name `x`, as a loop
    /// adds its stride): `x`, for the step lemmas of [`division_lemmas`].
    pub step: Option<Sexp>,
    /// The divisor's value when it is a literal (`off % 2064`), for [`literal_radix_lemmas`]
    /// (unsigned only) and the quotient's bound.
    pub divisor: Option<BigUint>,
    /// For a literal divisor: the division as [`Chain`]s name it (signedness, the exact
    /// dividend's text, the divisor), the same for its quotient and its remainder.
    pub key: Option<DivisionKey>,
}

/// A division by a literal as the formula writes it, before relaxation: signed, the exact
/// dividend's text, the divisor's value.
pub(crate) type DivisionKey = (bool, String, BigUint);

/// A chain of divisions by literals (`(i / V) % T` beside `i / (T*V)`, the coordinates of a
/// linear index `i` over a `B × T × V` tensor): `outer` divides the quotient of `inner` by
/// `c2`, and `whole` divides `inner`'s dividend by `c1*c2`, so that `outer`'s quotient is
/// `whole`'s ([`chain_lemmas`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Chain {
    pub inner: DivisionKey,
    pub outer: DivisionKey,
    pub whole: DivisionKey,
}

/// The lemmas of division chains by literals ([`Chain`]), for each chain whose outer and whole
/// divisions are both relaxed, one of them in `fresh`: `(a / c1) / c2 = a / (c1*c2)`. Valid
/// for every `a` when `c1, c2 > 0` and `c1*c2` fits the (signed) type: truncating and floor
/// division both compose, whatever the sign of `a`. With [`division_lemmas`]' `a = c*q + r`
/// of each, a linear formula then proves that `b*T*V + t*V + v` with `b = i / (T*V)`,
/// `t = (i / V) % T`, `v = i % V` is `i` again, which bit-blasting the three divisions by
/// 32-bit literals does not find in a minute (llm.c's `crossentropy_softmax_backward`).
pub(crate) fn chain_lemmas(chains: &[Chain], old: &[Division], fresh: &[Division], out: &mut Vec<Sexp>) {
    let find = |k: &DivisionKey| {
        old.iter()
            .map(|d| (d, false))
            .chain(fresh.iter().map(|d| (d, true)))
            .find(|(d, _)| d.key.as_ref() == Some(k))
    };
    for c in chains {
        if out.len() >= MAX_LEMMAS {
            return;
        }
        let (Some((outer, f1)), Some((whole, f2))) = (find(&c.outer), find(&c.whole)) else {
            continue;
        };
        if (f1 || f2) && outer.w == whole.w {
            out.push(Sexp::app("=", vec![outer.q.clone(), whole.q.clone()]));
        }
    }
}

/// A sum `x = v*c + u` of the relaxed formula (`w` bits) whose summand is a product by a
/// literal `c` that is not a power of two (`blockIdx.x * 2064 + i`): the dividend a
/// remainder by the same literal undoes ([`literal_radix_lemmas`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LiteralSum {
    pub x: Sexp,
    pub v: Sexp,
    pub u: Sexp,
    pub c: BigUint,
    pub w: u32,
}

/// `t` zero-extended from `from` to `to` bits (`t` itself when they are equal).
fn zext(t: &Sexp, from: u32, to: u32) -> Sexp {
    if to == from {
        t.clone()
    } else {
        ext(t.clone(), to - from, false)
    }
}

impl Division {
    /// `q = zext(q1) ∧ r = zext(r1)` for `q1`, `r1` of `from` bits: the conclusion of the
    /// lemmas that give this division's quotient and remainder from narrower values.
    fn is(&self, q1: &Sexp, r1: &Sexp, from: u32) -> Sexp {
        Sexp::app(
            "and",
            vec![
                Sexp::app("=", vec![self.q.clone(), zext(q1, from, self.w)]),
                Sexp::app("=", vec![self.r.clone(), zext(r1, from, self.w)]),
            ],
        )
    }
}

/// The lemmas that carry unsigned divisions across widths (pairs of the fresh ones against
/// themselves and `old`): for `d1` of `w1` bits and `d2` of `w2 > w1` bits whose divisor is
/// `d1`'s zero-extended (or the same literal value), `b1 ≠ 0 ∧ a2 = zext(a1) ⇒ q2 = zext(q1) ∧
/// r2 = zext(r1)`: whole-number division does not see the width. (`b = 0` is excluded: its
/// quotient is all ones, of each width.) What a 32-bit `i % blockDim.x` invariant needs to
/// speak of a 64-bit `(off / 4) % blockDim.x` (`size_t` arithmetic on a byte offset).
pub(crate) fn width_lemmas(old: &[Division], fresh: &[Division], out: &mut Vec<Sexp>) {
    for (j, f) in fresh.iter().enumerate() {
        for o in old.iter().chain(fresh.iter().take(j)) {
            if out.len() >= MAX_LEMMAS {
                return;
            }
            let (d1, d2) = if o.w < f.w { (o, f) } else { (f, o) };
            if d1.signed || d2.signed || d1.w == d2.w {
                continue;
            }
            let same_divisor = match (&d1.divisor, &d2.divisor) {
                (Some(c1), Some(c2)) => c1 == c2,
                (None, None) => d2.b == zext(&d1.b, d1.w, d2.w),
                _ => false,
            };
            if !same_divisor {
                continue;
            }
            let zero = Sexp::bv(&BigUint::zero(), d1.w);
            let premise = Sexp::app(
                "and",
                vec![
                    Sexp::app("not", vec![Sexp::app("=", vec![d1.b.clone(), zero])]),
                    Sexp::app("=", vec![d2.a.clone(), zext(&d1.a, d1.w, d2.w)]),
                ],
            );
            out.push(Sexp::app("=>", vec![premise, d2.is(&d1.q, &d1.r, d1.w)]));
        }
    }
}

/// The lemmas of a division by a literal `c` against each sum `x = v*c + u` by the same
/// literal ([`LiteralSum`]) of at most its width, pairs with one of them fresh: when the sum
/// is exact (`v ≤ ⌊(2^w-1)/c⌋`, `v*c ≤ 2^w-1-u`) and `u < c`, a dividend equal to
/// `zext(x)` has quotient `zext(v)` and remainder `zext(u)` (Euclidean division is unique).
/// Valid for every value, since each premise is part of the lemma. Bit-blasting a 64-bit
/// remainder by 2064 to find `(blockIdx.x*2064 + i) % 2064 = i` does not finish in 30 s;
/// stated, the query takes 0.2-1 s.
pub(crate) fn literal_radix_lemmas(
    divisions: (&[Division], &[Division]),
    sums: (&[LiteralSum], &[LiteralSum]),
    out: &mut Vec<Sexp>,
) {
    let pairs = divisions
        .1
        .iter()
        .flat_map(|d| sums.0.iter().chain(sums.1).map(move |s| (d, s)))
        .chain(divisions.0.iter().flat_map(|d| sums.1.iter().map(move |s| (d, s))));
    for (d, s) in pairs {
        if out.len() >= MAX_LEMMAS {
            return;
        }
        if d.signed || d.divisor.as_ref() != Some(&s.c) || s.w > d.w {
            continue;
        }
        let c = Sexp::bv(&s.c, s.w);
        let max_v = ((BigUint::one() << s.w) - 1u8) / &s.c;
        let premise = Sexp::app(
            "and",
            vec![
                Sexp::app("=", vec![d.a.clone(), zext(&s.x, s.w, d.w)]),
                Sexp::app("bvult", vec![s.u.clone(), c.clone()]),
                Sexp::app("bvule", vec![s.v.clone(), Sexp::bv(&max_v, s.w)]),
                Sexp::app(
                    "bvule",
                    vec![
                        Sexp::app("bvmul", vec![s.v.clone(), c]),
                        Sexp::app("bvnot", vec![s.u.clone()]),
                    ],
                ),
            ],
        );
        out.push(Sexp::app("=>", vec![premise, d.is(&s.v, &s.u, s.w)]));
    }
}

/// The name of the relaxed division (`rem` false) or remainder of `w`-bit values.
pub(super) fn division_name(w: u32, signed: bool, rem: bool) -> String {
    format!(
        "nl.{}{}{w}",
        if signed { "s" } else { "u" },
        if rem { "rem" } else { "div" }
    )
}

/// The lemmas of divisions, each valid for SMT-LIB's `bvudiv`/`bvurem`/`bvsdiv`/`bvsrem`:
/// `b ≠ 0 ⇒ a = b*q + r` (modulo `2^w`; C's truncating division satisfies it, and so does
/// `INT_MIN / -1`); unsigned, `b ≠ 0 ⇒ r < b ∧ q ≤ a ∧ b*q ≤ a` (so that `b*q + r` does not
/// wrap), `b = 0 ⇒ q = 2^w - 1 ∧ r = a`, and by a literal `c`, `q ≤ ⌊(2^w-1)/c⌋`;
/// signed, `a ≥ 0 ∧ b > 0 ⇒ 0 ≤ r < b ∧ 0 ≤ q ≤ a` and `b = 0 ⇒ r = a ∧ q = (a < 0 ? 1 : -1)`. With the products' lemmas they prove
/// `(i / w) * w + i % w = i`: a 2-D index rebuilt from a linear one is still injective.
/// A dividend `x + b` (unsigned, `x` a name) where the sum does not wrap (`x ≤ ~b`) has the
/// remainder of `x` and, for `b ≠ 0`, the quotient of `x` plus one (whole numbers:
/// `(x + b) mod b = x mod b`; `x mod 0 = x` in SMT-LIB): what a loop's `i % blockDim.x`
/// invariant needs to step over `i += blockDim.x`.
pub(crate) fn division_lemmas(fresh: &[Division], out: &mut Vec<Sexp>) {
    for d in fresh {
        if let Some(x) = &d.step {
            let fits = Sexp::app("bvule", vec![x.clone(), Sexp::app("bvnot", vec![d.b.clone()])]);
            let of_x = |rem: bool| Sexp::app(&division_name(d.w, false, rem), vec![x.clone(), d.b.clone()]);
            let one = Sexp::bv(&BigUint::one(), d.w);
            let zero = Sexp::bv(&BigUint::zero(), d.w);
            out.push(Sexp::app(
                "=>",
                vec![fits.clone(), Sexp::app("=", vec![d.r.clone(), of_x(true)])],
            ));
            out.push(Sexp::app(
                "=>",
                vec![
                    Sexp::app(
                        "and",
                        vec![fits, Sexp::app("not", vec![Sexp::app("=", vec![d.b.clone(), zero])])],
                    ),
                    Sexp::app("=", vec![d.q.clone(), Sexp::app("bvadd", vec![of_x(false), one])]),
                ],
            ));
        }
        let zero = Sexp::bv(&BigUint::zero(), d.w);
        let nonzero = Sexp::app("not", vec![Sexp::app("=", vec![d.b.clone(), zero.clone()])]);
        let identity = Sexp::app(
            "=",
            vec![d.a.clone(), Sexp::app("bvadd", vec![d.p.clone(), d.r.clone()])],
        );
        let cmp = |op: &str, x: &Sexp, y: &Sexp| Sexp::app(op, vec![x.clone(), y.clone()]);
        if d.signed {
            out.push(Sexp::app("=>", vec![nonzero, identity]));
            // By a positive literal `c`, a non-negative dividend's quotient is at most
            // `⌊(2^(w-1)-1)/c⌋`, so that `c*q` does not wrap.
            if let Some(c) = d
                .divisor
                .as_ref()
                .filter(|c| !c.is_zero() && **c < (BigUint::one() << (d.w - 1)))
            {
                let max_q = ((BigUint::one() << (d.w - 1)) - 1u8) / c;
                out.push(Sexp::app(
                    "=>",
                    vec![cmp("bvsle", &zero, &d.a), cmp("bvsle", &d.q, &Sexp::bv(&max_q, d.w))],
                ));
            }
            let ones = Sexp::bv(&((BigUint::one() << d.w) - 1u8), d.w);
            let one = Sexp::bv(&BigUint::one(), d.w);
            out.push(Sexp::app(
                "=>",
                vec![
                    Sexp::app("=", vec![d.b.clone(), zero.clone()]),
                    Sexp::app(
                        "and",
                        vec![
                            Sexp::app("=", vec![d.r.clone(), d.a.clone()]),
                            Sexp::app(
                                "=",
                                vec![
                                    d.q.clone(),
                                    Sexp::app("ite", vec![cmp("bvslt", &d.a, &zero), one, ones]),
                                ],
                            ),
                        ],
                    ),
                ],
            ));
            out.push(Sexp::app(
                "=>",
                vec![
                    Sexp::app("and", vec![cmp("bvsle", &zero, &d.a), cmp("bvslt", &zero, &d.b)]),
                    Sexp::app(
                        "and",
                        vec![
                            cmp("bvsle", &zero, &d.r),
                            cmp("bvslt", &d.r, &d.b),
                            cmp("bvsle", &zero, &d.q),
                            cmp("bvsle", &d.q, &d.a),
                        ],
                    ),
                ],
            ));
        } else {
            out.push(Sexp::app(
                "=>",
                vec![
                    nonzero,
                    Sexp::app(
                        "and",
                        vec![
                            identity,
                            cmp("bvult", &d.r, &d.b),
                            cmp("bvule", &d.q, &d.a),
                            cmp("bvule", &d.p, &d.a),
                        ],
                    ),
                ],
            ));
            if let Some(c) = d.divisor.as_ref().filter(|c| !c.is_zero()) {
                let max_q = ((BigUint::one() << d.w) - 1u8) / c;
                out.push(cmp("bvule", &d.q, &Sexp::bv(&max_q, d.w)));
            }
            let ones = Sexp::bv(&((BigUint::one() << d.w) - 1u8), d.w);
            out.push(Sexp::app(
                "=>",
                vec![
                    Sexp::app("=", vec![d.b.clone(), zero]),
                    Sexp::app(
                        "and",
                        vec![
                            Sexp::app("=", vec![d.q.clone(), ones]),
                            Sexp::app("=", vec![d.r.clone(), d.a.clone()]),
                        ],
                    ),
                ],
            ));
        }
    }
}

/// SMT-LIB's quotient and remainder of the `w`-bit patterns `a` and `b`.
pub(crate) fn divide(a: &BigUint, b: &BigUint, w: u32, signed: bool) -> (BigUint, BigUint) {
    let m = BigInt::one() << w;
    let pattern = |v: BigInt| (((v % &m) + &m) % &m).to_biguint().unwrap_or_default();
    if !signed {
        if b.is_zero() {
            return ((BigUint::one() << w) - 1u8, a.clone());
        }
        return (a / b, a % b);
    }
    let (sa, sb) = (signed_value(a, w), signed_value(b, w));
    if sb.is_zero() {
        let q = if sa.is_negative() {
            BigInt::one()
        } else {
            -BigInt::one()
        };
        return (pattern(q), a.clone());
    }
    // Truncating division, as `bvsdiv`/`bvsrem` (and C) define it.
    let q = &sa / &sb;
    let r = &sa - &q * &sb;
    (pattern(q), pattern(r))
}

/// Most lemmas [`lemmas`] gives for one formula (pairs of products grow quadratically).
const MAX_LEMMAS: usize = 4000;

/// The lemmas about `products` (the new ones `fresh`, against themselves and `old`), each one
/// valid for exact multiplication and the exact no-wrap condition. With `p = x*y`:
///
/// * zero and one: `x = 0 ⇒ p = 0`, `x = 1 ⇒ p = y` (and with `x`, `y` swapped): always true;
/// * bounds, when `p` does not wrap: unsigned, `x ≠ 0 ⇒ y ≤ p` (and swapped); signed, for
///   `x, y ≥ 0`, also `p ≥ 0`;
/// * monotone in steps of the shared factor, for two products `p1 = x1*y` and `p2 = x2*y`:
///   unsigned, when `p2` does not wrap, `x1 < x2 ⇒ y ≤ p2 ∧ p1 ≤ p2 - y` (from
///   `x1*y + y ≤ x2*y < 2^w`, so that `p1` does not wrap either); signed, when `p2` does not
///   wrap, `0 ≤ x1 < x2 ∧ y ≥ 0 ⇒ y ≤ p2 ∧ p1 ≤ p2 - y`, and when neither wraps,
///   `x1 < x2 ∧ y ≥ 0 ⇒ p1 ≤ p2 - y` (`p2 - y = (x2-1)*y` lies between `p1` and `p2`).
///
/// These are what makes `b1*D + t1 = b2*D + t2` with `t < D` imply `b1 = b2`: the proof of
/// every linear thread index.
pub(crate) fn lemmas(old: &[Product], fresh: &[Product], out: &mut Vec<Sexp>) {
    let bv = |v: u32, w: u32| Sexp::bv(&BigUint::from(v), w);
    let eq = |a: &Sexp, b: &Sexp| Sexp::app("=", vec![a.clone(), b.clone()]);
    let imp = |a: Sexp, b: Sexp| Sexp::app("=>", vec![a, b]);
    let and = |v: Vec<Sexp>| {
        let v: Vec<Sexp> = v.into_iter().filter(|s| *s != Sexp::atom("true")).collect();
        match v.len() {
            0 => Sexp::atom("true"),
            1 => v.into_iter().next().unwrap_or_else(|| Sexp::atom("true")),
            _ => Sexp::app("and", v),
        }
    };
    let le = |s: bool, a: &Sexp, b: &Sexp| Sexp::app(if s { "bvsle" } else { "bvule" }, vec![a.clone(), b.clone()]);
    let lt = |s: bool, a: &Sexp, b: &Sexp| Sexp::app(if s { "bvslt" } else { "bvult" }, vec![a.clone(), b.clone()]);
    for p in fresh {
        if p.low_zeros > 0 {
            // Trailing zeros add up in a product (modulo 2^w too): `it * (gridDim.x * 2)` is
            // even, which a grid-stride loop over tokens split by `threadIdx.z` needs.
            let k = p.low_zeros.min(p.w);
            let low = Sexp::List(vec![
                Sexp::app(
                    "_",
                    vec![Sexp::atom("extract"), Sexp::atom((k - 1).to_string()), Sexp::atom("0")],
                ),
                p.p.clone(),
            ]);
            out.push(eq(&low, &bv(0, k)));
        }
        let (zero, one) = (bv(0, p.w), bv(1, p.w));
        for (a, b) in [(&p.x, &p.y), (&p.y, &p.x)] {
            out.push(imp(eq(a, &zero), eq(&p.p, &zero)));
            out.push(imp(eq(a, &one), eq(&p.p, b)));
            if let Some((ok, s)) = &p.ok {
                let mut premise = vec![ok.clone(), Sexp::app("not", vec![eq(a, &zero)])];
                if *s {
                    premise.push(le(true, &zero, a));
                    premise.push(le(true, &zero, b));
                }
                out.push(imp(and(premise), le(*s, b, &p.p)));
            }
        }
    }
    // Pairs sharing a factor: (p1, p2) with p2 fresh, or p1 fresh and p2 old.
    let mut pairs = Vec::new();
    for (j, p2) in fresh.iter().enumerate() {
        for p1 in old.iter().chain(fresh.iter().take(j)) {
            pairs.push((p1, p2));
            pairs.push((p2, p1));
        }
    }
    for (p1, p2) in pairs {
        if out.len() >= MAX_LEMMAS || p1.w != p2.w {
            continue;
        }
        let Some((ok2, s)) = &p2.ok else { continue };
        for (x1, y1) in [(&p1.x, &p1.y), (&p1.y, &p1.x)] {
            for (x2, y2) in [(&p2.x, &p2.y), (&p2.y, &p2.x)] {
                if y1 != y2 || x1 == x2 {
                    continue;
                }
                let y = y1;
                let zero = bv(0, p1.w);
                let step = and(vec![
                    le(*s, y, &p2.p),
                    le(*s, &p1.p, &Sexp::app("bvsub", vec![p2.p.clone(), y.clone()])),
                ]);
                let mut premise = vec![ok2.clone(), lt(*s, x1, x2)];
                if *s {
                    premise.push(le(true, &zero, x1));
                    premise.push(le(true, &zero, y));
                }
                out.push(imp(and(premise), step));
                if *s && let Some((ok1, true)) = &p1.ok {
                    let premise = and(vec![ok1.clone(), ok2.clone(), lt(true, x1, x2), le(true, &zero, y)]);
                    out.push(imp(
                        premise,
                        le(true, &p1.p, &Sexp::app("bvsub", vec![p2.p.clone(), y.clone()])),
                    ));
                }
            }
        }
    }
}

/// What to ask of a satisfiable relaxed query: the values of every product's factors, value
/// and no-wrap term, and of the script's declared constants (the model's inputs).
#[derive(Clone, Debug)]
pub struct Probe {
    /// The products the query's formula holds (the script's and its own).
    pub(crate) products: Vec<Product>,
    /// The divisions the query's formula holds.
    pub(crate) divisions: Vec<Division>,
    /// The declared bit-vector and Boolean constants of the script.
    pub(crate) inputs: Vec<Sexp>,
    /// Bounds that make the launch small: every uniform input below `2^8`.
    pub(crate) small: Vec<Sexp>,
    /// Bounds that make it one-dimensional: `blockDim.y`, `.z`, `gridDim.y`, `.z` are 1
    /// (each declared one, less those [`super::Relaxed::keep_read_dims`] removes).
    pub(crate) flat: Vec<Sexp>,
}

/// The outcome of checking a relaxed model against exact arithmetic.
#[derive(Clone, Debug, PartialEq)]
pub enum Refinement {
    /// The model got some products wrong: the lemmas (linear, valid) exclude it. The pins fix
    /// the uniform inputs (launch geometry, parameters: the usual factor of every product)
    /// to the model's values: the exact query under them is linear, and satisfiable when the
    /// model's launch has a defect with other threads.
    Lemmas(Vec<Sexp>, Vec<Sexp>),
    /// Every product is right: the model is an exact model. These assertions pin the inputs
    /// to its values, so that the exact query answers at once with the witness.
    Exact(Vec<Sexp>),
}

/// [`super::Relaxed::preferred`]: the relaxed preferred conditions with the lemmas of their
/// own products (kept out of the script, so that a query without them is the same), and
/// those products, which a model is checked on only while the conditions are asserted
/// ([`Probe::preferring`]).
#[derive(Clone, Debug)]
pub struct Preferred {
    /// The conditions and their lemmas, one `and` term to assert.
    pub term: Sexp,
    pub(crate) products: Vec<Product>,
    pub(crate) divisions: Vec<Division>,
}

impl Probe {
    /// `query` asking, when satisfiable, for the values [`Probe::refine`] reads.
    pub fn query(&self, query: &Query) -> Query {
        Query {
            unpinned: 0,
            name: query.name.clone(),
            assertions: query.assertions.clone(),
            get_values: self.get_values(),
        }
    }

    /// The probe of a query that also asserts `p.term`: its products and divisions checked
    /// too.
    pub fn preferring(&self, p: &Preferred) -> Probe {
        let mut out = self.clone();
        out.products.extend(p.products.iter().cloned());
        out.divisions.extend(p.divisions.iter().cloned());
        out
    }

    /// The values [`Probe::refine`] reads.
    pub fn get_values(&self) -> Vec<Sexp> {
        let mut get_values = Vec::new();
        for p in &self.products {
            get_values.extend([p.x.clone(), p.y.clone(), p.p.clone()]);
            if let Some((ok, _)) = &p.ok {
                get_values.push(ok.clone());
            }
        }
        for d in &self.divisions {
            get_values.extend([d.a.clone(), d.b.clone(), d.q.clone(), d.r.clone()]);
        }
        get_values.extend(self.inputs.iter().cloned());
        get_values
    }

    /// Assertions that keep every uniform input (launch geometry, scalar parameters) below
    /// `2^8`: a model of the relaxation under them is far more often exact, and a launch
    /// of it far more often has a defect, than one of the wide values a solver picks first.
    /// Only for finding a witness: a query unsatisfiable under them says nothing.
    /// Tier 0 is a small 1-D launch (the unused dimensions 1: the witness a user reads most
    /// easily, and the launch a replay confirms), tier 1 a small launch; `None` past the last.
    /// Without flat bounds ([`super::Relaxed::keep_read_dims`] leaves none when the kernel
    /// reads its y and z indices) tier 0 would be tier 1 again, and is left out.
    pub fn small(&self, tier: usize) -> Option<Vec<Sexp>> {
        let tier = tier + usize::from(self.flat.is_empty());
        match tier {
            0 => Some(self.small.iter().chain(&self.flat).cloned().collect()),
            1 => Some(self.small.clone()),
            _ => None,
        }
    }

    /// Reads the `values` of [`Probe::query`]: the refinement lemmas of each product the model
    /// got wrong (the lemmas that fix it at the model's point, `x = 5 ⇒ x*y = 5*y`, or, for a
    /// product of uniform values such as `blockDim.x * blockDim.y`, its exact value), or, when
    /// none, the pins of the inputs.
    pub fn refine(&self, values: &[Sexp]) -> Refinement {
        let mut it = values.iter();
        let mut lemmas = Vec::new();
        for p in &self.products {
            let (Some(x), Some(y), Some(v)) = (it.next(), it.next(), it.next()) else {
                return Refinement::Lemmas(lemmas, Vec::new());
            };
            let ok = p.ok.as_ref().and_then(|_| it.next());
            let (Some(x), Some(y), Some(v)) = (x.as_bv(), y.as_bv(), v.as_bv()) else {
                continue;
            };
            let m = BigUint::one() << p.w;
            let exact = (&x * &y) % &m;
            let signed = p.ok.as_ref().is_some_and(|(_, s)| *s);
            let fits = fits(&x, &y, p.w, signed);
            let ok_wrong = match (&p.ok, ok.and_then(Sexp::as_bool)) {
                (Some((t, _)), Some(b)) => *t != Sexp::atom("true") && b != fits,
                _ => false,
            };
            if exact == v && !ok_wrong {
                continue;
            }
            if !mentions_thread(&p.x) && !mentions_thread(&p.y) {
                // Launch geometry and parameters only (`blockDim.x * blockDim.y`): made exact,
                // since points of it would be excluded one at a time.
                lemmas.push(Sexp::app(
                    "=",
                    vec![p.p.clone(), Sexp::app("bvmul", vec![p.x.clone(), p.y.clone()])],
                ));
                if let Some((t, s)) = &p.ok
                    && *t != Sexp::atom("true")
                {
                    lemmas.push(Sexp::app("=", vec![t.clone(), mul_no_overflow(&p.x, &p.y, p.w, *s)]));
                }
                continue;
            }
            for (a, av, b) in [(&p.x, &x, &p.y), (&p.y, &y, &p.x)] {
                let at = Sexp::app("=", vec![a.clone(), Sexp::bv(av, p.w)]);
                let mut then = vec![Sexp::app(
                    "=",
                    vec![p.p.clone(), Sexp::app("bvmul", vec![Sexp::bv(av, p.w), b.clone()])],
                )];
                if let Some((t, s)) = &p.ok
                    && *t != Sexp::atom("true")
                {
                    then.push(Sexp::app("=", vec![t.clone(), range(av, b, p.w, *s)]));
                }
                lemmas.push(Sexp::app("=>", vec![at, Sexp::app("and", then)]));
            }
        }
        for d in &self.divisions {
            let (Some(a), Some(b), Some(q), Some(r)) = (it.next(), it.next(), it.next(), it.next()) else {
                return Refinement::Lemmas(lemmas, Vec::new());
            };
            let (Some(a), Some(b), Some(q), Some(r)) = (a.as_bv(), b.as_bv(), q.as_bv(), r.as_bv()) else {
                continue;
            };
            if divide(&a, &b, d.w, d.signed) == (q, r) {
                continue;
            }
            let (div, rem) = if d.signed {
                ("bvsdiv", "bvsrem")
            } else {
                ("bvudiv", "bvurem")
            };
            let vb = Sexp::bv(&b, d.w);
            lemmas.push(Sexp::app(
                "=>",
                vec![
                    Sexp::app("=", vec![d.b.clone(), vb.clone()]),
                    Sexp::app(
                        "and",
                        vec![
                            Sexp::app("=", vec![d.q.clone(), Sexp::app(div, vec![d.a.clone(), vb.clone()])]),
                            Sexp::app("=", vec![d.r.clone(), Sexp::app(rem, vec![d.a.clone(), vb])]),
                        ],
                    ),
                ],
            ));
        }
        let pin = |uniform_only: bool| -> Vec<Sexp> {
            self.inputs
                .iter()
                .zip(it.clone())
                .filter(|(c, v)| {
                    (v.as_bv().is_some() || v.as_bool().is_some()) && !(uniform_only && mentions_thread(c))
                })
                .map(|(c, v)| Sexp::app("=", vec![c.clone(), v.clone()]))
                .collect()
        };
        if !lemmas.is_empty() {
            return Refinement::Lemmas(lemmas, pin(true));
        }
        Refinement::Exact(pin(false))
    }
}

/// Whether the term `t` mentions a value of either thread of the pair (`t1.…`, `t2.…`; see
/// `terms::thread_symbol`); a term that does not is uniform (launch geometry, parameters and
/// what is computed from them alone).
pub(super) fn mentions_thread(t: &Sexp) -> bool {
    let text = t.to_string();
    text.contains("t1.") || text.contains("t2.")
}

/// `v` (a `w`-bit pattern) as a signed number.
pub(crate) fn signed_value(v: &BigUint, w: u32) -> BigInt {
    if w > 0 && v.bit(u64::from(w) - 1) {
        BigInt::from(v.clone()) - (BigInt::one() << w)
    } else {
        BigInt::from(v.clone())
    }
}

/// Whether `x*y` fits in `w` bits (as signed or unsigned numbers).
pub(crate) fn fits(x: &BigUint, y: &BigUint, w: u32, signed: bool) -> bool {
    if signed {
        let p = signed_value(x, w) * signed_value(y, w);
        let half = BigInt::one() << (w - 1);
        -&half <= p && p < half
    } else {
        x * y < (BigUint::one() << w)
    }
}

/// The condition on `b` that `a*b` fits in `w` bits, for the literal `a`: a range of `b`.
fn range(a: &BigUint, b: &Sexp, w: u32, signed: bool) -> Sexp {
    let Some((lo, hi)) = range_bounds(a, w, signed) else {
        return Sexp::atom("true");
    };
    // A widened operand (a 32-bit index scaled to a 64-bit byte offset) whose every value is
    // in the range: no condition.
    if let Some((min, max)) = extended_range(b, w, signed)
        && lo <= min
        && max <= hi
    {
        return Sexp::atom("true");
    }
    let pattern = |v: &BigInt| {
        let m = BigInt::one() << w;
        let u = ((v % &m) + &m) % &m;
        Sexp::bv(&u.to_biguint().unwrap_or_default(), w)
    };
    if !signed {
        return Sexp::app("bvule", vec![b.clone(), pattern(&hi)]);
    }
    Sexp::app(
        "and",
        vec![
            Sexp::app("bvsle", vec![pattern(&lo), b.clone()]),
            Sexp::app("bvsle", vec![b.clone(), pattern(&hi)]),
        ],
    )
}

/// The values `[min, max]` that `x`, a `w`-bit term read as signed or unsigned, can take when
/// it is `((_ zero_extend k) y)` or `((_ sign_extend k) y)`; `None` for any other term.
fn extended_range(x: &Sexp, w: u32, signed: bool) -> Option<(BigInt, BigInt)> {
    let (Op::Ext(k, sign_ext), [_]) = split(x)? else {
        return None;
    };
    if k == 0 || k >= w {
        return None;
    }
    let inner = w - k;
    if !sign_ext {
        // Zero-extended: [0, 2^inner - 1], the same read either way (the top bit is 0).
        return Some((BigInt::zero(), (BigInt::one() << inner) - 1));
    }
    let half = BigInt::one() << (inner - 1);
    // Sign-extended: [-2^(inner-1), 2^(inner-1) - 1] as signed; as unsigned, both ends wrap.
    signed.then(|| (-half.clone(), half - 1))
}

/// The values `[lo, hi]` of `b` (signed or unsigned numbers) for which `a*b` fits in `w` bits,
/// for the `w`-bit pattern `a`; `None` when every `b` does (`a = 0`).
pub(crate) fn range_bounds(a: &BigUint, w: u32, signed: bool) -> Option<(BigInt, BigInt)> {
    if !signed {
        if a.is_zero() {
            return None;
        }
        let max = ((BigUint::one() << w) - 1u8) / a;
        return Some((BigInt::zero(), BigInt::from(max)));
    }
    let a = signed_value(a, w);
    if a.is_zero() {
        return None;
    }
    let half = BigInt::one() << (w - 1);
    let (min, max) = (-half.clone(), half.clone() - 1);
    // a*b in [min, max]: for a > 0, b in [ceil(min/a), floor(max/a)]; for a < 0 the bounds swap.
    let (lo, hi) = if a.sign() == Sign::Plus {
        (div_ceil(&min, &a), div_floor(&max, &a))
    } else {
        (div_ceil(&max, &a), div_floor(&min, &a))
    };
    Some((lo.max(min), hi.min(max)))
}

fn div_floor(a: &BigInt, b: &BigInt) -> BigInt {
    let (q, r) = (a / b, a % b);
    if !r.is_zero() && (r.is_negative() != b.is_negative()) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: &BigInt, b: &BigInt) -> BigInt {
    -div_floor(&-a, b)
}

impl Facts<'_> {
    /// Whether the factors' bounds prove that `x*y` does not wrap (unsigned).
    pub(crate) fn product_fits(&self, x: &Sexp, y: &Sexp, w: u32) -> bool {
        self.max(x) * self.max(y) < BigUint::one() << w
    }
}
