//! Host terms (`ir::Expr`s whose variables are host unknowns): folding, substitution of the
//! unknowns passed to kernel parameters, and their C text for the report.

use crate::ir::{BinOp, Expr, Ty, UnOp, VarId};
use num_bigint::BigInt;
use std::collections::HashMap;

/// `e` folded to a constant when it is one.
pub(in crate::frontend) fn fold(e: Expr) -> Expr {
    if let Expr::Const { .. } = e {
        return e;
    }
    let ty = e.ty();
    if matches!(ty, Ty::Float { .. }) || has_unknown(&e) {
        return e;
    }
    match crate::ir::eval::eval(
        &e,
        &crate::ir::eval::Env::default(),
        &crate::ir::eval::Geometry::default(),
    ) {
        Some(v) => Expr::int(v, ty),
        None => e,
    }
}

/// Whether `e` mentions a host unknown.
pub(in crate::frontend) fn has_unknown(e: &Expr) -> bool {
    let mut found = false;
    vars(e, &mut |_| found = true);
    found
}

/// Calls `f` on each variable of `e`.
pub(in crate::frontend) fn vars(e: &Expr, f: &mut dyn FnMut(VarId)) {
    match e {
        Expr::Var { id, .. } => f(*id),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => vars(arg, f),
        Expr::Binary { lhs, rhs, .. } => {
            vars(lhs, f);
            vars(rhs, f);
        }
        Expr::Select { cond, then, els, .. } => {
            vars(cond, f);
            vars(then, f);
            vars(els, f);
        }
        Expr::Opaque { args, .. } => args.iter().for_each(|a| vars(a, f)),
        Expr::Other(a) => vars(a, f),
        Expr::Const { .. } | Expr::Builtin(_) | Expr::Enabled => {}
    }
}

/// `e` with each host unknown replaced by `map`'s expression (`None` when one is not mapped).
pub(in crate::frontend) fn substitute(e: &Expr, map: &HashMap<VarId, Expr>) -> Option<Expr> {
    let sub = |a: &Expr| substitute(a, map).map(Box::new);
    Some(match e {
        Expr::Var { id, .. } => map.get(id)?.clone(),
        Expr::Unary { op, arg, ty } => Expr::Unary {
            op: *op,
            arg: sub(arg)?,
            ty: *ty,
        },
        Expr::Cast { arg, ty } => Expr::Cast {
            arg: sub(arg)?,
            ty: *ty,
        },
        Expr::Binary { op, lhs, rhs, ty } => Expr::Binary {
            op: *op,
            lhs: sub(lhs)?,
            rhs: sub(rhs)?,
            ty: *ty,
        },
        Expr::Select { cond, then, els, ty } => Expr::Select {
            cond: sub(cond)?,
            then: sub(then)?,
            els: sub(els)?,
            ty: *ty,
        },
        Expr::Const { .. } | Expr::Builtin(_) => e.clone(),
        Expr::Opaque { .. } | Expr::Other(_) | Expr::Enabled => return None,
    })
}

/// `e` with the host unknown `u` replaced by `by`, folded ([`fold`]).
pub(in crate::frontend) fn replace(e: &Expr, u: VarId, by: &Expr) -> Expr {
    let r = |a: &Expr| Box::new(replace(a, u, by));
    fold(match e {
        Expr::Var { id, .. } if *id == u => by.clone(),
        Expr::Unary { op, arg, ty } => Expr::Unary {
            op: *op,
            arg: r(arg),
            ty: *ty,
        },
        Expr::Cast { arg, ty } => Expr::Cast { arg: r(arg), ty: *ty },
        Expr::Binary { op, lhs, rhs, ty } => Expr::Binary {
            op: *op,
            lhs: r(lhs),
            rhs: r(rhs),
            ty: *ty,
        },
        Expr::Select { cond, then, els, ty } => Expr::Select {
            cond: r(cond),
            then: r(then),
            els: r(els),
            ty: *ty,
        },
        Expr::Opaque { name, args, ty } => Expr::Opaque {
            name: name.clone(),
            args: args.iter().map(|a| replace(a, u, by)).collect(),
            ty: *ty,
        },
        Expr::Other(a) => Expr::Other(r(a)),
        Expr::Var { .. } | Expr::Const { .. } | Expr::Builtin(_) | Expr::Enabled => e.clone(),
    })
}

