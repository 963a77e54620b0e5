//! The statement walk of the host code's interpretation: a host function's statements in order
//! (declarations, assignments, `if`, loops, calls inlined with their argument values), what each
//! makes known or unknown, and where values escape (see [`super`]).

use super::facts::loop_condition;
use super::*;

impl<'a, 'g> Host<'a, 'g> {
    /// Interprets the host function `f` with the parameters `args` (missing ones unknown),
    /// returning what its top-level `return` gives.
    pub(super) fn function(&mut self, f: &'a Node, args: Vec<Option<Val>>) -> Option<Val> {
        self.run(f, args, Vec::new())
    }

    /// [`Host::function`], for a lambda's `operator()` with the values it captures
    /// ([`Host::captured`]): variables of another function, which other names may change
    /// ([`Env::escaped`]).
    pub(super) fn run(&mut self, f: &'a Node, args: Vec<Option<Val>>, captured: Vec<(String, Val)>) -> Option<Val> {
        self.last_params.clear();
        let body = body_of(f)?;
        if self.stack.len() >= MAX_DEPTH || self.stack.iter().any(|(id, _)| *id == f.id) {
            self.cut(f);
            return None;
        }
        let mut env = Env::default();
        for (id, v) in captured {
            env.escaped.insert(id.clone());
            env.vals.insert(id, v);
        }
        let params = f.inner.iter().filter(|c| c.kind == "ParmVarDecl");
        let mut args = args.into_iter();
        for p in params {
            let given = args.next().flatten();
            let name = p.name.clone().unwrap_or_default();
            // By value, by `const` reference (which the callee cannot change), or by rvalue
            // reference (a temporary of the argument's value: `Args&&` given `B * T * C`).
            let pty = p.type_str().trim();
            let by_value = unchangeable(pty) || pty.ends_with("&&");
            // A non-`const` reference to an integer starts as the caller's variable
            // ([`out_reference`]); its value at the end is written back.
            let val = match given {
                Some(v) if by_value || out_reference(pty) => Some(v),
                // A lambda, by reference too: calls through the parameter run it.
                Some(v @ Val::Lambda(_)) => Some(v),
                _ => self.fresh(&name, pty.trim_end_matches('&').trim()),
            };
            if let Some(v) = val {
                env.vals.insert(p.id.clone(), v);
            }
        }
        // `goto` can jump back: whatever the function assigns is unknown throughout.
        if has_kind(body, "GotoStmt") {
            let mut ids = HashSet::new();
            self.assigned(body, &mut ids);
            self.kill(&mut env, &ids);
            env.in_loop = true;
        }
        self.entered.insert(f.id.clone());
        self.stack.push((f.id.clone(), f.name.clone().unwrap_or_default()));
        self.bodies.push(body);
        self.early.push(Vec::new());
        let out = match self.stmt(body, &mut env) {
            Flow::Return(v) => v,
            Flow::Next => None,
        };
        // A `return` taken under a condition not known, or in a loop, may give another value.
        let early = self.early.pop().unwrap_or_default();
        let returned_early = !early.is_empty();
        let out = if early.iter().all(|v| *v == out) { out } else { None };
        self.bodies.pop();
        self.stack.pop();
        // The parameters' values at the end, for reference parameters written back; unknown
        // when a `return` may have been taken before the end.
        self.last_params = f
            .inner
            .iter()
            .filter(|c| c.kind == "ParmVarDecl")
            .map(|p| env.vals.get(&p.id).filter(|_| !returned_early).cloned())
            .collect();
        out
    }

    /// A call of `f` not interpreted (too deep, recursive, past [`MAX_STEPS`]): when `f` may
    /// reach a launch, it is run again as a root, with its parameters unknown ([`read`]), so
    /// that the launches under the call are not lost.
    fn cut(&mut self, f: &'a Node) {
        if let Some(body) = body_of(f)
            && self.reaches_launch(body)
        {
            self.cut.push(f);
        }
    }

    /// A `return` that may have been taken (under a condition not known, or in a loop) before
    /// the function's end.
    pub(super) fn note_return(&mut self, flow: &Flow) {
        if let (Flow::Return(v), Some(e)) = (flow, self.early.last_mut()) {
            e.push(v.clone());
        }
    }

