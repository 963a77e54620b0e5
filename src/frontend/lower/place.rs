//! Places (lvalues): variables, array elements and struct members as bindings or as
//! (array, byte offset) memory locations; reading and writing them; pointer arithmetic;
//! `++`/`--` and compound assignment, which update a place.
//!
//! A pointer variable is resolved to the arrays it may point into (one, or several chosen by a
//! tag: `target.rs`); accesses through it go to the array it points into.

use super::target::ptr_value;
use super::{Binding, LVal, Lower, PtrOff, PtrVal, R, Val, add_off, float_name, scale, set, unsupported};
use crate::frontend::FrontendError;
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::ctor::is_copy;
use crate::frontend::types::{CType, is_fp16_record};
use crate::ir::build::cast;
use crate::ir::*;

/// The largest fixed-size array (in elements) copied element by element as part of a struct.
const MAX_ARRAY_COPY: u64 = 256;

impl Lower<'_, '_> {
    /// Read an lvalue.
    pub(in crate::frontend) fn read(&mut self, lv: LVal, at: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        match lv {
            LVal::Bound(b) => self.read_binding(&b, at, out),
            LVal::Cond { cond, then, els } => self.read_cond(cond, *then, *els, at, out),
            LVal::Mem { array, off, cty } => match &cty {
                CType::Scalar(ty) => {
                    let t = self.temp(*ty);
                    out.push(Stmt {
                        kind: StmtKind::Load {
                            dst: t,
                            array,
                            offset: off,
                            ty: *ty,
                        },
                        span: self.span(at),
                    });
                    Ok(Val::Scalar(Expr::Var { id: t, ty: *ty }))
                }
                CType::Record(r) => {
                    let Some(fields) = self.g.types.fields(r) else {
                        return unsupported(self.span(at), format!("struct `{r}` without a known layout"));
                    };
                    let mut vs = Vec::new();
                    for (f, o, ft) in fields {
                        let sub = LVal::Mem {
                            array,
                            off: add_off(off.clone(), Expr::int(o, Ty::I64)),
                            cty: ft,
                        };
                        vs.push((f, self.read(sub, at, out)?));
                    }
                    Ok(Val::Struct(vs))
                }
                CType::Array(elem, Some(n)) if *n <= MAX_ARRAY_COPY => {
                    let size = self.size_of(elem, &self.span(at))?;
                    let mut vs = Vec::new();
                    for i in 0..*n {
                        let sub = LVal::Mem {
                            array,
                            off: add_off(off.clone(), Expr::int(i * size, Ty::I64)),
                            cty: (**elem).clone(),
                        };
                        vs.push(self.read(sub, at, out)?);
                    }
                    Ok(Val::Array(vs))
                }
                // From parameter memory: a pointer into that slot's own object (`ptr_table.rs`).
                CType::Ptr(pointee) => match self.load_pointer(array, off, pointee, &self.span(at), out)? {
                    Some(v) => Ok(v),
                    None => unsupported(
                        self.span(at),
                        "pointer loaded from memory other than the kernel's parameters",
                    ),
                },
                other => unsupported(self.span(at), format!("read of `{}` from memory", other.describe())),
            },
        }
    }

    pub(in crate::frontend) fn read_binding(&mut self, b: &Binding, at: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        match b {
            Binding::Scalar(v, ty) => Ok(Val::Scalar(Expr::Var { id: *v, ty: *ty })),
            Binding::Const(e) => Ok(Val::Scalar(e.clone())),
            Binding::Ptr(i) => {
                let p = &self.ptrs[*i];
                if p.arrays.is_empty() || (p.arrays.len() > 1 && p.tag.is_none()) {
                    return unsupported(
                        self.span(at),
                        format!("pointer `{}` used before it points to an array", p.name),
                    );
                }
                let off = match &p.off {
                    PtrOff::Fixed(e) => e.clone(),
                    PtrOff::Var(v) => Expr::Var { id: *v, ty: Ty::I64 },
                };
                // Into several arrays: a case split on the tag (`target.rs`).
                Ok(ptr_value(&p.arrays, p.tag.as_ref(), &off, &p.pointee))
            }
            Binding::Struct(fs) => {
                let mut vs = Vec::new();
                for (f, fb) in fs {
                    vs.push((f.clone(), self.read_binding(fb, at, out)?));
                }
                Ok(Val::Struct(vs))
            }
            // An array member of a struct being copied.
            Binding::Mem(a, cty @ CType::Array(..)) => {
                let lv = LVal::Mem {
                    array: *a,
                    off: Expr::int(0, Ty::I64),
                    cty: cty.clone(),
                };
                self.read(lv, at, out)
            }
            Binding::Mem(..) => unsupported(self.span(at), "array used as a value"),
            Binding::Ref(lv) => self.read((**lv).clone(), at, out),
            Binding::Addr(lv) => Ok(Val::Addr(lv.clone())),
        }
    }

