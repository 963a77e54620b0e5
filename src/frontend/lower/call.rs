//! Calls: built-in functions are handed to `builtin.rs`; device functions are inlined into the
//! caller (paper §2, scopes) with their own `Frame`, exit block and result slot.
//!
//! Calls through function pointers are case splits over their targets (`fnptr.rs`).
//! Recursion and methods that use `this` are errors.

use super::fnptr::fn_signature;
use super::globals::body_of;
use super::{Binding, Frame, LVal, Lower, PtrBind, PtrVal, R, Val, scan, unsupported};
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
        let mut c = strip_parens(callee);
        // A compiler built-in (`__builtin_memcpy`) is called by name like any function.
        if c.kind == "ImplicitCastExpr"
            && c.cast_kind.as_deref() == Some("BuiltinFnToFnPtr")
            && let Some(inner) = c.inner.first()
        {
            c = strip_parens(inner);
        }
        let (name, decl_id, decl_ty) = match c.kind.as_str() {
            "DeclRefExpr" => {
                let Some(d) = &c.referenced_decl else {
                    return unsupported(span, "call without a callee");
                };
                if !matches!(d.kind.as_str(), "FunctionDecl" | "CXXMethodDecl" | "CXXConversionDecl") {
                    return self.indirect_call(n, callee, args, &span, out);
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
            _ => return self.indirect_call(n, callee, args, &span, out),
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
            // With a pointer to a pointer among the arguments the callee may retarget a
            // caller's pointer, so pointer arguments are copied rather than shared.
            let share = !vals.iter().any(|v| matches!(v, Val::PtrRef(_)));
            for (p, v) in params.iter().zip(vals) {
                let pname = p.name.clone().unwrap_or_default();
                let pspan = self.span(p);
                let cty = self.ctype(p);
                match (&cty, v) {
                    (CType::Ptr(_), Val::PtrRef(r)) if !self.mutable(&p.id) => {
                        self.frame_mut().env.insert(p.id.clone(), Binding::PtrRef(r));
                    }
                    (CType::Ptr(pointee), Val::Ptr(pv)) if share && !self.mutable(&p.id) => {
                        let pv = PtrVal {
                            pointee: (**pointee).clone(),
                            ..pv
                        };
                        let b = Binding::Ptr(self.push_ptr(PtrBind::fixed(&pname, pv)));
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
                                array: a.into(),
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
}

fn uses_this(n: &Node) -> bool {
    n.kind == "CXXThisExpr" || n.inner.iter().any(uses_this)
}

fn return_type(def: &Node, env: &TypeEnv) -> CType {
    let t = def.ty.as_ref().map(|t| t.qual_type.as_str()).unwrap_or("void ()");
    // `int (int *, int)`: the return type is what precedes the parameter list;
    // `float (*(int))(float *)` returns a function pointer.
    if let Some((ret, _)) = fn_signature(env, t) {
        return ret;
    }
    let ret = match t.find('(') {
        Some(i) => &t[..i],
        None => t,
    };
    env.parse(ret.trim())
}
