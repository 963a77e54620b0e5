//! Rvalues: literals, `sizeof`, built-in variables, casts (clang's `castKind` decides the
//! conversion), unary, binary and conditional operators, with short-circuit `&&`/`||` and
//! `?:` lowered to branches when an operand has effects.
//!
//! C's promotions come from clang's implicit casts, never re-derived here; floats are opaque
//! functions.

use super::globals::const_value;
use super::{LVal, Lower, PtrVal, R, Val, branch, describe, float_name, set, unsupported, wrap_ty};
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::{find_builtin, find_builtin_lv, is_builtin_struct};
use crate::frontend::types::{CType, FN_PTR};
use crate::ir::build::{cast, to_bool};
use crate::ir::*;
use num_bigint::BigInt;

impl Lower<'_, '_> {
    /// A binary operation on scalars of result type `ty` (comparisons: `Bool`).
    pub(in crate::frontend) fn binop(&self, op: &str, l: Expr, r: Expr, ty: Ty, span: &Span) -> R<Expr> {
        let lt = l.ty();
        if let Ty::Float { bits } = lt {
            let name = match op {
                "+" => "fadd",
                "-" => "fsub",
                "*" => "fmul",
                "/" => "fdiv",
                "<" => "flt",
                "<=" => "fle",
                ">" => "fgt",
                ">=" => "fge",
                "==" => "feq",
                "!=" => "fne",
                _ => return unsupported(span.clone(), format!("float operator `{op}`")),
            };
            return Ok(Expr::Opaque {
                name: float_name(name, bits),
                args: vec![l, r],
                ty,
            });
        }
        let Some(bop) = BinOp::from_spelling(op) else {
            return unsupported(span.clone(), format!("operator `{op}`"));
        };
        // Bool operands of arithmetic (clang promotes them, but be safe).
        let (l, r) = if lt == Ty::Bool && !matches!(bop, BinOp::LAnd | BinOp::LOr | BinOp::Eq | BinOp::Ne) {
            (cast(l, Ty::I32), cast(r, Ty::I32))
        } else if matches!(bop, BinOp::LAnd | BinOp::LOr) {
            (to_bool(l), to_bool(r))
        } else {
            (l, r)
        };
        Ok(Expr::Binary {
            op: bop,
            lhs: Box::new(l),
            rhs: Box::new(r),
            ty,
        })
    }

    /// Records `e`, the lowering of the source operator at `span`, in
    /// [`crate::ir::Kernel::signed_ops`] when it is a signed `+`, `-`, `*` of at least 32 bits
    /// ([`crate::ir::is_signed_arith`]), or an unsigned `+`, `*` of at least 32 bits in a
    /// subscript's index ([`crate::ir::is_index_arith`], `a[y * w + x]`), or a narrowing
    /// conversion to a signed type ([`crate::ir::is_narrowing_conversion`], `int i = n * 4ul`,
    /// recorded by the conversion's lowering), once per expression and place (an inlined function
    /// called twice with the same arguments computes one operation). Only the lowerings of
    /// source operators call it: the front end's own arithmetic is never recorded, nor is the
    /// arithmetic of annotations (`__invariant`, `__requires`, …), which are conditions
    /// checked or assumed in bit-vector arithmetic, not code whose overflow is undefined: an
    /// invariant checked under the assumption that its own products do not overflow could
    /// pass where it fails.
    pub(in crate::frontend) fn record_signed(&mut self, e: &Expr, span: &Span) {
        if self.annotation_depth > 0
            || self.in_postcondition
            || !(crate::ir::is_signed_arith(e)
                || crate::ir::is_narrowing_conversion(e)
                || (self.index_depth > 0 && crate::ir::is_index_arith(e)))
            || self.k.signed_ops.iter().any(|o| o.expr == *e && o.span == *span)
        {
            return;
        }
        let text = self.span_text(span).unwrap_or_else(|| e.to_string());
        self.k.signed_ops.push(crate::ir::SignedOp {
            expr: e.clone(),
            span: span.clone(),
            text,
        });
    }

    /// The source text of `span` when it lies on one line of a readable file.
    fn span_text(&mut self, span: &Span) -> Option<String> {
        let end = span.end_col?;
        let at = crate::frontend::ast::Pos {
            file: span.file.clone(),
            line: span.line,
            col: span.col,
            tok_len: 1,
        };
        let (src, off) = self.source_of(&at)?;
        let len = (end + 1).checked_sub(span.col)? as usize;
        let text = src.get(off..off + len)?;
        (!text.contains('\n')).then(|| text.to_string())
    }

