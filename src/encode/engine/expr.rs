//! Expressions as terms for one thread: constants, variables, builtins (pinned in the concrete
//! model), unary and binary operators over bit-vectors, casts and conversions, opaque calls
//! (uninterpreted functions, or IEEE floats through `super::super::float`), PUG's `+O`
//! side conditions, and whether the thread is enabled (`__enabled()`: its path condition). The
//! other thread's values (`__other_int`) are `super::relational`'s.
//!
//! Does not touch memory: loads and stores are statements (`stmt`, `memory`).

use super::{Encoder, TState};
use crate::encode::terms::{app, atom, bit_op, bvn, extend, f, not, t, to_unsigned};
use crate::ir::{BinOp, Builtin, Expr, Ty, UnOp};
use crate::solver::Sexp;
use num_bigint::Sign;

impl Encoder<'_> {
    /// The term of `e` for thread `th` in state `st`.
    pub(in crate::encode) fn expr(&mut self, e: &Expr, st: &mut TState, th: usize) -> Sexp {
        match e {
            Expr::Const { value, ty } => match ty {
                Ty::Bool => {
                    if value.sign() == Sign::NoSign {
                        f()
                    } else {
                        t()
                    }
                }
                Ty::Int { bits, .. } | Ty::Float { bits } => Sexp::bv(&to_unsigned(value, *bits), *bits),
            },
            Expr::Var { id, ty } => {
                let v = self.read_var(*id, st, th);
                self.guard_peer_value(v, *ty)
            }
            Expr::Builtin(b) => match (self.concrete.pinned.get(th), b) {
                // A barrier invariant evaluated at another thread (`invariants`).
                _ if let Some(v) = self.invariant_builtin(*b, th) => v,
                (Some((blk, _)), Builtin::BlockIdx(d)) => bvn(blk[d.index()], 32),
                (Some((_, thr)), Builtin::ThreadIdx(d)) => bvn(thr[d.index()], 32),
                (Some(_), Builtin::BlockDim(d)) if self.g.block_dim[d.index()].is_some() => {
                    bvn(self.g.block_dim[d.index()].unwrap_or(1) as u64, 32)
                }
                (Some(_), Builtin::GridDim(d)) if self.g.grid_dim[d.index()].is_some() => {
                    bvn(self.g.grid_dim[d.index()].unwrap_or(1) as u64, 32)
                }
                _ => atom(Self::builtin_name(*b, th)),
            },
            Expr::Unary { op, arg, ty } => {
                let a = self.expr(arg, st, th);
                if matches!(ty, Ty::Float { .. }) {
                    self.has_opaque_float = true;
                    let name = self.uf(&format!("f{op:?}"), &[arg.ty()], *ty);
                    return app(&name, vec![a]);
                }
                match (op, ty) {
                    (UnOp::Not, _) | (UnOp::BitNot, Ty::Bool) => not(a),
                    (UnOp::Neg, _) => app("bvneg", vec![a]),
                    (UnOp::BitNot, _) => app("bvnot", vec![a]),
                    (UnOp::Clz | UnOp::Ffs | UnOp::Popc | UnOp::Brev, _) => {
                        // The operand is named once: each bit of it is read.
                        let w = ty.bits();
                        let x = self.define(&format!("t{}.bits", th + 1), Sexp::bv_sort(w), a);
                        bit_op(*op, &x, w).unwrap_or(x)
                    }
                }
            }
            Expr::Binary { op, lhs, rhs, ty } => self.binary(*op, lhs, rhs, *ty, st, th),
            Expr::Cast { arg, ty } => {
                let from = arg.ty();
                let a = self.expr(arg, st, th);
                if self.no_overflow
                    && let Some(ok) = value_preserved(&a, from, *ty)
                {
                    self.assume_no_wrap(st, th, ok);
                } else if (!self.signed_no_overflow.is_empty() || self.signed_facts.is_some())
                    && let Some(i) = self.k.signed_cast(arg, *ty)
                    && let Some(ok) = value_preserved(&a, from, *ty)
                {
                    // A narrowing conversion of the source: assumed, like an unsigned index
                    // wrap, never checked (its result is defined).
                    self.signed_condition(i, ok, false, st, th);
                }
                self.cast(a, from, *ty)
            }
            Expr::Select { cond, then, els, .. } => {
                let c = self.expr(cond, st, th);
                // Each arm is evaluated only where it is chosen (C's `?:`): a signed operation
                // in it overflows, or is assumed not to, only there.
                self.evaluated_if.push(c.clone());
                let a = self.expr(then, st, th);
                self.evaluated_if.pop();
                self.evaluated_if.push(not(c.clone()));
                let b = self.expr(els, st, th);
                self.evaluated_if.pop();
                app("ite", vec![c, a, b])
            }
            Expr::Opaque { name, args, ty } => {
                // A call without a body: what depends on its value is possible, not certain.
                if self.k.uninterpreted.contains(name) {
                    self.rests_on(format!("the result of `{name}`, a call without a body"));
                }
                let tys: Vec<Ty> = args.iter().map(Expr::ty).collect();
                let vals: Vec<Sexp> = args.iter().map(|a| self.expr(a, st, th)).collect();
                if self.concrete.float_ieee
                    && let Some(v) = self.ieee_opaque(name, &vals, &tys, *ty)
                {
                    return v;
                }
                self.has_opaque_float |= tys.iter().chain([ty]).any(|t| matches!(t, Ty::Float { .. }));
                let fname = self.uf(name, &tys, *ty);
                if vals.is_empty() {
                    atom(fname)
                } else {
                    app(&fname, vals)
                }
            }
            Expr::Other(arg) => self.other_value(arg, th),
            Expr::Enabled => st.pc.clone(),
        }
    }

    /// The value `a` of type `from` converted to `to` (C conversions; floats opaque unless IEEE).
    pub(in crate::encode) fn cast(&mut self, a: Sexp, from: Ty, to: Ty) -> Sexp {
        match (from, to) {
            (x, y) if x == y => a,
            (Ty::Bool, Ty::Int { bits, .. }) => app("ite", vec![a, bvn(1, bits), bvn(0, bits)]),
            (Ty::Int { bits, .. }, Ty::Bool) => not(app("=", vec![a, bvn(0, bits)])),
            (Ty::Int { bits: fb, signed }, Ty::Int { bits: tb, .. }) => extend(a, fb, tb, signed),
            (Ty::Bool, Ty::Float { .. }) => {
                let i = self.cast(a, Ty::Bool, Ty::I32);
                self.cast(i, Ty::I32, to)
            }
            _ => {
                if self.concrete.float_ieee
                    && let Some(v) = self.ieee_cast(a.clone(), from, to)
                {
                    return v;
                }
                // Conversions to or from floats: uninterpreted.
                self.has_opaque_float = true;
                let name = self.uf("cast", &[from], to);
                app(&name, vec![a])
            }
        }
    }

    /// The term of `lhs op rhs` of result type `ty` for thread `th`.
    pub(in crate::encode) fn binary(
        &mut self,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        ty: Ty,
        st: &mut TState,
        th: usize,
    ) -> Sexp {
        let lt = lhs.ty();
        let a = self.expr(lhs, st, th);
        // `&&` and `||` evaluate their right operand only when the left one does not decide
        // (C's short circuit): see `signed_op`.
        let short = match (op, lt) {
            (BinOp::LAnd, Ty::Bool) => Some(a.clone()),
            (BinOp::LOr, Ty::Bool) => Some(not(a.clone())),
            (BinOp::LAnd, Ty::Int { bits, .. }) => Some(not(app("=", vec![a.clone(), bvn(0, bits)]))),
            (BinOp::LOr, Ty::Int { bits, .. }) => Some(app("=", vec![a.clone(), bvn(0, bits)])),
            _ => None,
        };
        let guarded = short.is_some();
        self.evaluated_if.extend(short);
        let mut b = self.expr(rhs, st, th);
        if guarded {
            self.evaluated_if.pop();
        }
        if matches!(lt, Ty::Float { .. }) || matches!(ty, Ty::Float { .. }) {
            self.has_opaque_float = true;
            if matches!(op, BinOp::Eq) {
                // Equal bit patterns are equal floats except NaN; keep it opaque but consistent.
            }
            let name = self.uf(&format!("f{op:?}"), &[lt, rhs.ty()], ty);
            return app(&name, vec![a, b]);
        }
        let signed = lt.is_signed();
        if lt == Ty::Bool {
            return match op {
                BinOp::Eq => app("=", vec![a, b]),
                BinOp::Ne => not(app("=", vec![a, b])),
                BinOp::LAnd | BinOp::BitAnd => app("and", vec![a, b]),
                BinOp::LOr | BinOp::BitOr => app("or", vec![a, b]),
                BinOp::BitXor => app("xor", vec![a, b]),
                _ => {
                    // Arithmetic on bools: go through int.
                    let ai = self.cast(a, Ty::Bool, Ty::I32);
                    let bi = self.cast(b, Ty::Bool, Ty::I32);
                    let r = self.int_binary(op, ai, bi, Ty::I32, true);
                    if ty == Ty::Bool && !op.is_comparison() {
                        self.cast(r, Ty::I32, Ty::Bool)
                    } else {
                        r
                    }
                }
            };
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let rt = rhs.ty();
            b = match rt {
                Ty::Int { bits, signed: s } => extend(b, bits, lt.bits(), s),
                Ty::Bool => self.cast(b, Ty::Bool, lt),
                Ty::Float { .. } => b,
            };
        }
        if matches!(op, BinOp::LAnd | BinOp::LOr) {
            // On integers (should not happen after clang's conversions): compare with zero.
            let w = lt.bits();
            let az = not(app("=", vec![a, bvn(0, w)]));
            let bz = not(app("=", vec![b, bvn(0, rhs.ty().bits())]));
            return app(if op == BinOp::LAnd { "and" } else { "or" }, vec![az, bz]);
        }
        if self.no_overflow && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
            let ok = no_overflow(op, &a, &b, lt.bits(), signed);
            self.assume_no_wrap(st, th, ok);
        } else if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul)
            && (self.check_overflow || !self.signed_no_overflow.is_empty() || self.signed_facts.is_some())
            && let Some(i) = self.k.signed_op(op, lhs, rhs, ty)
        {
            self.signed_op(i, op, (&a, &b), (lt.bits(), signed), st, th);
        }
        self.int_binary(op, a, b, lt, signed)
    }

    /// The source-level signed operation `kernel.signed_ops[i]`, `a op b` of `bits` bits,
    /// evaluated by thread `th`: under `--check-overflow`, where the checked thread (thread 1
    /// in the pair model, whose threads are symmetric) evaluates it on its path, the
    /// condition that it overflows there joins the operation's check; under the contracts'
    /// signed assumption, that it does not overflow is asserted where the thread evaluates it
    /// ([`Encoder::assume_no_wrap`]), after the check is taken (the check of an operation
    /// assumed not to overflow is then unsatisfiable, which the contracts know).
    ///
    /// Where the enclosing expression evaluates it only under conditions (an arm of `?:`, the
    /// right operand of `&&`, `||`: [`Encoder::evaluated_if`]), both are conditioned on them:
    /// an operation C does not evaluate has no overflow.
    ///
    /// An unsigned index operation (`signed` false, [`crate::ir::is_index_arith`]) is only
    /// assumed not to wrap under the assumption, never checked: its wrap is defined.
    fn signed_op(
        &mut self,
        i: usize,
        op: BinOp,
        (a, b): (&Sexp, &Sexp),
        (bits, signed): (u32, bool),
        st: &mut TState,
        th: usize,
    ) {
        self.signed_condition(i, no_overflow(op, a, b, bits, signed), signed, st, th);
    }

    /// The operation `kernel.signed_ops[i]` evaluated by thread `th`, with `ok` the condition
    /// that it keeps its value (no overflow, no wrap, a conversion's value fits): checked under
    /// `--check-overflow` when `signed` (undefined behaviour), recorded as a fact of the
    /// signed probe, and assumed under the contracts' signed assumption ([`Encoder::signed_op`]).
    fn signed_condition(&mut self, i: usize, ok: Sexp, signed: bool, st: &mut TState, th: usize) {
        let mut ok = super::fold::fold(&ok);
        if ok == t() {
            return;
        }
        if let Some(when) = self.evaluated_if.iter().cloned().reduce(crate::encode::terms::and) {
            ok = app("=>", vec![when, ok]);
        }
        let checked = th < self.model.checked_threads(self.n);
        if self.check_overflow && self.on_trace && checked && signed {
            let reach = self.reach(st, th);
            let fail = crate::encode::terms::and(reach, not(ok.clone()));
            let fail = self.define(&format!("t{}.overflows", th + 1), atom("Bool"), fail);
            let abstracted = self.abstractions.len();
            let entry = self.overflow_fails.entry(i).or_default();
            entry.0.push(fail);
            entry.1 = entry.1.max(abstracted);
        }
        if let Some((facts, seen)) = &mut self.signed_facts {
            // The fact `assume_no_wrap` would add under the assumption, where the thread is.
            let here = match st.assumed == t() {
                true => st.pc.clone(),
                false => crate::encode::terms::and(st.pc.clone(), st.assumed.clone()),
            };
            let fact = super::fold::fold(&app("=>", vec![here, ok.clone()]));
            if fact != t() && seen.insert(fact.clone()) {
                facts.push(fact);
            }
            if facts.len() > super::MAX_SIGNED_FACTS {
                self.signed_facts = None;
            }
        }
        if self.signed_no_overflow.contains(&i) {
            self.assume_no_wrap(st, th, ok);
        }
    }

    /// `a op b` on bit-vectors, signed or unsigned.
    pub(in crate::encode) fn int_binary(&mut self, op: BinOp, a: Sexp, b: Sexp, _lt: Ty, signed: bool) -> Sexp {
        let s = |x: &'static str, y: &'static str| if signed { x } else { y };
        let name = match op {
            BinOp::Add => "bvadd",
            BinOp::Sub => "bvsub",
            BinOp::Mul => "bvmul",
            BinOp::Div => s("bvsdiv", "bvudiv"),
            BinOp::Rem => s("bvsrem", "bvurem"),
            BinOp::Shl => "bvshl",
            BinOp::Shr => s("bvashr", "bvlshr"),
            BinOp::BitAnd => "bvand",
            BinOp::BitOr => "bvor",
            BinOp::BitXor => "bvxor",
            BinOp::Eq => "=",
            BinOp::Ne => return not(app("=", vec![a, b])),
            BinOp::Lt => s("bvslt", "bvult"),
            BinOp::Le => s("bvsle", "bvule"),
            BinOp::Gt => s("bvsgt", "bvugt"),
            BinOp::Ge => s("bvsge", "bvuge"),
            BinOp::LAnd => "and",
            BinOp::LOr => "or",
        };
        app(name, vec![a, b])
    }

    /// Converts between the access type and the variable's type when they differ (a load of
    /// an `int` into an `unsigned` temporary has the same bits).
    pub(in crate::encode) fn coerce(&mut self, v: Sexp, from: Ty, to: Ty) -> Sexp {
        if from == to || (from.bits() == to.bits() && from != Ty::Bool && to != Ty::Bool) {
            v
        } else {
            self.cast(v, from, to)
        }
    }

    /// Converts an integer term between widths by the source's signedness.
    pub(in crate::encode) fn coerce_int(&mut self, v: Sexp, from: Ty, to: Ty) -> Sexp {
        match (from, to) {
            (Ty::Int { bits: fb, signed }, Ty::Int { bits: tb, .. }) => extend(v, fb, tb, signed),
            _ => self.coerce(v, from, to),
        }
    }
}