    /// Write `v` to `lv`. `at` is the node whose span a store gets.
    pub(in crate::frontend) fn assign(
        &mut self,
        lv: &LVal,
        v: Val,
        at: &Node,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let v = match lv {
            LVal::Mem { cty, .. } => self.fp16_bits(cty, v),
            _ => v,
        };
        match (lv, v) {
            (LVal::Cond { cond, then, els }, v) => self.assign_cond((cond, then, els), v, at, span, out),
            (LVal::Bound(Binding::Ref(r)), v) => self.assign(&r.clone(), v, at, span, out),
            (LVal::Bound(Binding::Addr(_)), _) => unsupported(span.clone(), "pointer to pointer reassigned"),
            (LVal::Bound(Binding::Ptr(i)), Val::Addr(_)) => unsupported(
                span.clone(),
                format!(
                    "pointer `{}` given the address of a variable that is not in memory",
                    self.ptrs[*i].name
                ),
            ),
            (LVal::Bound(Binding::Ptr(i)), Val::Scalar(Expr::Const { value, .. })) if value == 0.into() => {
                match self.null {
                    Some(array) => {
                        let null = Val::Ptr(PtrVal {
                            array,
                            off: Expr::int(0, Ty::I64),
                            pointee: self.ptrs[*i].pointee.clone(),
                        });
                        self.point_to(*i, &null, span, out)
                    }
                    None => unsupported(span.clone(), "null pointer"),
                }
            }
            (LVal::Bound(Binding::Scalar(var, ty)), Val::Scalar(e)) => {
                out.push(set(*var, cast(e, *ty), span.clone()));
                Ok(())
            }
            (LVal::Bound(Binding::Ptr(i)), v @ (Val::Ptr(_) | Val::PtrCond(..))) => self.point_to(*i, &v, span, out),
            (LVal::Bound(Binding::Struct(fs)), Val::Struct(vs)) => {
                for ((_, fb), (_, fv)) in fs.iter().zip(vs) {
                    self.assign(&LVal::Bound(fb.clone()), fv, at, span, out)?;
                }
                Ok(())
            }
            (LVal::Mem { array, off, cty }, v) => match (cty, v) {
                // Array members of by-value struct parameters are the only constant arrays
                // with a `.` in their name (`p.dims`).
                (CType::Scalar(_), _)
                    if self.k.array(*array).space == Space::Constant && self.k.array(*array).name.contains('.') =>
                {
                    unsupported(
                        self.span(at),
                        format!(
                            "write to the array member `{}` of a by-value kernel parameter",
                            self.k.array(*array).name
                        ),
                    )
                }
                // Constant memory is read-only in kernels (CUDA C++ Programming Guide,
                // `__constant__`): a write that can be reached is a defect, checked as an
                // assertion that fails there; the write itself is dropped.
                (CType::Scalar(_), _) if self.k.array(*array).space == Space::Constant => {
                    let span = self.span(at);
                    let name = self.k.array(*array).name.clone();
                    let head = format!("write to __constant__ `{name}` (");
                    if !self.k.notes.iter().any(|x| x.starts_with(&head)) {
                        self.k.notes.push(format!(
                            "{head}{span}): a defect (constant memory is read-only in kernels), \
                             checked as an assertion that fails wherever such a write is reached"
                        ));
                    }
                    out.push(Stmt {
                        kind: StmtKind::Assert {
                            cond: Expr::bool(false),
                        },
                        span,
                    });
                    Ok(())
                }
                (CType::Scalar(ty), Val::Scalar(e)) => {
                    out.push(Stmt {
                        kind: StmtKind::Store {
                            array: *array,
                            offset: off.clone(),
                            value: cast(e, *ty),
                            ty: *ty,
                        },
                        span: self.span(at),
                    });
                    Ok(())
                }
                (CType::Record(r), Val::Struct(vs)) => {
                    let Some(fields) = self.g.types.fields(r) else {
                        return unsupported(span.clone(), format!("struct `{r}` without a known layout"));
                    };
                    for ((_, o, ft), (_, fv)) in fields.into_iter().zip(vs) {
                        let sub = LVal::Mem {
                            array: *array,
                            off: add_off(off.clone(), Expr::int(o, Ty::I64)),
                            cty: ft,
                        };
                        self.assign(&sub, fv, at, span, out)?;
                    }
                    Ok(())
                }
                (CType::Array(elem, Some(n)), Val::Array(vs)) if vs.len() as u64 == *n => {
                    let size = self.size_of(elem, span)?;
                    for (i, v) in vs.into_iter().enumerate() {
                        let sub = LVal::Mem {
                            array: *array,
                            off: add_off(off.clone(), Expr::int(i as u64 * size, Ty::I64)),
                            cty: (**elem).clone(),
                        };
                        self.assign(&sub, v, at, span, out)?;
                    }
                    Ok(())
                }
                (CType::Ptr(_), _) => unsupported(span.clone(), "pointer stored to memory"),
                (c, _) => unsupported(span.clone(), format!("assignment to `{}` in memory", c.describe())),
            },
            (LVal::Bound(Binding::Const(_)), _) => unsupported(span.clone(), "assignment to a constant"),
            (LVal::Bound(Binding::Mem(a, cty)), v) => {
                let lv = LVal::Mem {
                    array: *a,
                    off: Expr::int(0, Ty::I64),
                    cty: cty.clone(),
                };
                self.assign(&lv, v, at, span, out)
            }
            (_, Val::Ptr(_)) => unsupported(span.clone(), "pointer assigned to a non-pointer"),
            _ => unsupported(span.clone(), "assignment between incompatible values"),
        }
    }

