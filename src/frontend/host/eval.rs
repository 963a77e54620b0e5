//! The host code's expressions as values: integer terms over host unknowns
//! (literals, constants, `sizeof`, arithmetic, `?:`, `min`/`max`, calls) and `dim3`s
//! (see [`super`]).

use super::*;

impl<'a, 'g> Host<'a, 'g> {
    /// The value of expression `e`, `None` when it is not an integer or `dim3` (or cannot be
    /// followed: then an integer is a fresh unknown).
    pub(super) fn eval(&mut self, e: &'a Node, env: &Env) -> Option<Val> {
        if let Some(arg) = forwarded(e) {
            return self.eval(arg, env);
        }
        if let Some(id) = self.host_function(e) {
            return Some(Val::Host(id));
        }
        if let Some(v) = self.closure(e, env) {
            return Some(v);
        }
        let ty = e.type_str();
        if is_dim3(ty) {
            return self.eval_dim3(e, env);
        }
        if self.float_ty(ty).is_some() {
            return self
                .eval_float(e, env)
                .map(|(v, single)| Val::Float(v.to_bits(), single));
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

    pub(super) fn eval_int(&mut self, e: &'a Node, env: &Env, ty: Option<Ty>) -> Option<Expr> {
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
                if e.cast_kind.as_deref() == Some("FloatingToIntegral") {
                    return self.float_to_int(inner, env, ty);
                }
                if e.cast_kind.as_deref() == Some("PointerToIntegral") {
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
                    Some(
                        Val::Dim3(_)
                        | Val::Array(_)
                        | Val::Float(..)
                        | Val::Function(_)
                        | Val::Host(_)
                        | Val::Lambda(_),
                    ) => None,
                    None => self.global(&d.id, ty),
                }
            }
            "ArraySubscriptExpr" => self.element(e, env, ty),
            // `c.value` of a `std::integral_constant<int, 32>` whose class clang read from the
            // precompiled headers (its members are not in the AST): the value its type names.
            "MemberExpr" if e.name.as_deref() == Some("value") => {
                let v = integral_constant(e.inner.first()?.type_str())?;
                Some(Expr::int(wrap_ty(v, ty), ty))
            }
            "MemberExpr"
                if let Some((field, lo, hi)) = device::property(e)
                    && !self.fields_written.contains(field) =>
            {
                let name = device::property_text(e, field);
                Some(self.property_unknown(&name, field, lo.into(), hi.into(), ty))
            }
            "MemberExpr" => {
                let c = component(e.name.as_deref()?)?;
                match self.eval(e.inner.first()?, env)? {
                    Val::Dim3(d) => Some(d[c].clone()),
                    Val::Int(_) | Val::Array(_) | Val::Float(..) | Val::Function(_) | Val::Host(_) | Val::Lambda(_) => {
                        None
                    }
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
            "BinaryOperator" => self.binary_int(e, env, ty),
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
            "CallExpr" => self.call_int(e, env, ty),
            _ => None,
        }
    }

    /// A binary operator of integer values (a float comparison by [`Self::float_compare`]).
    fn binary_int(&mut self, e: &'a Node, env: &Env, ty: Ty) -> Option<Expr> {
        let int = |h: &mut Self, n: &'a Node| match h.eval(n, env) {
            Some(Val::Int(v)) => Some(v),
            _ => None,
        };
        let opcode = e.opcode.as_deref()?;
        if opcode == "," {
            return int(self, e.inner.get(1)?);
        }
        let op = BinOp::from_spelling(opcode)?;
        if op.is_comparison() && self.float_ty(e.inner.first()?.type_str()).is_some() {
            return self.float_compare(e, env);
        }
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

    /// A call's integer value: `min`/`max`, or a host function of the file run on these
    /// arguments.
    fn call_int(&mut self, e: &'a Node, env: &Env, ty: Ty) -> Option<Expr> {
        let int = |h: &mut Self, n: &'a Node| match h.eval(n, env) {
            Some(Val::Int(v)) => Some(v),
            _ => None,
        };
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
            Val::Dim3(_) | Val::Array(_) | Val::Float(..) | Val::Function(_) | Val::Host(_) | Val::Lambda(_) => None,
        }
    }

