//! Calls: built-in functions (atomics, barriers, GPUVerify's annotations, math), and device
//! functions inlined into the caller (paper §2, scopes) with their own `Frame`,
//! exit block and result slot.
//!
//! Recursion, function pointers and methods that use `this` are errors.

use super::globals::body_of;
use super::{Binding, Frame, LVal, Lower, PtrBind, PtrOff, R, Val, cast, scan, to_bool, unsupported};
use crate::frontend::FrontendError;
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::types::{CType, TypeEnv};
use crate::ir::*;
use std::collections::{HashMap, HashSet};

impl Lower<'_, '_> {
    pub(super) fn call(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(callee) = n.inner.first() else {
            return unsupported(span, "malformed call");
        };
        let mut args: Vec<&Node> = n.inner[1..].iter().filter(|c| !c.kind.ends_with("Attr")).collect();
        let c = strip_parens(callee);
        let (name, decl_id, decl_ty) = match c.kind.as_str() {
            "DeclRefExpr" => {
                let Some(d) = &c.referenced_decl else {
                    return unsupported(span, "call without a callee");
                };
                if !matches!(d.kind.as_str(), "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl") {
                    return unsupported(span, "function pointer call");
                }
                (d.name.clone(), d.id.clone(), d.ty.qual_type.clone())
            }
            "MemberExpr" if n.kind == "CXXMemberCallExpr" => {
                // Method call: supported when the body does not use `this`.
                let name = c.name.clone().unwrap_or_default();
                let id = c.referenced_member_decl.clone().unwrap_or_default();
                if let Some(b) = c.inner.first() {
                    // Evaluate the object expression only for its side effects when it has any.
                    if b.kind != "MaterializeTemporaryExpr" && b.kind != "CXXTemporaryObjectExpr" && !b.is_glvalue() {
                        self.effect(b, out)?;
                    }
                }
                (name, id, String::new())
            }
            "UnresolvedLookupExpr" | "UnresolvedMemberExpr" | "CXXDependentScopeMemberExpr" => {
                return unsupported(span, "dependent call in an uninstantiated template");
            }
            _ => return unsupported(span, "function pointer call"),
        };
        if n.kind == "CXXOperatorCallExpr" && name == "operator=" {
            let lv = self.lvalue(n, out)?;
            return self.read(lv, n, out);
        }
        if let Some(v) = self.builtin_call(n, &name, &args, &span, out)? {
            return Ok(v);
        }
        let def = self
            .g
            .funcs_by_id
            .get(&decl_id)
            .copied()
            .or_else(|| self.g.funcs_by_sig.get(&(name.clone(), decl_ty.clone())).copied());
        let Some(def) = def else {
            return unsupported(span, format!("call to function without a body `{name}`"));
        };
        if n.kind == "CXXOperatorCallExpr" && def.kind == "CXXMethodDecl" && !args.is_empty() {
            // Member operator: the first argument is the object.
            return unsupported(span, format!("member operator `{name}`"));
        }
        if matches!(def.kind.as_str(), "CXXMethodDecl" | "CXXConversionDecl") && uses_this(def) {
            return unsupported(span, format!("method `{name}` using `this`"));
        }
        if self.frames.iter().any(|f| f.func_id == def.id) {
            return unsupported(span, format!("recursive call to `{name}`"));
        }
        let params: Vec<&Node> = def.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        if params.len() != args.len() {
            if args.len() < params.len() {
                return unsupported(span, format!("call to `{name}` using default arguments"));
            }
            return unsupported(span, format!("variadic call to `{name}`"));
        }
        // Evaluate the arguments in the caller.
        let mut vals = Vec::new();
        for a in args.drain(..) {
            vals.push(self.rvalue(a, out)?);
        }
        self.inline(def, &name, params, vals, &span, out)
    }

