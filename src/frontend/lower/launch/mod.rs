//! Launches read from the file's host code (issue 43): each `k<<<grid, block[, shm[, stream]]>>>(…)`
//! (clang's `CUDAKernelCallExpr`) and each `cudaLaunchKernel` / `cudaLaunchCooperativeKernel`
//! call, with the geometry and the scalar argument values the host code makes known.
//!
//! **What is evaluated.** A small abstract interpretation of the host functions' integer code,
//! from each host function of the program that no other calls (`main`): literals, macros (clang
//! has expanded them), enum constants, `const`/`constexpr` variables at any scope, `sizeof`,
//! `dim3` constructors and their `.x/.y/.z`, locals assigned before the launch (declarations,
//! `=`, compound assignments, `++`/`--`), arithmetic, comparisons, `?:`, `min`/`max`, and calls
//! of the file's host functions (inlined with their argument values: a launch in a helper
//! called from `main` is read at each call, and a helper returning a value, `iDivUp(n, 256)`,
//! gives it). Integer arithmetic is C's (`ir::Expr` folded by [`crate::ir::eval::eval`]).
//!
//! **What stays symbolic.** Anything else: function parameters with no caller in the file,
//! values read from input (`argc`, `scanf`, `atoi`), floating point, variables whose address is
//! taken or that are passed by reference (from then on), variables assigned in a loop or in one
//! branch of an `if` (after it; inside the loop they are unknown from the start), globals that
//! are not `const`. A symbolic value is a *host unknown*: when one is passed to a kernel
//! parameter unchanged (`k<<<(n + 255) / 256, 256>>>(…, n)`), the unknown is that parameter,
//! and every other launch value over such unknowns becomes a relation assumed at the kernel's
//! entry (`gridDim.x == (n + 255) / 256`); a value over unknowns not passed is dropped (the
//! launch stays symbolic there).
//!
//! Soundness: each assumption holds in the execution the host code makes (up to undefined
//! behaviour of the host code itself), so verifying the kernel under it covers that launch;
//! a value we cannot follow is never assumed.
//!
//! Must not: lower device code or know about SMT.

mod terms;

use super::globals::{Globals, body_of, const_value};
use crate::frontend::ast::{Node, strip_parens};
use crate::ir::{BinOp, Builtin, Dim, Expr, HostLaunch, Kernel, ParamKind, Ty, UnOp, VarId};
use num_bigint::BigInt;
use std::collections::{HashMap, HashSet};
use terms::{c_text, cast, eq, fold, passed_unknown, substitute, wrap_ty};

/// The launches of `kernels` (each with its declaration) in the host code of the translation
/// unit `root`, distinct ones only, in source order. `user` tells the files whose host
/// functions are the program's (not a library's or the prelude's).
pub(super) fn read<'a>(
    root: &'a Node,
    g: &Globals<'a>,
    kernels: &[(&'a Node, &Kernel)],
    user: &dyn Fn(&str) -> bool,
) -> Vec<HostLaunch> {
    let mut funcs: Vec<&'a Node> = Vec::new();
    host_functions(root, user, &mut funcs);
    let mut called: HashSet<String> = HashSet::new();
    for f in &funcs {
        if let Some(b) = body_of(f) {
            callees(b, &mut called);
        }
    }
    let mut h = Host {
        g,
        kernels,
        unknowns: Vec::new(),
        found: Vec::new(),
        stack: Vec::new(),
        call_lines: Vec::new(),
        entered: HashSet::new(),
        generation: 0,
        globals: HashMap::new(),
        steps: 0,
        sources: HashMap::new(),
    };
    // The roots first (`main`), then each function holding a launch that no root's
    // interpretation entered (called only from another file, or through a pointer). A launch
    // in a branch the interpretation found dead (`if (block_size == 16)` with 32) is not made
    // by the program.
    for f in funcs.iter().filter(|f| !called.contains(&f.id)) {
        h.function(f, Vec::new());
    }
    for f in &funcs {
        let Some(b) = body_of(f) else { continue };
        let mut sites = Vec::new();
        launch_nodes(b, &mut sites);
        if !sites.is_empty() && !h.entered.contains(&f.id) {
            h.function(f, Vec::new());
        }
    }
    dedup(h.found)
}

/// A host value: an integer term (host unknowns are `Var`s indexing [`Host::unknowns`]) or a
/// `dim3`.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(Expr),
    Dim3([Expr; 3]),
}

/// The state of one host function's interpretation.
#[derive(Clone, Default)]
struct Env {
    /// Local variables' values by declaration id.
    vals: HashMap<String, Val>,
    /// Variables whose address was taken, that were passed by reference or that a reference or
    /// a lambda names: other names may change them, so each call and each write through a
    /// pointer or reference makes them unknown ([`Host::clobber`]).
    escaped: HashSet<String>,
    /// `void *args[] = {&a, &n}`: the variables each slot points to, by the array's id.
    arg_arrays: HashMap<String, Vec<Option<String>>>,
    /// Inside a loop.
    in_loop: bool,
}

/// How a statement ends.
enum Flow {
    Next,
    Return(Option<Val>),
}

/// A launch as found, before the duplicates merge.
struct Found {
    launch: HostLaunch,
}

/// The interpreter.
struct Host<'a, 'g> {
    g: &'g Globals<'a>,
    kernels: &'g [(&'a Node, &'g Kernel)],
    /// The host unknowns' names (`n`, `argc`); `Var { id: VarId(i) }` is the i-th.
    unknowns: Vec<String>,
    found: Vec<Found>,
    /// The functions being interpreted (ids), outermost first, and their names.
    stack: Vec<(String, String)>,
    /// The lines of the calls between the functions of [`Host::stack`].
    call_lines: Vec<u32>,
    /// The functions interpreted at least once.
    entered: HashSet<String>,
    /// The writes that other names may have made so far ([`Host::clobber`]): a global read
    /// twice with no write between has one value.
    generation: u64,
    /// Each non-`const` global read so far: its unknown, and the generation it holds in.
    globals: HashMap<String, (u64, Expr)>,
    /// Statements interpreted: past [`MAX_STEPS`], calls are no longer inlined.
    steps: usize,
    /// Source files' lines, for the launches' configurations as written.
    sources: HashMap<String, Option<Vec<String>>>,
}

/// Calls of host functions are inlined at most this deep.
const MAX_DEPTH: usize = 6;
/// The interpretation's budget in statements (a host program of many helpers called many times).
const MAX_STEPS: usize = 200_000;

