//! Constant evaluation of IR expressions under the launch geometry ([`eval`] over an [`Env`]
//! of known values), and the geometry itself ([`Geometry`], CUDA's launch limits). The floor
//! the passes (loop unrolling, propagation), the encoders, the driver and the front end's
//! host-launch interpreter stand on.

use super::{BinOp, Builtin, Expr, Ty, UnOp, VarId};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::HashMap;

/// The launch geometry: `blockDim` and `gridDim` per dimension (x, y, z), `None` where the
/// dimension is symbolic (its flag was not given). Values are thread and block counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    pub block_dim: [Option<u32>; 3],
    pub grid_dim: [Option<u32>; 3],
}

/// CUDA's launch limits (CUDA C++ Programming Guide, "Features and Technical Specifications",
/// compute capability 5.0 and later): threads per block in x, y, z.
pub const MAX_BLOCK_DIM: [u32; 3] = [1024, 1024, 64];
/// Threads per block in all.
pub const MAX_BLOCK_THREADS: u32 = 1024;
/// Blocks per grid in x, y, z.
pub const MAX_GRID_DIM: [u32; 3] = [(1 << 31) - 1, 65535, 65535];

impl Geometry {
    /// The first of CUDA's launch limits ([`MAX_BLOCK_DIM`], [`MAX_BLOCK_THREADS`],
    /// [`MAX_GRID_DIM`]) that the given dimensions break, as a sentence naming it (`None` when
    /// every launch they allow is one CUDA can make: the symbolic ones are kept within the
    /// limits by the encoding). The block's threads in all are checked over its given
    /// dimensions (a symbolic one is at least 1).
    pub fn outside_limits(&self) -> Option<String> {
        const NAMES: [&str; 3] = ["x", "y", "z"];
        for (i, d) in NAMES.iter().enumerate() {
            if let Some(v) = self.block_dim[i].filter(|v| *v > MAX_BLOCK_DIM[i]) {
                return Some(format!(
                    "blockDim.{d} = {v} is above CUDA's limit of {} threads per block in {d}",
                    MAX_BLOCK_DIM[i]
                ));
            }
        }
        let threads: u64 = self.block_dim.iter().map(|v| u64::from(v.unwrap_or(1))).product();
        if threads > u64::from(MAX_BLOCK_THREADS) {
            return Some(format!(
                "a block of {threads} threads is above CUDA's limit of {MAX_BLOCK_THREADS} threads per block"
            ));
        }
        for (i, d) in NAMES.iter().enumerate() {
            if let Some(v) = self.grid_dim[i].filter(|v| *v > MAX_GRID_DIM[i]) {
                return Some(format!(
                    "gridDim.{d} = {v} is above CUDA's limit of {} blocks in {d}",
                    MAX_GRID_DIM[i]
                ));
            }
        }
        None
    }
}

/// Known constant values of variables at a program point; `unreachable` after a `return`.
#[derive(Clone, Debug, Default)]
pub struct Env {
    values: HashMap<VarId, BigInt>,
    unreachable: bool,
}

impl Env {
    /// The environment of a point no execution reaches (joins as the identity).
    pub fn unreachable() -> Env {
        Env {
            values: HashMap::new(),
            unreachable: true,
        }
    }

    pub fn is_unreachable(&self) -> bool {
        self.unreachable
    }

    pub fn set(&mut self, v: VarId, value: BigInt) {
        self.values.insert(v, value);
    }

    pub fn kill(&mut self, v: VarId) {
        self.values.remove(&v);
    }

    /// Keeps what both environments agree on.
    pub fn join(&mut self, other: &Env) {
        if other.unreachable {
            return;
        }
        if self.unreachable {
            *self = other.clone();
            return;
        }
        self.values.retain(|k, v| other.values.get(k) == Some(v));
    }
}

/// Wraps `v` into the range of `ty` (two's complement for signed types; 0/1 for `Bool`).
pub fn wrap(v: BigInt, ty: Ty) -> BigInt {
    match ty {
        Ty::Bool => BigInt::from(!v.is_zero() as u8),
        Ty::Float { .. } => v,
        Ty::Int { bits, signed } => {
            let m = BigInt::one() << bits;
            let mut r = ((v % &m) + &m) % &m;
            if signed && r >= (BigInt::one() << (bits - 1)) {
                r -= m;
            }
            r
        }
    }
}

/// `op` (a bit count or reversal) of the `bits`-bit pattern of `a` (two's complement).
fn bit_op(op: UnOp, a: &BigInt, bits: u32) -> BigInt {
    let m = BigInt::one() << bits;
    let u = ((a % &m) + &m) % &m;
    let bit = |i: u32| !((&u >> i) & BigInt::one()).is_zero();
    let r: u64 = match op {
        UnOp::Clz => (0..bits).rev().take_while(|&i| !bit(i)).count() as u64,
        UnOp::Ffs => (0..bits).find(|&i| bit(i)).map_or(0, |i| u64::from(i) + 1),
        UnOp::Popc => (0..bits).filter(|&i| bit(i)).count() as u64,
        _ => {
            let mut r = BigInt::zero();
            for i in (0..bits).filter(|&i| bit(i)) {
                r |= BigInt::one() << (bits - 1 - i);
            }
            return r;
        }
    };
    BigInt::from(r)
}

