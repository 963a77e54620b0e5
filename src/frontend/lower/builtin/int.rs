//! CUDA's integer intrinsics that decide addresses, exact in bit-vectors: the bit counts
//! (`__clz`, `__ffs`, `__popc` and their `ll` forms), `__brev`, the 24-bit and high-half
//! products (`__mul24`, `__umul24`, `__mulhi`, `__umulhi`), halving additions (`__hadd`,
//! `__rhadd`, `__uhadd`, `__urhadd`) and sums of absolute differences (`__sad`, `__usad`).
//!
//! Each is an [`crate::frontend::lower::builtin::table::IntFn`] builder: from the call's arguments (already converted by clang
//! to the parameter types) and its result type, an [`Expr`], as the CUDA Math API and the PTX
//! ISA define them. `None` when the arguments do not fit.

use crate::ir::build::bin;
use crate::ir::{BinOp, Expr, Ty, UnOp};

/// `e` converted to `ty` (a no-op when it has that type).
fn conv(e: &Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        return e.clone();
    }
    Expr::Cast {
        arg: Box::new(e.clone()),
        ty,
    }
}

/// `op` of the one integer argument, in its own type, converted to the result type.
fn bit_count(op: UnOp, args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a] = args else { return None };
    let at = a.ty();
    if !matches!(at, Ty::Int { .. }) {
        return None;
    }
    let e = Expr::Unary {
        op,
        arg: Box::new(a.clone()),
        ty: at,
    };
    Some(conv(&e, ty))
}

/// `__clz(x)`, `__clzll(x)`: the number of leading zero bits (32 or 64 for 0).
pub fn clz(args: &[Expr], ty: Ty) -> Option<Expr> {
    bit_count(UnOp::Clz, args, ty)
}

/// `__ffs(x)`, `__ffsll(x)`: the position of the least significant set bit from 1 (0 for 0).
pub fn ffs(args: &[Expr], ty: Ty) -> Option<Expr> {
    bit_count(UnOp::Ffs, args, ty)
}

/// `__popc(x)`, `__popcll(x)`: the number of set bits.
pub fn popc(args: &[Expr], ty: Ty) -> Option<Expr> {
    bit_count(UnOp::Popc, args, ty)
}

/// `__brev(x)`, `__brevll(x)`: the bits reversed.
pub fn brev(args: &[Expr], ty: Ty) -> Option<Expr> {
    bit_count(UnOp::Brev, args, ty)
}

/// `__mul24(a, b)`: the low 32 bits of the product of the low 24 bits of `a` and `b`, each
/// taken as a signed 24-bit number (PTX `mul24.lo.s32`).
pub fn mul24(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    let low24 = |x: &Expr| {
        let x = conv(x, ty);
        let up = bin(BinOp::Shl, x, Expr::int(8, ty), ty);
        // An arithmetic shift back when `ty` is signed (`int`).
        bin(BinOp::Shr, up, Expr::int(8, ty), ty)
    };
    Some(bin(BinOp::Mul, low24(a), low24(b), ty))
}

/// `__umul24(a, b)`: the low 32 bits of the product of the low 24 bits of `a` and `b`
/// (PTX `mul24.lo.u32`).
pub fn umul24(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    let low24 = |x: &Expr| bin(BinOp::BitAnd, conv(x, ty), Expr::int(0xff_ffff, ty), ty);
    Some(bin(BinOp::Mul, low24(a), low24(b), ty))
}

/// `__mulhi(a, b)`, `__umulhi(a, b)`: the high 32 bits of the 64-bit product (signedness
/// from the result type).
pub fn mulhi(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    let Ty::Int { bits: 32, signed } = ty else { return None };
    let wide = Ty::Int { bits: 64, signed };
    let p = bin(BinOp::Mul, conv(a, wide), conv(b, wide), wide);
    Some(conv(&bin(BinOp::Shr, p, Expr::int(32, wide), wide), ty))
}

/// `(a + b) >> 1` (`__hadd`, `__uhadd`) without overflow: computed in 64 bits.
pub fn hadd(args: &[Expr], ty: Ty) -> Option<Expr> {
    halving(args, ty, false)
}

/// `(a + b + 1) >> 1` (`__rhadd`, `__urhadd`) without overflow: computed in 64 bits.
pub fn rhadd(args: &[Expr], ty: Ty) -> Option<Expr> {
    halving(args, ty, true)
}

