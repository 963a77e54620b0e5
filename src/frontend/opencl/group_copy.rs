//! OpenCL's copies made by a whole work-group (OpenCL 1.2 section 6.12.10):
//! `async_work_group_copy(dst, src, n, event)`, its strided form, and `wait_group_events`.
//!
//! A copy is lowered to the accesses of one element at an arbitrary index `j` (each thread its
//! own `j`), made when `j < n`: a load of the source element and a store of it to the destination element,
//! between [`SyncEvent::CopyStart`] and [`SyncEvent::CopyEnd`], which tell the pair model that
//! they are the group's copy, in flight until the wait for its event
//! (`encode/pair/copies.rs`). An event is a `uint`: a copy given the event 0 makes the event
//! `site + 1` (its own), one given an event returns it (the copies then share it).

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, LVal, Lower, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::build::{bin, cast};
use crate::ir::query::int_constant;
use crate::ir::*;

/// `size_t`.
const U64: Ty = Ty::Int {
    bits: 64,
    signed: false,
};

impl Lower<'_, '_> {
    /// `async_work_group_copy(dst, src, n, event)` (`strided`: `…_strided_copy(dst, src, n,
    /// stride, event)`, the stride on the global side) as the call `n` to `name`; its value is
    /// the copy's event.
    ///
    /// # Errors
    /// Arguments that are not two pointers, a count, (a stride,) an event; an element type
    /// without a layout.
    pub(in crate::frontend) fn group_copy(&mut self, call: &CallSite, strided: bool, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let want = if strided { 5 } else { 4 };
        if args.len() != want {
            return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
        }
        let dst = self.rvalue(args[0], out)?;
        let src = self.rvalue(args[1], out)?;
        let count = self.rvalue(args[2], out)?;
        let count = cast(self.expect_scalar(count, args[2])?, U64);
        let stride = match strided {
            true => {
                let v = self.rvalue(args[3], out)?;
                Some(cast(self.expect_scalar(v, args[3])?, U64))
            }
            false => None,
        };
        let ev_node = args[want - 1];
        let ev = self.rvalue(ev_node, out)?;
        let ev = cast(self.expect_scalar(ev, ev_node)?, Ty::U32);
        let site = self.copies;
        self.copies += 1;
        self.note_once(
            name,
            span,
            "is modelled as the accesses of one element at any index, in flight until its wait; the values it copies are not (the destination may hold anything after it)",
        );
        let event = match int_constant(&ev) {
            Some(v) if v == 0.into() => Expr::int(i64::from(site) + 1, Ty::U32),
            _ => ev,
        };
        let copy = Copy {
            site,
            event: event.clone(),
            count,
            stride,
        };
        self.copy_element(&copy, dst, src, (args[0], args[1]), span, out)?;
        let ty = self.scalar_ty(n).unwrap_or(Ty::U32);
        Ok(Val::Scalar(cast(event, ty)))
    }

    /// The accesses of one element of `copy` from `src` to `dst`; a pointer into one of two
    /// arrays (`c ? p : q`, `target.rs`) makes a branch with the copy on each (only the
    /// branch a thread takes is its copy; threads of one group taking different ones is
    /// divergence, `encode/pair/copies.rs`).
    fn copy_element(
        &mut self,
        copy: &Copy,
        dst: Val,
        src: Val,
        nodes: (&Node, &Node),
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let split = |l: &mut Self, c: Expr, a: (Val, Val), b: (Val, Val), out: &mut Vec<Stmt>| -> R<()> {
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            l.copy_element(copy, a.0, a.1, nodes, span, &mut sa)?;
            l.copy_element(copy, b.0, b.1, nodes, span, &mut sb)?;
            out.push(Stmt {
                kind: StmtKind::If {
                    cond: c,
                    then: sa,
                    els: sb,
                },
                span: span.clone(),
            });
            Ok(())
        };
        match (dst, src) {
            (Val::PtrCond(c, a, b), src) => split(self, c, (*a, src.clone()), (*b, src), out),
            (dst, Val::PtrCond(c, a, b)) => split(self, c, (dst.clone(), *a), (dst, *b), out),
            (dst, src) => {
                let dst = self.expect_ptr(dst, nodes.0)?;
                let src = self.expect_ptr(src, nodes.1)?;
                self.copy_arrays(copy, dst, src, span, out)
            }
        }
    }