/// The user's host functions with a body, anywhere in `n` (namespaces, classes, template
/// instantiations).
fn host_functions<'a>(n: &'a Node, user: &dyn Fn(&str) -> bool, out: &mut Vec<&'a Node>) {
    for c in &n.inner {
        match c.kind.as_str() {
            "FunctionDecl" | "CXXMethodDecl" => {
                let device =
                    c.has_attr("CUDAGlobalAttr") || (c.has_attr("CUDADeviceAttr") && !c.has_attr("CUDAHostAttr"));
                let mine = c.pos.as_ref().or(c.begin.as_ref()).is_some_and(|p| user(&p.file));
                if !device && mine && body_of(c).is_some() && !c.is_implicit {
                    out.push(c);
                }
            }
            "NamespaceDecl"
            | "LinkageSpecDecl"
            | "CXXRecordDecl"
            | "ClassTemplateSpecializationDecl"
            | "FunctionTemplateDecl"
            | "ClassTemplateDecl" => host_functions(c, user, out),
            _ => {}
        }
    }
}

/// The ids of the functions called under `n` (a function whose address is only taken, as
/// `glutDisplayFunc(display)`, is called from elsewhere: a root).
fn callees(n: &Node, out: &mut HashSet<String>) {
    if matches!(n.kind.as_str(), "CallExpr" | "CXXMemberCallExpr")
        && let Some(callee) = n.inner.first().map(strip)
    {
        match callee.kind.as_str() {
            "DeclRefExpr" => out.extend(callee.referenced_decl.as_ref().map(|d| d.id.clone())),
            "MemberExpr" => out.extend(callee.referenced_member_decl.clone()),
            _ => {}
        }
    }
    for c in &n.inner {
        callees(c, out);
    }
}

/// The ids of the launch nodes under `n`.
fn launch_nodes<'n>(n: &'n Node, out: &mut Vec<&'n str>) {
    if n.kind == "CUDAKernelCallExpr" || (n.kind == "CallExpr" && launch_api(n).is_some()) {
        out.push(&n.id);
    }
    for c in &n.inner {
        launch_nodes(c, out);
    }
}

/// `cudaLaunchKernel` or `cudaLaunchCooperativeKernel` when `call` calls one of them.
fn launch_api(call: &Node) -> Option<&str> {
    let callee = call.inner.first()?;
    let name = callee_name(callee)?;
    matches!(
        name,
        "cudaLaunchKernel" | "cudaLaunchCooperativeKernel" | "cudaLaunchKernelExC"
    )
    .then_some(name)
}

/// The name of the function a callee expression names.
fn callee_name(n: &Node) -> Option<&str> {
    let n = strip(n);
    match n.kind.as_str() {
        "DeclRefExpr" => n.referenced_decl.as_ref().map(|d| d.name.as_str()),
        "UnresolvedLookupExpr" => n.name.as_deref(),
        _ => None,
    }
}

/// `n` without parentheses, implicit casts and temporaries' wrappers.
fn strip(n: &Node) -> &Node {
    let mut n = strip_parens(n);
    while matches!(
        n.kind.as_str(),
        "ImplicitCastExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "ParenExpr"
            | "ConstantExpr"
    ) && !n.inner.is_empty()
    {
        n = strip_parens(&n.inner[0]);
    }
    n
}

/// The type of `n` without qualifiers (`const int` → `int`).
fn bare(ty: &str) -> &str {
    let mut t = ty.trim();
    for q in ["const ", "volatile "] {
        t = t.strip_prefix(q).unwrap_or(t);
    }
    t.trim()
}

fn is_dim3(ty: &str) -> bool {
    matches!(
        bare(ty).trim_end_matches('&').trim(),
        "dim3" | "struct dim3" | "const dim3" | "uint3"
    )
}

fn one() -> Expr {
    Expr::int(1, Ty::U32)
}

impl<'a, 'g> Host<'a, 'g> {
    /// A fresh host unknown of type `ty` named `name`.
    fn unknown(&mut self, name: &str, ty: Ty) -> Expr {
        self.unknowns.push(name.to_string());
        Expr::Var {
            id: VarId(self.unknowns.len() - 1),
            ty,
        }
    }

    /// The scalar type of a type spelling, integers and `bool` only.
    fn int_ty(&self, ty: &str) -> Option<Ty> {
        match self.g.types.parse(bare(ty)).scalar()? {
            t @ (Ty::Int { .. } | Ty::Bool) => Some(t),
            _ => None,
        }
    }

    /// Interprets the host function `f` with the parameters `args` (missing ones unknown),
    /// returning what its top-level `return` gives.
    fn function(&mut self, f: &'a Node, args: Vec<Option<Val>>) -> Option<Val> {
        let body = body_of(f)?;
        if self.stack.len() >= MAX_DEPTH || self.stack.iter().any(|(id, _)| *id == f.id) {
            return None;
        }
        let mut env = Env::default();
        let params = f.inner.iter().filter(|c| c.kind == "ParmVarDecl");
        let mut args = args.into_iter();
        for p in params {
            let given = args.next().flatten();
            let name = p.name.clone().unwrap_or_default();
            // By value, or by `const` reference (which the callee cannot change).
            let pty = p.type_str().trim();
            let by_value = !pty.contains('&') || (pty.starts_with("const ") && !pty.contains('*'));
            let val = match given {
                Some(v) if by_value => Some(v),
                _ => self.fresh(&name, pty.trim_end_matches('&').trim()),
            };
            if let Some(v) = val {
                env.vals.insert(p.id.clone(), v);
            }
        }
        // `goto` can jump back: whatever the function assigns is unknown throughout.
        if has_kind(body, "GotoStmt") {
            let mut ids = HashSet::new();
            assigned(body, &mut ids);
            self.kill(&mut env, &ids);
            env.in_loop = true;
        }
        self.entered.insert(f.id.clone());
        self.stack.push((f.id.clone(), f.name.clone().unwrap_or_default()));
        let out = match self.stmt(body, &mut env) {
            Flow::Return(v) => v,
            Flow::Next => None,
        };
        self.stack.pop();
        out
    }

    /// A fresh unknown value for a variable of type `ty` (a `dim3`'s three), `None` for a type
    /// not followed.
    fn fresh(&mut self, name: &str, ty: &str) -> Option<Val> {
        if is_dim3(ty) {
            return Some(Val::Dim3([
                self.unknown(&format!("{name}.x"), Ty::U32),
                self.unknown(&format!("{name}.y"), Ty::U32),
                self.unknown(&format!("{name}.z"), Ty::U32),
            ]));
        }
        let t = self.int_ty(ty)?;
        Some(Val::Int(self.unknown(name, t)))
    }

