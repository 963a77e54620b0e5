//! Trip bounds of abstracted loops (PUG §6.1 normalization): what the loop test says of an
//! arbitrary iteration's count, for a linear or a doubling loop-carried variable that the test
//! compares with a bound the loop does not change ([`Encoder::iteration_bounds`] asks for
//! them). Each is a valid fact of the executions that reach the iteration, so asserting it
//! leaves every such execution in. From the bounds of counters counting up, the lemmas of
//! [`Encoder::stride_lemmas`] (monotone from the start; injective in start and count for a
//! shared stride above the starts: the grid-stride loop), valid facts of the same executions.

use super::{Encoder, TState};
use crate::encode::terms::{and, app, bvn, extend, t, to_unsigned};
use crate::ir::query::mentions;
use crate::ir::{AbstractLoop, BinOp, ClosedForm, Expr, Ty, UnOp, VarId};
use crate::solver::Sexp;
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// A linear loop-carried variable counting up (`for (i = i0; i < n; i += s)`) whose trip bound
/// [`Encoder::trip_bound`] asserted for one thread's count: what [`Encoder::stride_lemmas`]
/// rests on.
#[derive(Clone, Debug)]
pub(in crate::encode) struct Stride {
    /// The variable.
    v: VarId,
    /// Its value on entry (the variable's width).
    v0: Sexp,
    /// The step as written (the variable's width), read as the type of the step says.
    step: Sexp,
    /// The trip bound's premise: the step is positive, one step past the largest value the
    /// test admits stays within the type (and a do-while's test held on entry).
    premise: Sexp,
    /// Whether the variable is signed.
    signed: bool,
    /// The variable's width in bits.
    width: u32,
}

/// A [`Stride`] of one thread's count of an abstracted loop.
#[derive(Clone, Debug)]
pub(in crate::encode) struct StrideAt {
    /// The loop (its address in the kernel; the lemmas are made when its encoding ends).
    pub(super) key: usize,
    /// The thread.
    pub(super) th: usize,
    /// The count (an iteration's or the exit's, BV64).
    pub(super) count: Sexp,
    pub(super) stride: Stride,
}

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
    ) -> Option<Stride> {
        let Expr::Binary { op, lhs, rhs, .. } = cond else {
            return None;
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
                    _ => return None,
                };
                (v, &**lhs, flipped)
            }
            _ => return None,
        };
        if mentions(bound, &closed.keys().copied().collect()) {
            return None;
        }
        let k = match closed.get(&v) {
            Some(ClosedForm::Linear(k)) => k,
            Some(ClosedForm::Doubling) => {
                self.doubling_bound(l, v, bound, op, entry, prev_it, started, th);
                return None;
            }
            _ => return None,
        };
        let ty = self.k.var(v).ty;
        let Ty::Int { bits: w, signed } = ty else { return None };
        if bound.ty() != ty {
            return None;
        }
        let wide = w + 66;
        let ext = |x: Sexp, s: bool| extend(x, w, wide, s);
        let v0 = self.read_var(v, entry, th);
        let i0 = ext(v0.clone(), signed);
        let b = self.expr(bound, entry, th);
        let b = ext(b, signed);
        // The step as a mathematical integer (`-k'` when written as a negation), and as
        // written when it is not a negation (`stride_lemmas` reads it).
        let (kk, step) = match k {
            Expr::Unary { op: UnOp::Neg, arg, .. } if arg.ty().bits() == w => {
                let a = self.expr(arg, entry, th);
                (app("bvneg", vec![ext(a, arg.ty().is_signed())]), None)
            }
            _ => {
                let a = self.expr(k, entry, th);
                if k.ty().bits() != w {
                    return None;
                }
                (ext(a.clone(), k.ty().is_signed()), Some(a))
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
            _ => return None,
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
        let premise = and(guard, entered);
        self.assert(app("=>", vec![and(premise.clone(), started.clone()), holds]));
        // Counting up by a step written as it is: the lemmas of `stride_lemmas` rest on this.
        let step = match op {
            BinOp::Lt | BinOp::Le => step?,
            _ => return None,
        };
        Some(Stride {
            v,
            v0,
            step,
            premise,
            signed,
            width: w,
        })
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

impl Encoder<'_> {
    /// Valid lemmas of `l`'s linear variables counting up, from the trip bounds asserted for
    /// each thread's counts (`self.strides`), made when `l`'s encoding ends with the values at
    /// those counts (`instances`, per thread: count and state). Under a bound's premise, the
    /// value at a count `c` is `v0 + c*s` exactly (no wrap: the test held at `c - 1`, and one
    /// step past the largest value it admits stays within the type), so
    /// - each thread's value is at least its entry value `v0`;
    /// - two threads' values (pair model) with one step `s` written alike (a uniform stride:
    ///   `blockDim.x * gridDim.x`) and entry values in `[0, s)` are equal only at equal entry
    ///   values and counts (the grid-stride loop's injectivity: `v0 + c*s` with `v0 < s` is a
    ///   mixed-radix number).
    ///
    /// They spare the solver the search for the carries of the products `c*s` (a symbolic stride:
    /// llm.c's `layernorm_backward_kernel3`, whose race query on `dinp` yices decided in 57 s
    /// without them and in about 1 s with them).
    pub(super) fn stride_lemmas(&mut self, l: &AbstractLoop, instances: &[Vec<(Sexp, TState)>]) {
        let key = l as *const AbstractLoop as usize;
        let (mine, rest): (Vec<StrideAt>, Vec<StrideAt>) = std::mem::take(&mut self.strides)
            .into_iter()
            .partition(|s| s.key == key);
        self.strides = rest;
        // Each with the value at its count.
        let mut at = Vec::new();
        for s in mine {
            let Some((_, state)) = instances.get(s.th).and_then(|i| i.iter().find(|(c, _)| *c == s.count)) else {
                continue;
            };
            let value = self.read_var(s.stride.v, &mut state.clone(), s.th);
            if value != s.stride.v0 {
                let ge = if s.stride.signed { "bvsge" } else { "bvuge" };
                let lemma = app(ge, vec![value.clone(), s.stride.v0.clone()]);
                self.assert(app("=>", vec![s.stride.premise.clone(), lemma]));
            }
            at.push((s, value));
        }
        if !self.model.pair() {
            return;
        }
        let below = |s: &Stride| {
            let zero = bvn(0, s.width);
            if s.signed {
                and(
                    app("bvsle", vec![zero, s.v0.clone()]),
                    app("bvslt", vec![s.v0.clone(), s.step.clone()]),
                )
            } else {
                app("bvult", vec![s.v0.clone(), s.step.clone()])
            }
        };
        for (a, va) in at.iter().filter(|(s, _)| s.th == 0) {
            for (b, vb) in at.iter().filter(|(s, _)| s.th == 1) {
                let (x, y) = (&a.stride, &b.stride);
                if x.v != y.v || x.step != y.step || va == vb {
                    continue;
                }
                let premise = app(
                    "and",
                    vec![
                        x.premise.clone(),
                        y.premise.clone(),
                        below(x),
                        below(y),
                        app("=", vec![va.clone(), vb.clone()]),
                    ],
                );
                let equal = and(
                    app("=", vec![x.v0.clone(), y.v0.clone()]),
                    app("=", vec![a.count.clone(), b.count.clone()]),
                );
                self.assert(app("=>", vec![premise, equal]));
            }
        }
    }
}
