//! libcu++'s `cuda::barrier<cuda::thread_scope_block>` and the asynchronous copies it
//! completes, `cuda::memcpy_async(group, dst, src, bytes, bar)` and `cuda::memcpy_async(dst,
//! src, bytes, bar)` (CUDA C++ Programming Guide, "Asynchronous Barrier" and "Asynchronous
//! Data Copies"), recognised by their declarations in the toolkit's headers (`cuda/barrier`),
//! whose bodies are not read. A function of the program with one of these names is lowered
//! from its body (`calls/mod.rs` hands a call here only when it is not the program's).
//!
//! - `init(&bar, n)`: an assertion that `n` is the number of threads of the block. Only such
//!   a barrier is modelled: its `arrive_and_wait()` is then a barrier of the whole block (its
//!   phase completes when every thread of the block has arrived). A barrier expecting fewer
//!   threads would order less than `__syncthreads()`, so that assertion failing is a finding
//!   (its note says why), never a verdict resting on it.
//! - `bar.arrive_and_wait()`: [`SyncEvent::CopyWait`] of the barrier's event (the copies
//!   completed through it are complete), then a block barrier ([`BarrierScope::Block`]).
//! - `cuda::memcpy_async(…, bar)`: a copy ([`Lower::block_copy`]) whose event is the
//!   barrier's identity (its array and byte offset, [`barrier_event`]): the whole block's copy
//!   with a `thread_block` first argument, else the thread's own. Its accesses may happen at
//!   any time up to the thread's next `arrive_and_wait` on that barrier.
//! - Refused (exit 2, naming the call): `arrive()`/`wait(token)` split phases,
//!   `arrive_and_drop()`, a completion function, a barrier of another scope than the block's
//!   or outside `__shared__` memory, counts of type `cuda::aligned_size_t`.
//!   (`cuda::memcpy_async` with a `cuda::pipeline` is `thread_pipeline.rs`'s.) clang itself refuses `__shared__ cuda::barrier<…> bar;`
//!   ("initialization is not supported for __shared__ variables", which nvcc only warns
//!   about): such a barrier is declared in `__shared__` storage of its size and referred to
//!   through a reference (`barrier_t &bar = *reinterpret_cast<barrier_t *>(storage);`).
//!
//! Not modelled: the barrier's phases beyond that (a barrier used without `init`, or
//! re-initialised), mbarrier-based transaction counts (`cuda::device::memcpy_async_tx`,
//! `barrier_arrive_tx`), TMA tensor maps.

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::groups::{Group, block_size, node_group};
use crate::frontend::cuda::pipeline::CopyKind;
use crate::frontend::lower::{CallSite, LVal, Lower, R, Val, unsupported};
use crate::ir::build::{bin, cast};
use crate::ir::*;

/// Whether a type spelling names a `cuda::barrier` (or a pointer or reference to one), and
/// then whether of block scope.
fn barrier_type(ty: &str) -> Option<bool> {
    ty.contains("cuda::barrier<").then(|| ty.contains("thread_scope_block"))
}

/// [`barrier_type`] of a node's type (desugared first); of `&x`, of `x`'s (an alias's
/// pointer type, `barrier_t *`, is not desugared).
fn node_barrier(n: &Node) -> Option<bool> {
    let t = n.ty.as_ref()?;
    t.desugared
        .as_deref()
        .and_then(barrier_type)
        .or_else(|| barrier_type(&t.qual_type))
        .or_else(|| match (n.kind.as_str(), n.inner.first()) {
            ("UnaryOperator", Some(x)) if n.opcode.as_deref() == Some("&") => node_barrier(strip_parens(x)),
            _ => None,
        })
}

/// The event of the barrier at byte `off` of `array` (`U32`): `(array + 1) * 2^20 + off`, one
/// per barrier object (a block's shared memory is below 2^20 bytes), the same in every thread
/// that names it.
fn barrier_event(array: ArrayId, off: Expr) -> Expr {
    let base = ((array.0 as i64) + 1) << 20;
    bin(BinOp::Add, cast(off, Ty::U32), Expr::int(base, Ty::U32), Ty::U32)
}