/// The value of `e` if it is a constant given `env` and the geometry.
pub fn eval(e: &Expr, env: &Env, g: &Geometry) -> Option<BigInt> {
    if env.unreachable {
        return None;
    }
    let v = match e {
        Expr::Const { value, ty } => {
            if matches!(ty, Ty::Float { .. }) {
                return None;
            }
            value.clone()
        }
        Expr::Var { id, .. } => env.values.get(id)?.clone(),
        Expr::Builtin(b) => match b {
            Builtin::BlockDim(d) => BigInt::from(g.block_dim[d.index()]?),
            Builtin::GridDim(d) => BigInt::from(g.grid_dim[d.index()]?),
            Builtin::WarpSize => BigInt::from(32),
            // A dimension of extent 1 pins the index to 0.
            Builtin::ThreadIdx(d) if g.block_dim[d.index()] == Some(1) => BigInt::zero(),
            Builtin::BlockIdx(d) if g.grid_dim[d.index()] == Some(1) => BigInt::zero(),
            Builtin::ThreadIdx(_) | Builtin::BlockIdx(_) => return None,
        },
        Expr::Unary { op, arg, ty } => {
            let a = eval(arg, env, g)?;
            let r = match op {
                UnOp::Neg => -a,
                UnOp::BitNot => -a - 1,
                UnOp::Not => BigInt::from(a.is_zero() as u8),
                UnOp::Clz | UnOp::Ffs | UnOp::Popc | UnOp::Brev => bit_op(*op, &a, arg.ty().bits()),
            };
            wrap(r, *ty)
        }
        Expr::Binary { op, lhs, rhs, ty } => {
            let lt = lhs.ty();
            if matches!(lt, Ty::Float { .. }) {
                return None;
            }
            // Short-circuit forms first, so `false && x` folds with x unknown.
            match op {
                BinOp::LAnd => {
                    let a = eval(lhs, env, g);
                    if a.as_ref().is_some_and(|a| a.is_zero()) {
                        return Some(BigInt::zero());
                    }
                    let b = eval(rhs, env, g)?;
                    return Some(BigInt::from((!a?.is_zero() && !b.is_zero()) as u8));
                }
                BinOp::LOr => {
                    let a = eval(lhs, env, g);
                    if a.as_ref().is_some_and(|a| !a.is_zero()) {
                        return Some(BigInt::one());
                    }
                    let b = eval(rhs, env, g)?;
                    return Some(BigInt::from((!a?.is_zero() || !b.is_zero()) as u8));
                }
                _ => {}
            }
            let a = eval(lhs, env, g)?;
            let b = eval(rhs, env, g)?;
            let bits = lt.bits();
            let cmp = |r: bool| BigInt::from(r as u8);
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div | BinOp::Rem => {
                    if b.is_zero() {
                        return None;
                    }
                    // Both are in range of their (common) type; truncating division as in C.
                    let q = &a / &b;
                    if matches!(op, BinOp::Div) { q } else { a - q * b }
                }
                BinOp::Shl | BinOp::Shr => {
                    let sh = b.to_u32()?;
                    if sh >= bits {
                        return None;
                    }
                    if matches!(op, BinOp::Shl) {
                        a << sh
                    } else if a.is_negative() {
                        // Arithmetic shift (floor division by a power of two).
                        let d = BigInt::one() << sh;
                        let q = &a / &d;
                        if (&q * &d) != a { q - 1 } else { q }
                    } else {
                        a >> sh
                    }
                }
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::Eq => cmp(a == b),
                BinOp::Ne => cmp(a != b),
                BinOp::Lt => cmp(a < b),
                BinOp::Le => cmp(a <= b),
                BinOp::Gt => cmp(a > b),
                BinOp::Ge => cmp(a >= b),
                BinOp::LAnd | BinOp::LOr => unreachable!("handled above"),
            };
            wrap(r, *ty)
        }
        Expr::Cast { arg, ty } => {
            if matches!(ty, Ty::Float { .. }) || matches!(arg.ty(), Ty::Float { .. }) {
                return None;
            }
            wrap(eval(arg, env, g)?, *ty)
        }
        Expr::Select { cond, then, els, .. } => {
            if eval(cond, env, g)?.is_zero() {
                eval(els, env, g)?
            } else {
                eval(then, env, g)?
            }
        }
        // Another thread's value, or whether this thread runs here: never a constant of the
        // path (the other thread may be on another path).
        Expr::Opaque { .. } | Expr::Other(_) | Expr::Enabled => return None,
    };
    Some(v)
}