    /// Makes the variables `ids` unknown in `env`; `id.x` names one component of a `dim3`.
    fn kill(&mut self, env: &mut Env, ids: &HashSet<String>) {
        let mut ids: Vec<&String> = ids.iter().collect();
        ids.sort();
        for id in ids {
            if let Some((base, c)) = id.rsplit_once('.').and_then(|(b, c)| Some((b, component(c)?)))
                && let Some(Val::Dim3(_)) = env.vals.get(base)
            {
                let fresh = self.unknown("?", Ty::U32);
                if let Some(Val::Dim3(d)) = env.vals.get_mut(base) {
                    d[c] = fresh;
                }
                continue;
            }
            if let Some(v) = env.vals.get(id) {
                let v = match v {
                    Val::Int(e) => Val::Int(self.unknown("?", e.ty())),
                    Val::Dim3(_) => Val::Dim3([
                        self.unknown("?", Ty::U32),
                        self.unknown("?", Ty::U32),
                        self.unknown("?", Ty::U32),
                    ]),
                };
                env.vals.insert(id.clone(), v);
            }
        }
    }

    fn stmt(&mut self, s: &'a Node, env: &mut Env) -> Flow {
        self.steps += 1;
        match s.kind.as_str() {
            "CompoundStmt" => {
                for c in &s.inner {
                    if let Flow::Return(v) = self.stmt(c, env) {
                        return Flow::Return(v);
                    }
                }
                Flow::Next
            }
            "DeclStmt" => {
                for d in &s.inner {
                    self.decl(d, env);
                }
                Flow::Next
            }
            "ReturnStmt" => {
                let v = s.inner.first().map(|e| {
                    self.scan(e, env);
                    self.eval(e, env)
                });
                Flow::Return(v.flatten())
            }
            "IfStmt" => {
                let mut i = 0;
                if s.has_init {
                    self.stmt(&s.inner[i], env);
                    i += 1;
                }
                if s.has_var {
                    self.stmt(&s.inner[i], env);
                    i += 1;
                }
                let Some(cond) = s.inner.get(i) else { return Flow::Next };
                self.scan(cond, env);
                let known = match self.eval(cond, env) {
                    Some(Val::Int(Expr::Const { value, .. })) => Some(value != BigInt::from(0)),
                    _ => None,
                };
                let then = s.inner.get(i + 1);
                let els = s.inner.get(i + 2).filter(|_| s.has_else);
                match known {
                    Some(true) => then.map_or(Flow::Next, |t| self.stmt(t, env)),
                    Some(false) => els.map_or(Flow::Next, |e| self.stmt(e, env)),
                    None => {
                        let mut a = env.clone();
                        let mut b = env.clone();
                        // A branch that returns leaves the other's values after the `if`.
                        let ra = then.map(|t| matches!(self.stmt(t, &mut a), Flow::Return(_)));
                        let rb = els.map(|e| matches!(self.stmt(e, &mut b), Flow::Return(_)));
                        match (ra.unwrap_or(false), rb.unwrap_or(false)) {
                            (true, false) => *env = b,
                            (false, true) => *env = a,
                            _ => self.join(env, &a, &b),
                        }
                        Flow::Next
                    }
                }
            }
            "ForStmt" | "WhileStmt" | "DoStmt" | "CXXForRangeStmt" | "SwitchStmt" => {
                // A for's init runs once, before.
                let mut parts: Vec<&Node> = s.inner.iter().collect();
                if s.kind == "ForStmt"
                    && let Some(init) = parts.first().copied()
                {
                    if !init.is_empty() {
                        self.stmt(init, env);
                    }
                    parts.remove(0);
                }
                // What the loop changes, directly or through other names (in an earlier
                // iteration), is unknown inside it and after it.
                let mut ids = HashSet::new();
                for p in &parts {
                    assigned(p, &mut ids);
                }
                self.kill(env, &ids);
                self.clobber(env);
                let outer = env.in_loop;
                env.in_loop = s.kind != "SwitchStmt" || outer;
                for p in parts {
                    if p.is_empty() {
                        continue;
                    }
                    if p.kind.ends_with("Stmt") || p.kind == "DeclStmt" {
                        let mut inner = env.clone();
                        self.stmt(p, &mut inner);
                        // Escapes stay escaped.
                        env.escaped.extend(inner.escaped);
                    } else {
                        self.scan(p, env);
                    }
                }
                env.in_loop = outer;
                self.kill(env, &ids);
                self.clobber(env);
                Flow::Next
            }
            "CaseStmt" | "DefaultStmt" | "LabelStmt" | "AttributedStmt" => {
                if let Some(last) = s.inner.last() {
                    self.stmt(last, env);
                }
                Flow::Next
            }
            "CXXTryStmt" => {
                for c in &s.inner {
                    let mut inner = env.clone();
                    self.stmt(c, &mut inner);
                    env.escaped.extend(inner.escaped);
                }
                let mut ids = HashSet::new();
                assigned(s, &mut ids);
                self.kill(env, &ids);
                Flow::Next
            }
            "CXXCatchStmt" => {
                if let Some(b) = s.inner.iter().find(|c| c.kind == "CompoundStmt") {
                    self.stmt(b, env);
                }
                Flow::Next
            }
            _ if s.kind.ends_with("Stmt") => Flow::Next,
            _ => {
                self.expr_stmt(s, env);
                Flow::Next
            }
        }
    }

    /// After an `if` whose branches gave `a` and `b`: a variable whose values differ is
    /// unknown.
    fn join(&mut self, env: &mut Env, a: &Env, b: &Env) {
        let mut ids: HashSet<String> = HashSet::new();
        for (id, v) in &a.vals {
            match (v, b.vals.get(id)) {
                // A `dim3` keeps the components both branches agree on.
                (Val::Dim3(x), Some(Val::Dim3(y))) => {
                    for c in (0..3).filter(|&c| x[c] != y[c]) {
                        ids.insert(format!("{id}.{}", ["x", "y", "z"][c]));
                    }
                }
                (v, w) if w != Some(v) => {
                    ids.insert(id.clone());
                }
                _ => {}
            }
        }
        for id in b.vals.keys() {
            if !a.vals.contains_key(id) {
                ids.insert(id.clone());
            }
        }
        let mut merged = a.clone();
        merged.escaped.extend(b.escaped.iter().cloned());
        merged.arg_arrays.extend(b.arg_arrays.clone());
        self.kill(&mut merged, &ids);
        merged.in_loop = env.in_loop;
        *env = merged;
    }

