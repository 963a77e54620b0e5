//! Shared term building for every thread model: SMT-LIB2 atoms and applications, Boolean
//! connectives that simplify `true` and `false` away, bit-vector literals, sorts, widening and
//! narrowing, symbols made from source names, and the per-thread symbols of builtins.
//!
//! Owns how a term is spelled. Does not know statements, thread state or memory models (the
//! models `pair` and `concrete` do), nor run a solver.

use crate::ir::{Builtin, Ty, UnOp};
use crate::solver::Sexp;
use num_bigint::{BigInt, BigUint};

/// The SMT symbol of a builtin for thread `thread` (0-based): `t1.threadIdx.x`, …; geometry
/// symbols (`blockDim.x`, `gridDim.x`, `warpSize`) are shared by all threads.
pub fn thread_symbol(b: Builtin, thread: usize) -> String {
    let d = |d: crate::ir::Dim| ["x", "y", "z"][d.index()];
    match b {
        Builtin::ThreadIdx(x) => format!("t{}.threadIdx.{}", thread + 1, d(x)),
        Builtin::BlockIdx(x) => format!("t{}.blockIdx.{}", thread + 1, d(x)),
        Builtin::BlockDim(x) => format!("blockDim.{}", d(x)),
        Builtin::GridDim(x) => format!("gridDim.{}", d(x)),
        Builtin::WarpSize => "warpSize".into(),
    }
}

/// An atom: a symbol or a literal.
pub(super) fn atom(s: impl Into<compact_str::CompactString>) -> Sexp {
    Sexp::atom(s)
}

/// The application `(op args…)`.
pub(super) fn app(op: &str, args: Vec<Sexp>) -> Sexp {
    Sexp::app(op, args)
}

/// `true`.
pub(super) fn t() -> Sexp {
    atom("true")
}

/// `false`.
pub(super) fn f() -> Sexp {
    atom("false")
}

/// `a ∧ b`, with `true` and `false` operands simplified away.
pub(super) fn and(a: Sexp, b: Sexp) -> Sexp {
    if a == t() {
        return b;
    }
    if b == t() {
        return a;
    }
    if a == f() || b == f() {
        return f();
    }
    app("and", vec![a, b])
}

/// `a ∨ b`, with `true` and `false` operands simplified away.
pub(super) fn or(a: Sexp, b: Sexp) -> Sexp {
    if a == t() || b == t() {
        return t();
    }
    if a == f() {
        return b;
    }
    if b == f() {
        return a;
    }
    app("or", vec![a, b])
}

/// `¬a`, with `true` and `false` negated in place.
pub(super) fn not(a: Sexp) -> Sexp {
    if a == t() {
        f()
    } else if a == f() {
        t()
    } else {
        app("not", vec![a])
    }
}

/// `(= x y)`, or `true` when they are the same term.
pub(super) fn equal(x: &Sexp, y: &Sexp) -> Sexp {
    if x == y {
        t()
    } else {
        app("=", vec![x.clone(), y.clone()])
    }
}

/// The bit-vector literal `v` of width `w`.
pub(super) fn bvn(v: u64, w: u32) -> Sexp {
    Sexp::bv(&BigUint::from(v), w)
}

/// The sort of a byte map: `(Array (_ BitVec 64) (_ BitVec 8))`.
pub(super) fn mem_sort() -> Sexp {
    app("Array", vec![Sexp::bv_sort(64), Sexp::bv_sort(8)])
}

/// The sort of a value of type `ty` (floats are their bit patterns).
pub(super) fn sort_of(ty: Ty) -> Sexp {
    match ty {
        Ty::Bool => atom("Bool"),
        Ty::Int { bits, .. } | Ty::Float { bits } => Sexp::bv_sort(bits),
    }
}

/// A symbol made from a source name: letters, digits and `_` kept, others become `_`.
pub(super) fn sym(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect()
}

/// `term` from `from` to `to` bits: sign- or zero-extended, or its low bits kept.
pub(super) fn extend(term: Sexp, from: u32, to: u32, signed: bool) -> Sexp {
    if from == to {
        term
    } else if from < to {
        let op = if signed { "sign_extend" } else { "zero_extend" };
        Sexp::list(vec![app("_", vec![atom(op), atom((to - from).to_string())]), term])
    } else {
        Sexp::list(vec![
            app("_", vec![atom("extract"), atom((to - 1).to_string()), atom("0")]),
            term,
        ])
    }
}

/// A type as a short tag in symbol names: `b`, `i32`, `u8`, `f32`.
pub(super) fn ty_tag(t: Ty) -> String {
    match t {
        Ty::Bool => "b".into(),
        Ty::Int { bits, signed } => format!("{}{}", if signed { "i" } else { "u" }, bits),
        Ty::Float { bits } => format!("f{bits}"),
    }
}

/// `value` as an unsigned number of `bits` bits (two's complement for negatives).
pub(crate) fn to_unsigned(value: &BigInt, bits: u32) -> BigUint {
    let m = BigInt::from(1u8) << bits;
    let r = ((value % &m) + &m) % &m;
    r.to_biguint().unwrap_or_default()
}

/// `op` (`Clz`, `Ffs`, `Popc` or `Brev`) of the `w`-bit term `x`, exact, as a term of `w` bits;
/// `x` should be a symbol, as it is repeated once per bit. `None` for other operators.
pub(super) fn bit_op(op: UnOp, x: &Sexp, w: u32) -> Option<Sexp> {
    let bit = |i: u32| {
        Sexp::list(vec![
            app("_", vec![atom("extract"), atom(i.to_string()), atom(i.to_string())]),
            x.clone(),
        ])
    };
    let set = |i: u32| app("=", vec![bit(i), bvn(1, 1)]);
    let r = match op {
        // The highest set bit decides: it is tested last, so outermost.
        UnOp::Clz => (0..w).fold(bvn(w as u64, w), |r, i| {
            app("ite", vec![set(i), bvn((w - 1 - i) as u64, w), r])
        }),
        // The lowest set bit decides.
        UnOp::Ffs => (0..w)
            .rev()
            .fold(bvn(0, w), |r, i| app("ite", vec![set(i), bvn(i as u64 + 1, w), r])),
        // A balanced sum in as few bits as the count needs, then widened.
        UnOp::Popc => {
            let n = 32 - w.leading_zeros();
            let mut terms: Vec<Sexp> = (0..w).map(|i| extend(bit(i), 1, n, false)).collect();
            while terms.len() > 1 {
                let mut next = Vec::new();
                for pair in terms.chunks(2) {
                    next.push(match pair {
                        [a, b] => app("bvadd", vec![a.clone(), b.clone()]),
                        [a] => a.clone(),
                        _ => continue,
                    });
                }
                terms = next;
            }
            extend(terms.pop()?, n, w, false)
        }
        // Bit 0 becomes the most significant.
        UnOp::Brev => (0..w).map(bit).reduce(|hi, lo| app("concat", vec![hi, lo]))?,
        UnOp::Neg | UnOp::BitNot | UnOp::Not => return None,
    };
    Some(r)
}
