//! Places (lvalues): variables, array elements and struct members as bindings or as
//! (array, byte offset) memory locations; reading and writing them; pointer arithmetic;
//! `++`/`--` and compound assignment, which update a place.
//!
//! A pointer is resolved to the arrays it may point into (one, or several chosen by a tag, see
//! `target.rs`); accesses through it go to the array it points into.

use super::{Binding, LVal, Lower, PtrOff, PtrVal, R, Target, Val, add_off, cast, float_name, scale, set, unsupported};
use crate::frontend::FrontendError;
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::types::CType;
use crate::ir::*;

impl Lower<'_, '_> {
    /// Read an lvalue.
    pub(super) fn read(&mut self, lv: LVal, at: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        match lv {
            LVal::Bound(b) => self.read_binding(&b, at),
            LVal::Mem { array, off, cty } => match &cty {
                CType::Scalar(ty) => {
                    let (t, ty) = (self.temp(*ty), *ty);
                    let span = self.span(at);
                    self.split_access(&array, &span, out, |_, array, out| {
                        out.push(Stmt {
                            kind: StmtKind::Load {
                                dst: t,
                                array,
                                offset: off.clone(),
                                ty,
                            },
                            span: span.clone(),
                        });
                        Ok(())
                    })?;
                    Ok(Val::Scalar(Expr::Var { id: t, ty }))
                }
                CType::Record(r) => {
                    let Some(fields) = self.g.types.fields(r) else {
                        return unsupported(self.span(at), format!("struct `{r}` without a known layout"));
                    };
                    let mut vs = Vec::new();
                    for (f, o, ft) in fields {
                        let sub = LVal::Mem {
                            array: array.clone(),
                            off: add_off(off.clone(), Expr::int(o, Ty::I64)),
                            cty: ft,
                        };
                        vs.push((f, self.read(sub, at, out)?));
                    }
                    Ok(Val::Struct(vs))
                }
                CType::Ptr(_) => unsupported(self.span(at), "pointer loaded from memory"),
                other => unsupported(self.span(at), format!("read of `{}` from memory", other.describe())),
            },
        }
    }

    pub(super) fn read_binding(&mut self, b: &Binding, at: &Node) -> R<Val> {
        match b {
            Binding::Scalar(v, ty) => Ok(Val::Scalar(Expr::Var { id: *v, ty: *ty })),
            Binding::Const(e) => Ok(Val::Scalar(e.clone())),
            Binding::Ptr(i) => {
                let p = &self.ptrs[*i];
                let array = match (&p.fixed, p.arrays.as_slice(), p.tag) {
                    (Some(t), _, _) => t.clone(),
                    (None, [a], _) => Target::One(*a),
                    (None, arrays, Some(tag)) if arrays.len() > 1 => Target::Tagged {
                        tag: Expr::Var { id: tag, ty: Ty::I32 },
                        arrays: arrays.to_vec(),
                    },
                    _ => {
                        return unsupported(
                            self.span(at),
                            format!("pointer `{}` used before it points to an array", p.name),
                        );
                    }
                };
                let off = match &p.off {
                    PtrOff::Fixed(e) => e.clone(),
                    PtrOff::Var(v) => Expr::Var { id: *v, ty: Ty::I64 },
                };
                Ok(Val::Ptr(PtrVal {
                    array,
                    off,
                    pointee: p.pointee.clone(),
                }))
            }
            Binding::Struct(fs) => {
                let mut vs = Vec::new();
                for (f, fb) in fs {
                    vs.push((f.clone(), self.read_binding(fb, at)?));
                }
                Ok(Val::Struct(vs))
            }
            Binding::PtrRef(i) => Ok(Val::PtrRef(*i)),
            Binding::Mem(..) => unsupported(self.span(at), "array used as a value"),
        }
    }