    /// A declaration statement's variable.
    fn decl(&mut self, d: &'a Node, env: &mut Env) {
        if d.kind != "VarDecl" {
            return;
        }
        let name = d.name.clone().unwrap_or_default();
        let ty = d.type_str();
        let init = d.inner.iter().find(|c| !c.kind.ends_with("Attr"));
        // `void *args[] = {&a, &n}` for `cudaLaunchKernel`: the addresses are the launch's
        // arguments, read at the launch (not an escape).
        let arg_array = ty.starts_with("void *") && ty.ends_with(']');
        if let Some(i) = init.filter(|_| !arg_array) {
            self.scan(i, env);
        }
        // A reference (`int &r = n;`) changes a variable through another name: the variables
        // its initializer names escape. (A pointer's `&n` escapes `n` in `scan`.)
        if ty.contains('&') {
            let mut ids = HashSet::new();
            if let Some(i) = init {
                named(i, &mut ids);
            }
            self.escape(env, ids);
            return;
        }
        if arg_array {
            if let Some(list) = init.map(strip).filter(|i| i.kind == "InitListExpr") {
                let slots = list.inner.iter().map(|e| address_of(e).map(str::to_string)).collect();
                env.arg_arrays.insert(d.id.clone(), slots);
            }
            return;
        }
        let val = match init {
            Some(i) => self.eval(i, env).or_else(|| self.fresh(&name, ty)),
            None if is_dim3(ty) => Some(Val::Dim3([one(), one(), one()])),
            None => self.fresh(&name, ty),
        };
        let val = match (val, self.int_ty(ty)) {
            (Some(Val::Int(e)), Some(t)) => Some(Val::Int(cast(e, t))),
            (v, _) => v,
        };
        if let Some(v) = val {
            env.vals.insert(d.id.clone(), v);
        }
    }

    /// An expression statement: a simple assignment updates its variable; anything else is
    /// scanned for launches, calls and the variables it changes.
    fn expr_stmt(&mut self, e: &'a Node, env: &mut Env) {
        let e = strip(e);
        match (e.kind.as_str(), e.opcode.as_deref()) {
            ("BinaryOperator", Some("=")) | ("CompoundAssignOperator", _) => {
                let (lhs, rhs) = (&e.inner[0], &e.inner[1]);
                self.scan(rhs, env);
                let target = strip_parens(lhs);
                let Some(value) = self.assigned_value(e, env) else {
                    self.scan(lhs, env);
                    let mut ids = HashSet::new();
                    target_of(lhs, &mut ids);
                    self.write(env, &ids);
                    return;
                };
                match target.kind.as_str() {
                    "DeclRefExpr" => {
                        let id = target
                            .referenced_decl
                            .as_ref()
                            .map(|d| d.id.clone())
                            .unwrap_or_default();
                        if let Some(slot) = env.vals.get_mut(&id) {
                            *slot = Val::Int(value);
                        } else {
                            // A global, or a variable through a reference.
                            self.clobber(env);
                        }
                    }
                    "MemberExpr" => {
                        let base = strip(&target.inner[0]);
                        let c = component(target.name.as_deref().unwrap_or(""));
                        if let (Some(c), Some(id)) = (c, base.referenced_decl.as_ref().map(|d| d.id.clone()))
                            && let Some(Val::Dim3(d)) = env.vals.get_mut(&id)
                        {
                            d[c] = cast(value, Ty::U32);
                        } else {
                            self.scan(lhs, env);
                            self.clobber(env);
                        }
                    }
                    _ => {
                        self.scan(lhs, env);
                        self.clobber(env);
                    }
                }
            }
            ("UnaryOperator", Some(op @ ("++" | "--"))) => {
                let target = strip_parens(&e.inner[0]);
                let id = target
                    .referenced_decl
                    .as_ref()
                    .map(|d| d.id.clone())
                    .unwrap_or_default();
                match env.vals.get(&id) {
                    Some(Val::Int(v)) if target.kind == "DeclRefExpr" => {
                        let ty = v.ty();
                        let op = if op == "++" { BinOp::Add } else { BinOp::Sub };
                        let next = fold(Expr::Binary {
                            op,
                            lhs: Box::new(v.clone()),
                            rhs: Box::new(Expr::int(1, ty)),
                            ty,
                        });
                        env.vals.insert(id, Val::Int(next));
                    }
                    _ => self.scan(e, env),
                }
            }
            _ => self.scan(e, env),
        }
    }

    /// The new value of an assignment's variable: `rhs` for `=`, `lhs op rhs` for a compound
    /// assignment (in its computation type, converted back).
    fn assigned_value(&mut self, e: &'a Node, env: &Env) -> Option<Expr> {
        let ty = self.int_ty(e.inner[0].type_str())?;
        let rhs = match self.eval(&e.inner[1], env)? {
            Val::Int(v) => v,
            Val::Dim3(_) => return None,
        };
        if e.kind == "BinaryOperator" {
            return Some(cast(rhs, ty));
        }
        let op = BinOp::from_spelling(e.opcode.as_deref()?.trim_end_matches('='))?;
        let Val::Int(old) = self.eval(&e.inner[0], env)? else {
            return None;
        };
        let compute = e
            .compute_result_type
            .as_ref()
            .and_then(|t| self.int_ty(t.best()))
            .unwrap_or(ty);
        let lhs_ty = e
            .compute_lhs_type
            .as_ref()
            .and_then(|t| self.int_ty(t.best()))
            .unwrap_or(compute);
        Some(cast(
            fold(Expr::Binary {
                op,
                lhs: Box::new(cast(old, lhs_ty)),
                rhs: Box::new(cast(
                    rhs,
                    if is_shift(op) {
                        rhs_ty_of(&e.inner[1], self)
                    } else {
                        lhs_ty
                    },
                )),
                ty: compute,
            }),
            ty,
        ))
    }