    pub(super) fn inline(
        &mut self,
        def: &Node,
        name: &str,
        params: Vec<&Node>,
        vals: Vec<Val>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let Some(body) = body_of(def) else {
            return unsupported(span.clone(), format!("call to `{name}` without a body"));
        };
        let block = self.k.new_block();
        let mut frame = Frame {
            env: HashMap::new(),
            block: Some(block),
            ret: None,
            func_id: def.id.clone(),
            addr_taken: HashSet::new(),
            modified: HashSet::new(),
        };
        scan(body, &mut frame.addr_taken, &mut frame.modified);
        let ret_cty = return_type(def, &self.g.types);
        self.frames.push(frame);
        let mut stmts = Vec::new();
        let result = (|| -> R<Val> {
            // Result slot.
            let ret = match &ret_cty {
                CType::Void => None,
                t => Some(self.local_binding(&format!("{name}$ret"), t, "", span)?),
            };
            self.frame_mut().ret = ret.clone();
            for (p, v) in params.iter().zip(vals) {
                let pname = p.name.clone().unwrap_or_default();
                let pspan = self.span(p);
                let cty = self.ctype(p);
                match (&cty, v) {
                    (CType::Ptr(pointee), Val::Ptr(pv)) if !self.frame().modified.contains(&p.id) => {
                        let pointee = (**pointee).clone();
                        self.ptrs.push(PtrBind {
                            name: pname,
                            array: Some(pv.array),
                            off: PtrOff::Fixed(pv.off),
                            pointee,
                        });
                        let b = Binding::Ptr(self.ptrs.len() - 1);
                        self.frame_mut().env.insert(p.id.clone(), b);
                    }
                    (CType::Ref(_), _) => {
                        return unsupported(pspan, format!("reference parameter `{pname}`"));
                    }
                    (_, v) => {
                        let b = self.local_binding(&pname, &cty, &p.id, &pspan)?;
                        self.frame_mut().env.insert(p.id.clone(), b.clone());
                        let lv = match b {
                            Binding::Mem(a, c) => LVal::Mem {
                                array: a,
                                off: Expr::int(0, Ty::I64),
                                cty: c,
                            },
                            b => LVal::Bound(b),
                        };
                        self.assign(&lv, v, p, &pspan, &mut stmts)?;
                    }
                }
            }
            self.block(body, &mut stmts)?;
            match ret {
                None => Ok(Val::Void),
                Some(b) => self.read_binding(&b, def),
            }
        })();
        self.frames.pop();
        let v = result?;
        out.push(Stmt {
            kind: StmtKind::Block { id: block, body: stmts },
            span: span.clone(),
        });
        Ok(v)
    }

