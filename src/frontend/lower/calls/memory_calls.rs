//! `memcpy` and `memset` (and their `__builtin_` spellings) in device code, byte by byte.
//!
//! - `memcpy(dst, src, len)` reads the bytes `[0, len)` of `src` and writes them to the same
//!   bytes of `dst`, one byte ([`Ty`] `unsigned char`) per load and store, so a copy whose
//!   length is not a multiple of the element size touches exactly the bytes it copies, and a
//!   copy between structs of different layouts is exact. `memset(dst, c, len)` writes
//!   `(unsigned char)c` to the bytes `[0, len)` of `dst`.
//! - A constant length (an expression of literals and `sizeof`) of at most [`UNROLL_BYTES`]
//!   bytes is unrolled; a longer or symbolic length (a variable, even a local holding a
//!   constant) is a [`StmtKind::Loop`] over a fresh byte counter, which the passes unroll or
//!   abstract like any loop.
//! - A null pointer constant (`0`, `NULL`, `nullptr`, `(void *)0`) as the destination or
//!   source is a defect where the call is reached with a length that may be non-zero: an
//!   assertion of `len == 0` (`false` for a constant non-zero length) at the call, and the
//!   report's notes say which pointer is null. Nothing is copied then.
//! - The call's value is `dst` (a null destination gives `0`).
//!
//! Errors: a destination in `__constant__` memory, the address of a pointer variable as an
//! argument, a call without three arguments.

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::{CallSite, Lower, R, Val, add_off, branch, set, unsupported};
use crate::ir::build::cast;
use crate::ir::query::int_constant;
use crate::ir::*;
use num_bigint::BigInt;

/// The longest constant length that is unrolled; longer copies are loops.
pub(in crate::frontend) const UNROLL_BYTES: u64 = 64;

/// `unsigned char`: the type of each access.
pub(in crate::frontend) const U8: Ty = Ty::Int { bits: 8, signed: false };
/// `size_t`: the type of lengths and of the byte counter.
const U64: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

/// What the bytes of the destination get.
#[derive(Clone)]
enum Source {
    /// The same bytes of another place (`memcpy`): its array and byte offset.
    Mem(ArrayId, Expr),
    /// One byte value (`memset`).
    Byte(Expr),
}

impl Lower<'_, '_> {
    /// A call to `memcpy` (`is_set` false) or `memset` (`is_set` true) named `name`, with the
    /// argument nodes `args`; its value is the destination pointer.
    pub(in crate::frontend) fn memory_call(&mut self, is_set: bool, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [dst, second, len] = args else {
            return unsupported(span.clone(), format!("`{name}` without three arguments"));
        };
        let dst_null = is_null_constant(dst);
        let src_null = !is_set && is_null_constant(second);
        let dv = if dst_null { None } else { Some(self.rvalue(dst, out)?) };
        let sv = match (is_set, src_null) {
            (_, true) => None,
            (true, false) => {
                let v = self.rvalue(second, out)?;
                Some(Val::Scalar(cast(self.expect_scalar(v, second)?, U8)))
            }
            (false, false) => Some(self.rvalue(second, out)?),
        };
        let lv = self.rvalue(len, out)?;
        let n = cast(self.expect_scalar(lv, len)?, U64);
        let result = dv.clone().unwrap_or_else(|| Val::Scalar(Expr::int(0, Ty::I64)));
        if dst_null || src_null {
            let which = if dst_null { "destination" } else { "source" };
            self.null_argument(name, which, &n, span, out);
            return Ok(result);
        }
        let (Some(dv), Some(sv)) = (dv, sv) else {
            return Ok(result);
        };
        match sv {
            Val::Scalar(byte) => self.fill_at(dv, &Source::Byte(byte), &n, name, span, out)?,
            src => self.copy_from(dv, src, &n, name, span, out)?,
        }
        Ok(result)
    }

    /// A null pointer given as `which` argument of `name`: an assertion that the length is 0.
    fn null_argument(&mut self, name: &str, which: &str, n: &Expr, span: &Span, out: &mut Vec<Stmt>) {
        let cond = match int_constant(n) {
            Some(value) => Expr::bool(value == BigInt::from(0)),
            None => Expr::Binary {
                op: BinOp::Eq,
                lhs: Box::new(n.clone()),
                rhs: Box::new(Expr::int(0, U64)),
                ty: Ty::Bool,
            },
        };
        if cond == Expr::bool(true) {
            return;
        }
        self.k.notes.push(format!(
            "`{name}` ({span}) null pointer passed as {which}: the assertion that fails there is this defect"
        ));
        out.push(Stmt {
            kind: StmtKind::Assert { cond },
            span: span.clone(),
        });
    }