    /// Walks expression `e` in order: records its launches, inlines the file's host functions
    /// it calls, and makes unknown the variables it changes.
    fn scan(&mut self, e: &'a Node, env: &mut Env) {
        match e.kind.as_str() {
            "CUDAKernelCallExpr" => {
                // The configuration (clang's call of `cudaConfigureCall`) is not a call of the
                // program's: only its arguments are.
                let config = e.inner.get(1).map(|c| c.inner.iter().skip(1)).into_iter().flatten();
                for c in config.chain(e.inner.iter().skip(2)) {
                    self.scan(c, env);
                }
                self.triple_launch(e, env);
                return;
            }
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => {
                for c in e.inner.iter().skip(1) {
                    self.scan(c, env);
                }
                if launch_api(e).is_some() {
                    self.api_launch(e, env);
                } else if let Some(v) = self.call(e, env) {
                    let _ = v;
                }
                // Arguments passed by reference may change, and so may whatever other names
                // reach.
                let mut ids = HashSet::new();
                for a in e.inner.iter().skip(1) {
                    let a = strip_parens(a);
                    if a.kind == "DeclRefExpr" && a.is_glvalue() {
                        ids.extend(a.referenced_decl.as_ref().map(|d| d.id.clone()));
                    }
                }
                self.escape(env, ids);
                self.clobber(env);
                return;
            }
            "UnaryOperator" if e.opcode.as_deref() == Some("&") => {
                if let Some(id) = address_of(e) {
                    self.escape(env, HashSet::from([id.to_string()]));
                    return;
                }
            }
            // A lambda may change what it captures whenever it is called.
            "LambdaExpr" => {
                let mut ids = HashSet::new();
                named(e, &mut ids);
                self.escape(env, ids);
                return;
            }
            _ => {}
        }
        for c in &e.inner {
            self.scan(c, env);
        }
        // A nested assignment or increment: its variable becomes unknown.
        if matches!(
            e.kind.as_str(),
            "BinaryOperator" | "CompoundAssignOperator" | "UnaryOperator"
        ) {
            let is_write = matches!(
                (e.kind.as_str(), e.opcode.as_deref()),
                ("BinaryOperator", Some("=")) | ("CompoundAssignOperator", _) | ("UnaryOperator", Some("++" | "--"))
            );
            if is_write {
                let mut ids = HashSet::new();
                target_of(&e.inner[0], &mut ids);
                self.write(env, &ids);
            }
        }
    }

    /// A write of an unknown value to the variables `ids` (the variable an assignment's target
    /// names): those of `env` become unknown; a write to anything else (a global, through a
    /// pointer, a reference or a field) may change what other names reach.
    fn write(&mut self, env: &mut Env, ids: &HashSet<String>) {
        let local = |id: &String| {
            env.vals.contains_key(id) || id.rsplit_once('.').is_some_and(|(b, _)| env.vals.contains_key(b))
        };
        if !ids.is_empty() && ids.iter().all(local) {
            self.kill(env, ids);
        } else {
            self.clobber(env);
        }
    }

    /// Variables other names reach from now on ([`Env::escaped`]); their values stay until the
    /// next [`Host::clobber`].
    fn escape(&mut self, env: &mut Env, ids: HashSet<String>) {
        env.escaped.extend(ids);
    }

    /// A call, or a write through a pointer or reference: every escaped variable and every
    /// global may have changed.
    fn clobber(&mut self, env: &mut Env) {
        self.generation += 1;
        let escaped = env.escaped.clone();
        self.kill(env, &escaped);
    }

    /// A call of one of the file's host functions, interpreted with its arguments' values;
    /// its return value when it gives one.
    fn call(&mut self, e: &'a Node, env: &mut Env) -> Option<Val> {
        if self.steps > MAX_STEPS {
            return None;
        }
        let callee = strip(e.inner.first()?);
        let id = match callee.kind.as_str() {
            "DeclRefExpr" => callee.referenced_decl.as_ref()?.id.clone(),
            "MemberExpr" => callee.referenced_member_decl.clone()?,
            _ => return None,
        };
        let f = *self.g.funcs_by_id.get(&id)?;
        if f.has_attr("CUDAGlobalAttr") || (f.has_attr("CUDADeviceAttr") && !f.has_attr("CUDAHostAttr")) {
            return None;
        }
        let args: Vec<Option<Val>> = e.inner.iter().skip(1).map(|a| self.eval(a, env)).collect();
        let saved = env.in_loop;
        let depth_loop = env.in_loop;
        self.call_lines.push(e.begin.as_ref().map_or(0, |p| p.line));
        let out = self.with_loop(depth_loop, |h| h.function(f, args));
        self.call_lines.pop();
        env.in_loop = saved;
        out
    }

    /// Runs `f` with launches inside marked as in a loop when `in_loop`.
    fn with_loop<T>(&mut self, in_loop: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        let before = self.found.len();
        let out = f(self);
        if in_loop {
            for l in &mut self.found[before..] {
                l.launch.in_loop = true;
            }
        }
        out
    }

    /// The value of expression `e`, `None` when it is not an integer or `dim3` (or cannot be
    /// followed: then an integer is a fresh unknown).
    fn eval(&mut self, e: &'a Node, env: &Env) -> Option<Val> {
        let ty = e.type_str();
        if is_dim3(ty) {
            return self.eval_dim3(e, env);
        }
        let t = self.int_ty(ty);
        let v = self.eval_int(e, env, t);
        match (v, t) {
            (Some(v), Some(t)) => Some(Val::Int(cast(v, t))),
            (Some(v), None) => Some(Val::Int(v)),
            (None, Some(t)) => Some(Val::Int(self.unknown("?", t))),
            (None, None) => None,
        }
    }

