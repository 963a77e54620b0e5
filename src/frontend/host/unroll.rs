//! Host loops of a known, small trip count run iteration by iteration (issue 53): `for (int
//! j = 0; j < sizeof(sizes) / sizeof(int); j++) { int b = sizes[j]; k<<<n / b, b>>>(…); }` is
//! one launch per block size, each with its values, rather than one launch whose values the
//! loop changes (symbolic). Identical launches merge ([`super::dedup`]). Unrolling, not a
//! disjunction of the values: every value computed from the counter (the grid, a helper's
//! branch on the block size) stays exact, and each launch's witness is one the program makes.
//! Also the local arrays such loops read (`int sizes[] = {32, 64}`), when the function only
//! reads them.
//!
//! Soundness: a loop is unrolled only when its condition is known before each iteration, it
//! has no `break`, `continue` or `goto` of its own, and it ends within [`MAX_UNROLL`]
//! iterations and [`UNROLL_STEPS`] statements; otherwise nothing of the attempt is kept and
//! the loop is read as before (its changing values unknown).

use super::facts::pure;
use super::*;

impl<'a, 'g> Host<'a, 'g> {
    /// The `for` loop `s` (its init done) run iteration by iteration, or `None` (nothing
    /// changed) when it cannot be.
    pub(super) fn unroll(&mut self, s: &'a Node, env: &mut Env) -> Option<Flow> {
        let [_, var, cond, inc, body] = &s.inner[..] else {
            return None;
        };
        if !var.is_empty() || cond.is_empty() || !pure(cond) || jumps(body, false, false) || jumps(inc, false, false) {
            return None;
        }
        if self.stack.is_empty() || self.bodies.last().is_some_and(|b| has_kind(b, "GotoStmt")) {
            return None;
        }
        if self.too_many_iterations(cond, inc, env) {
            return None;
        }
        let saved = env.clone();
        let found = self.found.len();
        let cut = self.cut.len();
        let entered = self.entered.clone();
        let early = self.early.last().map_or(0, Vec::len);
        let start = self.steps;
        let budget = if self.reaches_launch(body) || self.reaches_launch(cond) || self.reaches_launch(inc) {
            UNROLL_STEPS
        } else {
            QUIET_UNROLL_STEPS
        };
        let mut done = None;
        for iteration in 0..=MAX_UNROLL {
            match self.eval(cond, env) {
                Some(Val::Int(Expr::Const { value, .. })) if value == BigInt::from(0) => {
                    done = Some(Flow::Next);
                    break;
                }
                Some(Val::Int(Expr::Const { .. })) if iteration < MAX_UNROLL => {}
                _ => break,
            }
            if let f @ Flow::Return(_) = self.stmt(body, env) {
                done = Some(f);
                break;
            }
            if !inc.is_empty() {
                self.expr_stmt(inc, env);
            }
            if self.steps - start > budget || self.steps > MAX_STEPS {
                break;
            }
        }
        if done.is_none() {
            *env = saved;
            self.found.truncate(found);
            self.cut.truncate(cut);
            self.entered = entered;
            if let Some(e) = self.early.last_mut() {
                e.truncate(early);
            }
        }
        done
    }

    /// Whether the loop `for (…; i < n; i++)` (or `<=`, `++i`, `i += 1`) is known to run more
    /// than [`MAX_UNROLL`] iterations before it starts (`i` and `n` known): then it is not
    /// tried, whose first [`MAX_UNROLL`] iterations would be interpreted only to be dropped
    /// (llm.c's `benchmark_kernel`, 1,000 repeats of a launch, inside a loop over block sizes).
    fn too_many_iterations(&mut self, cond: &'a Node, inc: &'a Node, env: &Env) -> bool {
        let cond = strip(cond);
        let (Some(op), [lhs, rhs]) = (cond.opcode.as_deref(), &cond.inner[..]) else {
            return false;
        };
        if cond.kind != "BinaryOperator" || !matches!(op, "<" | "<=") {
            return false;
        }
        let var = strip(lhs);
        let Some(id) = var
            .referenced_decl
            .as_ref()
            .filter(|_| var.kind == "DeclRefExpr")
            .map(|d| &d.id)
        else {
            return false;
        };
        let inc = strip(inc);
        let step_one = match (inc.kind.as_str(), inc.opcode.as_deref()) {
            ("UnaryOperator", Some("++")) => true,
            ("CompoundAssignOperator", Some("+=")) => inc.inner.get(1).and_then(const_value) == Some(BigInt::from(1)),
            _ => false,
        } && inc
            .inner
            .first()
            .map(strip)
            .and_then(|t| t.referenced_decl.as_ref())
            .is_some_and(|d| d.id == *id);
        if !step_one {
            return false;
        }
        let (Some(Val::Int(Expr::Const { value: from, .. })), Some(Val::Int(Expr::Const { value: to, .. }))) =
            (env.vals.get(id).cloned(), self.eval(rhs, env))
        else {
            return false;
        };
        let count = to - from + BigInt::from(u8::from(op == "<="));
        count > BigInt::from(MAX_UNROLL)
    }