impl Lower<'_, '_> {
    /// A call `n` (callee `c`) on a `cuda::barrier` or of a copy completed through one (module
    /// docs); `None` for any other call.
    ///
    /// # Errors
    /// What the module docs list as refused.
    pub(in crate::frontend) fn barrier_call(
        &mut self,
        call: &CallSite,
        c: &Node,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let (_, name, args, span) = call.parts();
        if c.kind == "MemberExpr" {
            let Some(object) = c.inner.first() else { return Ok(None) };
            let Some(block) = node_barrier(strip_parens(object)) else {
                return Ok(None);
            };
            let event = self.barrier_place(object, c.is_arrow, block, span, out)?;
            return match name {
                "arrive_and_wait" => {
                    out.push(Stmt {
                        kind: StmtKind::Sync(SyncEvent::CopyWait { events: vec![event] }),
                        span: span.clone(),
                    });
                    out.push(Stmt {
                        kind: StmtKind::Barrier(BarrierScope::Block, Fences::ALL),
                        span: span.clone(),
                    });
                    Ok(Some(Val::Void))
                }
                _ => unsupported(
                    span.clone(),
                    format!("`cuda::barrier::{name}` (only `init` and `arrive_and_wait` are modelled)"),
                ),
            };
        }
        if c.kind != "DeclRefExpr" {
            return Ok(None);
        }
        match name {
            "init" => {
                let Some(first) = args.first() else { return Ok(None) };
                let Some(block) = node_barrier(strip_parens(first)) else {
                    return Ok(None);
                };
                let (bar, count) = match args {
                    [bar, count] => (bar, count),
                    [bar, count, completion] if completion.kind == "CXXDefaultArgExpr" => (bar, count),
                    _ => {
                        return unsupported(
                            span.clone(),
                            "`init` of a `cuda::barrier` with a completion function is not modelled",
                        );
                    }
                };
                self.barrier_place(bar, true, block, span, out)?;
                let v = self.rvalue(count, out)?;
                let n = cast(self.expect_scalar(v, count)?, Ty::I64);
                self.note_once(
                    "cuda::barrier",
                    span,
                    "is modelled for an expected count of the whole block only, checked as an assertion at its init: arrive_and_wait is then a barrier of the block",
                );
                out.push(Stmt {
                    kind: StmtKind::Assert {
                        cond: bin(BinOp::Eq, n, cast(block_size(), Ty::I64), Ty::Bool),
                    },
                    span: span.clone(),
                });
                Ok(Some(Val::Void))
            }
            "memcpy_async" => {
                let Some(last) = args.last() else { return Ok(None) };
                let Some(block) = node_barrier(strip_parens(last)) else {
                    return Ok(None);
                };
                let (collective, d, s, bytes, bar) = self.memcpy_async_operands(name, args, span, out)?;
                let event = self.barrier_place(bar, false, block, span, out)?;
                self.block_copy_from(
                    (d, s),
                    bytes,
                    (
                        event,
                        CopyKind {
                            collective,
                            tile: None,
                            commit: false,
                        },
                    ),
                    (
                        "cuda::memcpy_async",
                        "is modelled as every byte of its destination written (and of its source read) at any time from the call up to the arrive_and_wait of its cuda::barrier",
                    ),
                    span,
                    out,
                )?;
                Ok(Some(Val::Void))
            }
            _ => Ok(None),
        }
    }

    /// The event ([`barrier_event`]) of the barrier `n` (a pointer to it when `ptr`) of block
    /// scope when `block`.
    ///
    /// # Errors
    /// A barrier of another scope, outside `__shared__` memory, or at a place that is not one
    /// array.
    fn barrier_place(&mut self, n: &Node, ptr: bool, block: bool, span: &Span, out: &mut Vec<Stmt>) -> R<Expr> {
        if !block {
            return unsupported(
                span.clone(),
                "a `cuda::barrier` of another scope than `cuda::thread_scope_block` is not modelled",
            );
        }
        let (array, off) = match ptr {
            true => {
                let v = self.rvalue(n, out)?;
                let p = self.expect_ptr(v, n)?;
                (p.array, p.off)
            }
            false => match self.lvalue(n, out)? {
                LVal::Mem { array, off, .. } => (array, off),
                _ => return unsupported(span.clone(), "a `cuda::barrier` that is not in `__shared__` memory"),
            },
        };
        if self.k.array(array).space != Space::Shared {
            return unsupported(span.clone(), "a `cuda::barrier` that is not in `__shared__` memory");
        }
        Ok(barrier_event(array, off))
    }
}

impl Lower<'_, '_> {
    /// The operands of `cuda::memcpy_async([group,] dst, src, size, barrier_or_pipeline)` (the
    /// call `name` with the argument nodes `args`), shared by the `cuda::barrier` and
    /// `cuda::pipeline` forms: whether a `thread_block` makes the copy, the destination and
    /// source pointers, the byte count, and the node of the barrier or pipeline.
    ///
    /// Errors: a group other than a `thread_block`, another argument count, pointers that do
    /// not resolve, a count that is not a known size.
    pub(in crate::frontend) fn memcpy_async_operands<'n>(
        &mut self,
        name: &str,
        args: &'n [&'n Node],
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<(bool, crate::frontend::lower::PtrVal, Val, Expr, &'n Node)> {
        let (collective, rest) = match args {
            [g, rest @ ..] if rest.len() == 4 => match node_group(strip_parens(g), &self.g.group_aliases) {
                Some(Group::Block) => (true, rest),
                _ => {
                    return unsupported(
                        span.clone(),
                        "`cuda::memcpy_async` on a group other than a `thread_block` is not modelled",
                    );
                }
            },
            rest if rest.len() == 4 => (false, rest),
            _ => return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len())),
        };
        let [dst, src, size, target] = rest else {
            return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
        };
        let d = self.rvalue(dst, out)?;
        let d = self.expect_ptr(d, dst)?;
        // The source may be one of two arrays (`c ? &A[i] : &B[j]`): a copy from each, by case
        // ([`Lower::block_copy_from`]).
        let s = match self.rvalue(src, out)? {
            s @ Val::PtrCond(..) => s,
            s => Val::Ptr(self.expect_ptr(s, src)?),
        };
        let bytes = self.count_arg(name, size, span, out)?;
        Ok((collective, d, s, bytes, *target))
    }
}