    /// `memcpy` from the pointer `src` into `dst`, a case split over pointers into several
    /// arrays ([`Val::PtrCond`]).
    fn copy_from(&mut self, dst: Val, src: Val, n: &Expr, name: &str, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match src {
            Val::PtrCond(c, a, b) => {
                let (mut sa, mut sb) = (Vec::new(), Vec::new());
                self.copy_from(dst.clone(), *a, n, name, span, &mut sa)?;
                self.copy_from(dst, *b, n, name, span, &mut sb)?;
                out.push(branch(c, sa, sb, span.clone()));
                Ok(())
            }
            Val::Ptr(p) => self.fill_at(dst, &Source::Mem(p.array, p.off), n, name, span, out),
            _ => unsupported(span.clone(), format!("`{name}` from a value that is not a pointer")),
        }
    }

    /// Writes the bytes `[0, n)` of `dst` from `src`, a case split over pointers into several
    /// arrays.
    fn fill_at(&mut self, dst: Val, src: &Source, n: &Expr, name: &str, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let p = match dst {
            Val::PtrCond(c, a, b) => {
                let (mut sa, mut sb) = (Vec::new(), Vec::new());
                self.fill_at(*a, src, n, name, span, &mut sa)?;
                self.fill_at(*b, src, n, name, span, &mut sb)?;
                out.push(branch(c, sa, sb, span.clone()));
                return Ok(());
            }
            Val::Ptr(p) => p,
            Val::Addr(_) => return unsupported(span.clone(), format!("`{name}` on the address of a pointer variable")),
            _ => return unsupported(span.clone(), format!("`{name}` into a value that is not a pointer")),
        };
        // Its bytes may be pointers a kernel loads (`ptr_table.rs`).
        self.bulk_written.push(p.array);
        let decl = self.k.array(p.array);
        if decl.space == Space::Constant {
            return unsupported(
                span.clone(),
                format!(
                    "`{name}` into __constant__ memory `{}` (read-only in kernels)",
                    decl.name
                ),
            );
        }
        let t = self.temp(U8);
        let constant = int_constant(n)
            .and_then(|v| u64::try_from(v).ok())
            .filter(|v| *v <= UNROLL_BYTES);
        if let Some(len) = constant {
            for i in 0..len {
                let at = Expr::int(i, Ty::I64);
                byte(src, (p.array, &p.off), &at, t, span, out);
            }
            return Ok(());
        }
        // for (i = 0; i < n; i++) dst[i] = src[i];
        let i = self.temp(U64);
        let iv = Expr::Var { id: i, ty: U64 };
        out.push(set(i, Expr::int(0, U64), span.clone()));
        let mut body = Vec::new();
        byte(src, (p.array, &p.off), &cast(iv.clone(), Ty::I64), t, span, &mut body);
        let step = Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(iv.clone()),
            rhs: Box::new(Expr::int(1, U64)),
            ty: U64,
        };
        out.push(Stmt {
            kind: StmtKind::Loop {
                cond_stmts: Vec::new(),
                cond: Expr::Binary {
                    op: BinOp::Lt,
                    lhs: Box::new(iv),
                    rhs: Box::new(n.clone()),
                    ty: Ty::Bool,
                },
                body,
                step: vec![set(i, step, span.clone())],
                do_while: false,
            },
            span: span.clone(),
        });
        Ok(())
    }
}

/// The byte at `at` of the destination `(array, off)` gets its value from `src` (through the
/// temporary `t` for a copy).
fn byte(src: &Source, (array, off): (ArrayId, &Expr), at: &Expr, t: VarId, span: &Span, out: &mut Vec<Stmt>) {
    let value = match src {
        Source::Byte(v) => v.clone(),
        Source::Mem(from, from_off) => {
            out.push(Stmt {
                kind: StmtKind::Load {
                    dst: t,
                    array: *from,
                    offset: add_off(from_off.clone(), at.clone()),
                    ty: U8,
                },
                span: span.clone(),
            });
            Expr::Var { id: t, ty: U8 }
        }
    };
    out.push(Stmt {
        kind: StmtKind::Store {
            array,
            offset: add_off(off.clone(), at.clone()),
            value,
            ty: U8,
        },
        span: span.clone(),
    });
}

/// Whether `n` is a null pointer constant: `0`, `NULL`, `nullptr` or `(void *)0`, through
/// parentheses and conversions between pointer types.
pub(in crate::frontend) fn is_null_constant(n: &Node) -> bool {
    let n = strip_parens(n);
    match n.kind.as_str() {
        "CXXNullPtrLiteralExpr" | "GNUNullExpr" => true,
        "ImplicitCastExpr" | "CStyleCastExpr" | "CXXStaticCastExpr" | "CXXReinterpretCastExpr" => {
            match n.cast_kind.as_deref() {
                Some("NullToPointer") => true,
                Some("BitCast" | "NoOp") => n.inner.first().is_some_and(is_null_constant),
                _ => false,
            }
        }
        _ => false,
    }
}