/// Under `--no-overflow` (PUG's `+O`, "no wrap-around"): the condition that converting the
/// integer `a` of type `from` to the integer type `to` keeps its value (C 6.3.1.3), or `None`
/// when every value is kept (a widening, or no integer conversion). An unsigned value above
/// `INT_MAX` stored into an `int` changes value; so does a negative one stored into an
/// `unsigned`, and a narrowing of a value that does not fit.
pub(in crate::encode) fn value_preserved(a: &Sexp, from: Ty, to: Ty) -> Option<Sexp> {
    let (Ty::Int { bits: fb, signed: fs }, Ty::Int { bits: tb, signed: ts }) = (from, to) else {
        return None;
    };
    let fits = |hi: u32| -> Sexp {
        // `a` (unsigned view) below 2^hi.
        if hi >= fb {
            return t();
        }
        app(
            "bvult",
            vec![a.clone(), Sexp::bv(&(num_bigint::BigUint::from(1u8) << hi), fb)],
        )
    };
    let non_negative = || app("bvsge", vec![a.clone(), bvn(0, fb)]);
    let ok = match (fs, ts) {
        // Unsigned to unsigned: fits in `tb` bits.
        (false, false) => fits(tb),
        // Unsigned to signed: below 2^(tb-1).
        (false, true) => fits(tb - 1),
        // Signed to unsigned: not negative, and fits in `tb` bits.
        (true, false) => {
            if tb >= fb {
                non_negative()
            } else {
                app("and", vec![non_negative(), fits(tb)])
            }
        }
        // Signed to signed: within [-2^(tb-1), 2^(tb-1)).
        (true, true) => {
            if tb >= fb {
                return None;
            }
            let half = num_bigint::BigUint::from(1u8) << (tb - 1);
            let lo = (num_bigint::BigUint::from(1u8) << fb) - &half;
            app(
                "and",
                vec![
                    app("bvsge", vec![a.clone(), Sexp::bv(&lo, fb)]),
                    app("bvslt", vec![a.clone(), Sexp::bv(&half, fb)]),
                ],
            )
        }
    };
    (ok != t()).then_some(ok)
}

