//! Calls to built-in functions: the entry of the language's table ([`crate::frontend::lower::builtin::table`])
//! applied to a call: arguments evaluated as the entry says, statements emitted, the call's
//! value returned.
//!
//! Which names are built-ins, and the IR constructors of pure ones, are table data; this file
//! only knows how each kind of [`Lowering`] is lowered.

pub(in crate::frontend) mod int;
pub(in crate::frontend) mod table;

use crate::frontend::FrontendError;
use crate::frontend::ast::Node;
use crate::frontend::lower::builtin::table::{Check, IntFn, Lowering, WorkItem};
use crate::frontend::lower::{CallSite, Lower, R, Val, unsupported};
use crate::frontend::types::{CType, is_fp16_record};
use crate::ir::build::cast;
use crate::ir::*;

impl Lower<'_, '_> {
    /// A call `n` to `name` when the table lists it; `None` when `name` is not a built-in.
    pub(in crate::frontend) fn builtin_call(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let (n, name, args, span) = call.parts();
        let Some(lowering) = lookup(self.g.language, name) else {
            return Ok(None);
        };
        // `atomicAdd(__half2 *, __half2)` and the other 16-bit float atomics (`cuda/atomic16.rs`).
        if let Lowering::Atomic(AtomicOp::Add, scope) = lowering
            && let Some(record) = self.fp16_atomic_target(args)
        {
            return self.fp16_atomic(call, &record, scope, out).map(Some);
        }
        // CUDA's half and bfloat16 overloads of built-in names (`__hadd(__half, __half)`,
        // `__shfl_xor_sync(mask, __nv_bfloat162, …)`) are the headers' functions; not the
        // cache-hinted loads and stores (`__stcs(__nv_bfloat16 *, …)`, written in the headers
        // as asm with a "memory" clobber), which read or write `*p` whatever its type.
        if !matches!(lowering, Lowering::Load | Lowering::Store)
            && args
                .iter()
                .any(|a| matches!(self.ctype(a), CType::Record(r) if is_fp16_record(&r)))
        {
            return Ok(None);
        }
        let v = match lowering {
            Lowering::Atomic(op, scope) => self.atomic((op, scope), call, false, out)?,
            Lowering::AtomicStep(op) => self.atomic((op, AtomicScope::Device), call, true, out)?,
            Lowering::WorkItemFn(f) => self.work_item(call, f, out)?,
            Lowering::GroupCopy(strided) => self.group_copy(call, strided, out)?,
            Lowering::WaitEvents => self.wait_events(call, out)?,
            Lowering::VLoad(k) => self.vload(call, usize::from(k), out)?,
            Lowering::VStore(k) => self.vstore(call, usize::from(k), out)?,
            Lowering::FencedBarrier => self.fenced_barrier(call, out)?,
            Lowering::Barrier => {
                out.push(Stmt {
                    kind: StmtKind::Barrier(BarrierScope::Block, Fences::ALL),
                    span: span.clone(),
                });
                Val::Void
            }
            Lowering::WarpValue => self.unmodelled_collective(call, "warp", out)?,
            Lowering::Shuffle(mode, sync) => self.shuffle(call, (mode, sync), out)?,
            Lowering::Vote(op, sync) => self.vote(call, (op, sync), out)?,
            Lowering::BarrierValue(op) => self.barrier_value(call, op, out)?,
            Lowering::WarpBarrier => self.warp_barrier(call, out)?,
            Lowering::Fence(scope) => {
                out.push(Stmt {
                    kind: StmtKind::Fence(scope),
                    span: span.clone(),
                });
                Val::Void
            }
            Lowering::Ignored => Val::Void,
            Lowering::Output => {
                self.note_once(name, span, "ignored: output has no effect on what is verified");
                Val::Void
            }
            Lowering::DeviceStream => Val::Scalar(self.arbitrary_per_thread(n, name, Vec::new(), span, out)?),
            Lowering::Release => {
                for a in args {
                    self.effect(a, out)?;
                }
                self.note_once(
                    name,
                    span,
                    "frees device memory, which is not modelled: a use after free or a double free is not checked",
                );
                // Its `cudaError_t`: any value.
                Val::Scalar(self.arbitrary_per_thread(n, name, Vec::new(), span, out)?)
            }
            Lowering::Fail => {
                out.push(Stmt {
                    kind: StmtKind::Assert {
                        cond: Expr::bool(false),
                    },
                    span: span.clone(),
                });
                Val::Void
            }
            Lowering::True => Val::Scalar(Expr::bool(true)),
            Lowering::Condition(check) => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                self.condition(check, name, a, span, out)?;
                Val::Void
            }
            Lowering::Int(_) | Lowering::Connective(_)
                if let Some(v) = self.guarded_annotation(n, name, args, out)? =>
            {
                v
            }
            Lowering::Int(f) => self.int_fn(f, call, out)?,
            Lowering::Connective(f) => {
                let v = self.scalar_args(args, out)?;
                let [a, b] = <[Expr; 2]>::try_from(v).map_err(|_| FrontendError::Unsupported {
                    span: span.clone(),
                    what: format!("`{name}` needs two arguments"),
                })?;
                Val::Scalar(f(a, b))
            }
            Lowering::Uninterpreted => match self.uninterpreted(call, out)? {
                Some(v) => v,
                None => return Ok(None),
            },
            Lowering::TwoThread(f) => self.two_thread(f, name, args, span, out)?,
            Lowering::Enabled => Val::Scalar(Expr::Enabled),
            Lowering::AccessLog(q) => self.access_log(q, call, out)?,
            Lowering::PtrOffset => self.ptr_offset(call, out)?,
            Lowering::ReturnValue => self.return_value(n, name, span)?,
            Lowering::Unmodelled => return unsupported(span.clone(), format!("annotation `{name}`")),
            Lowering::Timer => {
                self.note_once(name, span, "reads a clock: any value at each call");
                Val::Scalar(self.arbitrary_per_thread(n, name, Vec::new(), span, out)?)
            }
            Lowering::Vector => match self.make_vector(n, args, out)? {
                Some(v) => v,
                // Another overload (helper_math.h's `make_float4(float3, float)`): its body.
                None => return Ok(None),
            },
            Lowering::Texture => self.texture_fetch(call, out)?,
            Lowering::Surface => self.surface_access(call, out)?,
            Lowering::SinCos => self.sincos(call, out)?,
            Lowering::First => self.first_arg(call, out)?,
            Lowering::Load => self.cached_load(call, out)?,
            Lowering::Store => self.cached_store(call, out)?,
            Lowering::Memory(set) => self.memory_call(set, call, out)?,
            Lowering::NvAtomic(kind) => self.nv_atomic(call, kind, out)?,
            Lowering::Pipeline(op) => self.pipeline(call, op, out)?,
            Lowering::Curand => match self.curand_call(call, out)? {
                Some(v) => v,
                None => return Ok(None),
            },
            Lowering::Unsupported(why) => return unsupported(span.clone(), format!("`{name}`: {why}")),
            Lowering::BarrierInvariant(binary) => self.barrier_invariant(binary, call, out)?,
            Lowering::ArraySnapshot => self.array_snapshot(call, out)?,
            Lowering::AddNoOverflow => self.add_no_overflow(call, out)?,
            Lowering::Evaluate => self.scalar_args(args, out).map(|_| Val::Void)?,
        };
        Ok(Some(v))
    }

    /// `__syncthreads_count(p)` and its siblings: the block's vote on the predicates (evaluated
    /// before the barrier: their loads are the thread's), then the barrier.
    fn barrier_value(&mut self, call: &CallSite, op: VoteOp, out: &mut Vec<Stmt>) -> R<Val> {
        let v = self.vote(call, (op, false), out)?;
        out.push(Stmt {
            kind: StmtKind::Barrier(BarrierScope::Block, Fences::ALL),
            span: call.span.clone(),
        });
        Ok(v)
    }

    /// `__syncwarp(mask)`: a barrier of the warp's lanes the mask names (the full mask by
    /// default); a mask that is not a nonzero literal orders nothing, with a note.
    fn warp_barrier(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let mask = match args.first() {
            // The header's default argument is the full mask.
            None => Some(u32::MAX),
            Some(a) if a.kind == "CXXDefaultArgExpr" => Some(u32::MAX),
            Some(a) => {
                let v = self.rvalue(a, out)?;
                match self.expect_scalar(v, a)? {
                    Expr::Const { value, .. } => u32::try_from(value).ok().filter(|m| *m != 0),
                    _ => None,
                }
            }
        };
        match mask {
            Some(m) => out.push(Stmt {
                kind: StmtKind::WarpBarrier(if m == u32::MAX {
                    WarpLanes::Tile(32)
                } else {
                    WarpLanes::Mask(m)
                }),
                span: span.clone(),
            }),
            None => self.note_once(
                name,
                span,
                "with a mask that is not a nonzero literal orders nothing here: races it would prevent are reported",
            ),
        }
        Ok(Val::Void)
    }

    /// A call whose value is its first argument's, the others evaluated for their effects.
    fn first_arg(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let Some((first, rest)) = args.split_first() else {
            return unsupported(span.clone(), format!("`{name}` without arguments"));
        };
        let v = self.rvalue(first, out)?;
        for a in rest {
            self.rvalue(a, out)?;
        }
        Ok(v)
    }

    /// The arguments, each a scalar, evaluated in order.
    /// A built-in `name` whose call `n` has an OpenCL vector type, component by component
    /// (OpenCL 1.2 section 6.12: `min(int4, int4)`, `clamp(v, lo, hi)`, `sqrt(float4)`): for
    /// each component, `f` of the arguments' components (a scalar argument is the same in
    /// every component) and the component type; `select(a, b, c)` on vectors picks by the most
    /// significant bit of each component of `c` (section 6.12.6).
    ///
    /// # Errors
    /// An argument that is neither a scalar nor a vector of the call's length; `f` giving
    /// `None`.
    fn componentwise(
        &mut self,
        call: &CallSite,
        out: &mut Vec<Stmt>,
        f: &mut dyn FnMut(&[Expr], Ty) -> Option<Expr>,
    ) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let Some((ty, count)) = self.vector_type(&self.ctype(n)) else {
            return unsupported(span.clone(), format!("`{name}` on non-vectors"));
        };
        let mut vals = Vec::new();
        for a in args {
            vals.push(match self.rvalue(a, out)? {
                Val::Scalar(e) => vec![e; count],
                Val::Struct(fs) if fs.len() == count => fs
                    .into_iter()
                    .map(|(_, v)| self.expect_scalar(v, a))
                    .collect::<R<Vec<_>>>()?,
                _ => return unsupported(span.clone(), format!("`{name}` with these arguments")),
            });
        }
        let mut comps = Vec::new();
        for i in 0..count {
            let mut v: Vec<Expr> = vals.iter().map(|c| c[i].clone()).collect();
            if name == "select"
                && let Some(c) = v.get(2).cloned()
            {
                // The most significant bit of the component: negative as a signed number.
                let bits = c.ty().bits();
                let signed = Ty::Int { bits, signed: true };
                v[2] = Expr::Binary {
                    op: BinOp::Lt,
                    lhs: Box::new(cast(c, signed)),
                    rhs: Box::new(Expr::int(0, signed)),
                    ty: Ty::Bool,
                };
            }
            match f(&v, ty) {
                Some(e) => comps.push((format!("s{i}"), Val::Scalar(e))),
                None => return unsupported(span.clone(), format!("`{name}` with these arguments")),
            }
        }
        Ok(Val::Struct(comps))
    }

    pub(in crate::frontend) fn scalar_args(&mut self, args: &[&Node], out: &mut Vec<Stmt>) -> R<Vec<Expr>> {
        let mut v = Vec::new();
        for a in args {
            let x = self.rvalue(a, out)?;
            v.push(self.expect_scalar(x, a)?);
        }
        Ok(v)
    }

    /// `op` on the location the first argument points to, with the others as operands; the
    /// value is the old content, in a fresh temporary.
    fn atomic(&mut self, op: (AtomicOp, AtomicScope), call: &CallSite, step: bool, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let Some((p, rest)) = args.split_first() else {
            return unsupported(span.clone(), format!("`{name}` without arguments"));
        };
        let (pv, ty) = self.atomic_target(p, name, span, out)?;
        let mut operands = Vec::new();
        for a in rest {
            let v = self.rvalue(a, out)?;
            operands.push(cast(self.expect_scalar(v, a)?, ty));
        }
        if step {
            operands.push(Expr::int(1, ty));
        }
        let t = self.temp(ty);
        self.atomic_on(pv, (op, name, ty, t), &operands, span, out)?;
        Ok(Val::Scalar(Expr::Var { id: t, ty }))
    }

    /// The location the pointer argument `p` of the atomic `name` points to, and its scalar
    /// type.
    ///
    /// # Errors
    /// A location that is not a scalar.
    pub(in crate::frontend) fn atomic_target(
        &mut self,
        p: &Node,
        name: &str,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<(Val, Ty)> {
        let pv = match self.rvalue(p, out)? {
            // A null pointer constant (OpenCL, `null.rs`), of the argument's pointer type.
            v @ Val::Scalar(_) => {
                let mut null = self.expect_ptr(v, p)?;
                if let CType::Ptr(t) = self.ctype(p) {
                    null.pointee = *t;
                }
                Val::Ptr(null)
            }
            v => v,
        };
        // A pointer into one of several arrays (`target.rs`): the atomic on each, by case.
        let pointee = match &pv {
            Val::PtrCond(..) => Self::pointee_of(&pv),
            v => Some(self.expect_ptr(v.clone(), p)?.pointee),
        };
        let Some(ty) = pointee.and_then(|t| t.scalar()) else {
            return unsupported(span.clone(), format!("`{name}` on a non-scalar location"));
        };
        Ok((pv, ty))
    }

    /// An OpenCL work-item function `f` (the call `n` to `name`) as the launch geometry's
    /// value, converted to the call's type (`size_t`). Global identifiers and sizes are
    /// computed in 64 bits from the 32-bit geometry, so they are exact (`get_num_groups(0) *
    /// get_local_size(0) == get_global_size(0)` holds for every launch).
    ///
    /// # Errors
    /// A dimension that is not an integer constant from 0 to 2, named with the call.
    fn work_item(&mut self, call: &CallSite, f: WorkItem, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let ty = self.scalar_ty(n)?;
        let u32v = |e: Expr| cast(e, Ty::U32);
        if f == WorkItem::WorkDim {
            let e = match self.g.work_dim {
                Some(d) => {
                    self.note_once(
                        name,
                        span,
                        &format!("is {d}: the dimensions of the launch up to the last whose work-item or work-group count is not 1"),
                    );
                    Expr::int(i64::from(d), Ty::U32)
                }
                None => {
                    if !self.k.uninterpreted.iter().any(|u| u == name) {
                        self.k.uninterpreted.push(name.to_string());
                    }
                    Expr::Opaque {
                        name: name.to_string(),
                        args: Vec::new(),
                        ty: Ty::U32,
                    }
                }
            };
            return Ok(Val::Scalar(cast(e, ty)));
        }
        let dim = match args.first() {
            Some(a) => self.const_arg(a, out)?,
            None => None,
        };
        let d = match dim {
            Some(v) if v >= 0.into() && v <= 2.into() => Dim::ALL[usize::try_from(v).unwrap_or(0)],
            Some(_) => {
                // OpenCL 1.2 section 6.12.1: outside `0..get_work_dim()`, ids are 0 and sizes 1.
                let none = matches!(
                    f,
                    WorkItem::LocalId | WorkItem::GroupId | WorkItem::GlobalId | WorkItem::GlobalOffset
                );
                return Ok(Val::Scalar(Expr::int(if none { 0 } else { 1 }, ty)));
            }
            None => {
                return unsupported(
                    span.clone(),
                    format!("`{name}` of a dimension that is not an integer constant (0, 1 or 2)"),
                );
            }
        };
        const U64: Ty = Ty::Int {
            bits: 64,
            signed: false,
        };
        let b = |x: Builtin| cast(Expr::Builtin(x), U64);
        let mul = |a: Expr, c: Expr| Expr::Binary {
            op: BinOp::Mul,
            lhs: Box::new(a),
            rhs: Box::new(c),
            ty: U64,
        };
        let add = |a: Expr, c: Expr| Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(a),
            rhs: Box::new(c),
            ty: U64,
        };
        let offset = self.g.global_offset[d.index()];
        if matches!(f, WorkItem::GlobalId | WorkItem::GlobalOffset) {
            let o = self.g.global_offset;
            self.note_once(
                "get_global_offset",
                span,
                &format!(
                    "is taken as ({}, {}, {}): --global_offset (0 unless given, as GPUVerify and a NULL offset)",
                    o[0], o[1], o[2]
                ),
            );
        }
        let e = match f {
            WorkItem::LocalId => u32v(Expr::Builtin(Builtin::ThreadIdx(d))),
            WorkItem::GroupId => u32v(Expr::Builtin(Builtin::BlockIdx(d))),
            WorkItem::LocalSize => u32v(Expr::Builtin(Builtin::BlockDim(d))),
            WorkItem::NumGroups => u32v(Expr::Builtin(Builtin::GridDim(d))),
            WorkItem::GlobalSize => mul(b(Builtin::GridDim(d)), b(Builtin::BlockDim(d))),
            WorkItem::GlobalOffset => Expr::int(offset as i64, U64),
            WorkItem::GlobalId => {
                let id = add(
                    mul(b(Builtin::BlockIdx(d)), b(Builtin::BlockDim(d))),
                    b(Builtin::ThreadIdx(d)),
                );
                if offset == 0 {
                    id
                } else {
                    add(id, Expr::int(offset as i64, U64))
                }
            }
            WorkItem::WorkDim => unreachable!("handled above"),
        };
        Ok(Val::Scalar(cast(e, ty)))
    }

    /// An OpenCL `barrier(flags)`: a barrier of the work-group ordering the memory the flags
    /// name, `CLK_LOCAL_MEM_FENCE` (1) and `CLK_GLOBAL_MEM_FENCE` (2), when they are an integer
    /// constant; none (with a note) when they are not: such a barrier still synchronises, but
    /// no access is ordered by it (more races, none hidden).
    fn fenced_barrier(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let flags = match args.first() {
            Some(a) => self.const_arg(a, out)?,
            None => None,
        };
        let fences = match flags {
            Some(v) => {
                let bits = u64::try_from(v).unwrap_or(0);
                let f = Fences {
                    local: bits & 1 != 0,
                    global: bits & 2 != 0,
                };
                // The over-approximation of `encode/pair/races.rs`, said where it starts.
                let (flags, left) = match (f.local, f.global) {
                    (true, false) => ("CLK_LOCAL_MEM_FENCE", "__global"),
                    (false, true) => ("CLK_GLOBAL_MEM_FENCE", "__local"),
                    (false, false) => ("0", "__local or __global"),
                    (true, true) => ("", ""),
                };
                if !left.is_empty() {
                    self.note_once(
                        &format!("{name}({flags})"),
                        span,
                        &format!(
                            "orders no {left} access: then no barrier orders the kernel's {left} accesses, not even one with that fence flag (an over-approximation: a race across such a barrier may be a false alarm)"
                        ),
                    );
                }
                f
            }
            None => {
                self.note_once(
                    name,
                    span,
                    "has fence flags that are not a constant: gpug takes it to order no memory",
                );
                Fences {
                    local: false,
                    global: false,
                }
            }
        };
        out.push(Stmt {
            kind: StmtKind::Barrier(BarrierScope::Block, fences),
            span: span.clone(),
        });
        Ok(Val::Void)
    }

    /// The value of the argument `a` when it folds to an integer constant (`CLK_LOCAL_MEM_FENCE
    /// | CLK_GLOBAL_MEM_FENCE`, a dimension, a count); its statements go to `out`.
    pub(in crate::frontend) fn const_arg(&mut self, a: &Node, out: &mut Vec<Stmt>) -> R<Option<num_bigint::BigInt>> {
        let v = self.rvalue(a, out)?;
        Ok(crate::ir::query::int_constant(&self.expect_scalar(v, a)?))
    }

    /// An uninterpreted built-in (float math): an uninterpreted function of the scalar
    /// arguments under the built-in's name, component by component for an OpenCL vector;
    /// `None` when the call's result is neither a scalar nor a vector (then it is not taken as
    /// a built-in).
    fn uninterpreted(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let (n, name, args, _) = call.parts();
        let opaque = |v: &[Expr], ty| Expr::Opaque {
            name: name.to_string(),
            args: v.to_vec(),
            ty,
        };
        if self.vector_type(&self.ctype(n)).is_some() {
            return self
                .componentwise(call, out, &mut |v, ty| Some(opaque(v, ty)))
                .map(Some);
        }
        if !matches!(self.ctype(n), CType::Scalar(_)) {
            return Ok(None);
        }
        let v = self.scalar_args(args, out)?;
        let ty = self.scalar_ty(n)?;
        Ok(Some(Val::Scalar(opaque(&v, ty))))
    }

    /// `name(x, sp, cp)` (CUDA's `sincosf`, …): `*sp` and `*cp` get `name.sin(x)` and
    /// `name.cos(x)`; OpenCL's `sincos(x, cp)`: the value `name.sin(x)`, `*cp` gets
    /// `name.cos(x)`.
    fn sincos(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let (x, outputs): (&Node, Vec<(&Node, &str)>) = match args {
            [x, sp, cp] => (x, vec![(sp, "sin"), (cp, "cos")]),
            [x, cp] => (x, vec![(cp, "cos")]),
            _ => return unsupported(span.clone(), format!("`{name}` without two or three arguments")),
        };
        let xv = self.rvalue(x, out)?;
        let xe = self.expect_scalar(xv, x)?;
        let result = match args.len() {
            2 => Val::Scalar(Expr::Opaque {
                name: format!("{name}.sin"),
                args: vec![xe.clone()],
                ty: xe.ty(),
            }),
            _ => Val::Void,
        };
        for (p, part) in outputs {
            let pv = self.rvalue(p, out)?;
            let place = self.deref(pv, p)?;
            let value = Expr::Opaque {
                name: format!("{name}.{part}"),
                args: vec![xe.clone()],
                ty: xe.ty(),
            };
            self.assign(&place, Val::Scalar(value), p, span, out)?;
        }
        Ok(result)
    }

    /// The value of the call `n` to the `what` collective `name` (warp intrinsics, tiles'
    /// methods): its arguments as given (clang's default arguments left out) evaluated, then
    /// [`Self::arbitrary_per_thread`] of them, with a note that a defect after it is possible.
    pub(in crate::frontend) fn unmodelled_collective(
        &mut self,
        call: &CallSite,
        what: &str,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let (n, name, _, span) = call.parts();
        let (_, args) = self.collective_args(call, false, out)?;
        self.note_once(
            name,
            span,
            &format!("is a {what} collective whose value is not modelled: a defect after it is possible"),
        );
        Ok(Val::Scalar(self.arbitrary_per_thread(n, name, args, span, out)?))
    }

    /// A shuffle `n` (`name`, of `mode`; `sync`: its first argument is the mask): its value
    /// in a fresh temporary set by a [`StmtKind::Shuffle`]. The value argument is converted to
    /// the call's type; the lane (or delta, or lane mask) and the width to `unsigned`, the
    /// width 32 when the header's default argument stands.
    fn shuffle(&mut self, call: &CallSite, (mode, sync): (ShuffleMode, bool), out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, _, span) = call.parts();
        let ty = self.scalar_ty(n)?;
        let (mask, rest) = self.collective_args(call, sync, out)?;
        let given = rest.len() + usize::from(sync);
        let u32 = |e: &Expr| cast(e.clone(), Ty::U32);
        let (value, lane, width) = match rest.as_slice() {
            [v, l] => (
                cast(v.clone(), ty),
                u32(l),
                Expr::Const {
                    value: 32.into(),
                    ty: Ty::U32,
                },
            ),
            [v, l, w] => (cast(v.clone(), ty), u32(l), u32(w)),
            _ => return unsupported(span.clone(), format!("`{name}` with {given} arguments")),
        };
        let dst = self.temp(ty);
        out.push(Stmt {
            kind: StmtKind::Shuffle {
                dst,
                mode,
                mask,
                value,
                lane,
                width,
            },
            span: span.clone(),
        });
        Ok(Val::Scalar(Expr::Var { id: dst, ty }))
    }

    /// A warp collective's arguments as scalars, in order (the header's default arguments left
    /// out), the first split off as its mask (`unsigned`) when `sync`; a `sync` call without
    /// arguments is an error.
    fn collective_args(&mut self, call: &CallSite, sync: bool, out: &mut Vec<Stmt>) -> R<(Option<Expr>, Vec<Expr>)> {
        let (_, name, args, span) = call.parts();
        let given: Vec<&Node> = args.iter().copied().filter(|a| a.kind != "CXXDefaultArgExpr").collect();
        let mut args = self.scalar_args(&given, out)?;
        match sync {
            true if args.is_empty() => unsupported(span.clone(), format!("`{name}` without arguments")),
            true => Ok((Some(cast(args.remove(0), Ty::U32)), args)),
            false => Ok((None, args)),
        }
    }

    /// A vote `n` (`name`, of `op`; `sync`: its first argument is the mask): its value in a
    /// fresh temporary set by a [`StmtKind::Vote`]. A reduction's argument is converted to the
    /// call's type; `__activemask` has none (a literal 1 stands for it).
    fn vote(&mut self, call: &CallSite, (op, sync): (VoteOp, bool), out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, _, span) = call.parts();
        let ty = self.scalar_ty(n)?;
        let (mask, mut args) = self.collective_args(call, sync, out)?;
        let given = args.len() + usize::from(sync);
        let arg = match (args.len(), op) {
            (0, VoteOp::ActiveMask) => Expr::Const {
                value: 1.into(),
                ty: Ty::U32,
            },
            (1, VoteOp::Reduce(_)) => cast(args.remove(0), ty),
            (1, _) => args.remove(0),
            _ => return unsupported(span.clone(), format!("`{name}` with {given} arguments")),
        };
        let what = match op {
            VoteOp::BlockCount | VoteOp::BlockAnd | VoteOp::BlockOr => {
                "is a block barrier whose value, a vote over the block's threads, is exact in `gpug check` and not modelled in the pair model (a defect after it is possible)"
            }
            _ => {
                "is a vote over other threads' values: exact in `gpug check`, not modelled in the pair model (a defect after it is possible)"
            }
        };
        self.note_once(name, span, what);
        let dst = self.temp(ty);
        out.push(Stmt {
            kind: StmtKind::Vote { dst, op, mask, arg },
            span: span.clone(),
        });
        Ok(Val::Scalar(Expr::Var { id: dst, ty }))
    }

    /// The value of a call to `name` (of the type of `n`) that gpug does not model and that
    /// may differ between threads and between calls with the same arguments: an uninterpreted
    /// function of `args` and of a fresh value havocked at the call (so every call of every
    /// thread may return anything), listed in [`Kernel::uninterpreted`] so that what follows
    /// it is possible, not certain (and `gpug check` inconclusive about it).
    pub(in crate::frontend) fn arbitrary_per_thread(
        &mut self,
        n: &Node,
        name: &str,
        mut args: Vec<Expr>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Expr> {
        let ty = self.scalar_ty(n)?;
        let fresh = self.temp(Ty::U32);
        out.push(Stmt {
            kind: StmtKind::Havoc { var: fresh },
            span: span.clone(),
        });
        args.push(Expr::Var { id: fresh, ty: Ty::U32 });
        if !self.k.uninterpreted.iter().any(|u| u == name) {
            self.k.uninterpreted.push(name.to_string());
        }
        Ok(Expr::Opaque {
            name: name.to_string(),
            args,
            ty,
        })
    }

    /// `op` at the pointer `pv` (a case split over a [`Val::PtrCond`]), its old value in `t`.
    pub(in crate::frontend) fn atomic_on(
        &mut self,
        pv: Val,
        ((op, scope), name, ty, t): ((AtomicOp, AtomicScope), &str, Ty, VarId),
        operands: &[Expr],
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let pv = match pv {
            Val::PtrCond(c, a, b) => {
                let (mut sa, mut sb) = (Vec::new(), Vec::new());
                self.atomic_on(*a, ((op, scope), name, ty, t), operands, span, &mut sa)?;
                self.atomic_on(*b, ((op, scope), name, ty, t), operands, span, &mut sb)?;
                out.push(crate::frontend::lower::branch(c, sa, sb, span.clone()));
                return Ok(());
            }
            Val::Ptr(p) => p,
            _ => return unsupported(span.clone(), format!("`{name}` on a value that is not a pointer")),
        };
        if self.k.array(pv.array).space == Space::Constant {
            return unsupported(
                span.clone(),
                format!(
                    "`{name}` on __constant__ memory `{}` (read-only in kernels)",
                    self.k.array(pv.array).name
                ),
            );
        }
        out.push(Stmt {
            kind: StmtKind::Atomic {
                op,
                scope,
                dst: Some(t),
                array: pv.array,
                offset: pv.off,
                operands: operands.to_vec(),
                ty,
            },
            span: span.clone(),
        });
        Ok(())
    }

    /// The statement `check` makes of the condition `a`. An invariant or postcondition that
    /// cannot be lowered is recorded in [`Kernel::unchecked`] instead.
    fn condition(&mut self, check: Check, name: &str, a: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let push = |out: &mut Vec<Stmt>, kind: StmtKind| {
            out.push(Stmt {
                kind,
                span: span.clone(),
            })
        };
        match check {
            Check::Assert | Check::Assume | Check::Precondition => {
                let cond = crate::frontend::lower::annotations::global_cond(name, self.annotation_cond(a, out)?);
                // A device function's precondition is checked at its call (this inlined copy);
                // the entry's own is assumed (a kernel's, or a function checked on its own).
                let in_callee = self.frames.len() > self.entry_depth;
                if check == Check::Assert || (check == Check::Precondition && in_callee) {
                    push(out, StmtKind::Assert { cond: cond.clone() });
                }
                if check != Check::Assert {
                    push(out, StmtKind::Assume { cond });
                }
            }
            // An invariant we cannot lower (GPUVerify's two-thread annotations such as
            // `__write_implies`) is dropped: not assuming it is sound, only less precise. Its
            // loads stay with it: they are read where the invariant is evaluated, and are not
            // the thread's accesses (GPUVerify's non-temporal loads).
            Check::Invariant => {
                let mut body = Vec::new();
                match self.annotation_cond(a, &mut body) {
                    Ok(cond) => push(out, StmtKind::Invariant { body, cond }),
                    Err(e) => {
                        let why = match e {
                            FrontendError::Unsupported { what, .. } => what,
                            other => other.to_string(),
                        };
                        self.not_checked(name, why, span);
                    }
                }
            }
            // A device function's postcondition: lowered after the call (`postconditions`).
            Check::Ensures if self.frames.len() > 1 => {
                if self.in_postcondition {
                    self.postcondition(name, a, span, out)?;
                }
            }
            // The loads of the condition are kept with it: they read the final memory. A
            // condition we cannot lower (GPUVerify's `__return_val_ptr()`, say) is not
            // checked, and the verdict says so, as for invariants.
            Check::Ensures => {
                let mut body = Vec::new();
                match self.annotation_cond(a, &mut body) {
                    Ok(cond) => push(
                        out,
                        StmtKind::Ensures {
                            body,
                            cond: crate::frontend::lower::annotations::global_cond(name, cond),
                        },
                    ),
                    Err(FrontendError::Unsupported { what, .. }) => self.not_checked(name, what, span),
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// Record that the annotation `name` at `span` is not checked, and why.
    pub(in crate::frontend) fn not_checked(&mut self, name: &str, why: String, span: &Span) {
        self.k
            .unchecked
            .push((span.clone(), format!("`{name}` not checked: {why}")));
    }

    /// A pure built-in: its value from the scalar arguments, or an uninterpreted function when
    /// the call's result is a float.
    fn int_fn(&mut self, f: IntFn, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        if self.vector_type(&self.ctype(n)).is_some() {
            return self.componentwise(call, out, &mut |v, ty| {
                if let Ty::Float { .. } = ty {
                    return Some(Expr::Opaque {
                        name: f.float.unwrap_or(name).into(),
                        args: v.to_vec(),
                        ty,
                    });
                }
                (f.build)(v, ty)
            });
        }
        let v = self.scalar_args(args, out)?;
        let ty = self.scalar_ty(n)?;
        if let Ty::Float { .. } = ty {
            return Ok(Val::Scalar(Expr::Opaque {
                name: f.float.unwrap_or(name).into(),
                args: v,
                ty,
            }));
        }
        match (f.build)(&v, ty) {
            Some(e) => Ok(Val::Scalar(e)),
            None => unsupported(span.clone(), format!("`{name}` with these arguments")),
        }
    }
}

/// The lowering of the built-in function `name` of `language`, if it is one: OpenCL's table
/// first for OpenCL, then CUDA's (which holds what both share: GPUVerify's annotations, `min`,
/// `max`, float math, `printf`).
pub(in crate::frontend) fn lookup(language: crate::ir::Language, name: &str) -> Option<Lowering> {
    // GPUVerify's barrier invariants, one declaration per arity (`__barrier_invariant_3`).
    if let Some(n) = name.strip_prefix("__barrier_invariant_binary_") {
        return n.parse::<u32>().is_ok().then_some(Lowering::BarrierInvariant(true));
    }
    if let Some(n) = name.strip_prefix("__barrier_invariant_") {
        return n.parse::<u32>().is_ok().then_some(Lowering::BarrierInvariant(false));
    }
    match language {
        crate::ir::Language::Cuda => crate::frontend::cuda::builtins::BUILTINS.get(name),
        crate::ir::Language::OpenCl => crate::frontend::opencl::builtins::BUILTINS
            .get(name)
            .or_else(|| crate::frontend::cuda::builtins::BUILTINS.get(name)),
    }
}
