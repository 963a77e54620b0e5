//! The whole-launch no-wrap assumption of a launch contract ([`IndexFits::launch`]): the
//! launch has at most `2^bits` threads in all, `gridDim.x * gridDim.y * gridDim.z *
//! blockDim.x * blockDim.y * blockDim.z <= 2^bits`. Hand-linearised grids combine dimensions
//! (`(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x`), which the
//! per-dimension assumption (`gridDim.d * blockDim.d <= 2^bits`, `state.rs`) does not bound.
//!
//! What the encoder asserts is not the six-fold product (a solver cannot use it through two
//! nested 32-bit products) but its consequences for the script's own terms, found by a bound
//! analysis of each term built from the launch alone: a thread's `threadIdx.d` is below
//! `blockDim.d` and its `blockIdx.d` below `gridDim.d`; a product or a mixed-radix sum of
//! such terms has an upper bound `Π S - Π T` (or `Π S`), `S` a multiset of the six extents.
//! When `S` holds each extent at most once, `Π S` is at most the launch's thread count, so
//! the term's exact value fits its width and the bit-vector operation does not wrap: for each
//! such product `x * y` the exact no-wrap condition ([`mul_no_overflow`]) and for each such
//! sum `x + u` that `x <= 2^w - 1 - u`. These are the premises of the mixed-radix lemmas
//! (`nonlinear`), which then give a linear index's coordinates back.
//!
//! Soundness: every fact holds in every execution of a launch the contract allows (each is
//! implied by the contract and the coordinates' bounds, which the prologue asserts), and
//! fewer facts than the contract itself are asserted, so a query unsatisfiable under them is
//! unsatisfiable for every such launch.
//!
//! Asked where a launch contract gives [`IndexFits::launch`] (the pair model's encodings of
//! `gpug verify`); the engine calls [`Encoder::launch_fits`] once the kernel is encoded.

use crate::encode::IndexFits;
use crate::encode::engine::Encoder;
use crate::encode::nonlinear::mul_no_overflow;
use crate::encode::terms::app;
use crate::ir::{Builtin, Dim};
use crate::solver::{Command, Sexp};
use num_bigint::BigUint;
use std::collections::{HashMap, HashSet};

/// Which extent: `blockDim.x`, `.y`, `.z`, `gridDim.x`, `.y`, `.z`.
type Extents = [u8; 6];

/// An upper bound of a term's exact value: `Π s - Π t` (`t` a sub-multiset of `s`), or `Π s`
/// when `t` is `None`, each extent counted with its multiplicity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bound {
    s: Extents,
    t: Option<Extents>,
}

fn plus(a: Extents, b: Extents) -> Extents {
    std::array::from_fn(|i| a[i].saturating_add(b[i]))
}

impl Bound {
    /// Whether a term with this bound fits `w` bits under a launch of at most `2^bits`
    /// threads: `S` holds each extent at most once (so `Π S <= 2^bits`), and the bound is
    /// below `2^w`.
    fn fits(&self, bits: u32, w: u32) -> bool {
        self.s.iter().all(|c| *c <= 1)
            && match self.t {
                Some(_) => bits <= w,
                None => bits < w,
            }
    }

    /// The bound of `x * y` for `x <= self` and `y <= other` (exact values):
    /// `(Π Sa - Π Ta) * (Π Sb - Π Tb) <= Π (Sa+Sb) - Π (Ta+Sb)` since `Π Ta <= Π Sa`.
    fn times(self, other: Bound) -> Bound {
        let s = plus(self.s, other.s);
        let t = match (self.t, other.t) {
            (None, None) => None,
            (Some(ta), _) => Some(plus(ta, other.s)),
            (None, Some(tb)) => Some(plus(tb, self.s)),
        };
        Bound { s, t }
    }

    /// The bound of `x + u` for `x <= self` and `u <= other`, when `x`'s bound leaves room
    /// for `u`'s: `(Π S - Π T) + (Π T - Π T') = Π S - Π T'`.
    fn radix_sum(self, other: Bound) -> Option<Bound> {
        (self.t == Some(other.s)).then_some(Bound { s: self.s, t: other.t })
    }
}

/// The bound analysis over a script's terms, with each definition's bound found once.
struct Analysis<'a> {
    bits: u32,
    defs: HashMap<&'a str, &'a Sexp>,
    widths: HashMap<&'a str, u32>,
    named: HashMap<&'a str, Option<(Bound, u32)>>,
    /// The facts found, each once.
    facts: Vec<Sexp>,
    seen: HashSet<Sexp>,
}