    pub(in crate::frontend) fn member_of(&mut self, base: LVal, field: &str, span: &Span) -> R<LVal> {
        match base {
            LVal::Cond { cond, then, els } => Ok(LVal::Cond {
                cond,
                then: Box::new(self.member_of(*then, field, span)?),
                els: Box::new(self.member_of(*els, field, span)?),
            }),
            LVal::Bound(Binding::Ref(r)) => self.member_of(*r, field, span),
            LVal::Bound(Binding::Struct(fs)) => match fs.iter().find(|(f, _)| f == field) {
                Some((_, b)) => Ok(place_of(b.clone())),
                None => unsupported(span.clone(), format!("unknown field `{field}`")),
            },
            LVal::Bound(Binding::Mem(a, cty)) => self.member_of(
                LVal::Mem {
                    array: a,
                    off: Expr::int(0, Ty::I64),
                    cty,
                },
                field,
                span,
            ),
            LVal::Mem {
                array,
                off,
                cty: CType::Record(r),
            } => {
                let Some(fields) = self.g.types.fields(&r) else {
                    return unsupported(span.clone(), format!("struct `{r}` without a known layout"));
                };
                match fields.into_iter().find(|(f, _, _)| f == field) {
                    Some((_, o, ft)) => Ok(LVal::Mem {
                        array,
                        off: add_off(off, Expr::int(o, Ty::I64)),
                        cty: ft,
                    }),
                    None => unsupported(span.clone(), format!("unknown field `{field}` of `{r}`")),
                }
            }
            _ => unsupported(span.clone(), format!("member `{field}` of a non-struct value")),
        }
    }
    /// A cast that keeps a place (`NoOp`, a base class, `LValueBitCast`: the same bytes as
    /// the cast's type).
    fn cast_place(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let Some(c) = n.inner.first() else {
            return unsupported(span, "empty cast");
        };
        let lv = self.lvalue(c, out)?;
        if n.cast_kind.as_deref() == Some("LValueBitCast")
            && let LVal::Mem { array, off, .. } = lv
        {
            return Ok(LVal::Mem {
                array,
                off,
                cty: self.ctype(n),
            });
        }
        Ok(lv)
    }
    /// `a[i]` (or `i[a]`): the element of the array or pointer.
    fn subscript_place(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed subscript");
        };
        let (base, idx) = if matches!(self.ctype(a), CType::Ptr(_)) {
            (a, b)
        } else {
            (b, a)
        };
        if let Some(lv) = self.pointer_member_element(base, idx, out)? {
            return Ok(lv);
        }
        let pv = self.rvalue(base, out)?;
        self.index_depth += 1;
        let iv = self.rvalue(idx, out);
        self.index_depth -= 1;
        let i = self.expect_scalar(iv?, idx)?;
        self.index(pv, Some(i), base)
    }
    /// `b.f`, `p->f`, `this->f`: the member's place; a static data member named through an object.
    fn member_place(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let Some(b) = n.inner.first() else {
            return unsupported(span, "malformed member access");
        };
        let field = n.name.clone().unwrap_or_default();
        // A static data member named through an object (`x.size`): the object is
        // evaluated for its side effects only.
        if let Some(decl) = n
            .referenced_member_decl
            .as_ref()
            .and_then(|id| self.g.vars.get(id))
            .copied()
        {
            if strip_parens(b).kind != "DeclRefExpr" && strip_parens(b).kind != "CXXThisExpr" {
                self.effect(b, out)?;
            }
            return Ok(place_of(self.global_binding(decl)?));
        }
        let base = if n.is_arrow && strip_parens(b).kind == "CXXThisExpr" {
            self.this_place(b)?
        } else if n.is_arrow {
            let pv = self.rvalue(b, out)?;
            self.deref(pv, b)?
        } else {
            self.lvalue(b, out)?
        };
        self.member_of(base, &field, &span)
    }
    /// `a = b` written as a call of a record's built-in `operator=`: the assignment, and its
    /// place `a`.
    fn operator_assign_place(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.get(1), n.inner.get(2)) else {
            return unsupported(span, "malformed assignment");
        };
        let mut v = self.rvalue(b, out)?;
        // `h2 = raw` of one of CUDA's 16-bit float types: a bit copy (`ctor.rs`).
        let to = self.ctype(a);
        if let (CType::Record(x), CType::Record(y)) = (&to, self.ctype(b))
            && *x != y
            && is_fp16_record(x)
            && self.same_scalars(x, &y)
        {
            v = self.bit_copy(v, &y, &to, &span)?;
        }
        let lv = self.lvalue(a, out)?;
        self.assign(&lv, v, a, &span, out)?;
        Ok(lv)
    }

    pub(in crate::frontend) fn lvalue(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        match n.kind.as_str() {
            // A temporary (`f().x`, `make().g()`) is evaluated into a fresh local.
            "MaterializeTemporaryExpr" if n.inner.first().is_some_and(|c| !strip_parens(c).is_glvalue()) => {
                self.object_place(n, false, out)
            }
            "ParenExpr" | "MaterializeTemporaryExpr" | "ExprWithCleanups" | "CXXBindTemporaryExpr" => {
                match n.inner.first() {
                    Some(c) => self.lvalue(c, out),
                    None => unsupported(span, "empty expression"),
                }
            }
            "ImplicitCastExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "CXXConstCastExpr"
            | "CXXReinterpretCastExpr"
                if matches!(
                    n.cast_kind.as_deref(),
                    Some("NoOp") | Some("LValueBitCast") | Some("UncheckedDerivedToBase") | Some("DerivedToBase")
                ) =>
            {
                self.cast_place(n, out)
            }
            "DeclRefExpr" => {
                let b = self.lookup(n)?;
                Ok(place_of(b))
            }
            "ArraySubscriptExpr" => self.subscript_place(n, out),
            "UnaryOperator" => match n.opcode.as_deref() {
                Some("*") => {
                    let Some(c) = n.inner.first() else {
                        return unsupported(span, "malformed dereference");
                    };
                    if strip_parens(c).kind == "CXXThisExpr" {
                        return self.this_place(c);
                    }
                    let pv = self.rvalue(c, out)?;
                    if matches!(self.ctype(c), CType::Func) || matches!(self.ctype(n), CType::Func) {
                        return unsupported(span, "function pointer dereference");
                    }
                    self.deref(pv, c)
                }
                Some("++") | Some("--") => {
                    let lv = self.incdec(n, false, out)?;
                    lv.ok_or_else(|| FrontendError::Unsupported {
                        span,
                        what: "increment result".into(),
                    })
                }
                Some("__extension__") => match n.inner.first() {
                    Some(c) => self.lvalue(c, out),
                    None => unsupported(span, "empty expression"),
                },
                other => unsupported(span, format!("operator `{}` as an lvalue", other.unwrap_or("?"))),
            },
            "ExtVectorElementExpr" => self.vector_element_place(n, out),
            "MemberExpr" => self.member_place(n, out),
            "BinaryOperator" => match n.opcode.as_deref() {
                Some("=") => {
                    let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                        return unsupported(span, "malformed assignment");
                    };
                    let v = self.rvalue(b, out)?;
                    if a.kind == "ExtVectorElementExpr" {
                        return self.assign_components(a, v, out);
                    }
                    let lv = self.lvalue(a, out)?;
                    self.assign(&lv, v, a, &span, out)?;
                    Ok(lv)
                }
                Some(",") => {
                    let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                        return unsupported(span, "malformed comma");
                    };
                    self.effect(a, out)?;
                    self.lvalue(b, out)
                }
                _ => unsupported(span, "binary operator as an lvalue"),
            },
            "CompoundAssignOperator" => self.compound_assign(n, out),
            "CXXOperatorCallExpr" if self.builtin_assignment(n) => self.operator_assign_place(n, out),
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => {
                if let Some(lv) = self.minmax_place(n, out)? {
                    return Ok(lv);
                }
                self.last_ret_ref = None;
                self.call(n, out)?;
                match self.last_ret_ref.take() {
                    Some(lv) => Ok(lv),
                    None => unsupported(span, "call returning a reference"),
                }
            }
            "ConditionalOperator" => self.cond_lvalue(n, out),
            "CXXThisExpr" => unsupported(span, "`this` as an lvalue"),
            "StringLiteral" => self.string_literal(n),
            "PseudoObjectExpr" => unsupported(span, "builtin variable as an lvalue"),
            other => unsupported(span, format!("expression `{other}` as an lvalue")),
        }
    }

    /// `++`/`--`: returns the lvalue (prefix) after emitting the update; with `want_old`, the
    /// old value is kept in a temporary and returned through [`Self::rvalue`].
    pub(in crate::frontend) fn incdec(&mut self, n: &Node, _want_old: bool, out: &mut Vec<Stmt>) -> R<Option<LVal>> {
        let span = self.span(n);
        let Some(c) = n.inner.first() else {
            return unsupported(span, "malformed increment");
        };
        let lv = self.lvalue(c, out)?;
        let old = self.read(lv.clone(), c, out)?;
        let inc = n.opcode.as_deref() == Some("++");
        let new = self.step(old, inc, &span)?;
        self.assign(&lv, new, c, &span, out)?;
        Ok(Some(lv))
    }

    pub(in crate::frontend) fn step(&mut self, old: Val, inc: bool, span: &Span) -> R<Val> {
        match old {
            Val::Scalar(e) => {
                let ty = e.ty();
                Ok(Val::Scalar(match ty {
                    Ty::Float { bits } => Expr::Opaque {
                        name: float_name(if inc { "fadd" } else { "fsub" }, bits),
                        args: vec![
                            e,
                            Expr::Cast {
                                arg: Box::new(Expr::int(1, Ty::I32)),
                                ty,
                            },
                        ],
                        ty,
                    },
                    Ty::Bool => return unsupported(span.clone(), "increment of a bool"),
                    _ => {
                        let e = Expr::Binary {
                            op: if inc { BinOp::Add } else { BinOp::Sub },
                            lhs: Box::new(e),
                            rhs: Box::new(Expr::int(1, ty)),
                            ty,
                        };
                        self.record_signed(&e, span);
                        e
                    }
                }))
            }
            v @ (Val::Ptr(_) | Val::PtrCond(..)) => self.map_ptrs(v, &mut |l, p| {
                let size = l.size_of(&p.pointee, span)? as i64;
                let d = if inc { size } else { -size };
                Ok(Val::Ptr(PtrVal {
                    off: add_off(p.off, Expr::int(d, Ty::I64)),
                    ..p
                }))
            }),
            _ => unsupported(span.clone(), "increment of a non-scalar"),
        }
    }

    pub(in crate::frontend) fn compound_assign(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed compound assignment");
        };
        let op = n.opcode.clone().unwrap_or_default();
        let bop = op.trim_end_matches('=');
        let rv = self.rvalue(b, out)?;
        // OpenCL vector components (`v.xy += w`): read, combine, write back component-wise.
        if a.kind == "ExtVectorElementExpr" && self.vector_type(&self.ctype(a)).is_some() {
            let (Val::Struct(old), Val::Struct(r)) = (self.vector_element_value(a, out)?, rv) else {
                return unsupported(span, "compound assignment of a scalar to vector components");
            };
            let new = self.vector_binop(a, bop, old, r)?;
            return self.assign_components(a, new, out);
        }
        let lv = self.lvalue(a, out)?;
        let old = self.read(lv.clone(), a, out)?;
        let new = match old {
            v @ (Val::Ptr(_) | Val::PtrCond(..)) => {
                let r = self.expect_scalar(rv, b)?;
                self.map_ptrs(v, &mut |l, p| l.ptr_arith(p, r.clone(), bop == "-", &span))?
            }
            // Arithmetic on a data pointer that holds a function's code (`decl.rs`): any
            // nonzero step leaves every function (the code 1 is none), so a call through the
            // result fails at the call.
            Val::Scalar(old) if matches!(self.ctype(a), CType::Ptr(_)) => {
                let r = self.expect_scalar(rv, b)?;
                let ty = old.ty();
                Val::Scalar(Expr::Select {
                    cond: Box::new(Expr::Binary {
                        op: BinOp::Eq,
                        lhs: Box::new(cast(r.clone(), r.ty())),
                        rhs: Box::new(Expr::int(0, r.ty())),
                        ty: Ty::Bool,
                    }),
                    then: Box::new(old),
                    els: Box::new(Expr::int(1, ty)),
                    ty,
                })
            }
            Val::Scalar(old) => {
                let r = self.expect_scalar(rv, b)?;
                let lhs_ty = n
                    .compute_lhs_type
                    .as_ref()
                    .map(|t| self.g.types.parse(t.best()))
                    .and_then(|t| t.scalar());
                let res_ty = n
                    .compute_result_type
                    .as_ref()
                    .map(|t| self.g.types.parse(t.best()))
                    .and_then(|t| t.scalar());
                let target = old.ty();
                let lhs_ty = lhs_ty.unwrap_or(target);
                let res_ty = res_ty.unwrap_or(lhs_ty);
                let l = cast(old, lhs_ty);
                let e = self.binop(bop, l, r, res_ty, &span)?;
                self.record_signed(&e, &span);
                Val::Scalar(cast(e, target))
            }
            // OpenCL vectors, component by component (`v += w`, `v *= 2` with the scalar
            // splatted by clang).
            Val::Struct(old) if self.vector_type(&self.ctype(a)).is_some() => {
                let Val::Struct(r) = rv else {
                    return unsupported(span, "compound assignment of a scalar to a vector");
                };
                self.vector_binop(a, bop, old, r)?
            }
            _ => return unsupported(span, "compound assignment to a non-scalar"),
        };
        self.assign(&lv, new, a, &span, out)?;
        Ok(lv)
    }

    pub(in crate::frontend) fn ptr_arith(&self, p: PtrVal, i: Expr, sub: bool, span: &Span) -> R<Val> {
        let size = self.size_of(&p.pointee, span)?;
        let d = scale(i, size);
        let off = if sub {
            match d {
                Expr::Const { value, .. } => add_off(p.off, Expr::int(-value, Ty::I64)),
                d => Expr::Binary {
                    op: BinOp::Sub,
                    lhs: Box::new(p.off),
                    rhs: Box::new(d),
                    ty: Ty::I64,
                },
            }
        } else {
            add_off(p.off, d)
        };
        Ok(Val::Ptr(PtrVal { off, ..p }))
    }
}

