//! Trip bounds of abstracted loops (PUG §6.1 normalization): what the loop test says of an
//! arbitrary iteration's count, for a linear or a doubling loop-carried variable that the test
//! compares with a bound the loop does not change ([`Encoder::iteration_bounds`] asks for
//! them). Each is a valid fact of the executions that reach the iteration, so asserting it
//! leaves every such execution in.

use super::{Encoder, TState};
use crate::encode::terms::{and, app, extend, t, to_unsigned};
use crate::ir::query::mentions;
use crate::ir::{AbstractLoop, BinOp, ClosedForm, Expr, Ty, UnOp, VarId};
use crate::solver::Sexp;
use num_bigint::BigInt;
use std::collections::BTreeMap;

impl Encoder<'_> {
    /// The trip bound of `cond`, a conjunct of `l`'s test, when it is `i < ub` / `i <= ub` /
    /// `i > lb` / `i >= lb` with a linear `i`, or `i < ub` / `i <= ub` with a doubling one
    /// ([`Self::doubling_bound`]) ([`Self::iteration_bounds`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn trip_bound(
        &mut self,
        l: &AbstractLoop,
        cond: &Expr,
        closed: &BTreeMap<VarId, ClosedForm>,
        entry: &mut TState,
        prev_it: &Sexp,
        started: &Sexp,
        th: usize,
    ) {
        let Expr::Binary { op, lhs, rhs, .. } = cond else {
            return;
        };
        let strip = |e: &Expr| -> Option<VarId> {
            match e {
                Expr::Var { id, .. } => Some(*id),
                Expr::Cast { arg, ty } if arg.ty() == *ty => match &**arg {
                    Expr::Var { id, .. } => Some(*id),
                    _ => None,
                },
                _ => None,
            }
        };
        let (v, bound, op) = match (strip(lhs), strip(rhs)) {
            (Some(v), _) if closed.contains_key(&v) => (v, &**rhs, *op),
            (_, Some(v)) if closed.contains_key(&v) => {
                let flipped = match op {
                    BinOp::Lt => BinOp::Gt,
                    BinOp::Le => BinOp::Ge,
                    BinOp::Gt => BinOp::Lt,
                    BinOp::Ge => BinOp::Le,
                    _ => return,
                };
                (v, &**lhs, flipped)
            }
            _ => return,
        };
        if mentions(bound, &closed.keys().copied().collect()) {
            return;
        }
        let k = match closed.get(&v) {
            Some(ClosedForm::Linear(k)) => k,
            Some(ClosedForm::Doubling) => {
                self.doubling_bound(l, v, bound, op, entry, prev_it, started, th);
                return;
            }
            _ => return,
        };
        let ty = self.k.var(v).ty;
        let Ty::Int { bits: w, signed } = ty else { return };
        if bound.ty() != ty {
            return;
        }
        let wide = w + 66;
        let ext = |x: Sexp, s: bool| extend(x, w, wide, s);
        let v0 = self.read_var(v, entry, th);
        let i0 = ext(v0, signed);
        let b = self.expr(bound, entry, th);
        let b = ext(b, signed);
        // The step as a mathematical integer: `-k'` when written as a negation.
        let kk = match k {
            Expr::Unary { op: UnOp::Neg, arg, .. } if arg.ty().bits() == w => {
                let a = self.expr(arg, entry, th);
                app("bvneg", vec![ext(a, arg.ty().is_signed())])
            }
            _ => {
                let a = self.expr(k, entry, th);
                if k.ty().bits() != w {
                    return;
                }
                ext(a, k.ty().is_signed())
            }
        };
        let num = |v: BigInt| Sexp::bv(&to_unsigned(&v, wide), wide);
        let (max, min) = if signed {
            ((BigInt::from(1) << (w - 1)) - 1, -(BigInt::from(1) << (w - 1)))
        } else {
            ((BigInt::from(1) << w) - 1, BigInt::from(0))
        };
        let itm1 = extend(prev_it.clone(), 64, wide, false);
        let last = app("bvadd", vec![i0.clone(), app("bvmul", vec![itm1, kk.clone()])]);
        let zero = num(BigInt::from(0));
        // A do-while runs its first step untested: the argument needs the test true on entry.
        let cmp = match op {
            BinOp::Lt => "bvslt",
            BinOp::Le => "bvsle",
            BinOp::Gt => "bvsgt",
            _ => "bvsge",
        };
        let entered = if l.do_while { app(cmp, vec![i0, b.clone()]) } else { t() };
        // Counting up (`<`, `<=`) the step is positive and one step past the last value the test
        // admits must not pass the type's maximum; counting down, the mirror image.
        let (sign, reach_op, limit_cmp, limit) = match op {
            BinOp::Lt | BinOp::Le => ("bvsgt", "bvsub", "bvsle", max),
            BinOp::Gt | BinOp::Ge => ("bvslt", "bvadd", "bvsge", min),
            _ => return,
        };
        let reach = if matches!(op, BinOp::Lt | BinOp::Gt) {
            app(reach_op, vec![b.clone(), num(1.into())])
        } else {
            b.clone()
        };
        let guard = and(
            app(sign, vec![kk.clone(), zero]),
            app(limit_cmp, vec![app("bvadd", vec![reach, kk]), num(limit)]),
        );
        let holds = app(cmp, vec![last, b]);
        self.assert(app("=>", vec![and(and(guard, entered), started.clone()), holds]));
    }

    /// The trip bound of a doubling `v` (`for (s = 1; s < n; s *= 2)`: [`ClosedForm::Doubling`],
    /// `v = v0 << it` in bit-vectors) under the test `v < ub` (`op` `<`) or `v <= ub`: when no
    /// value the test admits can wrap on doubling (`2 * (ub - 1) <= MAX`, `2 * ub <= MAX`),
    /// every value up to iteration `it - 1` is `v0 * 2^j` exactly and passed the test, so from
    /// `v0 >= 1` the count is below the width and `v0 * 2^(it - 1)` (in wide arithmetic)
    /// passes the test. Without it the abstraction's iteration may be one past the wrap
    /// (`s = 2^32 = 0 < n`), which no execution reaches: cuda-samples' `reduce1`, whose
    /// `index = 2 * s * tid` is then 0 for every thread. A valid fact of the executions that
    /// reach iteration `it` (each earlier test passed), so asserting it drops no execution.
    #[allow(clippy::too_many_arguments)]
    fn doubling_bound(
        &mut self,
        l: &AbstractLoop,
        v: VarId,
        bound: &Expr,
        op: BinOp,
        entry: &mut TState,
        prev_it: &Sexp,
        started: &Sexp,
        th: usize,
    ) {
        if l.do_while || !matches!(op, BinOp::Lt | BinOp::Le) {
            return;
        }
        let ty = self.k.var(v).ty;
        let Ty::Int { bits: w, signed } = ty else { return };
        if bound.ty() != ty {
            return;
        }
        let wide = w + 66;
        let num = |v: BigInt| Sexp::bv(&to_unsigned(&v, wide), wide);
        let v0 = self.read_var(v, entry, th);
        let i0 = extend(v0, w, wide, signed);
        let b = self.expr(bound, entry, th);
        let b = extend(b, w, wide, signed);
        let max = if signed {
            (BigInt::from(1) << (w - 1)) - 1
        } else {
            (BigInt::from(1) << w) - 1
        };
        // The largest value the test admits, doubled, stays within the type.
        let admitted = match op {
            BinOp::Lt => app("bvsub", vec![b.clone(), num(1.into())]),
            _ => b.clone(),
        };
        let guard = app("bvsle", vec![app("bvmul", vec![admitted, num(2.into())]), num(max)]);
        let positive = app("bvsge", vec![i0.clone(), num(1.into())]);
        let itm1 = extend(prev_it.clone(), 64, wide, false);
        let small = app("bvule", vec![itm1.clone(), num(BigInt::from(w))]);
        let last = app("bvshl", vec![i0, itm1]);
        let cmp = if op == BinOp::Lt { "bvslt" } else { "bvsle" };
        let holds = and(small, app(cmp, vec![last, b]));
        self.assert(app("=>", vec![and(and(guard, positive), started.clone()), holds]));
    }
}
