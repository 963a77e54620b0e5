//! Calls: built-in functions are handed to [`crate::frontend::lower::builtin`]; device functions are inlined into the
//! caller (paper §2, scopes) with their own `Frame`, exit block and result slot; functions
//! without a body are uninterpreted (`opaque.rs`).
//!
//! A method is inlined with its object as the place `this` points to (`cxx.rs`); reference
//! parameters bind to the caller's places. Calls through function pointers are case splits
//! over their targets (`fnptr.rs`). A recursive function is inlined [`RECURSION_DEPTH`]
//! deep; executions that recurse deeper are cut ([`Lower::recursion_cut`]) and left unchecked.
//!
//! | file | owns |
//! | --- | --- |
//! | `mod.rs` | a call's dispatch: CUDA's features, lambdas, built-ins, inlining of a body, bodiless functions |
//! | `fnptr.rs` | function pointers: integer-coded targets, calls through them as case splits |
//! | `lambda.rs` | lambdas: closures in locals and parameters, their calls inlined with their captures |
//! | `opaque.rs` | calls to functions without a body: uninterpreted functions, clobbered arrays |
//! | `memory_calls.rs` | `memcpy` and `memset`: byte loads and stores, null pointer arguments as assertions |
//! | `modular.rs` | device functions checked on their own (`--modular`): which, and their arbitrary arguments |

pub(in crate::frontend) mod fnptr;
pub(in crate::frontend) mod lambda;
pub(in crate::frontend) mod memory_calls;
pub(in crate::frontend) mod modular;
pub(in crate::frontend) mod opaque;

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::cuda::groups::node_group;
use crate::frontend::cuda::is_builtin_struct;
use crate::frontend::lower::calls::fnptr::fn_signature;
use crate::frontend::lower::cxx::Arg;
use crate::frontend::lower::globals::body_of;
use crate::frontend::lower::{Binding, CallSite, Frame, LVal, Lower, PtrBind, PtrOff, R, Val, scan, unsupported};
use crate::frontend::types::{CType, TypeEnv, is_fp16_record};
use crate::ir::*;
use std::collections::{HashMap, HashSet};

impl Lower<'_, '_> {
    /// A virtual call (`c`, the member expression of a call to the method `name`, id `id`): the
    /// method run is the object's dynamic type's, which may be any override; only an object
    /// named by a variable of its own class has its static type.
    ///
    /// # Errors
    /// Unsupported for a virtual method called through a pointer or a reference.
    fn no_virtual_dispatch(&self, c: &Node, name: &str, id: &str, span: &Span) -> R<()> {
        if self.g.virtual_methods.contains(id) && !c.inner.first().is_some_and(|b| static_object(b, c.is_arrow)) {
            return unsupported(
                span.clone(),
                format!(
                    "virtual call to `{name}` through a pointer or reference (the dynamic type's override is not followed)"
                ),
            );
        }
        Ok(())
    }
}

/// Whether the object `b` of a member call (`->` when `arrow`) has a known dynamic type: a
/// variable (not a reference) of class type, named directly.
fn static_object(b: &Node, arrow: bool) -> bool {
    if arrow {
        return false;
    }
    let b = strip_parens(b);
    b.kind == "DeclRefExpr"
        && b.referenced_decl
            .as_ref()
            .is_some_and(|d| matches!(d.kind.as_str(), "VarDecl" | "ParmVarDecl") && !d.ty.qual_type.contains('&'))
}

/// How many calls of one function may be open at once (nested) while inlining: a recursive
/// call nested deeper is cut ([`Lower::recursion_cut`]). Each level may double the inlined
/// code (two recursive calls per body, cuda-samples' `interval`).
pub(in crate::frontend) const RECURSION_DEPTH: usize = 3;

impl Lower<'_, '_> {
    /// The recursive call `n` to `name`, nested [`RECURSION_DEPTH`] deep: the executions that
    /// reach it are cut (`assume(false)`, as `--loop-unwind` cuts a loop), and the kernel keeps
    /// an unchecked reason ([`Kernel::unchecked`]) naming the call, so it is never reported
    /// verified. What is found in the executions followed is real; the result, when the
    /// call returns one, is an arbitrary scalar that no followed execution reads.
    ///
    /// # Errors
    /// A recursive call whose result is not a scalar or `void`.
    fn recursion_cut(&mut self, n: &Node, name: &str, span: &Span, out: &mut Vec<Stmt>) -> R<Val> {
        let value = match self.ctype(n) {
            CType::Void => Val::Void,
            CType::Scalar(ty) => {
                let v = self.temp(ty);
                out.push(Stmt {
                    kind: StmtKind::Havoc { var: v },
                    span: span.clone(),
                });
                Val::Scalar(Expr::Var { id: v, ty })
            }
            _ => {
                return unsupported(
                    span.clone(),
                    format!(
                        "recursive call to `{name}` returning a struct (recursion is followed {RECURSION_DEPTH} calls deep, then cut)"
                    ),
                );
            }
        };
        out.push(Stmt {
            kind: StmtKind::Assume {
                cond: Expr::bool(false),
            },
            span: span.clone(),
        });
        let reason = format!(
            "recursion: `{name}` is followed {RECURSION_DEPTH} calls deep; executions that recurse deeper are not checked"
        );
        if !self.k.unchecked.iter().any(|(_, r)| *r == reason) {
            self.k.unchecked.push((span.clone(), reason));
        }
        Ok(value)
    }