/// A literal's width (`#x…`, `#b…`).
fn literal_width(a: &str) -> Option<u32> {
    if let Some(h) = a.strip_prefix("#x") {
        Some(4 * h.len() as u32)
    } else {
        a.strip_prefix("#b").map(|b| b.len() as u32)
    }
}

impl<'a> Analysis<'a> {
    /// The bound of a launch term and its width, or `None`.
    fn bound(&mut self, t: &'a Sexp) -> Option<(Bound, u32)> {
        match t {
            Sexp::Atom(a) => self.atom(a),
            Sexp::List(items) => {
                let (op, args) = items.split_first()?;
                match (op, args) {
                    (Sexp::List(idx), [x]) => {
                        // `((_ zero_extend k) x)`, `((_ sign_extend k) x)`.
                        let [Sexp::Atom(u), Sexp::Atom(kind), Sexp::Atom(k)] = idx.as_slice() else {
                            return None;
                        };
                        let k: u32 = k.parse().ok()?;
                        let (b, w) = self.bound(x)?;
                        let ok = u == "_"
                            && (kind == "zero_extend" || (kind == "sign_extend" && w > 1 && b.fits(self.bits, w - 1)));
                        ok.then_some((b, w + k))
                    }
                    (Sexp::Atom(op), [x, y]) if op == "bvmul" || op == "bvadd" => {
                        let (bx, w) = self.bound(x)?;
                        let (by, _) = self.bound(y)?;
                        let b = if op == "bvmul" {
                            bx.times(by)
                        } else {
                            bx.radix_sum(by).or_else(|| by.radix_sum(bx))?
                        };
                        if !b.fits(self.bits, w) {
                            return None;
                        }
                        let fact = if op == "bvmul" {
                            mul_no_overflow(x, y, w, false)
                        } else {
                            // `x + y` does not wrap: `x <= (2^w - 1) - y`.
                            let max = Sexp::bv(&((BigUint::from(1u8) << w) - 1u8), w);
                            app("bvule", vec![x.clone(), app("bvsub", vec![max, y.clone()])])
                        };
                        if self.seen.insert(fact.clone()) {
                            self.facts.push(fact);
                        }
                        Some((b, w))
                    }
                    _ => None,
                }
            }
        }
    }

    fn atom(&mut self, a: &'a str) -> Option<(Bound, u32)> {
        let one = |i: usize| {
            let mut e = [0; 6];
            e[i] = 1;
            e
        };
        for d in Dim::ALL {
            let i = d.index();
            if a == Encoder::builtin_name(Builtin::BlockDim(d), 0) {
                return Some((Bound { s: one(i), t: None }, 32));
            }
            if a == Encoder::builtin_name(Builtin::GridDim(d), 0) {
                return Some((Bound { s: one(3 + i), t: None }, 32));
            }
        }
        // A thread's coordinate: `t<k>.threadIdx.d < blockDim.d`, `t<k>.blockIdx.d < gridDim.d`.
        if let Some((thread, coord)) = a.split_once('.')
            && thread.starts_with('t')
            && thread[1..].chars().all(|c| c.is_ascii_digit())
        {
            for d in Dim::ALL {
                let i = d.index();
                let strict = |e: Extents| Some((Bound { s: e, t: Some([0; 6]) }, 32));
                if coord == format!("threadIdx.{}", ["x", "y", "z"][i]) {
                    return strict(one(i));
                }
                if coord == format!("blockIdx.{}", ["x", "y", "z"][i]) {
                    return strict(one(3 + i));
                }
            }
        }
        if literal_width(a).is_some() {
            return None;
        }
        if let Some(known) = self.named.get(a) {
            return *known;
        }
        let value = *self.defs.get(a)?;
        let b = self.bound(value);
        // A definition's width is its sort's; a bound found for another width is not used.
        let b = b.filter(|(_, w)| self.widths.get(a).is_none_or(|sw| sw == w));
        self.named.insert(a, b);
        b
    }
}

impl Encoder<'_> {
    /// Under [`IndexFits::launch`], asserts what a launch of at most `2^bits` threads implies
    /// for the products and sums of the script built from the launch alone (the module doc).
    pub(in crate::encode) fn launch_fits(&mut self, fits: IndexFits) {
        if !fits.launch {
            return;
        }
        let cmds = std::mem::take(&mut self.cmds);
        // Each fact right before the command whose term it is about (it names only what that
        // term names, all defined before), so that the relaxation (`nonlinear`) knows a
        // product's no-wrap condition when it meets the sums over it.
        let mut out = Vec::with_capacity(cmds.len());
        {
            let mut a = Analysis {
                bits: fits.bits,
                defs: HashMap::new(),
                widths: HashMap::new(),
                named: HashMap::new(),
                facts: Vec::new(),
                seen: HashSet::new(),
            };
            for c in &cmds {
                if let Command::DefineConst { name, sort, value } = c {
                    a.defs.insert(name.as_str(), value);
                    if let Sexp::List(v) = sort
                        && let [_, _, Sexp::Atom(w)] = v.as_slice()
                        && let Ok(w) = w.parse::<u32>()
                    {
                        a.widths.insert(name.as_str(), w);
                    }
                }
            }
            for c in &cmds {
                if let Command::DefineConst { value, .. } | Command::Assert(value) = c {
                    walk(&mut a, value);
                }
                out.extend(a.facts.drain(..).map(Command::Assert));
                out.push(c.clone());
            }
        }
        self.cmds = out;
    }
}