    fn eval_int(&mut self, e: &'a Node, env: &Env, ty: Option<Ty>) -> Option<Expr> {
        let ty = ty?;
        if let Some(v) = const_value(e) {
            return Some(Expr::int(wrap_ty(v, ty), ty));
        }
        let int = |h: &mut Self, n: &'a Node| match h.eval(n, env) {
            Some(Val::Int(v)) => Some(v),
            _ => None,
        };
        match e.kind.as_str() {
            "ParenExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "ConstantExpr"
            | "SubstNonTypeTemplateParmExpr"
            | "CXXBindTemporaryExpr" => int(self, e.inner.last()?),
            "ImplicitCastExpr" | "CStyleCastExpr" | "CXXStaticCastExpr" | "CXXFunctionalCastExpr" => {
                let inner = e.inner.first()?;
                if matches!(e.cast_kind.as_deref(), Some("FloatingToIntegral" | "PointerToIntegral")) {
                    return None;
                }
                let v = int(self, inner)?;
                Some(cast(v, ty))
            }
            "DeclRefExpr" => {
                let d = e.referenced_decl.as_ref()?;
                if let Some(v) = self.g.enum_consts.get(&d.id) {
                    return Some(Expr::int(wrap_ty(v.clone(), ty), ty));
                }
                match env.vals.get(&d.id) {
                    Some(Val::Int(v)) => Some(v.clone()),
                    Some(Val::Dim3(_)) => None,
                    None => self.global(&d.id, ty),
                }
            }
            "MemberExpr" => {
                let c = component(e.name.as_deref()?)?;
                match self.eval(e.inner.first()?, env)? {
                    Val::Dim3(d) => Some(d[c].clone()),
                    Val::Int(_) => None,
                }
            }
            "UnaryExprOrTypeTraitExpr" if e.name.as_deref() == Some("sizeof") => {
                let t = match &e.arg_type {
                    Some(t) => t.best().to_string(),
                    None => e.inner.first()?.type_str().to_string(),
                };
                let (size, _) = self.g.types.layout(&self.g.types.parse(&t))?;
                Some(Expr::int(size, ty))
            }
            "UnaryOperator" => {
                let op = match e.opcode.as_deref()? {
                    "-" => UnOp::Neg,
                    "~" => UnOp::BitNot,
                    "!" => UnOp::Not,
                    "+" => return int(self, e.inner.first()?),
                    _ => return None,
                };
                let arg = int(self, e.inner.first()?)?;
                Some(fold(Expr::Unary {
                    op,
                    arg: Box::new(arg),
                    ty,
                }))
            }
            "BinaryOperator" => {
                let opcode = e.opcode.as_deref()?;
                if opcode == "," {
                    return int(self, e.inner.get(1)?);
                }
                let op = BinOp::from_spelling(opcode)?;
                let lhs = int(self, e.inner.first()?)?;
                let rhs = int(self, e.inner.get(1)?)?;
                let (lhs, rhs) = if matches!(op, BinOp::LAnd | BinOp::LOr) {
                    (cast(lhs, Ty::Bool), cast(rhs, Ty::Bool))
                } else {
                    (lhs, rhs)
                };
                let ty = if op.is_comparison() || matches!(op, BinOp::LAnd | BinOp::LOr) {
                    Ty::Bool
                } else {
                    ty
                };
                // Integer promotion happened in clang's casts; operands of a comparison share
                // a type, and so do those of arithmetic (shifts excepted).
                if !is_shift(op) && lhs.ty() != rhs.ty() {
                    return None;
                }
                Some(fold(Expr::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                    ty,
                }))
            }
            "ConditionalOperator" => {
                let c = int(self, e.inner.first()?)?;
                let a = int(self, e.inner.get(1)?)?;
                let b = int(self, e.inner.get(2)?)?;
                if let Expr::Const { value, .. } = &c {
                    return Some(if *value != BigInt::from(0) { a } else { b });
                }
                if a.ty() != b.ty() {
                    return None;
                }
                Some(Expr::Select {
                    cond: Box::new(cast(c, Ty::Bool)),
                    then: Box::new(a),
                    els: Box::new(b),
                    ty,
                })
            }
            "CallExpr" => {
                let name = callee_name(e.inner.first()?).unwrap_or("");
                if matches!(name, "min" | "max" | "umin" | "umax") && e.inner.len() == 3 {
                    let a = int(self, &e.inner[1])?;
                    let b = int(self, &e.inner[2])?;
                    if a.ty() != b.ty() {
                        return None;
                    }
                    let op = if name.ends_with("min") { BinOp::Lt } else { BinOp::Gt };
                    return Some(fold(Expr::Select {
                        cond: Box::new(Expr::Binary {
                            op,
                            lhs: Box::new(a.clone()),
                            rhs: Box::new(b.clone()),
                            ty: Ty::Bool,
                        }),
                        then: Box::new(a),
                        els: Box::new(b),
                        ty,
                    }));
                }
                // A host function of the file: its return value for these arguments. (Its
                // launches were recorded by `scan`, which runs first.)
                let mut scratch = env.clone();
                let before = self.found.len();
                let v = self.call(e, &mut scratch);
                self.found.truncate(before);
                match v? {
                    Val::Int(v) => Some(v),
                    Val::Dim3(_) => None,
                }
            }
            _ => None,
        }
    }

    /// A variable not local to the function: a `const` (or `constexpr`) one's value, from its
    /// initializer; another's unknown, the same until the next write other names may make
    /// ([`Host::clobber`]).
    fn global(&mut self, id: &str, ty: Ty) -> Option<Expr> {
        let v = *self.g.vars.get(id)?;
        let constant = v.constexpr || v.type_str().trim_start().starts_with("const ");
        if !constant {
            if let Some((generation, e)) = self.globals.get(id)
                && *generation == self.generation
                && e.ty() == ty
            {
                return Some(e.clone());
            }
            let e = self.unknown(v.name.as_deref().unwrap_or("?"), ty);
            self.globals.insert(id.to_string(), (self.generation, e.clone()));
            return Some(e);
        }
        let init = v.inner.iter().find(|c| !c.kind.ends_with("Attr"))?;
        if let Some(c) = const_value(init) {
            return Some(Expr::int(wrap_ty(c, ty), ty));
        }
        match self.eval(init, &Env::default())? {
            Val::Int(e @ Expr::Const { .. }) => Some(cast(e, ty)),
            _ => None,
        }
    }

    /// A `dim3` expression's three values.
    fn eval_dim3(&mut self, e: &'a Node, env: &Env) -> Option<Val> {
        let n = strip(e);
        match n.kind.as_str() {
            "CXXConstructExpr" | "CXXTemporaryObjectExpr" => {
                let args: Vec<&Node> = n.inner.iter().collect();
                // A copy, or a conversion from `uint3`.
                if args.len() == 1 && is_dim3(args[0].type_str()) {
                    return self.eval_dim3(args[0], env);
                }
                let mut d = [one(), one(), one()];
                for (i, a) in args.iter().enumerate().take(3) {
                    if a.kind == "CXXDefaultArgExpr" {
                        continue;
                    }
                    d[i] = match self.eval(a, env) {
                        Some(Val::Int(v)) => cast(v, Ty::U32),
                        _ => self.unknown("?", Ty::U32),
                    };
                }
                Some(Val::Dim3(d))
            }
            "CXXFunctionalCastExpr" | "CStyleCastExpr" | "ImplicitCastExpr" => self.eval_dim3(n.inner.first()?, env),
            "DeclRefExpr" => {
                let id = &n.referenced_decl.as_ref()?.id;
                env.vals.get(id).cloned()
            }
            _ => None,
        }
    }

    /// A launch `k<<<grid, block, …>>>(args)`.
    fn triple_launch(&mut self, e: &'a Node, env: &mut Env) {
        let Some(decl) = e.inner.first().map(strip) else { return };
        let Some(config) = e.inner.get(1) else { return };
        let grid = config.inner.get(1);
        let block = config.inner.get(2);
        let args: Vec<&'a Node> = e.inner.iter().skip(2).collect();
        let vals: Vec<Option<Val>> = args.iter().map(|a| self.eval(a, env)).collect();
        self.record(e, decl, grid, block, vals, env);
    }

    /// A launch `cudaLaunchKernel(k, grid, block, args, …)`: the arguments are the values of
    /// the variables `args` points to.
    fn api_launch(&mut self, e: &'a Node, env: &mut Env) {
        let Some(func) = e.inner.get(1) else { return };
        let Some(decl) = function_ref(func) else { return };
        let grid = e.inner.get(2);
        let block = e.inner.get(3);
        let slots = e
            .inner
            .get(4)
            .map(strip)
            .and_then(|a| a.referenced_decl.as_ref())
            .and_then(|d| env.arg_arrays.get(&d.id).cloned())
            .unwrap_or_default();
        let vals: Vec<Option<Val>> = slots
            .iter()
            .map(|s| {
                let id = s.as_ref()?;
                env.vals.get(id).cloned()
            })
            .collect();
        self.record(e, decl, grid, block, vals, env);
    }

    /// Records the launch `e` of the kernel `decl` names.
    fn record(
        &mut self,
        e: &'a Node,
        decl: &Node,
        grid: Option<&'a Node>,
        block: Option<&'a Node>,
        args: Vec<Option<Val>>,
        env: &mut Env,
    ) {
        let Some((index, kdecl, kernel)) = self.kernel_of(decl) else {
            return;
        };
        let dims = |h: &mut Self, n: Option<&'a Node>| -> [Expr; 3] {
            match n.and_then(|n| h.eval(n, env)) {
                Some(Val::Dim3(d)) => d,
                Some(Val::Int(v)) => [cast(v, Ty::U32), one(), one()],
                None => [
                    h.unknown("?", Ty::U32),
                    h.unknown("?", Ty::U32),
                    h.unknown("?", Ty::U32),
                ],
            }
        };
        let grid = dims(self, grid);
        let block = dims(self, block);
        // The kernel's scalar parameters by position: (name, variable, type).
        let names: Vec<String> = kdecl
            .inner
            .iter()
            .filter(|c| c.kind == "ParmVarDecl")
            .map(|p| p.name.clone().unwrap_or_default())
            .collect();
        let scalar = |name: &str| {
            kernel.params.iter().find_map(|p| match p.kind {
                ParamKind::Scalar(v) if p.name == name && !name.is_empty() => Some((v, kernel.var(v).ty)),
                _ => None,
            })
        };
        // Host unknowns passed unchanged to a parameter are that parameter.
        let mut map: HashMap<VarId, Expr> = HashMap::new();
        let mut pending: Vec<(String, Expr, Expr)> = Vec::new();
        let mut described = Vec::new();
        let mut assumptions = Vec::new();
        // Whether every scalar argument is known (then a host loop around the launch changes
        // nothing worth saying).
        let mut all_known = true;
        for (name, arg) in names.iter().zip(&args) {
            let Some((var, pty)) = scalar(name) else { continue };
            let Some(Val::Int(v)) = arg else {
                all_known = false;
                continue;
            };
            let param = Expr::Var { id: var, ty: pty };
            let v = fold(cast(v.clone(), pty));
            if let Expr::Const { value, .. } = &v {
                described.push(format!("{name} = {value}"));
                assumptions.push(eq(param, v));
                continue;
            }
            all_known = false;
            match passed_unknown(&v) {
                Some((u, uty)) if !map.contains_key(&u) => {
                    map.insert(u, cast(param, uty));
                }
                _ => pending.push((name.clone(), param, v)),
            }
        }
        let mut block_dim = [None; 3];
        let mut grid_dim = [None; 3];
        let mut geometry = Vec::new();
        for (is_block, d) in [(false, &grid), (true, &block)] {
            for (i, v) in d.iter().enumerate() {
                let dim = Dim::ALL[i];
                let b = if is_block {
                    Builtin::BlockDim(dim)
                } else {
                    Builtin::GridDim(dim)
                };
                let label = format!(
                    "{}.{}",
                    if is_block { "blockDim" } else { "gridDim" },
                    ["x", "y", "z"][i]
                );
                match fold(v.clone()) {
                    Expr::Const { value, .. } => {
                        if let Ok(n) = u32::try_from(&value)
                            && n >= 1
                        {
                            if is_block {
                                block_dim[i] = Some(n);
                            } else {
                                grid_dim[i] = Some(n);
                            }
                        }
                    }
                    v => pending.push((label, Expr::Builtin(b), v)),
                }
            }
        }
        for (is_block, d) in [(true, block_dim), (false, grid_dim)] {
            if d.iter().all(Option::is_some) {
                let v: Vec<String> = d.iter().map(|v| v.unwrap_or(1).to_string()).collect();
                geometry.push(format!(
                    "{} = ({})",
                    if is_block { "blockDim" } else { "gridDim" },
                    v.join(", ")
                ));
            } else {
                for (i, v) in d.iter().enumerate() {
                    if let Some(v) = v {
                        let kind = if is_block { "blockDim" } else { "gridDim" };
                        geometry.push(format!("{kind}.{} = {v}", ["x", "y", "z"][i]));
                    }
                }
            }
        }
        let names_of = |id: VarId| -> String {
            kernel
                .params
                .iter()
                .find(|p| matches!(p.kind, ParamKind::Scalar(v) if v == id))
                .map(|p| p.name.clone())
                .unwrap_or_else(|| "?".into())
        };
        for (label, lhs, v) in pending {
            let Some(rhs) = substitute(&v, &map) else { continue };
            described.push(format!("{label} = {}", c_text(&rhs, &names_of)));
            assumptions.push(eq(lhs, rhs));
        }
        geometry.extend(described);
        // `main (line 24)` for a function that calls the next one at line 24.
        let callers: Vec<String> = self
            .stack
            .iter()
            .enumerate()
            .map(|(i, (_, n))| match self.call_lines.get(i) {
                Some(line) if i + 1 < self.stack.len() => format!("{n} (line {line})"),
                _ => n.clone(),
            })
            .collect();
        let site = super::span_of(e, &crate::ir::Span::point(kernel.span.file.clone(), 0, 0));
        let config = self.config_text(e);
        self.found.push(Found {
            launch: HostLaunch {
                kernel: index,
                site,
                callers,
                config,
                block_dim,
                grid_dim,
                assumptions,
                described: geometry,
                same: Vec::new(),
                in_loop: env.in_loop && !(all_known && block_dim.iter().chain(&grid_dim).all(Option::is_some)),
            },
        });
    }

    /// The kernel a launch's callee names: by its declaration, else by its name when one
    /// kernel has it. Its index, declaration and lowered form.
    fn kernel_of(&self, callee: &Node) -> Option<(usize, &'a Node, &'g Kernel)> {
        let d = callee.referenced_decl.as_ref()?;
        if let Some(i) = self.kernels.iter().position(|(n, _)| n.id == d.id) {
            return Some((i, self.kernels[i].0, self.kernels[i].1));
        }
        let same: Vec<usize> = (0..self.kernels.len())
            .filter(|&i| self.kernels[i].0.name.as_deref() == Some(d.name.as_str()))
            .collect();
        match same[..] {
            [i] if !self.kernels[i].0.inner.iter().any(|c| c.kind == "TemplateArgument") => {
                Some((i, self.kernels[i].0, self.kernels[i].1))
            }
            _ => None,
        }
    }

    /// The launch's configuration as written: `<<<…>>>` from the source, or the call.
    fn config_text(&mut self, e: &Node) -> String {
        let Some(b) = &e.begin else { return String::new() };
        let lines = self
            .sources
            .entry(b.file.to_string())
            .or_insert_with(|| {
                std::fs::read_to_string(&*b.file)
                    .ok()
                    .map(|t| t.lines().map(str::to_string).collect())
            })
            .clone();
        let Some(lines) = lines else { return String::new() };
        let start = (b.line as usize).saturating_sub(1);
        let text: String = lines
            .iter()
            .skip(start)
            .take(8)
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    l.get((b.col as usize).saturating_sub(1)..).unwrap_or("").to_string()
                } else {
                    l.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if e.kind == "CUDAKernelCallExpr"
            && let Some(i) = text.find("<<<")
            && let Some(j) = text[i..].find(">>>")
        {
            return text[i..i + j + 3].to_string();
        }
        // `cudaLaunchKernel(…)` up to its closing parenthesis.
        let mut depth = 0;
        for (i, c) in text.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return text[..=i].to_string();
                    }
                }
                _ => {}
            }
        }
        text
    }
}