    pub(in crate::frontend) fn rvalue(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        match n.kind.as_str() {
            "ParenExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "CXXDefaultArgExpr"
                if !n.inner.is_empty() =>
            {
                self.rvalue(&n.inner[0], out)
            }
            "SubstNonTypeTemplateParmExpr" => match n.code_children().last() {
                Some(c) => self.rvalue(c, out),
                None => unsupported(span, "empty template argument"),
            },
            "ConstantExpr" => self.constant_expr(n, out),
            "IntegerLiteral" | "CharacterLiteral" | "CXXBoolLiteralExpr" => {
                let ty = self.scalar_ty(n)?;
                match const_value(n) {
                    Some(v) => Ok(Val::Scalar(Expr::int(wrap_ty(v, ty), ty))),
                    None => unsupported(span, "literal out of range"),
                }
            }
            "FloatingLiteral" => self.float_literal(n),
            "CXXNullPtrLiteralExpr" | "GNUNullExpr" => unsupported(span, "null pointer"),
            "UnaryExprOrTypeTraitExpr" => self.type_trait(n),
            "PseudoObjectExpr" => match find_builtin(n) {
                Some(b) => Ok(Val::Scalar(cast(
                    Expr::Builtin(b),
                    self.scalar_ty(n).unwrap_or(Ty::U32),
                ))),
                None => unsupported(span, "property access (not a CUDA builtin)"),
            },
            // An enumerator named through an object (`frag.num_elements`, a member enum of
            // the record): its value; the object is evaluated for its side effects only.
            "MemberExpr"
                if let Some(v) = n
                    .referenced_member_decl
                    .as_ref()
                    .and_then(|id| self.g.enum_consts.get(id))
                    .cloned() =>
            {
                if let Some(b) = n.inner.first()
                    && !matches!(strip_parens(b).kind.as_str(), "DeclRefExpr" | "CXXThisExpr")
                {
                    self.effect(b, out)?;
                }
                Ok(Val::Scalar(Expr::Const {
                    value: v,
                    ty: self.scalar_ty(n).unwrap_or(Ty::I32),
                }))
            }
            "MemberExpr"
                if n.inner
                    .first()
                    .is_some_and(|b| is_builtin_struct(b.type_str()).is_some()) =>
            {
                match find_builtin(n) {
                    Some(b) => Ok(Val::Scalar(Expr::Builtin(b))),
                    None => unsupported(span, "builtin variable member"),
                }
            }
            "ImplicitCastExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "CXXConstCastExpr"
            | "CXXReinterpretCastExpr" => self.cast_expr(n, out),
            // In C (OpenCL C), comparisons, `!`, `&&` and `||` are `int`s (C++'s are `bool`s).
            "UnaryOperator" => self.unary(n, out).and_then(|v| self.c_truth_value(n, v)),
            "BinaryOperator" => self.binary(n, out).and_then(|v| self.c_truth_value(n, v)),
            "CompoundAssignOperator" => {
                let lv = self.compound_assign(n, out)?;
                self.read(lv, n, out)
            }
            "ConditionalOperator" => self.conditional(n, out),
            // A call returning a reference is the place it returns.
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" if n.is_glvalue() => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => self.call(n, out),
            "CXXConstructExpr" | "CXXTemporaryObjectExpr" => self.construct_expr(n, out),
            // An enum constant (or a constant of a non-type template argument) is a prvalue.
            "DeclRefExpr" if !n.is_glvalue() => {
                let b = self.lookup(n)?;
                self.read_binding(&b, n, out)
            }
            "InitListExpr" if self.vector_type(&self.ctype(n)).is_some() => self.vector_literal(n, out),
            "InitListExpr" if matches!(self.ctype(n), CType::Record(_)) => self.aggregate(n, out),
            "InitListExpr" => unsupported(span, "initializer list in an expression"),
            "ExtVectorElementExpr" => self.vector_element_value(n, out),
            "AsTypeExpr" => self.as_type(n, out),
            "CompoundLiteralExpr" if self.vector_type(&self.ctype(n)).is_some() => match n.code_children().next() {
                Some(init) => self.rvalue(init, out),
                None => unsupported(span, "empty vector literal"),
            },
            "LambdaExpr" => unsupported(span, "lambda"),
            "CXXThisExpr" => self.this_value(n),
            "CXXNewExpr" | "CXXDeleteExpr" => unsupported(span, "new/delete"),
            // Dynamic parallelism (`cuda/device_launch.rs`).
            "CUDAKernelCallExpr" => self.device_launch(n, out),
            "StmtExpr" => unsupported(span, "statement expression"),
            "AddrLabelExpr" => unsupported(span, "address of a label (`&&label`)"),
            "BinaryConditionalOperator" => unsupported(span, "`?:` with omitted middle operand"),
            "ImplicitValueInitExpr" => {
                let t = self.ctype(n);
                self.zero(&t, &span)
            }
            _ if n.is_glvalue() => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            other => unsupported(span, format!("expression `{other}`")),
        }
    }

