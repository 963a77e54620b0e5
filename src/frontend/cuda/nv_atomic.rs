//! CUDA 12.8's atomics with a memory order and a thread scope (CUDA C++ Programming Guide,
//! "Built-in Atomic Functions"): `__nv_atomic_fetch_add(p, v, order, scope)`, its `sub`,
//! `min`, `max`, `and`, `or`, `xor` siblings and their forms without a result
//! (`__nv_atomic_add`), `__nv_atomic_load_n`, `__nv_atomic_store_n`,
//! `__nv_atomic_exchange_n`, `__nv_atomic_compare_exchange_n`, their forms through pointers
//! (`__nv_atomic_load(p, &ret, order)`, …) and `__nv_atomic_thread_fence`. nvcc's built-ins:
//! gpug's prelude declares them (`nvidia_prelude.h`, for `CUDA_VERSION >= 12080`).
//!
//! Each is an atomic ([`crate::ir::StmtKind::Atomic`]) of its scope: a load is a
//! compare-and-swap that leaves the location as it is (`CAS(p, 0, 0)`), a store an exchange
//! whose old value is dropped. The memory order is evaluated and ignored: atomics are atomic
//! whatever their order, and gpug orders other accesses by barriers, not by the acquire and
//! release of atomics (a kernel that publishes data through a release store may get a false
//! alarm, never a missed race). The scope must be an integer constant: block and cluster
//! scopes are [`AtomicScope::Block`] (a cluster is at least a block: taking only the block is
//! an over-approximation of races), device and system scope theirs; thread scope, atomic for
//! the calling thread alone, is refused.
//!
//! Does not decide which calls are built-ins (`builtins.rs`) nor how an atomic is encoded.

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, Lower, R, Val, unsupported};
use crate::ir::build::cast;
use crate::ir::*;

/// One form of CUDA 12.8's atomic built-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NvAtomic {
    /// `__nv_atomic_fetch_OP(p, v, order[, scope])`: the old value of `*p`, updated by the
    /// operation; `__nv_atomic_OP(p, v, order[, scope])` the same without a result.
    Fetch(AtomicOp),
    /// `__nv_atomic_load_n(p, order[, scope])`: `*p`, read atomically.
    LoadN,
    /// `__nv_atomic_load(p, ret, order[, scope])`: `*ret = *p`, `*p` read atomically.
    Load,
    /// `__nv_atomic_store_n(p, v, order[, scope])`: `*p = v` atomically.
    StoreN,
    /// `__nv_atomic_store(p, val, order[, scope])`: `*p = *val` atomically.
    Store,
    /// `__nv_atomic_exchange_n(p, v, order[, scope])`: the old value of `*p`, replaced by `v`.
    ExchangeN,
    /// `__nv_atomic_exchange(p, val, ret, order[, scope])`: `*ret` = the old value of `*p`,
    /// replaced by `*val`.
    Exchange,
    /// `__nv_atomic_compare_exchange_n(p, expected, desired, weak, success, failure[,
    /// scope])`: when `*p == *expected`, `*p = desired` and `true`; else `*expected = *p` and
    /// `false` (a weak exchange may fail spuriously: taken as the strong one, which only drops
    /// outcomes where it would have failed with `*expected` rewritten to what it held).
    CompareExchangeN,
    /// `__nv_atomic_compare_exchange(p, expected, desired, weak, success, failure[, scope])`:
    /// as [`NvAtomic::CompareExchangeN`] with `*desired`.
    CompareExchange,
    /// `__nv_atomic_thread_fence(order[, scope])`: a fence of the scope.
    ThreadFence,
}

impl NvAtomic {
    /// How many arguments come before the memory orders (the pointer and the operands), and
    /// how many orders follow.
    fn shape(self) -> (usize, usize) {
        match self {
            Self::ThreadFence => (0, 1),
            Self::LoadN => (1, 1),
            Self::Fetch(_) | Self::Load | Self::StoreN | Self::Store | Self::ExchangeN => (2, 1),
            Self::Exchange => (3, 1),
            Self::CompareExchangeN | Self::CompareExchange => (4, 2),
        }
    }
}

