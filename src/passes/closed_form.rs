//! Closed forms of loop-carried variables (PUG §6.1 normalization, §6.2 halving and
//! doubling): which variables of an abstracted loop are exact functions of the iteration count.
//!
//! Input: the prepared parts of a loop (`Break`/`Continue` already exits) and the variables it
//! assigns. Output: a [`ClosedForm`] for a variable updated exactly once per iteration by a
//! recognised update, `None` otherwise (the variable is then havocked). Pure: it builds
//! nothing but the stride expression.

use crate::ir::query::exits_to;
use crate::ir::query::mentions;
use crate::ir::visit::{VarContext, Visitor};
use crate::ir::{BinOp, BlockId, ClosedForm, Expr, Stmt, StmtKind, Ty, UnOp, VarId};
use std::collections::BTreeSet;

/// The closed form of `v` if it is assigned exactly once per iteration, by one of the
/// recognised updates (PUG §6.1 normalization, §6.2 halving/doubling), at the top level of
/// `step`, or at the top level of a `body` without `continue` (a `break` or `return` only ends
/// the iterations, so the form still holds at every head reached).
pub(super) fn closed_form(
    v: VarId,
    body: &[Stmt],
    step: &[Stmt],
    assigned: &BTreeSet<VarId>,
    cont: BlockId,
) -> Option<ClosedForm> {
    if count_assignments(v, body) + count_assignments(v, step) != 1 {
        return None;
    }
    let top = |stmts: &[Stmt]| {
        stmts.iter().find_map(|s| match &s.kind {
            StmtKind::Assign { var, value } if *var == v => Some(value.clone()),
            _ => None,
        })
    };
    let value = match top(step) {
        Some(e) => e,
        None if !exits_to(body, cont) => top(body)?,
        None => return None,
    };
    update_form(v, &value, assigned)
}

/// How many statements assign `v` in `stmts` (an assignment in a nested loop counts twice),
/// outside `__ensures` bodies.
fn count_assignments(v: VarId, stmts: &[Stmt]) -> u32 {
    struct Count {
        v: VarId,
        n: u32,
    }
    impl Visitor for Count {
        fn visit_stmt(&mut self, s: &Stmt) {
            match &s.kind {
                StmtKind::Ensures { .. } => {}
                StmtKind::Loop { .. } | StmtKind::AbstractLoop(_) => {
                    let outer = std::mem::take(&mut self.n);
                    self.super_stmt(s);
                    self.n = outer + 2 * self.n;
                }
                _ => self.super_stmt(s),
            }
        }
        fn visit_var(&mut self, var: VarId, ctx: VarContext) {
            if var == self.v && ctx.is_def() {
                self.n += 1;
            }
        }
    }
    let mut c = Count { v, n: 0 };
    c.visit_block(stmts);
    c.n
}

/// Recognises `v + k`, `k + v`, `v - k`, `v >> 1`, `v / 2` (unsigned), `v << 1`, `v * 2`, with
/// `k` free of variables assigned in the loop; a cast to `v`'s own type is looked through.
fn update_form(v: VarId, e: &Expr, assigned: &BTreeSet<VarId>) -> Option<ClosedForm> {
    // Casts between types of one width keep the bits (`i += blockDim.x` on an `int` is done in
    // `unsigned` and converted back): look through them.
    fn same_width(e: &Expr) -> &Expr {
        match e {
            Expr::Cast { arg, ty } if arg.ty().bits() == ty.bits() && *ty != Ty::Bool && arg.ty() != Ty::Bool => {
                same_width(arg)
            }
            _ => e,
        }
    }
    // `v += k` with `k` wider than `v` (`int i; i += grid.size()`, a 64-bit size): C computes
    // `(T)((W)v + k)`. Truncation distributes over `+` and `-` modulo 2^bits(T), and the low
    // bits of `(W)v` are `v`'s whatever the extension, so the update is `v + (T)k` exactly.
    if let Expr::Cast { arg, ty: narrow } = same_width(e)
        && let Expr::Binary {
            op: op @ (BinOp::Add | BinOp::Sub),
            lhs,
            rhs,
            ty: wide,
        } = &**arg
        && matches!(narrow, Ty::Int { .. })
        && matches!(wide, Ty::Int { .. })
        && wide.bits() > narrow.bits()
        && narrow.bits() == e.ty().bits()
    {
        let widened_v = |x: &Expr| match x {
            Expr::Cast { arg, ty } if ty.bits() > arg.ty().bits() => {
                arg.ty().bits() == narrow.bits() && matches!(same_width(arg), Expr::Var { id, .. } if *id == v)
            }
            _ => false,
        };
        let invariant = |x: &Expr| !mentions(x, assigned);
        let step = |k: &Expr| Expr::Cast {
            arg: Box::new(k.clone()),
            ty: e.ty(),
        };
        return match op {
            BinOp::Add if widened_v(lhs) && invariant(rhs) => Some(ClosedForm::Linear(step(rhs))),
            BinOp::Add if widened_v(rhs) && invariant(lhs) => Some(ClosedForm::Linear(step(lhs))),
            BinOp::Sub if widened_v(lhs) && invariant(rhs) => Some(ClosedForm::Linear(Expr::Unary {
                op: UnOp::Neg,
                arg: Box::new(step(rhs)),
                ty: e.ty(),
            })),
            _ => None,
        };
    }
    let Expr::Binary { op, lhs, rhs, ty } = same_width(e) else {
        return None;
    };
    if ty.bits() != e.ty().bits() || matches!(ty, Ty::Float { .. }) {
        return None;
    }
    let is_v = |x: &Expr| matches!(same_width(x), Expr::Var { id, .. } if *id == v);
    let invariant = |x: &Expr| !mentions(x, assigned);
    let is = |x: &Expr, n: i64| matches!(x, Expr::Const { value, .. } if *value == n.into());
    match op {
        BinOp::Add if is_v(lhs) && invariant(rhs) => Some(ClosedForm::Linear((**rhs).clone())),
        BinOp::Add if is_v(rhs) && invariant(lhs) => Some(ClosedForm::Linear((**lhs).clone())),
        BinOp::Sub if is_v(lhs) && invariant(rhs) => Some(ClosedForm::Linear(Expr::Unary {
            op: UnOp::Neg,
            arg: rhs.clone(),
            ty: rhs.ty(),
        })),
        BinOp::Shr if is_v(lhs) && is(rhs, 1) && ty.is_signed() == e.ty().is_signed() => Some(ClosedForm::Halving),
        BinOp::Div if is_v(lhs) && is(rhs, 2) && !ty.is_signed() && !e.ty().is_signed() => Some(ClosedForm::Halving),
        BinOp::Shl if is_v(lhs) && is(rhs, 1) => Some(ClosedForm::Doubling),
        BinOp::Mul if (is_v(lhs) && is(rhs, 2)) || (is_v(rhs) && is(lhs, 2)) => Some(ClosedForm::Doubling),
        _ => None,
    }
}
