//! GPUVerify's annotations that need more than a table entry ([`crate::frontend::lower::builtin`] dispatches to them):
//!
//! - the two-thread predicates (`__other_int`, `__uniform_int`, `__all`, …; Donaldson's ENS Lyon
//!   lectures 1 and 2, where an annotation of one thread may name the other thread's copy of an
//!   expression), allowed only inside an annotation's condition;
//! - the access logs (`__read(p)`, `__write_offset_bytes(p)`, …; Donaldson's ENS Lyon lecture 1,
//!   "Race checking instrumentation"), made on first use and instrumented by `access_log` once the
//!   kernel is lowered;
//! - axioms: `__axiom(e)` at file scope, which the prelude turns into a function
//!   `__gpug_axiom_N` returning `e`; each is assumed on entry to every kernel, by every thread;
//! - a device function's contract: its `__requires` is checked at each call (`lower/builtin/`), its
//!   `__ensures` checked after the inlined body, where every return has joined, with
//!   `__return_val_int()` its result, and then assumed.

pub(in crate::frontend) mod access_log;

use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::lower::annotations::access_log::{AccessLog, OFFSET_TY};
use crate::frontend::lower::builtin::table::{LogKind, LogQuery, LogWhat, implies};
use crate::frontend::lower::{CallSite, Lower, PtrVal, R, Val, unsupported};
use crate::ir::build::cast;
use crate::ir::*;

impl Lower<'_, '_> {
    /// Lowers `cond` as an annotation's condition: two-thread predicates are allowed in it.
    pub(in crate::frontend) fn annotation_cond(&mut self, a: &Node, out: &mut Vec<Stmt>) -> R<Expr> {
        self.annotation_depth += 1;
        let c = self.cond(a, out);
        self.annotation_depth -= 1;
        c
    }

    /// The two-thread predicate `name` (built by `f`) applied to the scalar arguments.
    pub(in crate::frontend) fn two_thread(
        &mut self,
        f: fn(&[Expr]) -> Option<Expr>,
        name: &str,
        args: &[&Node],
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        if self.annotation_depth == 0 {
            return unsupported(
                span.clone(),
                format!(
                    "`{name}` outside an annotation (GPUVerify's two-thread predicates belong in `__assert`, `__assume`, `__requires`, `__ensures`, `__invariant` or `__axiom`)"
                ),
            );
        }
        let mut v = Vec::new();
        for a in args {
            let x = self.rvalue(a, out)?;
            v.push(self.expect_scalar(x, a)?);
        }
        match f(&v) {
            Some(e) => Ok(Val::Scalar(e)),
            None => unsupported(span.clone(), format!("`{name}` with these arguments")),
        }
    }

    /// What the access log of the array `args[0]` points to says, as `q` asks (the call `n`).
    pub(in crate::frontend) fn access_log(&mut self, q: LogQuery, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let array = self.pointer_arg(call, out)?.array;
        let log = self.log_of(array, q.kind);
        let has = Expr::Var {
            id: log.has,
            ty: Ty::Bool,
        };
        let e = match q.what {
            LogWhat::Occurred => has,
            LogWhat::None => Expr::Unary {
                op: UnOp::Not,
                arg: Box::new(has),
                ty: Ty::Bool,
            },
            LogWhat::Offset => cast(
                Expr::Var {
                    id: log.off,
                    ty: OFFSET_TY,
                },
                self.scalar_ty(n)?,
            ),
            LogWhat::Implies => {
                let Some(b) = args.get(1) else {
                    return unsupported(span.clone(), format!("`{name}` needs two arguments"));
                };
                let b = self.cond(b, out)?;
                implies(has, b)
            }
        };
        Ok(Val::Scalar(e))
    }

