//! CUB's `cub::BlockReduce<T, BLOCK_THREADS>` modelled by its documented contract (CUB's
//! documentation of `BlockReduce`: "a subsequent `__syncthreads()` threadblock barrier should
//! be invoked after calling this method if the collective's temporary storage (e.g.,
//! `temp_storage`) is to be reused or repurposed"), not read from CCCL's headers:
//!
//! - `__shared__ typename BlockReduce::TempStorage temp;` is [`SLOTS`] words of `__shared__`
//!   memory standing for the whole storage (`decl.rs` asks [`is_temp_storage`]).
//! - `BlockReduce(temp).Sum(v)`, `.Reduce(v, op)` (and their forms with a count of valid
//!   items), on a temporary or a local `BlockReduce r(temp);`: every thread writes its word
//!   of the storage (its rank in the block; CUB's warps write their partial results to
//!   words of their own), then a barrier of the block (`__syncthreads()`, which CUB's
//!   implementations have: every thread of the block must make the call), then every thread
//!   reads any word (in CUB only thread 0 reads the partial results: taking every thread
//!   and every word is an over-approximation, which can only add races). So two calls on one
//!   `TempStorage` without a barrier between them race (a read of the first with a write of
//!   the second), and with one do not.
//! - The result is any value, per thread and per call (listed as uninterpreted: a defect
//!   that depends on it is possible); the reduction's value is not modelled.
//!
//! Refused (exit 2): `BlockReduce()` without a `TempStorage` (its private storage), other
//! methods, and CUB's other collectives (`BlockScan`, `BlockLoad`, `WarpReduce`, …), whose
//! `TempStorage` is then refused as any header-declared record stored in memory.

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::groups::block_rank;
use crate::frontend::lower::{CallSite, LVal, Lower, PtrVal, R, Val, unsupported};
use crate::ir::build::{bin, cast};
use crate::ir::*;

/// The words of a `TempStorage` (`U32`): one per thread of the largest block.
pub(in crate::frontend) const SLOTS: u32 = 1024;

/// Whether a type spelling is a CUB `BlockReduce`'s `TempStorage`.
pub(in crate::frontend) fn is_temp_storage(ty: &str) -> bool {
    ty.contains("cub::") && ty.contains("BlockReduce<") && ty.trim_end().ends_with("::TempStorage")
}

/// Whether a node's type is a `cub::BlockReduce`.
fn is_block_reduce(n: &Node) -> bool {
    n.ty.as_ref().is_some_and(|t| {
        let s = t.desugared.as_deref().unwrap_or(&t.qual_type);
        let bare = s.trim_start_matches("const ").trim_end_matches('&').trim();
        (bare.contains("cub::") || t.qual_type.contains("cub::"))
            && bare.contains("BlockReduce<")
            && !bare.ends_with("TempStorage")
    })
}

/// The construction under `n` (through cleanups, temporaries and casts): its arguments.
fn construction(n: &Node) -> Option<&Node> {
    match n.kind.as_str() {
        "CXXConstructExpr" | "CXXTemporaryObjectExpr" => Some(n),
        "ExprWithCleanups"
        | "MaterializeTemporaryExpr"
        | "CXXFunctionalCastExpr"
        | "ImplicitCastExpr"
        | "CXXBindTemporaryExpr"
        | "ParenExpr" => n.inner.first().and_then(construction),
        _ => None,
    }
}

