//! The lemmas about offsets that [`Facts`] derives for a race query: mixed-radix sums
//! (`u1 + m*v1 = u2 + m*v2 => u1 = u2, v1 = v2`), byte offsets of a common scale overlapping
//! (equal element indices) and row-major indices. Each is a valid fact of bit-vector
//! arithmetic, stated so that the solver need not bit-blast the products it spares.

use super::*;
use num_bigint::BigInt;

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

/// An offset read as `S*i + rest` ([`Facts::row`]).
struct Row {
    /// The row index.
    i: Sexp,
    /// Its width in bits.
    wi: u32,
    /// The literal it is multiplied by before its extension (1 for none).
    r: BigUint,
    /// The row's byte scale `S`.
    scale: BigUint,
    /// The sum of the other terms (64 bits).
    rest: Sexp,
}

impl Facts<'_> {
    /// `x` as `u + m*v` with `u < m` and no wrapping in `x`'s width: `(u, m, v)`. A product
    /// alone is `0 + m*v` when `m >= 1`.
    pub(super) fn radix(&self, x: &Sexp) -> Option<(Sexp, Sexp, Sexp)> {
        let limit = BigUint::one() << self.width(x)?;
        for (u, prod) in self.summands(x) {
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

    /// The ways to split `x` into `u + p` with `p` a candidate product: both orders of a sum,
    /// or `0 + x` for a product ([`Facts::radix`], [`Facts::guarded_radixes`]).
    fn summands<'a>(&'a self, x: &'a Sexp) -> Vec<(Sexp, &'a Sexp)> {
        let Some(w) = self.width(x) else { return Vec::new() };
        let t = self.resolve(x);
        match split(t) {
            Some((Op::Named("bvadd"), [p, q])) => vec![(p.clone(), q), (q.clone(), p)],
            Some((Op::Named("bvmul"), [_, _])) => vec![(Sexp::bv(&BigUint::zero(), w), t)],
            _ => Vec::new(),
        }
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
        for (u, prod) in self.summands(x) {
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
    /// plus a vector's member `12` is `4*(b*P + sext(4*i) + 3)`. Where that gives no lemma, the
    /// rows' ([`Facts::row_overlap_lemma`]); nothing for other offsets.
    pub(crate) fn offset_lemmas(&self, o1: &Sexp, w1: u32, o2: &Sexp, w2: u32, out: &mut Vec<Sexp>) {
        let (Some((t1, l1)), Some((t2, l2))) = (self.scaled_terms(o1), self.scaled_terms(o2)) else {
            return;
        };
        // Where the scales give no lemma (a sum of three or more terms without a mixed-radix
        // reading, a vector's member offsets of a smaller scale than the access, or a literal
        // summand: a field's offset, a pointer moved by a literal), the rows'.
        let row = self.row_overlap_lemma((o1, &t1, &l1, w1), (o2, &t2, &l2, w2));
        let mut mine = Vec::new();
        if l1.is_zero() && l2.is_zero() {
            self.scaled_lemmas((o1, t1, w1), (o2, t2, w2), &mut mine);
        }
        if mine.is_empty() {
            mine.extend(row);
        }
        for l in mine {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }

    /// [`Facts::offset_lemmas`] by the offsets' common scale ([`Facts::scaled_terms`]).
    fn scaled_lemmas(
        &self,
        (o1, t1, w1): (&Sexp, Vec<Scaled>, u32),
        (o2, t2, w2): (&Sexp, Vec<Scaled>, u32),
        out: &mut Vec<Sexp>,
    ) {
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
                    vec![
                        in_range(&x1),
                        in_range(&x2),
                        before_end(o1, o2, w2),
                        before_end(o2, o1, w1),
                    ],
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

    /// For byte offsets `o = S*i + r` (`w1`, `w2` bytes) whose term of greatest scale is a row,
    /// `ext(i*R)*s` or `ext(i)*S` with literals `R`, `s` and `S = s*R` (`out + C*t` indexed by
    /// a column and a vector's member: `2*sext(768*t) + 2*sext(c) + 4*m`), and `r` the other
    /// terms: `0 <= i1, i2 <= K` (`K*R` does not wrap), `0 <= r1 <= S - w1`,
    /// `0 <= r2 <= S - w2` and the bytes overlapping (signed, as the race queries compare)
    /// imply `i1 = i2`: each offset is `S*i + r` exactly, and two rows' bytes are `S` apart.
    /// Literal summands (`scratch += 32`: `128 + …`) are read as one base `L` taken from both
    /// offsets, `o = L + S*i + r`, `L` the least value beside the rows, so that both rests
    /// start near 0 ([`Facts::least_beside_row`]); overlapping is the same after the shift.
    /// With one width `w` dividing `S`, and `r1`, `r2` multiples of `w`, also `r1 = r2`. A
    /// valid fact: it spares the solver refuting the overlap of two rows by bit blasting the
    /// products (llm.c's `fused_residual_forward_kernel6`, whose `store128` to
    /// `residual + C*tidx` yices did not decide in 100 s; 0.6 s with it). `None` for other
    /// offsets.
    fn row_overlap_lemma(
        &self,
        a: (&Sexp, &[Scaled], &BigInt, u32),
        b: (&Sexp, &[Scaled], &BigInt, u32),
    ) -> Option<Sexp> {
        let (o1, t1, l1, w1) = a;
        let (o2, t2, l2, w2) = b;
        let (
            Row {
                i: i1,
                wi: wi1,
                r: r1,
                scale: s1,
                rest: rest1,
            },
            Row {
                i: i2,
                wi: wi2,
                r: r2,
                scale: s2,
                rest: rest2,
            },
        ) = (self.row(t1)?, self.row(t2)?);
        // A row alone is the common scale's case, and a row with only a literal beside it is
        // a record's field (`28*i + 23`: one lemma per pair of fields grew the queries of
        // struct copies past cvc5's limit); a row narrower than an access gives nothing;
        // literals far from 0 could make the sums wrap.
        let near = |l: &BigInt| l.magnitude() < &(BigUint::one() << 40u32);
        if (wi1, &r1, &s1) != (wi2, &r2, &s2)
            || wi1 < 2
            || r1.is_zero()
            || t1.len() < 2
            || t2.len() < 2
            || !near(l1)
            || !near(l2)
            || s1 < BigUint::from(w1.max(w2))
        {
            return None;
        }
        // Both offsets read from one base `L`: `o = L + S*i + rest`, with `rest` the other
        // terms plus `l - L` (mod 2^64), which is `o - S*i - L` for any `L`; the premises bound
        // `rest` itself. `L` is the smaller of the offsets' least values beside their rows
        // (the literal, and the least of each chosen literal: a linear race query's chosen
        // access among `128 + …` and `6528 + …`), so that both rests start near 0.
        let base = self.least_beside_row(t1, l1).min(self.least_beside_row(t2, l2));
        let shifted = |rest: Sexp, l: &BigInt| {
            let excess = l - &base;
            if excess.is_zero() {
                rest
            } else {
                let modulus = BigInt::one() << 64u32;
                let bits = ((excess % &modulus) + &modulus) % &modulus;
                Sexp::app("bvadd", vec![rest, Sexp::bv(bits.magnitude(), 64)])
            }
        };
        let (rest1, rest2) = (shifted(rest1, l1), shifted(rest2, l2));
        // `i*R` below 2^(wi-1) keeps the product and its extension exact; `S*i + r` stays
        // below 2^62 when `S*K` does.
        let k = ((BigUint::one() << (wi1 - 1)) - 1u8) / &r1;
        if &s1 * (&k + 1u8) >= BigUint::one() << 62 {
            return None;
        }
        let zero = |w: u32| Sexp::bv(&BigUint::zero(), w);
        let within = |i: &Sexp| {
            Sexp::app(
                "and",
                vec![
                    Sexp::app("bvsle", vec![zero(wi1), i.clone()]),
                    Sexp::app("bvsle", vec![i.clone(), Sexp::bv(&k, wi1)]),
                ],
            )
        };
        let aligned = w1 == w2 && w1.is_power_of_two() && (&s1 % w1).is_zero() && w1 > 1;
        let fits = |r: &Sexp, w: u32| {
            let mut c = vec![
                Sexp::app("bvsle", vec![zero(64), r.clone()]),
                Sexp::app(
                    "bvsle",
                    vec![
                        Sexp::app("bvadd", vec![r.clone(), Sexp::bv(&BigUint::from(w), 64)]),
                        Sexp::bv(&s1, 64),
                    ],
                ),
            ];
            if aligned {
                let mask = Sexp::bv(&BigUint::from(w - 1), 64);
                c.push(Sexp::app(
                    "=",
                    vec![Sexp::app("bvand", vec![r.clone(), mask]), zero(64)],
                ));
            }
            c
        };
        let mut premise = vec![within(&i1), within(&i2)];
        premise.extend(fits(&rest1, w1));
        premise.extend(fits(&rest2, w2));
        premise.push(before_end(o1, o2, w2));
        premise.push(before_end(o2, o1, w1));
        let mut equal = vec![Sexp::app("=", vec![i1, i2])];
        if aligned {
            equal.push(Sexp::app("=", vec![rest1, rest2]));
        }
        Some(Sexp::app(
            "=>",
            vec![Sexp::app("and", premise), Sexp::app("and", equal)],
        ))
    }

    /// The least value of an offset's literal `l` and chosen literals together (each chosen
    /// literal's lower bound, when it is below 2^40): where its rest starts, the row aside
    /// ([`Facts::row_overlap_lemma`]).
    fn least_beside_row(&self, terms: &[Scaled], l: &BigInt) -> BigInt {
        let mut least = l.clone();
        for t in terms {
            if let Scaled::Chosen(y, _) = t
                && let Sexp::Atom(a) = self.resolve(y)
                && let Some(lo) = self.lower.get(a.as_str())
                && lo < &(BigUint::one() << 40u32)
            {
                least += BigInt::from(lo.clone());
            }
        }
        least
    }

    /// The row of an offset's terms ([`Facts::row_overlap_lemma`]): the term of greatest scale,
    /// when it is `ext(i*R)*s` or `ext(i)*s` and every other term's scale is smaller.
    fn row(&self, terms: &[Scaled]) -> Option<Row> {
        // The best term so far (its position and row), and the greatest scale of the others.
        let mut best: Option<(usize, Row)> = None;
        let mut second = BigUint::zero();
        for (n, t) in terms.iter().enumerate() {
            let Scaled::Times(y, s) = t else {
                second = second.max(t.scale().clone());
                continue;
            };
            let Some((Op::Ext(_, _), [inner])) = split(self.resolve(y)) else {
                second = second.max(s.clone());
                continue;
            };
            let wi = self.width(inner)?;
            let (i, r) = self
                .by_literal(inner)
                .unwrap_or_else(|| (inner.clone(), BigUint::one()));
            let scale = s * &r;
            match &best {
                Some((_, b)) if b.scale >= scale => second = second.max(scale),
                _ => {
                    if let Some((_, b)) = best.take() {
                        second = second.max(b.scale);
                    }
                    let rest = Sexp::bv(&BigUint::zero(), 64);
                    best = Some((n, Row { i, wi, r, scale, rest }));
                }
            }
        }
        let (n, mut row) = best?;
        if row.scale <= second {
            return None;
        }
        row.rest = terms
            .iter()
            .enumerate()
            .filter(|(m, _)| *m != n)
            .map(|(_, t)| match t {
                Scaled::Times(y, c) => Sexp::app("bvmul", vec![y.clone(), Sexp::bv(c, 64)]),
                Scaled::Chosen(y, _) => y.clone(),
            })
            .reduce(|p, q| Sexp::app("bvadd", vec![p, q]))
            .unwrap_or(row.rest);
        Some(row)
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

    /// A 64-bit byte offset as a sum of terms, each a multiple of a literal scale (`y*c`, or a
    /// chosen literal whose values are all multiples of one: [`Facts::bound`]), and the sum of
    /// its literal summands, read as a signed 64-bit value (`scratch += 32` before `scratch +
    /// i`: `128 + 4*sext(i)`). At most [`SCALED_TERMS`] terms; `None` for a term of no known
    /// scale, no term but literals, or an offset not 64 bits wide.
    fn scaled_terms(&self, o: &Sexp) -> Option<(Vec<Scaled>, BigInt)> {
        if self.width(o) != Some(64) {
            return None;
        }
        let mut stack = vec![o];
        let mut out = Vec::new();
        let mut literal = BigUint::zero();
        while let Some(t) = stack.pop() {
            if out.len() + stack.len() >= SCALED_TERMS {
                return None;
            }
            if let Some((y, c)) = self.by_literal(t) {
                out.push(Scaled::Times(y, c));
            } else if let Some(c) = self.literal(t) {
                literal += c;
            } else if let Sexp::Atom(a) = self.resolve(t)
                && let Some(step) = self.steps.get(a.as_str())
            {
                out.push(Scaled::Chosen(t.clone(), step.clone()));
            } else {
                match split(self.resolve(t))? {
                    (Op::Named("bvadd"), args) => stack.extend(args.iter().rev()),
                    _ => return None,
                }
            }
        }
        let literal = literal % (BigUint::one() << 64u32);
        let signed = if literal >= BigUint::one() << 63u32 {
            BigInt::from(literal) - (BigInt::one() << 64u32)
        } else {
            BigInt::from(literal)
        };
        (!out.is_empty()).then_some((out, signed))
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
}

/// `a < b + w`, signed, of 64-bit byte offsets: with its mirror, that the bytes `[a, a + w_a)` and
/// `[b, b + w)` overlap, as the race queries compare them.
fn before_end(a: &Sexp, b: &Sexp, w: u32) -> Sexp {
    Sexp::app(
        "bvslt",
        vec![
            a.clone(),
            Sexp::app("bvadd", vec![b.clone(), Sexp::bv(&BigUint::from(w), 64)]),
        ],
    )
}