    /// `__ptr_offset_bytes(p)`: the byte offset of `p` in its array, as the call `n`'s type.
    pub(in crate::frontend) fn ptr_offset(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, _, _, _) = call.parts();
        let off = self.pointer_arg(call, out)?.off;
        Ok(Val::Scalar(cast(off, self.scalar_ty(n)?)))
    }

    /// The pointer the first argument of the annotation `name` gives.
    fn pointer_arg(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<PtrVal> {
        let (_, name, args, span) = call.parts();
        let Some(p) = args.first() else {
            return unsupported(span.clone(), format!("`{name}` without an argument"));
        };
        let pv = self.rvalue(p, out)?;
        self.expect_ptr(pv, p)
    }

    /// The log of `kind` accesses to `array`, made on first use.
    fn log_of(&mut self, array: ArrayId, kind: LogKind) -> AccessLog {
        if let Some(l) = self.logs.iter().find(|l| l.array == array && l.kind == kind) {
            return l.clone();
        }
        let what = match kind {
            LogKind::Read => "read",
            LogKind::Write => "write",
            LogKind::Atomic => "atomic",
        };
        let base = format!("${what}.{}", self.k.array(array).name);
        let log = AccessLog {
            array,
            kind,
            has: self.k.new_var(format!("{base}.has"), Ty::Bool),
            off: self.k.new_var(format!("{base}.offset"), OFFSET_TY),
            choice: self.k.new_var(format!("{base}.logged"), Ty::Bool),
        };
        self.logs.push(log.clone());
        log
    }

    /// The postconditions (`__ensures`) of the device function whose body `body` was just
    /// inlined (its frame still on top): each checked after the call, where every return has
    /// joined, and then assumed, as GPUVerify checks a function's postcondition at its exits
    /// and assumes it at its calls. `__return_val_int()` is the function's result there.
    pub(in crate::frontend) fn postconditions(&mut self, body: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let mut calls = Vec::new();
        ensures_calls(body, &mut calls);
        let outer = std::mem::replace(&mut self.in_postcondition, true);
        let mut r = Ok(());
        for c in calls {
            r = self.call(c, out).map(|_| ());
            if r.is_err() {
                break;
            }
        }
        self.in_postcondition = outer;
        r
    }

    /// One postcondition `a` of `name` at `span` (see [`Self::postconditions`]); one that
    /// cannot be lowered is not checked, and the verdict says so.
    pub(in crate::frontend) fn postcondition(
        &mut self,
        name: &str,
        a: &Node,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let mut stmts = Vec::new();
        match self.annotation_cond(a, &mut stmts) {
            Ok(cond) => {
                let cond = global_cond(name, cond);
                out.extend(stmts);
                for kind in [StmtKind::Assert { cond: cond.clone() }, StmtKind::Assume { cond }] {
                    out.push(Stmt {
                        kind,
                        span: span.clone(),
                    });
                }
            }
            Err(crate::frontend::FrontendError::Unsupported { what, .. }) => self.not_checked(name, what, span),
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// `__return_val_int()` (the call `n`): the result of the device function whose
    /// postcondition is being lowered.
    pub(in crate::frontend) fn return_value(&mut self, n: &Node, name: &str, span: &Span) -> R<Val> {
        match (&self.frame().ret, self.in_postcondition) {
            (Some(b), true) => {
                let b = b.clone();
                // A scalar result slot is read without statements; one in memory is not
                // supported here.
                let mut loads = Vec::new();
                let v = self.read_binding(&b, n, &mut loads)?;
                if !loads.is_empty() {
                    return unsupported(span.clone(), format!("`{name}` of a result held in memory"));
                }
                Ok(v)
            }
            _ => unsupported(
                span.clone(),
                format!("`{name}` outside the `__ensures` of a device function that returns a value"),
            ),
        }
    }

    /// Assumes every axiom of the file (`__axiom(e)` at file scope) on entry, in source order.
    pub(in crate::frontend) fn axioms(&mut self, out: &mut Vec<Stmt>) -> R<()> {
        for def in self.g.axioms.clone() {
            let name = def.name.clone().unwrap_or_default();
            let span = self.span(def);
            self.annotation_depth += 1;
            let v = self.inline(def, &name, Vec::new(), Vec::new(), &span, out);
            self.annotation_depth -= 1;
            let Val::Scalar(e) = v? else {
                return unsupported(span, "`__axiom` whose condition is not a scalar");
            };
            out.push(Stmt {
                kind: StmtKind::Assume {
                    cond: crate::ir::build::to_bool(e),
                },
                span,
            });
        }
        Ok(())
    }
}

/// The calls to `__ensures` / `__global_ensures` in `n`, in source order.
fn ensures_calls<'n>(n: &'n Node, out: &mut Vec<&'n Node>) {
    if n.kind == "CallExpr"
        && let Some(callee) = n.inner.first()
        && let Some(d) = &strip_parens(callee).referenced_decl
        && matches!(d.name.as_str(), "__ensures" | "__global_ensures")
    {
        out.push(n);
        return;
    }
    for c in &n.inner {
        ensures_calls(c, out);
    }
}

/// The condition of the annotation `name`: for GPUVerify's `__global_requires`,
/// `__global_ensures` and `__global_assert`, which hold for every thread, not only the ones
/// that reach them (GPUVerify's "global" contracts, which its predicated execution evaluates in
/// disabled threads too), `cond` in both threads of the pair (`cond && __other(cond)`, the other
/// thread's state at the same point) unless `cond` reads the other thread already; `cond`
/// otherwise.
pub(in crate::frontend) fn global_cond(name: &str, cond: Expr) -> Expr {
    match name {
        // A condition that already reads the other thread relates the two threads itself
        // (`__all`, `__exclusive`): asked of thread 1 with its partner, it covers every pair,
        // and the other thread's copy of it would have to read a third thread.
        _ if crate::ir::query::reads_other_thread(&cond) => cond,
        "__global_requires" | "__global_ensures" | "__global_assert" => Expr::Binary {
            op: BinOp::LAnd,
            lhs: Box::new(cond.clone()),
            rhs: Box::new(Expr::Other(Box::new(cond))),
            ty: Ty::Bool,
        },
        _ => cond,
    }
}

impl Lower<'_, '_> {
    /// GPUVerify's `__barrier_invariant_N(e, i1, …)` (`binary` false) or
    /// `__barrier_invariant_binary_N(e, i1, j1, …)` (Chong et al. (OOPSLA 2013) §3.3): a
    /// [`StmtKind::BarrierInvariant`] of `e`, whose loads stay with it (they are read at the
    /// barrier, not now), and of the instantiation expressions as `long`.
    ///
    /// # Errors
    /// No instantiation (or an odd number of expressions for a binary invariant); an
    /// instantiation expression that reads memory; `__other_int` in a unary invariant (it has
    /// one thread).
    pub(in crate::frontend) fn barrier_invariant(
        &mut self,
        binary: bool,
        call: &CallSite,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let per = if binary { 2 } else { 1 };
        let Some((e, insts)) = args.split_first() else {
            return unsupported(span.clone(), format!("`{name}` without a condition"));
        };
        if insts.is_empty() || insts.len() % per != 0 {
            return unsupported(
                span.clone(),
                format!(
                    "`{name}` needs {} after its condition",
                    if binary {
                        "pairs of instantiation expressions"
                    } else {
                        "instantiation expressions"
                    }
                ),
            );
        }
        let mut body = Vec::new();
        let cond = self.annotation_cond(e, &mut body)?;
        if !binary && (crate::ir::query::reads_other_thread(&cond) || crate::ir::query::stmts_read_other_thread(&body))
        {
            return unsupported(
                span.clone(),
                format!(
                    "`__other_int` in the unary barrier invariant `{name}` (a binary one, `__barrier_invariant_binary_N`, relates two threads)"
                ),
            );
        }
        let mut instances = Vec::new();
        for chunk in insts.chunks(per) {
            let mut inst = Vec::new();
            for a in chunk {
                let mut stmts = Vec::new();
                self.annotation_depth += 1;
                let x = self.rvalue(a, &mut stmts);
                self.annotation_depth -= 1;
                let x = self.expect_scalar(x?, a)?;
                if !stmts.is_empty() {
                    return unsupported(
                        self.span(a),
                        format!("an instantiation expression of `{name}` that reads memory"),
                    );
                }
                inst.push(cast(x, Ty::I64));
            }
            instances.push(inst);
        }
        out.push(Stmt {
            kind: StmtKind::BarrierInvariant(Box::new(BarrierInvariant {
                binary,
                body,
                cond,
                instances,
            })),
            span: span.clone(),
        });
        Ok(Val::Void)
    }

    /// GPUVerify's `__array_snapshot(dst, src)` (Chong et al. (OOPSLA 2013) §5's ghost arrays): a
    /// [`StmtKind::ArraySnapshot`] copying the whole array `src` points to into the one `dst`
    /// points to, in one step and without accessing either (GPUVerify's `$$dst := $$src`).
    ///
    /// # Errors
    /// Not two arguments; an argument that is not a pointer to the start of an array
    /// (GPUVerify refuses snapshots of pointers it cannot resolve to one array); a `dst` in
    /// `__constant` memory.
    pub(in crate::frontend) fn array_snapshot(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [dst, src] = args else {
            return unsupported(span.clone(), format!("`{name}` needs two arguments (dst, src)"));
        };
        let mut arrays = Vec::new();
        for a in [dst, src] {
            let v = self.rvalue(a, out)?;
            let p = self.expect_ptr(v, a)?;
            let whole = crate::ir::query::int_constant(&p.off) == Some(0.into());
            if !whole || self.null == Some(p.array) {
                return unsupported(
                    self.span(a),
                    format!(
                        "`{name}` of a pointer that is not the start of an array (whole arrays only, as GPUVerify)"
                    ),
                );
            }
            arrays.push(p.array);
        }
        let (dst, src) = (arrays[0], arrays[1]);
        if self.k.array(dst).space == Space::Constant {
            return unsupported(span.clone(), format!("`{name}` into __constant__ memory"));
        }
        out.push(Stmt {
            kind: StmtKind::ArraySnapshot { dst, src },
            span: span.clone(),
        });
        Ok(Val::Void)
    }

    /// `__implies(a, b)` and `__ite(c, x, y)` (the call `n`) inside an annotation, when an
    /// operand after the first reads memory: that operand's reads are made only where it is
    /// taken (a branch, as for `&&`), so that a barrier invariant's access check asks about
    /// them only there (GPUVerify collects the path conditions of `==>` and `if then else` in
    /// a barrier invariant's reads); the plain expression when none reads memory. `None`
    /// outside annotations and for other calls: the built-in's table entry applies.
    pub(in crate::frontend) fn guarded_annotation(
        &mut self,
        n: &Node,
        name: &str,
        args: &[&Node],
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        if self.annotation_depth == 0 || !matches!((name, args.len()), ("__implies", 2) | ("__ite", 3)) {
            return Ok(None);
        }
        let span = self.span(n);
        let mut first = Vec::new();
        let c = self.cond(args[0], &mut first)?;
        let mut arms = Vec::new();
        for a in &args[1..] {
            let mut stmts = Vec::new();
            let v = self.rvalue(a, &mut stmts)?;
            arms.push((self.expect_scalar(v, a)?, stmts));
        }
        out.extend(first);
        let ty = if name == "__implies" {
            Ty::Bool
        } else {
            self.scalar_ty(n)?
        };
        if arms.iter().all(|(_, s)| s.is_empty()) {
            let mut v: Vec<Expr> = arms.into_iter().map(|(e, _)| e).collect();
            let e = match v.len() {
                1 => crate::frontend::lower::builtin::table::implies(c, v.remove(0)),
                _ => {
                    v.insert(0, c);
                    match crate::frontend::lower::builtin::table::ite(&v, ty) {
                        Some(e) => e,
                        None => return unsupported(span, format!("`{name}` with these arguments")),
                    }
                }
            };
            return Ok(Some(Val::Scalar(e)));
        }
        let t = self.temp(ty);
        let tv = Expr::Var { id: t, ty };
        let mut arms = arms.into_iter().map(|(e, mut stmts)| {
            let e = if ty == Ty::Bool {
                crate::ir::build::to_bool(e)
            } else {
                cast(e, ty)
            };
            stmts.push(crate::frontend::lower::set(t, e, span.clone()));
            stmts
        });
        let then = arms.next().unwrap_or_default();
        let els = match arms.next() {
            Some(e) => e,
            // `__implies(a, b)`: true where `a` is false.
            None => vec![crate::frontend::lower::set(t, Expr::bool(true), span.clone())],
        };
        out.push(crate::frontend::lower::branch(c, then, els, span));
        Ok(Some(Val::Scalar(tv)))
    }

    /// GPUVerify's `__add_noovfl_int(a, b)` / `__add_noovfl_unsigned_int(a, b)` (the call `n`,
    /// Chong et al. (OOPSLA 2013) §5): `a + b` in the call's type, after assuming it does not
    /// overflow ([`crate::frontend::lower::builtin::table::add_noovfl`]).
    pub(in crate::frontend) fn add_no_overflow(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let v = self.scalar_args(args, out)?;
        let ty = self.scalar_ty(n)?;
        let v: Vec<Expr> = v.into_iter().map(|e| cast(e, ty)).collect();
        let Some(ok) = crate::frontend::lower::builtin::table::add_noovfl(&v, ty) else {
            return unsupported(span.clone(), format!("`{name}` with these arguments"));
        };
        out.push(Stmt {
            kind: StmtKind::Assume { cond: ok },
            span: span.clone(),
        });
        let sum = v.into_iter().reduce(|a, b| Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(a),
            rhs: Box::new(b),
            ty,
        });
        Ok(Val::Scalar(sum.unwrap_or_else(|| Expr::int(0, ty))))
    }
}