    /// Write `v` to `lv`. `at` is the node whose span a store gets.
    pub(super) fn assign(&mut self, lv: &LVal, v: Val, at: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match (lv, v) {
            (LVal::Bound(Binding::Scalar(var, ty)), Val::Scalar(e)) => {
                out.push(set(*var, cast(e, *ty), span.clone()));
                Ok(())
            }
            (LVal::Bound(Binding::Ptr(i)), Val::Ptr(p)) => {
                self.retarget(*i, &p.array, span, out)?;
                let pb = self.ptrs[*i].clone();
                // A pointer fixed at its definition gets an offset variable when reassigned.
                let v = match pb.off {
                    PtrOff::Var(v) => v,
                    PtrOff::Fixed(_) => {
                        let v = self.k.new_var(format!("{}$off", pb.name), Ty::I64);
                        self.ptrs[*i].off = PtrOff::Var(v);
                        v
                    }
                };
                out.push(set(v, p.off, span.clone()));
                Ok(())
            }
            (LVal::Bound(Binding::Struct(fs)), Val::Struct(vs)) => {
                for ((_, fb), (_, fv)) in fs.iter().zip(vs) {
                    self.assign(&LVal::Bound(fb.clone()), fv, at, span, out)?;
                }
                Ok(())
            }
            (LVal::Mem { array, off, cty }, v) => match (cty, v) {
                (CType::Scalar(ty), Val::Scalar(e)) => {
                    let span = self.span(at);
                    self.check_writable(array, "write to", &span)?;
                    let (value, ty) = (cast(e, *ty), *ty);
                    self.split_access(array, &span, out, |_, array, out| {
                        out.push(Stmt {
                            kind: StmtKind::Store {
                                array,
                                offset: off.clone(),
                                value: value.clone(),
                                ty,
                            },
                            span: span.clone(),
                        });
                        Ok(())
                    })
                }
                (CType::Record(r), Val::Struct(vs)) => {
                    let Some(fields) = self.g.types.fields(r) else {
                        return unsupported(span.clone(), format!("struct `{r}` without a known layout"));
                    };
                    for ((_, o, ft), (_, fv)) in fields.into_iter().zip(vs) {
                        let sub = LVal::Mem {
                            array: array.clone(),
                            off: add_off(off.clone(), Expr::int(o, Ty::I64)),
                            cty: ft,
                        };
                        self.assign(&sub, fv, at, span, out)?;
                    }
                    Ok(())
                }
                (CType::Ptr(_), _) => unsupported(span.clone(), "pointer stored to memory"),
                (c, _) => unsupported(span.clone(), format!("assignment to `{}` in memory", c.describe())),
            },
            (LVal::Bound(Binding::Const(_)), _) => unsupported(span.clone(), "assignment to a constant"),
            (LVal::Bound(Binding::Mem(a, cty)), v) => {
                let lv = LVal::Mem {
                    array: (*a).into(),
                    off: Expr::int(0, Ty::I64),
                    cty: cty.clone(),
                };
                self.assign(&lv, v, at, span, out)
            }
            (_, Val::Ptr(_)) => unsupported(span.clone(), "pointer assigned to a non-pointer"),
            _ => unsupported(span.clone(), "assignment between incompatible values"),
        }
    }