/// Finds the bounds of every launch term of `t` (and records their facts).
fn walk<'a>(a: &mut Analysis<'a>, t: &'a Sexp) {
    if a.bound(t).is_some() {
        return;
    }
    if let Sexp::List(items) = t {
        for i in items {
            walk(a, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A term in SMT-LIB's text (atoms and lists only).
    fn parse(s: &str) -> Sexp {
        fn list(tokens: &mut std::iter::Peekable<std::vec::IntoIter<String>>) -> Sexp {
            let mut items = Vec::new();
            while let Some(tok) = tokens.next() {
                match tok.as_str() {
                    "(" => items.push(list(tokens)),
                    ")" => break,
                    _ => items.push(Sexp::atom(tok)),
                }
            }
            Sexp::List(items)
        }
        let spaced = s.replace('(', " ( ").replace(')', " ) ");
        let tokens: Vec<String> = spaced.split_whitespace().map(String::from).collect();
        let mut it = tokens.into_iter().peekable();
        match it.next().as_deref() {
            Some("(") => list(&mut it),
            Some(a) => Sexp::atom(a),
            None => panic!("empty term"),
        }
    }

    fn facts(bits: u32, defs: &[(&str, &str)]) -> Vec<String> {
        let owned: Vec<(String, Sexp)> = defs.iter().map(|(n, v)| (n.to_string(), parse(v))).collect();
        let mut a = Analysis {
            bits,
            defs: owned.iter().map(|(n, v)| (n.as_str(), v)).collect(),
            widths: HashMap::new(),
            named: HashMap::new(),
            facts: Vec::new(),
            seen: HashSet::new(),
        };
        for (_, v) in &owned {
            walk(&mut a, v);
        }
        a.facts.iter().map(|f| f.to_string()).collect()
    }

    /// The hand-linearised 2-D grid: both products and both sums are bounded by the launch.
    #[test]
    fn linearised_grid_has_its_no_wrap_facts() {
        let got = facts(
            32,
            &[
                ("t1.b", "(bvadd (bvmul t1.blockIdx.y gridDim.x) t1.blockIdx.x)"),
                ("t1.i", "(bvadd (bvmul t1.b blockDim.x) t1.threadIdx.x)"),
            ],
        );
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(
            got[0].contains("t1.blockIdx.y") && got[0].contains("gridDim.x"),
            "{got:?}"
        );
        assert_eq!(
            got[1],
            "(bvule (bvmul t1.blockIdx.y gridDim.x) (bvsub #xffffffff t1.blockIdx.x))"
        );
        assert_eq!(
            got[3],
            "(bvule (bvmul t1.b blockDim.x) (bvsub #xffffffff t1.threadIdx.x))"
        );
    }

    /// An extent used twice (`blockIdx.x * blockDim.x * blockDim.x`), a sum that is no radix
    /// (`blockIdx.x + blockIdx.x`), a literal or a parameter: no fact.
    #[test]
    fn terms_the_launch_does_not_bound_have_no_fact() {
        let got = facts(
            31,
            &[
                ("a", "(bvmul (bvmul t1.blockIdx.x blockDim.x) blockDim.x)"),
                ("b", "(bvadd t1.blockIdx.x t1.blockIdx.x)"),
                ("c", "(bvmul t1.blockIdx.x #x00000004)"),
                ("d", "(bvmul t1.blockIdx.x param.n)"),
            ],
        );
        // Only the inner product of `a` fits.
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].contains("t1.blockIdx.x") && got[0].contains("blockDim.x"),
            "{got:?}"
        );
    }

    /// `gridDim.x * blockDim.x` may equal `2^32` in a launch of `2^32` threads (it wraps to 0):
    /// no fact at 32 bits, one at 31.
    #[test]
    fn a_product_of_extents_fits_only_below_the_width() {
        assert!(facts(32, &[("a", "(bvmul gridDim.x blockDim.x)")]).is_empty());
        assert_eq!(facts(31, &[("a", "(bvmul gridDim.x blockDim.x)")]).len(), 1);
    }
}