fn callee_name(n: &Node) -> Option<String> {
    let c = strip_parens(n);
    c.referenced_decl.as_ref().map(|d| d.name.clone())
}

impl Lower<'_, '_> {
    /// Whether `n` is a call of an `operator=` that is a plain copy (implicit, without a body,
    /// or the copy or move of one of CUDA's 16-bit float types: `ctor.rs`), lowered as an
    /// assignment; a user-defined one (`__nv_bfloat16 &operator=(float)`) is a call of its body.
    pub(in crate::frontend) fn builtin_assignment(&self, n: &Node) -> bool {
        let Some(c) = n.inner.first() else {
            return false;
        };
        if callee_name(c).as_deref() != Some("operator=") {
            return false;
        }
        let id = strip_parens(c).referenced_decl.as_ref().map(|d| d.id.as_str());
        let Some(def) = id.and_then(|id| self.g.funcs_by_id.get(id)) else {
            return true;
        };
        let copy16 = match n.inner.get(1).map(|a| self.ctype(a)) {
            Some(CType::Record(r)) => {
                is_fp16_record(&r) && (is_copy(&self.g.types, def, &r) || self.bit_source(def, &r).is_some())
            }
            _ => false,
        };
        def.is_implicit || copy16
    }
}

impl Lower<'_, '_> {
    /// `v` as a value of `cty` when `cty` is one of CUDA's 16-bit float records of one 16-bit
    /// field (`__nv_bfloat16`, `__half`) and `v` a scalar: a construction or assignment whose
    /// constructor or `operator=` the front end does not see (it comes from a precompiled
    /// header: `__nv_bfloat16(f)`, `(floatX)v`, `out[i] = f`). The record's bits are `v`
    /// converted to 16 bits, a pure function of `v`: floats are uninterpreted, so two threads
    /// converting equal values store equal bits, and nothing else is known of them. Any other
    /// value is returned as it is.
    pub(in crate::frontend) fn fp16_bits(&self, cty: &CType, v: Val) -> Val {
        let Val::Scalar(e) = v else { return v };
        let CType::Record(r) = cty else {
            return Val::Scalar(e);
        };
        if !is_fp16_record(r) {
            return Val::Scalar(e);
        }
        match self.g.types.fields(r).as_deref() {
            Some([(f, _, CType::Scalar(ty @ Ty::Int { bits: 16, .. }))]) => {
                Val::Struct(vec![(f.clone(), Val::Scalar(cast(e, *ty)))])
            }
            _ => Val::Scalar(e),
        }
    }
}

