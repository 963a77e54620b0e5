//! Pointers converted to integers and back: the alignment tests of real kernels.
//!
//! llm.c's `atomicAddX` (`dev/cuda/layernorm_backward.cu`) adds a 16-bit float with a 32-bit
//! atomic on the aligned pair that holds it:
//!
//! ```c
//! uintptr_t ptr_val = reinterpret_cast<uintptr_t>(addr);
//! __nv_bfloat162 *ptr_bf16 = reinterpret_cast<__nv_bfloat162 *>(ptr_val & ~uintptr_t(0x3));
//! ... (ptr_val & 0x3) ? ... : ...
//! ```
//!
//! A pointer is an (array, byte offset) pair here (`place.rs`), so its integer value needs the
//! array's address: a 64-bit scalar parameter of the kernel, `NAME$addr`, the same in every
//! thread and free but for the alignment of the array's element type (assumed in the
//! prologue: the C++ rule, and all that `cudaMalloc`'s 256 bytes guarantee once the host
//! passes an interior pointer). A pointer's integer value is `NAME$addr + offset`, so
//! `& 0x3` of it depends on the address and both halves stay possible where the element is 2
//! bytes: the over-approximation is the program's own uncertainty.
//!
//! An integer becomes a pointer again only when it was computed from one pointer's integer
//! value (its provenance, read from the AST: the casts in it, and the locals initialised with
//! such an integer and never assigned again): the pointer into that array at byte offset
//! `value - NAME$addr`. Any other integer used as a pointer is refused with its place.

use super::{Lower, PtrVal, R, Val, unsupported};
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::types::CType;
use crate::ir::build::{bin, cast};
use crate::ir::{ArrayId, BinOp, Expr, Param, ParamKind, Stmt, StmtKind, Ty};

impl Lower<'_, '_> {
    /// `(uintptr_t)p`, `reinterpret_cast<size_t>(p)` of a data pointer `c` (cast node `n`):
    /// the array's address plus the byte offset, converted to `target`.
    ///
    /// Errors: a pointer that may point into one of several arrays, or a target that is not
    /// an integer type.
    pub(in crate::frontend) fn pointer_to_int(
        &mut self,
        n: &Node,
        c: &Node,
        target: &CType,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let span = self.span(n);
        let Some(ty @ Ty::Int { .. }) = target.scalar() else {
            return unsupported(span, "pointer to integer conversion to a type that is not an integer");
        };
        let p = match self.rvalue(c, out)? {
            Val::Ptr(p) => p,
            Val::PtrCond(..) => {
                return unsupported(
                    span,
                    "pointer to integer conversion of a pointer into one of several arrays",
                );
            }
            _ => return unsupported(span, "pointer to integer conversion"),
        };
        let base = self.array_address(p.array);
        let sum = bin(BinOp::Add, base, cast(p.off, Ty::U64), Ty::U64);
        Ok(Val::Scalar(cast(sum, ty)))
    }

    /// `reinterpret_cast<T *>(bits)` of an integer `c` computed from a pointer into one array
    /// (see the module docs): that pointer, at byte offset `bits - NAME$addr`.
    ///
    /// Errors: an integer not computed from a pointer (an address from the host, a constant),
    /// or from pointers into two arrays.
    pub(in crate::frontend) fn int_to_pointer(
        &mut self,
        n: &Node,
        c: &Node,
        target: &CType,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let span = self.span(n);
        let CType::Ptr(pointee) = target else {
            return unsupported(span, "integer to pointer cast");
        };
        let Some(array) = self.addr_provenance(c)? else {
            return unsupported(
                span,
                "integer to pointer cast of an integer not computed from a pointer (gpug follows only `(T *)((uintptr_t)p & mask)` and the like)",
            );
        };
        let v = self.rvalue(c, out)?;
        let bits = self.expect_scalar(v, c)?;
        let off = bin(BinOp::Sub, cast(bits, Ty::U64), self.array_address(array), Ty::U64);
        Ok(Val::Ptr(PtrVal {
            array,
            off: cast(off, Ty::I64),
            pointee: (**pointee).clone(),
        }))
    }

    /// The one array whose address the integer expression `e` was computed from: a pointer
    /// converted to an integer in it, or a local initialised with such an integer and never
    /// assigned again ([`Lower::int_addrs`]), through `+ - & | ^`, shifts and integer casts.
    /// `None` when there is none, or when there are two.
    pub(in crate::frontend) fn addr_provenance(&mut self, e: &Node) -> R<Option<ArrayId>> {
        let e = strip_parens(e);
        if e.cast_kind.as_deref() == Some("PointerToIntegral") {
            let Some(c) = e.inner.iter().find(|c| !c.kind.ends_with("Attr")) else {
                return Ok(None);
            };
            // Lowered again for its array only: its statements are not kept.
            let mut scratch = Vec::new();
            return Ok(match self.rvalue(c, &mut scratch)? {
                Val::Ptr(p) => Some(p.array),
                _ => None,
            });
        }
        if e.kind == "DeclRefExpr" {
            return Ok(e
                .referenced_decl
                .as_ref()
                .and_then(|d| self.int_addrs.get(&d.id).copied()));
        }
        let integral = matches!(e.cast_kind.as_deref(), Some("IntegralCast" | "LValueToRValue" | "NoOp"));
        let arith = e.kind == "BinaryOperator"
            && matches!(e.opcode.as_deref(), Some("+" | "-" | "&" | "|" | "^" | "<<" | ">>"));
        if !integral && !arith {
            return Ok(None);
        }
        let mut found = None;
        for c in e.inner.iter().filter(|c| !c.kind.ends_with("Attr")) {
            if let Some(a) = self.addr_provenance(c)? {
                if found.is_some_and(|f| f != a) {
                    return Ok(None);
                }
                found = Some(a);
            }
        }
        Ok(found)
    }

    /// The address of `array`: its kernel parameter `NAME$addr` (`U64`), made on first use
    /// with the prologue's assumption that it is a multiple of the element's size.
    fn array_address(&mut self, array: ArrayId) -> Expr {
        if let Some(v) = self.addr_params.get(&array) {
            return Expr::Var { id: *v, ty: Ty::U64 };
        }
        let decl = &self.k.arrays[array.0];
        let name = format!("{}$addr", decl.name);
        let align = u64::from(decl.elem.bytes().max(1));
        let v = self.k.new_var(&name, Ty::U64);
        self.k.params.push(Param {
            name,
            kind: ParamKind::Scalar(v),
        });
        self.addr_params.insert(array, v);
        let var = Expr::Var { id: v, ty: Ty::U64 };
        if align > 1 {
            let low = bin(BinOp::BitAnd, var.clone(), Expr::int(align - 1, Ty::U64), Ty::U64);
            let cond = bin(BinOp::Eq, low, Expr::int(0, Ty::U64), Ty::Bool);
            self.prologue.push(Stmt {
                kind: StmtKind::Assume { cond },
                span: self.k.arrays[array.0].span.clone(),
            });
        }
        var
    }
}