impl Lower<'_, '_> {
    /// The call `call` to the CUDA 12.8 atomic of form `kind` (module docs).
    ///
    /// # Errors
    /// Too few arguments, a scope that is not an integer constant or is thread scope, a
    /// location that is not a scalar.
    pub(in crate::frontend) fn nv_atomic(&mut self, call: &CallSite, kind: NvAtomic, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let (lead, orders) = kind.shape();
        if args.len() < lead + orders {
            return unsupported(span.clone(), format!("`{name}` needs {} arguments", lead + orders));
        }
        let scope = self.nv_scope(args.get(lead + orders).copied(), name, span, out)?;
        for a in &args[lead..lead + orders] {
            self.rvalue(a, out)?;
        }
        if kind == NvAtomic::ThreadFence {
            out.push(Stmt {
                kind: StmtKind::Fence(scope),
                span: span.clone(),
            });
            return Ok(Val::Void);
        }
        let p = args[0];
        let (pv, ty) = self.atomic_target(p, name, span, out)?;
        let t = self.temp(ty);
        let old = Val::Scalar(Expr::Var { id: t, ty });
        let zero = || cast(Expr::int(0, Ty::I32), ty);
        match kind {
            NvAtomic::Fetch(op) => {
                let v = self.nv_operand(args[1], ty, out)?;
                self.atomic_on(pv, ((op, scope), name, ty, t), &[v], span, out)?;
                Ok(old)
            }
            NvAtomic::LoadN | NvAtomic::Load => {
                self.atomic_on(pv, ((AtomicOp::Cas, scope), name, ty, t), &[zero(), zero()], span, out)?;
                if kind == NvAtomic::LoadN {
                    return Ok(old);
                }
                self.nv_write_through(args[1], old, span, out)?;
                Ok(Val::Void)
            }
            NvAtomic::StoreN | NvAtomic::ExchangeN => {
                let v = self.nv_operand(args[1], ty, out)?;
                self.atomic_on(pv, ((AtomicOp::Exch, scope), name, ty, t), &[v], span, out)?;
                Ok(if kind == NvAtomic::ExchangeN { old } else { Val::Void })
            }
            NvAtomic::Store | NvAtomic::Exchange => {
                let v = self.nv_read_through(args[1], ty, out)?;
                self.atomic_on(pv, ((AtomicOp::Exch, scope), name, ty, t), &[v], span, out)?;
                if kind == NvAtomic::Exchange {
                    self.nv_write_through(args[2], old, span, out)?;
                }
                Ok(Val::Void)
            }
            NvAtomic::CompareExchangeN | NvAtomic::CompareExchange => {
                let expected = self.nv_read_through(args[1], ty, out)?;
                let desired = match kind {
                    NvAtomic::CompareExchange => self.nv_read_through(args[2], ty, out)?,
                    _ => self.nv_operand(args[2], ty, out)?,
                };
                self.rvalue(args[3], out)?;
                let e = self.temp(ty);
                out.push(Stmt {
                    kind: StmtKind::Assign {
                        var: e,
                        value: expected,
                    },
                    span: span.clone(),
                });
                let ev = Expr::Var { id: e, ty };
                self.atomic_on(
                    pv,
                    ((AtomicOp::Cas, scope), name, ty, t),
                    &[ev.clone(), desired],
                    span,
                    out,
                )?;
                let oldv = Expr::Var { id: t, ty };
                let ok = crate::ir::build::bin(BinOp::Eq, oldv, ev, Ty::Bool);
                // On success `*expected` already holds the old value: writing it back either
                // way is the same value (one more write, which can only add a race).
                self.nv_write_through(args[1], old, span, out)?;
                Ok(Val::Scalar(ok))
            }
            NvAtomic::ThreadFence => Ok(Val::Void),
        }
    }

    /// The scope argument `a` (`None` or clang's default argument: system scope, the
    /// declaration's default).
    fn nv_scope(&mut self, a: Option<&Node>, name: &str, span: &Span, out: &mut Vec<Stmt>) -> R<AtomicScope> {
        let Some(a) = a.filter(|a| a.kind != "CXXDefaultArgExpr") else {
            return Ok(AtomicScope::System);
        };
        let scope = self.const_arg(a, out)?;
        let Some(v) = scope.and_then(|v| i64::try_from(v).ok()) else {
            return unsupported(
                span.clone(),
                format!("`{name}` with a scope that is not an integer constant"),
            );
        };
        match v {
            1 | 2 => Ok(AtomicScope::Block),
            3 => Ok(AtomicScope::Device),
            4 => Ok(AtomicScope::System),
            0 => unsupported(
                span.clone(),
                format!("`{name}` at thread scope (atomic for the calling thread only)"),
            ),
            _ => unsupported(span.clone(), format!("`{name}` with the unknown scope {v}")),
        }
    }

    /// The operand `a`, converted to the location's type `ty`.
    fn nv_operand(&mut self, a: &Node, ty: Ty, out: &mut Vec<Stmt>) -> R<Expr> {
        let v = self.rvalue(a, out)?;
        Ok(cast(self.expect_scalar(v, a)?, ty))
    }

    /// `*a`, converted to `ty`.
    fn nv_read_through(&mut self, a: &Node, ty: Ty, out: &mut Vec<Stmt>) -> R<Expr> {
        let pv = self.rvalue(a, out)?;
        let lv = self.deref(pv, a)?;
        let v = self.read(lv, a, out)?;
        Ok(cast(self.expect_scalar(v, a)?, ty))
    }

    /// `*a = v`.
    fn nv_write_through(&mut self, a: &Node, v: Val, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let pv = self.rvalue(a, out)?;
        let lv = self.deref(pv, a)?;
        self.assign(&lv, v, a, span, out)
    }
}
