//! libcu++'s per-thread pipeline, `cuda::pipeline<cuda::thread_scope_thread>` (CUDA C++
//! Programming Guide, "Asynchronous Data Copies using `cuda::pipeline`", single-stage and
//! multi-stage copies), recognised by its declarations in the toolkit's `cuda/pipeline`,
//! whose bodies are not read; as the header implements it on sm_80 with `cp.async`:
//!
//! - `auto pipe = cuda::make_pipeline();`: the thread's pipeline, a handle without storage.
//!   Its head is the thread's count of committed groups (`pipeline.rs`'s counter, shared with
//!   `__pipeline_commit`, as the hardware's groups are), its tail a `U32` counter of the
//!   groups its consumer waited for, 0 at the call.
//! - `cuda::memcpy_async(dst, src, bytes, pipe)` (or with a `thread_block` first, the whole
//!   block's copy): a copy ([`Lower::block_copy`]) in the thread's current commit group.
//! - `pipe.producer_commit()`: `__pipeline_commit()`.
//! - `pipe.consumer_wait()`: when `head != tail`, [`SyncEvent::CopyWaitPrior`] with `prior =
//!   head - tail - 1` (the oldest group not waited for is complete), then `tail + 1`.
//! - `cuda::pipeline_consumer_wait_prior<N>(pipe)`: when more than `N` groups are not yet
//!   waited for, [`SyncEvent::CopyWaitPrior`] with `prior = N`, then `tail = head - N` (the
//!   header's `cp.async.wait_group N`).
//! - `pipe.producer_acquire()`, `pipe.consumer_release()`: nothing (the header's are empty:
//!   a thread's stages are its own, so ordering other threads' uses of a stage is the
//!   program's barriers' work).
//!
//! Refused (exit 2, naming the call): a second `make_pipeline()` in a kernel, the block-scope
//! pipeline (`make_pipeline(group, &shared_state)`, whose `pipeline_shared_state` clang also
//! refuses in `__shared__` memory), `consumer_wait_for`/`_until`, `quit`.

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::pipeline::CopyKind;
use crate::frontend::lower::{CallSite, Lower, R, Val, unsupported};
use crate::ir::build::bin;
use crate::ir::*;

/// Whether a type spelling names a `cuda::pipeline` (`Some`), and then whether of thread
/// scope.
fn pipeline_type(ty: &str) -> Option<bool> {
    ty.contains("cuda::pipeline<")
        .then(|| ty.contains("thread_scope_thread"))
}

/// [`pipeline_type`] of a node's type (desugared first).
fn node_pipeline(n: &Node) -> Option<bool> {
    let t = n.ty.as_ref()?;
    let bare = |s: &str| s.trim_start_matches("const ").trim_end_matches('&').trim().to_string();
    t.desugared
        .as_deref()
        .and_then(|d| pipeline_type(&bare(d)))
        .or_else(|| pipeline_type(&bare(&t.qual_type)))
}

/// The first call to `name` in `n` (pre-order).
fn find_call<'n>(n: &'n Node, name: &str) -> Option<&'n Node> {
    if n.kind == "CallExpr"
        && let Some(c) = n.inner.first()
        && strip_parens(c).referenced_decl.as_ref().is_some_and(|d| d.name == name)
    {
        return Some(n);
    }
    n.inner.iter().find_map(|c| find_call(c, name))
}

impl Lower<'_, '_> {
    /// The local `d` when it is a `cuda::pipeline` (`true`: lowered, module docs).
    ///
    /// # Errors
    /// A pipeline of another scope, one not made by `cuda::make_pipeline()`, a second one.
    pub(in crate::frontend) fn thread_pipeline_decl(&mut self, d: &Node, span: &Span) -> R<bool> {
        let Some(thread) = node_pipeline(d) else {
            return Ok(false);
        };
        let made = find_call(d, "make_pipeline");
        if !thread || made.is_none_or(|m| m.inner.len() != 1) {
            return unsupported(
                span.clone(),
                "a `cuda::pipeline` of block scope (`make_pipeline(group, &shared_state)`) is not modelled; `cuda::pipeline<cuda::thread_scope_thread>` is",
            );
        }
        if self.pipeline_tail.is_some() {
            return unsupported(span.clone(), "a second `cuda::pipeline` in a kernel is not modelled");
        }
        let tail = self.temp(Ty::U32);
        self.prologue.push(Stmt {
            kind: StmtKind::Assign {
                var: tail,
                value: Expr::int(0, Ty::U32),
            },
            span: self.kspan.clone(),
        });
        self.pipeline_tail = Some(tail);
        Ok(true)
    }

