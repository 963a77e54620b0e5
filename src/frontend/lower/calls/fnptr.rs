//! Function pointers: a function pointer is a [`FN_PTR`] scalar holding an integer-coded
//! target (0 is `NULL`; each function used as a value or called through a pointer gets a
//! distinct nonzero code), and a call through one is a case split over the functions it may
//! reach: `if (p == &f1) f1(args) else if (p == &f2) f2(args) … else assert(false)`, each arm
//! inlined like a direct call.
//!
//! The candidates of a call are the `__device__` functions defined in the kernel's file and the
//! functions used as a value anywhere in the translation unit, whose signature matches the
//! call's (a kernel parameter of function-pointer type may hold any of them: the host may pass
//! any device function). A value that is none of them (`NULL`, an integer cast, a function of
//! another type) reaches the final `assert(false)` at the call: "assertion may fail" at a call
//! through a pointer means the pointer may be null or point to no known function. A candidate
//! without a body, or a call with no candidate at all, is an `Unsupported` error.

use crate::frontend::ast::{DeclRef, Node};
use crate::frontend::lower::globals::body_of;
use crate::frontend::lower::{Lower, R, Val, branch, set, unsupported};
use crate::frontend::types::{CType, FN_PTR, TypeEnv};
use crate::ir::build::cast;
use crate::ir::*;
use std::sync::Arc;

/// The code of the first function; codes step by 16, like aligned addresses.
const FN_CODE_BASE: u64 = 0x1000_0000;

/// A function a call through a pointer may reach.
#[derive(Clone)]
pub(in crate::frontend) struct FnCand<'a> {
    /// Identity (the definition's id, or name and type of a declaration without a body).
    key: String,
    name: String,
    def: Option<&'a Node>,
    /// The declared type (`float (float *, unsigned int)`).
    ty: String,
    /// Where it is declared (candidates are tried in this order).
    pos: (Arc<str>, u32, u32),
}

