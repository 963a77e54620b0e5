//! libcu++'s `cuda::atomic_ref<T, Scope>` (and `cuda::std::atomic_ref<T>`, of system scope):
//! a local `cuda::atomic_ref<int, cuda::thread_scope_block> r(x);` (or a temporary,
//! `cuda::atomic_ref<int, …>(x).fetch_add(1)`) names the location `x` and a scope, and its
//! methods are atomics of that scope on it ([`StmtKind::Atomic`], as `atomicAdd_block` and
//! `__nv_atomic_fetch_add` are, `nv_atomic.rs`), recognised by the toolkit's declarations
//! (`cuda/atomic`), whose bodies are not read:
//!
//! - `fetch_add`, `fetch_sub`, `fetch_and`, `fetch_or`, `fetch_xor`, `fetch_min`,
//!   `fetch_max`: the old value, updated by the operation; `exchange(v)`: the old value,
//!   replaced by `v`; `store(v)`: an exchange whose old value is dropped; `load()` and the
//!   conversion `operator T()`: a compare-and-swap that leaves the location as it is;
//!   `compare_exchange_strong`/`_weak(expected, desired)`: as `__nv_atomic_compare_exchange`
//!   (a weak one taken as the strong one).
//! - Scopes: `thread_scope_block` is [`AtomicScope::Block`] (atomic only among the threads
//!   of one block: two blocks' atomics on one global location race), `thread_scope_device`
//!   and `thread_scope_system` theirs; `thread_scope_thread` is refused, as for
//!   `__nv_atomic_*`. Memory orders are ignored (atomics are atomic whatever their order;
//!   gpug orders other accesses by barriers and its flag patterns, not by acquire and
//!   release).
//!
//! Refused (exit 2, naming the call): other methods (`operator+=`, `operator++`, `wait`,
//! `notify_*`), `cuda::atomic<T>` objects (their storage's layout is the header's).

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::{CallSite, LVal, Lower, PtrVal, R, Val, unsupported};
use crate::ir::build::{bin, cast};
use crate::ir::*;

/// Whether a type spelling names an `atomic_ref` (`Some`), and then its scope (`Err` for
/// thread scope).
fn ref_scope(ty: &str) -> Option<Result<AtomicScope, ()>> {
    if !ty.contains("cuda::atomic_ref<") && !ty.contains("std::atomic_ref<") {
        return None;
    }
    Some(if ty.contains("thread_scope_block") {
        Ok(AtomicScope::Block)
    } else if ty.contains("thread_scope_device") {
        Ok(AtomicScope::Device)
    } else if ty.contains("thread_scope_thread") {
        Err(())
    } else {
        Ok(AtomicScope::System)
    })
}

/// [`ref_scope`] of a node's type (desugared first).
fn node_ref(n: &Node) -> Option<Result<AtomicScope, ()>> {
    let t = n.ty.as_ref()?;
    t.desugared
        .as_deref()
        .and_then(ref_scope)
        .or_else(|| ref_scope(&t.qual_type))
}

/// The argument of the `atomic_ref`'s construction under `n` (through cleanups, temporaries
/// and casts).
fn ctor_arg(n: &Node) -> Option<&Node> {
    match n.kind.as_str() {
        "CXXConstructExpr" | "CXXTemporaryObjectExpr" => n.inner.iter().find(|a| a.kind != "CXXDefaultArgExpr"),
        "ExprWithCleanups"
        | "MaterializeTemporaryExpr"
        | "CXXFunctionalCastExpr"
        | "ImplicitCastExpr"
        | "CXXBindTemporaryExpr"
        | "ParenExpr" => n.inner.first().and_then(ctor_arg),
        _ => None,
    }
}