    /// A call `n` (callee `c`) of one of the CUDA features with a lowering of their own:
    /// `cuda::barrier`'s and the copies it completes (`barrier.rs`), cooperative groups'
    /// (`groups.rs`), warp matrix functions (`wmma.rs`); `None` for any
    /// other call.
    fn feature_call(&mut self, call: &CallSite, c: &Node, out: &mut Vec<Stmt>) -> R<Option<Val>> {
        if let Some(v) = self.barrier_call(call, c, out)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.thread_pipeline_call(call, c, out)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.atomic_ref_call(call, c, out)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.cub_call(call, c, out)? {
            return Ok(Some(v));
        }
        if let Some(v) = self.group_call(call, c, out)? {
            return Ok(Some(v));
        }
        self.wmma_call(call, out)
    }

    /// `operator __half2_raw()` of one of CUDA's 16-bit float types called on `object`: a bit
    /// copy (`ctor.rs`); `None` for any other call of `def`.
    fn fp16_conversion(
        &mut self,
        def: &Node,
        object: Option<(&Node, bool)>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let to = return_type(def, &self.g.types);
        if def.kind == "CXXConversionDecl"
            && let Some((b, arrow)) = object
            && let (CType::Record(from), CType::Record(x)) = (self.ctype(b), &to)
            && is_fp16_record(&from)
            && self.same_scalars(&from, x)
        {
            let v = if arrow {
                let pv = self.rvalue(b, out)?;
                let lv = self.deref(pv, b)?;
                self.read(lv, b, out)?
            } else {
                self.rvalue(b, out)?
            };
            return self.bit_copy(v, &from, &to, span).map(Some);
        }
        Ok(None)
    }