/// `v` converted to `ty` (nothing when it has it), folded: unlike [`crate::ir::build::cast`],
/// which wraps only an integer constant, the whole conversion is folded ([`fold`]).
pub(in crate::frontend) fn cast(v: Expr, ty: Ty) -> Expr {
    if v.ty() == ty {
        return v;
    }
    // A round trip through an integer type at least as wide gives the value back:
    // `(int)(unsigned) x` is `x`.
    if let (
        Expr::Cast {
            arg,
            ty: Ty::Int { bits: mid, .. },
        },
        Ty::Int { bits, .. },
    ) = (&v, ty)
        && arg.ty() == ty
        && *mid >= bits
    {
        return (**arg).clone();
    }
    fold(Expr::Cast { arg: Box::new(v), ty })
}

pub(in crate::frontend) fn eq(lhs: Expr, rhs: Expr) -> Expr {
    let rhs = cast(rhs, lhs.ty());
    Expr::Binary {
        op: BinOp::Eq,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        ty: Ty::Bool,
    }
}

/// The host unknown `v` is, when the conversion to the parameter's type can be undone (the
/// same type, a widening one, or a change of signedness at the same width, a bijection: an
/// `unsigned` `dimsB.x` passed as `int wB` is `(unsigned) wB`): the unknown and its own type.
pub(in crate::frontend) fn passed_unknown(v: &Expr) -> Option<(VarId, Ty)> {
    match v {
        Expr::Var { id, ty } => Some((*id, *ty)),
        Expr::Cast { arg, ty } => match (&**arg, *ty) {
            (
                Expr::Var {
                    id,
                    ty: from @ Ty::Int { bits: fb, signed: fs },
                },
                Ty::Int { bits: tb, signed: ts },
            ) if (*fs == ts && tb >= *fb) || (!*fs && ts && tb > *fb) || tb == *fb => Some((*id, *from)),
            _ => None,
        },
        _ => None,
    }
}

/// `v` as a value of `ty`: wrapped to an integer's width, or 0/1 for `Bool`.
pub(in crate::frontend) fn wrap_ty(v: BigInt, ty: Ty) -> BigInt {
    match ty {
        Ty::Int { bits, signed } => crate::ir::query::wrap(v, bits, signed),
        Ty::Bool => BigInt::from(u8::from(v != BigInt::from(0))),
        _ => v,
    }
}

/// `e` as C text, parameters by `name`.
pub(in crate::frontend) fn c_text(e: &Expr, name: &dyn Fn(VarId) -> String) -> String {
    match e {
        Expr::Const { value, .. } => value.to_string(),
        Expr::Var { id, .. } => name(*id),
        Expr::Builtin(b) => format!("{b}"),
        Expr::Cast { arg, .. } => c_text(arg, name),
        Expr::Unary { op, arg, .. } => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::BitNot => "~",
                UnOp::Not => "!",
                _ => "?",
            };
            format!("{o}{}", atom(arg, name))
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            format!("{} {} {}", atom(lhs, name), op.spelling(), atom(rhs, name))
        }
        Expr::Select { cond, then, els, .. } => {
            format!("{} ? {} : {}", atom(cond, name), atom(then, name), atom(els, name))
        }
        _ => "?".into(),
    }
}

/// `e` as C text, parenthesised unless it is a name or a number.
pub(in crate::frontend) fn atom(e: &Expr, name: &dyn Fn(VarId) -> String) -> String {
    let mut inner = e;
    while let Expr::Cast { arg, .. } = inner {
        inner = arg;
    }
    let t = c_text(inner, name);
    match inner {
        Expr::Binary { .. } | Expr::Select { .. } => format!("({t})"),
        _ => t,
    }
}
