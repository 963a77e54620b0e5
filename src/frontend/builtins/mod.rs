//! Built-in functions as tables keyed by name: what a call to each becomes in the IR.
//!
//! A language's [`Table`] lists every built-in function once, with its [`Lowering`]: adding an
//! intrinsic is one line in the table ([`cuda::BUILTINS`] for CUDA). The small IR constructors
//! of pure built-ins ([`min`], [`max`], [`abs`], [`implies`]; the integer intrinsics in
//! [`int`]) live here, shared by the languages' tables.
//!
//! Owns names and IR shapes only: evaluating a call's arguments and emitting its statements is
//! the lowering's job (`lower/builtin.rs`), and clang's AST is not read here.

pub mod cuda;
pub mod int;

use super::lower::to_bool;
use crate::ir::{AtomicOp, BinOp, Expr, Ty, UnOp};

/// What a call to a built-in function becomes.
#[derive(Clone, Copy, Debug)]
pub enum Lowering {
    /// An atomic read-modify-write on the location the first argument points to (an error
    /// without arguments); the other arguments are its operands, converted to the location's
    /// type, and the call's value is the location's old content.
    Atomic(AtomicOp),
    /// A barrier statement (`__syncthreads`); the arguments are not evaluated.
    Barrier,
    /// Nothing: no effect on what is verified (fences); the arguments are not evaluated.
    Ignored,
    /// Output (`printf`): ignored like [`Lowering::Ignored`], and the report says so once.
    Output,
    /// A call that is reached only when an assertion fails (`__assert_fail`, which `assert`
    /// calls in the system headers): an assertion of `false`; the arguments are not
    /// evaluated.
    Fail,
    /// The constant `true`; the arguments are not evaluated.
    True,
    /// A statement on the condition given as the first argument (an error without one).
    Condition(Check),
    /// A pure function of the scalar arguments, typed by the call.
    Int(IntFn),
    /// A boolean connective of exactly two scalar arguments.
    Connective(fn(Expr, Expr) -> Expr),
    /// An uninterpreted function of the scalar arguments, under the built-in's name, when the
    /// call's result is a scalar; otherwise the call is not taken as a built-in (math).
    Uninterpreted,
    /// An annotation that is not modelled: a call is an error naming it.
    Unmodelled,
    /// A vector constructor (`make_float4(x, y, z, w)`): the struct value of the call's result
    /// type (a record of scalar fields), each field the argument in its position converted to
    /// the field's type, when there is one scalar argument per field; any other call (an
    /// overload such as `make_float4(float3, float)`) is not taken as a built-in.
    Vector,
    /// A read from texture memory (`tex1Dfetch`, `tex2D`, …): read-only for the kernel's whole
    /// run, so it cannot race and the same texture at the same coordinates gives the same value.
    /// The value is an uninterpreted function of the texture and the coordinates (see
    /// `lower/texture.rs`).
    Texture,
    /// A load through a pointer with a cache hint (`__ldg(p)`, `__ldcg(p)`, …): a read of `*p`,
    /// an ordinary memory access (it races with another thread's write of the same bytes).
    Load,
    /// A store through a pointer with a cache hint (`__stcg(p, v)`, …): the write `*p = v`.
    Store,
    /// A built-in gpug does not model: a call is an error naming it, with the reason.
    Unsupported(&'static str),
}

/// The statement a [`Lowering::Condition`] built-in makes of its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `assert`: checked, then assumed.
    Assert,
    /// `assume` and preconditions.
    Assume,
    /// A loop invariant. One that cannot be lowered is not assumed and is reported as not
    /// checked (sound, only less precise).
    Invariant,
    /// A postcondition, whose loads read the final memory. One whose condition is not modelled
    /// is reported as not checked.
    Ensures,
}

/// A pure built-in of [`Lowering::Int`].
#[derive(Clone, Copy, Debug)]
pub struct IntFn {
    /// The value from the scalar arguments and the call's result type; `None` when the
    /// arguments do not fit (their number is the built-in's arity).
    pub build: fn(&[Expr], Ty) -> Option<Expr>,
    /// A call whose result is a float is an uninterpreted function of all its arguments named
    /// this (`None`: the built-in's own name).
    pub float: Option<&'static str>,
}

/// A language's built-in functions: (name, lowering), each name once.
pub struct Table(pub &'static [(&'static str, Lowering)]);

impl Table {
    /// The lowering of the built-in function `name`, if it is one.
    pub fn get(&self, name: &str) -> Option<Lowering> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
    }
}

/// `min(a, b)` on integers: `a < b ? a : b`, both converted to the result type first (CUDA's
/// mixed `min(int, unsigned)` compares as unsigned).
pub fn min(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    Some(pick(BinOp::Lt, &to(a, ty), &to(b, ty), ty))
}

/// `max(a, b)` on integers: `a > b ? a : b`, both converted to the result type first.
pub fn max(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    Some(pick(BinOp::Gt, &to(a, ty), &to(b, ty), ty))
}

/// `e` converted to `ty` (itself when it has that type).
fn to(e: &Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        return e.clone();
    }
    Expr::Cast {
        arg: Box::new(e.clone()),
        ty,
    }
}

/// `a op b ? a : b`.
fn pick(op: BinOp, a: &Expr, b: &Expr, ty: Ty) -> Expr {
    let c = Expr::Binary {
        op,
        lhs: Box::new(a.clone()),
        rhs: Box::new(b.clone()),
        ty: Ty::Bool,
    };
    Expr::Select {
        cond: Box::new(c),
        then: Box::new(a.clone()),
        els: Box::new(b.clone()),
        ty,
    }
}

/// `abs(a)` on integers: `a < 0 ? -a : a` (`abs(INT_MIN)` is `INT_MIN`, as on the device).
pub fn abs(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a] = args else { return None };
    let a = &to(a, ty);
    let c = Expr::Binary {
        op: BinOp::Lt,
        lhs: Box::new(a.clone()),
        rhs: Box::new(Expr::int(0, ty)),
        ty: Ty::Bool,
    };
    let neg = Expr::Unary {
        op: UnOp::Neg,
        arg: Box::new(a.clone()),
        ty,
    };
    Some(Expr::Select {
        cond: Box::new(c),
        then: Box::new(neg),
        els: Box::new(a.clone()),
        ty,
    })
}

/// `a ⇒ b` as `!a || b`.
pub fn implies(a: Expr, b: Expr) -> Expr {
    let na = Expr::Unary {
        op: UnOp::Not,
        arg: Box::new(to_bool(a)),
        ty: Ty::Bool,
    };
    Expr::Binary {
        op: BinOp::LOr,
        lhs: Box::new(na),
        rhs: Box::new(to_bool(b)),
        ty: Ty::Bool,
    }
}

#[cfg(test)]
mod tests {
    use super::cuda::BUILTINS;

    #[test]
    fn cuda_names_are_listed_once() {
        for (i, (name, _)) in BUILTINS.0.iter().enumerate() {
            assert!(
                BUILTINS.0[i + 1..].iter().all(|(n, _)| n != name),
                "`{name}` is listed twice"
            );
        }
    }
}