    /// A `ConstantExpr`: clang's value where it gives an integer or a truth value, else its
    /// operand.
    fn constant_expr(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        match (const_value(n), self.ctype(n)) {
            (Some(v), CType::Scalar(ty @ Ty::Int { .. })) => return Ok(Val::Scalar(Expr::int(v, ty))),
            // `if constexpr (std::is_same_v<T, float>)`: clang's value of the condition.
            (Some(v), CType::Scalar(Ty::Bool)) => return Ok(Val::Scalar(Expr::bool(v != 0.into()))),
            _ => {}
        }
        match n.inner.first() {
            Some(c) => self.rvalue(c, out),
            None => unsupported(span, "empty constant expression"),
        }
    }

    /// A floating-point literal: its bits (`f32`, `f64`), or an opaque constant of another
    /// width.
    fn float_literal(&mut self, n: &Node) -> R<Val> {
        let ty = self.scalar_ty(n)?;
        let s = match &n.value {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => "0".into(),
        };
        let x: f64 = s.parse().unwrap_or(0.0);
        let bits = match ty {
            Ty::Float { bits: 32 } => BigInt::from((x as f32).to_bits()),
            Ty::Float { bits: 64 } => BigInt::from(x.to_bits()),
            _ => {
                return Ok(Val::Scalar(Expr::Opaque {
                    name: format!("fconst:{s}"),
                    args: vec![],
                    ty,
                }));
            }
        };
        Ok(Val::Scalar(Expr::Const { value: bits, ty }))
    }

    /// `sizeof` and `alignof` of a type or an expression.
    fn type_trait(&mut self, n: &Node) -> R<Val> {
        let span = self.span(n);
        let ty = self.scalar_ty(n)?;
        let t = match (&n.arg_type, n.inner.first()) {
            (Some(t), _) => self.g.types.parse(t.best()),
            (None, Some(e)) => self.ctype(e),
            _ => return unsupported(span, "sizeof without an operand"),
        };
        let v = match n.name.as_deref() {
            Some("sizeof") => self.size_of(&t, &span)?,
            Some("alignof") | Some("__alignof") => match self.g.types.layout(&t) {
                Some((_, a)) => a,
                None => return unsupported(span, "alignof of this type"),
            },
            other => {
                return unsupported(span, format!("`{}`", other.unwrap_or("type trait")));
            }
        };
        Ok(Val::Scalar(Expr::int(v, ty)))
    }

    /// A constructor call as a value: a user-written constructor inlined, a built-in one
    /// (`make_float4`-like, the 16-bit floats'), a copy, a zero value, an aggregate.
    fn construct_expr(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        if let Some(ctor) = self.user_constructor(n) {
            return self.constructed(ctor, n, out);
        }
        let args: Vec<&Node> = n.code_children().collect();
        if let Some(v) = self.construct_call(n, &args, out)? {
            return Ok(v);
        }
        match args.as_slice() {
            [a] => {
                let v = self.rvalue(a, out)?;
                Ok(self.fp16_bits(&self.ctype(n), v))
            }
            [] => Ok(Val::Void),
            _ => self.construct(n, &args, out),
        }
    }

