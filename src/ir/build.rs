//! Small constructors of IR expressions shared by the front end's lowerings (and free to any
//! other builder of IR): a binary operation, a conversion that folds integer constants, a
//! truth value.
//!
//! Owns construction only: no simplification beyond wrapping an integer constant into its new
//! type ([`crate::passes`] simplifies).

use super::query::wrap;
use super::{BinOp, Expr, Ty};

/// The expression `l op r` of type `ty`.
pub fn bin(op: BinOp, l: Expr, r: Expr, ty: Ty) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(l),
        rhs: Box::new(r),
        ty,
    }
}

/// `e` converted to `ty`: `e` itself when it has that type, an integer constant converted to an
/// integer type wrapped into the new constant, anything else a [`Expr::Cast`].
pub fn cast(e: Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        return e;
    }
    if let (Expr::Const { value, .. }, Ty::Int { bits, signed }) = (&e, ty)
        && matches!(e.ty(), Ty::Int { .. })
    {
        return Expr::int(wrap(value.clone(), bits, signed), ty);
    }
    Expr::Cast { arg: Box::new(e), ty }
}

/// `e` as a truth value: a `Bool` as it is, anything else cast to `Bool`.
pub fn to_bool(e: Expr) -> Expr {
    if e.ty() == Ty::Bool {
        e
    } else {
        Expr::Cast {
            arg: Box::new(e),
            ty: Ty::Bool,
        }
    }
}
