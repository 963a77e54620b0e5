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

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, Lower, PtrVal, R, Val, unsupported};
use crate::frontend::types::CType;
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

/// Who makes a copy of [`Lower::block_copy`] and what waits for it
/// ([`SyncEvent::CopyStart`]'s fields of the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::frontend) struct CopyKind {
    /// The whole thread block's copy, or its tile's (else the thread's own).
    pub(in crate::frontend) collective: bool,
    /// With `collective`, the copy of the thread's `thread_block_tile<N>` (`Some(N)`), not the
    /// block's.
    pub(in crate::frontend) tile: Option<u32>,
    /// Its event is the thread's commit group (else a barrier's identity).
    pub(in crate::frontend) commit: bool,
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
                        tile: None,
                        commit: true,
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

    /// [`Lower::block_copy`] from a source that may point into one of two arrays, chosen by a
    /// condition (`c ? &A[i] : &B[j]`): a copy from each, by case.
    ///
    /// # Errors
    /// A source that is not a pointer.
    pub(in crate::frontend) fn block_copy_from(
        &mut self,
        (dst, src): (PtrVal, Val),
        bytes: Expr,
        ev: (Expr, CopyKind),
        what: (&str, &str),
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        match src {
            Val::Ptr(s) => self.block_copy((dst, s), bytes, ev, what, span, out),
            Val::PtrCond(c, a, b) => {
                let (mut sa, mut sb) = (Vec::new(), Vec::new());
                self.block_copy_from((dst.clone(), *a), bytes.clone(), ev.clone(), what, span, &mut sa)?;
                self.block_copy_from((dst, *b), bytes, ev, what, span, &mut sb)?;
                out.push(crate::frontend::lower::branch(c, sa, sb, span.clone()));
                Ok(())
            }
            _ => unsupported(span.clone(), format!("`{}` from a value that is not a pointer", what.0)),
        }
    }

    /// A copy of `bytes` bytes (`U64`) from `src` to `dst` made by the whole thread block when
    /// `kind` is `collective` (the block's threads share it out as they like, CUDA
    /// Programming Guide, "Asynchronous Data Copies"), else by the thread alone: a
    /// [`SyncEvent::CopyStart`] with event `event` and `kind`'s fields, the load of one source
    /// unit and the store of it to the destination at an arbitrary unit index `j` below the
    /// count (each thread its own `j`, standing for the copy of that unit), and
    /// [`SyncEvent::CopyEnd`]. The unit is the destination's scalar element when `bytes` is
    /// a constant multiple of its size, else a byte. The engine (`encode/engine/copies.rs`) places those accesses
    /// at any barrier interval up to the wait that covers `event`; the destination's values
    /// are renewed (any value) after the copy. `note` is said once, naming `name` at `span`.
    ///
    /// Over-approximates which thread writes which byte: every byte of the destination may be
    /// written (and every byte of the source read) by the copy at any time before its wait.
    ///
    /// # Errors
    /// None of its own; `Result` for the lowering's helpers.
    pub(in crate::frontend) fn block_copy(
        &mut self,
        (dst, src): (PtrVal, PtrVal),
        bytes: Expr,
        (event, kind): (Expr, CopyKind),
        (name, note): (&str, &str),
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let site = self.copies;
        self.copies += 1;
        self.note_once(name, span, note);
        let u64t = Ty::Int {
            bits: 64,
            signed: false,
        };
        out.push(Stmt {
            kind: StmtKind::Sync(SyncEvent::CopyStart {
                site,
                event,
                dst: dst.array,
                collective: kind.collective,
                tile: kind.tile,
                commit: kind.commit,
            }),
            span: span.clone(),
        });
        let j = self.temp(u64t);
        out.push(Stmt {
            kind: StmtKind::Havoc { var: j },
            span: span.clone(),
        });
        let jv = Expr::Var { id: j, ty: u64t };
        // The unit: the destination's element when the count is a constant number of them
        // (the report then names elements), else a byte.
        let elem = dst.pointee.scalar().map(|t| u64::from(t.bytes())).unwrap_or(1);
        let count = int_constant(&bytes).and_then(|b| u64::try_from(b).ok());
        let (unit, limit) = match count {
            Some(c) if elem > 1 && elem <= 8 && c % elem == 0 => (elem, Expr::int((c / elem) as i64, u64t)),
            _ => (1, bytes),
        };
        let byte = Ty::Int {
            bits: (unit * 8) as u32,
            signed: false,
        };
        let t = self.temp(byte);
        let at = |o: &Expr| {
            let j = bin(BinOp::Mul, jv.clone(), Expr::int(unit as i64, u64t), u64t);
            bin(BinOp::Add, o.clone(), cast(j, Ty::I64), Ty::I64)
        };
        let element = vec![
            Stmt {
                kind: StmtKind::Load {
                    dst: t,
                    array: src.array,
                    offset: at(&src.off),
                    ty: byte,
                },
                span: span.clone(),
            },
            Stmt {
                kind: StmtKind::Store {
                    array: dst.array,
                    offset: at(&dst.off),
                    value: Expr::Var { id: t, ty: byte },
                    ty: byte,
                },
                span: span.clone(),
            },
        ];
        out.push(Stmt {
            kind: StmtKind::If {
                cond: bin(BinOp::Lt, jv, limit, Ty::Bool),
                then: element,
                els: Vec::new(),
            },
            span: span.clone(),
        });
        out.push(Stmt {
            kind: StmtKind::Sync(SyncEvent::CopyEnd),
            span: span.clone(),
        });
        Ok(())
    }

    /// The commit of the thread's current group (`__pipeline_commit()`), which a group's
    /// `memcpy_async` makes after its copy.
    pub(in crate::frontend) fn pipeline_commit(&mut self, span: &Span, out: &mut Vec<Stmt>) {
        let counter = self.pipeline_counter();
        let cv = Expr::Var {
            id: counter,
            ty: Ty::U32,
        };
        out.push(Stmt {
            kind: StmtKind::Assign {
                var: counter,
                value: bin(BinOp::Add, cv, Expr::int(1, Ty::U32), Ty::U32),
            },
            span: span.clone(),
        });
    }

    /// The thread's count of committed groups (`U32`, [`SyncEvent::CopyWaitPrior`]'s
    /// `committed`).
    pub(in crate::frontend) fn pipeline_committed(&mut self) -> Expr {
        Expr::Var {
            id: self.pipeline_counter(),
            ty: Ty::U32,
        }
    }

    /// `cooperative_groups::memcpy_async(group, dst, src, bytes)` (or `(group, dst, dst_count,
    /// src, src_count)`, counts in elements: the smaller one is copied), recognised by its
    /// declaration in the toolkit's `cooperative_groups/details/async.h` (whose body is not
    /// read): the block's copy ([`Self::block_copy`]) in the thread's current commit group,
    /// which the call then commits, as the header does.
    ///
    /// On a `thread_block_tile<N>`, the tile's copy: its threads share one copy, each other
    /// tile makes its own ([`SyncEvent::CopyStart`]'s `tile`).
    ///
    /// # Errors
    /// A group other than a `thread_block` or a tile (a coalesced group's copy is not
    /// modelled); other arguments
    /// than pointers and integer counts (`cuda::aligned_size_t` counts); a destination that
    /// does not resolve to one array, a source that does not resolve to one array or to one of
    /// two chosen by a condition ([`Self::block_copy_from`]: a copy from each, by case).
    pub(in crate::frontend) fn cg_memcpy_async(
        &mut self,
        call: &CallSite,
        group: crate::frontend::cuda::groups::Group,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        use crate::frontend::cuda::groups::Group;
        let (_, name, args, span) = call.parts();
        let tile = match group {
            Group::Block => None,
            Group::Warp(Some(n)) if n.is_power_of_two() => Some(n),
            _ => {
                return unsupported(
                    span.clone(),
                    "`cooperative_groups::memcpy_async` on a group other than a `thread_block` or a `thread_block_tile<N>` (a coalesced or grid group's copy is not modelled)",
                );
            }
        };
        let u64t = Ty::Int {
            bits: 64,
            signed: false,
        };
        // The source may be one of two arrays, chosen by a condition (`c ? &A[i] : &B[j]`,
        // cuda-samples' dmmaTensorCoreGemm): a copy from each, by case.
        let (dst, src, bytes) = match args {
            [_, dst, src, count] => {
                let d = self.rvalue(dst, out)?;
                let s = self.rvalue(src, out)?;
                let d = self.expect_ptr(d, dst)?;
                let c = self.count_arg(name, count, span, out)?;
                (d, s, c)
            }
            [_, dst, dcount, src, scount] => {
                let d = self.rvalue(dst, out)?;
                let (d, dc) = (self.expect_ptr(d, dst)?, self.count_arg(name, dcount, span, out)?);
                let s = self.rvalue(src, out)?;
                let sc = self.count_arg(name, scount, span, out)?;
                let size = self.size_of(&d.pointee, span)?;
                let n = Expr::Select {
                    cond: Box::new(bin(BinOp::Lt, dc.clone(), sc.clone(), Ty::Bool)),
                    then: Box::new(dc),
                    els: Box::new(sc),
                    ty: u64t,
                };
                let bytes = bin(BinOp::Mul, n, Expr::int(size as i64, u64t), u64t);
                (d, s, bytes)
            }
            _ => return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len())),
        };
        let event = self.pipeline_committed();
        self.block_copy_from(
            (dst, src),
            bytes,
            (
                event,
                CopyKind {
                    collective: true,
                    tile,
                    commit: true,
                },
            ),
            (
                "cooperative_groups::memcpy_async",
                match tile {
                    None => "is modelled as the whole block's copy: every byte of its destination written (and of its source read) at any time from the call up to the cg::wait or cg::wait_prior that covers it",
                    Some(_) => "is modelled as the tile's copy (one copy for the tile's threads, another for each other tile): every byte of its destination written (and of its source read) at any time from the call up to the cg::wait or cg::wait_prior that covers it",
                },
            ),
            span,
            out,
        )?;
        self.pipeline_commit(span, out);
        Ok(Val::Void)
    }

    /// `cooperative_groups::wait(group)` (`prior` 0) and `wait_prior<N>(group)` (`prior`
    /// `N`): the thread's [`SyncEvent::CopyWaitPrior`] (as `__pipeline_wait_prior(prior)`);
    /// the caller then emits the group's `sync()`, as the toolkit's header does.
    pub(in crate::frontend) fn cg_wait(&mut self, prior: u32, span: &Span, out: &mut Vec<Stmt>) {
        let committed = self.pipeline_committed();
        out.push(Stmt {
            kind: StmtKind::Sync(SyncEvent::CopyWaitPrior {
                committed,
                prior: Expr::int(i64::from(prior), Ty::U32),
            }),
            span: span.clone(),
        });
    }

    /// A count argument of a copy, as `size_t`.
    pub(in crate::frontend) fn count_arg(&mut self, name: &str, a: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<Expr> {
        if !matches!(self.ctype(a), CType::Scalar(Ty::Int { .. })) {
            return unsupported(
                span.clone(),
                format!("`{name}` with a count that is not an integer (`cuda::aligned_size_t` is not modelled)"),
            );
        }
        let v = self.rvalue(a, out)?;
        Ok(cast(
            self.expect_scalar(v, a)?,
            Ty::Int {
                bits: 64,
                signed: false,
            },
        ))
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