/// The `op` of two `bits`-wide operands does not overflow (signed or unsigned). Unsigned `+`
/// and `-`: redone in twice the width, the result fits back (z3 reads that as a carry-out).
/// Signed ones in the operands' own width, without cvc5 bit-blasting a double-width adder:
/// `a + b` when the operands' signs differ or the sum keeps `a`'s sign, `a - b` when the
/// signs agree or the difference keeps `a`'s sign (Hacker's Delight, §2-13). A product:
/// [`mul_no_overflow`]'s shape, which the relaxation recognizes (`nl.nowrap…`).
///
/// [`mul_no_overflow`]: crate::encode::nonlinear::mul_no_overflow
pub(in crate::encode) fn no_overflow(op: BinOp, a: &Sexp, b: &Sexp, bits: u32, signed: bool) -> Sexp {
    let name = match op {
        BinOp::Add => "bvadd",
        BinOp::Sub => "bvsub",
        _ => return crate::encode::nonlinear::mul_no_overflow(a, b, bits, signed),
    };
    if signed {
        let negative = |x: Sexp| app("bvslt", vec![x, bvn(0, bits)]);
        let same_sign = app("=", vec![negative(a.clone()), negative(b.clone())]);
        let keeps = app(
            "=",
            vec![negative(app(name, vec![a.clone(), b.clone()])), negative(a.clone())],
        );
        // Add: signs agree ⇒ the sum keeps a's sign. Sub: signs differ ⇒ the difference does.
        let premise = if op == BinOp::Add { same_sign } else { not(same_sign) };
        return app("=>", vec![premise, keeps]);
    }
    let wide = 2 * bits;
    let exact = app(
        name,
        vec![
            extend(a.clone(), bits, wide, false),
            extend(b.clone(), bits, wide, false),
        ],
    );
    let narrow = extend(exact.clone(), wide, bits, false);
    app("=", vec![extend(narrow, bits, wide, false), exact])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::tests::z3_says;

    /// The same-width no-overflow conditions of `+` and `-` are the double-width definition
    /// (the result, redone in twice the width, fits back): z3 finds no pair of 6-bit operands
    /// where they differ, signed or unsigned.
    #[test]
    fn add_and_sub_no_overflow_match_the_double_width_definition() {
        let (a, b) = (atom("a"), atom("b"));
        for signed in [false, true] {
            for (op, name) in [(BinOp::Add, "bvadd"), (BinOp::Sub, "bvsub")] {
                let ext = if signed { "sign_extend" } else { "zero_extend" };
                let wide = format!("({name} ((_ {ext} 6) a) ((_ {ext} 6) b))");
                let exact = format!("(= ((_ {ext} 6) ((_ extract 5 0) {wide})) {wide})");
                let ours = no_overflow(op, &a, &b, 6, signed);
                let text = format!(
                    "(set-logic QF_BV)\n(declare-const a (_ BitVec 6))\n(declare-const b (_ BitVec 6))\n\
                     (assert (not (= {ours} {exact})))\n(check-sat)\n"
                );
                assert_eq!(z3_says(&text), "unsat", "{name} signed={signed}\n{text}");
            }
        }
    }
}
