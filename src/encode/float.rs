//! Floats in SMT-LIB's FloatingPoint theory, for the concrete model's `--float ieee` (z3 and
//! cvc5 implement it). A float stays a bit-vector of its IEEE 754 bit pattern (binary16,
//! binary32, binary64) everywhere, so memory stays a byte map; each operation converts its
//! operands with `(_ to_fp eb sb)`, computes with `fp.add` … under round-to-nearest-even
//! (CUDA's default), and converts back through a fresh bit-vector `r` with
//! `(= ((_ to_fp eb sb) r) result)` (SMT-LIB has no standard `fp.to_ieee_bv`; for a NaN result
//! any NaN pattern is allowed). Conversions to integers round toward zero, as C does.
//!
//! The pair model and the default concrete model keep floats opaque (uninterpreted), which is
//! what PUG does; this is the extension that lets float kernels be checked.

use super::engine::Encoder;
use super::terms::{app, atom, not};
use crate::ir::Ty;
use crate::solver::{Command, Sexp};

/// (exponent bits, significand bits) of an IEEE 754 format of `bits` bits.
fn format(bits: u32) -> (u32, u32) {
    match bits {
        16 => (5, 11),
        64 => (11, 53),
        _ => (8, 24),
    }
}

fn indexed(op: &str, a: u32, b: Option<u32>) -> Sexp {
    let mut v = vec![atom(op), atom(a.to_string())];
    if let Some(b) = b {
        v.push(atom(b.to_string()));
    }
    app("_", v)
}

fn to_fp(bv: Sexp, bits: u32) -> Sexp {
    let (e, s) = format(bits);
    Sexp::list(vec![indexed("to_fp", e, Some(s)), bv])
}

impl Encoder<'_> {
    /// Whether any FloatingPoint term was emitted (then the logic must allow it).
    pub(super) fn float_used(&self) -> bool {
        self.fp_used
    }

    /// The IEEE bit pattern of the float `fp` of `bits` bits, as a fresh bit-vector.
    fn fp_bits(&mut self, fp: Sexp, bits: u32) -> Sexp {
        let name = self.fresh_name("fp.bits");
        let r = self.declare(&name, Sexp::bv_sort(bits));
        self.cmds
            .push(Command::Assert(app("=", vec![to_fp(r.clone(), bits), fp])));
        r
    }

    /// An opaque float operation of the front end (`fadd32`, `flt32`, `sqrtf`, …) in the
    /// FloatingPoint theory; `None` for operations not modelled (they stay uninterpreted).
    pub(super) fn ieee_opaque(&mut self, name: &str, args: &[Sexp], tys: &[Ty], ty: Ty) -> Option<Sexp> {
        let bits = match tys.first() {
            Some(Ty::Float { bits }) => *bits,
            _ => return None,
        };
        let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let fp: Vec<Sexp> = args.iter().map(|a| to_fp(a.clone(), bits)).collect();
        let rne = atom("RNE");
        let arith = |op: &str| {
            let mut v = vec![rne.clone()];
            v.extend(fp.iter().cloned());
            app(op, v)
        };
        let result = match (base, fp.len()) {
            ("fadd", 2) => arith("fp.add"),
            ("fsub", 2) => arith("fp.sub"),
            ("fmul", 2) => arith("fp.mul"),
            ("fdiv", 2) => arith("fp.div"),
            ("sqrtf" | "sqrt" | "__fsqrt_rn", 1) => arith("fp.sqrt"),
            ("fneg", 1) => app("fp.neg", fp.clone()),
            ("fabsf" | "fabs", 1) => app("fp.abs", fp.clone()),
            ("fminf" | "fmin", 2) => app("fp.min", fp.clone()),
            ("fmaxf" | "fmax", 2) => app("fp.max", fp.clone()),
            ("flt", 2) => return Some(app("fp.lt", fp)),
            ("fle", 2) => return Some(app("fp.leq", fp)),
            ("fgt", 2) => return Some(app("fp.gt", fp)),
            ("fge", 2) => return Some(app("fp.geq", fp)),
            ("feq", 2) => return Some(app("fp.eq", fp)),
            ("fne", 2) => return Some(not(app("fp.eq", fp))),
            _ => return None,
        };
        self.fp_used = true;
        let out_bits = match ty {
            Ty::Float { bits } => bits,
            _ => return None,
        };
        Some(self.fp_bits(result, out_bits))
    }

    /// A conversion to or from a float in the FloatingPoint theory.
    pub(super) fn ieee_cast(&mut self, a: Sexp, from: Ty, to: Ty) -> Option<Sexp> {
        self.fp_used = true;
        match (from, to) {
            (Ty::Int { signed, .. }, Ty::Float { bits }) => {
                let (e, s) = format(bits);
                let op = if signed { "to_fp" } else { "to_fp_unsigned" };
                let fp = Sexp::list(vec![indexed(op, e, Some(s)), atom("RNE"), a]);
                Some(self.fp_bits(fp, bits))
            }
            (Ty::Float { bits }, Ty::Int { bits: ib, signed }) => {
                let op = if signed { "fp.to_sbv" } else { "fp.to_ubv" };
                Some(Sexp::list(vec![indexed(op, ib, None), atom("RTZ"), to_fp(a, bits)]))
            }
            (Ty::Float { bits: fb }, Ty::Float { bits: tb }) => {
                let (e, s) = format(tb);
                let fp = Sexp::list(vec![indexed("to_fp", e, Some(s)), atom("RNE"), to_fp(a, fb)]);
                Some(self.fp_bits(fp, tb))
            }
            (Ty::Float { bits }, Ty::Bool) => Some(not(app("fp.isZero", vec![to_fp(a, bits)]))),
            _ => None,
        }
    }
}
