//! Builders of hand-made IR for the unit tests of every stage (`t.cu`, line numbers as spans).

use super::{ArrayDecl, BinOp, Expr, Kernel, Space, Span, Stmt, StmtKind, Ty};
use std::sync::Arc;

/// Line `line` of `t.cu`.
pub(crate) fn sp(line: u32) -> Span {
    Span::point(Arc::from("t.cu"), line, 1)
}

/// A statement of `kind` at line `line`.
pub(crate) fn st(kind: StmtKind, line: u32) -> Stmt {
    Stmt { kind, span: sp(line) }
}

/// `a op b` of type `ty`.
pub(crate) fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty,
    }
}

/// A kernel `k` (at line 1) with one `int` array `array[len]` in `space` (at line 2), no
/// parameters, variables nor statements.
pub(crate) fn kernel_with_array(array: &str, space: Space, len: u64) -> Kernel {
    Kernel {
        name: "k".into(),
        span: sp(1),
        params: vec![],
        vars: vec![],
        arrays: vec![ArrayDecl {
            name: array.into(),
            space,
            elem: Ty::I32,
            dims: vec![len],
            span: sp(2),
        }],
        body: vec![],
        next_block: 0,
        unchecked: Vec::new(),
        language: Default::default(),
        signed_ops: Vec::new(),
        uninterpreted: Vec::new(),
        impure: Vec::new(),
        notes: Vec::new(),
    }
}