    /// Whether running `n` may reach a launch: `n` holds one, or calls a host function that
    /// may (transitively, memoized by definition), or calls through a pointer or a function
    /// the program does not define (which may call back).
    pub(super) fn reaches_launch(&mut self, n: &'a Node) -> bool {
        let mut sites = Vec::new();
        launch_nodes(n, &mut sites);
        if !sites.is_empty() {
            return true;
        }
        let mut calls = Vec::new();
        call_nodes(n, &mut calls);
        calls.into_iter().any(|c| {
            let Some(callee) = c.inner.first().map(strip) else {
                return true;
            };
            // The function called by name (a member function too); else a pointer.
            let id = match (callee.kind.as_str(), &callee.referenced_decl) {
                ("DeclRefExpr", Some(d)) if d.kind.ends_with("FunctionDecl") || d.kind.starts_with("CXX") => &d.id,
                ("MemberExpr", _) => match &callee.referenced_member_decl {
                    Some(id) => id,
                    None => return true,
                },
                _ => return true,
            };
            let f = self.definition(id);
            let Some(body) = f.and_then(body_of) else {
                // A library's function (`printf`, `cudaMalloc`, `std::vector::push_back`),
                // which calls none of the program's launches unless given a pointer to one.
                return c.inner.iter().skip(1).any(|a| self.host_function(a).is_some());
            };
            let Some(f) = f else { return true };
            if let Some(r) = self.reaching.get(&f.id) {
                return *r;
            }
            // Recursion: not reaching unless another path does.
            self.reaching.insert(f.id.clone(), false);
            let r = self.reaches_launch(body);
            self.reaching.insert(f.id.clone(), r);
            r
        })
    }

    /// The elements of the local array `d` declares with the initializer `init`, when it is a
    /// one-dimensional integer array with one initializer per element that the function only
    /// reads by subscript (or measures with `sizeof`).
    pub(super) fn read_only_array(&mut self, d: &'a Node, init: Option<&'a Node>, env: &Env) -> Option<Vec<Expr>> {
        let ty = bare(d.type_str());
        let (elem, rest) = ty.split_once('[')?;
        let len: usize = rest.strip_suffix(']')?.trim().parse().ok()?;
        let elem_ty = self.int_ty(elem.trim())?;
        let list = strip(init?);
        if list.kind != "InitListExpr" || list.inner.len() != len || len == 0 {
            return None;
        }
        let body = *self.bodies.last()?;
        if !only_read(body, &d.id, false) {
            return None;
        }
        let mut out = Vec::new();
        for e in &list.inner {
            let v = match self.eval(e, env) {
                Some(Val::Int(v)) => cast(v, elem_ty),
                _ => self.unknown("?", elem_ty),
            };
            out.push(v);
        }
        Some(out)
    }

    /// `a[i]` of a read-only local array with `i` known.
    pub(super) fn element(&mut self, e: &'a Node, env: &Env, ty: Ty) -> Option<Expr> {
        let base = strip(e.inner.first()?);
        let id = &base.referenced_decl.as_ref()?.id;
        let Some(Val::Array(elems)) = env.vals.get(id) else {
            return None;
        };
        let elems = elems.clone();
        let Some(Val::Int(Expr::Const { value, .. })) = self.eval(e.inner.get(1)?, env) else {
            return self.one_of(&elems, ty);
        };
        let i = usize::try_from(&value).ok()?;
        Some(cast(elems.get(i)?.clone(), ty))
    }
}

impl Host<'_, '_> {
    /// An element of the array `elems` at an index not known (a loop over `block_sizes[]` too
    /// long to unroll): a new unknown that is one of the elements, when they are all constants
    /// ([`Host::sets`]; a launch passing it assumes the set). Reading past the end is
    /// undefined behaviour, which the program is taken not to have.
    fn one_of(&mut self, elems: &[Expr], ty: Ty) -> Option<Expr> {
        let values: Vec<BigInt> = elems
            .iter()
            .map(|e| match fold(cast(e.clone(), ty)) {
                Expr::Const { value, .. } => Some(value),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if values.is_empty() {
            return None;
        }
        let u = self.unknown("?", ty);
        if let Expr::Var { id, .. } = &u {
            self.sets.insert(*id, (ty, values));
        }
        Some(u)
    }
}

/// Whether `n` holds a `break` or `continue` of the loop it is the body of (`in_loop`: inside
/// a nested loop; `in_switch`: inside a nested `switch`), or a `goto`.
pub(super) fn jumps(n: &Node, in_loop: bool, in_switch: bool) -> bool {
    match n.kind.as_str() {
        "GotoStmt" | "IndirectGotoStmt" => return true,
        "BreakStmt" => return !in_loop && !in_switch,
        "ContinueStmt" => return !in_loop,
        "LambdaExpr" => return false,
        _ => {}
    }
    let in_loop = in_loop || matches!(n.kind.as_str(), "ForStmt" | "WhileStmt" | "DoStmt" | "CXXForRangeStmt");
    let in_switch = in_switch || n.kind == "SwitchStmt";
    n.inner.iter().any(|c| jumps(c, in_loop, in_switch))
}

/// Whether every mention of the variable `id` under `n` reads an element (`a[i]` as a value)
/// or measures it (`sizeof a`). `read`: `n` is read as a value.
fn only_read(n: &Node, id: &str, read: bool) -> bool {
    match n.kind.as_str() {
        "DeclRefExpr" => return n.referenced_decl.as_ref().is_none_or(|d| d.id != id),
        "UnaryExprOrTypeTraitExpr" => return true,
        "ArraySubscriptExpr" => {
            let base = strip(&n.inner[0]);
            let ours = base.kind == "DeclRefExpr" && base.referenced_decl.as_ref().is_some_and(|d| d.id == id);
            if ours {
                return read && n.inner.iter().skip(1).all(|c| only_read(c, id, false));
            }
        }
        _ => {}
    }
    let reads = n.kind == "ImplicitCastExpr" && n.cast_kind.as_deref() == Some("LValueToRValue");
    n.inner.iter().all(|c| only_read(c, id, reads))
}

/// The calls (`CallExpr`, member and operator calls) under `n`.
fn call_nodes<'n>(n: &'n Node, out: &mut Vec<&'n Node>) {
    if matches!(
        n.kind.as_str(),
        "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr"
    ) {
        out.push(n);
    }
    for c in &n.inner {
        call_nodes(c, out);
    }
}
