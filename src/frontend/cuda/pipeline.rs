//! CUDA's asynchronous copies of `cuda_pipeline_primitives.h` (compute capability 8.0,
//! `cp.async`): `__pipeline_memcpy_async(dst, src, size[, zfill])`, `__pipeline_commit()` and
//! `__pipeline_wait_prior(prior)` (CUDA C++ Programming Guide, "Asynchronous Data Copies using
//! `cuda::pipeline`", its primitives interface).
//!
//! Each thread's copies are its own: a copy joins the thread's current commit group, a
//! commit closes that group, and `__pipeline_wait_prior(N)` waits until at most the last `N`
//! committed groups of the thread are still in flight. The front end keeps, per kernel, one
//! `U32` counter of the groups the thread has committed (0 at the start, one more at each
//! `__pipeline_commit`); a copy is lowered to the loads of its source bytes and the stores of
//! its destination bytes between a per-thread [`SyncEvent::CopyStart`] (its event: the
//! counter, the group it joins) and [`SyncEvent::CopyEnd`], and a wait to
//! [`SyncEvent::CopyWaitPrior`] of the counter and `N`. The engine
//! (`encode/engine/copies.rs`) lets the copy's accesses happen at any barrier interval from
//! the call up to the first wait that covers its group: a read (or write) of the destination
//! by another thread in between races with it, and so does a write of the source.
//!
//! `zfill` (the bytes the copy fills with zeros instead of reading) is taken as 0: every byte
//! of the source is read, which can only add races. `__pipeline_arrive_on` (a copy completed
//! through an mbarrier) is refused.
//!
//! Does not decide which calls are built-ins (`builtins.rs`) nor how copies are encoded.

use crate::frontend::lower::{CallSite, Lower, R, Val, unsupported};
use crate::ir::build::{bin, cast};
use crate::ir::query::int_constant;
use crate::ir::*;

/// One of the pipeline primitives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipeline {
    /// `__pipeline_memcpy_async(dst, src, size_and_align[, zfill])`.
    MemcpyAsync,
    /// `__pipeline_commit()`.
    Commit,
    /// `__pipeline_wait_prior(prior)`.
    WaitPrior,
    /// `__pipeline_arrive_on(barrier)`: refused.
    ArriveOn,
}

impl Lower<'_, '_> {
    /// The call `call` to the pipeline primitive `op` (module docs).
    ///
    /// # Errors
    /// A copy whose size is not the constant 4, 8 or 16, or whose pointers do not resolve to
    /// one array each; `__pipeline_arrive_on`.
    pub(in crate::frontend) fn pipeline(&mut self, call: &CallSite, op: Pipeline, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let counter = self.pipeline_counter();
        let cv = Expr::Var {
            id: counter,
            ty: Ty::U32,
        };
        match op {
            Pipeline::Commit => {
                out.push(Stmt {
                    kind: StmtKind::Assign {
                        var: counter,
                        value: bin(BinOp::Add, cv, Expr::int(1, Ty::U32), Ty::U32),
                    },
                    span: span.clone(),
                });
                Ok(Val::Void)
            }
            Pipeline::WaitPrior => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                let v = self.rvalue(a, out)?;
                let prior = cast(self.expect_scalar(v, a)?, Ty::U32);
                out.push(Stmt {
                    kind: StmtKind::Sync(SyncEvent::CopyWaitPrior { committed: cv, prior }),
                    span: span.clone(),
                });
                Ok(Val::Void)
            }
            Pipeline::ArriveOn => unsupported(
                span.clone(),
                format!("`{name}` (a copy completed through an mbarrier is not modelled)"),
            ),
            Pipeline::MemcpyAsync => {
                let [dst, src, size, ..] = args else {
                    return unsupported(span.clone(), format!("`{name}` without three arguments"));
                };
                let dv = self.rvalue(dst, out)?;
                let sv = self.rvalue(src, out)?;
                let zv = self.rvalue(size, out)?;
                let bytes = int_constant(&self.expect_scalar(zv, size)?).and_then(|b| u64::try_from(b).ok());
                let Some(bytes @ (4 | 8 | 16)) = bytes else {
                    return unsupported(
                        span.clone(),
                        format!("`{name}` of a size that is not the constant 4, 8 or 16"),
                    );
                };
                for a in &args[3..] {
                    self.rvalue(a, out)?;
                }
                let d = self.expect_ptr(dv, dst)?;
                let s = self.expect_ptr(sv, src)?;
                let site = self.copies;
                self.copies += 1;
                self.note_once(
                    name,
                    span,
                    "is modelled as its reads and writes at any time from the call up to the __pipeline_wait_prior that covers its commit group",
                );
                out.push(Stmt {
                    kind: StmtKind::Sync(SyncEvent::CopyStart {
                        site,
                        event: cv,
                        dst: d.array,
                        collective: false,
                    }),
                    span: span.clone(),
                });
                let mut at = 0u64;
                while at < bytes {
                    let piece = if bytes - at >= 8 { 8 } else { 4 };
                    let ty = Ty::Int {
                        bits: (piece * 8) as u32,
                        signed: false,
                    };
                    let t = self.temp(ty);
                    let off = |o: &Expr| bin(BinOp::Add, o.clone(), Expr::int(at as i64, Ty::I64), Ty::I64);
                    out.push(Stmt {
                        kind: StmtKind::Load {
                            dst: t,
                            array: s.array,
                            offset: off(&s.off),
                            ty,
                        },
                        span: span.clone(),
                    });
                    out.push(Stmt {
                        kind: StmtKind::Store {
                            array: d.array,
                            offset: off(&d.off),
                            value: Expr::Var { id: t, ty },
                            ty,
                        },
                        span: span.clone(),
                    });
                    at += piece;
                }
                out.push(Stmt {
                    kind: StmtKind::Sync(SyncEvent::CopyEnd),
                    span: span.clone(),
                });
                Ok(Val::Void)
            }
        }
    }

    /// The kernel's counter of committed groups, made (0 in the prologue) at first use.
    fn pipeline_counter(&mut self) -> VarId {
        if let Some(v) = self.pipeline {
            return v;
        }
        let v = self.temp(Ty::U32);
        self.prologue.push(Stmt {
            kind: StmtKind::Assign {
                var: v,
                value: Expr::int(0, Ty::U32),
            },
            span: self.kspan.clone(),
        });
        self.pipeline = Some(v);
        v
    }
}