    pub(in crate::frontend) fn call(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(callee) = n.inner.first() else {
            return unsupported(span, "malformed call");
        };
        let mut args: Vec<&Node> = n.inner[1..].iter().filter(|c| !c.kind.ends_with("Attr")).collect();
        let c = strip_parens(callee);
        let callee_name = match &c.referenced_decl {
            Some(d) => d.name.clone(),
            None => c.name.clone().unwrap_or_default(),
        };
        // A function the program declares is lowered from its body whatever its name: only a
        // declaration of the toolkit's headers (or gpug's prelude) is a built-in.
        let program_fn = match c.kind.as_str() {
            "DeclRefExpr" => c.referenced_decl.as_ref().map(|d| d.id.as_str()),
            "MemberExpr" => c.referenced_member_decl.as_deref(),
            _ => None,
        }
        .is_some_and(|id| self.g.is_program_fn(id));
        let feature = CallSite {
            node: n,
            name: &callee_name,
            args: &args,
            span: &span,
        };
        if !program_fn && let Some(v) = self.feature_call(&feature, c, out)? {
            return Ok(v);
        }
        if let Some(v) = self.lambda_call(n, c, &args, &span, out)? {
            return Ok(v);
        }
        let mut object = None;
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
                // Method call: the object is evaluated (to the place `this` points to) once the
                // method is known to have a body; a built-in's only for its side effects.
                let name = c.name.clone().unwrap_or_default();
                let id = c.referenced_member_decl.clone().unwrap_or_default();
                self.no_virtual_dispatch(c, &name, &id, &span)?;
                // `uint3 t = threadIdx;`: the built-in variable's conversion operator.
                if let Some(var) = c.inner.first().and_then(|b| is_builtin_struct(b.type_str()))
                    && name.starts_with("operator ")
                {
                    return self.builtin_vector(var, &span);
                }
                if let Some(b) = c.inner.first() {
                    if (!program_fn && crate::frontend::lower::builtin::lookup(self.g.language, &name).is_some())
                        || !self.g.funcs_by_id.contains_key(&id)
                    {
                        if b.kind != "MaterializeTemporaryExpr" && b.kind != "CXXTemporaryObjectExpr" && !b.is_glvalue()
                        {
                            self.effect(b, out)?;
                        }
                    } else {
                        object = Some((b, c.is_arrow));
                    }
                }
                (name, id, String::new())
            }
            "UnresolvedLookupExpr" | "UnresolvedMemberExpr" | "CXXDependentScopeMemberExpr" => {
                return unsupported(span, "dependent call in an uninstantiated template");
            }
            _ => return self.indirect_call(n, callee, args, &span, out),
        };
        if n.kind == "CXXOperatorCallExpr" && self.builtin_assignment(n) {
            let lv = self.lvalue(n, out)?;
            return self.read(lv, n, out);
        }
        let site = CallSite {
            node: n,
            name: &name,
            args: &args,
            span: &span,
        };
        if !program_fn && let Some(v) = self.builtin_call(&site, out)? {
            return Ok(v);
        }
        let def = self
            .g
            .funcs_by_id
            .get(&decl_id)
            .copied()
            .or_else(|| self.g.funcs_by_sig.get(&(name.clone(), decl_ty.clone())).copied());
        let Some(def) = def else {
            return self.opaque_call(&site, out);
        };
        if self.frames.iter().filter(|f| f.func_id == def.id).count() >= RECURSION_DEPTH {
            return self.recursion_cut(n, &name, &span, out);
        }
        if let Some(v) = self.fp16_conversion(def, object, &span, out)? {
            return Ok(v);
        }
        let is_method = matches!(def.kind.as_str(), "CXXMethodDecl" | "CXXConversionDecl")
            && def.storage_class.as_deref() != Some("static");
        // A member operator's object is its first argument.
        if n.kind == "CXXOperatorCallExpr" && is_method && !args.is_empty() {
            object = Some((args.remove(0), false));
        }
        let this = match object {
            Some((b, arrow)) if is_method => Some(self.object_place(b, arrow, out)?),
            Some((b, _)) => {
                self.effect(b, out)?;
                None
            }
            None => None,
        };
        if is_method && this.is_none() && uses_this(def) {
            return unsupported(span, format!("method `{name}` using `this` called without an object"));
        }
        let params: Vec<&Node> = def.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        if params.len() != args.len() {
            if args.len() < params.len() {
                return unsupported(span, format!("call to `{name}` using default arguments"));
            }
            return unsupported(span, format!("variadic call to `{name}`"));
        }
        // Evaluate the arguments in the caller: places for reference parameters.
        let mut vals = Vec::new();
        for (a, p) in args.drain(..).zip(&params) {
            let a = default_arg(a, p, &span)?;
            // A cooperative group handle has no storage (`groups.rs`).
            if node_group(strip_parens(a), &self.g.group_aliases).is_some() {
                self.bind_group(p, Some(strip_parens(a)));
                vals.push(Arg::Val(Val::Void));
                continue;
            }
            // A lambda given to a template's parameter is bound to it, not evaluated.
            if self.bind_lambda_param(a, p, out)? {
                vals.push(Arg::Val(Val::Void));
                continue;
            }
            let pty = self.ctype(p);
            vals.push(self.arg(a, &pty, out)?);
        }
        self.inline_call(def, &name, params, vals, this, HashMap::new(), &span, out)
    }

    /// Inline `def` with argument values and no object (see [`Self::inline_call`]).
    #[allow(dead_code)]
    pub(in crate::frontend) fn inline(
        &mut self,
        def: &Node,
        name: &str,
        params: Vec<&Node>,
        vals: Vec<Val>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let args = vals.into_iter().map(Arg::Val).collect();
        self.inline_call(def, name, params, args, None, HashMap::new(), span, out)
    }

    /// Inline `def` (named `name`, with parameters `params`) given `args`, as a method of the
    /// object `this` when given, in a frame starting from the bindings `env` (empty but for a
    /// lambda's captures, `lambda.rs`; its parameters and locals are added to them); a
    /// reference-returning function leaves its place in [`Lower::last_ret_ref`] and has no
    /// value.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::frontend) fn inline_call(
        &mut self,
        def: &Node,
        name: &str,
        params: Vec<&Node>,
        args: Vec<Arg>,
        this: Option<LVal>,
        env: HashMap<String, Binding>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let Some(body) = body_of(def) else {
            return unsupported(span.clone(), format!("call to `{name}` without a body"));
        };
        let block = self.k.new_block();
        let mut frame = Frame {
            env,
            block: Some(block),
            ret: None,
            func_id: def.id.clone(),
            addr_taken: HashSet::new(),
            modified: HashSet::new(),
            this_obj: this,
            returns_ref: false,
            ret_ref: None,
        };
        scan(body, &mut frame.addr_taken, &mut frame.modified);
        let ret_cty = return_type(def, &self.g.types);
        self.frames.push(frame);
        // A call inside a postcondition: the callee's own `__ensures` wait for its end.
        let in_postcondition = std::mem::replace(&mut self.in_postcondition, false);
        let mut stmts = Vec::new();
        let result = (|| -> R<Option<Binding>> {
            // Result slot.
            let ret = match &ret_cty {
                CType::Void => None,
                CType::Ref(_) => {
                    self.frame_mut().returns_ref = true;
                    None
                }
                t => Some(self.local_binding(&format!("{name}$ret"), t, "", span)?),
            };
            self.frame_mut().ret = ret.clone();
            // With a pointer to a pointer among the arguments the callee may retarget a
            // caller's pointer, so pointer arguments are copied rather than shared.
            let share = !args.iter().any(|a| matches!(a, Arg::Val(Val::Addr(_))));
            for (p, a) in params.iter().zip(args) {
                let pname = p.name.clone().unwrap_or_default();
                let pspan = self.span(p);
                let cty = self.ctype(p);
                // A cooperative group handle or a lambda has no storage.
                if node_group(p, &self.g.group_aliases).is_some() || self.closures.contains_key(&p.id) {
                    continue;
                }
                if let CType::Ref(to) = &cty {
                    self.bind_ref(&p.id, &pname, to, a, p, &mut stmts)?;
                    continue;
                }
                let Arg::Val(v) = a else {
                    return unsupported(pspan, format!("place given for the value parameter `{pname}`"));
                };
                match (&cty, v) {
                    (CType::Ptr(_), Val::Addr(lv)) if !self.frame().modified.contains(&p.id) => {
                        self.frame_mut().env.insert(p.id.clone(), Binding::Addr(lv));
                    }
                    (CType::Ptr(pointee), v @ (Val::Ptr(_) | Val::PtrCond(..)))
                        if share && !self.frame().modified.contains(&p.id) && !self.next_ptr_seeded() =>
                    {
                        // Fixed to the argument: its arrays, tag and offset (`target.rs`).
                        let Some(flat) = self.flat_ptr(&v) else {
                            return unsupported(pspan, format!("pointer argument for `{pname}`"));
                        };
                        let mut pb = PtrBind::new(&pname, flat.arrays, PtrOff::Fixed(flat.off), (**pointee).clone());
                        pb.tag = flat.tag;
                        let b = Binding::Ptr(self.push_ptr(pb));
                        self.frame_mut().env.insert(p.id.clone(), b);
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
            if def.kind == "CXXConstructorDecl" {
                self.member_inits(def, &mut stmts)?;
            }
            self.block(body, &mut stmts)?;
            Ok(ret)
        })();
        self.in_postcondition = in_postcondition;
        // The result is read after the callee's block, where every `return` (an exit of the
        // block) leads: a result held in memory (a struct with an array member) is read by
        // loads, which inside the block would follow its last `return` and never run.
        let v = result.and_then(|ret| {
            out.push(Stmt {
                kind: StmtKind::Block { id: block, body: stmts },
                span: span.clone(),
            });
            match ret {
                None => Ok(Val::Void),
                Some(b) => self.read_binding(&b, def, out),
            }
        });
        let v = match v {
            Ok(v) => v,
            Err(e) => {
                self.frames.pop();
                return Err(e);
            }
        };
        // The callee's `__ensures`, after every return, with its frame still in scope.
        let post = self.postconditions(body, out);
        let frame = self.frames.pop();
        post?;
        if let Some(f) = frame
            && f.returns_ref
        {
            match f.ret_ref {
                Some(lv) => self.last_ret_ref = Some(lv),
                None => return unsupported(span.clone(), format!("`{name}` returns a reference without a `return`")),
            }
        }
        Ok(v)
    }
}

/// The expression the argument `a` for the parameter `p` stands for: itself, or for a default
/// argument (`CXXDefaultArgExpr`, which clang's JSON leaves empty) the parameter's default
/// value, evaluated in the caller (clang has resolved its names where the function is declared).
pub(in crate::frontend) fn default_arg<'n>(a: &'n Node, p: &'n Node, span: &Span) -> R<&'n Node> {
    if strip_parens(a).kind != "CXXDefaultArgExpr" || !strip_parens(a).inner.is_empty() {
        return Ok(a);
    }
    match p.code_children().last().filter(|_| p.init.is_some()) {
        Some(d) => Ok(d),
        None => unsupported(
            span.clone(),
            format!(
                "default argument for `{}` whose value the AST does not show",
                p.name.as_deref().unwrap_or("")
            ),
        ),
    }
}

fn uses_this(n: &Node) -> bool {
    n.kind == "CXXThisExpr" || n.inner.iter().any(uses_this)
}

fn return_type(def: &Node, env: &TypeEnv) -> CType {
    let t = def.ty.as_ref().map(|t| t.qual_type.as_str()).unwrap_or("void ()");
    // A lambda's `operator()`: `auto (int) const -> float`.
    if let Some(r) = crate::frontend::lower::calls::lambda::trailing_return(t) {
        return env.parse(r);
    }
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
