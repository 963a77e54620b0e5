//! The source operations whose overflow, wrap or change of value the launch contracts'
//! standard assumption excludes ([`Kernel::signed_ops`], issues 43 and 53 item 4): signed
//! `+`, `-`, `*` (undefined behaviour on overflow), unsigned `+`, `*` computing a subscript's
//! index, and narrowing conversions to a signed type (both defined, but an index computed past
//! its type); which expressions are such operations, and how an encoder finds one.

use super::{BinOp, Expr, Kernel, Span, Ty};

/// One source-level signed `+`, `-`, `*`, unsigned index `+`, `*`, or narrowing conversion to
/// a signed type ([`Kernel::signed_ops`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SignedOp {
    /// The operation as lowered: an [`Expr::Binary`] of `Add`, `Sub` or `Mul` whose type is an
    /// integer of 32 or 64 bits, or an [`Expr::Cast`] to a signed one of 32 or 64 bits.
    pub expr: Expr,
    /// Where the operator is in the source (the whole expression, `i * NJ`).
    pub span: Span,
    /// The source text of the operation (`i * NJ`), or the IR's text of it when the source
    /// cannot be read.
    pub text: String,
}

/// The kinds of [`SignedOp`], in the order the launch contracts name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SignedKind {
    /// A signed `+`, `-`, `*` ([`is_signed_arith`]): its overflow is undefined behaviour.
    Overflow,
    /// An unsigned `+`, `*` computing a subscript's index ([`is_index_arith`]).
    IndexWrap,
    /// A narrowing conversion to a signed type ([`is_narrowing_conversion`]).
    Conversion,
}

impl SignedOp {
    /// Which kind of operation it is.
    pub fn kind(&self) -> SignedKind {
        match (self.is_signed(), self.is_conversion()) {
            (true, _) => SignedKind::Overflow,
            (false, true) => SignedKind::Conversion,
            (false, false) => SignedKind::IndexWrap,
        }
    }

    /// Whether `op lhs rhs` of type `ty` is this operation.
    pub fn matches(&self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty) -> bool {
        matches!(&self.expr, Expr::Binary { op: o, lhs: l, rhs: r, ty: t }
            if *o == op && *t == ty && **l == *lhs && **r == *rhs)
    }

    /// The C name of its type: `int` (32 bits) or `long` (64), `unsigned` or `unsigned long`.
    pub fn type_name(&self) -> &'static str {
        let signed = matches!(self.expr.ty(), Ty::Int { signed: true, .. });
        match (signed, self.expr.ty().bits() == 32) {
            (true, true) => "int",
            (true, false) => "long",
            (false, true) => "unsigned",
            (false, false) => "unsigned long",
        }
    }

    /// Whether the operation is signed arithmetic (its overflow undefined behaviour), not an
    /// unsigned index computation ([`is_index_arith`]) nor a conversion
    /// ([`SignedOp::is_conversion`]).
    pub fn is_signed(&self) -> bool {
        matches!(
            self.expr,
            Expr::Binary {
                ty: Ty::Int { signed: true, .. },
                ..
            }
        )
    }

    /// Whether the operation is a narrowing conversion to a signed type
    /// ([`is_narrowing_conversion`]): a value that does not fit changes, which is defined (or
    /// implementation-defined), not undefined behaviour.
    pub fn is_conversion(&self) -> bool {
        matches!(self.expr, Expr::Cast { .. })
    }
}

impl Kernel {
    /// The index in [`Kernel::signed_ops`] of the operation `op lhs rhs` of type `ty`: the
    /// first one with that expression. The IR does not tell apart two source operations with
    /// one expression (`x * 1000000` on two lines): the encoders treat them as one operation,
    /// named by all its places ([`Kernel::signed_places`]).
    pub fn signed_op(&self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty) -> Option<usize> {
        self.signed_ops.iter().position(|o| o.matches(op, lhs, rhs, ty))
    }

    /// The index in [`Kernel::signed_ops`] of the conversion of `arg` to `ty`
    /// ([`is_narrowing_conversion`]): the first one with that expression.
    pub fn signed_cast(&self, arg: &Expr, ty: Ty) -> Option<usize> {
        self.signed_ops
            .iter()
            .position(|o| matches!(&o.expr, Expr::Cast { arg: a, ty: t } if *t == ty && **a == *arg))
    }

    /// The indices of [`Kernel::signed_ops`] that [`Kernel::signed_op`] can return: one per
    /// distinct expression.
    pub fn signed_representatives(&self) -> Vec<usize> {
        (0..self.signed_ops.len())
            .filter(|&i| !self.signed_ops[..i].iter().any(|o| o.expr == self.signed_ops[i].expr))
            .collect()
    }

    /// The places of the operation `signed_ops[i]` and of every other one with its expression:
    /// `file.cu:4:7`, `file.cu:4:7, file.cu:9:12`.
    pub fn signed_places(&self, i: usize) -> String {
        let e = &self.signed_ops[i].expr;
        let places: Vec<String> = self
            .signed_ops
            .iter()
            .filter(|o| o.expr == *e)
            .map(|o| o.span.to_string())
            .collect();
        places.join(", ")
    }
}

/// Whether `e` is an operation that [`Kernel::signed_ops`] records: a signed `+`, `-`, `*` of
/// at least 32 bits.
pub fn is_signed_arith(e: &Expr) -> bool {
    matches!(e, Expr::Binary { op: BinOp::Add | BinOp::Sub | BinOp::Mul, ty: Ty::Int { bits, signed: true }, .. } if *bits >= 32)
}

/// Whether `e` is an unsigned operation that [`Kernel::signed_ops`] records when the source
/// computes it in a subscript's index: an unsigned `+` or `*` of at least 32 bits, whose wrap
/// computes an index past its type (issue 53 item 4: an array of 2^32 elements or more, or an
/// offset within a few of 2^32, a negative one passed as `unsigned`). An unsigned `-` wraps by
/// design (`n - 1 - i`, a count down): not one.
pub fn is_index_arith(e: &Expr) -> bool {
    matches!(e, Expr::Binary { op: BinOp::Add | BinOp::Mul, ty: Ty::Int { bits, signed: false }, .. } if *bits >= 32)
}

/// Whether `e` is a conversion that [`Kernel::signed_ops`] records: to a signed integer of at
/// least 32 bits, from an integer type with values it cannot hold (an unsigned one at least as
/// wide, a wider signed one). Such a conversion of a value that does not fit changes it
/// (implementation-defined before C++20, modular since; C11 6.3.1.3p3): `int i = x * 4ul` past
/// `INT_MAX` computes a negative index (issue 53 item 4).
pub fn is_narrowing_conversion(e: &Expr) -> bool {
    let Expr::Cast {
        arg,
        ty: Ty::Int { bits: to, signed: true },
    } = e
    else {
        return false;
    };
    match arg.ty() {
        Ty::Int { bits: from, signed } => *to >= 32 && (from > *to || (!signed && from >= *to)),
        _ => false,
    }
}