/// The place a binding denotes: memory at offset 0, the place a reference is bound to, or the
/// binding itself.
pub(in crate::frontend) fn place_of(b: Binding) -> LVal {
    match b {
        Binding::Mem(array, cty) => LVal::Mem {
            array,
            off: Expr::int(0, Ty::I64),
            cty,
        },
        Binding::Ref(lv) => *lv,
        b => LVal::Bound(b),
    }
}

impl Lower<'_, '_> {
    /// `q.p[i]` where `q.p` is an array of pointers of a by-value struct parameter, or `v[i]`
    /// of a local array of pointers (flattened with fields `[0]`, `[1]`, ... by
    /// `param_binding` and `local_binding`): the place of element `i`, which must be a
    /// constant. `None` when `base` is not such an array.
    fn pointer_member_element(&mut self, base: &Node, idx: &Node, out: &mut Vec<Stmt>) -> R<Option<LVal>> {
        let inner = strip_parens(base);
        let arr = match (inner.kind.as_str(), inner.cast_kind.as_deref(), inner.inner.first()) {
            ("ImplicitCastExpr", Some("ArrayToPointerDecay"), Some(c)) => c,
            _ => return Ok(None),
        };
        if !matches!(self.ctype(arr), CType::Array(ref e, _) if matches!(**e, CType::Ptr(_))) {
            return Ok(None);
        }
        let lv = self.lvalue(arr, out)?;
        let LVal::Bound(Binding::Struct(fs)) = lv else {
            return Ok(None);
        };
        if !fs.first().is_some_and(|(f, _)| f.starts_with('[')) {
            return Ok(None);
        }
        let iv = self.rvalue(idx, out)?;
        let i = match self.expect_scalar(iv, idx)? {
            Expr::Const { value, .. } => value,
            _ => {
                return unsupported(
                    self.span(idx),
                    "array of pointers (a struct parameter's or a local one) indexed by a value that is not a constant",
                );
            }
        };
        match fs.iter().find(|(f, _)| *f == format!("[{i}]")) {
            Some((_, b)) => Ok(Some(place_of(b.clone()))),
            None => unsupported(
                self.span(idx),
                format!("index {i} out of the bounds of an array of pointers"),
            ),
        }
    }
}