    /// A call `n` (callee `c`) on the thread's `cuda::pipeline` or of a copy into it (module
    /// docs); `None` for any other call.
    ///
    /// # Errors
    /// What the module docs list as refused.
    pub(in crate::frontend) fn thread_pipeline_call(
        &mut self,
        call: &CallSite,
        c: &Node,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let (_, name, args, span) = call.parts();
        if c.kind == "MemberExpr" {
            let Some(object) = c.inner.first() else { return Ok(None) };
            if node_pipeline(strip_parens(object)).is_none() {
                return Ok(None);
            }
            let Some(tail) = self.pipeline_tail else {
                return unsupported(span.clone(), "a `cuda::pipeline` not made by `cuda::make_pipeline()`");
            };
            match name {
                "producer_acquire" | "consumer_release" => {}
                "producer_commit" => self.pipeline_commit(span, out),
                "consumer_wait" => {
                    let head = self.pipeline_committed();
                    let tv = Expr::Var { id: tail, ty: Ty::U32 };
                    let one = || Expr::int(1, Ty::U32);
                    let prior = bin(
                        BinOp::Sub,
                        bin(BinOp::Sub, head.clone(), tv.clone(), Ty::U32),
                        one(),
                        Ty::U32,
                    );
                    let next = bin(BinOp::Add, tv.clone(), one(), Ty::U32);
                    let waits = bin(BinOp::Ne, head.clone(), tv, Ty::Bool);
                    self.pipeline_wait(tail, (head, prior, next, waits), span, out);
                }
                _ => {
                    return unsupported(
                        span.clone(),
                        format!(
                            "`cuda::pipeline::{name}` (producer_acquire, producer_commit, consumer_wait and consumer_release are modelled)"
                        ),
                    );
                }
            }
            return Ok(Some(Val::Void));
        }
        if c.kind == "DeclRefExpr" && name == "pipeline_consumer_wait_prior" {
            return self.consumer_wait_prior(call, c, out).map(Some);
        }
        if c.kind != "DeclRefExpr" || name != "memcpy_async" {
            return Ok(None);
        }
        let Some(last) = args.last() else { return Ok(None) };
        let Some(thread) = node_pipeline(strip_parens(last)) else {
            return Ok(None);
        };
        if !thread || self.pipeline_tail.is_none() {
            return unsupported(
                span.clone(),
                "`cuda::memcpy_async` into a `cuda::pipeline` of block scope is not modelled",
            );
        }
        let (collective, d, s, bytes, _) = self.memcpy_async_operands(name, args, span, out)?;
        let event = self.pipeline_committed();
        self.block_copy_from(
            (d, s),
            bytes,
            (event, CopyKind {
                collective,
                tile: None,
                commit: true,
            }),
            (
                "cuda::memcpy_async",
                "is modelled as every byte of its destination written (and of its source read) at any time from the call up to the consumer_wait of its cuda::pipeline that covers its stage",
            ),
            span,
            out,
        )?;
        Ok(Some(Val::Void))
    }
}

impl Lower<'_, '_> {
    /// When `waits`, the wait of the thread's pipeline's consumer for all but the `prior` most
    /// recent of its `head` committed groups ([`SyncEvent::CopyWaitPrior`]), its `tail` then
    /// `next`.
    fn pipeline_wait(
        &mut self,
        tail: VarId,
        (head, prior, next, waits): (Expr, Expr, Expr, Expr),
        span: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let then = vec![
            Stmt {
                kind: StmtKind::Sync(SyncEvent::CopyWaitPrior { committed: head, prior }),
                span: span.clone(),
            },
            Stmt {
                kind: StmtKind::Assign { var: tail, value: next },
                span: span.clone(),
            },
        ];
        out.push(Stmt {
            kind: StmtKind::If {
                cond: waits,
                then,
                els: Vec::new(),
            },
            span: span.clone(),
        });
    }

    /// `cuda::pipeline_consumer_wait_prior<N>(pipe)` (`cuda/pipeline`: `cp.async.wait_group
    /// N`, then `tail = head - N`): when more than `N` groups are not yet waited for, the wait
    /// for all but the `N` most recent, after which the consumer has waited for those.
    ///
    /// # Errors
    /// A pipeline not made by `cuda::make_pipeline()`, a stage that is not a known constant.
    fn consumer_wait_prior(&mut self, call: &CallSite, c: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = call.span;
        let Some(tail) = self.pipeline_tail else {
            return unsupported(span.clone(), "a `cuda::pipeline` not made by `cuda::make_pipeline()`");
        };
        let stage = crate::frontend::cuda::groups::template_stage(&self.g.funcs_by_id, c);
        let Some(n) = stage.or_else(|| self.written_stage(c)) else {
            return unsupported(
                span.clone(),
                "`cuda::pipeline_consumer_wait_prior` whose stage (its template argument) is not known",
            );
        };
        let head = self.pipeline_committed();
        let tv = Expr::Var { id: tail, ty: Ty::U32 };
        let n = Expr::int(n, Ty::U32);
        let pending = bin(BinOp::Sub, head.clone(), tv, Ty::U32);
        let next = bin(BinOp::Sub, head.clone(), n.clone(), Ty::U32);
        let waits = bin(BinOp::Gt, pending, n.clone(), Ty::Bool);
        self.pipeline_wait(tail, (head, n, next, waits), span, out);
        Ok(Val::Void)
    }

    /// The integer written between the last `<` and the closing `>` of the callee `c`
    /// (`cuda::pipeline_consumer_wait_prior<0>`), read from the source at `c`'s range: the
    /// template argument of an instantiation from the precompiled header, which clang's JSON
    /// does not give. `None` when the range is not one line of one file, or not such a literal.
    fn written_stage(&mut self, c: &Node) -> Option<u32> {
        let (b, e) = (c.begin.as_ref()?, c.end.as_ref()?);
        if b.file != e.file || b.line != e.line || e.col < b.col {
            return None;
        }
        let (src, at) = self.source_of(b)?;
        let text = src.get(at..at + (e.col - b.col) as usize + e.tok_len as usize)?;
        let inner = text.strip_suffix('>')?;
        let arg = &inner[inner.rfind('<')? + 1..];
        arg.trim().trim_end_matches(['u', 'U']).parse().ok()
    }
}
