//! Array bounds as assertions (`--check-array-bounds`, GPUVerify's flag of that name): before
//! every load, store and atomic on an array whose size is known (a declared array: `__shared__
//! int s[64]`, `__local float t[16][16]`, a private array), an assertion that the bytes
//! accessed lie within it. A failing one is a defect with the access's position and a witness,
//! as any assertion. Arrays of unknown size (pointer parameters, `extern __shared__` arrays)
//! are not checked: their size is the host's.
//!
//! Runs first in [`super::prepare`], on the lowered kernel, so every copy of an access that
//! unrolling makes keeps its check.

use crate::ir::visit::insert_before_accesses;
use crate::ir::{ArrayId, BinOp, Expr, Kernel, Span, Stmt, StmtKind, Ty};

/// Inserts the bounds assertions into `k` (see the module docs); a note says the kernel is
/// checked so. Returns how many accesses got one.
pub(super) fn insert_checks(k: &mut Kernel) -> usize {
    let sizes: Vec<Option<u128>> = k
        .arrays
        .iter()
        .map(|a| a.elements().map(|n| n.saturating_mul(u128::from(a.elem.bytes()))))
        .collect();
    let n = insert_before_accesses(&mut k.body, &mut |s| match &s.kind {
        StmtKind::Load { array, offset, ty, .. }
        | StmtKind::Store { array, offset, ty, .. }
        | StmtKind::Atomic { array, offset, ty, .. } => check(*array, offset, *ty, &s.span, &sizes),
        _ => None,
    });
    if n > 0 {
        k.notes.push(format!(
            "--check-array-bounds: {n} accesses to arrays of known size are checked to stay within them (a failing check is reported as an assertion at the access)"
        ));
    }
    n
}

/// `assert(0 <= offset && offset + bytes(ty) <= size)` for an access of `ty` at the byte offset
/// `offset` (`I64`) of `array`, when its size is known.
fn check(array: ArrayId, offset: &Expr, ty: Ty, span: &Span, sizes: &[Option<u128>]) -> Option<Stmt> {
    let size = i64::try_from(sizes.get(array.0).copied().flatten()?).ok()?;
    let bin = |op, l: Expr, r: Expr, ty| Expr::Binary {
        op,
        lhs: Box::new(l),
        rhs: Box::new(r),
        ty,
    };
    let low = bin(BinOp::Ge, offset.clone(), Expr::int(0, Ty::I64), Ty::Bool);
    let high = bin(
        BinOp::Le,
        offset.clone(),
        Expr::int(size - i64::from(ty.bytes()), Ty::I64),
        Ty::Bool,
    );
    Some(Stmt {
        kind: StmtKind::Assert {
            cond: bin(BinOp::LAnd, low, high, Ty::Bool),
        },
        span: span.clone(),
    })
}