fn halving(args: &[Expr], ty: Ty, round: bool) -> Option<Expr> {
    let [a, b] = args else { return None };
    let Ty::Int { bits: 32, signed } = ty else { return None };
    let wide = Ty::Int { bits: 64, signed };
    let mut s = bin(BinOp::Add, conv(a, wide), conv(b, wide), wide);
    if round {
        s = bin(BinOp::Add, s, Expr::int(1, wide), wide);
    }
    Some(conv(&bin(BinOp::Shr, s, Expr::int(1, wide), wide), ty))
}

/// `__sad(x, y, z)`, `__usad(x, y, z)`: `|x - y| + z` in 32-bit arithmetic (PTX `sad`), with
/// `x < y` compared by the signedness of `x`.
pub fn sad(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [x, y, z] = args else { return None };
    let xt = x.ty();
    if !matches!(xt, Ty::Int { bits: 32, .. }) {
        return None;
    }
    let y = conv(y, xt);
    let lt = bin(BinOp::Lt, x.clone(), y.clone(), Ty::Bool);
    let d = Expr::Select {
        cond: Box::new(lt),
        then: Box::new(bin(BinOp::Sub, y.clone(), x.clone(), xt)),
        els: Box::new(bin(BinOp::Sub, x.clone(), y, xt)),
        ty: xt,
    };
    Some(bin(BinOp::Add, conv(&d, ty), conv(z, ty), ty))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::eval::{Env, Geometry, eval};
    use num_bigint::BigInt;

    const U32: Ty = Ty::U32;
    const I32: Ty = Ty::I32;
    const U64: Ty = Ty::Int {
        bits: 64,
        signed: false,
    };

    fn value(e: Option<Expr>) -> i128 {
        let e = e.expect("arguments fit");
        let v = eval(&e, &Env::default(), &Geometry::default()).expect("constant");
        i128::try_from(v).expect("small")
    }

    fn c(v: i128, ty: Ty) -> Expr {
        Expr::int(BigInt::from(v), ty)
    }

    #[test]
    fn bit_counts() {
        assert_eq!(value(clz(&[c(0, I32)], I32)), 32);
        assert_eq!(value(clz(&[c(1, I32)], I32)), 31);
        assert_eq!(value(clz(&[c(-1, I32)], I32)), 0);
        assert_eq!(value(clz(&[c(0, Ty::I64)], I32)), 64);
        assert_eq!(value(ffs(&[c(0, I32)], I32)), 0);
        assert_eq!(value(ffs(&[c(12, I32)], I32)), 3);
        assert_eq!(value(ffs(&[c(i64::MIN as i128, Ty::I64)], I32)), 64);
        assert_eq!(value(popc(&[c(0xf0f0, U32)], I32)), 8);
        assert_eq!(value(popc(&[c(u64::MAX as i128, U64)], I32)), 64);
        assert_eq!(value(brev(&[c(1, U32)], U32)), 0x8000_0000);
        assert_eq!(value(brev(&[c(0x8000_0001, U32)], U32)), 0x8000_0001);
    }

    #[test]
    fn products_and_sums() {
        // The low 24 bits only: 2^24 + 3 counts as 3; 0xffffff is -1 as a signed 24-bit value.
        assert_eq!(value(umul24(&[c((1 << 24) + 3, U32), c(5, U32)], U32)), 15);
        assert_eq!(value(mul24(&[c(0xff_ffff, I32), c(5, I32)], I32)), -5);
        assert_eq!(value(mul24(&[c(-7, I32), c(6, I32)], I32)), -42);
        assert_eq!(value(mulhi(&[c(1 << 30, I32), c(8, I32)], I32)), 2);
        assert_eq!(value(mulhi(&[c(-1, I32), c(1, I32)], I32)), -1);
        assert_eq!(
            value(mulhi(&[c(0xffff_ffff, U32), c(0xffff_ffff, U32)], U32)),
            0xffff_fffe
        );
        assert_eq!(value(hadd(&[c(i32::MAX as i128, I32), c(1, I32)], I32)), 1 << 30);
        assert_eq!(value(rhadd(&[c(2, I32), c(3, I32)], I32)), 3);
        assert_eq!(value(sad(&[c(3, I32), c(-4, I32), c(10, U32)], U32)), 17);
        assert_eq!(value(sad(&[c(1, U32), c(4, U32), c(0, U32)], U32)), 3);
    }
}