    pub(in crate::frontend) fn cast_expr(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(c) = n.inner.iter().find(|c| !c.kind.ends_with("Attr")) else {
            return unsupported(span, "empty cast");
        };
        let kind = n.cast_kind.clone().unwrap_or_default();
        let target = self.ctype(n);
        match kind.as_str() {
            "LValueToRValue" => {
                if let Some(b) = find_builtin_lv(c) {
                    return Ok(Val::Scalar(Expr::Builtin(b)));
                }
                // OpenCL vectors: a swizzle read, a vector literal (an lvalue in C).
                let inner = crate::frontend::ast::strip_parens(c);
                if inner.kind == "ExtVectorElementExpr"
                    || (inner.kind == "CompoundLiteralExpr" && self.vector_type(&self.ctype(inner)).is_some())
                {
                    return self.rvalue(inner, out);
                }
                let lv = self.lvalue(c, out)?;
                self.read(lv, c, out)
            }
            "NoOp" | "UserDefinedConversion" | "ConstructorConversion" | "AtomicToNonAtomic" | "NonAtomicToAtomic" => {
                let v = self.rvalue(c, out)?;
                Ok(match (v, &target) {
                    (Val::Ptr(p), CType::Ptr(t)) => Val::Ptr(PtrVal {
                        pointee: (**t).clone(),
                        ..p
                    }),
                    (v, _) => v,
                })
            }
            "ToVoid" => {
                self.effect(c, out)?;
                Ok(Val::Void)
            }
            "ArrayToPointerDecay" => {
                let lv = self.lvalue(c, out)?;
                self.decay(lv, &span)
            }
            "BitCast"
            | "LValueBitCast"
            | "BaseToDerived"
            | "DerivedToBase"
            | "UncheckedDerivedToBase"
            | "AddressSpaceConversion" => self.pointer_cast(n, c, &kind, &target, out),
            "IntegralCast"
            | "IntegralToBoolean"
            | "IntegralToFloating"
            | "FloatingToIntegral"
            | "FloatingCast"
            | "FloatingToBoolean"
            | "BooleanToSignedIntegral" => {
                let v = self.rvalue(c, out)?;
                let e = self.expect_scalar(v, c)?;
                let ty = match target {
                    CType::Scalar(t) => t,
                    _ => return unsupported(span, format!("cast to `{}`", describe(n, &target))),
                };
                if kind == "BooleanToSignedIntegral" {
                    return Ok(Val::Scalar(Expr::Unary {
                        op: UnOp::Neg,
                        arg: Box::new(cast(e, ty)),
                        ty,
                    }));
                }
                let e = cast(e, ty);
                if kind == "IntegralCast" {
                    // The conversion's place is its operand's: `int i = x * 4ul` names `x * 4ul`.
                    let at = self.span(c);
                    self.record_signed(&e, &at);
                }
                Ok(Val::Scalar(e))
            }
            "VectorSplat" => self.splat(n, c, out),
            // OpenCL's `0` as an event (`event_t`, an integer here: `opencl/group_copy.rs`).
            "ZeroToOCLOpaqueType" => Ok(Val::Scalar(Expr::int(0, target.scalar().unwrap_or(Ty::U32)))),
            "FunctionToPointerDecay" => Ok(Val::Scalar(self.fn_value(c, out)?)),
            "BuiltinFnToFnPtr" => unsupported(span, "pointer to a compiler built-in function"),
            "NullToPointer" if self.g.types.is_fn_ptr(n.type_str()) => Ok(Val::Scalar(Expr::int(0, FN_PTR))),
            // A null data pointer is the integer 0 until something needs it to point somewhere
            // (`expect_ptr`, `assign`: "null pointer"); a pointer that holds a function's
            // code (`decl.rs`) takes it as NULL.
            "NullToPointer" => Ok(Val::Scalar(Expr::int(0, Ty::I64))),
            "IntegralToPointer" if self.g.types.is_fn_ptr(n.type_str()) => {
                let v = self.rvalue(c, out)?;
                Ok(Val::Scalar(cast(self.expect_scalar(v, c)?, FN_PTR)))
            }
            "IntegralToPointer" => self.int_to_pointer(n, c, &target, out),
            "PointerToIntegral" | "PointerToBoolean" if self.g.types.is_fn_ptr(c.type_str()) => {
                let v = self.rvalue(c, out)?;
                let e = self.expect_scalar(v, c)?;
                Ok(Val::Scalar(match target {
                    CType::Scalar(Ty::Bool) => Expr::Binary {
                        op: BinOp::Ne,
                        lhs: Box::new(e),
                        rhs: Box::new(Expr::int(0, FN_PTR)),
                        ty: Ty::Bool,
                    },
                    CType::Scalar(t) => cast(e, t),
                    _ => return unsupported(span, format!("cast to `{}`", describe(n, &target))),
                }))
            }
            // `if (p)`, `!p`: whether the pointer is not null (`null.rs`).
            "PointerToBoolean" => {
                let v = self.rvalue(c, out)?;
                match self.ptr_compare("!=", &v, &Val::Scalar(Expr::int(0, Ty::I64))) {
                    Some(e) => Ok(Val::Scalar(e)),
                    None => unsupported(span, "pointer to boolean conversion of this pointer"),
                }
            }
            "PointerToIntegral" => self.pointer_to_int(n, c, &target, out),
            "Dependent" => unsupported(span, "dependent (uninstantiated template) cast"),
            other => unsupported(span, format!("cast `{other}`")),
        }
    }
    /// A cast `n` of `c` that keeps the bits: between pointer types (function pointers, data
    /// pointers, a pointer to a struct's fields), or a scalar's bits read as another scalar type.
    fn pointer_cast(&mut self, n: &Node, c: &Node, kind: &str, target: &CType, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        match (
            self.g.types.is_fn_ptr(n.type_str()),
            self.g.types.is_fn_ptr(c.type_str()),
        ) {
            // Between function pointer types: the same target.
            (true, true) => return Ok(Val::Scalar(self.fn_value(c, out)?)),
            // A data pointer that holds a function's code (`decl.rs`): the same code.
            (true, false) => {
                return match self.rvalue(c, out)? {
                    Val::Scalar(e) => Ok(Val::Scalar(cast(e, FN_PTR))),
                    _ => unsupported(span, "cast of a data pointer to a function pointer"),
                };
            }
            // Kept as the function's code: only a data pointer initialised with it
            // may hold it (`decl.rs`); anywhere else it is "integer used as a pointer".
            (false, true) => return Ok(Val::Scalar(self.fn_value(c, out)?)),
            (false, false) => {}
        }
        let v = self.rvalue(c, out)?;
        match (v, target) {
            (Val::Ptr(p), CType::Ptr(t)) => Ok(Val::Ptr(PtrVal {
                pointee: (**t).clone(),
                ..p
            })),
            // `reinterpret_cast<float *>(&v)` of a `float4` whose fields are variables.
            (Val::Addr(lv), CType::Ptr(t)) => self.field_view(*lv, t, &span),
            (v @ Val::PtrCond(..), CType::Ptr(t)) => self.map_ptrs(v, &mut |_, p| {
                Ok(Val::Ptr(PtrVal {
                    pointee: (**t).clone(),
                    ..p
                }))
            }),
            (Val::Scalar(e), CType::Scalar(t)) if e.ty().bits() == t.bits() => Ok(Val::Scalar(Expr::Opaque {
                name: format!("bitcast{}", t.bits()),
                args: vec![e],
                ty: *t,
            })),
            _ => unsupported(span, format!("cast `{kind}` to `{}`", describe(n, target))),
        }
    }