    /// [`Self::copy_element`] between two resolved pointers.
    fn copy_arrays(
        &mut self,
        copy: &Copy,
        dst: crate::frontend::lower::PtrVal,
        src: crate::frontend::lower::PtrVal,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let Copy {
            site,
            ref event,
            ref count,
            ref stride,
        } = *copy;
        let size = self.size_of(&dst.pointee, span)?;
        // The element: `j < n`, each thread's own (each stands for the group at some index).
        let j = self.temp(U64);
        out.push(Stmt {
            kind: StmtKind::Havoc { var: j },
            span: span.clone(),
        });
        let jv = Expr::Var { id: j, ty: U64 };
        // The element's accesses happen when `j < n` (a branch, not an assumption: a thread
        // whose `j` is out of range still reaches what follows, the wait included).
        let in_range = bin(BinOp::Lt, jv.clone(), count.clone(), Ty::Bool);
        // The strided side is the global one (the other is local memory).
        let local_dst = self.k.array(dst.array).space == Space::Shared;
        let index = |strided_side: bool| match (&stride, strided_side) {
            (Some(st), true) => bin(BinOp::Mul, jv.clone(), st.clone(), U64),
            _ => jv.clone(),
        };
        let byte = |i: Expr| cast(bin(BinOp::Mul, i, Expr::int(size as i64, U64), U64), Ty::I64);
        let dst_off = add(dst.off.clone(), byte(index(!local_dst)));
        let src_off = add(src.off.clone(), byte(index(local_dst)));
        out.push(Stmt {
            kind: StmtKind::Sync(SyncEvent::CopyStart {
                site,
                event: event.clone(),
                dst: dst.array,
                collective: true,
                tile: None,
                commit: false,
            }),
            span: span.clone(),
        });
        // The element in pieces of at most 8 bytes.
        let mut element = Vec::new();
        let mut at = 0u64;
        while at < size {
            let piece = [8u64, 4, 2, 1].into_iter().find(|p| size - at >= *p).unwrap_or(1);
            let ty = Ty::Int {
                bits: (piece * 8) as u32,
                signed: false,
            };
            let t = self.temp(ty);
            let off = |o: &Expr| add(o.clone(), Expr::int(at as i64, Ty::I64));
            element.push(Stmt {
                kind: StmtKind::Load {
                    dst: t,
                    array: src.array,
                    offset: off(&src_off),
                    ty,
                },
                span: span.clone(),
            });
            element.push(Stmt {
                kind: StmtKind::Store {
                    array: dst.array,
                    offset: off(&dst_off),
                    value: Expr::Var { id: t, ty },
                    ty,
                },
                span: span.clone(),
            });
            at += piece;
        }
        out.push(Stmt {
            kind: StmtKind::If {
                cond: in_range,
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

    /// `wait_group_events(num, list)`: the copies whose events are among the `num` (an integer
    /// constant) events `list` points to are complete.
    ///
    /// # Errors
    /// A `num` that is not an integer constant; a `list` that is not a pointer to events.
    pub(in crate::frontend) fn wait_events(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [num, list] = args else {
            return unsupported(span.clone(), format!("`{name}` with {} arguments", args.len()));
        };
        let Some(k) = self.const_arg(num, out)?.and_then(|k| u32::try_from(k).ok()) else {
            return unsupported(
                span.clone(),
                format!("`{name}` of a number of events that is not a constant"),
            );
        };
        let lv = self.rvalue(list, out)?;
        let p = self.expect_ptr(lv, list)?;
        let esize = self.size_of(&p.pointee, span)?;
        let mut events = Vec::new();
        for i in 0..k {
            let place = LVal::Mem {
                array: p.array,
                off: add(p.off.clone(), Expr::int(i64::from(i) * esize as i64, Ty::I64)),
                cty: p.pointee.clone(),
            };
            let v = self.read(place, list, out)?;
            events.push(cast(self.expect_scalar(v, list)?, Ty::U32));
        }
        if let CType::Scalar(_) = p.pointee {
            out.push(Stmt {
                kind: StmtKind::Sync(SyncEvent::CopyWait { events }),
                span: span.clone(),
            });
            return Ok(Val::Void);
        }
        unsupported(span.clone(), format!("`{name}` of a list that is not of events"))
    }
}

/// One work-group copy's site, event, element count and stride (strided copies).
struct Copy {
    site: u32,
    event: Expr,
    count: Expr,
    stride: Option<Expr>,
}

fn add(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, a, b, Ty::I64)
}