/// The shift operators' right operand type, as the node gives it.
fn rhs_ty_of(n: &Node, h: &Host) -> Ty {
    h.int_ty(n.type_str()).unwrap_or(Ty::I32)
}

fn is_shift(op: BinOp) -> bool {
    matches!(op, BinOp::Shl | BinOp::Shr)
}

/// The variable `&x` takes the address of.
fn address_of(e: &Node) -> Option<&str> {
    let e = strip(e);
    if e.kind != "UnaryOperator" || e.opcode.as_deref() != Some("&") {
        return None;
    }
    let t = strip(e.inner.first()?);
    (t.kind == "DeclRefExpr").then(|| t.referenced_decl.as_ref().map(|d| d.id.as_str()))?
}

/// The function a `(void *)k` expression names.
fn function_ref(e: &Node) -> Option<&Node> {
    let mut n = strip(e);
    loop {
        match n.kind.as_str() {
            "DeclRefExpr" => return Some(n),
            "CStyleCastExpr"
            | "CXXReinterpretCastExpr"
            | "CXXStaticCastExpr"
            | "UnaryOperator"
            | "ImplicitCastExpr"
            | "ParenExpr" => n = strip(n.inner.first()?),
            _ => return None,
        }
    }
}

/// `.x`, `.y`, `.z` as an index.
fn component(name: &str) -> Option<usize> {
    match name {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    }
}