    pub(in crate::frontend) fn unary(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(c) = n.inner.first() else {
            return unsupported(span, "malformed unary operator");
        };
        let op = n.opcode.clone().unwrap_or_default();
        match op.as_str() {
            "++" | "--" => {
                if n.is_postfix {
                    let lv = self.lvalue(c, out)?;
                    let old = self.read(lv.clone(), c, out)?;
                    // Keep the old value: copy a variable's value to a temporary first.
                    let old = match old {
                        Val::Scalar(e @ Expr::Var { .. }) if matches!(lv, LVal::Bound(_)) => {
                            let t = self.temp(e.ty());
                            out.push(set(t, e.clone(), span.clone()));
                            Val::Scalar(Expr::Var { id: t, ty: e.ty() })
                        }
                        Val::Ptr(PtrVal {
                            array,
                            off: off @ Expr::Var { .. },
                            pointee,
                        }) => {
                            let t = self.temp(Ty::I64);
                            out.push(set(t, off, span.clone()));
                            Val::Ptr(PtrVal {
                                array,
                                off: Expr::Var { id: t, ty: Ty::I64 },
                                pointee,
                            })
                        }
                        v @ Val::PtrCond(..) => self.snapshot_ptr(v, &span, out),
                        v => v,
                    };
                    let new = self.step(old.clone(), op == "++", &span)?;
                    self.assign(&lv, new, c, &span, out)?;
                    Ok(old)
                } else {
                    let lv = self.lvalue(n, out)?;
                    self.read(lv, n, out)
                }
            }
            "&" | "*" if matches!(self.ctype(c), CType::Func) || matches!(self.ctype(n), CType::Func) => {
                Ok(Val::Scalar(self.fn_value(n, out)?))
            }
            "&" => {
                let lv = self.lvalue(c, out)?;
                self.address_of(lv, &span, out)
            }
            "*" => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            "+" | "__extension__" => self.rvalue(c, out),
            "-" | "~" if self.vector_type(&self.ctype(n)).is_some() => {
                // Component by component: `0 - v`, `v ^ -1`.
                let Val::Struct(fs) = self.rvalue(c, out)? else {
                    return unsupported(span, format!("operator `{op}` on a vector of non-scalars"));
                };
                let other = fs
                    .iter()
                    .map(|(f, v)| match v {
                        Val::Scalar(e) => Ok((
                            f.clone(),
                            Val::Scalar(Expr::int(if op == "-" { 0 } else { -1 }, e.ty())),
                        )),
                        _ => unsupported(span.clone(), "vector of non-scalars"),
                    })
                    .collect::<R<Vec<_>>>()?;
                let bop = if op == "-" { "-" } else { "^" };
                self.vector_binop(n, bop, other, fs)
            }
            "-" | "~" | "!" => {
                let v = self.rvalue(c, out)?;
                let e = self.expect_scalar(v, c)?;
                let ty = self.scalar_ty(n)?;
                if let Ty::Float { bits } = e.ty() {
                    if op == "-" {
                        return Ok(Val::Scalar(Expr::Opaque {
                            name: float_name("fneg", bits),
                            args: vec![e],
                            ty,
                        }));
                    }
                    return unsupported(span, format!("float operator `{op}`"));
                }
                let (uop, e, ty) = match op.as_str() {
                    "-" => (UnOp::Neg, e, ty),
                    "~" => (UnOp::BitNot, e, ty),
                    // A `Bool` (an `int` in C: `c_truth_value` converts).
                    _ => (UnOp::Not, to_bool(e), Ty::Bool),
                };
                Ok(Val::Scalar(Expr::Unary {
                    op: uop,
                    arg: Box::new(e),
                    ty,
                }))
            }
            "__real" | "__imag" => unsupported(span, "complex numbers"),
            other => unsupported(span, format!("unary operator `{other}`")),
        }
    }