    /// A variable not local to the function: a `const` (or `constexpr`) one's value, from its
    /// initializer; another's unknown, the same until the next write other names may make
    /// ([`Host::clobber`]).
    ///
    /// In a whole program, a global that no code writes ([`Host::read_only`]: every use of its
    /// name only reads the value) keeps its initializer's value: `unsigned int image_width =
    /// 512;` read by a display callback.
    pub(super) fn global(&mut self, id: &str, ty: Ty) -> Option<Expr> {
        let v = *self.g.vars.get(id)?;
        if !self.constant(v) {
            if let Some((generation, e)) = self.globals.get(id)
                && *generation == self.generation
                && e.ty() == ty
            {
                return Some(e.clone());
            }
            let e = match v.name.as_ref().and_then(|n| Some((n, self.property_globals.get(n)?))) {
                Some((name, (field, lo, hi))) => {
                    let (name, field, lo, hi) = (name.clone(), *field, lo.clone(), hi.clone());
                    self.property_unknown(&name, field, lo, hi, ty)
                }
                None => self.unknown(v.name.as_deref().unwrap_or("?"), ty),
            };
            self.globals.insert(id.to_string(), (self.generation, e.clone()));
            return Some(e);
        }
        let init = match v.inner.iter().find(|c| !c.kind.ends_with("Attr")) {
            Some(init) => init,
            None => self.external_initializer(v)?,
        };
        if let Some(c) = const_value(init) {
            return Some(Expr::int(wrap_ty(c, ty), ty));
        }
        match self.eval(init, &Env::default())? {
            Val::Int(e @ Expr::Const { .. }) => Some(cast(e, ty)),
            _ => None,
        }
    }

    /// The initializer of the one definition, in the translation units read, of the `const`
    /// global that `v` declares `extern` without one (`extern "C" const uint MIN_SIZE;` in a
    /// header, `extern "C" const uint MIN_SIZE = 4;` in the file that defines it:
    /// cuda-samples' scan): a definition with external linkage, of the same name and type.
    /// (A `const` global without an initializer can only be such a declaration: C++ requires
    /// one of a `const` object's definition; clang marks `extern "C"`'s without a storage
    /// class.) `None` when there is none, or more than one.
    fn external_initializer(&self, v: &Node) -> Option<&'a Node> {
        if v.storage_class.as_deref() == Some("static") {
            return None;
        }
        let name = v.name.as_deref()?;
        let mut found = self.g.vars.values().filter_map(|d| {
            let external = d.storage_class.as_deref() != Some("static");
            let init = d.inner.iter().find(|c| !c.kind.ends_with("Attr"));
            (d.name.as_deref() == Some(name) && external && d.type_str() == v.type_str())
                .then_some(init)
                .flatten()
        });
        let init = found.next()?;
        found.next().is_none().then_some(init)
    }

    /// Whether the global `v` holds its initializer's value throughout: it is `const` or
    /// `constexpr`, or defined here with an initializer and never written ([`Host::read_only`]).
    pub(super) fn constant(&self, v: &Node) -> bool {
        v.constexpr
            || v.type_str().trim_start().starts_with("const ")
            || (v.storage_class.as_deref() != Some("extern")
                && v.inner.iter().any(|c| !c.kind.ends_with("Attr"))
                && v.name.as_ref().is_some_and(|n| self.read_only.contains(n)))
    }

    /// A `dim3` expression's three values.
    pub(super) fn eval_dim3(&mut self, e: &'a Node, env: &Env) -> Option<Val> {
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
}

/// The argument of `std::forward<T>(x)` or `std::move(x)`, whose value is `x`'s (a variadic
/// template's `kernel(std::forward<Args>(args)...)`, llm.c's `benchmark_kernel`). By
/// declaration: the standard library's, whose parameter is a `std::remove_reference<…>::type`
/// reference, not a function of the program's that is named so.
pub(super) fn forwarded(e: &Node) -> Option<&Node> {
    let e = strip(e);
    if e.kind != "CallExpr" || e.inner.len() != 2 {
        return None;
    }
    let callee = strip(&e.inner[0]);
    let d = callee.referenced_decl.as_ref()?;
    let standard = matches!(d.name.as_str(), "forward" | "move")
        && d.kind == "FunctionDecl"
        && d.ty.qual_type.contains("(typename std::remove_reference<");
    standard.then(|| &e.inner[1])
}

/// The value `N` of the type `std::integral_constant<T, N>` (as clang spells it, `const` or a
/// reference to it too): the standard library's, whose `value` is `N` by definition.
fn integral_constant(ty: &str) -> Option<BigInt> {
    let t = bare(ty.trim().trim_end_matches('&').trim());
    let args = t.strip_prefix("std::integral_constant<")?.strip_suffix('>')?;
    let (_, n) = args.rsplit_once(',')?;
    let n = n.trim();
    match n {
        "true" => Some(BigInt::from(1)),
        "false" => Some(BigInt::from(0)),
        _ => n.trim_end_matches(['U', 'L', 'u', 'l']).parse().ok(),
    }
}