    /// Calls handled specially; `None` when `name` is not a builtin.
    pub(super) fn builtin_call(
        &mut self,
        n: &Node,
        name: &str,
        args: &[&Node],
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let atomic = match name {
            "atomicAdd" => Some(AtomicOp::Add),
            "atomicSub" => Some(AtomicOp::Sub),
            "atomicExch" => Some(AtomicOp::Exch),
            "atomicMin" => Some(AtomicOp::Min),
            "atomicMax" => Some(AtomicOp::Max),
            "atomicInc" => Some(AtomicOp::Inc),
            "atomicDec" => Some(AtomicOp::Dec),
            "atomicCAS" => Some(AtomicOp::Cas),
            "atomicAnd" => Some(AtomicOp::And),
            "atomicOr" => Some(AtomicOp::Or),
            "atomicXor" => Some(AtomicOp::Xor),
            _ => None,
        };
        if let Some(op) = atomic {
            let Some((p, rest)) = args.split_first() else {
                return unsupported(span.clone(), format!("`{name}` without arguments"));
            };
            let pv = self.rvalue(p, out)?;
            let pv = self.expect_ptr(pv, p)?;
            let Some(ty) = pv.pointee.scalar() else {
                return unsupported(span.clone(), format!("`{name}` on a non-scalar location"));
            };
            let mut operands = Vec::new();
            for a in rest {
                let v = self.rvalue(a, out)?;
                operands.push(cast(self.expect_scalar(v, a)?, ty));
            }
            if self.k.array(pv.array).space == Space::Constant {
                return unsupported(
                    span.clone(),
                    format!(
                        "`{name}` on __constant__ memory `{}` (read-only in kernels)",
                        self.k.array(pv.array).name
                    ),
                );
            }
            let t = self.temp(ty);
            out.push(Stmt {
                kind: StmtKind::Atomic {
                    op,
                    dst: Some(t),
                    array: pv.array,
                    offset: pv.off,
                    operands,
                    ty,
                },
                span: span.clone(),
            });
            return Ok(Some(Val::Scalar(Expr::Var { id: t, ty })));
        }
        let scalars = |this: &mut Self, out: &mut Vec<Stmt>| -> R<Vec<Expr>> {
            let mut v = Vec::new();
            for a in args {
                let x = this.rvalue(a, out)?;
                v.push(this.expect_scalar(x, a)?);
            }
            Ok(v)
        };
        let push = |out: &mut Vec<Stmt>, kind: StmtKind| {
            out.push(Stmt {
                kind,
                span: span.clone(),
            })
        };
        match name {
            "__syncthreads" => {
                push(out, StmtKind::Barrier);
                Ok(Some(Val::Void))
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" | "__syncwarp" | "printf" => {
                Ok(Some(Val::Void))
            }
            "__invariant" | "__global_invariant" => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                // An invariant we cannot lower (GPUVerify's two-thread annotations such as
                // `__write_implies`) is dropped: not assuming it is sound, only less precise.
                let mut stmts = Vec::new();
                match self.cond(a, &mut stmts) {
                    Ok(cond) => {
                        out.extend(stmts);
                        push(out, StmtKind::Invariant { cond });
                    }
                    Err(e) => {
                        let why = match e {
                            FrontendError::Unsupported { what, .. } => what,
                            other => other.to_string(),
                        };
                        self.k
                            .unchecked
                            .push((span.clone(), format!("`{name}` not checked: {why}")));
                    }
                }
                Ok(Some(Val::Void))
            }
            "__function_wide_invariant" | "__axiom" => Ok(Some(Val::Void)),
            "__assert" | "__global_assert" | "__assume" | "__requires" | "__global_requires" => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                let cond = self.cond(a, out)?;
                let kind = if name.ends_with("assert") {
                    StmtKind::Assert { cond }
                } else {
                    StmtKind::Assume { cond }
                };
                push(out, kind);
                Ok(Some(Val::Void))
            }
            "__ensures" | "__global_ensures" => {
                let Some(a) = args.first() else {
                    return unsupported(span.clone(), format!("`{name}` without an argument"));
                };
                // The loads of the condition are kept with it: they read the final memory. A
                // condition we cannot lower (GPUVerify's `__return_val_ptr()`, say) is not
                // checked, and the verdict says so, as for invariants.
                let mut body = Vec::new();
                match self.cond(a, &mut body) {
                    Ok(cond) => push(out, StmtKind::Ensures { body, cond }),
                    Err(FrontendError::Unsupported { what, .. }) => {
                        self.k
                            .unchecked
                            .push((span.clone(), format!("`{name}` not checked: {what}")));
                    }
                    Err(e) => return Err(e),
                }
                Ok(Some(Val::Void))
            }
            "__implies" => {
                let v = scalars(self, out)?;
                let [a, b] = <[Expr; 2]>::try_from(v).map_err(|_| FrontendError::Unsupported {
                    span: span.clone(),
                    what: "`__implies` needs two arguments".into(),
                })?;
                let na = Expr::Unary {
                    op: UnOp::Not,
                    arg: Box::new(to_bool(a)),
                    ty: Ty::Bool,
                };
                Ok(Some(Val::Scalar(Expr::Binary {
                    op: BinOp::LOr,
                    lhs: Box::new(na),
                    rhs: Box::new(to_bool(b)),
                    ty: Ty::Bool,
                })))
            }
            // Every pointer parameter is already a distinct array in this model.
            "__enabled" | "__requires_fresh_array" => Ok(Some(Val::Scalar(Expr::bool(true)))),
            "min" | "max" | "abs" | "llabs" | "__mul24" | "__umul24" => {
                let v = scalars(self, out)?;
                let ty = self.scalar_ty(n)?;
                if let Ty::Float { bits } = ty {
                    let fname = match name {
                        "min" => "fminf",
                        "max" => "fmaxf",
                        other => other,
                    };
                    let _ = bits;
                    return Ok(Some(Val::Scalar(Expr::Opaque {
                        name: fname.into(),
                        args: v,
                        ty,
                    })));
                }
                let e = match (name, v.as_slice()) {
                    ("min" | "max", [a, b]) => {
                        let op = if name == "min" { BinOp::Lt } else { BinOp::Gt };
                        let c = Expr::Binary {
                            op,
                            lhs: Box::new(a.clone()),
                            rhs: Box::new(b.clone()),
                            ty: Ty::Bool,
                        };
                        Expr::Select {
                            cond: Box::new(c),
                            then: Box::new(a.clone()),
                            els: Box::new(b.clone()),
                            ty,
                        }
                    }
                    ("abs" | "llabs", [a]) => {
                        let c = Expr::Binary {
                            op: BinOp::Lt,
                            lhs: Box::new(a.clone()),
                            rhs: Box::new(Expr::int(0, ty)),
                            ty: Ty::Bool,
                        };
                        let neg = Expr::Unary {
                            op: UnOp::Neg,
                            arg: Box::new(a.clone()),
                            ty,
                        };
                        Expr::Select {
                            cond: Box::new(c),
                            then: Box::new(neg),
                            els: Box::new(a.clone()),
                            ty,
                        }
                    }
                    ("__mul24" | "__umul24", [a, b]) => Expr::Binary {
                        op: BinOp::Mul,
                        lhs: Box::new(a.clone()),
                        rhs: Box::new(b.clone()),
                        ty,
                    },
                    _ => {
                        return unsupported(span.clone(), format!("`{name}` with these arguments"));
                    }
                };
                Ok(Some(Val::Scalar(e)))
            }
            _ if name.starts_with("__") && is_annotation(name) => {
                unsupported(span.clone(), format!("annotation `{name}`"))
            }
            _ if self.is_bodyless_math(n, name) => {
                let v = scalars(self, out)?;
                let ty = self.scalar_ty(n)?;
                Ok(Some(Val::Scalar(Expr::Opaque {
                    name: name.to_string(),
                    args: v,
                    ty,
                })))
            }
            _ => Ok(None),
        }
    }

    /// A body-less function from the prelude returning a scalar (math functions).
    pub(super) fn is_bodyless_math(&self, n: &Node, name: &str) -> bool {
        MATH.contains(&name) && matches!(self.ctype(n), CType::Scalar(_))
    }
}