    /// `v`, the value of the operator `n`, converted to `n`'s type when it is a `Bool` and `n`'s
    /// type is an integer (C's comparisons and logical operators give `int` 0 or 1).
    fn c_truth_value(&self, n: &Node, v: Val) -> R<Val> {
        match v {
            Val::Scalar(e) if e.ty() == Ty::Bool => match self.ctype(n) {
                CType::Scalar(ty) if ty != Ty::Bool => Ok(Val::Scalar(cast(e, ty))),
                _ => Ok(Val::Scalar(e)),
            },
            v => Ok(v),
        }
    }

    /// A comparison `op` of two pointers, or of a pointer and a null pointer constant, as a
    /// `Bool`: a pointer equals a null pointer when it is null ([`Self::null_test`]), pointers
    /// into one array compare by offset, pointers into different arrays are equal only when
    /// both are null, and a pointer into one of two arrays (`c ? p : q`) compares by case. An
    /// order (`<`) is known only between pointers into one array and, in OpenCL, against a
    /// pointer into `NULL` (`null.rs`), which is below every other. `None` for anything else.
    fn ptr_compare(&mut self, op: &str, a: &Val, b: &Val) -> Option<Expr> {
        let is_ptr = |v: &Val| matches!(v, Val::Ptr(_) | Val::PtrCond(..));
        let is_null = |v: &Val| matches!(v, Val::Scalar(Expr::Const { value, .. }) if *value == BigInt::from(0));
        if !(is_ptr(a) && (is_ptr(b) || is_null(b)) || is_null(a) && is_ptr(b)) {
            return None;
        }
        self.ptr_cmp(op, a, b)
    }

