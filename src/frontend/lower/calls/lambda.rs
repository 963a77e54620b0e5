//! C++ lambdas in device code: a lambda held in a local variable (`auto f = [&](int i) {…};`),
//! called in place (`[&] {…}()`), or given to a template's parameter (`template <class F>
//! __device__ void g(F op)` called as `g([&](int i) {…})`), and called there; a `__device__`
//! lambda the host code passes to a template kernel (`k<<<g, b>>>(a, [k] __device__(int x)
//! {…})`): the kernel's parameter holds that lambda's closure, each by-copy capture a kernel
//! parameter of its own (the host's value, any value the same in every thread).
//!
//! The closure has no storage: it is a [`Closure`], the bindings its body sees, kept by the
//! declaration id of the variable or parameter that holds it. A call (`f(i)`, a
//! `CXXOperatorCallExpr` on the closure) inlines `operator()` like any method (`calls/mod.rs`),
//! in a frame that starts from those bindings. A by-reference capture (`[&]`, `[&x]`) is the
//! enclosing function's binding itself, so reads and writes through it are exact; a by-copy
//! capture (`[=]`, `[x]`) is a snapshot taken where the lambda is created: a fresh local
//! assigned the variable's value there, as a value parameter is, so later assignments to the
//! variable do not reach the lambda's copy. A `mutable` lambda (whose copies may change
//! between calls and whose closure may be copied) is refused, as are init-captures (`[y = e]`)
//! and any other use of a closure (its address, a copy into memory).

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::cxx::Arg;
use crate::frontend::lower::globals::{Globals, body_of};
use crate::frontend::lower::{Binding, LVal, Lower, R, Val, unsupported};
use crate::ir::*;
use std::collections::HashMap;

/// A lambda's closure as the lowering sees it.
#[derive(Clone, Debug)]
pub(in crate::frontend) struct Closure {
    /// The id of the closure class (`CXXRecordDecl`), which owns the `operator()` called.
    record: String,
    /// The bindings of the function that created the lambda, by declaration id, with each
    /// by-copy capture replaced by its snapshot.
    env: HashMap<String, Binding>,
    /// The object `this` pointed to where the lambda was created (a `[this]` capture).
    this: Option<LVal>,
}

/// Record the `operator()` of every lambda under `n` in `g` ([`Globals::lambda_ops`] and
/// [`Globals::funcs_by_id`]), generic lambdas' instantiations included.
pub(in crate::frontend) fn collect_lambdas<'a>(n: &'a Node, g: &mut Globals<'a>) {
    if n.kind == "LambdaExpr"
        && let Some(record) = n.inner.iter().find(|c| c.kind == "CXXRecordDecl")
    {
        collect_ops(record, &record.id, g);
        g.lambda_exprs.insert(record.id.clone(), n);
    }
    for c in &n.inner {
        collect_lambdas(c, g);
    }
}

/// The `operator()`s with a body under `n` (a closure class `record`), into `g`.
fn collect_ops<'a>(n: &'a Node, record: &str, g: &mut Globals<'a>) {
    for c in &n.inner {
        if c.kind == "CXXMethodDecl" && c.name.as_deref() == Some("operator()") && body_of(c).is_some() {
            g.funcs_by_id.insert(c.id.clone(), c);
            g.lambda_ops.insert(c.id.clone(), record.to_string());
        } else if c.kind == "FunctionTemplateDecl" {
            collect_ops(c, record, g);
        }
    }
}