const MATH: &[&str] = &[
    "sqrtf",
    "expf",
    "exp2f",
    "logf",
    "log2f",
    "log10f",
    "fabsf",
    "sinf",
    "cosf",
    "tanf",
    "floorf",
    "ceilf",
    "rsqrtf",
    "truncf",
    "roundf",
    "__expf",
    "__logf",
    "__sinf",
    "__cosf",
    "tanhf",
    "atanf",
    "asinf",
    "acosf",
    "__saturatef",
    "sqrt",
    "exp",
    "log",
    "fabs",
    "sin",
    "cos",
    "floor",
    "ceil",
    "rsqrt",
    "tanh",
    "log2",
    "exp2",
    "trunc",
    "round",
    "fminf",
    "fmaxf",
    "powf",
    "atan2f",
    "fmodf",
    "__fdividef",
    "__fmul_rn",
    "__fadd_rn",
    "fmaf",
    "fmin",
    "fmax",
    "pow",
    "fma",
    "fmod",
    "atan2",
    "__float2int_rn",
    "__int2float_rn",
    "__float_as_int",
    "__int_as_float",
];

fn is_annotation(name: &str) -> bool {
    matches!(
        name,
        "__read"
            | "__write"
            | "__atomic"
            | "__no_read"
            | "__no_write"
            | "__read_implies"
            | "__write_implies"
            | "__read_offset_bytes"
            | "__write_offset_bytes"
            | "__ptr_base"
            | "__ptr_offset_bytes"
            | "__other_int"
            | "__other_bool"
            | "__uniform_int"
            | "__uniform_bool"
            | "__distinct_int"
            | "__distinct_bool"
            | "__all"
            | "__exclusive"
            | "__same_group"
            | "__same_block"
            | "__add_noovfl"
            | "__return_val_int"
            | "__return_val_bool"
            | "__return_val_ptr"
            | "__old_int"
    )
}

fn uses_this(n: &Node) -> bool {
    n.kind == "CXXThisExpr" || n.inner.iter().any(uses_this)
}

fn return_type(def: &Node, env: &TypeEnv) -> CType {
    let t = def.ty.as_ref().map(|t| t.qual_type.as_str()).unwrap_or("void ()");
    // `int (int *, int)`: the return type is what precedes the parameter list.
    let ret = match t.find('(') {
        Some(i) => &t[..i],
        None => t,
    };
    env.parse(ret.trim())
}