impl<'a> Lower<'a, '_> {
    /// The code of the function `d` names.
    pub(in crate::frontend) fn fn_code(&mut self, d: &DeclRef) -> Expr {
        let (key, _) = self.fn_key(d);
        self.code_of_key(&key)
    }

    fn code_of_key(&mut self, key: &str) -> Expr {
        let i = match self.fn_codes.iter().position(|k| k == key) {
            Some(i) => i,
            None => {
                self.fn_codes.push(key.to_string());
                self.fn_codes.len() - 1
            }
        };
        Expr::int(FN_CODE_BASE + 16 * i as u64, FN_PTR)
    }

    /// The identity of the function `d` names, and its definition when it has one.
    fn fn_key(&self, d: &DeclRef) -> (String, Option<&'a Node>) {
        let def = self.g.funcs_by_id.get(&d.id).copied().or_else(|| {
            self.g
                .funcs_by_sig
                .get(&(d.name.clone(), d.ty.qual_type.clone()))
                .copied()
        });
        match def {
            Some(f) => (f.id.clone(), Some(f)),
            None => (format!("{}:{}", d.name, d.ty.qual_type), None),
        }
    }

    /// The value (code) of an expression of function or function-pointer type: `f`, `&f`,
    /// `*p`, `(*p)`, a pointer variable, a table element, a call returning a pointer.
    pub(in crate::frontend) fn fn_value(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Expr> {
        match n.kind.as_str() {
            "ParenExpr" if !n.inner.is_empty() => self.fn_value(&n.inner[0], out),
            "ImplicitCastExpr" if n.cast_kind.as_deref() == Some("FunctionToPointerDecay") && !n.inner.is_empty() => {
                self.fn_value(&n.inner[0], out)
            }
            "UnaryOperator" if matches!(n.opcode.as_deref(), Some("&") | Some("*")) && !n.inner.is_empty() => {
                self.fn_value(&n.inner[0], out)
            }
            _ => {
                let v = self.rvalue(n, out)?;
                let e = self.expect_scalar(v, n)?;
                Ok(cast(e, FN_PTR))
            }
        }
    }

    /// A call `n` through the function pointer `callee`, with the argument nodes `args`.
    pub(in crate::frontend) fn indirect_call(
        &mut self,
        n: &Node,
        callee: &Node,
        args: Vec<&Node>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let code = self.fn_value(callee, out)?;
        let cands = self.fn_candidates(n, &args);
        if cands.is_empty() {
            return unsupported(
                span.clone(),
                "call through a function pointer with no known target (no function of its type in the file)",
            );
        }
        let mut vals = Vec::new();
        for a in &args {
            vals.push(self.rvalue(a, out)?);
        }
        let result = match self.ctype(n) {
            CType::Void => None,
            CType::Scalar(ty) => Some((self.temp(ty), ty)),
            other => {
                return unsupported(
                    span.clone(),
                    format!("call through a function pointer returning `{}`", other.describe()),
                );
            }
        };
        // The value matches no candidate: a null or unknown pointer is a defect at the call.
        let mut els = vec![Stmt {
            kind: StmtKind::Assert {
                cond: Expr::bool(false),
            },
            span: span.clone(),
        }];
        if let Some((t, _)) = result {
            els.push(Stmt {
                kind: StmtKind::Havoc { var: t },
                span: span.clone(),
            });
        }
        for c in cands.iter().rev() {
            let Some(def) = c.def.filter(|d| body_of(d).is_some()) else {
                return unsupported(
                    span.clone(),
                    format!(
                        "call through a function pointer that may point to `{}`, a function without a body",
                        c.name
                    ),
                );
            };
            if self.frames.iter().any(|f| f.func_id == def.id) {
                return unsupported(
                    span.clone(),
                    format!("recursive call to `{}` through a function pointer", c.name),
                );
            }
            let params: Vec<&Node> = def.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
            let mut then = Vec::new();
            let v = self.inline(def, &c.name, params, vals.clone(), span, &mut then)?;
            if let Some((t, ty)) = result {
                let e = self.expect_scalar(v, n)?;
                then.push(set(t, cast(e, ty), span.clone()));
            }
            let is_c = Expr::Binary {
                op: BinOp::Eq,
                lhs: Box::new(code.clone()),
                rhs: Box::new(self.code_of_key(&c.key)),
                ty: Ty::Bool,
            };
            els = vec![branch(is_c, then, els, span.clone())];
        }
        out.extend(els);
        let names: Vec<String> = cands.iter().map(|c| format!("`{}`", c.name)).collect();
        let head = "call through a function pointer (";
        if !self.k.notes.iter().any(|x| x.starts_with(head)) {
            self.k.notes.push(format!(
                "{head}{span}) is a case split over the functions of its type ({}); a pointer that \
                 may be null or point to no known function fails there as an assertion",
                names.join(", ")
            ));
        }
        Ok(match result {
            Some((t, ty)) => Val::Scalar(Expr::Var { id: t, ty }),
            None => Val::Void,
        })
    }

    /// The functions a call `n` through a pointer may reach, in declaration order.
    fn fn_candidates(&mut self, n: &Node, args: &[&Node]) -> Vec<FnCand<'a>> {
        if self.fn_taken.is_none() {
            let mut taken = Vec::new();
            let mut roots: Vec<&'a Node> = self.g.funcs_by_id.values().copied().collect();
            roots.extend(self.g.vars.values().copied());
            for r in roots {
                self.scan_fn_values(r, &mut taken);
            }
            self.fn_taken = Some(taken);
        }
        let mut all: Vec<FnCand<'a>> = self.fn_taken.clone().unwrap_or_default();
        let file = self.kspan.file.clone();
        for f in self.g.funcs_by_id.values() {
            let device = f.has_attr("CUDADeviceAttr") && !f.has_attr("CUDAGlobalAttr");
            if f.kind == "FunctionDecl" && device && f.pos.as_ref().is_some_and(|p| p.file == file) {
                all.push(cand_of_def(f));
            }
        }
        all.sort_by(|a, b| (&a.pos, &a.key).cmp(&(&b.pos, &b.key)));
        let mut seen = std::collections::HashSet::new();
        all.retain(|c| seen.insert(c.key.clone()));
        let want_ret = self.ctype(n);
        let want: Vec<CType> = args.iter().map(|a| self.ctype(a)).collect();
        all.into_iter()
            .filter(|c| {
                let Some((ret, params)) = self.cand_signature(c) else {
                    return false;
                };
                compatible(&ret, &want_ret)
                    && params.len() == want.len()
                    && params.iter().zip(&want).all(|(p, w)| compatible(p, w))
            })
            .collect()
    }

    /// Return and parameter types of a candidate (parameters from its definition when it has
    /// one: their spellings there are desugared).
    fn cand_signature(&self, c: &FnCand) -> Option<(CType, Vec<CType>)> {
        let (ret, params) = fn_signature(&self.g.types, &c.ty)?;
        match c.def {
            Some(d) => Some((
                ret,
                d.inner
                    .iter()
                    .filter(|p| p.kind == "ParmVarDecl")
                    .map(|p| self.ctype(p))
                    .collect(),
            )),
            None => Some((ret, params)),
        }
    }

    /// Functions used as values (not as the callee of a direct call) under `n`.
    fn scan_fn_values(&self, n: &'a Node, out: &mut Vec<FnCand<'a>>) {
        let is_call = matches!(
            n.kind.as_str(),
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr"
        );
        for (i, c) in n.inner.iter().enumerate() {
            let direct = is_call && i == 0 && crate::frontend::ast::strip_parens(c).kind == "DeclRefExpr";
            if !direct {
                self.scan_fn_values(c, out);
            }
        }
        if n.kind == "DeclRefExpr"
            && let Some(d) = n.referenced_decl.as_ref().filter(|d| d.kind == "FunctionDecl")
        {
            let (key, def) = self.fn_key(d);
            let pos = def.and_then(|f| f.pos.as_ref()).or(n.pos.as_ref());
            out.push(FnCand {
                key,
                name: d.name.clone(),
                def,
                ty: def
                    .map(|f| f.type_str().to_string())
                    .unwrap_or_else(|| d.ty.qual_type.clone()),
                pos: pos
                    .map(|p| (p.file.clone(), p.line, p.col))
                    .unwrap_or((Arc::from(""), 0, 0)),
            });
        }
    }
}