impl Lower<'_, '_> {
    /// The local `d` when it is an `atomic_ref` (`true`: its location and scope recorded,
    /// module docs).
    ///
    /// # Errors
    /// Thread scope; a construction that is not from one location.
    pub(in crate::frontend) fn atomic_ref_decl(&mut self, d: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<bool> {
        let Some(scope) = node_ref(d) else { return Ok(false) };
        let Some(arg) = d.inner.iter().find_map(ctor_arg) else {
            return unsupported(span.clone(), "a `cuda::atomic_ref` not constructed from a location");
        };
        let place = self.atomic_ref_place(arg, scope, span, out)?;
        self.atomic_refs.insert(d.id.clone(), place);
        Ok(true)
    }

    /// The location `arg` names and `scope`.
    fn atomic_ref_place(
        &mut self,
        arg: &Node,
        scope: Result<AtomicScope, ()>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<(PtrVal, AtomicScope)> {
        let Ok(scope) = scope else {
            return unsupported(
                span.clone(),
                "`cuda::atomic_ref` at thread scope (atomic for the calling thread only)",
            );
        };
        match self.lvalue(arg, out)? {
            LVal::Mem { array, off, cty } if cty.scalar().is_some() => Ok((
                PtrVal {
                    array,
                    off,
                    pointee: cty,
                },
                scope,
            )),
            _ => unsupported(
                span.clone(),
                "a `cuda::atomic_ref` to a location that is not one scalar in memory",
            ),
        }
    }

    /// A method call on an `atomic_ref` (callee `c`, module docs); `None` for any other call.
    ///
    /// # Errors
    /// A method the module docs do not list; an `atomic_ref` whose location is not known.
    pub(in crate::frontend) fn atomic_ref_call(
        &mut self,
        call: &CallSite,
        c: &Node,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let (n, name, args, span) = call.parts();
        if c.kind != "MemberExpr" {
            return Ok(None);
        }
        let Some(mut object) = c.inner.first().map(strip_parens) else {
            return Ok(None);
        };
        // The methods are the bases' (`__atomic_ref_bitwise<int, …>`): the object under the
        // conversion to one.
        while object.kind == "ImplicitCastExpr"
            && let Some(x) = object.inner.first()
        {
            object = strip_parens(x);
        }
        let Some(scope) = node_ref(object) else { return Ok(None) };
        let (p, scope) = match object
            .referenced_decl
            .as_ref()
            .and_then(|d| self.atomic_refs.get(&d.id))
        {
            Some(place) => place.clone(),
            None => match ctor_arg(object) {
                Some(arg) => self.atomic_ref_place(arg, scope, span, out)?,
                None => return unsupported(span.clone(), "a `cuda::atomic_ref` whose location is not known"),
            },
        };
        let Some(ty) = p.pointee.scalar() else {
            return unsupported(span.clone(), "a `cuda::atomic_ref` to a location that is not a scalar");
        };
        let what = format!("cuda::atomic_ref::{name}");
        let t = self.temp(ty);
        let old = Expr::Var { id: t, ty };
        let zero = || cast(Expr::int(0, Ty::I32), ty);
        let operand = |l: &mut Self, i: usize, out: &mut Vec<Stmt>| -> R<Expr> {
            let Some(a) = args.get(i) else {
                return unsupported(span.clone(), format!("`{what}` without its operand"));
            };
            let v = l.rvalue(a, out)?;
            Ok(cast(l.expect_scalar(v, a)?, ty))
        };
        let fetch = match name {
            "fetch_add" => Some(AtomicOp::Add),
            "fetch_sub" => Some(AtomicOp::Sub),
            "fetch_and" => Some(AtomicOp::And),
            "fetch_or" => Some(AtomicOp::Or),
            "fetch_xor" => Some(AtomicOp::Xor),
            "fetch_min" => Some(AtomicOp::Min),
            "fetch_max" => Some(AtomicOp::Max),
            "exchange" | "store" => Some(AtomicOp::Exch),
            _ => None,
        };
        let pv = Val::Ptr(p);
        if let Some(op) = fetch {
            let v = operand(self, 0, out)?;
            self.atomic_on(pv, ((op, scope), &what, ty, t), &[v], span, out)?;
            return Ok(Some(if name == "store" { Val::Void } else { Val::Scalar(old) }));
        }
        if name == "load" || name.starts_with("operator ") && self.scalar_ty(n).is_ok() {
            self.atomic_on(pv, ((AtomicOp::Cas, scope), &what, ty, t), &[zero(), zero()], span, out)?;
            return Ok(Some(Val::Scalar(old)));
        }
        if name == "compare_exchange_strong" || name == "compare_exchange_weak" {
            let Some(e) = args.first() else {
                return unsupported(span.clone(), format!("`{what}` without its arguments"));
            };
            let place = self.lvalue(e, out)?;
            let ev = self.read(place.clone(), e, out)?;
            let ev = cast(self.expect_scalar(ev, e)?, ty);
            let desired = operand(self, 1, out)?;
            let et = self.temp(ty);
            out.push(Stmt {
                kind: StmtKind::Assign { var: et, value: ev },
                span: span.clone(),
            });
            let ev = Expr::Var { id: et, ty };
            self.atomic_on(
                pv,
                ((AtomicOp::Cas, scope), &what, ty, t),
                &[ev.clone(), desired],
                span,
                out,
            )?;
            let ok = bin(BinOp::Eq, old.clone(), ev, Ty::Bool);
            // On success `expected` already holds the old value: writing it back either way
            // is the same value (one more write, which can only add a race).
            self.assign(&place, Val::Scalar(old), e, span, out)?;
            return Ok(Some(Val::Scalar(ok)));
        }
        unsupported(
            span.clone(),
            format!("`{what}` (fetch_OP, load, store, exchange and compare_exchange are modelled)"),
        )
    }
}