/// What follows the parameter list of the function type `t` (`void (int) const`,
/// `auto (int) const -> float`): its qualifiers and trailing return type; empty when `t` has no
/// parameter list.
fn after_params(t: &str) -> &str {
    let Some(open) = t.find('(') else {
        return "";
    };
    let mut depth = 0;
    for (i, ch) in t[open..].char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &t[open + i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// The trailing return type of the function type `t` (`float` of `auto (int) const -> float`,
/// as clang spells a lambda's `operator()`), if it has one.
pub(in crate::frontend) fn trailing_return(t: &str) -> Option<&str> {
    if !t.starts_with("auto (") {
        return None;
    }
    after_params(t).split_once("->").map(|(_, r)| r.trim())
}

/// `e` without the wrappers clang puts around a closure that is moved or copied: parentheses,
/// implicit casts, temporaries and the closure's copy or move constructor.
fn strip_closure(e: &Node) -> &Node {
    let mut e = strip_parens(e);
    loop {
        match e.kind.as_str() {
            "ImplicitCastExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "ParenExpr" => {}
            "CXXConstructExpr" if e.inner.len() == 1 => {}
            _ => return e,
        }
        match e.inner.first() {
            Some(c) => e = c,
            None => return e,
        }
    }
}

impl Lower<'_, '_> {
    /// The closure `e` denotes: a lambda created here, or the closure a local variable or
    /// parameter holds; `None` when `e` is neither.
    fn closure_of(&mut self, e: &Node, out: &mut Vec<Stmt>) -> R<Option<Closure>> {
        let s = strip_closure(e);
        match s.kind.as_str() {
            "LambdaExpr" => Ok(Some(self.make_closure(s, out)?)),
            "DeclRefExpr" => Ok(s
                .referenced_decl
                .as_ref()
                .and_then(|d| self.closures.get(&d.id))
                .cloned()),
            _ => Ok(None),
        }
    }

    /// The closure of the lambda `lam`, created here: by-copy captures are snapshot into fresh
    /// locals (statements into `out`), by-reference ones share the enclosing bindings.
    fn make_closure(&mut self, lam: &Node, out: &mut Vec<Stmt>) -> R<Closure> {
        let span = self.span(lam);
        let Some(record) = lam.inner.iter().find(|c| c.kind == "CXXRecordDecl") else {
            return unsupported(span, "lambda without its closure class");
        };
        let mutable = record.inner.iter().any(|m| {
            m.kind == "CXXMethodDecl"
                && m.name.as_deref() == Some("operator()")
                && !m
                    .ty
                    .as_ref()
                    .is_some_and(|t| after_params(&t.qual_type).trim_start().starts_with("const"))
        });
        if mutable {
            return unsupported(span, "`mutable` lambda");
        }
        let fields: Vec<&Node> = record.inner.iter().filter(|c| c.kind == "FieldDecl").collect();
        let mut inits: Vec<&Node> = lam.inner.iter().filter(|c| c.kind != "CXXRecordDecl").collect();
        if inits.last().is_some_and(|b| b.kind == "CompoundStmt") {
            inits.pop();
        }
        if fields.len() != inits.len() {
            return unsupported(span, "lambda whose captures the AST does not show");
        }
        let mut env = self.frame().env.clone();
        for (f, init) in fields.into_iter().zip(inits) {
            // `int &`, or `float (&)[8]` for an array.
            let by_ref = f.ty.as_ref().is_some_and(|t| {
                let t = t.qual_type.trim_end();
                t.ends_with('&') || t.contains("(&)")
            });
            let target = strip_closure(init);
            let id = match target.kind.as_str() {
                // `[this]`: the object is shared, as `this` points to it.
                "CXXThisExpr" => continue,
                "DeclRefExpr" => match &target.referenced_decl {
                    Some(d) => d.id.clone(),
                    None => return unsupported(self.span(init), "lambda capture without a declaration"),
                },
                _ => {
                    return unsupported(
                        self.span(init),
                        "lambda capture initialised by an expression (an init-capture or a copied array)",
                    );
                }
            };
            if by_ref {
                continue;
            }
            // By copy: the value now, in a fresh local the enclosing function cannot change.
            let name = target
                .referenced_decl
                .as_ref()
                .map(|d| d.name.clone())
                .unwrap_or_default();
            let cty = self.ctype(f);
            let b = self.local_binding(&format!("{name}$copy"), &cty, "", &span)?;
            let lv = match b.clone() {
                Binding::Mem(a, c) => LVal::Mem {
                    array: a,
                    off: Expr::int(0, Ty::I64),
                    cty: c,
                },
                b => LVal::Bound(b),
            };
            let v = self.rvalue(init, out)?;
            self.assign(&lv, v, init, &span, out)?;
            env.insert(id, b);
        }
        Ok(Closure {
            record: record.id.clone(),
            env,
            this: self.frame().this_obj.clone(),
        })
    }

    /// The local variable `d` when it holds a lambda: its closure is recorded and `true`
    /// returned; a variable of a lambda's type initialised otherwise is refused.
    pub(in crate::frontend) fn lambda_local(&mut self, d: &Node, out: &mut Vec<Stmt>) -> R<bool> {
        let init = d.code_children().last().filter(|_| d.init.is_some());
        if let Some(e) = init
            && let Some(c) = self.closure_of(e, out)?
        {
            self.closures.insert(d.id.clone(), c);
            return Ok(true);
        }
        if d.ty.as_ref().is_some_and(|t| t.qual_type.contains("(lambda at ")) {
            let name = d.name.clone().unwrap_or_default();
            return unsupported(
                self.span(d),
                format!("lambda variable `{name}` not initialised by a lambda"),
            );
        }
        Ok(false)
    }

    /// The kernel's parameter `p` when its type is a lambda's closure (`template <class F>
    /// __global__ void k(F f)` launched with a `__device__` lambda, `true`): `p` holds the
    /// closure of the lambda of that type (the one at the place its type names, `(lambda at
    /// file:line:col)`), each by-copy capture a parameter of the kernel of its own (`f.k`:
    /// the host's value, the same in every thread, not modelled). `false` for any other
    /// parameter.
    ///
    /// # Errors
    /// No lambda of that type in the file; by-reference captures (host memory), `this`,
    /// init-captures, `mutable` lambdas.
    pub(in crate::frontend) fn kernel_lambda_param(&mut self, p: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<bool> {
        let Some(t) = p.ty.as_ref() else { return Ok(false) };
        let ty = t.desugared.as_deref().unwrap_or(&t.qual_type);
        let Some(at) = ty.trim_start_matches("const ").trim().strip_prefix("(lambda at ") else {
            return Ok(false);
        };
        let at = at.trim_end_matches(')');
        let name = p.name.clone().unwrap_or_default();
        // `file:line:col`, the file possibly with colons of its own.
        let mut parts = at.rsplitn(3, ':');
        let (col, line, file) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
        let (Some(col), Some(line)) = (
            col.and_then(|c| c.parse::<u32>().ok()),
            line.and_then(|l| l.parse::<u32>().ok()),
        ) else {
            return unsupported(
                span.clone(),
                format!("kernel parameter `{name}` of a lambda type clang does not place"),
            );
        };
        let found = self.g.lambda_exprs.iter().find(|(_, lam)| {
            lam.inner.iter().any(|r| {
                r.kind == "CXXRecordDecl"
                    && r.pos.as_ref().is_some_and(|q| {
                        q.line == line && q.col == col && (file.ends_with(&*q.file) || q.file.ends_with(file))
                    })
            })
        });
        let Some((record, lam)) = found.map(|(r, l)| (r.clone(), *l)) else {
            return unsupported(
                span.clone(),
                format!("kernel parameter `{name}`: a lambda not found in the file"),
            );
        };
        let Some(rec) = lam.inner.iter().find(|c| c.kind == "CXXRecordDecl") else {
            return unsupported(span.clone(), "lambda without its closure class");
        };
        let mutable = rec.inner.iter().any(|m| {
            m.kind == "CXXMethodDecl"
                && m.name.as_deref() == Some("operator()")
                && !m
                    .ty
                    .as_ref()
                    .is_some_and(|t| after_params(&t.qual_type).trim_start().starts_with("const"))
        });
        if mutable {
            return unsupported(span.clone(), format!("kernel parameter `{name}`: a `mutable` lambda"));
        }
        let fields: Vec<&Node> = rec.inner.iter().filter(|c| c.kind == "FieldDecl").collect();
        let mut inits: Vec<&Node> = lam.inner.iter().filter(|c| c.kind != "CXXRecordDecl").collect();
        if inits.last().is_some_and(|b| b.kind == "CompoundStmt") {
            inits.pop();
        }
        if fields.len() != inits.len() {
            return unsupported(span.clone(), "lambda whose captures the AST does not show");
        }
        let mut env = HashMap::new();
        for (f, init) in fields.into_iter().zip(inits) {
            let by_ref = f.ty.as_ref().is_some_and(|t| {
                let t = t.qual_type.trim_end();
                t.ends_with('&') || t.contains("(&)")
            });
            let target = strip_closure(init);
            let Some(d) = target.referenced_decl.as_ref().filter(|_| target.kind == "DeclRefExpr") else {
                return unsupported(
                    span.clone(),
                    format!("kernel parameter `{name}`: a lambda capturing `this` or an expression"),
                );
            };
            if by_ref {
                return unsupported(
                    span.clone(),
                    format!(
                        "kernel parameter `{name}`: a lambda capturing `{}` by reference (host memory)",
                        d.name
                    ),
                );
            }
            let cty = self.ctype(f);
            let b = self.param_binding(&format!("{name}.{}", d.name), &cty, ("", Space::Global), span, out)?;
            env.insert(d.id.clone(), b);
        }
        self.closures.insert(
            p.id.clone(),
            Closure {
                record,
                env,
                this: None,
            },
        );
        Ok(true)
    }

    /// The argument `a` for the parameter `p` when it is a lambda: the parameter holds its
    /// closure (`true`); `false` for any other argument.
    pub(in crate::frontend) fn bind_lambda_param(&mut self, a: &Node, p: &Node, out: &mut Vec<Stmt>) -> R<bool> {
        match self.closure_of(a, out)? {
            Some(c) => {
                self.closures.insert(p.id.clone(), c);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The call `n` (callee `c`, arguments `args`) when it calls a lambda: `operator()`
    /// inlined in a frame starting from the closure's bindings; `None` for any other call.
    pub(in crate::frontend) fn lambda_call(
        &mut self,
        n: &Node,
        c: &Node,
        args: &[&Node],
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        if n.kind != "CXXOperatorCallExpr" {
            return Ok(None);
        }
        let Some(d) = &c.referenced_decl else {
            return Ok(None);
        };
        let Some(record) = self.g.lambda_ops.get(&d.id).cloned() else {
            return Ok(None);
        };
        let Some((obj, rest)) = args.split_first() else {
            return unsupported(span.clone(), "lambda call without its closure");
        };
        let Some(closure) = self.closure_of(obj, out)? else {
            return unsupported(
                span.clone(),
                "call of a lambda not held in a local variable or a parameter",
            );
        };
        if closure.record != record {
            return unsupported(span.clone(), "call of a lambda through another lambda's `operator()`");
        }
        let Some(def) = self.g.funcs_by_id.get(&d.id).copied() else {
            return unsupported(span.clone(), "lambda without a body");
        };
        if self.frames.iter().any(|f| f.func_id == def.id) {
            return unsupported(span.clone(), "recursive lambda call");
        }
        let params: Vec<&Node> = def.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        if params.len() != rest.len() {
            return unsupported(span.clone(), "lambda call with default or variadic arguments");
        }
        let mut vals = Vec::new();
        for (a, p) in rest.iter().zip(&params) {
            if self.bind_lambda_param(a, p, out)? {
                vals.push(Arg::Val(Val::Void));
                continue;
            }
            let pty = self.ctype(p);
            vals.push(self.arg(a, &pty, out)?);
        }
        let v = self.inline_call(def, "operator()", params, vals, closure.this, closure.env, span, out)?;
        Ok(Some(v))
    }
}