/// The variables an assignment, increment or escape under `n` may change.
fn assigned(n: &Node, out: &mut HashSet<String>) {
    match (n.kind.as_str(), n.opcode.as_deref()) {
        ("BinaryOperator", Some("=")) | ("CompoundAssignOperator", _) | ("UnaryOperator", Some("++" | "--" | "&")) => {
            if let Some(t) = n.inner.first() {
                target_of(t, out);
            }
        }
        ("CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr", _) => {
            for a in n.inner.iter().skip(1) {
                let a = strip_parens(a);
                if a.kind == "DeclRefExpr" && a.is_glvalue() {
                    out.extend(a.referenced_decl.as_ref().map(|d| d.id.clone()));
                }
            }
        }
        _ => {}
    }
    for c in &n.inner {
        assigned(c, out);
    }
}

/// The variable an assignment's target is part of (`x`; `d.x`, one component of the `dim3`
/// `d`, as `id.x`; the whole of another record).
fn target_of(t: &Node, out: &mut HashSet<String>) {
    let t = strip_parens(t);
    match t.kind.as_str() {
        "DeclRefExpr" => out.extend(t.referenced_decl.as_ref().map(|d| d.id.clone())),
        "MemberExpr"
            if !t.is_arrow
                && let Some(c) = t.name.as_deref().filter(|c| component(c).is_some())
                && let Some(b) = t.inner.first().map(strip_parens)
                && b.kind == "DeclRefExpr"
                && is_dim3(b.type_str()) =>
        {
            out.extend(b.referenced_decl.as_ref().map(|d| format!("{}.{c}", d.id)));
        }
        "MemberExpr" if !t.is_arrow => {
            if let Some(b) = t.inner.first() {
                target_of(b, out);
            }
        }
        _ => {}
    }
}

/// The variables named under `n`.
fn named(n: &Node, out: &mut HashSet<String>) {
    if n.kind == "DeclRefExpr"
        && let Some(d) = &n.referenced_decl
        && matches!(d.kind.as_str(), "VarDecl" | "ParmVarDecl")
    {
        out.insert(d.id.clone());
    }
    for c in &n.inner {
        named(c, out);
    }
}

fn has_kind(n: &Node, kind: &str) -> bool {
    n.kind == kind || n.inner.iter().any(|c| has_kind(c, kind))
}

/// The distinct launches: those with the same kernel, geometry and assumptions are one, the
/// others' sites listed in [`HostLaunch::same`].
fn dedup(found: Vec<Found>) -> Vec<HostLaunch> {
    let mut out: Vec<HostLaunch> = Vec::new();
    for Found { launch } in found {
        match out.iter_mut().find(|l| {
            l.kernel == launch.kernel
                && l.block_dim == launch.block_dim
                && l.grid_dim == launch.grid_dim
                && l.assumptions == launch.assumptions
        }) {
            Some(l) => {
                if l.site != launch.site && !l.same.contains(&launch.site) {
                    l.same.push(launch.site);
                }
                l.in_loop |= launch.in_loop;
            }
            None => out.push(launch),
        }
    }
    out
}