impl Lower<'_, '_> {
    /// The `TempStorage` a `BlockReduce` construction `c` is given.
    ///
    /// # Errors
    /// A construction without one (CUB's private storage), or one not in `__shared__`
    /// memory.
    fn cub_storage(&mut self, c: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<PtrVal> {
        let Some(arg) = c.inner.iter().find(|a| a.kind != "CXXDefaultArgExpr") else {
            return unsupported(
                span.clone(),
                "`cub::BlockReduce` without a `TempStorage` (its private storage) is not modelled",
            );
        };
        match self.lvalue(arg, out)? {
            LVal::Mem { array, off, cty } if self.k.array(array).space == Space::Shared => Ok(PtrVal {
                array,
                off,
                pointee: cty,
            }),
            _ => unsupported(
                span.clone(),
                "`cub::BlockReduce` whose `TempStorage` is not a `__shared__` variable is not modelled",
            ),
        }
    }

    /// The local `d` when it is a `cub::BlockReduce` (`true`: its storage recorded).
    ///
    /// # Errors
    /// As [`Self::cub_storage`].
    pub(in crate::frontend) fn cub_decl(&mut self, d: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<bool> {
        if !is_block_reduce(d) {
            return Ok(false);
        }
        let Some(c) = d.inner.iter().find_map(construction) else {
            return unsupported(
                span.clone(),
                "a `cub::BlockReduce` not constructed from a `TempStorage`",
            );
        };
        let p = self.cub_storage(c, span, out)?;
        self.cub_objects.insert(d.id.clone(), p);
        Ok(true)
    }

    /// A method call on a `cub::BlockReduce` (callee `c`, module docs); `None` for any other
    /// call.
    ///
    /// # Errors
    /// A method other than `Sum` and `Reduce`; as [`Self::cub_storage`].
    pub(in crate::frontend) fn cub_call(&mut self, call: &CallSite, c: &Node, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let (n, name, args, span) = call.parts();
        if c.kind != "MemberExpr" {
            return Ok(None);
        }
        let Some(mut object) = c.inner.first().map(strip_parens) else {
            return Ok(None);
        };
        while object.kind == "ImplicitCastExpr"
            && let Some(x) = object.inner.first()
        {
            object = strip_parens(x);
        }
        if !is_block_reduce(object) {
            return Ok(None);
        }
        let storage = match object
            .referenced_decl
            .as_ref()
            .and_then(|d| self.cub_objects.get(&d.id))
        {
            Some(p) => p.clone(),
            None => match construction(object) {
                Some(k) => self.cub_storage(k, span, out)?,
                None => return unsupported(span.clone(), "a `cub::BlockReduce` whose `TempStorage` is not known"),
            },
        };
        if name != "Sum" && name != "Reduce" {
            return unsupported(
                span.clone(),
                format!("`cub::BlockReduce::{name}` (Sum and Reduce are modelled)"),
            );
        }
        // The input's reads (a value, or the thread's items).
        let mut inputs = Vec::new();
        if let Some(a) = args.first()
            && let Val::Scalar(e) = self.rvalue(a, out)?
        {
            inputs.push(e);
        }
        for a in args.iter().skip(1) {
            if !matches!(self.ctype(a), crate::frontend::types::CType::Record(_)) {
                self.rvalue(a, out)?;
            }
        }
        self.note_once(
            "cub::BlockReduce",
            span,
            "is modelled by CUB's contract: every thread writes its word of the TempStorage, then a barrier, then every thread reads any word; the result is any value",
        );
        let word = self.temp(Ty::U32);
        out.push(Stmt {
            kind: StmtKind::Havoc { var: word },
            span: span.clone(),
        });
        let slot = |i: Expr| {
            let i = bin(BinOp::BitAnd, i, Expr::int(i64::from(SLOTS - 1), Ty::U32), Ty::U32);
            let b = bin(BinOp::Mul, cast(i, Ty::I64), Expr::int(4, Ty::I64), Ty::I64);
            bin(BinOp::Add, storage.off.clone(), b, Ty::I64)
        };
        out.push(Stmt {
            kind: StmtKind::Store {
                array: storage.array,
                offset: slot(block_rank()),
                value: Expr::Var { id: word, ty: Ty::U32 },
                ty: Ty::U32,
            },
            span: span.clone(),
        });
        out.push(Stmt {
            kind: StmtKind::Barrier(BarrierScope::Block, Fences::ALL),
            span: span.clone(),
        });
        let any = self.temp(Ty::U32);
        out.push(Stmt {
            kind: StmtKind::Havoc { var: any },
            span: span.clone(),
        });
        let read = self.temp(Ty::U32);
        out.push(Stmt {
            kind: StmtKind::Load {
                dst: read,
                array: storage.array,
                offset: slot(Expr::Var { id: any, ty: Ty::U32 }),
                ty: Ty::U32,
            },
            span: span.clone(),
        });
        let name = format!("cub::BlockReduce::{name}");
        Ok(Some(Val::Scalar(
            self.arbitrary_per_thread(n, &name, inputs, span, out)?,
        )))
    }
}