    /// A fresh unknown value for a variable of type `ty` (a `dim3`'s three), `None` for a type
    /// not followed.
    pub(super) fn fresh(&mut self, name: &str, ty: &str) -> Option<Val> {
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
    pub(super) fn kill(&mut self, env: &mut Env, ids: &HashSet<String>) {
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
                    Val::Array(_) | Val::Float(..) | Val::Function(_) | Val::Host(_) | Val::Lambda(_) => {
                        env.vals.remove(id);
                        continue;
                    }
                };
                env.vals.insert(id.clone(), v);
            }
        }
    }

    pub(super) fn stmt(&mut self, s: &'a Node, env: &mut Env) -> Flow {
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
            "IfStmt" => self.if_stmt(s, env),
            "SwitchStmt" => match self.switch_stmt(s, env) {
                Some(f) => f,
                None => self.loop_stmt(s, env),
            },
            "ForStmt" | "WhileStmt" | "DoStmt" | "CXXForRangeStmt" => self.loop_stmt(s, env),
            "CaseStmt" | "DefaultStmt" | "LabelStmt" | "AttributedStmt" => {
                if let Some(last) = s.inner.last() {
                    self.stmt(last, env);
                }
                Flow::Next
            }
            "CXXTryStmt" => {
                for c in &s.inner {
                    let mut inner = env.clone();
                    let f = self.stmt(c, &mut inner);
                    self.note_return(&f);
                    env.escaped.extend(inner.escaped);
                }
                let mut ids = HashSet::new();
                self.assigned(s, &mut ids);
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

    /// An `if`: a known condition takes its branch; an unknown one walks both, each knowing its
    /// condition, and joins their values (a branch that returns leaves the other's).
    fn if_stmt(&mut self, s: &'a Node, env: &mut Env) -> Flow {
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
        // The branch a known condition leaves out is not taken here ([`Host::skipped`]).
        match known {
            Some(true) => {
                self.skipped.extend(els.map(|e| e.id.clone()));
                then.map_or(Flow::Next, |t| self.stmt(t, env))
            }
            Some(false) => {
                self.skipped.extend(then.map(|t| t.id.clone()));
                els.map_or(Flow::Next, |e| self.stmt(e, env))
            }
            None => {
                let mut a = env.clone();
                let mut b = env.clone();
                // Each branch knows its condition: as a fact, and as the value of a
                // variable it compares for equality with a constant.
                self.assume(cond, &mut a, true);
                self.assume(cond, &mut b, false);
                // A branch that returns leaves the other's values after the `if`.
                let from = self.generation;
                let ra = then.map(|t| {
                    let f = self.stmt(t, &mut a);
                    self.note_return(&f);
                    matches!(f, Flow::Return(_))
                });
                // The `else` starts from the state before the `if`, whatever the `then` changed.
                let ra_gen = self.generation;
                if ra_gen != from {
                    self.branch_from(from, &mut b);
                }
                let rb = els.map(|e| {
                    let f = self.stmt(e, &mut b);
                    self.note_return(&f);
                    matches!(f, Flow::Return(_))
                });
                let (a_end, b_end) = (ra_gen, self.generation);
                match (ra.unwrap_or(false), rb.unwrap_or(false)) {
                    (true, false) => *env = b,
                    (false, true) => {
                        // The state after the `if` is the `then`'s end.
                        if b_end != a_end {
                            self.branch_from(a_end, &mut a);
                        }
                        *env = a;
                    }
                    _ if a_end == from && b_end == from => self.join(env, &a, &b),
                    _ => {
                        // A state neither branch's generation describes; a lambda valid at
                        // both ends stays valid.
                        self.branch_from(a_end, &mut a);
                        super::lambda::restamp(&mut b, b_end, self.generation);
                        self.join(env, &a, &b);
                    }
                }
                Flow::Next
            }
        }
    }

    /// A loop (or `switch`): a `for` of a known, small trip count is unrolled; otherwise what
    /// it changes is unknown inside and after it, and its body starts where its condition holds
    /// with a counter within its range.
    pub(super) fn loop_stmt(&mut self, s: &'a Node, env: &mut Env) -> Flow {
        // A for's init runs once, before.
        let mut parts: Vec<&Node> = s.inner.iter().collect();
        if s.kind == "ForStmt"
            && let Some(init) = parts.first().copied()
        {
            if !init.is_empty() {
                self.stmt(init, env);
            }
            parts.remove(0);
            // A loop of a known, small trip count: each iteration with its values.
            if let Some(flow) = self.unroll(s, env) {
                return flow;
            }
        }
        // What the loop changes, directly or through other names (in an earlier
        // iteration), is unknown inside it and after it.
        let mut ids = HashSet::new();
        for p in &parts {
            self.assigned(p, &mut ids);
        }
        let counter = self.counter(s, env, &ids);
        self.kill(env, &ids);
        self.clobber(env);
        let outer = env.in_loop;
        env.in_loop = s.kind != "SwitchStmt" || outer;
        // The body starts where the condition holds, and a counter is within its range.
        let body_at = parts.len().saturating_sub(1);
        let mut body_env = env.clone();
        if let Some(cond) = loop_condition(s) {
            self.assume(cond, &mut body_env, true);
        }
        if let Some((id, start, op)) = counter
            && let Some(Val::Int(now)) = body_env.vals.get(&id)
        {
            let fact = Expr::Binary {
                op,
                lhs: Box::new(now.clone()),
                rhs: Box::new(cast(start, now.ty())),
                ty: Ty::Bool,
            };
            body_env.facts.push(fact);
        }
        for (at, p) in parts.into_iter().enumerate() {
            if p.is_empty() {
                continue;
            }
            if at == body_at {
                let mut inner = body_env.clone();
                inner.in_loop = env.in_loop;
                if p.kind.ends_with("Stmt") || p.kind == "DeclStmt" {
                    let f = self.stmt(p, &mut inner);
                    self.note_return(&f);
                } else {
                    self.scan(p, &mut inner);
                }
                env.escaped.extend(inner.escaped);
            } else if p.kind.ends_with("Stmt") || p.kind == "DeclStmt" {
                let mut inner = env.clone();
                let f = self.stmt(p, &mut inner);
                self.note_return(&f);
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

    /// After an `if` whose branches gave `a` and `b`: a variable whose values differ is
    /// unknown.
    pub(super) fn join(&mut self, env: &mut Env, a: &Env, b: &Env) {
        let mut ids: HashSet<String> = HashSet::new();
        // A lambda both branches hold with the same values, each valid in its own branch: kept
        // with a stamp valid in neither, so that where it is used its values are checked
        // against the variables' ([`Host::closure`]).
        let mut lambdas = Vec::new();
        for (id, v) in &a.vals {
            match (v, b.vals.get(id)) {
                // A `dim3` keeps the components both branches agree on.
                (Val::Dim3(x), Some(Val::Dim3(y))) => {
                    for c in (0..3).filter(|&c| x[c] != y[c]) {
                        ids.insert(format!("{id}.{}", ["x", "y", "z"][c]));
                    }
                }
                (Val::Lambda(x), Some(Val::Lambda(y))) if x.captures == y.captures && x.stamp != y.stamp => {
                    lambdas.push((id.clone(), x.stamp.min(y.stamp)));
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
        for (id, stamp) in lambdas {
            if let Some(Val::Lambda(c)) = merged.vals.get_mut(&id) {
                c.stamp = stamp;
            }
        }
        merged.escaped.extend(b.escaped.iter().cloned());
        merged.arg_arrays.extend(b.arg_arrays.clone());
        self.kill(&mut merged, &ids);
        merged.in_loop = env.in_loop;
        // What either branch knew of its condition holds no longer.
        merged.facts = env.facts.clone();
        *env = merged;
    }

    /// A declaration statement's variable.
    pub(super) fn decl(&mut self, d: &'a Node, env: &mut Env) {
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
        if let Some(elems) = self.read_only_array(d, init, env) {
            env.vals.insert(d.id.clone(), Val::Array(elems));
            return;
        }
        if arg_array {
            if let Some(list) = init.map(strip).filter(|i| i.kind == "InitListExpr") {
                let slots = list
                    .inner
                    .iter()
                    .map(|e| address_through_casts(e).map(str::to_string))
                    .collect();
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
    pub(super) fn expr_stmt(&mut self, e: &'a Node, env: &mut Env) {
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
    pub(super) fn assigned_value(&mut self, e: &'a Node, env: &Env) -> Option<Expr> {
        let ty = self.int_ty(e.inner[0].type_str())?;
        let rhs = match self.eval(&e.inner[1], env)? {
            Val::Int(v) => v,
            Val::Dim3(_) | Val::Array(_) | Val::Float(..) | Val::Function(_) | Val::Host(_) | Val::Lambda(_) => {
                return None;
            }
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
    pub(super) fn scan(&mut self, e: &'a Node, env: &mut Env) {
        match e.kind.as_str() {
            "CUDAKernelCallExpr" => {
                self.visited.insert(e.id.clone());
                // The configuration (clang's call of `cudaConfigureCall`) is not a call of the
                // program's: only its arguments are.
                let config = e.inner.get(1).map(|c| c.inner.iter().skip(1)).into_iter().flatten();
                for c in config.chain(e.inner.iter().skip(2)) {
                    self.scan(c, env);
                }
                self.triple_launch(e, env);
                return;
            }
            // `std::forward(x)`, `std::move(x)`: `x` itself, neither changed nor escaping.
            "CallExpr" if super::eval::forwarded(e).is_some() => {
                if let Some(arg) = super::eval::forwarded(e) {
                    self.scan(arg, env);
                }
                return;
            }
            "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" => {
                // A local whose address is an argument (`sdkLoadPGM(file, &data, &w, &h)`) is
                // the call's out-parameter: the call may write it, and it holds one unknown
                // value after the call, until its next write. The callee is taken not to keep
                // the address for a later write (docs/modelling.md).
                let mut out_params = HashSet::new();
                for c in e.inner.iter().skip(1) {
                    match address_of(c) {
                        Some(id) if env.vals.contains_key(id) && !env.escaped.contains(id) => {
                            out_params.insert(id.to_string());
                        }
                        _ => self.scan(c, env),
                    }
                }
                self.ref_out.clear();
                if launch_api(e).is_some() {
                    self.visited.insert(e.id.clone());
                    self.api_launch(e, env);
                } else if let Some(v) = self.call(e, env) {
                    let _ = v;
                }
                // The locals an interpreted callee received by reference: the values it left
                // in them (the callee keeps no reference past the call, as for `&x`).
                let written: Vec<(String, Option<Val>)> = std::mem::take(&mut self.ref_out);
                // Arguments passed by reference may change, and so may whatever other names
                // reach.
                let mut ids = HashSet::new();
                for a in e.inner.iter().skip(1) {
                    let a = strip_parens(a);
                    if a.kind == "DeclRefExpr" && a.is_glvalue() {
                        ids.extend(
                            a.referenced_decl
                                .as_ref()
                                .map(|d| d.id.clone())
                                .filter(|id| !written.iter().any(|(w, _)| w == id)),
                        );
                    }
                }
                self.escape(env, ids);
                self.clobber(env);
                self.kill(env, &out_params);
                for (id, v) in self.device_outputs(e, env) {
                    if out_params.contains(&id) {
                        env.vals.insert(id, v);
                    }
                }
                for (id, v) in written {
                    match v {
                        Some(v) => {
                            env.vals.insert(id, v);
                        }
                        None => self.kill(env, &HashSet::from([id])),
                    }
                }
                if let Some((id, name)) = self.module_function(e) {
                    env.escaped.remove(&id);
                    env.vals.insert(id, Val::Function(name));
                }
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
    pub(super) fn write(&mut self, env: &mut Env, ids: &HashSet<String>) {
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
    pub(super) fn escape(&mut self, env: &mut Env, ids: HashSet<String>) {
        env.escaped.extend(ids);
    }

    /// A call, or a write through a pointer or reference: every escaped variable and every
    /// global may have changed.
    pub(super) fn clobber(&mut self, env: &mut Env) {
        self.new_generation();
        let escaped = env.escaped.clone();
        self.kill(env, &escaped);
    }

    /// A call of one of the file's host functions, interpreted with its arguments' values;
    /// its return value when it gives one.
    pub(super) fn call(&mut self, e: &'a Node, env: &mut Env) -> Option<Val> {
        let callee = strip(e.inner.first()?);
        let id = match callee.kind.as_str() {
            // A call through a pointer that holds one of the program's functions: that one.
            "DeclRefExpr" => match env.vals.get(&callee.referenced_decl.as_ref()?.id) {
                Some(Val::Host(f)) => f.clone(),
                _ => callee.referenced_decl.as_ref()?.id.clone(),
            },
            "UnaryOperator" if callee.opcode.as_deref() == Some("*") => match self.eval(callee.inner.first()?, env)? {
                Val::Host(f) => f,
                _ => return None,
            },
            "MemberExpr" => callee.referenced_member_decl.clone()?,
            _ => return None,
        };
        let f = self.definition(&id)?;
        if f.has_attr("CUDAGlobalAttr") || (f.has_attr("CUDADeviceAttr") && !f.has_attr("CUDAHostAttr")) {
            return None;
        }
        if self.steps > MAX_STEPS {
            self.cut(f);
            return None;
        }
        // A member operator's call (`launch(c)`, a lambda's `operator()`) has the object first:
        // the arguments follow it.
        let first = if e.kind == "CXXOperatorCallExpr" && f.kind == "CXXMethodDecl" {
            2
        } else {
            1
        };
        let captured = match e.inner.get(1) {
            Some(object) if first == 2 => self.captured(f, object, env),
            _ => Vec::new(),
        };
        let args: Vec<Option<Val>> = e.inner.iter().skip(first).map(|a| self.eval(a, env)).collect();
        let saved = env.in_loop;
        let depth_loop = env.in_loop;
        // A call in another of the program's files is shown with that file's name.
        let file = crate::frontend::program::is_other(&e.id)
            .then_some(e.begin.as_ref())
            .flatten()
            .and_then(|p| std::path::Path::new(&*p.file).file_name()?.to_str().map(str::to_string));
        self.call_lines.push((e.begin.as_ref().map_or(0, |p| p.line), file));
        let out = self.with_loop(depth_loop, |h| h.run(f, args, captured));
        self.call_lines.pop();
        env.in_loop = saved;
        // The caller's locals the callee received by non-`const` reference, with their values
        // at its end.
        let finals = std::mem::take(&mut self.last_params);
        self.ref_out.clear();
        let params = f.inner.iter().filter(|c| c.kind == "ParmVarDecl");
        for (i, (p, a)) in params.zip(e.inner.iter().skip(first)).enumerate() {
            let a = strip(a);
            if out_reference(p.type_str().trim())
                && a.kind == "DeclRefExpr"
                && let Some(d) = &a.referenced_decl
                && env.vals.contains_key(&d.id)
                && !env.escaped.contains(&d.id)
            {
                self.ref_out.push((d.id.clone(), finals.get(i).cloned().flatten()));
            }
        }
        out
    }

    /// The host function `e` names as a value (`f`, `&f`, decayed to a pointer): the
    /// declaration id the calls of [`Host::call`] look up, when the program defines it and it
    /// runs on the host.
    pub(super) fn host_function(&self, e: &'a Node) -> Option<String> {
        let d = named_function(e)?;
        let f = self.definition(&d.id)?;
        let device = f.has_attr("CUDAGlobalAttr") || (f.has_attr("CUDADeviceAttr") && !f.has_attr("CUDAHostAttr"));
        (!device && body_of(f).is_some()).then(|| d.id.clone())
    }

    /// Runs `f` with launches inside marked as in a loop when `in_loop`.
    pub(super) fn with_loop<T>(&mut self, in_loop: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        let before = self.found.len();
        let out = f(self);
        if in_loop {
            for l in &mut self.found[before..] {
                l.launch.in_loop = true;
            }
        }
        out
    }
}