fn cand_of_def(f: &Node) -> FnCand<'_> {
    let pos = f.pos.as_ref();
    FnCand {
        key: f.id.clone(),
        name: f.name.clone().unwrap_or_default(),
        def: Some(f),
        ty: f.type_str().to_string(),
        pos: pos
            .map(|p| (p.file.clone(), p.line, p.col))
            .unwrap_or((Arc::from(""), 0, 0)),
    }
}

/// Whether a candidate's type `a` accepts the call's `b` (a spelling gpug cannot resolve
/// matches anything: a wrong candidate is only a dead arm of the case split).
fn compatible(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Other(_), _) | (_, CType::Other(_)) => true,
        (CType::Ptr(x), CType::Ptr(y)) => compatible(x, y),
        (CType::Array(x, _), CType::Ptr(y)) | (CType::Ptr(x), CType::Array(y, _)) => compatible(x, y),
        _ => a == b,
    }
}

/// The index of the `)` closing the `(` at `open`.
fn closing(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + j);
                }
            }
            _ => {}
        }
    }
    None
}

/// Return and parameter types of a function type spelling: `float (float *, unsigned int)`,
/// or `float (*(int))(float *)` (a function of `int` returning a function pointer). `None`
/// for a variadic function or a spelling that is not a function type.
pub(in crate::frontend) fn fn_signature(env: &TypeEnv, s: &str) -> Option<(CType, Vec<CType>)> {
    let s = s.trim();
    let (ret, open) = match s.find("(*(") {
        Some(i) => (CType::Scalar(FN_PTR), i + 2),
        None => {
            let open = s.find('(')?;
            (env.parse(&s[..open]), open)
        }
    };
    let close = closing(s, open)?;
    let inner = s[open + 1..close].trim();
    let mut params = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (j, c) in inner.char_indices() {
        match c {
            '(' | '<' | '[' => depth += 1,
            ')' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                params.push(inner[start..j].trim());
                start = j + 1;
            }
            _ => {}
        }
    }
    params.push(inner[start..].trim());
    if params == [""] || params == ["void"] {
        params.clear();
    }
    if params.contains(&"...") {
        return None;
    }
    Some((ret, params.into_iter().map(|p| env.parse(p)).collect()))
}