    pub(super) fn member_of(&mut self, base: LVal, field: &str, span: &Span) -> R<LVal> {
        match base {
            LVal::Bound(Binding::Struct(fs)) => match fs.iter().find(|(f, _)| f == field) {
                Some((_, b)) => Ok(LVal::Bound(b.clone())),
                None => unsupported(span.clone(), format!("unknown field `{field}`")),
            },
            LVal::Bound(Binding::Mem(a, cty)) => self.member_of(
                LVal::Mem {
                    array: a.into(),
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

    pub(super) fn lvalue(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        match n.kind.as_str() {
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
                    Some("NoOp") | Some("LValueBitCast") | Some("UncheckedDerivedToBase")
                ) =>
            {
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
            "DeclRefExpr" => {
                let b = self.lookup(n)?;
                Ok(match b {
                    Binding::Mem(a, cty) => LVal::Mem {
                        array: a.into(),
                        off: Expr::int(0, Ty::I64),
                        cty,
                    },
                    b => LVal::Bound(b),
                })
            }
            "ArraySubscriptExpr" => self.subscript(n, out),
            "UnaryOperator" => match n.opcode.as_deref() {
                Some("*") => {
                    let Some(c) = n.inner.first() else {
                        return unsupported(span, "malformed dereference");
                    };
                    let pv = self.rvalue(c, out)?;
                    if matches!(self.ctype(c), CType::Func) || matches!(self.ctype(n), CType::Func) {
                        return unsupported(span, "function pointer dereference");
                    }
                    if let Val::PtrRef(r) = pv {
                        return Ok(LVal::Bound(Binding::Ptr(r)));
                    }
                    let p = self.expect_ptr(pv, c)?;
                    Ok(LVal::Mem {
                        array: p.array,
                        off: p.off,
                        cty: p.pointee,
                    })
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
            "MemberExpr" => {
                let Some(b) = n.inner.first() else {
                    return unsupported(span, "malformed member access");
                };
                let field = n.name.clone().unwrap_or_default();
                let base = if n.is_arrow {
                    let pv = self.rvalue(b, out)?;
                    let p = self.expect_ptr(pv, b)?;
                    LVal::Mem {
                        array: p.array,
                        off: p.off,
                        cty: p.pointee,
                    }
                } else {
                    self.lvalue(b, out)?
                };
                self.member_of(base, &field, &span)
            }
            "BinaryOperator" => match n.opcode.as_deref() {
                Some("=") => {
                    let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                        return unsupported(span, "malformed assignment");
                    };
                    let v = self.rvalue(b, out)?;
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
            "CXXOperatorCallExpr" if n.inner.first().and_then(callee_name).as_deref() == Some("operator=") => {
                let (Some(a), Some(b)) = (n.inner.get(1), n.inner.get(2)) else {
                    return unsupported(span, "malformed assignment");
                };
                let v = self.rvalue(b, out)?;
                let lv = self.lvalue(a, out)?;
                self.assign(&lv, v, a, &span, out)?;
                Ok(lv)
            }
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => unsupported(span, "call returning a reference"),
            "ConditionalOperator" => unsupported(span, "conditional operator as an lvalue"),
            "CXXThisExpr" => unsupported(span, "`this`"),
            "StringLiteral" => unsupported(span, "string literal"),
            "PseudoObjectExpr" => unsupported(span, "builtin variable as an lvalue"),
            other => unsupported(span, format!("expression `{other}` as an lvalue")),
        }
    }

    /// `a[i]` (or `i[a]`): an element of the array the pointer points into; `pp[0]` of a
    /// pointer to a pointer variable is that variable.
    fn subscript(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed subscript");
        };
        let (base, idx) = if matches!(self.ctype(a), CType::Ptr(_)) {
            (a, b)
        } else {
            (b, a)
        };
        let pv = self.rvalue(base, out)?;
        let iv = self.rvalue(idx, out)?;
        let i = self.expect_scalar(iv, idx)?;
        if let Val::PtrRef(r) = pv {
            if !super::is_zero(&i) {
                return unsupported(span, "pointer to a pointer indexed beyond element 0");
            }
            return Ok(LVal::Bound(Binding::Ptr(r)));
        }
        let p = self.expect_ptr(pv, base)?;
        let size = self.size_of(&p.pointee, &span)?;
        Ok(LVal::Mem {
            array: p.array,
            off: add_off(p.off, scale(i, size)),
            cty: p.pointee,
        })
    }

    /// `++`/`--`: returns the lvalue (prefix) after emitting the update; with `want_old`, the
    /// old value is kept in a temporary and returned through [`Self::rvalue`].
    pub(super) fn incdec(&mut self, n: &Node, _want_old: bool, out: &mut Vec<Stmt>) -> R<Option<LVal>> {
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

    pub(super) fn step(&mut self, old: Val, inc: bool, span: &Span) -> R<Val> {
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
                    _ => Expr::Binary {
                        op: if inc { BinOp::Add } else { BinOp::Sub },
                        lhs: Box::new(e),
                        rhs: Box::new(Expr::int(1, ty)),
                        ty,
                    },
                }))
            }
            Val::Ptr(p) => {
                let size = self.size_of(&p.pointee, span)? as i64;
                let d = if inc { size } else { -size };
                Ok(Val::Ptr(PtrVal {
                    off: add_off(p.off, Expr::int(d, Ty::I64)),
                    ..p
                }))
            }
            _ => unsupported(span.clone(), "increment of a non-scalar"),
        }
    }

    pub(super) fn compound_assign(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed compound assignment");
        };
        let op = n.opcode.clone().unwrap_or_default();
        let bop = op.trim_end_matches('=');
        let rv = self.rvalue(b, out)?;
        let lv = self.lvalue(a, out)?;
        let old = self.read(lv.clone(), a, out)?;
        let new = match old {
            Val::Ptr(p) => {
                let r = self.expect_scalar(rv, b)?;
                self.ptr_arith(p, r, bop == "-", &span)?
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
                Val::Scalar(cast(e, target))
            }
            _ => return unsupported(span, "compound assignment to a non-scalar"),
        };
        self.assign(&lv, new, a, &span, out)?;
        Ok(lv)
    }

    pub(super) fn ptr_arith(&self, p: PtrVal, i: Expr, sub: bool, span: &Span) -> R<Val> {
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