    /// [`Self::ptr_compare`] of two pointers or null pointer constants (`0`).
    fn ptr_cmp(&mut self, op: &str, a: &Val, b: &Val) -> Option<Expr> {
        let rank = |l: &Self, array: ArrayId| if Some(array) == l.null { 0 } else { 1 };
        let not = |e: Expr| Expr::Unary {
            op: UnOp::Not,
            arg: Box::new(e),
            ty: Ty::Bool,
        };
        match (a, b) {
            (Val::PtrCond(c, x, y), b) => Some(Expr::Select {
                cond: Box::new(c.clone()),
                then: Box::new(self.ptr_cmp(op, x, b)?),
                els: Box::new(self.ptr_cmp(op, y, b)?),
                ty: Ty::Bool,
            }),
            (a, Val::PtrCond(c, x, y)) => Some(Expr::Select {
                cond: Box::new(c.clone()),
                then: Box::new(self.ptr_cmp(op, a, x)?),
                els: Box::new(self.ptr_cmp(op, a, y)?),
                ty: Ty::Bool,
            }),
            (Val::Ptr(p), Val::Ptr(q)) if p.array == q.array => Some(Expr::Binary {
                op: match op {
                    "==" => BinOp::Eq,
                    "!=" => BinOp::Ne,
                    "<" => BinOp::Lt,
                    ">" => BinOp::Gt,
                    "<=" => BinOp::Le,
                    _ => BinOp::Ge,
                },
                lhs: Box::new(p.off.clone()),
                rhs: Box::new(q.off.clone()),
                ty: Ty::Bool,
            }),
            (Val::Ptr(p), Val::Ptr(q)) => match op {
                "==" | "!=" => {
                    let both = Expr::Binary {
                        op: BinOp::LAnd,
                        lhs: Box::new(self.null_test(p.array, &p.off)),
                        rhs: Box::new(self.null_test(q.array, &q.off)),
                        ty: Ty::Bool,
                    };
                    Some(if op == "==" { both } else { not(both) })
                }
                _ => {
                    // Only the order against OpenCL's null pointer is known.
                    let (x, y) = (rank(self, p.array), rank(self, q.array));
                    if x == y {
                        return None;
                    }
                    Some(Expr::bool(if matches!(op, "<" | "<=") { x < y } else { x > y }))
                }
            },
            // A pointer against a null pointer constant.
            (Val::Ptr(p), _) | (_, Val::Ptr(p)) => {
                if let Some(null) = self.null {
                    // OpenCL: the constant is a pointer into `NULL`.
                    let np = Val::Ptr(PtrVal {
                        array: null,
                        off: Expr::int(0, Ty::I64),
                        pointee: CType::Void,
                    });
                    let p = Val::Ptr(p.clone());
                    return if matches!(a, Val::Ptr(_)) {
                        self.ptr_cmp(op, &p, &np)
                    } else {
                        self.ptr_cmp(op, &np, &p)
                    };
                }
                let t = self.null_test(p.array, &p.off);
                match op {
                    "==" => Some(t),
                    "!=" => Some(not(t)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(in crate::frontend) fn binary(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
            return unsupported(span, "malformed binary operator");
        };
        let op = n.opcode.clone().unwrap_or_default();
        match op.as_str() {
            // C's assignment is a prvalue: the value stored (converted to the left side's
            // type), not a load of the place after the store.
            "=" if !n.is_glvalue() => {
                let v = self.rvalue(b, out)?;
                if a.kind == "ExtVectorElementExpr" {
                    self.assign_components(a, v.clone(), out)?;
                } else {
                    let lv = self.lvalue(a, out)?;
                    self.assign(&lv, v.clone(), a, &span, out)?;
                }
                Ok(match (v, self.ctype(a)) {
                    (Val::Scalar(e), CType::Scalar(ty)) => Val::Scalar(cast(e, ty)),
                    (v, _) => v,
                })
            }
            "=" => {
                let lv = self.lvalue(n, out)?;
                self.read(lv, n, out)
            }
            "," => {
                self.effect(a, out)?;
                self.rvalue(b, out)
            }
            "&&" | "||" => {
                let l = self.cond(a, out)?;
                let mut rs = Vec::new();
                let r = self.cond(b, &mut rs)?;
                if rs.is_empty() {
                    let bop = if op == "&&" { BinOp::LAnd } else { BinOp::LOr };
                    return Ok(Val::Scalar(Expr::Binary {
                        op: bop,
                        lhs: Box::new(l),
                        rhs: Box::new(r),
                        ty: Ty::Bool,
                    }));
                }
                let t = self.temp(Ty::Bool);
                let tv = Expr::Var { id: t, ty: Ty::Bool };
                out.push(set(t, l, span.clone()));
                rs.push(set(t, r, span.clone()));
                let cond = if op == "&&" {
                    tv.clone()
                } else {
                    Expr::Unary {
                        op: UnOp::Not,
                        arg: Box::new(tv.clone()),
                        ty: Ty::Bool,
                    }
                };
                out.push(branch(cond, rs, Vec::new(), span));
                Ok(Val::Scalar(tv))
            }
            _ => {
                let lv = self.rvalue(a, out)?;
                let rv = self.rvalue(b, out)?;
                match (lv, rv) {
                    (Val::Ptr(p), Val::Scalar(i)) if op == "+" || op == "-" => self.ptr_arith(p, i, op == "-", &span),
                    (Val::Scalar(i), Val::Ptr(p)) if op == "+" => self.ptr_arith(p, i, false, &span),
                    // Into one of several arrays: each moves (`target.rs`).
                    (v @ Val::PtrCond(..), Val::Scalar(i)) if op == "+" || op == "-" => {
                        self.map_ptrs(v, &mut |l, p| l.ptr_arith(p, i.clone(), op == "-", &span))
                    }
                    (Val::Scalar(i), v @ Val::PtrCond(..)) if op == "+" => {
                        self.map_ptrs(v, &mut |l, p| l.ptr_arith(p, i.clone(), false, &span))
                    }
                    (Val::Ptr(p), Val::Ptr(q)) if op == "-" && p.array == q.array => {
                        let size = self.size_of(&p.pointee, &span)?;
                        let ty = self.scalar_ty(n)?;
                        let d = Expr::Binary {
                            op: BinOp::Sub,
                            lhs: Box::new(p.off),
                            rhs: Box::new(q.off),
                            ty: Ty::I64,
                        };
                        let d = Expr::Binary {
                            op: BinOp::Div,
                            lhs: Box::new(d),
                            rhs: Box::new(Expr::int(size, Ty::I64)),
                            ty: Ty::I64,
                        };
                        Ok(Val::Scalar(cast(d, ty)))
                    }
                    (Val::Struct(x), Val::Struct(y)) => self.vector_binop(n, &op, x, y),
                    (x, y)
                        if matches!(op.as_str(), "==" | "!=" | "<" | ">" | "<=" | ">=")
                            && let Some(c) = self.ptr_compare(&op, &x, &y) =>
                    {
                        Ok(Val::Scalar(c))
                    }
                    (Val::Ptr(_), _) | (_, Val::Ptr(_)) => unsupported(
                        span,
                        format!("pointer operator `{op}` (pointer comparison or arithmetic)"),
                    ),
                    (Val::Scalar(l), Val::Scalar(r)) => {
                        // A comparison is a `Bool` (an `int` in C: `c_truth_value` converts).
                        let ty = match op.as_str() {
                            "<" | ">" | "<=" | ">=" | "==" | "!=" => Ty::Bool,
                            _ => self.scalar_ty(n)?,
                        };
                        let e = self.binop(&op, l, r, ty, &span)?;
                        self.record_signed(&e, &span);
                        Ok(Val::Scalar(e))
                    }
                    _ => unsupported(span, format!("operator `{op}` on non-scalars")),
                }
            }
        }
    }

    pub(in crate::frontend) fn conditional(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let (Some(c), Some(a), Some(b)) = (n.inner.first(), n.inner.get(1), n.inner.get(2)) else {
            return unsupported(span, "malformed conditional");
        };
        let cond = self.cond(c, out)?;
        let mut sa = Vec::new();
        let va = self.rvalue(a, &mut sa)?;
        let mut sb = Vec::new();
        let vb = self.rvalue(b, &mut sb)?;
        // `c ? p + k : NULL`: the null arm points into the null array (`null.rs`).
        let (va, vb) = match (self.null, self.ctype(n)) {
            (Some(array), CType::Ptr(pointee)) => {
                let null = |v: Val| match v {
                    Val::Scalar(Expr::Const { ref value, .. }) if *value == BigInt::from(0) => Val::Ptr(PtrVal {
                        array,
                        off: Expr::int(0, Ty::I64),
                        pointee: (*pointee).clone(),
                    }),
                    v => v,
                };
                (null(va), null(vb))
            }
            _ => (va, vb),
        };
        match (va, vb) {
            // `c ? (void)0 : __assert_fail(…)`, glibc's `assert(c)`: the assertion itself.
            (Val::Void, Val::Void)
                if sa.is_empty()
                    && matches!(&sb[..], [Stmt { kind: StmtKind::Assert { cond: Expr::Const { value, .. } }, .. }]
                        if value == &BigInt::from(0)) =>
            {
                out.push(Stmt {
                    kind: StmtKind::Assert { cond },
                    span: sb[0].span.clone(),
                });
                Ok(Val::Void)
            }
            (Val::Void, Val::Void) => {
                out.push(branch(cond, sa, sb, span));
                Ok(Val::Void)
            }
            (Val::Scalar(x), Val::Scalar(y)) => {
                let ty = self.scalar_ty(n).unwrap_or(x.ty());
                let (x, y) = (cast(x, ty), cast(y, ty));
                Ok(Val::Scalar(self.choose(cond, (x, sa), (y, sb), ty, span, out)))
            }
            (Val::Ptr(p), Val::Ptr(q)) if p.array == q.array => {
                let off = self.choose(cond, (p.off, sa), (q.off, sb), Ty::I64, span, out);
                Ok(Val::Ptr(PtrVal { off, ..p }))
            }
            (a @ (Val::Ptr(_) | Val::PtrCond(..)), b @ (Val::Ptr(_) | Val::PtrCond(..))) => {
                self.join(cond, (a, sa), (b, sb), n, out)
            }
            (x @ Val::Struct(_), y @ Val::Struct(_)) => {
                // A struct (a `float4`, say): a temporary assigned in each arm.
                let cty = self.ctype(n);
                self.temps += 1;
                let t = self.local_binding(&format!("$t{}", self.temps - 1), &cty, "", &span)?;
                self.assign(&LVal::Bound(t.clone()), x, a, &span, &mut sa)?;
                self.assign(&LVal::Bound(t.clone()), y, b, &span, &mut sb)?;
                out.push(branch(cond, sa, sb, span));
                self.read_binding(&t, n, out)
            }
            _ => unsupported(span, "conditional operator on these operands"),
        }
    }

    /// `cond ? x : y` of type `ty`, each arm with the statements that compute it: a select
    /// when neither arm has statements, else a temporary assigned in an `if`.
    fn choose(
        &mut self,
        cond: Expr,
        (x, mut sa): (Expr, Vec<Stmt>),
        (y, mut sb): (Expr, Vec<Stmt>),
        ty: Ty,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Expr {
        if sa.is_empty() && sb.is_empty() {
            return Expr::Select {
                cond: Box::new(cond),
                then: Box::new(x),
                els: Box::new(y),
                ty,
            };
        }
        let t = self.temp(ty);
        sa.push(set(t, x, span.clone()));
        sb.push(set(t, y, span.clone()));
        out.push(branch(cond, sa, sb, span));
        Expr::Var { id: t, ty }
    }
}
